"""Rule paraphrases by ID, for the event log's "what does this rule say" box.

English in rule_texts.toml; Korean and Japanese in rule_texts.ko.toml / rule_texts.ja.toml (our own
words, the seeds' terms). `rule_text` reads the language in use at the moment of display and falls
back to English for a rule the language's file does not have (issue 22).
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources

from game import i18n
from game.i18n import _


@lru_cache(maxsize=4)
def rule_texts(lang: str = "en") -> dict[str, dict[str, str]]:
    """The rule texts of `lang` ("en", "ko", "ja"), by rule ID; empty when the file is missing."""
    name = "rule_texts.toml" if lang == "en" else f"rule_texts.{lang}.toml"
    try:
        raw = (resources.files("game.ui") / name).read_text(encoding="utf-8")
        return tomllib.loads(raw)
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def rule_text(rule_id: str) -> tuple[str, str]:
    """(title, text) for a rule ID such as "M3", in the language in use (English when that
    language lacks the rule); a placeholder when unknown."""
    entry = rule_texts(i18n.language()).get(rule_id) or rule_texts("en").get(rule_id)
    if not entry:
        return rule_id, _("No text for this rule.")
    return f"{rule_id} {entry.get('title', '')}".strip(), entry.get("text", "")
