"""A tiny TOML writer for tests: any dict of TOML values as `key = value` lines with inline
tables and arrays (valid TOML 1.0, read back by tomllib to the same dict, NaN and infinities
included). Not a general serialiser: no dates, no comments, no table headers."""

from __future__ import annotations

import json
import math
from typing import Any


def _key(k: str) -> str:
    if k and all(c.isalnum() or c in "_-" for c in k) and k.isascii():
        return k
    return json.dumps(k)


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"not a TOML value: {v!r}")


def dumps(data: dict[str, Any]) -> str:
    return "".join(f"{_key(k)} = {value(v)}\n" for k, v in data.items())
