"""Spellfield's data layer: pydantic models, safe TOML loading, merged content and maps."""

from game.data.content import (
    DEFAULT_ARMIES,
    DEFAULT_MAP,
    Content,
    build_content,
    default_content,
    list_maps,
    load_content,
    load_map,
)
from game.data.errors import DataError
from game.data.loader import detect_kind, load_content_file, load_map_file

__all__ = [
    "DEFAULT_ARMIES",
    "DEFAULT_MAP",
    "Content",
    "DataError",
    "build_content",
    "default_content",
    "detect_kind",
    "list_maps",
    "load_content",
    "load_content_file",
    "load_map",
    "load_map_file",
]
