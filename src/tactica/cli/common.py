"""Small helpers the commands share: consoles, JSON output, ruling overrides."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from tactica.engine.errors import RulingError
from tactica.presentation.terminal import SafeConsole

__all__ = ["console", "err_console", "parse_rulings", "print_json"]

#: The consoles of every command: text printed literally, without control characters.
console = SafeConsole(soft_wrap=True)
err_console = SafeConsole(stderr=True, soft_wrap=True)


#: Characters JSON may hold raw that a terminal could still act on: C1 controls, bidirectional
#: controls, line and paragraph separators, lone surrogates. They are written as ``\uXXXX``
#: escapes (the same data).
_UNSAFE_IN_JSON = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON on standard output (no colour, stable key order; every
    control character escaped, so the text is the file's data and nothing a terminal acts on)."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    text = _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    sys.stdout.write(text + "\n")


def parse_rulings(values: list[str] | None, *, option: str = "--rulings") -> dict[str, str]:
    """``["ABC-3=manhattan", ...]`` into a mapping; a malformed item raises RulingError."""
    out: dict[str, str] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise RulingError(f"{option}: expected ID=OPTION such as ABC-3=manhattan (see tactica games --rulings), got {item!r}")
        out[key.strip()] = value.strip()
    return out
