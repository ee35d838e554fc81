"""The geometry rulings of Skirmishers, and how they map onto the dot lattice's options.

Each ruling of ``rules/skirmishers.md`` that is about geometry is a :class:`Ruling` here, its
default first. :func:`sight_options` turns the rulings in force into the keyword options of
:meth:`DotLattice.sight_report <tactica.battlefield.dots.lattice.DotLattice.sight_report>`, and
:func:`blast_options` into those of :func:`tactica.battlefield.dots.blast.blast`.

======  ===================  ====================================================
ruling  lattice option       ruling value -> option value (default first)
======  ===================  ====================================================
SKI-4   ``intervening``      cover -> cover, block -> block
SKI-8   (arcs)               bearing: exact bearings, edges included (always)
SKI-10  ``range_steps``      steps -> lattice, steps-minus-one -> minus-one,
                             walkable -> walk
SKI-11  ``range_levels``     add -> add, steps-only -> ignore
SKI-12  ``tangent``          strict -> clear, tangent -> counts
SKI-13  (always)             own-cell: the firer's own cell sides give no cover
SKI-14  ``prone_low``        prone -> prone, literal -> firer
SKI-15  ``floors``           higher -> block, floors-ignored -> ignore
SKI-16  (feature kinds)      window-cover: doors no cover, windows +1 and solid
SKI-21  blast ``floors``     pass -> pass, stairs-only -> block
SKI-23  (always)             one-per-dot: one trooper per dot per level
SKI-34  (always)             stairs-only: two levels of one dot see each other
                             only along stairs or a ladder there
SKI-35  (always)             cell-and-neighbours: "within one dot of the target"
SKI-37  (arcs)               every-level: an arc holds its directions on every
                             level
======  ===================  ====================================================

>>> sight_options({})["tangent"], sight_options({"SKI-12": "tangent"})["tangent"]
('clear', 'counts')
>>> blast_options({"SKI-21": "stairs-only"})["floors"]
'block'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tactica.engine.errors import RulingError
from tactica.engine.ruleset import Ruling

__all__ = ["GEOMETRY_RULINGS", "blast_options", "sight_options"]

#: The geometry rulings, in id order; each one's default is its first option (SKI-34, SKI-35
#: and SKI-37 were found while implementing the game: decisions of the lattice and of arcs).
GEOMETRY_RULINGS: Final[tuple[Ruling, ...]] = (
    Ruling("SKI-4", "Intervening troopers: cover or block?", "cover", {
        "cover": "each gives +1 cover, except a prone trooper when the firer is standing",
        "block": "each blocks sight (a prone one still does not matter to a standing firer)",
    }),
    Ruling("SKI-8", "Firing arc directions on the lattice", "bearing", {
        "bearing": "any real bearing; a dot is in the arc when the bearing to its centre lies "
                   "inside the arc (edges included); no length limit but long range and sight",
    }),
    Ruling("SKI-10", "Range: 'the number of dots in the shortest path'", "steps", {
        "steps": "lattice steps (adjacent = 1), walls ignored",
        "steps-minus-one": "lattice steps - 1",
        "walkable": "the steps of a shortest walkable path",
    }),
    Ruling("SKI-11", "Range between levels", "add", {
        "add": "steps + the difference in levels",
        "steps-only": "steps only (explosives always add levels)",
    }),
    Ruling("SKI-12", "Line of sight geometry", "strict", {
        "strict": "a straight segment from dot centre to dot centre; a dot is on the line when "
                  "the segment passes strictly closer than half a spacing to its centre; an "
                  "edge feature counts when the segment crosses that side of the cell (lines "
                  "through a corner or along a side: decided a hair to either side, the better "
                  "for the firer)",
        "tangent": "tangent counts: a dot at exactly half a spacing is on the line, and every "
                   "side the segment touches counts",
    }),
    Ruling("SKI-13", "Obstructions between the firer and adjacent dots", "own-cell", {
        "own-cell": "+1 per obstruction crossed; the six sides of the firer's own cell are "
                    "ignored",
    }),
    Ruling("SKI-14", "Prone: which solid low obstructions block when only one is prone", "prone", {
        "prone": "those adjacent to whichever trooper is prone",
        "literal": "those adjacent to the firer (the literal text)",
    }),
    Ruling("SKI-15", "A higher trooper: which obstructions count?", "higher", {
        "higher": "only those on the higher trooper's level, plus those within one dot of the "
                  "target; a line between levels must leave the building through an opening "
                  "at the higher level",
        "floors-ignored": "the same, but floors and ceilings ignored",
    }),
    Ruling("SKI-16", "Doors and windows as cover", "window-cover", {
        "window-cover": "an open doorway gives no cover; a window gives +1 and counts as a low "
                        "solid obstruction for prone troopers and for blast",
    }),
    Ruling("SKI-21", "Blast through floors", "pass", {
        "pass": "floors do not stop blast; each level is one dot further",
        "stairs-only": "floors block except at stairs and ladders",
    }),
    Ruling("SKI-23", "Several troopers on one dot", "one-per-dot", {
        "one-per-dot": "one trooper per dot per level",
    }),
    Ruling("SKI-34", "Two levels of one dot (a trooper right above another)", "stairs-only", {
        "stairs-only": "they see each other only along stairs or a ladder on that dot",
    }),
    Ruling("SKI-35", "'All obstructions within one dot of the targeted trooper' on a line "
                     "between levels", "cell-and-neighbours", {
        "cell-and-neighbours": "on the target's level, every feature on a side one of whose "
                               "dots is the target's or next to it",
    }),
    Ruling("SKI-37", "Firing arcs and levels", "every-level", {
        "every-level": "an arc holds the dots in its directions on every level; sight and "
                       "range decide the rest",
    }),
)

_BY_ID: Final = {r.id: r for r in GEOMETRY_RULINGS}

# ruling id -> (lattice option, {ruling value: option value})
_SIGHT: Final[dict[str, tuple[str, dict[str, str]]]] = {
    "SKI-4": ("intervening", {"cover": "cover", "block": "block"}),
    "SKI-10": ("range_steps", {"steps": "lattice", "steps-minus-one": "minus-one",
                               "walkable": "walk"}),
    "SKI-11": ("range_levels", {"add": "add", "steps-only": "ignore"}),
    "SKI-12": ("tangent", {"strict": "clear", "tangent": "counts"}),
    "SKI-14": ("prone_low", {"prone": "prone", "literal": "firer"}),
    "SKI-15": ("floors", {"higher": "block", "floors-ignored": "ignore"}),
}


def _value(rulings: Mapping[str, str], ruling_id: str) -> str:
    ruling = _BY_ID[ruling_id]
    return ruling.check(str(rulings.get(ruling_id, ruling.default)), where="rulings")


def _check_known(rulings: Mapping[str, str]) -> None:
    for key in rulings:
        if key.startswith("SKI-") and key not in _BY_ID:
            continue  # a non-geometry ruling of the game: not ours to check
        if not key.startswith("SKI-"):
            raise RulingError(f"rulings: {key!r} is not a Skirmishers ruling id (SKI-n)")


def sight_options(rulings: Mapping[str, str]) -> dict[str, str]:
    """The dot lattice's sight options for the rulings in force (missing ones: defaults)."""
    _check_known(rulings)
    out = {}
    for ruling_id, (option, values) in _SIGHT.items():
        out[option] = values[_value(rulings, ruling_id)]
    for ruling_id in ("SKI-8", "SKI-13", "SKI-16", "SKI-23", "SKI-34", "SKI-35", "SKI-37"):
        _value(rulings, ruling_id)
    return out


def blast_options(rulings: Mapping[str, str]) -> dict[str, str]:
    """The options of :func:`~tactica.battlefield.dots.blast.blast` for the rulings in force."""
    _check_known(rulings)
    floors = {"pass": "pass", "stairs-only": "block"}[_value(rulings, "SKI-21")]
    tangent = _SIGHT["SKI-12"][1][_value(rulings, "SKI-12")]
    return {"floors": floors, "tangent": tangent}
