"""Rule paraphrases by ID, for the event log's "what does this rule say" box."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def rule_texts() -> dict[str, dict[str, str]]:
    try:
        raw = (resources.files("game.ui") / "rule_texts.toml").read_text(encoding="utf-8")
        return tomllib.loads(raw)
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def rule_text(rule_id: str) -> tuple[str, str]:
    """(title, text) for a rule ID such as "M3"; a placeholder when unknown."""
    entry = rule_texts().get(rule_id)
    if not entry:
        return rule_id, "No text for this rule."
    return f"{rule_id} {entry.get('title', '')}".strip(), entry.get("text", "")
