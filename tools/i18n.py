"""Keep the translation catalogues (game/locale) in step with the code, with Babel.

    python tools/i18n.py update [DOMAIN ...]   extract every marked string of each domain's files
                                               into game/locale/<domain>.pot, and merge it into the
                                               ko and ja .po files (new strings untranslated)
    python tools/i18n.py compile [DOMAIN ...]  compile every .po to its .mo (shipped with the game)
    python tools/i18n.py missing [DOMAIN ...]  list the strings a catalogue does not translate yet

Strings are marked with _(), N_(), ngettext() and pgettext() (game.i18n). Each domain lists its
source files below; a file belongs to one domain.
"""

from __future__ import annotations

import sys
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "game" / "locale"
LANGS = ("ko", "ja")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}

#: Each domain's source files (globs from the repository's root). A file belongs to one domain.
DOMAIN_FILES: dict[str, list[str]] = {
    "menus": [
        "game/ui/scenes/menu.py",
        "game/ui/scenes/saves.py",
        "game/ui/scenes/demo.py",
        "game/ui/choices.py",
        "game/ui/scenes/builder.py",
        "game/ui/content_notice.py",
        "game/data/army_lists.py",
        "game/ui/saves_list.py",
        "game/ui/position_words.py",
        "game/ui/confirm.py",
        "game/ui/keys_help.py",
        "game/ui/input.py",
        "game/ui/widgets.py",
        "game/ui/render/toast.py",
        "game/ui/app.py",
        "game/ui/settings.py",
        "game/ui/theme.py",
    ],
    "battle": [
        "game/ui/hint.py",
        "game/ui/scenes/battle.py",
        "game/ui/scenes/replay.py",
        "game/ui/scenes/base.py",
        "game/ui/render/field.py",
        "game/ui/render/hud.py",
        "game/ui/render/overlays.py",
        "game/ui/render/card_view.py",
        "game/ui/render/sight_marks.py",
        "game/ui/render/log_view.py",
        "game/ui/panel.py",
        "game/ui/decisions.py",
        "game/ui/controls/*.py",
        "game/ui/cards.py",
        "game/ui/controllers.py",
        "game/ui/session.py",
        "game/ui/storage.py",
        "game/ui/export.py",
        "game/ui/phase_words.py",
    ],
    "log": ["game/ui/labels.py", "game/ui/recap.py", "game/ai/*.py", "game/ai/**/*.py", "game/i18n.py"],
    "rules": [
        "game/ui/rule_texts.py",
        "game/ui/content_words.py",
        "game/content_words.py",
        "game/demos/*.py",
        "game/demos/**/*.py",
    ],
    "engine": ["game/ui/engine_words.py"],
    "cli": [
        "game/cli.py",
        "game/argparse_words.py",
        "game/sim.py",
        "game/sim_report.py",
        "game/sim_dask.py",
        "game/sim_log.py",
        "game/textview.py",
        "game/argtypes.py",
        "game/__main__.py",
        "game/check_words.py",
    ],
}


def sources(domain: str) -> list[Path]:
    seen: list[Path] = []
    for pattern in DOMAIN_FILES[domain]:
        for p in sorted(ROOT.glob(pattern)):
            if p.is_file() and p not in seen:
                seen.append(p)
    return seen


def extract(domain: str) -> Catalog:
    """Every marked string of the domain's files, as a template catalogue (with its places)."""
    cat = Catalog(domain=domain, project="Spellfield", charset="utf-8")
    for path in sources(domain):
        for lineno, message, comments, context in extract_from_file(
            "python", path, keywords=KEYWORDS, comment_tags=("i18n:",)
        ):
            cat.add(message, None, [(str(path.relative_to(ROOT)), lineno)], auto_comments=comments, context=context)
    if domain == "rules":
        add_content(cat)
    return cat


def add_content(cat: Catalog) -> None:
    """The "rules" domain also holds the content's names and texts (units, spells, maps, demos:
    game/ui/content_words.py lists them from the content files)."""
    sys.path.insert(0, str(ROOT))
    from game.content_words import content_strings

    for text, where in content_strings(ROOT):
        if text not in cat:
            cat.add(text, None, [(where, 0)])


def po_path(lang: str, domain: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


def read(path: Path, lang: str, domain: str) -> Catalog:
    if path.is_file():
        with path.open("rb") as f:
            return read_po(f, locale=lang, domain=domain)
    return Catalog(locale=lang, domain=domain, project="Spellfield", charset="utf-8")


def write(path: Path, cat: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = BytesIO()
    write_po(buf, cat, width=0, sort_output=False, omit_header=False)
    path.write_bytes(buf.getvalue())


def update(domain: str) -> None:
    template = extract(domain)
    write(LOCALE / f"{domain}.pot", template)
    for lang in LANGS:
        p = po_path(lang, domain)
        cat = read(p, lang, domain)
        cat.update(template, update_header_comment=False, no_fuzzy_matching=True)
        cat.obsolete.clear()  # a string gone from the code leaves the catalogue
        write(p, cat)


def mo_bytes(po: Path, lang: str, domain: str) -> bytes:
    buf = BytesIO()
    write_mo(buf, read(po, lang, domain), use_fuzzy=False)
    return buf.getvalue()


def compile_domain(domain: str) -> None:
    for lang in LANGS:
        p = po_path(lang, domain)
        if p.is_file():
            p.with_suffix(".mo").write_bytes(mo_bytes(p, lang, domain))


def missing(domain: str) -> list[tuple[str, str]]:
    """(lang, msgid) of every string of the domain's code that a catalogue does not translate."""
    out = []
    template = extract(domain)
    for lang in LANGS:
        cat = read(po_path(lang, domain), lang, domain)
        for msg in template:
            if not msg.id:
                continue
            have = cat.get(msg.id, context=msg.context)
            strings = (have.string if isinstance(have.string, (list, tuple)) else [have.string]) if have else []
            if not have or have.fuzzy or not all(strings):
                out.append((lang, msg.id if isinstance(msg.id, str) else msg.id[0]))
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("update", "compile", "missing"):
        print(__doc__)
        return 2
    domains = argv[1:] or list(DOMAIN_FILES)
    for d in domains:
        if d not in DOMAIN_FILES:
            print(f"unknown domain {d!r} (domains: {', '.join(DOMAIN_FILES)})")
            return 2
        if argv[0] == "update":
            update(d)
        elif argv[0] == "compile":
            compile_domain(d)
        else:
            for lang, msgid in missing(d):
                print(f"{d} {lang}: {msgid}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
