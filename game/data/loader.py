"""Read Spellfield's TOML data files safely and validate them against `game.data.models`.

Every failure becomes a `DataError` whose messages name the file, the field path and the bad
value, for example::

    maps/ruins.toml: map.terrain[2].points: needs at least 3 points, got 2 (got [[1, 2], [3, 4]])

Nothing here lets a traceback escape for bad input: oversized files, invalid UTF-8, malformed
TOML, nesting deep enough to exhaust the recursion limit and schema violations are all reported
as problems.
"""

from __future__ import annotations

import os
import re
import tomllib
import types
import typing
from collections.abc import Mapping
from importlib.resources.abc import Traversable
from typing import Any, Literal, TypeVar, Union

import numpy as np
from pydantic import BaseModel, ValidationError

from game.data.errors import DataError
from game.data.geocheck import footprint_problems, map_problems
from game.data.models import BattleMap, ContentFile, MapFile
from game.data.safe_io import describe_os_error, read_regular_bytes

#: Largest data file we read. Real content files are a few tens of KiB.
MAX_FILE_BYTES = 1 << 20

#: Longest rendering of a bad value inside a message.
MAX_VALUE_CHARS = 80

#: Most problems reported for one file; the rest are counted.
MAX_PROBLEMS = 100

#: Most parts in one dotted key (`a.b.c` has 3), outside strings and comments. tomllib takes
#: quadratic time in a key's depth (measured: 5,000 parts 1 s, 20,000 parts 10 s, 50,000 parts
#: 50 s), so a 1 MiB key could stall it for minutes; at 16 parts a whole 1 MiB file of such keys
#: parses in about a second. Our deepest real key is `expect.events` (2 parts).
MAX_KEY_PARTS = 16

#: Deepest nesting of arrays and inline tables, outside strings and comments. tomllib recurses
#: per level and raises RecursionError at about 330 nested inline tables or 490 nested arrays
#: (default recursion limit); a polygon is 2 deep, our deepest real data 4.
MAX_NESTING = 200

#: Top-level arrays that mark a content file.
CONTENT_KEYS = ("warscroll", "ability", "lore", "manifestation", "army")

FileKind = Literal["map", "content", "replay", "unknown"]

M = TypeVar("M", bound=BaseModel)

Source = Union[str, "os.PathLike[str]", Traversable]


# --- reading ---------------------------------------------------------------------------------


def label_for(source: Source) -> str:
    """How a file is named in messages: the path as given (or a resource's name)."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return getattr(source, "name", str(source))


def _size_text(n: int) -> str:
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MiB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.1f} KiB"
    return f"{n} bytes"


def read_bytes(source: Source, label: str | None = None, limit: int = MAX_FILE_BYTES) -> bytes:
    """Read a file (a path or an `importlib.resources` Traversable), refusing files over `limit`.

    Paths go through `game.data.safe_io.read_regular_bytes`: only regular files (a FIFO, socket
    or device such as /dev/zero is refused without blocking), at most `limit + 1` bytes read,
    every OS error a `DataError` naming the file and the reason."""
    label = label or label_for(source)
    if isinstance(source, (str, os.PathLike)):
        return read_regular_bytes(source, limit, label, DataError)
    too_big = (
        f"{label}: file is too large (more than {limit:,} bytes); the limit is {limit:,} bytes ({_size_text(limit)})"
    )
    try:
        with source.open("rb") as f:
            raw = f.read(limit + 1)
    except OSError as e:
        raise DataError(f"{label}: {describe_os_error(e)}") from None
    if len(raw) > limit:
        raise DataError(too_big)
    return raw


# Strings and comments, as tomllib reads them, so that what they hold (prose full of dots, a '['
# in a caption) is not mistaken for structure. Possessive repeats and the unterminated forms
# (to the end of the line, or of the file for a multi-line string) keep the scan linear: tomllib
# reports an unterminated string itself, and nothing before it is hidden from the scan.
_STRING_OR_COMMENT = re.compile(
    r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*+"{3,5}'  # multi-line basic string
    r"|'''(?:[^']|'(?!''))*+'{3,5}"  # multi-line literal string
    r'|"""[\s\S]*|\'\'\'[\s\S]*'  # unterminated multi-line strings: the rest of the file
    r'|"(?:[^"\\\n]|\\.)*+"|"[^\n]*'  # basic string (or unterminated, to the end of the line)
    r"|'[^'\n]*+'|'[^\n]*"  # literal string
    r"|#[^\n]*"  # comment
)
_KEY_BREAK = re.compile(r"[\n=,\[\]{}]")


def _blank(m: re.Match[str]) -> str:
    """A string or comment of the same length and line count with nothing structural in it."""
    g = m.group(0)
    return re.sub(r"[^\n]", "q", g) if "\n" in g else "q" * len(g)


def nesting_problem(text: str) -> str | None:
    """Why `text` nests too deeply for us to hand it to tomllib, or None.

    Measures the real thing outside strings and comments: the depth of arrays and inline tables
    (`[`/`{` against `]`/`}`) and the number of parts in one dotted key. Dots in prose (inside
    strings) and decimal points (one per number) do not count. Linear in the text's length.
    """
    if text.count(".") < MAX_KEY_PARTS and text.count("[") + text.count("{") <= MAX_NESTING:
        return None  # cannot exceed either limit
    plain = _STRING_OR_COMMENT.sub(_blank, text)
    b = np.frombuffer(plain.encode("utf-8"), dtype=np.uint8)
    step = np.zeros(len(b), dtype=np.int32)
    step[(b == ord("[")) | (b == ord("{"))] = 1
    step[(b == ord("]")) | (b == ord("}"))] = -1
    if len(step):
        depth = np.cumsum(step)
        at = int(np.argmax(depth))
        if depth[at] > MAX_NESTING:
            line = int(np.count_nonzero(b[:at] == ord("\n"))) + 1
            return f"nesting too deep: arrays or inline tables nested more than {MAX_NESTING} deep (line {line})"
    pos = 0
    for segment in _KEY_BREAK.split(plain):
        dots = segment.count(".")
        if dots >= MAX_KEY_PARTS:
            line = plain.count("\n", 0, pos) + 1
            return (
                f"line {line}: nesting too deep (a dotted key of {dots + 1} parts; "
                f"at most {MAX_KEY_PARTS} parts such as a.b.c are read)"
            )
        pos += len(segment) + 1
    return None


_TOML_POSITION = re.compile(
    r"^(?P<reason>.*?) \(at (?:line (?P<line>\d+), column (?P<col>\d+)|end of document)\)$", re.S
)


def parse_toml(raw: bytes, label: str) -> dict[str, Any]:
    """Decode UTF-8 TOML bytes into a dict; every failure is a `DataError` naming `label`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise DataError(f"{label}: line {line}, column {col}: not UTF-8 text (byte 0x{raw[e.start]:02x})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    deep = nesting_problem(text)
    if deep:
        raise DataError(f"{label}: {deep}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{label}: {_toml_reason(str(e), text)}") from None
    except RecursionError:
        raise DataError(f"{label}: nesting too deep (arrays or tables nested beyond what we read)") from None
    except (ValueError, OverflowError, MemoryError) as e:  # e.g. absurd numbers; belt and braces
        raise DataError(f"{label}: cannot read as TOML: {e}") from None


def _toml_reason(message: str, text: str) -> str:
    m = _TOML_POSITION.match(message)
    if not m:
        return f"invalid TOML: {message}"
    reason = m.group("reason")
    reason = reason[:1].lower() + reason[1:]
    if m.group("line"):
        line, col = m.group("line"), m.group("col")
    else:
        lines = text.split("\n")
        line, col = str(len(lines)), str(len(lines[-1]) + 1)
    return f"line {line}, column {col}: {reason}"


def read_toml(source: Source, label: str | None = None) -> dict[str, Any]:
    """Read and decode one TOML file with the size cap. Raises `DataError`."""
    label = label or label_for(source)
    return parse_toml(read_bytes(source, label), label)


# --- kinds ----------------------------------------------------------------------------------


def detect_kind(data: Mapping[str, Any]) -> FileKind:
    """What a decoded data file is: a map ([map] table), content (warscroll/ability/lore/
    manifestation/army arrays), a replay ([replay] or [header] + actions), or "unknown"."""
    if "map" in data:
        return "map"
    if any(k in data for k in CONTENT_KEYS):
        return "content"
    if "replay" in data or ("header" in data and "actions" in data):
        return "replay"
    return "unknown"


# --- validation -----------------------------------------------------------------------------


def validate(model: type[M], data: Any, label: str) -> M:
    """Validate `data` against `model`; all problems at once as a `DataError`."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise DataError(pydantic_problems(model, e, label)) from None
    except RecursionError:
        raise DataError(f"{label}: nesting too deep") from None


def pydantic_problems(model: type[BaseModel], error: ValidationError, label: str) -> list[str]:
    """Turn a pydantic ValidationError into one message per problem:
    `file: dotted.path[i].field: reason (got value)`."""
    grouped: dict[str, dict[str, Any]] = {}
    errors = error.errors(include_url=False)
    left = 0
    for n, err in enumerate(errors):
        path, allowed, tags = _path(model, err.get("loc", ()))
        if path not in grouped and len(grouped) >= MAX_PROBLEMS:
            left = len(errors) - n
            break
        reason = _reason(err, allowed)
        entry = grouped.setdefault(path, {"reasons": [], "tags": [], "input": err.get("input"), "type": err["type"]})
        if reason not in entry["reasons"]:
            entry["reasons"].append(reason)
        entry["tags"].extend(tags)
    out = []
    for path, entry in grouped.items():
        reasons = entry["reasons"]
        if entry["tags"] and set(entry["tags"]) <= {"int", "str"}:
            reason = "should be a whole number or a dice expression such as 3, D3, 2D6 or D6+1"
        else:
            reason = " or ".join(reasons)
        where = f"{path}: " if path else ""
        got = "" if entry["type"] == "missing" else f" (got {short_value(entry['input'])})"
        out.append(f"{label}: {where}{reason}{got}")
    if left:
        out.append(f"{label}: ... and {left} more problems")
    return out


def _strip_annotated(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _unwrap(tp: Any) -> Any:
    """Strip Annotated and Optional so the walker sees the container or model underneath."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
            continue
        if origin in (Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
            containers = [a for a in args if typing.get_origin(a) in (list, tuple, dict)]
            if len(args) == 1:
                tp = args[0]
                continue
            if len(models) == 1:
                tp = models[0]
                continue
            if len(containers) == 1:
                tp = containers[0]
                continue
        return tp


def _path(model: type[BaseModel], loc: tuple[Any, ...]) -> tuple[str, list[str] | None, list[str]]:
    """Render a pydantic loc as `a.b[2].c`, skipping union-member tags such as 'int' and 'str'.

    Returns (path, allowed keys if the last key is unknown to its model, skipped tags)."""
    parts: list[str] = []
    tags: list[str] = []
    allowed: list[str] | None = None
    tp: Any = model
    for item in loc:
        was_union = typing.get_origin(_strip_annotated(tp)) in (Union, types.UnionType)
        tp = _unwrap(tp)
        if (
            was_union
            and isinstance(item, str)
            and isinstance(tp, type)
            and issubclass(tp, BaseModel)
            and item not in tp.model_fields
        ):
            tags.append(item)  # a union member's tag ('int', 'DiceEntry'), not a field of the model
            continue
        if isinstance(item, int):
            parts.append(f"[{item}]")
            origin = typing.get_origin(tp)
            args = typing.get_args(tp)
            if origin is list and args:
                tp = args[0]
            elif origin is tuple and args:
                tp = args[0] if len(args) == 2 and args[1] is Ellipsis else args[min(item, len(args) - 1)]
            else:
                tp = None
            continue
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            parts.append(("." if parts else "") + str(item))
            field = tp.model_fields.get(str(item))
            if field is None:
                allowed = list(tp.model_fields)
                tp = None
            else:
                tp = field.annotation
            continue
        if typing.get_origin(tp) is dict:
            parts.append(("." if parts else "") + str(item))
            tp = typing.get_args(tp)[1] if typing.get_args(tp) else None
            continue
        tags.append(str(item))  # a union member tag, not a field
    return "".join(parts), allowed, tags


_REWRITES = [
    (re.compile(r"^Value error, "), ""),
    (re.compile(r"^Assertion failed, "), ""),
    (re.compile(r"^(?:Input|String|List|Tuple|Dictionary|Value|Object|Data) should "), "should "),
    (re.compile(r"^Field required$"), "missing required field"),
]


def _reason(err: Mapping[str, Any], allowed: list[str] | None) -> str:
    if err["type"] == "extra_forbidden":
        known = f"; known keys: {', '.join(allowed)}" if allowed else ""
        return f"unknown key{known}"
    msg = str(err.get("msg", "invalid"))
    for pattern, repl in _REWRITES:
        msg = pattern.sub(repl, msg)
    return msg


def short_value(value: Any, limit: int = MAX_VALUE_CHARS) -> str:
    """A TOML/JSON-like rendering of a value, truncated with '...' past `limit` characters."""
    out: list[str] = []
    budget = [limit + 1]

    def emit(s: str) -> bool:
        out.append(s)
        budget[0] -= len(s)
        return budget[0] > 0

    def walk(v: Any, depth: int) -> bool:
        if isinstance(v, bool):
            return emit("true" if v else "false")
        if isinstance(v, str):
            return emit('"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"')
        if isinstance(v, (int, float)):
            return emit(repr(v))
        if isinstance(v, (list, tuple)):
            if depth > 6:
                return emit("[...]")
            if not emit("["):
                return False
            for i, x in enumerate(v):
                if i and not emit(", "):
                    return False
                if not walk(x, depth + 1):
                    return False
            return emit("]")
        if isinstance(v, Mapping):
            if depth > 6:
                return emit("{...}")
            if not emit("{"):
                return False
            for i, (k, x) in enumerate(v.items()):
                if i and not emit(", "):
                    return False
                if not emit(f"{k} = "):
                    return False
                if not walk(x, depth + 1):
                    return False
            return emit("}")
        return emit(str(v))

    walk(value, 0)
    text = "".join(out)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


# --- loading --------------------------------------------------------------------------------


def load_content_data(data: Mapping[str, Any], label: str, warn: list[str] | None = None) -> ContentFile:
    """Validate decoded TOML as a content file: the schema, then the footprint geometry
    (`game.data.geocheck`), the same checks `spellfield check` runs. Advice goes to `warn`."""
    cf = validate(ContentFile, data, label)
    problems = footprint_problems(cf, label, warn)
    if problems:
        raise DataError(problems)
    return cf


def load_map_data(data: Mapping[str, Any], label: str, warn: list[str] | None = None) -> BattleMap:
    """Validate decoded TOML as a map file and return its battlefield: the schema, then the
    map's geometry (`game.data.geocheck.map_problems`), exactly what `spellfield check` runs, so
    every way a map comes in (check, `Game.load`, `play --map`, `record --map`) refuses the same
    maps with the same messages. Advice (warnings) goes to `warn` when given."""
    bm = validate(MapFile, data, label).map
    problems = map_problems(bm, label, warn)
    if problems:
        raise DataError(problems)
    return bm


def load_content_file(path: Source, label: str | None = None) -> ContentFile:
    """Read and validate one content TOML file (warscrolls, abilities, lores, manifestations,
    armies). Cross references are checked by `game.data.content.build_content`."""
    label = label or label_for(path)
    return load_content_data(read_toml(path, label), label)


def load_map_file(path: Source, label: str | None = None) -> BattleMap:
    """Read and validate one map TOML file (a single [map] table)."""
    label = label or label_for(path)
    return load_map_data(read_toml(path, label), label)
