"""Map files: YAML with a ``kind`` and the fields of that kind, validated on load.

>>> from tactica.battlefield.mapfile import map_from_mapping
>>> bf = map_from_mapping({"kind": "grid", "tiles": "A.#B"}, source="inline")
>>> bf.kind
'grid'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tactica.battlefield.base import Battlefield, map_kind
from tactica.errors import MapError
from tactica.validation import load_yaml

__all__ = ["load_map", "map_from_mapping"]


#: Modules that register the built-in map kinds when imported.
BUILTIN_KIND_MODULES = (
    "tactica.battlefield.grid",
    "tactica.battlefield.zones",
    "tactica.battlefield.rows",
)


def _ensure_kinds_registered() -> None:
    # Importing the modules registers their kinds; done lazily to keep imports cheap.
    for name in BUILTIN_KIND_MODULES:
        importlib.import_module(name)


def map_from_mapping(data: Any, *, source: str) -> Battlefield:
    """Build a battlefield from a parsed map mapping (the ``map:`` of a scenario, or a file)."""
    _ensure_kinds_registered()
    if not isinstance(data, Mapping):
        raise MapError(
            f"{source}: expected a mapping with a 'kind' field, got {type(data).__name__}"
        )
    if "kind" not in data:
        raise MapError(f"{source}: kind: field required (grid, zones or rows)")
    loader = map_kind(data["kind"], source=source)
    return loader(data, source)


def load_map(path: str | Path) -> Battlefield:
    """Load a map file; every error names the file and the field."""
    return map_from_mapping(load_yaml(path, error=MapError), source=str(path))
