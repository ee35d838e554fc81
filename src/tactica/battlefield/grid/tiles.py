"""The tile grid battlefield: square tiles, blocking terrain, occupants, corner-to-corner sight.

A :class:`TileGrid` is a rectangle of square tiles. Tile ``(x, y)`` is column ``x`` from the left
and row ``y`` from the top and covers ``[x, x+1] x [y, y+1]``. Some tiles are blocking terrain;
occupants (operators) stand on tiles and are named by one character. The grid is an immutable
value: changes return new grids, so battle states can hold and share them.

>>> g = TileGrid.from_text('''
... A...#....
... ....#..B.
... ''')
>>> g.width, g.height, g.tile_of("B")
(9, 2, (7, 1))
>>> g.sight("A", "B").clear_lines
0
>>> g.without_blocker((4, 0)).without_blocker((4, 1)).sight("A", "B").is_in_cover
False

Sight is judged on the four lines from the corners of the source tile to the matching corners of
the target tile. A game passes its own numbers: how many clear lines make a target visible
(``min_clear``, 2 by default) and the distance at or under which nobody benefits from cover
(``cover_range``, 3 by default, measured with ``metric``); the contact policy of a line that
grazes a blocker (``policy``) and which occupants block (``blockers``). The exact line geometry
is in :mod:`tactica.battlefield.grid.sight` and the batch path for many queries in
:mod:`tactica.battlefield.grid.fast`. Movement: 8 directions,
cost 1 per step, never through blocking terrain or other occupants. Whether a diagonal step may
pass between two diagonally placed blocked tiles is the ``diagonal`` option:

``no-squeeze`` (default)
    a diagonal step is refused only when both tiles beside it are blocked, the same reading as
    the ``inset`` sight policy (no squeezing through a point);
``free``
    any diagonal step onto an open tile;
``no-corner-cutting``
    both tiles beside a diagonal step must be open.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Final

from tactica.battlefield.base import MovePath, SightOption, SightReport
from tactica.battlefield.grid.metrics import METRICS, _choice, _whole, distance, is_within
from tactica.battlefield.grid.sight import (
    CORNER_NAMES,
    POLICIES,
    LineOfSight,
    Tile,
    lines_of_sight,
)
from tactica.battlefield.search import breadth_first_path
from tactica.engine.errors import MapError

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    import numpy.typing as npt

    from tactica.battlefield.grid.fast import SightBatch

__all__ = [
    "BLOCKER_RULES",
    "CORNER_NAMES",
    "COVER_RANGE",
    "DIAGONAL_RULES",
    "METRICS",
    "MIN_CLEAR",
    "POLICIES",
    "GridSight",
    "LineOfSight",
    "Tile",
    "TileGrid",
    "distance",
    "is_within",
]

#: Which occupants block sight, default first; terrain always blocks.
BLOCKER_RULES: Final = ("all", "foes")
#: Diagonal movement between two blocked tiles (tactica's own default, see the module notes).
DIAGONAL_RULES: Final = ("no-squeeze", "free", "no-corner-cutting")
#: The default cover range: at this distance or less nobody benefits from cover.
COVER_RANGE: Final = 3
#: The default number of clear lines that make a target visible.
MIN_CLEAR: Final = 2

_OCCUPANT_ID = re.compile(r"[A-Za-z0-9]")
_TILE_REF = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*")
# Neighbour order: orthogonal steps first, then diagonals; fixes every tie in paths.
_STEPS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class GridSight:
    """Sight from one tile to another: the four lines, the distance and the verdict."""

    source: Tile
    target: Tile
    lines: tuple[LineOfSight, ...]
    distance: int | float
    within_cover_range: bool
    policy: str
    metric: str
    blockers: str
    min_clear: int = MIN_CLEAR
    cover_range: int = COVER_RANGE

    @property
    def clear_lines(self) -> int:
        """How many of the four lines are clear."""
        return sum(line.is_clear for line in self.lines)

    @property
    def is_visible(self) -> bool:
        """At least ``min_clear`` clear lines."""
        return self.clear_lines >= self.min_clear

    @property
    def is_in_cover(self) -> bool:
        """Visible with a blocked line, beyond the cover range."""
        return self.is_visible and self.clear_lines < 4 and not self.within_cover_range


@dataclass(frozen=True)
class TileGrid:
    """A rectangle of square tiles with blocking terrain and one-character occupants.

    ``blockers`` are the blocking terrain tiles; ``occupants`` maps each id to its tile;
    ``sides`` optionally maps occupant ids to side names (used by ``blockers="foes"``).
    """

    kind: ClassVar[str] = "grid"

    width: int
    height: int
    blockers: frozenset[Tile] = frozenset()
    occupants: Mapping[str, Tile] = field(default_factory=dict)
    sides: Mapping[str, str] = field(default_factory=dict)
    name: str = ""
    #: Derived data cached by helpers (such as blocker arrays); not part of the value.
    memo: dict[str, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    _at: dict[Tile, str] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise MapError(f"a grid needs at least one tile, got {self.width}x{self.height}")
        blockers = frozenset((int(x), int(y)) for x, y in self.blockers)
        for t in sorted(blockers):
            if not self.in_bounds(t):
                raise MapError(f"blocking tile {_fmt(t)} is outside the {self._size} grid")
        occupants = {k: (int(v[0]), int(v[1])) for k, v in sorted(self.occupants.items())}
        at: dict[Tile, str] = {}
        for oid, t in occupants.items():
            if not isinstance(oid, str) or not _OCCUPANT_ID.fullmatch(oid):
                raise MapError(f"occupant id {oid!r}: expected one letter or digit")
            if not self.in_bounds(t):
                raise MapError(f"occupant {oid} at {_fmt(t)} is outside the {self._size} grid")
            if t in blockers:
                raise MapError(f"occupant {oid} at {_fmt(t)} stands on blocking terrain")
            if t in at:
                raise MapError(f"occupants {at[t]} and {oid} share tile {_fmt(t)}")
            at[t] = oid
        sides = dict(sorted(self.sides.items()))
        for oid in sides:
            if oid not in occupants:
                raise MapError(f"sides: no occupant {oid!r} on the map")
        object.__setattr__(self, "blockers", blockers)
        object.__setattr__(self, "occupants", MappingProxyType(occupants))
        object.__setattr__(self, "sides", MappingProxyType(sides))
        object.__setattr__(self, "_at", at)

    def __hash__(self) -> int:
        return hash(
            (self.width, self.height, self.blockers, tuple(self.occupants.items()),
             tuple(self.sides.items()), self.name)
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            TileGrid,
            (self.width, self.height, self.blockers, dict(self.occupants), dict(self.sides),
             self.name),
        )

    @property
    def _size(self) -> str:
        return f"{self.width}x{self.height}"

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_text(
        cls,
        text: str | Iterable[str],
        *,
        name: str = "",
        sides: Mapping[str, str] | None = None,
        source: str = "<text>",
    ) -> TileGrid:
        """A grid from rows of ``.`` (floor), ``#`` (blocking) and letters/digits (occupants).

        Blank lines before and after are ignored; errors name ``source``, the row and the column.
        """
        from tactica.battlefield.grid.mapfile import parse_tiles

        width, height, blockers, occupants = parse_tiles(text, source=source)
        return cls(width, height, blockers, occupants, sides or {}, name)

    def to_text(self) -> str:
        """The map as rows of characters (the inverse of :meth:`from_text`)."""
        rows = [["#" if (x, y) in self.blockers else "." for x in range(self.width)]
                for y in range(self.height)]
        for oid, (x, y) in self.occupants.items():
            rows[y][x] = oid
        return "\n".join("".join(r) for r in rows)

    # -- changes (each returns a new grid) ----------------------------------------------------

    def with_occupant(self, oid: str, tile: Tile) -> TileGrid:
        """A grid with occupant ``oid`` added on ``tile``."""
        if oid in self.occupants:
            raise MapError(f"occupant {oid} is already on the map at {_fmt(self.occupants[oid])}")
        return self._replace(occupants={**self.occupants, oid: tile})

    def move_occupant(self, oid: str, tile: Tile) -> TileGrid:
        """A grid with occupant ``oid`` moved to ``tile`` (no path check; see :meth:`path`)."""
        self._require_occupant(oid)
        t = (int(tile[0]), int(tile[1]))
        other = self._at.get(t)
        if not self.in_bounds(t) or t in self.blockers or (other is not None and other != oid):
            return self._replace(occupants={**self.occupants, oid: tile})  # the full checks
        # The rest of the grid is unchanged and was checked: no need to check it again (a
        # battle moves an occupant at every step).
        occupants = dict(self.occupants)
        occupants[oid] = t
        at = dict(self._at)
        del at[self.occupants[oid]]
        at[t] = oid
        return self._derived(occupants, self.sides, at)

    def _derived(self, occupants: dict[str, Tile], sides: Mapping[str, str],
                 at: dict[Tile, str]) -> TileGrid:
        new = object.__new__(TileGrid)
        for name, value in (("width", self.width), ("height", self.height),
                            ("blockers", self.blockers), ("name", self.name),
                            ("occupants", MappingProxyType(dict(sorted(occupants.items())))),
                            ("sides", MappingProxyType(dict(sides))), ("memo", {}),
                            ("_at", at)):
            object.__setattr__(new, name, value)
        return new

    def without_occupant(self, oid: str) -> TileGrid:
        """A grid without occupant ``oid`` (and without its side entry)."""
        self._require_occupant(oid)
        occupants = {k: v for k, v in self.occupants.items() if k != oid}
        sides = {k: v for k, v in self.sides.items() if k != oid}
        at = {t: k for t, k in self._at.items() if k != oid}
        return self._derived(occupants, sides, at)

    def with_blocker(self, tile: Tile) -> TileGrid:
        """A grid with blocking terrain added on ``tile``."""
        return self._replace(blockers=self.blockers | {tile})

    def without_blocker(self, tile: Tile) -> TileGrid:
        """A grid with the blocking terrain on ``tile`` removed (if there was any)."""
        return self._replace(blockers=self.blockers - {tile})

    def with_sides(self, sides: Mapping[str, str]) -> TileGrid:
        """A grid whose occupants belong to the given sides."""
        return self._replace(sides=sides)

    def _replace(self, **changes: Any) -> TileGrid:
        values: dict[str, Any] = {
            "width": self.width, "height": self.height, "blockers": self.blockers,
            "occupants": self.occupants, "sides": self.sides, "name": self.name,
        }
        values.update(changes)
        return TileGrid(**values)

    # -- queries ------------------------------------------------------------------------------

    def in_bounds(self, tile: Tile) -> bool:
        """Whether ``tile`` lies on the grid."""
        return 0 <= tile[0] < self.width and 0 <= tile[1] < self.height

    def is_blocking(self, tile: Tile) -> bool:
        """Whether ``tile`` is blocking terrain."""
        return tile in self.blockers

    def occupant_at(self, tile: Tile) -> str | None:
        """The id of the occupant on ``tile``, or None."""
        return self._at.get(tile)

    def tile_of(self, oid: str) -> Tile:
        """The tile of occupant ``oid``."""
        self._require_occupant(oid)
        return self.occupants[oid]

    def is_passable(self, tile: Tile) -> bool:
        """On the grid, not blocking terrain and not occupied."""
        return self.in_bounds(tile) and tile not in self.blockers and self.occupant_at(tile) is None

    def tile(self, ref: str | Tile) -> Tile:
        """Resolve an occupant id, an ``"x,y"`` string or a tile to a tile on the grid."""
        if isinstance(ref, tuple):
            t = (int(ref[0]), int(ref[1]))
        elif ref in self.occupants:
            return self.occupants[ref]
        else:
            m = _TILE_REF.fullmatch(ref)
            if m is None:
                known = ", ".join(self.occupants) or "none"
                raise MapError(
                    f"no occupant {ref!r} on the map (occupants: {known}); "
                    "or give a tile as x,y"
                )
            t = (int(m[1]), int(m[2]))
        if not self.in_bounds(t):
            raise MapError(f"tile {_fmt(t)} is outside the {self._size} grid")
        return t

    def _require_occupant(self, oid: str) -> None:
        if oid not in self.occupants:
            known = ", ".join(self.occupants) or "none"
            raise MapError(f"no occupant {oid!r} on the map (occupants: {known})")

    def distance(self, a: str | Tile, b: str | Tile, metric: str = "chebyshev") -> int | float:
        """Distance between two tiles or occupants (see :func:`distance`)."""
        return distance(self.tile(a), self.tile(b), metric)

    def is_adjacent(self, a: str | Tile, b: str | Tile) -> bool:
        """Whether two different tiles touch, diagonals included (8 neighbours)."""
        ta, tb = self.tile(a), self.tile(b)
        return ta != tb and max(abs(ta[0] - tb[0]), abs(ta[1] - tb[1])) == 1

    def neighbours(self, tile: str | Tile) -> tuple[Tile, ...]:
        """The tiles on the grid around ``tile`` (up to 8), orthogonal ones first."""
        x, y = self.tile(tile)
        return tuple(t for dx, dy in _STEPS if self.in_bounds(t := (x + dx, y + dy)))

    # -- movement -----------------------------------------------------------------------------

    def steps(self, tile: str | Tile, *, diagonal: str = "no-squeeze") -> tuple[Tile, ...]:
        """The tiles one legal step from ``tile`` (8 directions, onto passable tiles)."""
        rule = _choice("diagonal", diagonal, DIAGONAL_RULES)
        return self._steps(self.tile(tile), rule)

    def _open_tiles(self) -> frozenset[Tile]:
        """Every passable tile (cached on the grid: it is immutable)."""
        found = self.memo.get("open-tiles")
        if found is None:
            found = frozenset(
                (x, y)
                for x in range(self.width)
                for y in range(self.height)
                if (x, y) not in self.blockers and (x, y) not in self._at
            )
            self.memo["open-tiles"] = found
        assert isinstance(found, frozenset)
        return found

    def _steps(self, tile: Tile, rule: str) -> tuple[Tile, ...]:
        x, y = tile
        passable = self._open_tiles()
        out = []
        for dx, dy in _STEPS:
            t = (x + dx, y + dy)
            if t not in passable:
                continue
            if dx and dy and rule != "free":
                side_a, side_b = (x + dx, y) in passable, (x, y + dy) in passable
                if rule == "no-squeeze" and not side_a and not side_b:
                    continue
                if rule == "no-corner-cutting" and not (side_a and side_b):
                    continue
            out.append(t)
        return tuple(out)

    def reachable(
        self, start: str | Tile, max_steps: int, *, diagonal: str = "no-squeeze"
    ) -> dict[Tile, int]:
        """Every tile reachable in at most ``max_steps`` steps, with its step count (BFS).

        The start tile (the mover's own) is included with 0 steps.
        """
        rule = _choice("diagonal", diagonal, DIAGONAL_RULES)
        origin = self.tile(start)
        seen = {origin: 0}
        queue = deque([origin])
        while queue:
            t = queue.popleft()
            if seen[t] >= max_steps:
                continue
            for n in self._steps(t, rule):
                if n not in seen:
                    seen[n] = seen[t] + 1
                    queue.append(n)
        return seen

    def path(self, start: str, goal: str) -> MovePath | None:
        """A shortest path (the Battlefield vocabulary): every tile entered, cost 1 a step."""
        tiles = self.tile_path(start, goal)
        if tiles is None:
            return None
        return MovePath(tiles, len(tiles) - 1, (1,) * (len(tiles) - 1))

    def locate(self, ref: str) -> Tile:
        """The tile of an occupant id or of ``"x,y"``."""
        return self.tile(ref)

    def levels(self) -> tuple[str, ...]:
        """A grid is flat."""
        return ()

    def tile_path(
        self, start: str | Tile, goal: str | Tile, *, diagonal: str = "no-squeeze"
    ) -> tuple[Tile, ...] | None:
        """A shortest path from ``start`` to ``goal`` (both included), or None.

        The goal must be passable. Among equally short paths the one found first in the fixed
        neighbour order (orthogonal steps before diagonal ones) is returned, so the answer is
        deterministic.
        """
        rule = _choice("diagonal", diagonal, DIAGONAL_RULES)
        origin, target = self.tile(start), self.tile(goal)
        if origin == target:
            return (origin,)
        if not self.is_passable(target):
            return None
        return breadth_first_path(origin, target, lambda t: self._steps(t, rule))

    # -- sight --------------------------------------------------------------------------------

    def sight_blockers(
        self, source: str | Tile, *, blockers: str = "all", sides: Mapping[str, str] | None = None
    ) -> frozenset[Tile]:
        """The tiles that block sight for an attacker on ``source``.

        ``all``: terrain and every occupant; ``foes``: terrain and occupants whose side differs
        from the attacker's (an occupant without a side counts as a foe). The attacker's and the
        defender's own tiles never block their lines, whatever this set holds.
        """
        rule = _choice("blockers", blockers, BLOCKER_RULES)
        if rule == "all":
            found = self.memo.get("sight-blockers-all")
            if found is None:
                found = self.memo["sight-blockers-all"] = self.blockers | frozenset(
                    self.occupants.values()
                )
            return found
        side_of = self.sides if sides is None else sides
        tile = self.tile(source)
        attacker = self.occupant_at(tile)
        if attacker is None or attacker not in side_of:
            raise MapError(
                "blockers: 'foes' needs the attacker's side; give the map sides "
                "(sides: {A: red, B: blue}) and name an occupant as the source"
            )
        mine = side_of[attacker]
        foes = (t for oid, t in self.occupants.items() if side_of.get(oid) != mine)
        return self.blockers | frozenset(foes)

    def sight(
        self,
        source: str | Tile,
        target: str | Tile,
        *,
        policy: str = "inset",
        metric: str = "chebyshev",
        blockers: str = "all",
        sides: Mapping[str, str] | None = None,
        min_clear: int = MIN_CLEAR,
        cover_range: int = COVER_RANGE,
    ) -> GridSight:
        """Sight and cover from ``source`` to ``target`` (tiles or occupant ids).

        This is the plain reference computation: for each of the four lines, one exact test per
        blocking tile near it. For thousands of queries use :meth:`sight_many`.
        """
        policy = _choice("policy", policy, POLICIES)
        metric = _choice("metric", metric, METRICS)
        a, b = self.tile(source), self.tile(target)
        if a == b:
            raise MapError(f"sight from a tile to itself ({_fmt(a)}) is not defined")
        blocking = self.sight_blockers(a, blockers=blockers, sides=sides)
        return GridSight(
            source=a,
            target=b,
            lines=lines_of_sight(a, b, blocking, policy),
            distance=distance(a, b, metric),
            within_cover_range=is_within(a, b, cover_range, metric),
            policy=policy,
            metric=metric,
            blockers=blockers,
            min_clear=min_clear,
            cover_range=cover_range,
        )

    def sight_many(
        self,
        pairs: Sequence[tuple[str | Tile, str | Tile]] | npt.NDArray[np.integer[Any]],
        *,
        policy: str = "inset",
        metric: str = "chebyshev",
        blockers: str = "all",
        sides: Mapping[str, str] | None = None,
    ) -> SightBatch:
        """Sight for many ``(source, target)`` pairs at once, vectorised (same answers as
        :meth:`sight`); see :func:`tactica.battlefield.grid.fast.batch_sight`."""
        from tactica.battlefield.grid.fast import grid_sight_many

        return grid_sight_many(
            self, pairs, policy=policy, metric=metric, blockers=blockers, sides=sides
        )

    def sight_all(
        self,
        ids: Sequence[str] | None = None,
        *,
        policy: str = "inset",
        metric: str = "chebyshev",
        blockers: str = "all",
        sides: Mapping[str, str] | None = None,
    ) -> SightBatch:
        """Sight for every ordered pair of different occupants, vectorised; the pairs are in
        the order ``[(a, b) for a in ids for b in ids if a != b]`` (default: all occupants)."""
        from tactica.battlefield.grid.fast import grid_sight_all

        return grid_sight_all(
            self, ids, policy=policy, metric=metric, blockers=blockers, sides=sides
        )

    def sight_report(self, source: str, target: str, **options: SightOption) -> SightReport:
        """Sight and cover between two occupants (or ``"x,y"`` tiles), with the evidence.

        Options: ``policy`` (inset, touch, interior), ``metric`` (chebyshev, manhattan,
        euclidean), ``blockers`` (all, foes), ``min_clear`` (clear lines needed to see, 1-4)
        and ``cover_range`` (no cover at this distance or less); anything else raises
        :class:`MapError`.
        """
        from tactica.battlefield.grid.mapfile import sight_to_report

        known = ("policy", "metric", "blockers", "min_clear", "cover_range")
        for key in options:
            if key not in known:
                raise MapError(
                    f"unknown sight option {key!r} for a grid map (known: {', '.join(known)})"
                )
        result = self.sight(
            source,
            target,
            policy=str(options.get("policy", "inset")),
            metric=str(options.get("metric", "chebyshev")),
            blockers=str(options.get("blockers", "all")),
            min_clear=_whole("min_clear", options.get("min_clear", MIN_CLEAR), 1, 4),
            cover_range=_whole("cover_range", options.get("cover_range", COVER_RANGE), 0, 10**6),
        )
        return sight_to_report(self, result, source, target)

    # -- pictures -----------------------------------------------------------------------------

    def preview(self) -> str:
        """The map as text with column and row numbers, and the occupants listed."""
        from tactica.battlefield.grid.mapfile import preview_text

        return preview_text(self)



def _fmt(tile: Tile) -> str:
    return f"{tile[0]},{tile[1]}"


