"""Loading YAML files and validating them with pydantic, with errors that name where.

All file formats of tactica (maps, scenarios, content packs) go through :func:`load_yaml` and
:func:`validate`, so that a bad file always gets the same kind of message::

    examples/bad.yaml: units.A.defense: expected an integer, got 'three'

and every problem of a file is reported at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from tactica.errors import TacticaError

__all__ = ["format_location", "load_yaml", "validate"]

M = TypeVar("M", bound=BaseModel)


def format_location(loc: tuple[int | str, ...]) -> str:
    """Join a pydantic error location into a dotted field path (``units.A.weapons[0].name``)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def load_yaml(
    path: str | Path, *, error: type[TacticaError] = TacticaError
) -> Any:
    """Read a YAML file; a missing file or a syntax error becomes ``error`` naming the place."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{p}: no such file") from None
    except IsADirectoryError:
        raise error(f"{p}: is a directory, expected a YAML file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{p}: cannot read: {exc}") from None
    return parse_yaml(text, source=str(p), error=error)


def parse_yaml(text: str, *, source: str, error: type[TacticaError] = TacticaError) -> Any:
    """Parse YAML text; a syntax error becomes ``error`` with the line and column."""
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise error(f"{source}:{where}: invalid YAML: {exc.problem}") from None
    except yaml.YAMLError as exc:
        raise error(f"{source}: invalid YAML: {exc}") from None


def _describe(err: dict[str, Any]) -> str:
    msg = str(err.get("msg", "invalid"))
    if "input" in err and err.get("type") not in ("missing",):
        value = err["input"]
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        if not isinstance(value, dict):
            msg += f", got {shown}"
    return msg


def validate(
    model: type[M],
    data: Any,
    *,
    source: str,
    error: type[TacticaError] = TacticaError,
    prefix: tuple[int | str, ...] = (),
) -> M:
    """Validate ``data`` against ``model``; every problem goes into one ``error``.

    The message has one line per problem: ``source: field.path: what was expected``.
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            loc = prefix + tuple(err["loc"])
            lines.append(f"{source}: {format_location(loc)}: {_describe(dict(err))}")
        raise error("\n".join(lines)) from None
