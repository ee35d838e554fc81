"""The unit card: HP cells, body armor cells, and how damage marks them.

The card's HP cells are labelled 10 to 1 from left to right, then 0, then DEAD. A cell is
unmarked (``.``), partly crossed out (``/``, the rulebook's \\) or fully crossed out (``X``);
:class:`Marks` writes the eleven cells 10 .. 0 as a string of those characters. The current HP
is the cell just right of the lowest fully crossed-out cell (10 when none is); a crossed cell
1 or 0 leaves 0 HP, out of action, and a lethal point running past cell 0 is DEAD (SKI-2).
Partial marks do not lower HP, so a bludgeoning point running past cell 0 is lost: it crosses
no cell (SKI-40 ``lost``; ``dead`` reads it as DEAD like a lethal point).

A hit starts at the cell of its 2D6 start roll (:func:`start_cell`, SKI-1). Lethal points go
to the body armor cells first; what is left fully crosses cells from the start cell rightwards,
skipping cells already fully crossed. Bludgeoning follows the last lethal cell (or starts at
the start cell) and partly crosses cells, fully crossing a cell already partly crossed; it is
ignored while armor remains (SKI-20), skips crossed cells (SKI-24) and is lost past cell 0
(SKI-40). With the optional
advanced body armor the armor is a run of protected HP cells instead (SKI-30): a lethal point
on a protected cell only partly crosses it the first time.

The worked example of the rule file: a rifle (4X) with start roll 7 on a fresh trooper crosses
cells 7, 6, 5 and 4, leaving 3 HP.

>>> hit = apply_hit(FRESH, start=7, lethal=4)
>>> hit.marks, hit.hp
('...XXXX....', 3)
>>> apply_hit(FRESH, start=7, lethal=3, armor=4).armor      # standard armor takes it all
1
>>> baton = apply_hit(FRESH, start=6, bludgeoning=8)       # a stun baton from cell 6
>>> baton.marks, baton.hp, baton.dead                      # the 8th point runs past cell 0
('....///////', 10, False)
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

from tactica.dice import Dist, die
from tactica.engine.consulted import consult

__all__ = [
    "CELLS",
    "FRESH",
    "START_CELL",
    "Hit",
    "apply_hit",
    "current_hp",
    "protected_cells",
    "start_cell",
]

#: The labels of the eleven cells, left to right (DEAD follows cell 0).
CELLS: Final = (10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#: A card with no mark.
FRESH: Final = "." * len(CELLS)
OPEN, PARTIAL, CROSSED = ".", "/", "X"

D6: Final = die(6)
#: The start cell of a hit: 2D6, 11 and 12 read as 10 (SKI-1).
START_CELL: Final[Dist[int]] = D6.repeat_sum(2).map(lambda r: min(r, 10))


def start_cell(faces: tuple[int, ...]) -> int:
    """The start cell read from two dice: their sum, 11 and 12 read as 10."""
    return min(sum(faces), 10)


def current_hp(marks: str) -> int:
    """The current HP: the cell right of the lowest fully crossed-out cell (0 if cell 1 or
    cell 0 is crossed)."""
    i = marks.rfind(CROSSED)
    if i < 0:
        return 10
    return max(CELLS[i] - 1, 0)


def protected_cells(cells: int, placement: str) -> frozenset[int]:
    """The HP cells advanced body armor protects (SKI-30): around 7 (the likeliest start
    cell: 2 cells 7-6, 4 cells 8-5, 6 cells 9-4) or from 10 down."""
    if cells <= 0:
        return frozenset()
    if placement == "top":
        return frozenset(range(10, 10 - cells, -1))
    top = min(10, 6 + cells // 2)
    return frozenset(range(top, top - cells, -1))


@dataclass(frozen=True)
class Hit:
    """What one hit did to a card: the new marks and armor, the cells it crossed fully
    (``crossed``) and partly (``partial``), the armor cells it took, whether the trooper died,
    and the resulting HP."""

    marks: str
    armor: int
    crossed: tuple[int, ...]
    partial: tuple[int, ...]
    armor_lost: int
    dead: bool
    bludgeoning_ignored: bool

    @property
    def hp(self) -> int:
        """The current HP after the hit."""
        return 0 if self.dead else current_hp(self.marks)


def _first_open(cells: list[str], i: int) -> int:
    while i < len(cells) and cells[i] == CROSSED:
        i += 1
    return i


def apply_hit(
    marks: str,
    *,
    start: int,
    lethal: int = 0,
    bludgeoning: int = 0,
    armor: int = 0,
    protected: Collection[int] = (),
    crossed_bludgeoning: str = "skip",
    past_end_bludgeoning: str = "lost",
) -> Hit:
    """Mark one hit on a card. ``start`` is the start cell read from the roll (2..10);
    ``armor`` the body armor cells left (standard armor); ``protected`` the HP cells advanced
    body armor protects (then ``armor`` is 0); ``crossed_bludgeoning`` is SKI-24 (``skip`` or
    ``lost``), ``past_end_bludgeoning`` SKI-40 (``lost`` or ``dead``): each is consulted
    (:func:`~tactica.engine.consulted.consult`) only where it decides, SKI-24 when bludgeoning
    is marked, SKI-40 when it runs past cell 0."""
    cells = list(marks)
    crossed: list[int] = []
    partial: list[int] = []
    dead = False
    taken = min(lethal, armor)
    armor_left = armor - taken
    lethal -= taken
    i = _first_open(cells, CELLS.index(min(max(start, 1), 10)))
    last: int | None = None
    for _ in range(lethal):
        i = _first_open(cells, i)
        if i >= len(cells):
            dead = True
            break
        label = CELLS[i]
        if label in protected and cells[i] == OPEN:
            cells[i] = PARTIAL
            partial.append(label)
        else:
            cells[i] = CROSSED
            crossed.append(label)
        last = i
        i += 1
    ignored = armor_left > 0 and bludgeoning > 0
    if not dead and not ignored and bludgeoning > 0:
        consult("SKI-24")  # the rulings decide only here (tactica.engine.consulted)
        j = last + 1 if last is not None else CELLS.index(min(max(start, 1), 10))
        for _ in range(bludgeoning):
            if crossed_bludgeoning == "skip":
                j = _first_open(cells, j)
            if j >= len(cells):
                # SKI-40: past cell 0 there is no HP cell to mark partly.
                consult("SKI-40")
                dead = past_end_bludgeoning == "dead"
                break
            label = CELLS[j]
            if cells[j] == OPEN:
                cells[j] = PARTIAL
                partial.append(label)
            elif cells[j] == PARTIAL:
                cells[j] = CROSSED
                crossed.append(label)
            j += 1
    return Hit("".join(cells), armor_left, tuple(crossed), tuple(partial), taken, dead,
               ignored)
