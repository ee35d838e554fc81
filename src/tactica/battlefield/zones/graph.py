"""The zone graph battlefield: named areas joined by connections.

A zone map has no coordinates. Characters stand *in* an area (any number per area) or are
*moving between* two areas. Connections come in four types:

``solid``
    move and see across (one action to move to the connected area);
``dashed``
    see across, never move across;
``one-way`` (an arrow)
    move only from the first area to the second; sight both ways, as on a solid line;
``blocked`` (a dashed line with an X)
    neither sight nor movement: the two areas never see each other (option ``x_lines``).

A ``solid`` or ``one-way`` connection may carry a ``door`` (``open`` or ``closed``); a closed
door stops movement and, by default, sight (option ``closed_doors``). A cover mark sits at
one end (or both ends) of a connection: characters in that area have cover against attacks
coming over it.

Answers follow the usual reading of a zone map:

* **Range** is the number of connections on the shortest path; a character moving between two
  areas is at the smaller of the two ranges.
* **Line of sight**: along each shortest path of connections that carry sight, count the cover
  marks that are not at the attacker's own area; two or more on a path block it. Sight within
  one's own area is always clear.
* **Cover**: the target has cover if at least one shortest path ends with a cover mark at the
  target's area; never at range 0 (so never for melee) and never while moving.

The readings a game may choose are options of :meth:`ZoneGraph.sight_report` (first value =
default); a game maps its rulings to them:

* ``sight_only_range``: ``yes`` | ``no``: dashed connections count toward range;
* ``blocked_if``: ``any`` | ``every``: sight is blocked if any shortest path crosses two
  or more counted marks, or only if every shortest path does;
* ``closed_doors``: ``block`` | ``see``: a closed door blocks sight, or only movement;
* ``x_lines``: ``veto`` | ``edge``: an X line denies sight between its two areas whatever
  the path (it is drawn to forbid a sight that other paths would give), or only removes itself.
* ``symmetry``: ``either`` | ``both`` | ``literal``: because the viewer's own marks are not
  counted, the count can give one-way sight (see below). ``either``: two areas see each other
  if the count from either end is clear; ``both``: only if it is clear from both ends;
  ``literal``: the count from the viewer's end alone, one-way sight and all.

Whatever the options, doors and X lines never change range: range counts solid and one-way
connections (doors open or closed) and, with ``sight_only_range=yes``, dashed ones; X lines
never count. Sight always travels along sight-carrying connections, so with
``sight_only_range=no`` the Catwalk still sees the Dance Floor over the dashed line although
the range between them is 2.

Consequences worth knowing. The literal count is not always symmetric: because the attacker's
own marks are skipped, on the nightclub the Kitchen sees the Dance Floor but not the other way
round (and the Entrance the Kitchen). The seed advises against one-way sight, so by default
(``symmetry=either``) sight is symmetric: whoever is seen sees back, and the report says when
the literal count would have been one-way.
Under ``blocked_if=every`` a target has cover if any shortest path (even one too marked to see
along) ends with a mark at it, as the seed's "at least one of the shortest paths" reads. A
moving character's two ends may be at the same range: both are judged, and either one giving
sight is enough.

Map files and the text preview live in :mod:`tactica.battlefield.zones.mapfile`.

A place is an area name or a pair ``(from, to)`` for a character moving between them; in text,
``"Catwalk>Dance Floor"``. The pair must be joined by a connection of any type (the seed's own
example puts a character between the Catwalk and the Dance Floor, joined by a dashed line).

>>> club = ZoneGraph(
...     areas=("Bar", "Dance Floor", "Catwalk"),
...     connections=(
...         Connection("Dance Floor", "Bar", cover=frozenset({"Bar"})),
...         Connection("Catwalk", "Dance Floor", type="dashed"),
...     ),
... )
>>> report = club.sight_report("Dance Floor", "Bar")
>>> report.visible, report.cover, report.distance
(True, 1, 1)
>>> club.move_path("Catwalk", "Bar") is None
True
>>> club.range_between("Catwalk>Dance Floor", "Bar")
1
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import pairwise
from typing import Any, ClassVar, Literal

import networkx as nx

from tactica.battlefield.base import MovePath, SightOption, SightReport
from tactica.engine.errors import MapError

__all__ = [
    "BETWEEN",
    "CONNECTION_TYPES",
    "SIGHT_OPTIONS",
    "Connection",
    "ConnectionType",
    "DoorState",
    "Place",
    "ZoneGraph",
    "format_place",
]

ConnectionType = Literal["solid", "dashed", "one-way", "blocked"]
DoorState = Literal["open", "closed"]
#: An area name, or ``(from, to)`` for a character moving between two areas.
Place = str | tuple[str, str]

CONNECTION_TYPES: tuple[ConnectionType, ...] = ("solid", "dashed", "one-way", "blocked")

#: Sight options: name -> allowed values with the default first.
SIGHT_OPTIONS: Mapping[str, tuple[str, ...]] = {
    "sight_only_range": ("yes", "no"),
    "blocked_if": ("any", "every"),
    "closed_doors": ("block", "see"),
    "x_lines": ("veto", "edge"),
    "symmetry": ("either", "both", "literal"),
}

#: Separates the two areas of a character moving between them: ``"Catwalk>Dance Floor"``.
BETWEEN = ">"


@dataclass(frozen=True)
class Connection:
    """One line of the map between areas ``a`` and ``b`` (for ``one-way``: from ``a`` to ``b``).

    ``cover`` holds the ends that carry a cover mark.
    """

    a: str
    b: str
    type: ConnectionType = "solid"
    door: DoorState | None = None
    cover: frozenset[str] = frozenset()

    @property
    def ends(self) -> tuple[str, str]:
        """The two areas, in the order given."""
        return (self.a, self.b)

    def other(self, area: str) -> str:
        """The end that is not ``area``."""
        return self.b if area == self.a else self.a

    def has_cover_at(self, area: str) -> bool:
        """Whether a cover mark sits at the ``area`` end."""
        return area in self.cover

    def is_movement(self) -> bool:
        """Whether the line is drawn for movement at all (solid or one-way), doors aside."""
        return self.type in ("solid", "one-way")

    def can_move(self, start: str, end: str) -> bool:
        """Whether one may move over it from ``start`` to ``end`` now (doors and arrows)."""
        if not self.is_movement() or self.door == "closed" or {start, end} != set(self.ends):
            return False
        return self.type == "solid" or (start, end) == (self.a, self.b)

    def carries_sight(self, *, closed_doors: str = "block") -> bool:
        """Whether sight crosses it (``closed_doors`` decides for a closed door)."""
        if self.type == "blocked":
            return False
        return not (self.door == "closed" and closed_doors == "block")

    def counts_for_range(self, *, sight_only_range: str = "yes") -> bool:
        """Whether it counts toward range (``sight_only_range`` decides for dashed lines; X
        lines never)."""
        return self.is_movement() or (self.type == "dashed" and sight_only_range == "yes")

    def describe(self) -> str:
        """A short description: type, door and marks."""
        words = {
            "solid": "move and sight",
            "dashed": "sight only",
            "one-way": f"one way {self.a} > {self.b}, sight both ways",
            "blocked": "X: no sight, no movement",
        }[self.type]
        if self.door:
            words += f", {self.door} door"
        marks = [end for end in self.ends if end in self.cover]
        if marks:
            words += ", cover at " + " and ".join(marks)
        return words


def format_place(place: Place) -> str:
    """``"Bar"`` or ``"Catwalk>Dance Floor"`` for a character moving between two areas."""
    return place if isinstance(place, str) else f"{place[0]}{BETWEEN}{place[1]}"


@dataclass(frozen=True)
class _PairSight:
    visible: bool
    cover: bool
    paths: tuple[dict[str, Any], ...]
    reasons: tuple[str, ...]
    one_way: bool = False


#: How many area names the shortest paths a map remembers may hold in all (each pair of areas
#: and kind of arc counts one more); past it the map forgets them all and starts again. A
#: name is a reference in a tuple: a million are about 10 to 20 MB. (Between two far corners
#: of a dense map there may be tens of thousands of shortest paths: those are bounded too.)
PATHS_KEPT = 1_000_000


@dataclass(frozen=True)
class ZoneGraph:
    """An immutable zone map: areas, connections, and optionally a drawing layout.

    ``layout`` pairs area names with ``(x, y)`` drawing positions (any unit, y downwards).
    """

    kind: ClassVar[str] = "zones"

    areas: tuple[str, ...]
    connections: tuple[Connection, ...] = ()
    name: str = ""
    layout: tuple[tuple[str, tuple[float, float]], ...] = field(default=())

    def __post_init__(self) -> None:
        problems = list(_graph_problems(self.areas, self.connections, self.layout))
        if problems:
            raise MapError("zone graph: " + "; ".join(problems))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_mapping(cls, data: Any, *, source: str = "<map>") -> ZoneGraph:
        """Build from a parsed map file (``kind: zones``); every problem is reported at once."""
        from tactica.battlefield.zones.mapfile import zones_from_mapping

        return zones_from_mapping(data, source=source)

    def to_mapping(self) -> dict[str, Any]:
        """The map-file mapping of this graph (``from_mapping`` reads it back)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.name:
            out["name"] = self.name
        out["areas"] = list(self.areas)
        conns: list[dict[str, Any]] = []
        for c in self.connections:
            item: dict[str, Any] = {"between": [c.a, c.b]}
            if c.type != "solid":
                item["type"] = c.type
            if c.door:
                item["door"] = c.door
            if c.cover:
                item["cover"] = [end for end in c.ends if end in c.cover]
            conns.append(item)
        out["connections"] = conns
        if self.layout:
            out["layout"] = {area: list(xy) for area, xy in self.layout}
        return out

    def with_door(self, a: str, b: str, state: DoorState) -> ZoneGraph:
        """A copy with the door between ``a`` and ``b`` set ``open`` or ``closed``."""
        conn = self.connection(a, b)
        if conn is None or conn.door is None:
            raise MapError(f"no door between {a!r} and {b!r}")
        if state not in ("open", "closed"):
            raise MapError(f"door state: expected 'open' or 'closed', got {state!r}")
        new = replace(conn, door=state)
        return replace(self, connections=tuple(new if c is conn else c for c in self.connections))

    # -- paths --------------------------------------------------------------------------------

    @cached_property
    def _graphs(self) -> dict[str, nx.DiGraph]:
        return {}

    @cached_property
    def _paths(self) -> dict[tuple[str, str, str], tuple[tuple[str, ...], ...]]:
        return {}

    @cached_property
    def _paths_held(self) -> list[int]:
        """The area names in the paths remembered (one number, in a list to change it)."""
        return [0]

    def _shortest_paths(self, key: str, step: Callable[[str], Iterable[str]], start: str,
                        goal: str, *, limit: int | None = None) -> list[tuple[str, ...]]:
        """Every shortest path from ``start`` to ``goal`` along the arcs ``step`` gives
        (``key`` names that kind of arc, for the cache), in the order of the map's areas.
        Remembered per map, at most :data:`PATHS_KEPT` names in all (then forgotten whole): sight
        between two areas is asked again and again (every character, every decision)."""
        memo, held = self._paths, self._paths_held
        found = memo.get((key, start, goal))
        if found is None:
            found = tuple(self._all_shortest(key, step, start, goal))
            names = sum(len(path) for path in found) + 1
            if held[0] + names > PATHS_KEPT:
                memo.clear()
                held[0] = 0
            if names <= PATHS_KEPT:
                memo[(key, start, goal)] = found
                held[0] += names
        return list(found[:limit] if limit is not None else found)

    def _all_shortest(self, key: str, step: Callable[[str], Iterable[str]], start: str,
                      goal: str) -> list[tuple[str, ...]]:
        graph = self._graphs.get(key)
        if graph is None:
            graph = nx.DiGraph()
            graph.add_nodes_from(self.areas)
            graph.add_edges_from((a, b) for a in self.areas for b in step(a))
            self._graphs[key] = graph
        try:
            found = [tuple(p) for p in nx.all_shortest_paths(graph, start, goal)]
        except nx.NetworkXNoPath:
            return []
        order = {area: i for i, area in enumerate(self.areas)}
        found.sort(key=lambda path: [order[a] for a in path])
        return found

    # -- lookup -------------------------------------------------------------------------------

    @cached_property
    def _links(self) -> dict[str, tuple[Connection, ...]]:
        links: dict[str, list[Connection]] = {area: [] for area in self.areas}
        for c in self.connections:
            links[c.a].append(c)
            links[c.b].append(c)
        order = {area: i for i, area in enumerate(self.areas)}
        out: dict[str, tuple[Connection, ...]] = {}
        for area, found in links.items():
            ranked = sorted((order[c.other(area)], i, c) for i, c in enumerate(found))
            out[area] = tuple(c for _, _, c in ranked)
        return out

    def connections_of(self, area: str) -> tuple[Connection, ...]:
        """The connections touching ``area``, in the order of the other end's area."""
        return self._links[self.area(area)]

    def connection(self, a: str, b: str) -> Connection | None:
        """The connection between two areas (either order), if any."""
        for c in self._links.get(a, ()):
            if c.other(a) == b:
                return c
        return None

    def area(self, name: str) -> str:
        """``name`` if it is an area, else a :class:`MapError` with the closest names."""
        if name in self._links:
            return name
        close = difflib.get_close_matches(name, self.areas, n=3)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise MapError(f"unknown area {name!r} (areas: {', '.join(self.areas)}){hint}")

    def place(self, value: Place) -> Place:
        """Check and normalise a place: an area, ``(from, to)`` or the text ``"from>to"``."""
        if isinstance(value, str) and BETWEEN in value:
            first, _, second = value.partition(BETWEEN)
            value = (first.strip(), second.strip())
        if isinstance(value, str):
            return self.area(value.strip())
        first, second = (self.area(v) for v in value)
        if first == second or self.connection(first, second) is None:
            raise MapError(
                f"cannot be moving between {first!r} and {second!r}: no connection joins them"
            )
        return (first, second)

    # -- movement -----------------------------------------------------------------------------

    def neighbors_for_move(self, area: str) -> tuple[str, ...]:
        """Areas one move away from ``area`` (arrows and closed doors respected)."""
        return tuple(
            c.other(area) for c in self.connections_of(area) if c.can_move(area, c.other(area))
        )

    def can_move(self, start: str, end: str) -> bool:
        """Whether one action moves a character directly from ``start`` to ``end``."""
        return end in self.neighbors_for_move(start)

    def move_path(self, start: str, end: str) -> tuple[str, ...] | None:
        """A shortest movement path, both ends included; ``None`` if ``end`` cannot be reached."""
        start, end = self.area(start), self.area(end)
        paths = self._shortest_paths("move", self.neighbors_for_move, start, end, limit=1)
        return paths[0] if paths else None

    # -- the battlefield vocabulary ----------------------------------------------------------

    @property
    def occupants(self) -> Mapping[str, Place]:
        """A zone map holds no units: the game keeps where each character stands."""
        return {}

    def locate(self, ref: str) -> Place:
        """An area, or ``"from>to"`` for a character moving between two areas."""
        return self.place(ref)

    def distance(self, a: str, b: str) -> int | float:
        """The range in connections (infinite if no counted path joins them)."""
        found = self.range_between(a, b)
        return float("inf") if found is None else found

    def neighbours(self, ref: str) -> tuple[Place, ...]:
        """Areas one move away (arrows and closed doors respected)."""
        return self.neighbors_for_move(self.area(ref))

    def path(self, start: str, goal: str) -> MovePath | None:
        """A shortest movement path: one action per connection crossed."""
        found = self.move_path(start, goal)
        if found is None:
            return None
        return MovePath(found, len(found) - 1, (1,) * (len(found) - 1))

    def levels(self) -> tuple[str, ...]:
        """A zone map is flat."""
        return ()

    # -- range --------------------------------------------------------------------------------

    def _range_step(self, sight_only_range: str) -> Callable[[str], Iterator[str]]:
        def step(area: str) -> Iterator[str]:
            for c in self._links[area]:
                if c.counts_for_range(sight_only_range=sight_only_range):
                    yield c.other(area)

        return step

    def range_between(
        self, source: Place, target: Place, *, sight_only_range: str = "yes"
    ) -> int | None:
        """The range in connections (a moving end: the nearer one); ``None`` if no counted path
        joins them."""
        _check_value("sight_only_range", sight_only_range)
        pairs = self._pair_ranges(self.place(source), self.place(target), sight_only_range)
        finite = [r for _, _, r in pairs if r is not None]
        return min(finite) if finite else None

    def _pair_ranges(
        self, source: Place, target: Place, sight_only_range: str
    ) -> list[tuple[str, str, int | None]]:
        step = self._range_step(sight_only_range)
        out: list[tuple[str, str, int | None]] = []
        for s in _ends(source):
            for t in _ends(target):
                paths = self._shortest_paths(f"range:{sight_only_range}", step, s, t, limit=1)
                out.append((s, t, len(paths[0]) - 1 if paths else None))
        return out

    # -- sight --------------------------------------------------------------------------------

    def sight_report(
        self, source: str | tuple[str, str], target: str | tuple[str, str], **options: SightOption
    ) -> SightReport:
        """Line of sight, cover and range from ``source`` to ``target``, with the evidence.

        ``details`` holds ``range`` (``None`` if unreachable), ``options`` (name -> value),
        ``moving`` (the pair of each moving character, else ``None``), ``pairs`` (the area
        pairs judged: the nearest ends of a moving character; ``one_way`` where the literal
        count differs from the other end, see ``symmetry``) and ``paths``: each shortest
        sight path
        with its ``areas``, its ``marks`` (``between``, ``at``, ``counted``),
        ``cover_marks_counted``, ``blocks_sight`` and ``target_cover``.
        """
        opts = _parse_options(options)
        src, tgt = self.place(source), self.place(target)
        ranges = self._pair_ranges(src, tgt, opts["sight_only_range"])
        finite = [r for _, _, r in ranges if r is not None]
        rng = min(finite) if finite else None
        pairs = [(s, t) for s, t, r in ranges if r == rng]
        judged = [(s, t, self._judged(s, t, opts)) for s, t in pairs]
        visible = any(j.visible for _, _, j in judged)
        cover = any(j.visible and j.cover for _, _, j in judged)
        reasons: list[str] = []
        if not isinstance(src, str) or not isinstance(tgt, str):
            reasons.append(f"moving: judged from the nearest ends: {_pairs_text(pairs)}")
        for _, _, j in judged:
            reasons.extend(j.reasons)
        if rng is None:
            reasons.append("no path of counted connections joins them: out of range")
        if cover and not isinstance(tgt, str):
            cover = False
            reasons.append("the target is moving between two areas: no cover while moving")
        details: dict[str, Any] = {
            "range": rng,
            "options": dict(opts),
            "moving": {
                "source": None if isinstance(src, str) else list(src),
                "target": None if isinstance(tgt, str) else list(tgt),
            },
            "pairs": [
                {"from": s, "to": t, "visible": j.visible, "cover": j.cover,
                 **({"one_way": True} if j.one_way else {})} for s, t, j in judged
            ],
            "paths": [p for _, _, j in judged for p in j.paths],
        }
        if rng is None:
            details["distance"] = None
        return SightReport(
            source=format_place(src),
            target=format_place(tgt),
            visible=visible,
            cover=int(cover),
            distance=rng if rng is not None else float("inf"),
            details=details,
            reasons=tuple(reasons),
        )

    def _judged(self, s: str, t: str, opts: Mapping[str, str]) -> _PairSight:
        """Sight from ``s`` to ``t`` under the ``symmetry`` option: the literal count from
        ``s``, made symmetric with the count from ``t`` unless the option is ``literal``."""
        there = self._sight_between(s, t, opts)
        if s == t:
            return there
        back = self._sight_between(t, s, opts)
        if back.visible == there.visible:
            return there
        mode = opts["symmetry"]
        sees = "sees" if back.visible else "does not see"
        one_way = (f"one-way by the literal count: {s} " + ("sees" if there.visible else
                   "does not see") + f" {t}, but counted from {t} (its own marks not counted) "
                   f"{t} {sees} {s}")
        if mode == "literal":
            return replace(there, reasons=(*there.reasons, one_way + " (symmetry=literal: "
                                           "the count from the viewer's end decides)"),
                           one_way=True)
        visible = there.visible or back.visible if mode == "either" else (
            there.visible and back.visible)
        cover = visible and any(p["target_cover"] for p in there.paths)
        rule = ("either end's count is clear" if mode == "either"
                else "only if both ends' counts are clear")
        reasons = [_path_reason(p) for p in there.paths]
        reasons.append(one_way)
        reasons.append(f"sight is symmetric by ruling (symmetry={mode}: {rule}): "
                       + (f"{s} sees {t}" if visible else "no line of sight"))
        if cover:
            reasons.append(f"{t} has cover: a shortest path ends with a cover mark at {t}")
        return _PairSight(visible, cover, there.paths, tuple(reasons), one_way=True)

    def _sight_between(self, s: str, t: str, opts: Mapping[str, str]) -> _PairSight:
        if s == t:
            path = {
                "areas": [s],
                "marks": [],
                "cover_marks_counted": 0,
                "blocks_sight": False,
                "target_cover": False,
            }
            return _PairSight(True, False, (path,), (f"{s}: same area, always in sight, no cover",))
        veto = self.connection(s, t)
        if opts["x_lines"] == "veto" and veto is not None and veto.type == "blocked":
            return _PairSight(
                False, False, (), (f"an X line between {s} and {t} blocks sight (x_lines=veto)",)
            )

        def step(area: str) -> Iterator[str]:
            for c in self._links[area]:
                if c.carries_sight(closed_doors=opts["closed_doors"]):
                    yield c.other(area)

        found = self._shortest_paths(f"sight:{opts['closed_doors']}", step, s, t)
        if not found:
            return _PairSight(
                False, False, (), (f"no connection carrying sight leads from {s} to {t}",)
            )
        paths = tuple(self._path_evidence(p) for p in found)
        blocked = [p["blocks_sight"] for p in paths]
        visible = not any(blocked) if opts["blocked_if"] == "any" else not all(blocked)
        cover = visible and any(p["target_cover"] for p in paths)
        reasons = [_path_reason(p) for p in paths]
        if visible and cover:
            reasons.append(f"{t} has cover: a shortest path ends with a cover mark at {t}")
        elif visible:
            reasons.append(f"{t} has no cover: no shortest path ends with a cover mark at {t}")
        else:
            rule = "a shortest path" if opts["blocked_if"] == "any" else "every shortest path"
            reasons.append(f"{rule} crosses 2 or more cover marks: no line of sight")
        return _PairSight(visible, cover, paths, tuple(reasons))

    def _path_evidence(self, path: tuple[str, ...]) -> dict[str, Any]:
        marks: list[dict[str, Any]] = []
        for u, v in pairwise(path):
            conn = self.connection(u, v)
            assert conn is not None
            for end in (u, v):
                if conn.has_cover_at(end):
                    marks.append({"between": [u, v], "at": end, "counted": end != path[0]})
        counted = sum(1 for m in marks if m["counted"])
        last = self.connection(path[-2], path[-1])
        return {
            "areas": list(path),
            "marks": marks,
            "cover_marks_counted": counted,
            "blocks_sight": counted >= 2,
            "target_cover": last is not None and last.has_cover_at(path[-1]),
        }

    # -- pictures -----------------------------------------------------------------------------

    def positions(self) -> dict[str, tuple[float, float]]:
        """Drawing positions: the file's ``layout`` if given, else a deterministic layered one."""
        if self.layout:
            return dict(self.layout)
        from tactica.battlefield.zones.mapfile import auto_layout

        return auto_layout(self)

    def preview(self) -> str:
        """Areas and their connections as text (``|`` marks a cover mark at that end)."""
        from tactica.battlefield.zones.mapfile import preview_text

        return preview_text(self)



# -- helpers ----------------------------------------------------------------------------------


def _ends(place: Place) -> tuple[str, ...]:
    return (place,) if isinstance(place, str) else place


def _pairs_text(pairs: list[tuple[str, str]]) -> str:
    return ", ".join(f"{s} to {t}" for s, t in pairs) or "none"


def _path_reason(p: Mapping[str, Any]) -> str:
    route = " > ".join(p["areas"])
    counted = [m for m in p["marks"] if m["counted"]]
    skipped = len(p["marks"]) - len(counted)
    where = ", ".join(f"at {m['at']} on {'-'.join(m['between'])}" for m in counted)
    text = f"path {route}: {len(counted)} cover mark(s) counted" + (f" ({where})" if where else "")
    if skipped:
        text += f", {skipped} at the attacker's own area not counted"
    return text + (": blocks sight" if p["blocks_sight"] else ": clear")


def _check_value(name: str, value: object) -> None:
    allowed = SIGHT_OPTIONS[name]
    if value not in allowed:
        raise MapError(f"{name}: expected one of {', '.join(allowed)}, got {value!r}")


def _parse_options(options: Mapping[str, SightOption]) -> dict[str, str]:
    out = {name: allowed[0] for name, allowed in SIGHT_OPTIONS.items()}
    for key, value in options.items():
        if key not in SIGHT_OPTIONS:
            known = ", ".join(f"{n} ({'|'.join(a)})" for n, a in SIGHT_OPTIONS.items())
            raise MapError(f"unknown sight option {key!r} for a zone map; known: {known}")
        _check_value(key, value)
        out[key] = str(value)
    return out


def _graph_problems(
    areas: tuple[str, ...],
    connections: tuple[Connection, ...],
    layout: tuple[tuple[str, tuple[float, float]], ...],
) -> Iterator[str]:
    known = set(areas)
    if not areas:
        yield "needs at least one area"
    if len(known) != len(areas):
        yield "duplicate area names"
    yield from (f"area {a!r}: names cannot contain {BETWEEN!r}" for a in areas if BETWEEN in a)
    seen: set[frozenset[str]] = set()
    for c in connections:
        if c.a not in known or c.b not in known or c.a == c.b:
            yield f"connection {c.a!r}-{c.b!r} must join two different known areas"
        if frozenset(c.ends) in seen:
            yield f"more than one connection between {c.a!r} and {c.b!r}"
        seen.add(frozenset(c.ends))
        if c.type not in CONNECTION_TYPES:
            yield f"connection {c.a!r}-{c.b!r}: unknown type {c.type!r}"
        if not c.cover <= set(c.ends):
            yield f"connection {c.a!r}-{c.b!r}: cover marks must sit at its ends"
        if c.door is not None and not c.is_movement():
            yield f"connection {c.a!r}-{c.b!r}: only solid and one-way lines have doors"
    if layout and {a for a, _ in layout} - known:
        yield "layout names unknown areas"


