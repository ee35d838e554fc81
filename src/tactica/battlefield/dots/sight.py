"""Sight, cover and range on a dot lattice, one query at a time, with every reason.

The sight line is the segment from the firer's dot centre to the target's
(:mod:`~tactica.battlefield.dots.geometry` says exactly which dots and cell sides it meets). The
options, each named by what it means (the game maps its rulings onto them):

``tangent``: ``clear`` (default) | ``counts``
    ``clear``: a dot is on the line when the segment passes *strictly* closer than half a
    spacing to its centre, and a feature counts when the line passes through its side from
    one cell into the other. Where the line runs exactly through a cell corner or along a side
    it is decided both ways, moved a hair to the firer's right and to the left, and the firer
    gets the better of the two. ``counts``: a dot at exactly half a spacing is on the line too,
    and every side the segment touches counts (one way round, everything touched).
``intervening``: ``cover`` (default) | ``block``
    a trooper on the line gives +1 cover, or blocks sight. Either way a prone trooper on the line
    does not matter to a standing firer.
``prone_low``: ``prone`` (default) | ``firer``
    when exactly one of the two is prone, the low solid obstructions (low walls, furniture,
    fences, windows) crossed on the sides of the prone trooper's cell block sight, or those on
    the firer's cell. When both are prone every low solid obstruction crossed blocks.
``floors``: ``block`` (default) | ``ignore``
    between two levels only the features (and troopers) of the higher level count, plus those
    within one dot of the target on the target's level. With ``block`` the line must also leave
    the higher trooper's floor: if the lower trooper stands under that same floor it is not
    visible (two levels of one dot see each other only up stairs or a ladder).
``range_steps``: ``lattice`` (default) | ``minus-one`` | ``walk``
    range in lattice steps (walls ignored), one less, or the steps of a shortest walkable path.
``range_levels``: ``add`` (default) | ``ignore``
    add the difference in levels to the range, or not.
``short``, ``long``: integers
    a weapon's short and long range: the report gives the band (short, long, beyond).
``prone``: comma-separated trooper ids
    troopers to treat as prone in this query, besides those the lattice holds as prone.

An end named by a trooper's id has that trooper's pose; an end named as a dot (``col,row``) is
a dot, with no pose, whoever stands on it (explosives target a dot).

The sides of the firer's own cell never give cover (obstacles there still block). Doors give no
cover; a window gives +1 and is a low solid obstruction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from tactica.battlefield.base import SightReport
from tactica.battlefield.dots.features import FEATURE_KINDS, FeatureKind
from tactica.battlefield.dots.geometry import (
    DOT_NEAR,
    DOT_ON,
    DOT_TANGENT,
    SIDE_LEFT,
    SIDE_NEAR,
    SIDE_OWN,
    SIDE_RIGHT,
    SIDE_TARGET,
    SIDE_TOUCH,
    Axial,
    Side,
    axial_to_offset,
    line_geometry,
    offset_to_axial,
    side_dots,
    steps,
)
from tactica.engine.errors import MapError
from tactica.engine.validation import whole_number

if TYPE_CHECKING:
    from tactica.battlefield.dots.lattice import DotLattice

__all__ = [
    "CHOICES",
    "OPTION_NAMES",
    "DotSight",
    "End",
    "Met",
    "SightOptions",
    "evaluate",
    "resolve_end",
    "sight",
    "sight_range",
]

#: The choices of every named option, default first.
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "tangent": ("clear", "counts"),
    "intervening": ("cover", "block"),
    "prone_low": ("prone", "firer"),
    "floors": ("block", "ignore"),
    "range_steps": ("lattice", "minus-one", "walk"),
    "range_levels": ("add", "ignore"),
}
#: Every sight option a dot lattice knows.
OPTION_NAMES: Final = (*CHOICES, "short", "long", "prone")

_PASS_BITS: Final = {"right": SIDE_RIGHT, "left": SIDE_LEFT, "touch": SIDE_TOUCH}


@dataclass(frozen=True)
class SightOptions:
    """The options of one sight query (see the module notes), checked."""

    tangent: str = "clear"
    intervening: str = "cover"
    prone_low: str = "prone"
    floors: str = "block"
    range_steps: str = "lattice"
    range_levels: str = "add"
    short: int | None = None
    long: int | None = None
    prone: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, options: Mapping[str, Any], lattice: DotLattice | None = None) -> SightOptions:
        """Options as the game or the command line give them (strings or ints; ``-`` and
        ``_`` alike in names); MapError naming the known options or choices."""
        values: dict[str, Any] = {}
        for raw, value in options.items():
            key = str(raw).replace("-", "_")
            if key not in OPTION_NAMES:
                raise MapError(f"unknown sight option {raw!r} for a dots map "
                               f"(known: {', '.join(OPTION_NAMES)})")
            if key in CHOICES:
                allowed = CHOICES[key]
                if not isinstance(value, str) or value not in allowed:
                    raise MapError(f"sight option {key}: expected one of {', '.join(allowed)}, "
                                   f"got {value!r}")
                values[key] = value
            elif key in ("short", "long"):
                values[key] = _count(key, value)
            else:
                values[key] = _ids(value, lattice)
        return cls(**values)

    def choices(self) -> dict[str, Any]:
        """The options as a JSON-ready mapping."""
        out: dict[str, Any] = {k: getattr(self, k) for k in CHOICES}
        for k in ("short", "long"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        if self.prone:
            out["prone"] = sorted(self.prone)
        return out


def _count(key: str, value: object) -> int:
    if isinstance(value, bool):
        raise MapError(f"sight option {key}: expected a whole number of dots, got {value!r}")
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, str) and whole_number(value.strip()) is not None:
        return int(value)
    raise MapError(f"sight option {key}: expected a whole number of dots, got {value!r}")


def _ids(value: object, lattice: DotLattice | None) -> frozenset[str]:
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",") if v.strip()]
    elif isinstance(value, Iterable):
        items = [str(v).strip() for v in value]
    else:
        raise MapError(f"sight option prone: expected trooper ids such as 'X,Y', got {value!r}")
    if lattice is not None:
        for tid in items:
            if tid not in lattice.troopers:
                known = ", ".join(lattice.troopers) or "none"
                raise MapError(f"sight option prone: no trooper {tid!r} on the map "
                               f"(troopers: {known})")
    return frozenset(items)


@dataclass(frozen=True)
class End:
    """One end of a sight line: the reference as given, the trooper there (if any), its dot
    (axial), level and pose."""

    ref: str
    oid: str | None
    dot: Axial
    level: int
    prone: bool


@dataclass(frozen=True)
class Met:
    """Something the line meets: a ``feature`` (``name`` its kind, ``dots`` the side's two
    dots) or a ``trooper`` (``name`` its id); ``effect`` is ``cover``, ``block``, ``ignored``,
    ``none`` (a doorway) or ``touch`` (touched only, does not count); ``passes`` the ways round
    in which it counts."""

    what: str
    name: str
    dots: tuple[Axial, ...]
    level: int
    effect: str
    passes: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class DotSight:
    """The answer to one sight query, with the evidence (see :meth:`report`)."""

    lattice: DotLattice = field(repr=False, compare=False)
    source: End
    target: End
    visible: bool
    cover: int
    range: int | None
    steps: int
    band: str | None
    options: SightOptions
    met: tuple[Met, ...]
    on_line: tuple[Axial, ...]
    chosen: str
    reasons: tuple[str, ...]

    def report(self) -> SightReport:
        """The :class:`SightReport`: ``details`` hold ``range``, ``steps``, ``levels``, the line,
        the dots on it and everything met."""
        lat = self.lattice

        def spot(dot: Axial, level: int) -> list[int]:
            return [*axial_to_offset(*dot), level]

        details: dict[str, Any] = {
            "kind": "dots",
            "range": self.range,
            "steps": self.steps,
            "levels": [lat.level_name(self.source.level), lat.level_name(self.target.level)],
            "line": {"from": spot(self.source.dot, self.source.level),
                     "to": spot(self.target.dot, self.target.level)},
            "prone": [e.oid or e.ref for e in (self.source, self.target) if e.prone],
            "on_line": [list(axial_to_offset(*d)) for d in self.on_line],
            "met": [
                {"what": m.what, "name": m.name,
                 "dots": [list(axial_to_offset(*d)) for d in m.dots],
                 "level": lat.level_name(m.level), "effect": m.effect,
                 "passes": list(m.passes)}
                for m in self.met
            ],
            "options": self.options.choices(),
        }
        if self.band is not None:
            details["band"] = self.band
        if self.chosen:
            details["pass"] = self.chosen
        return SightReport(
            source=self.source.ref,
            target=self.target.ref,
            visible=self.visible,
            cover=self.cover,
            distance=self.range if self.range is not None else float("inf"),
            details=details,
            reasons=self.reasons,
        )


def resolve_end(lat: DotLattice, ref: str, opts: SightOptions) -> End:
    """A reference (trooper id or dot) as one end of a sight line. Only a trooper named by
    its id lies prone: a dot named as a dot has no pose, even with a prone trooper on it (an
    explosive targets the dot, and the prone rules of a trooper do not apply to it)."""
    place = lat.locate(ref)
    dot = offset_to_axial(place.col, place.row)
    oid = lat.occupant_at(dot, place.level)
    prone = oid is not None and ref == oid and (lat.troopers[oid].prone or oid in opts.prone)
    return End(str(ref), oid, dot, place.level, prone)


def sight(lat: DotLattice, source: str, target: str, opts: SightOptions) -> DotSight:
    """Sight from ``source`` to ``target`` using the cached exact line geometry."""
    src, dst = resolve_end(lat, source, opts), resolve_end(lat, target, opts)
    if src.dot == dst.dot and src.level == dst.level:
        raise MapError(f"sight from a dot to itself ({lat.describe(src.dot, src.level)}) is "
                       "not defined")
    if src.dot == dst.dot:
        return evaluate(lat, src, dst, opts, (), ())
    q0, r0 = src.dot
    geo = line_geometry(dst.dot[0] - q0, dst.dot[1] - r0)
    dots = [((q0 + q, r0 + r), f) for q, r, f in geo.dots]
    sides = [((q0 + q, r0 + r, k), f) for q, r, k, f in geo.sides]
    return evaluate(lat, src, dst, opts, dots, sides)


def sight_range(lat: DotLattice, src: End, dst: End, opts: SightOptions) -> tuple[int | None, int]:
    """``(range, steps)`` under the range options (range None: no walkable path)."""
    st = steps(src.dot, dst.dot)
    base: int | None
    if opts.range_steps == "lattice":
        base = st
    elif opts.range_steps == "minus-one":
        base = max(st - 1, 0)
    else:
        from tactica.battlefield.dots.move import walk_steps

        base = walk_steps(lat, (src.dot, src.level), (dst.dot, dst.level))
    if base is None:
        return None, st
    return base + (abs(src.level - dst.level) if opts.range_levels == "add" else 0), st


def _band(rng: int | None, opts: SightOptions) -> str | None:
    if opts.short is None and opts.long is None:
        return None
    if rng is not None and opts.short is not None and rng <= opts.short:
        return "short"
    if rng is not None and opts.long is not None and rng <= opts.long:
        return "long"
    return "beyond"


def _prone_blocks(opts: SightOptions, src: End, dst: End, own: bool, tcell: bool) -> str:
    """Why a low solid obstruction blocks for prone troopers ('' if it does not)."""
    if src.prone and dst.prone:
        return "both troopers are prone: every low solid obstruction blocks"
    if opts.prone_low == "firer":
        if (src.prone or dst.prone) and own:
            return "a trooper is prone and it is next to the firer: it blocks"
        return ""
    if src.prone and own:
        return "next to the prone firer: it blocks"
    if dst.prone and tcell:
        return "next to the prone target: it blocks"
    return ""


class _Tally:
    def __init__(self, passes: tuple[str, ...]) -> None:
        self.passes = passes
        self.blocked = dict.fromkeys(passes, False)
        self.cover = dict.fromkeys(passes, 0)
        self.met: list[Met] = []

    def add(self, met: Met) -> None:
        self.met.append(met)
        for p in met.passes:
            if met.effect == "block":
                self.blocked[p] = True
            elif met.effect == "cover":
                self.cover[p] += 1


def _feature_met(lat: DotLattice, side: Side, lvl: int, fk: FeatureKind, flags: int,
                 passes: tuple[str, ...], src: End, dst: End, opts: SightOptions) -> Met:
    a, b = side_dots(side)
    desc = f"{fk.label} between {lat.describe(a)} and {lat.describe(b)}"
    if len(lat.level_names) > 1:
        desc += f" ({lat.level_name(lvl)})"
    counted = tuple(p for p in passes if flags & _PASS_BITS[p])
    if not counted:
        return Met("feature", fk.name, (a, b), lvl, "touch", (),
                   f"{desc}: the line only touches it (through a corner or along it): it does "
                   "not count")
    own = bool(flags & SIDE_OWN) and lvl == src.level
    tcell = bool(flags & SIDE_TARGET) and lvl == dst.level
    prone_why = _prone_blocks(opts, src, dst, own, tcell) if fk.solid else ""
    if fk.blocks_sight:
        effect, why = "block", "an impassable obstacle: it blocks sight"
    elif prone_why:
        effect, why = "block", f"a low solid obstruction {prone_why}"
    elif fk.cover and own:
        effect, why = "ignored", "on a side of the firer's own cell: no cover"
    elif fk.cover:
        effect, why = "cover", f"+{fk.cover} cover"
    else:
        effect, why = "none", "an open doorway: no cover"
    if len(counted) < len(passes):
        why += f" (only if the line passes a hair to the firer's {counted[0]})"
    return Met("feature", fk.name, (a, b), lvl, effect, counted, f"{desc}: {why}")


def evaluate(
    lat: DotLattice,
    src: End,
    dst: End,
    opts: SightOptions,
    dots: Iterable[tuple[Axial, int]],
    sides: Iterable[tuple[Side, int]],
) -> DotSight:
    """Apply the sight rules to what the line meets: ``dots`` and ``sides`` with their
    :mod:`~tactica.battlefield.dots.geometry` flags, absolute (axial). Any superset of the dots
    holding troopers and the sides holding features gives the same answer."""
    la, lb = src.level, dst.level
    high = max(la, lb)
    rng, st = sight_range(lat, src, dst, opts)
    band = _band(rng, opts)
    passes = ("right", "left") if opts.tangent == "clear" else ("touch",)
    reasons = [_range_reason(lat, src, dst, rng, st, band, opts)]
    poses = [f"{'firer' if e is src else 'target'} {'prone' if e.prone else 'standing'}"
             for e in (src, dst)]
    reasons.append(f"line from {lat.describe(src.dot, la)} to {lat.describe(dst.dot, lb)}; "
                   + ", ".join(poses))

    def done(visible: bool, cover: int, tally: _Tally | None, chosen: str,
             more: list[str]) -> DotSight:
        met = tuple(tally.met) if tally else ()
        on = tuple(d for d, f in dots if f & DOT_ON
                   or (opts.tangent == "counts" and f & DOT_TANGENT))
        return DotSight(lat, src, dst, visible, cover, rng, st, band, opts, met, on, chosen,
                        tuple(reasons + [m.why for m in met] + more))

    if src.dot == dst.dot:
        stairs = lat.stairs.get(src.dot)
        if stairs is not None and stairs.low <= min(la, lb) and stairs.high >= high:
            return done(True, 0, None, "", [f"same dot, different levels: they see each other "
                                            f"along the {stairs.kind}; no cover"])
        if opts.floors == "ignore":
            return done(True, 0, None, "", ["same dot, different levels; floors ignored"])
        return done(False, 0, None, "", ["same dot, different levels, no stairs or ladder: "
                                         "the floor lies between them"])
    if la != lb and opts.floors == "block":
        up, down = (src, dst) if la > lb else (dst, src)
        region = lat.floor_region(up.dot, high)
        if region >= 0 and lat.floor_region(down.dot, high) == region:
            return done(False, 0, None, "", [
                f"not visible: {lat.describe(down.dot, down.level)} lies under the same "
                f"{lat.level_name(high)} floor as {lat.describe(up.dot, high)}; a line between "
                "levels must leave the higher floor through an opening"])
    scopes: list[tuple[int, bool]] = [(high, False)]
    if la != lb and lb != high:
        scopes.append((lb, True))
        reasons.append(f"different levels: what stands on level {lat.level_name(high)} counts, "
                       f"and on level {lat.level_name(lb)} only within one dot of the target")
    tally = _Tally(passes)
    for side, flags in sides:
        for lvl, near_only in scopes:
            if near_only and not flags & SIDE_NEAR:
                continue
            kind = lat.features.get((lvl, side))
            if kind is not None:
                tally.add(_feature_met(lat, side, lvl, FEATURE_KINDS[kind], flags, passes,
                                       src, dst, opts))
    for dot, flags in dots:
        on = bool(flags & DOT_ON) or (opts.tangent == "counts" and bool(flags & DOT_TANGENT))
        for lvl, near_only in scopes:
            if near_only and not flags & DOT_NEAR:
                continue
            tid = lat.occupant_at(dot, lvl)
            if tid is None:
                continue
            where = f"trooper {tid} at {lat.describe(dot, lvl)}"
            if not on:
                tally.add(Met("trooper", tid, (dot,), lvl, "touch", (),
                              f"{where}: exactly half a spacing from the line: not on it"))
            elif src.prone or not (lat.troopers[tid].prone or tid in opts.prone):
                pose = "" if not (lat.troopers[tid].prone or tid in opts.prone) else "prone, "
                if opts.intervening == "block":
                    tally.add(Met("trooper", tid, (dot,), lvl, "block", passes,
                                  f"{where}: {pose}on the line: blocks sight"))
                else:
                    tally.add(Met("trooper", tid, (dot,), lvl, "cover", passes,
                                  f"{where}: {pose}on the line: +1 cover"))
            else:
                tally.add(Met("trooper", tid, (dot,), lvl, "ignored", passes,
                              f"{where}: prone, and the firer stands: no cover"))
    open_passes = [p for p in passes if not tally.blocked[p]]
    more: list[str] = []
    differs = len(passes) == 2 and (tally.blocked["right"] != tally.blocked["left"]
                                    or tally.cover["right"] != tally.cover["left"])
    if not open_passes:
        more.append("not visible")
        return done(False, 0, tally, "", more)
    best = min(open_passes, key=lambda p: (tally.cover[p], passes.index(p)))
    if differs:
        more.append(f"the line runs exactly through a cell corner or along a side: it counts "
                    f"the way round that is better for the firer, a hair to the {best}")
    cover = tally.cover[best]
    more.append("visible, no cover" if cover == 0 else f"visible, cover +{cover}")
    return done(True, cover, tally, best if differs else "", more)


def _range_reason(lat: DotLattice, src: End, dst: End, rng: int | None, st: int,
                  band: str | None, opts: SightOptions) -> str:
    levels = abs(src.level - dst.level)
    if rng is None:
        text = "range: no walkable path"
    elif opts.range_steps == "lattice":
        text = f"range {rng}: {st} step{'s' if st != 1 else ''} (walls ignored)"
    elif opts.range_steps == "minus-one":
        text = f"range {rng}: {st} steps less one"
    else:
        text = f"range {rng}: the steps of a shortest walkable path"
    if rng is not None and opts.range_levels == "add" and levels:
        text += f" + {levels} level{'s' if levels != 1 else ''}"
    if band is not None:
        text += f"; {band} range (short {opts.short}, long {opts.long})"
    return text
