"""What the rows mean in Last Odyssey: melee reach and advancing.

A melee attack or ability needs its user in the front row and may target only the front row.
If a side has nobody in its front row during the Effect phase, an opposing side may advance, and
then every character of the former side counts as being in the front row instead of the back
row (the SRD's words). :func:`advance` does exactly that: it puts the whole advanced-on side in
its front row. From then on they are ordinary front-row characters, who may Move back for 1 AP
like anyone (ruling LOD-9, ours: the SRD does not say how long the advance lasts; this reading
needs no extra state). Advancing changes nothing for the advancing side. When both sides have
empty front rows, the players choose first whether to advance (:mod:`.flow`).

>>> from tactica.battlefield.rows import Rows
>>> rows = Rows.from_mapping({"kind": "rows", "sides": {
...     "party": {"front": ["Ada"], "back": ["Bo"]},
...     "enemies": {"front": [], "back": ["Shaman"]}}})
>>> can_make_melee(rows, "Ada"), can_receive_melee(rows, "Shaman")
(True, False)
>>> needs_advance(rows)
('enemies',)
>>> can_receive_melee(advance(rows, "party"), "Shaman")
True
"""

from __future__ import annotations

from tactica.battlefield.rows import Rows
from tactica.engine.errors import MapError

__all__ = ["advance", "can_make_melee", "can_melee", "can_receive_melee", "needs_advance"]


def can_make_melee(rows: Rows, char: str) -> bool:
    """Whether ``char`` may use a melee attack or ability: only from the front row."""
    return rows.row_of(char) == "front"


def can_receive_melee(rows: Rows, target: str) -> bool:
    """Whether ``target`` may be the target of a melee attack or ability: front row only."""
    return rows.row_of(target) == "front"


def can_melee(rows: Rows, attacker: str, target: str) -> bool:
    """Whether ``attacker`` may make a melee attack or ability on ``target``."""
    return can_make_melee(rows, attacker) and can_receive_melee(rows, target)


def needs_advance(rows: Rows) -> tuple[str, ...]:
    """The sides that may be advanced on: nobody in front, somebody in the back row."""
    return tuple(s.name for s in rows.sides if not s.front and s.back)


def advance(rows: Rows, side: str, *, on: str | None = None) -> Rows:
    """``side`` advances on ``on``: everyone of ``on`` now counts as front row.

    ``on`` may be left out when exactly one other side may be advanced on.
    """
    rows.side(side)
    open_sides = [n for n in needs_advance(rows) if n != side]
    if on is None:
        if len(open_sides) != 1:
            found = ", ".join(open_sides) or "none (every other side has a front row)"
            raise MapError(f"{side} advancing: say on which side; sides to advance on: {found}")
        on = open_sides[0]
    target = rows.side(on)
    if on == side:
        raise MapError(f"{side!r} cannot advance on itself")
    if on not in open_sides:
        raise MapError(
            f"{side!r} cannot advance on {on!r}: its front row is not empty "
            f"({', '.join(target.front) or 'nobody at all'})"
        )
    return rows.with_all_in_front(on)
