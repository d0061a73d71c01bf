"""`spellfield check`'s problem lines in the player's language (issue 22, domain "cli").

The data layer (game.data.check, loader, geocheck, content, models) words its problems in English,
"file: field: reason", and never translates: the same words reach logs and tests in every
language. At display the CLI passes each line through `check_line`: the file and the field
paths stay exactly as written (the author must find them in the file), and the reason is matched
once against the English templates below and worded in the language in use. A reason no template
makes stays English (a new data-layer message shows as it is rather than wrongly).
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

from game.content_words import content_name
from game.i18n import N_, _, language

#: The reasons a check gives, as English templates ({fields} are read back from the text).
TEMPLATES: tuple[str, ...] = (
    # reading the file (game.data.loader, game.data.safe_io)
    N_("no such file"),
    N_("is a directory, not a file"),
    N_("permission denied"),
    N_("a part of the path is not a folder"),
    N_("file is too large ({size} bytes); the limit is {limit} bytes ({text})"),
    N_("file is too large (more than {size} bytes); the limit is {limit} bytes ({text})"),
    N_("line {line}, column {col}: {reason}"),
    N_("line {line}: {reason}"),
    N_("not UTF-8 text (byte {byte})"),
    N_("invalid TOML: {reason}"),
    N_("cannot read as TOML: {reason}"),
    N_("nesting too deep"),
    N_("nesting too deep to check"),
    N_("nesting too deep (arrays or tables nested beyond what we read)"),
    # TOML syntax (tomllib's reasons, first letter lowered)
    N_("invalid value"),
    N_("invalid statement"),
    N_("unclosed array"),
    N_("unclosed inline table"),
    N_("unterminated string"),
    N_("illegal character {char}"),
    N_("expected '=' after a key in a key/value pair"),
    N_("expected newline or end of document after a statement"),
    N_("cannot overwrite a value"),
    N_("cannot declare {what} twice"),
    N_("invalid initial character for a key part"),
    # a name that is not there (game.data.content, game.demos.loader: `play --map`, `demo NAME`)
    N_("unknown map {map}; embedded maps: {maps}"),
    N_("no demonstration named {demo}; known: {demos}"),
    # the kind of file (game.data.check)
    N_("a rule demonstration; check it with `spellfield check`, which knows them"),
    N_("this is a replay, not a map or content file; verify it with the replay tools"),
    N_("not a map file (no [map] table), a demonstration ([demo] and [[step]]) or a content file (no {tables})"),
    N_("internal error while checking this file: {error}"),
    N_("map.id {id} differs from the file name; embedded maps are found by file name"),
    N_("... and {left} more problems"),
    N_("... and {left} more like this ({kind})"),
    # the schema (pydantic, as game.data.loader words it)
    N_("missing required field"),
    N_("unknown key"),
    N_("unknown key; known keys: {keys}"),
    N_("should be a valid integer"),
    N_("should be a valid integer, got a number with a fractional part"),
    N_("should be a valid integer, unable to parse string as an integer"),
    N_("should be a valid number"),
    N_("should be a valid number, unable to parse string as a number"),
    N_("should be a valid string"),
    N_("should be a valid boolean"),
    N_("should be a valid list"),
    N_("should be a valid array"),
    N_("should be a valid tuple"),
    N_("should be a valid dictionary"),
    N_("should be a valid dictionary or instance of {model}"),
    N_("should be a finite number"),
    N_("should be greater than {n}"),
    N_("should be greater than or equal to {n}"),
    N_("should be less than {n}"),
    N_("should be less than or equal to {n}"),
    N_("should have at most {n} items after validation, not {got}"),
    N_("should have at least {n} items after validation, not {got}"),
    N_("should have at most {n} characters"),
    N_("should have at least {n} characters"),
    N_("should match pattern {pattern}"),
    N_("should be {choices}"),
    N_("should be a whole number or a dice expression such as 3, D3, 2D6 or D6+1"),
    N_("should be a number, not {value}"),
    N_("must be 0 to {max}, got {value}"),
    N_("not a dice expression like 3, D3, 2D6 or D6+1: {value}"),
    N_("at most {n} dice, got {value}"),
    N_("the bonus must be at most {max}, got {value}"),
    N_("unknown effect handler {handler}; known: {known}"),
    N_("handler {handler} takes no {fields}"),
    N_("handler {handler} needs {fields}"),
    N_("give exactly one of round_mm or polygon"),
    N_("ward must be 0 (none) or 2-6, got {value}"),
    N_("keyword {keyword} must be upper case, e.g. HERO or WIZARD (2)"),
    N_("unit bases must be round (base.round_mm)"),
    N_("only a WIZARD (n) can have spells"),
    N_("only a PRIEST (n) can have prayers"),
    N_("colour channels must be 0-255, got {value}"),
    N_("general is unit index {index} but the army has {n} units"),
    # polygons (game.data.models, game.data.geocheck)
    N_("polygon needs at least 3 points, got {n}"),
    N_("needs at least 3 points, got {n}"),
    N_('point [{j}] ({x}, {y}) is more than {max}" from the centre (0, 0)'),
    N_("{where} ({x}, {y}) lies off the {size} battlefield"),
    N_("{where} at ({x}, {y}) lies off the {size} battlefield"),
    N_("not a simple polygon: {why}"),
    N_("{name} is not a simple polygon: {why}"),
    N_("its {n} points coincide in {distinct} distinct point; a polygon needs 3 or more"),
    N_("its {n} points coincide in {distinct} distinct points; a polygon needs 3 or more"),
    N_("Self-intersection[{at}]"),
    N_("Ring Self-intersection[{at}]"),
    N_("Too few points[{at}]"),
    N_("zero area"),
    N_("centred on ({x}, {y}), expected about (0, 0)"),
    # maps (game.data.geocheck)
    N_("({x}, {y}) lies inside impassable terrain {where} ({name})"),
    N_("{n} objectives; {range} are recommended"),
    N_("a second zone for player {player} (first is {where})"),
    N_("no deployment zone for player {player}"),
    N_("the two deployment zones overlap"),
    N_("{n} anchors; {r} are recommended (one per army unit)"),
    N_("({x}, {y}) is outside player {player}'s deployment zone"),
    N_(
        "a unit of {n} models on {mm}mm bases in {rows} rows does not fit around ({x}, {y}) "
        "inside the zone and clear of impassable terrain"
    ),
    N_('only {d}" apart; {r}" is recommended'),
    # content (game.data.content): M8 lores, M9 summoning
    N_("duplicate {section} id {id} (defined twice in that file)"),
    N_("duplicate {section} id {id} (defined first in {file})"),
    N_("summons unknown manifestation {id}"),
    N_("a spell summons endless spells, but {id} is an {kind} (M9)"),
    N_("a prayer summons invocations, but {id} is an {kind} (M9)"),
    N_("abilities lists {ids} more than once"),
    N_("no spell or prayer has id {id} (M8)"),
    N_("{id} has no summon effect; a manifestation lore holds only summoning spells and prayers (M9)"),
    N_("{id} is a {kind}, but this is a {lore} lore (M8)"),
    N_("no {kind} has id {id} (M8)"),
    N_("{id} is a {known}, not a {kind} (M8)"),
    N_("a manifestation cannot summon when it passes across a unit"),
    N_("unknown warscroll {id}"),
    N_("unknown lore {id} (M8)"),
    N_("{id} is a {known} lore, not a {kind} lore (M8)"),
    N_("unit {index} ({id}) is not a HERO"),
    # rule demonstrations (game.demos.loader)
    N_("overlaps impassable terrain {name} (G4)"),
    N_('the base ({r}" radius) lies off the {size} battlefield (G3)'),
    N_('overlaps {other} by {d}" (G4)'),
    N_("{n} damage on a model with {h} health; it must be 0 to {most} (a model with {h2} is slain)"),
    N_("{n} models, but a unit of {name} has {m} (warscroll {id})"),
)

#: Words the data layer puts into its reasons as fields (a content section, an ability's kind).
WORDS: dict[str, str] = {
    "spell": N_("spell"),
    "prayer": N_("prayer"),
    "endless spell": N_("endless spell"),
    "invocation": N_("invocation"),
    "manifestation": N_("manifestation"),
    "lore": N_("lore"),
    "warscroll": N_("warscroll"),
    "ability": N_("ability"),
    "army": N_("army"),
}
WORD_FIELDS = frozenset({"kind", "known", "lore", "section"})
#: Fields that are reasons in turn (worded again); the rest stay exactly as written.
REASON_FIELDS = frozenset({"reason", "why"})

#: The parts before a reason: a field path ("map.terrain[0].points", "unit[1].models[0] ('beast')"),
#: two paths ("map.deployment[0] and map.deployment[1]", "[3] and [4]") or a content thing
#: ("lore 'sky'"). They stay as written.
_PAREN = r"\((?:[^()]|\([^()]*\))*\)"
_PATH = rf"(?:[\w.]*(?:\[\d+\])*[\w.\[\]]*)(?: {_PAREN})?"
_WHERE = re.compile(rf"(?:(?:warscroll|ability|lore|manifestation|army) '[^']*'|{_PATH}(?: and {_PATH})?): ")
_GOT = re.compile(r"(?P<text>.*) \(got (?P<got>.*)\)\Z", re.S)
GOT = N_("{reason} (got {value})")
BOTH = N_("{first} and {second}")
_THING = re.compile(r"(?P<section>warscroll|ability|lore|manifestation|army) (?P<id>'[^']*'): \Z")
_BOTH = re.compile(rf"(?P<first>{_PATH}) and (?P<second>{_PATH}): \Z")
OR = N_(" or ")
SEPARATOR = N_("; ")


def _pattern(template: str) -> re.Pattern[str]:
    out, seen = [], set()
    for literal, name, _spec, _conv in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name is not None:
            out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
    return re.compile("".join(out) + r"\Z", re.S)


_PATTERNS: list[tuple[str, re.Pattern[str]]] = []


def _literal(template: str) -> int:
    return sum(len(lit) for lit, *_rest in string.Formatter().parse(template))


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    if not _PATTERNS:
        # the most specific first: "less than or equal to {n}" before "less than {n}"
        for t in sorted(TEMPLATES, key=_literal, reverse=True):
            _PATTERNS.append((t, _pattern(t)))
    return _PATTERNS


def reason_text(reason: str, depth: int = 0) -> str | None:
    """One reason in the language in use, or None when no template makes it."""
    for t, p in _patterns():
        m = p.match(reason)
        if m is None:
            continue
        fields = {}
        for k, v in m.groupdict().items():
            if k in REASON_FIELDS and depth < 3:
                fields[k] = reason_text(v[:1].lower() + v[1:], depth + 1) or reason_text(v, depth + 1) or v
            elif k in WORD_FIELDS and v in WORDS:
                fields[k] = _(WORDS[v])
            elif k == "name" and not v.startswith("'"):
                fields[k] = content_name(v)  # a built-in warscroll's name, in the language in use
            else:
                fields[k] = v
        return _(t).format(**fields)
    return None


def _reasons(text: str) -> str | None:
    """A reason with its "(got value)", its alternatives ("... or ...") and its parts ("; ")."""
    m = _GOT.match(text)
    if m:
        inner = _reasons(m["text"])
        return None if inner is None else _(GOT).format(reason=inner, value=m["got"])
    said = reason_text(text)
    if said is not None:
        return said
    for sep, word in (("; ", SEPARATOR), (" or ", OR)):
        parts = text.split(sep)
        if len(parts) > 1:
            words = [reason_text(p) for p in parts]
            if all(w is not None for w in words):
                return _(word).join(w for w in words if w is not None)
    return None


def check_line(line: str, labels: Sequence[str] = ()) -> str:
    """One problem or warning line of `spellfield check` in the language in use: the file and
    the field paths as written, the reason worded; the line unchanged in English or when no
    template makes its reason."""
    if language() == "en":
        return line
    original, head = line, ""
    try:
        for label in sorted(labels, key=len, reverse=True):
            if line.startswith(f"{label}: "):
                head, line = f"{label}: ", line[len(label) + 2 :]
                break
        # the field paths first (a reason may begin with a field of its own), then fewer of them
        cuts = [0]
        while True:
            m = _WHERE.match(line, cuts[-1])
            if m is None or not m.group(0).strip(": "):
                break
            cuts.append(m.end())
        for n in range(len(cuts) - 1, -1, -1):
            said = _reasons(line[cuts[n] :])
            if said is not None:
                where = [_where(line[a:b]) for a, b in zip(cuts, cuts[1 : n + 1])]
                return head + "".join(where) + said
        return original
    except Exception:  # a line we cannot word stays as the data layer wrote it (never a crash)
        return original


def _where(part: str) -> str:
    """One "where" part before a reason: a content thing's kind and two paths' "and" worded,
    the ids and paths as written."""
    m = _THING.match(part)
    if m:
        return f"{_(WORDS[m['section']])} {m['id']}: "
    m = _BOTH.match(part)
    if m:
        return _(BOTH).format(first=m["first"], second=m["second"]) + ": "
    return part
