"""The dot lattice battlefield: dots 1 spacing apart in a triangular pattern, with levels.

Every dot has 6 neighbours. Features (walls, low walls, doors, windows, ...) stand *between*
adjacent dots, on the side their two cells share (:mod:`~tactica.battlefield.dots.features`).
Buildings have levels (floors): a dot exists on an upper level where a floor covers it, and
stairs or ladders on a dot join its levels. At most one trooper stands on a dot per level; a
trooper is standing or prone.

Places are :class:`DotPlace` values ``(col, row, level)`` in map coordinates (odd rows shifted
half a spacing right, counted from 0 at the top left); as text ``"col,row"`` on the ground and
``"col,row@level"`` above it, the level by number or by name. Internally the geometry works in
the axial frame of :mod:`~tactica.battlefield.dots.geometry`.

>>> lat = DotLattice.from_text('''
... A . X . B
...  . . . . .
... ''')
>>> r = lat.sight_report("A", "B")
>>> r.visible, r.cover, r.details["range"]
(True, 1, 4)
>>> lat.with_pose("X", prone=True).sight_report("A", "B").cover
0
>>> lat.with_feature((1, 0), (2, 0), "high-wall").sight_report("A", "B").visible
False

Sight, cover and range: :mod:`~tactica.battlefield.dots.sight` (one query, with reasons) and
:mod:`~tactica.battlefield.dots.fast` (many at once). Movement: :mod:`.dots_move`. Arcs:
:mod:`.dots_arcs`. Explosives: :mod:`.dots_blast`. Map files: :mod:`.dots_map`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from tactica.battlefield.base import MovePath, SightReport
from tactica.battlefield.dots.features import FeatureKind, feature_kind
from tactica.battlefield.dots.geometry import (
    DIRECTIONS,
    Axial,
    Side,
    axial_to_offset,
    offset_to_axial,
    side_between,
    side_dots,
    steps,
)
from tactica.engine.errors import MapError
from tactica.engine.validation import whole_number

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tactica.battlefield.dots.arcs import Degrees
    from tactica.battlefield.dots.fast import DotSightBatch
    from tactica.battlefield.dots.sight import DotSight

__all__ = ["Building", "DotLattice", "DotPlace", "Stairs", "Trooper"]

_ID = re.compile(r"[A-Za-z0-9]")
_REF = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*(?:@\s*([A-Za-z0-9_-]+)\s*)?")
_LEVEL_NAMES = ("ground", "first", "second", "third", "fourth", "fifth")
#: Memo entries that do not depend on the troopers (kept when only the troopers change).
_TROOPER_FREE_MEMO = ("floor-regions-", "walk-", "fast-base-")


class DotPlace(NamedTuple):
    """A dot on one level, in map coordinates: ``str`` gives ``"col,row"`` or
    ``"col,row@level"``."""

    col: int
    row: int
    level: int = 0

    def __str__(self) -> str:
        base = f"{self.col},{self.row}"
        return base if self.level == 0 else f"{base}@{self.level}"


@dataclass(frozen=True)
class Trooper:
    """Where a trooper stands (an axial dot and a level) and whether it is prone."""

    dot: Axial
    level: int = 0
    prone: bool = False


@dataclass(frozen=True)
class Stairs:
    """Stairs or a ladder on a dot, joining the levels ``low`` to ``high``."""

    kind: str
    low: int
    high: int


@dataclass(frozen=True)
class Building:
    """A named building: its dots (axial) and how many floors it has (for pictures)."""

    name: str
    dots: frozenset[Axial]
    floors: int = 1


def default_level_name(index: int) -> str:
    """``ground``, ``first``, ``second``, ... then ``level-N``."""
    return _LEVEL_NAMES[index] if index < len(_LEVEL_NAMES) else f"level-{index}"


@dataclass(frozen=True)
class DotLattice:
    """A rectangle of ``cols`` x ``rows`` dots (offset layout), its levels, features, stairs
    and troopers. Immutable: every change returns a new lattice.

    ``floors`` maps each upper level (1, 2, ...) to the axial dots it covers; ``features`` maps
    ``(level, side)`` to a feature kind name; ``stairs`` maps axial dots to :class:`Stairs`;
    ``troopers`` maps ids to :class:`Trooper`; ``sides`` maps trooper ids to side names.
    """

    kind: ClassVar[str] = "dots"

    cols: int
    rows: int
    level_names: tuple[str, ...] = ("ground",)
    floors: Mapping[int, frozenset[Axial]] = field(default_factory=dict)
    features: Mapping[tuple[int, Side], str] = field(default_factory=dict)
    stairs: Mapping[Axial, Stairs] = field(default_factory=dict)
    troopers: Mapping[str, Trooper] = field(default_factory=dict)
    sides: Mapping[str, str] = field(default_factory=dict)
    buildings: tuple[Building, ...] = ()
    name: str = ""
    #: Derived data cached by helpers (floor regions, arrays); not part of the value.
    memo: dict[str, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    _at: dict[tuple[Axial, int], str] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if self.cols < 1 or self.rows < 1:
            raise MapError(f"a dot lattice needs at least one dot, got {self.cols}x{self.rows}")
        names = tuple(self.level_names)
        if not names or len(set(names)) != len(names):
            raise MapError(f"levels: expected distinct level names, got {list(names)}")
        floors = {int(k): frozenset(v) for k, v in sorted(self.floors.items())}
        for lvl, dots in floors.items():
            if not 1 <= lvl < len(names):
                raise MapError(f"floors: level {lvl} is not one of the levels 1..{len(names) - 1}")
            for d in sorted(dots):
                if not self.on_map(d):
                    raise MapError(f"level {names[lvl]}: dot {self._fmt(d)} is off the map")
        object.__setattr__(self, "level_names", names)
        object.__setattr__(self, "floors", MappingProxyType(floors))
        features: dict[tuple[int, Side], str] = {}
        for (lvl, side), kind in sorted(self.features.items()):
            self._check_feature(lvl, side, feature_kind(kind).name)
            features[(lvl, side)] = feature_kind(kind).name
        object.__setattr__(self, "features", MappingProxyType(features))
        for dot, st in sorted(self.stairs.items()):
            if not (0 <= st.low < st.high < len(names)):
                raise MapError(f"{st.kind} at {self._fmt(dot)}: expected two different levels")
            for lvl in range(st.low, st.high + 1):
                if not self.has_dot(dot, lvl):
                    raise MapError(
                        f"{st.kind} at {self._fmt(dot)}: no floor on level {names[lvl]} there"
                    )
        object.__setattr__(self, "stairs", MappingProxyType(dict(sorted(self.stairs.items()))))
        object.__setattr__(self, "buildings", tuple(self.buildings))
        self._set_troopers(self.troopers, self.sides)

    def _set_troopers(self, given: Mapping[str, Trooper], sides: Mapping[str, str]) -> None:
        at: dict[tuple[Axial, int], str] = {}
        troopers = dict(sorted(given.items()))
        for tid, t in troopers.items():
            if not isinstance(tid, str) or not _ID.fullmatch(tid):
                raise MapError(f"trooper id {tid!r}: expected one letter or digit")
            where = self._fmt(t.dot, t.level)
            if not self.has_dot(t.dot, t.level):
                raise MapError(f"trooper {tid} at {where}: no such dot on the map")
            if (t.dot, t.level) in at:
                raise MapError(
                    f"troopers {at[(t.dot, t.level)]} and {tid} share dot {where} "
                    "(one trooper per dot per level)"
                )
            at[(t.dot, t.level)] = tid
        object.__setattr__(self, "troopers", MappingProxyType(troopers))
        for tid in sides:
            if tid not in troopers:
                raise MapError(f"sides: no trooper {tid!r} on the map")
        object.__setattr__(self, "sides", MappingProxyType(dict(sorted(sides.items()))))
        object.__setattr__(self, "_at", at)

    def _check_feature(self, lvl: int, side: Side, kind: str) -> None:
        a, b = side_dots(side)
        where = f"{kind} between {self._fmt(a)} and {self._fmt(b)}"
        if not 0 <= lvl < len(self.level_names):
            raise MapError(f"{where}: no level {lvl}")
        if not (self.on_map(a) and self.on_map(b)):
            raise MapError(f"{where}: both dots must be on the {self.cols}x{self.rows} map")
        if lvl and not (self.has_dot(a, lvl) or self.has_dot(b, lvl)):
            raise MapError(
                f"{where} on level {self.level_names[lvl]}: neither dot has a floor there"
            )

    def __hash__(self) -> int:
        return hash((self.cols, self.rows, self.level_names, tuple(self.floors.items()),
                     tuple(self.features.items()), tuple(self.stairs.items()),
                     tuple(self.troopers.items()), tuple(self.sides.items()), self.name))

    def __reduce__(self) -> tuple[Any, ...]:
        return (DotLattice, (self.cols, self.rows, self.level_names, dict(self.floors),
                             dict(self.features), dict(self.stairs), dict(self.troopers),
                             dict(self.sides), self.buildings, self.name))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_text(
        cls,
        ground: str,
        *,
        upper: Iterable[str] = (),
        features: Iterable[tuple[Any, ...]] = (),
        stairs: Iterable[tuple[int, int]] = (),
        sides: Mapping[str, str] | None = None,
        prone: Iterable[str] = (),
        name: str = "",
    ) -> DotLattice:
        """A lattice from rows of dots (see :mod:`~tactica.battlefield.dots.mapfile`): ``upper``
        the rows of levels 1, 2, ...; ``features`` as ``((col, row), (col, row), kind)`` or
        ``(..., kind, level)``; ``stairs`` as ``(col, row)`` joining every level there."""
        from tactica.battlefield.dots.mapfile import parse_level

        cols, rows, _, placed = parse_level(ground, source="<text>", field="ground")
        out_floors: dict[int, frozenset[Axial]] = {}
        troopers = {k: Trooper(v, 0) for k, v in placed.items()}
        levels = ["ground"]
        for i, text in enumerate(upper, start=1):
            _, _, dots, placed = parse_level(text, source="<text>", field=levels[-1],
                                             cols=cols, rows=rows, upper=True)
            levels.append(default_level_name(i))
            out_floors[i] = frozenset(dots)
            troopers.update({k: Trooper(v, i) for k, v in placed.items()})
        feats: dict[tuple[int, Side], str] = {}
        for item in features:
            a, b, kind = item[0], item[1], item[2]
            lvl = int(item[3]) if len(item) > 3 else 0
            feats[(lvl, side_between(offset_to_axial(*a), offset_to_axial(*b)))] = kind
        st: dict[Axial, Stairs] = {}
        for c, r in stairs:
            dot = offset_to_axial(c, r)
            top = max([0, *(lvl for lvl, ds in out_floors.items() if dot in ds)])
            st[dot] = Stairs("stairs", 0, top)
        for tid in prone:
            troopers[tid] = Trooper(troopers[tid].dot, troopers[tid].level, True)
        return cls(cols, rows, tuple(levels), out_floors, feats, st, troopers, sides or {},
                   name=name)

    # -- changes (each returns a new lattice) -------------------------------------------------

    def _with_troopers(self, troopers: Mapping[str, Trooper],
                       sides: Mapping[str, str]) -> DotLattice:
        """The same map with other troopers (moved, lying down, added, removed): the map's
        parts are reused as they were checked, only the troopers are checked again, and the
        derived data that does not depend on troopers is carried over (a trooper's every step
        makes a new lattice, so this is the hot path of a battle)."""
        new: DotLattice = object.__new__(DotLattice)
        for name in ("cols", "rows", "level_names", "floors", "features", "stairs",
                     "buildings", "name"):
            object.__setattr__(new, name, getattr(self, name))
        object.__setattr__(new, "memo", {k: v for k, v in self.memo.items()
                                         if k.startswith(_TROOPER_FREE_MEMO)})
        new._set_troopers(troopers, sides)
        return new

    def _replace(self, **changes: Any) -> DotLattice:
        if changes.keys() <= {"troopers", "sides"}:
            return self._with_troopers(changes.get("troopers", self.troopers),
                                       changes.get("sides", self.sides))
        values: dict[str, Any] = {
            "cols": self.cols, "rows": self.rows, "level_names": self.level_names,
            "floors": self.floors, "features": self.features, "stairs": self.stairs,
            "troopers": self.troopers, "sides": self.sides, "buildings": self.buildings,
            "name": self.name,
        }
        values.update(changes)
        return DotLattice(**values)

    def with_occupant(
        self, oid: str, place: str | DotPlace | tuple[int, ...], *, level: int | str | None = None,
        prone: bool = False, side: str | None = None,
    ) -> DotLattice:
        """A lattice with trooper ``oid`` added on ``place`` (``level`` overrides the place's)."""
        if oid in self.troopers:
            raise MapError(f"trooper {oid} is already on the map at {self.locate(oid)}")
        dot, lvl = self._dot_level(place, level)
        sides = {**self.sides, oid: side} if side is not None else self.sides
        return self._replace(troopers={**self.troopers, oid: Trooper(dot, lvl, prone)},
                             sides=sides)

    def move_occupant(
        self, oid: str, place: str | DotPlace | tuple[int, ...], *, level: int | str | None = None,
    ) -> DotLattice:
        """A lattice with trooper ``oid`` moved to ``place`` (no path check; see :meth:`path`)."""
        t = self.trooper(oid)
        dot, lvl = self._dot_level(place, level)
        return self._replace(troopers={**self.troopers, oid: Trooper(dot, lvl, t.prone)})

    def with_pose(self, oid: str, *, prone: bool) -> DotLattice:
        """A lattice with trooper ``oid`` prone or standing."""
        t = self.trooper(oid)
        return self._replace(troopers={**self.troopers, oid: Trooper(t.dot, t.level, prone)})

    def without_occupant(self, oid: str) -> DotLattice:
        """A lattice without trooper ``oid`` (and without its side entry)."""
        self.trooper(oid)
        return self._replace(
            troopers={k: v for k, v in self.troopers.items() if k != oid},
            sides={k: v for k, v in self.sides.items() if k != oid},
        )

    def with_sides(self, sides: Mapping[str, str]) -> DotLattice:
        """A lattice whose troopers belong to the given sides."""
        return self._replace(sides=sides)

    def with_feature(
        self, a: tuple[int, int], b: tuple[int, int], kind: str, *, level: int | str = 0,
    ) -> DotLattice:
        """A lattice with a feature of ``kind`` between map dots ``a`` and ``b``."""
        side = self._side(a, b)
        return self._replace(features={**self.features, (self.level_index(level), side): kind})

    def without_feature(
        self, a: tuple[int, int], b: tuple[int, int], *, level: int | str = 0,
    ) -> DotLattice:
        """A lattice without the feature between map dots ``a`` and ``b`` (if any)."""
        key = (self.level_index(level), self._side(a, b))
        return self._replace(features={k: v for k, v in self.features.items() if k != key})

    def _side(self, a: tuple[int, int], b: tuple[int, int]) -> Side:
        try:
            return side_between(offset_to_axial(*a), offset_to_axial(*b))
        except ValueError:
            raise MapError(f"dots {a[0]},{a[1]} and {b[0]},{b[1]} are not adjacent") from None

    # -- places -------------------------------------------------------------------------------

    def on_map(self, dot: Axial) -> bool:
        """Whether an axial dot lies on the map's ground."""
        col, row = axial_to_offset(*dot)
        return 0 <= col < self.cols and 0 <= row < self.rows

    def has_dot(self, dot: Axial, level: int) -> bool:
        """Whether the dot exists on ``level`` (the ground: on the map; above: on a floor)."""
        if level == 0:
            return self.on_map(dot)
        return dot in self.floors.get(level, ())

    def level_index(self, level: int | str) -> int:
        """A level given by number or name, checked."""
        if isinstance(level, int) and not isinstance(level, bool):
            if 0 <= level < len(self.level_names):
                return level
        elif isinstance(level, str):
            if level in self.level_names:
                return self.level_names.index(level)
            if whole_number(level) is not None and int(level) < len(self.level_names):
                return int(level)
        known = ", ".join(self.level_names)
        raise MapError(
            f"unknown level {level!r} (levels: {known}, or 0..{len(self.level_names) - 1})"
        )

    def level_name(self, level: int) -> str:
        """The name of a level."""
        return self.level_names[level]

    def place(self, dot: Axial, level: int = 0) -> DotPlace:
        """The :class:`DotPlace` of an axial dot."""
        col, row = axial_to_offset(*dot)
        return DotPlace(col, row, level)

    def _fmt(self, dot: Axial, level: int = 0) -> str:
        col, row = axial_to_offset(*dot)
        if level == 0 or len(self.level_names) <= level:
            return f"{col},{row}" if level == 0 else f"{col},{row}@{level}"
        return f"{col},{row}@{self.level_names[level]}"

    def describe(self, dot: Axial, level: int = 0) -> str:
        """A dot as people read it: ``"3,4"`` or ``"3,4@first"``."""
        return self._fmt(dot, level)

    def _dot_level(
        self, ref: str | DotPlace | tuple[int, ...], level: int | str | None
    ) -> tuple[Axial, int]:
        if isinstance(ref, str):
            p = self.locate(ref)
        elif isinstance(ref, tuple) and len(ref) in (2, 3):
            p = DotPlace(int(ref[0]), int(ref[1]), int(ref[2]) if len(ref) == 3 else 0)
        else:
            raise MapError(f"expected a place such as '3,4' or (3, 4), got {ref!r}")
        lvl = p.level if level is None else self.level_index(level)
        dot = offset_to_axial(p.col, p.row)
        if not self.has_dot(dot, lvl):
            raise MapError(f"no dot {self._fmt(dot, lvl)} on the {self.cols}x{self.rows} map")
        return dot, lvl

    def trooper(self, oid: str) -> Trooper:
        """The trooper ``oid``; MapError naming the troopers if there is none."""
        found = self.troopers.get(oid)
        if found is None:
            known = ", ".join(self.troopers) or "none"
            raise MapError(f"no trooper {oid!r} on the map (troopers: {known})")
        return found

    def locate(self, ref: str | DotPlace) -> DotPlace:
        """The place of a trooper id, or of a place written ``"col,row"`` / ``"col,row@level"``
        (a :class:`DotPlace` is returned as it is)."""
        if isinstance(ref, DotPlace):
            return ref
        t = self.troopers.get(ref)
        if t is not None:
            return self.place(t.dot, t.level)
        m = _REF.fullmatch(ref) if isinstance(ref, str) else None
        if m is None:
            known = ", ".join(self.troopers) or "none"
            raise MapError(
                f"no trooper {ref!r} on the map (troopers: {known}); or give a dot as col,row "
                "or col,row@level"
            )
        col, row = int(m[1]), int(m[2])
        lvl = self.level_index(m[3]) if m[3] is not None else 0
        dot = offset_to_axial(col, row)
        if not self.has_dot(dot, lvl):
            where = "on the map" if lvl == 0 else f"with a floor on level {self.level_names[lvl]}"
            raise MapError(f"dot {ref.strip()!r} is not a dot {where} "
                           f"({self.cols} columns x {self.rows} rows)")
        return DotPlace(col, row, lvl)

    @property
    def occupants(self) -> Mapping[str, DotPlace]:
        """Every trooper id and its place."""
        return MappingProxyType({k: self.place(t.dot, t.level) for k, t in self.troopers.items()})

    def occupant_at(self, dot: Axial, level: int = 0) -> str | None:
        """The id of the trooper on an axial dot and level, or None."""
        return self._at.get((dot, level))

    def is_prone(self, oid: str) -> bool:
        """Whether trooper ``oid`` is prone."""
        return self.trooper(oid).prone

    def feature(self, dot_a: Axial, dot_b: Axial, level: int = 0) -> FeatureKind | None:
        """The feature between two adjacent axial dots on a level, or None."""
        kind = self.features.get((level, side_between(dot_a, dot_b)))
        return None if kind is None else feature_kind(kind)

    def levels(self) -> tuple[str, ...]:
        """The level names, ground first; ``()`` for a flat map (one level only)."""
        return self.level_names if len(self.level_names) > 1 else ()

    def floor_region(self, dot: Axial, level: int) -> int:
        """Which connected floor area of ``level`` covers ``dot`` (-1: none; the ground is one
        region). Two floors touching side by side form one region."""
        if level == 0:
            return 0 if self.on_map(dot) else -1
        key = f"floor-regions-{level}"
        regions = self.memo.get(key)
        if regions is None:
            regions = {}
            floor = self.floors.get(level, frozenset())
            for start in sorted(floor):
                if start in regions:
                    continue
                index = len(set(regions.values()))
                todo = [start]
                regions[start] = index
                while todo:
                    q, r = todo.pop()
                    for dq, dr in DIRECTIONS:
                        n = (q + dq, r + dr)
                        if n in floor and n not in regions:
                            regions[n] = index
                            todo.append(n)
            self.memo[key] = regions
        found = regions.get(dot, -1)
        assert isinstance(found, int)
        return found

    # -- geometry -----------------------------------------------------------------------------

    def distance(self, a: str, b: str) -> int:
        """Range between two references: lattice steps plus the difference in levels."""
        pa, pb = self.locate(a), self.locate(b)
        da, db = offset_to_axial(pa.col, pa.row), offset_to_axial(pb.col, pb.row)
        return steps(da, db) + abs(pa.level - pb.level)

    def neighbours(self, ref: str) -> tuple[DotPlace, ...]:
        """The dots next to a reference on its level (up to 6, east first, clockwise)."""
        p = self.locate(ref)
        q, r = offset_to_axial(p.col, p.row)
        return tuple(
            self.place(n, p.level)
            for dq, dr in DIRECTIONS
            if self.has_dot(n := (q + dq, r + dr), p.level)
        )

    def sight(self, source: str, target: str, **options: str | int) -> DotSight:
        """Sight, cover and range from ``source`` to ``target`` with the evidence; the options
        are those of :class:`~tactica.battlefield.dots.sight.SightOptions`."""
        from tactica.battlefield.dots.sight import SightOptions, sight

        return sight(self, source, target, SightOptions.parse(options, self))

    def sight_many(self, pairs: Sequence[tuple[str, str]], **options: str | int) -> DotSightBatch:
        """Sight for many ``(source, target)`` pairs at once, vectorised (the same answers as
        :meth:`sight`); see :mod:`~tactica.battlefield.dots.fast`."""
        from tactica.battlefield.dots.fast import sight_many

        return sight_many(self, pairs, **options)

    def sight_all(self, ids: Sequence[str] | None = None, **options: str | int) -> DotSightBatch:
        """Sight for every ordered pair of different troopers, vectorised; the pairs are in the
        order ``[(a, b) for a in ids for b in ids if a != b]`` (default: all troopers)."""
        from tactica.battlefield.dots.fast import sight_all

        return sight_all(self, ids, **options)

    def sight_report(self, source: str, target: str, **options: str | int) -> SightReport:
        """The :class:`SightReport` of :meth:`sight` (``details`` has ``range`` and the line)."""
        return self.sight(source, target, **options).report()

    def path(self, start: str, goal: str, **options: Any) -> MovePath | None:
        """A cheapest way in AP from ``start`` to ``goal`` (see
        :func:`tactica.battlefield.dots.move.cheapest_path` for the options)."""
        from tactica.battlefield.dots.move import cheapest_path

        return cheapest_path(self, start, goal, **options)

    def reachable(self, start: str, **options: Any) -> dict[DotPlace, int]:
        """Every place reachable from ``start`` within the AP budget, with its cost (see
        :func:`tactica.battlefield.dots.move.reachable`)."""
        from tactica.battlefield.dots.move import reachable

        return reachable(self, start, **options)

    def in_arc(
        self, vertex: str, ref: str, *, width: Degrees, bearing: Degrees | None = None,
        toward: str | None = None,
    ) -> bool:
        """Whether ``ref`` lies in the firing arc at ``vertex`` (see
        :mod:`~tactica.battlefield.dots.arcs`); ``toward`` is a reference."""
        from tactica.battlefield.dots.arcs import in_arc

        v, p = self.locate(vertex), self.locate(ref)
        axis = None
        if toward is not None:
            t = self.locate(toward)
            axis = offset_to_axial(t.col, t.row)
        return in_arc(offset_to_axial(v.col, v.row), offset_to_axial(p.col, p.row),
                      width=width, bearing=bearing, toward=axis)

    def arc_dots(
        self, vertex: str, *, width: Degrees, bearing: Degrees | None = None,
        toward: str | None = None, level: int | str | None = None,
    ) -> tuple[DotPlace, ...]:
        """Every dot in the firing arc at ``vertex``, on ``level`` or on every level."""
        levels = range(len(self.level_names)) if level is None else [self.level_index(level)]
        out = []
        for lvl in levels:
            for row in range(self.rows):
                for col in range(self.cols):
                    dot = offset_to_axial(col, row)
                    if self.has_dot(dot, lvl) and self.in_arc(
                        vertex, f"{col},{row}", width=width, bearing=bearing, toward=toward
                    ):
                        out.append(DotPlace(col, row, lvl))
        return tuple(out)

    def preview(self) -> str:
        """The map as text: every level's rows, the features, stairs and troopers."""
        from tactica.battlefield.dots.mapfile import preview_text

        return preview_text(self)
