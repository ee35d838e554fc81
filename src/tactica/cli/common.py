"""Small helpers the commands share: consoles, JSON output, ruling overrides."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console

from tactica.errors import RulingError

__all__ = ["console", "err_console", "parse_rulings", "print_json"]

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON on standard output (no colour, stable key order)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def parse_rulings(values: list[str] | None, *, option: str = "--rulings") -> dict[str, str]:
    """``["ABC-3=manhattan", ...]`` into a mapping; a malformed item raises RulingError."""
    out: dict[str, str] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise RulingError(f"{option}: expected ID=OPTION such as ABC-3=manhattan (see tactica games --rulings), got {item!r}")
        out[key.strip()] = value.strip()
    return out
