"""Content names in the player's language, for the UI (issue 22): see game.content_words."""

from __future__ import annotations

from game.content_words import CONTENT_FILES, TEXT_KEYS, content_name, content_strings

__all__ = ["CONTENT_FILES", "TEXT_KEYS", "content_name", "content_strings"]
