"""Loading YAML files and validating them with pydantic, with errors that name where.

All file formats of tactica (maps, scenarios, content packs) go through :func:`load_yaml` and
:func:`validate`, so that a bad file always gets the same kind of message::

    examples/bad.yaml: units.A.defense: expected an integer, got 'three'

and every problem of a file is reported at once (up to a bound, then counted).

Reading is bounded before anything looks at the content (see :mod:`tactica.engine.limits`): only a
regular file of bounded size is read, and the YAML loader refuses deep nesting, alias bombs
("billion laughs"), numbers of too many digits and infinite floats, each with its line.
"""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from tactica.engine.errors import TacticaError
from tactica.engine.limits import (
    MAX_ERROR_LINE_CHARS,
    MAX_ERROR_LINES,
    MAX_INT_DIGITS,
    MAX_QUOTE_CHARS,
    MAX_YAML_BYTES,
    MAX_YAML_DEPTH,
    MAX_YAML_NODES,
)

__all__ = [
    "format_location",
    "load_yaml",
    "parse_yaml",
    "quote",
    "read_bounded",
    "validate",
    "validate_units",
    "whole_number",
]

M = TypeVar("M", bound=BaseModel)


def quote(value: Any, limit: int = MAX_QUOTE_CHARS) -> str:
    """``repr(value)``, cut to ``limit`` characters (a huge or deeply nested value is never
    quoted whole)."""
    if isinstance(value, (dict, list, tuple, set, frozenset)) and len(value) > 10:
        # The repr of a large container may take long to build: describe it instead.
        return f"a {type(value).__name__} of {len(value)} items"
    try:
        shown = repr(value)
    except (RecursionError, ValueError):
        shown = f"<{type(value).__name__}>"
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def _part(part: int | str) -> str:
    text = str(part)
    return text if len(text) <= 40 else text[:37] + "..."


def format_location(loc: tuple[int | str, ...]) -> str:
    """Join a pydantic error location into a dotted field path (``units.A.weapons[0].name``)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + _part(part)
    return out or "(top level)"


def whole_number(text: str) -> int | None:
    """``text`` as a whole number if it is one written with at most 18 of the digits 0-9
    (``str.isdigit`` accepts ``²``, which ``int`` refuses, and ``int`` refuses more than 4,300
    digits), else None.

    >>> whole_number("42"), whole_number("²"), whole_number("9" * 5000), whole_number("-1")
    (42, None, None, None)
    """
    if 0 < len(text) <= 18 and text.isascii() and text.isdecimal():
        return int(text)
    return None


def read_bounded(path: Path, *, limit: int, what: str,
                 error: type[TacticaError] = TacticaError) -> bytes:
    """The content of a regular file of at most ``limit`` bytes. Anything else (a device, a
    pipe, a folder, a larger file, an unreadable one) is ``error``, quoting nothing of it."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, expected a {what} file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise error(f"{path}: is a directory, expected a {what} file")
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{path}: not a regular file (a device or a pipe); expected a {what} "
                        "file")
        if st.st_size > limit:
            raise error(f"{path}: {st.st_size} bytes, more than a {what} file may hold "
                        f"({limit} bytes)")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            total += len(chunk)
            if total > limit:
                raise error(f"{path}: more than a {what} file may hold ({limit} bytes)")
            chunks.append(chunk)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def load_yaml(
    path: str | Path, *, error: type[TacticaError] = TacticaError
) -> Any:
    """Read a YAML file; a missing file, one that is not a regular file of bounded size, or a
    syntax error becomes ``error`` naming the place (see :func:`parse_yaml` for the bounds)."""
    p = Path(path)
    data = read_bounded(p, limit=MAX_YAML_BYTES, what="YAML", error=error)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{p}: cannot read: not UTF-8 text (byte {exc.start})") from None
    return parse_yaml(text, source=str(p), error=error)


class _TooBig(Exception):
    """A bound of the YAML loader was passed (message and where)."""

    def __init__(self, message: str, mark: Any):
        super().__init__(message)
        self.mark = mark


class _Bounds(Composer):
    """PyYAML's composer with bounds: nesting depth, the number of values once every alias is
    expanded (counted, never built), the digits of whole numbers, finite floats. Mixed into
    a loader with libyaml's fast parser when PyYAML has it, else the pure Python one."""

    _depth: int
    _sizes: dict[int, int]
    _total: int

    def _start_bounds(self) -> None:
        self._depth = 0
        self._sizes = {}
        self._total = 0

    def _count(self, size: int, mark: Any) -> None:
        """Count ``size`` more values in the document (as soon as they are seen)."""
        self._total += size
        if self._total > MAX_YAML_NODES:
            raise _TooBig(f"more than {MAX_YAML_NODES} values (aliases counted as many times "
                          "as they repeat)", mark)

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):  # type: ignore[attr-defined]
            event = self.peek_event()  # type: ignore[attr-defined]
            target = self.anchors.get(event.anchor)
            if target is not None:
                if id(target) not in self._sizes:
                    raise _TooBig(f"alias *{_part(event.anchor)} refers to a value that "
                                  "contains it", event.start_mark)
                self._count(self._sizes[id(target)], event.start_mark)
            return super().compose_node(parent, index)
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                event = self.peek_event()  # type: ignore[attr-defined]
                raise _TooBig(f"nested more than {MAX_YAML_DEPTH} levels deep",
                              event.start_mark)
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        # The expanded size of a value (for the aliases that repeat it), from its parts'.
        if isinstance(node, yaml.MappingNode):
            size = 1 + sum(self._sizes.get(id(k), 1) + self._sizes.get(id(v), 1)
                           for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            size = 1 + sum(self._sizes.get(id(v), 1) for v in node.value)
        else:
            size = 1
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            self._sizes[id(node)] = size
        self._count(1, getattr(node, "start_mark", None))
        return node

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        """A mapping, refusing a key given twice (YAML's merge key ``<<`` may still be
        overridden: that is what it is for)."""
        if isinstance(node, yaml.MappingNode):
            first: dict[Any, Any] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(
                        key_node, yaml.ScalarNode):
                    continue
                key = self.construct_object(key_node)  # type: ignore[attr-defined]
                try:
                    earlier = first.setdefault(key, key_node)
                except TypeError:  # pragma: no cover - a scalar key is always hashable
                    continue
                if earlier is not key_node:
                    raise _TooBig(f"duplicate key {quote(key)} (first on line "
                                  f"{earlier.start_mark.line + 1}); give each key once",
                                  key_node.start_mark)
        value: Any = SafeConstructor.construct_mapping(self, node, deep)  # type: ignore[arg-type]
        return value

    def construct_yaml_int(self, node: Any) -> int:
        digits = str(node.value).replace("_", "").lstrip("+-")
        if len(digits) > MAX_INT_DIGITS:
            raise _TooBig(f"a number of {len(digits)} digits (at most {MAX_INT_DIGITS})",
                          node.start_mark)
        value: int = SafeConstructor.construct_yaml_int(self, node)  # type: ignore[arg-type]
        return value

    def construct_yaml_float(self, node: Any) -> float:
        value: float = SafeConstructor.construct_yaml_float(self, node)  # type: ignore[arg-type]
        if not math.isfinite(value) or abs(value) > 1e15:
            raise _TooBig(f"the number {quote(node.value)} is too large or not finite",
                          node.start_mark)
        return value


class _PureLoader(_Bounds, yaml.SafeLoader):
    def __init__(self, stream: str) -> None:
        yaml.SafeLoader.__init__(self, stream)
        self._start_bounds()


_LOADERS: list[type[Any]] = [_PureLoader]

if getattr(yaml, "__with_libyaml__", False):
    from yaml._yaml import CParser

    class _FastLoader(_Bounds, CParser, SafeConstructor, Resolver):
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self._start_bounds()

    _LOADERS.insert(0, _FastLoader)

for _loader in _LOADERS:
    _loader.add_constructor("tag:yaml.org,2002:int", _Bounds.construct_yaml_int)
    _loader.add_constructor("tag:yaml.org,2002:float", _Bounds.construct_yaml_float)
_Loader = _LOADERS[0]


def parse_yaml(text: str, *, source: str, error: type[TacticaError] = TacticaError) -> Any:
    """Parse YAML text with bounds; a syntax error or a passed bound becomes ``error`` with the
    line and column.

    The bounds (see :mod:`tactica.engine.limits`): at most ``MAX_YAML_BYTES`` of text,
    ``MAX_YAML_DEPTH`` levels of nesting, ``MAX_YAML_NODES`` values counting every repetition
    of an alias, whole numbers of at most ``MAX_INT_DIGITS`` digits, finite floats.

    >>> parse_yaml("a: [1, 2]", source="inline")
    {'a': [1, 2]}
    """
    if len(text) > MAX_YAML_BYTES:
        raise error(f"{source}: more than {MAX_YAML_BYTES} characters of YAML")
    loader = _Loader(text)
    try:
        return loader.get_single_data()
    except _TooBig as exc:
        raise error(f"{source}:{_where(exc.mark)}: {exc}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise error(f"{source}:{_where(mark)}: invalid YAML: {exc.problem}") from None
    except yaml.YAMLError as exc:
        raise error(f"{source}: invalid YAML: {_cut(str(exc))}") from None
    except RecursionError:  # pragma: no cover - the depth bound comes first
        raise error(f"{source}: nested too deep") from None
    finally:
        loader.dispose()


def _where(mark: Any) -> str:
    return f" line {mark.line + 1}, column {mark.column + 1}" if mark else ""


def _cut(text: str, limit: int = MAX_ERROR_LINE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(err: dict[str, Any]) -> str:
    msg = str(err.get("msg", "invalid"))
    if "input" in err and err.get("type") not in ("missing",):
        value = err["input"]
        if not isinstance(value, dict):
            if err.get("loc") == () and isinstance(value, str):
                # The whole file is one string: say so, quoting none of it.
                msg += f", got text of {len(value)} character(s)"
            else:
                msg += f", got {quote(value)}"
    return _cut(msg, 200)


def validate(
    model: type[M],
    data: Any,
    *,
    source: str,
    error: type[TacticaError] = TacticaError,
    prefix: tuple[int | str, ...] = (),
) -> M:
    """Validate ``data`` against ``model``; every problem goes into one ``error``.

    The message has one line per problem: ``source: field.path: what was expected`` (at most
    ``MAX_ERROR_LINES`` of them, then how many more there are).
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        count = exc.error_count()
        lines = []
        for err in exc.errors(include_url=False)[:MAX_ERROR_LINES]:
            loc = prefix + tuple(err["loc"])
            lines.append(f"{source}: {format_location(loc)}: {_describe(dict(err))}")
        if count > MAX_ERROR_LINES:
            lines.append(f"{source}: ... and {count - MAX_ERROR_LINES} more problem(s)")
        raise error("\n".join(lines)) from None
    except RecursionError:  # pragma: no cover - the YAML depth bound comes first
        raise error(f"{source}: nested too deep") from None


def validate_units(
    model: type[M],
    data: Any,
    *,
    source: str,
    problems: list[str],
    error: type[TacticaError] = TacticaError,
    least: int = 2,
    what: str = "units",
) -> dict[str, M]:
    """The ``units`` of a scenario (a mapping of id to unit), each validated on its own so that
    one bad unit hides nothing of the others: every problem is added to ``problems``, and the
    units that validate are returned (in order)."""
    raw = data.get("units") if isinstance(data, dict) else None
    if raw is None:
        problems.append(f"{source}: units: field required (a mapping of unit id to unit)")
        return {}
    if not isinstance(raw, dict):
        problems.append(f"{source}: units: expected a mapping of unit id to unit, got "
                        f"{quote(raw)}")
        return {}
    if len(raw) < least:
        problems.append(f"{source}: units: at least {least} {what} are needed (on two sides), "
                        f"got {len(raw)}")
    out: dict[str, M] = {}
    for uid, unit in raw.items():
        if not isinstance(uid, str):
            problems.append(f"{source}: units: unit id {quote(uid)}: expected a string (quote "
                            "it)")
            continue
        try:
            out[uid] = validate(model, unit, source=source, error=error, prefix=("units", uid))
        except TacticaError as exc:
            problems.append(str(exc))
    return out
