"""Dot lattice map files (``kind: dots``), parsing rows of dots, and the text preview.

A map file is YAML. The smallest one::

    kind: dots
    levels:
      ground: |
        A . . . B
         . . . . .
        . . . . .
    features:
      - {between: [[1, 0], [2, 0]], kind: low-wall}
      - {between: [[3, 0], [3, 1]], kind: high-wall}

Rows of dots are drawn as text: row ``r``'s dot ``c`` is the character at text column
``2c + r % 2`` (odd rows are shifted half a spacing right, so they start with one space), with
spaces between dots. ``.`` is an empty dot, any other letter or digit a trooper with that id.
The first level is the ground; every ground row has the same number of dots. Upper levels are
drawn the same way, where ``-`` (or nothing at the end of a row) means "no floor here". Dots are
named ``(col, row)``, counted from 0 at the top left.

Friendlier forms:

``walls``
    a feature along a line of dots: ``{kind: low-wall, along: [[2, 4], [7, 4]], side: north}``
    puts it on the north sides of the dots 2..7 of row 4 (a continuous zig-zag); along a column
    (``[[5, 1], [5, 6]]``) the side is ``east`` or ``west``.
``buildings``
    ``{name: Shop, from: [3, 2], to: [8, 6], floors: 2, doors: [...], windows: [...],
    stairs: [[4, 3]]}``: the dots of the rectangle (map coordinates, corners included) get a
    ``wall`` on every side toward the outside, on every floor; ``floors: 2`` adds the first
    floor over them. An opening is ``[[c, r], [c, r]]``, ``{between: [...], level: first}`` or
    ``{at: [c, r], towards: north-east, level: 1}``; it must lie on the outline.
``stairs``
    ``{at: [c, r], kind: ladder, levels: [ground, first]}`` (default: every level there).

``troopers``
    troopers not drawn in the rows: ``{Y: {at: [15, 6], level: first, side: blue, prone: no}}``.

``sides: {A: red, B: blue}`` gives troopers' sides, ``prone: [X]`` the prone ones. Every problem
of a file is reported at once, each naming the file and the field.

Everything is bounded before anything is built (see :mod:`tactica.engine.limits` and
``docs/limits.md``): a level's rows are counted before a dot is read (at most
``MAX_DOTS_SIDE`` x ``MAX_DOTS_SIDE``), levels and floors, walls, buildings and features are
counted, and every coordinate (a wall's ``along``, a building's ``from`` and ``to``, a
feature's ``between``, stairs' and troopers' ``at``) must be on the map: one off it is an error
naming the field, never dropped, and no rectangle or line is expanded before it is checked.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tactica.battlefield.dots.features import feature_kind
from tactica.battlefield.dots.geometry import (
    DIRECTION_NAMES,
    DIRECTIONS,
    Axial,
    Side,
    axial_to_offset,
    offset_to_axial,
    side_between,
    side_dots,
)
from tactica.battlefield.dots.lattice import (
    Building,
    DotLattice,
    Stairs,
    Trooper,
    default_level_name,
)
from tactica.engine.errors import MapError
from tactica.engine.limits import (
    MAX_BUILDINGS,
    MAX_DOTS_SIDE,
    MAX_LEVELS,
    MAX_MAP_FEATURES,
    MAX_UNITS,
    MAX_WALLS,
)
from tactica.engine.validation import validate

__all__ = ["DotsMapModel", "dots_from_mapping", "parse_level", "preview_text"]

Pair = tuple[int, int]


class _Feature(BaseModel):
    model_config = ConfigDict(extra="forbid")
    between: tuple[Pair, Pair]
    kind: str
    level: str | int = 0


class _Wall(BaseModel):
    model_config = ConfigDict(extra="forbid")
    along: tuple[Pair, Pair]
    side: Literal["north", "south", "east", "west"]
    kind: str = "wall"
    level: str | int = 0


class _Opening(BaseModel):
    model_config = ConfigDict(extra="forbid")
    between: tuple[Pair, Pair] | None = None
    at: Pair | None = None
    towards: str | None = None
    level: str | int = 0

    @model_validator(mode="after")
    def _one_form(self) -> _Opening:
        if (self.between is None) == (self.at is None):
            raise ValueError("give either between: [[c, r], [c, r]] or at: [c, r] with towards")
        if self.at is not None and self.towards not in DIRECTION_NAMES:
            raise ValueError(f"towards: expected one of {', '.join(DIRECTION_NAMES)}")
        return self


class _Building(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    name: str = ""
    start: Pair = Field(alias="from")
    end: Pair = Field(alias="to")
    floors: int = Field(1, ge=1, le=MAX_LEVELS)
    wall: str = "wall"
    doors: list[tuple[Pair, Pair] | _Opening] = Field(default_factory=list,
                                                      max_length=MAX_MAP_FEATURES)
    windows: list[tuple[Pair, Pair] | _Opening] = Field(default_factory=list,
                                                        max_length=MAX_MAP_FEATURES)
    stairs: list[Pair] = Field(default_factory=list, max_length=MAX_MAP_FEATURES)
    ladders: list[Pair] = Field(default_factory=list, max_length=MAX_MAP_FEATURES)


class _Stairs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    at: Pair
    kind: Literal["stairs", "ladder"] = "stairs"
    levels: tuple[str | int, str | int] | None = None


class _Trooper(BaseModel):
    model_config = ConfigDict(extra="forbid")
    at: Pair
    level: str | int = 0
    prone: bool = False
    side: str | None = None


class DotsMapModel(BaseModel):
    """The fields of a ``kind: dots`` map."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["dots"]
    name: str = ""
    levels: dict[str, str | list[str] | None] = Field(max_length=MAX_LEVELS)
    features: list[_Feature] = Field(default_factory=list, max_length=MAX_MAP_FEATURES)
    walls: list[_Wall] = Field(default_factory=list, max_length=MAX_WALLS)
    buildings: list[_Building] = Field(default_factory=list, max_length=MAX_BUILDINGS)
    stairs: list[_Stairs] = Field(default_factory=list, max_length=MAX_MAP_FEATURES)
    troopers: dict[str, _Trooper] = Field(default_factory=dict, max_length=MAX_UNITS)
    sides: dict[str, str] = Field(default_factory=dict, max_length=MAX_UNITS)
    prone: list[str] = Field(default_factory=list, max_length=MAX_UNITS)


def _rows(text: str | Iterable[str]) -> list[str]:
    if isinstance(text, str):
        rows = [r.rstrip() for r in textwrap.dedent(text.expandtabs()).split("\n")]
    else:
        rows = [str(r).rstrip() for r in text]
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    return rows


def parse_level(
    text: str | Iterable[str] | None,
    *,
    source: str,
    field: str,
    cols: int | None = None,
    rows: int | None = None,
    upper: bool = False,
) -> tuple[int, int, set[Axial], dict[str, Axial]]:
    """Parse one level's rows of dots into ``(cols, rows, dots, troopers)`` (axial dots).

    On the ground every position must be a dot; ``upper`` levels may use ``-`` or end a row
    early for "no floor", and must fit inside the ground's ``cols`` x ``rows``. Every problem is
    collected into one :class:`MapError` naming ``source``, ``levels.<field>``, the row and the
    text column (from 1) and the dot ``(col, row)`` (from 0).
    """
    lines = _rows(text) if text is not None else []
    where = f"{source}: levels.{field}"
    if not lines:
        if upper:
            return cols or 0, rows or 0, set(), {}
        raise MapError(f"{where}: the level is empty; draw its rows of dots ('.' or a trooper)")
    widest = (max(len(line) for line in lines) + 1) // 2
    if len(lines) > MAX_DOTS_SIDE or widest > MAX_DOTS_SIDE:
        raise MapError(f"{where}: the level is {widest} x {len(lines)} dots; a dot map has at "
                       f"most {MAX_DOTS_SIDE} x {MAX_DOTS_SIDE}")
    problems: list[str] = []
    dots: set[Axial] = set()
    troopers: dict[str, Axial] = {}
    first: dict[str, tuple[int, int]] = {}
    counts: list[int] = []
    for r, line in enumerate(lines):
        shift = r % 2
        count = 0
        for pos, ch in enumerate(line):
            at = f"{where}: row {r + 1}, column {pos + 1}"
            if (pos - shift) % 2 or pos < shift:
                if ch != " ":
                    hint = (" (odd rows are shifted half a spacing right: start them with one "
                            "space)" if shift else " (dots are separated by one space)")
                    problems.append(f"{at}: expected a space between dots, got {ch!r}{hint}")
                continue
            c = (pos - shift) // 2
            count = c + 1
            dot = offset_to_axial(c, r)
            here = f"{at} (dot {c},{r})"
            if ch == "." or (upper and ch == "-"):
                if ch == ".":
                    dots.add(dot)
            elif ch.isascii() and ch.isalnum():
                if ch in first:
                    fc, fr = first[ch]
                    problems.append(f"{here}: trooper {ch!r} appears twice (first at dot "
                                    f"{fc},{fr}); ids must be unique")
                else:
                    first[ch] = (c, r)
                    troopers[ch] = dot
                    dots.add(dot)
            elif ch == " " and upper:
                continue
            else:
                allowed = "'.', '-'" if upper else "'.'"
                problems.append(f"{here}: unknown character {ch!r}; expected {allowed} or a "
                                "letter or digit (a trooper)")
        counts.append(count)
    width = counts[0] if cols is None else cols
    height = len(lines) if rows is None else rows
    if not upper:
        for r, n in enumerate(counts):
            if n != width:
                problems.append(f"{where}: row {r + 1} has {n} dots, expected {width} (the "
                                "dots of row 1); every ground row has the same number of dots")
    else:
        if len(lines) > height:
            problems.append(f"{where}: {len(lines)} rows, but the ground has only {height}")
        for r, n in enumerate(counts):
            if n > width:
                problems.append(f"{where}: row {r + 1} has {n} dots, but the ground has only "
                                f"{width}")
    if problems:
        raise MapError("\n".join(problems))
    return width, height, dots, troopers


def _side(a: Pair, b: Pair, where: str, problems: list[str]) -> Side | None:
    try:
        return side_between(offset_to_axial(*a), offset_to_axial(*b))
    except ValueError:
        problems.append(f"{where}: dots {a[0]},{a[1]} and {b[0]},{b[1]} are not adjacent "
                        "(neighbours differ by one step in one of the six directions)")
        return None


def _wall_sides(spec: _Wall, where: str, problems: list[str]) -> list[Side]:
    (c1, r1), (c2, r2) = spec.along
    out: list[Side] = []
    if r1 == r2 and spec.side in ("north", "south"):
        ks = (4, 5) if spec.side == "north" else (1, 2)
        for c in range(min(c1, c2), max(c1, c2) + 1):
            q, r = offset_to_axial(c, r1)
            out.extend(side_between((q, r), (q + DIRECTIONS[k][0], r + DIRECTIONS[k][1]))
                       for k in ks)
        return out
    if c1 == c2 and spec.side in ("east", "west"):
        edge = c1 if spec.side == "east" else c1 - 1
        lo, hi = min(r1, r2), max(r1, r2)
        for r in range(lo, hi + 1):
            for k in range(6):
                q, rr = offset_to_axial(edge, r)
                n = (q + DIRECTIONS[k][0], rr + DIRECTIONS[k][1])
                nc, nr = axial_to_offset(*n)
                if nc > edge and lo <= nr <= hi:
                    out.append(side_between((q, rr), n))
        return sorted(set(out))
    problems.append(f"{where}: along {list(spec.along)} with side {spec.side!r}: a wall runs "
                    "along one row (side north or south) or one column (side east or west)")
    return []


def _opening(spec: tuple[Pair, Pair] | _Opening, where: str,
             problems: list[str]) -> tuple[Side | None, str | int]:
    if isinstance(spec, tuple):
        return _side(spec[0], spec[1], where, problems), 0
    if spec.between is not None:
        return _side(spec.between[0], spec.between[1], where, problems), spec.level
    assert spec.at is not None and spec.towards is not None
    q, r = offset_to_axial(*spec.at)
    d = DIRECTIONS[DIRECTION_NAMES.index(spec.towards)]
    return side_between((q, r), (q + d[0], r + d[1])), spec.level


class _Builder:
    """Collects a map's parts and every problem, then builds the lattice once."""

    def __init__(self, model: DotsMapModel, source: str) -> None:
        self.m, self.source = model, source
        self.problems: list[str] = []
        self.names = list(model.levels)
        self.floors: dict[int, set[Axial]] = {}
        self.features: dict[tuple[int, Side], str] = {}
        self.where_feature: dict[tuple[int, Side], str] = {}
        self.troopers: dict[str, Trooper] = {}
        self.stairs: dict[Axial, Stairs] = {}
        self.buildings: list[Building] = []
        self.sides: dict[str, str] = {}

    def level(self, value: str | int, where: str) -> int | None:
        if isinstance(value, int) and 0 <= value < len(self.names):
            return value
        if isinstance(value, str) and value in self.names:
            return self.names.index(value)
        self.problems.append(f"{where}: unknown level {value!r} (levels: "
                             f"{', '.join(self.names)}, or 0..{len(self.names) - 1})")
        return None

    def add_feature(self, lvl: int, side: Side, kind: str, where: str) -> None:
        """Put a feature on a side; ``features`` entries replace what ``walls`` and
        ``buildings`` put there (a door in a wall), two entries of one list conflict."""
        key = (lvl, side)
        group = where.split("[")[0].split(".")[0]
        if key in self.features and self.where_feature[key].split("[")[0] != group \
                and group == "features":
            self.features[key] = kind
            self.where_feature[key] = where
            return
        if key in self.features and self.features[key] != kind:
            a, b = (axial_to_offset(*d) for d in side_dots(side))
            self.problems.append(
                f"{self.source}: {where}: the side between {a[0]},{a[1]} and {b[0]},{b[1]} "
                "already has a "
                f"{self.features[key]} ({self.where_feature[key]}); one feature per side")
            return
        self.features[key] = kind
        self.where_feature[key] = where

    def on_map(self, dots: Iterable[Pair], where: str, cols: int, rows: int) -> bool:
        """Whether every dot is on the ``cols`` x ``rows`` map; a problem naming ``where``
        (the field) for the first that is not."""
        for c, r in dots:
            if not (0 <= c < cols and 0 <= r < rows):
                self.problems.append(f"{where}: dot {c},{r} is off the {cols}x{rows} map "
                                     f"(columns 0 to {cols - 1}, rows 0 to {rows - 1})")
                return False
        return True

    def kind(self, value: str, where: str) -> str | None:
        try:
            return feature_kind(value, where=where).name
        except MapError as exc:
            self.problems.append(str(exc))
            return None

    def build(self) -> DotLattice:
        m, src = self.m, self.source
        if not self.names:
            raise MapError(f"{src}: levels: draw at least the ground level's rows of dots")
        cols, rows, _, placed = parse_level(m.levels[self.names[0]], source=src,
                                            field=self.names[0])
        self.troopers.update({k: Trooper(v, 0) for k, v in placed.items()})
        for b_index, b in enumerate(m.buildings):
            where = f"{src}: buildings[{b_index}]"
            if self.on_map([b.start], where + ".from", cols, rows) and \
                    self.on_map([b.end], where + ".to", cols, rows):
                self.building(b, where, cols, rows)
        for i, name in enumerate(self.names[1:], start=1):
            try:
                _, _, dots, placed = parse_level(m.levels.get(name), source=src, field=name,
                                                 cols=cols, rows=rows, upper=True)
            except MapError as exc:
                self.problems.append(str(exc))
                continue
            self.floors.setdefault(i, set()).update(dots)
            for k, v in placed.items():
                if k in self.troopers:
                    self.problems.append(f"{src}: levels.{name}: trooper {k!r} is already on "
                                         "another level; ids must be unique")
                self.troopers[k] = Trooper(v, i)
        for i, w in enumerate(m.walls):
            where = f"{src}: walls[{i}]"
            lvl, kind = self.level(w.level, where + ".level"), self.kind(w.kind, where + ".kind")
            if not self.on_map(w.along, where + ".along", cols, rows):
                continue
            before = len(self.problems)
            sides = [side for side in _wall_sides(w, where, self.problems) if all(
                0 <= axial_to_offset(*d)[0] < cols and 0 <= axial_to_offset(*d)[1] < rows
                for d in side_dots(side))]
            if not sides and len(self.problems) == before:
                (c1, r1), (c2, r2) = w.along
                self.problems.append(f"{where}.side: the wall along [[{c1}, {r1}], [{c2}, {r2}]] "
                                     f"on its {w.side} side is on the edge of the map, with no "
                                     "dot beyond it")
            for side in sides:
                if lvl is not None and kind is not None:
                    self.add_feature(lvl, side, kind, f"walls[{i}]")
        for i, f in enumerate(m.features):
            where = f"{src}: features[{i}]"
            if not self.on_map(f.between, where + ".between", cols, rows):
                continue
            found = _side(*f.between, where, self.problems)
            lvl, kind = self.level(f.level, where + ".level"), self.kind(f.kind, where + ".kind")
            if found is not None and lvl is not None and kind is not None:
                self.add_feature(lvl, found, kind, f"features[{i}]")
        for i, s in enumerate(m.stairs):
            where = f"{src}: stairs[{i}]"
            if not self.on_map([s.at], where + ".at", cols, rows):
                continue
            dot = offset_to_axial(*s.at)
            if s.levels is None:
                top = max([0, *(lv for lv, ds in self.floors.items() if dot in ds)])
                low, high = 0, top
            else:
                lo, hi = (self.level(v, where + ".levels") for v in s.levels)
                if lo is None or hi is None:
                    continue
                low, high = min(lo, hi), max(lo, hi)
            if high == low:
                self.problems.append(f"{where}: {s.kind} at {s.at[0]},{s.at[1]} joins no two "
                                     "levels (no floor above it)")
                continue
            self.stairs[dot] = Stairs(s.kind, low, high)
        for k, spec in m.troopers.items():
            where = f"{src}: troopers.{k}"
            lvl = self.level(spec.level, where + ".level")
            if k in self.troopers:
                self.problems.append(f"{where}: trooper {k!r} is already drawn on the map")
            elif lvl is not None and self.on_map([spec.at], where + ".at", cols, rows):
                self.troopers[k] = Trooper(offset_to_axial(*spec.at), lvl, spec.prone)
                if spec.side is not None:
                    self.sides[k] = spec.side
        for k in m.prone:
            if k not in self.troopers:
                self.problems.append(f"{src}: prone: no trooper {k!r} on the map")
            else:
                t = self.troopers[k]
                self.troopers[k] = Trooper(t.dot, t.level, True)
        self.sides.update(m.sides)
        for k in m.sides:
            if k not in self.troopers:
                known = ", ".join(sorted(self.troopers)) or "none"
                self.problems.append(f"{src}: sides.{k}: no trooper {k!r} on the map "
                                     f"(troopers: {known})")
        if self.problems:
            raise MapError("\n".join(self.problems))
        try:
            return DotLattice(cols, rows, tuple(self.names),
                              {k: frozenset(v) for k, v in self.floors.items()},
                              self.features, self.stairs, self.troopers, self.sides,
                              tuple(self.buildings), m.name)
        except MapError as exc:
            raise MapError(f"{src}: {exc}") from None

    def building(self, b: _Building, where: str, cols: int, rows: int) -> None:
        (c1, r1), (c2, r2) = b.start, b.end
        inside = {
            offset_to_axial(c, r)
            for r in range(min(r1, r2), max(r1, r2) + 1)
            for c in range(min(c1, c2), max(c1, c2) + 1)
        }
        off = [d for d in sorted(inside) if not (0 <= axial_to_offset(*d)[0] < cols
                                                  and 0 <= axial_to_offset(*d)[1] < rows)]
        if off:
            c, r = axial_to_offset(*off[0])
            self.problems.append(f"{where}: dot {c},{r} of the building is off the "
                                 f"{cols}x{rows} map")
            return
        while len(self.names) < b.floors:
            self.names.append(default_level_name(len(self.names)))
        wall = self.kind(b.wall, where + ".wall")
        outline: set[Side] = set()
        for q, r in inside:
            for dq, dr in DIRECTIONS:
                n = (q + dq, r + dr)
                nc, nr = axial_to_offset(*n)
                if n not in inside and 0 <= nc < cols and 0 <= nr < rows:
                    outline.add(side_between((q, r), n))
        for lvl in range(1, b.floors):
            self.floors.setdefault(lvl, set()).update(inside)
        if wall is not None:
            for lvl in range(b.floors):
                for side in sorted(outline):
                    self.add_feature(lvl, side, wall, where.split(": ", 1)[1] + ".wall")
        for field, kind in (("doors", "door"), ("windows", "window")):
            for i, spec in enumerate(getattr(b, field)):
                at = f"{where}.{field}[{i}]"
                opening, level = _opening(spec, at, self.problems)
                found = self.level(level, at + ".level")
                if opening is None or found is None:
                    continue
                side, lvl = opening, found
                if side not in outline:
                    a, bb = (axial_to_offset(*d) for d in side_dots(side))
                    self.problems.append(f"{at}: the side between {a[0]},{a[1]} and "
                                         f"{bb[0]},{bb[1]} is not on the outline of the building")
                    continue
                if lvl >= b.floors:
                    self.problems.append(f"{at}: the building has no level "
                                         f"{self.names[lvl]!r}")
                    continue
                self.features[(lvl, side)] = kind
        for field, kind in (("stairs", "stairs"), ("ladders", "ladder")):
            for i, at in enumerate(getattr(b, field)):
                dot = offset_to_axial(*at)
                if dot not in inside:
                    self.problems.append(f"{where}.{field}[{i}]: {at[0]},{at[1]} is not inside "
                                         "the building")
                elif b.floors > 1:
                    self.stairs[dot] = Stairs(kind, 0, b.floors - 1)
        self.buildings.append(Building(b.name or f"building {len(self.buildings) + 1}",
                                       frozenset(inside), b.floors))


def dots_from_mapping(data: Mapping[str, Any], *, source: str) -> DotLattice:
    """Build a :class:`DotLattice` from a parsed ``kind: dots`` map."""
    model = validate(DotsMapModel, dict(data), source=source, error=MapError)
    return _Builder(model, source).build()


def preview_text(lat: DotLattice) -> str:
    """Every level drawn with its features, then the legend (see
    :mod:`tactica.battlefield.dots.text`)."""
    from tactica.battlefield.dots.text import lattice_text

    return lattice_text(lat)
