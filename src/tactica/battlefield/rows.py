"""The rows battlefield (Last Odyssey): each side has a front row and a back row.

There is no distance to walk and no line of sight: everyone sees everyone, nobody has cover.
What rows decide is melee. A melee attack or ability needs its user in the front row and may
target only the front row. Moving between one's own rows costs 1 AP (the battle engine's
business; here :meth:`Rows.with_moved` gives the new rows).

Advancing: if a side has nobody in its front row during the Effect phase, an opposing side may
advance, and then every character of the former side counts as being in the front row instead
of the back row (the SRD's words). :meth:`Rows.advance` does exactly that: it puts the whole
advanced-on side in its front row. From then on they are ordinary front-row characters, who may
Move back for 1 AP like anyone (ruling LOD-9, ours: the SRD does not say how long the advance
lasts; this reading needs no extra state). Advancing changes nothing for the advancing side.
When both sides have empty front rows, the players choose first whether to advance (the
engine's business). :meth:`Rows.needs_advance` lists the sides that may be advanced on.

``distance`` in a :class:`~tactica.battlefield.base.SightReport` counts row steps along the
line *back, front | front, back*: 0 within a row, 1 between the two rows of a side or between
two front rows facing each other, 2 from a front row to an opposing back row, 3 between two
back rows. Nothing in the rules uses it; it is there for pictures and sorting.

>>> rows = Rows.from_mapping({"kind": "rows", "sides": {
...     "party": {"front": ["Ada"], "back": ["Bo"]},
...     "enemies": {"front": [], "back": ["Shaman"]}}})
>>> rows.can_make_melee("Ada"), rows.can_receive_melee("Shaman")
(True, False)
>>> rows.needs_advance()
('enemies',)
>>> rows.advance("party").can_receive_melee("Shaman")
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from tactica.battlefield.base import SightReport
from tactica.errors import MapError
from tactica.validation import validate

__all__ = ["ROWS", "Row", "Rows", "Side"]

Row = Literal["front", "back"]
ROWS: tuple[Row, ...] = ("front", "back")


@dataclass(frozen=True)
class Side:
    """One side of the battle: its name and the characters in its two rows, in order."""

    name: str
    front: tuple[str, ...] = ()
    back: tuple[str, ...] = ()

    @property
    def members(self) -> tuple[str, ...]:
        """Everyone on this side, front row first."""
        return self.front + self.back

    def row(self, row: Row) -> tuple[str, ...]:
        """The characters in ``row``."""
        return self.front if row == "front" else self.back


@dataclass(frozen=True)
class Rows:
    """An immutable rows battlefield: two or more sides, each with a front and a back row."""

    kind: ClassVar[str] = "rows"

    sides: tuple[Side, ...]
    name: str = ""

    def __post_init__(self) -> None:
        problems: list[str] = []
        if len(self.sides) < 2:
            problems.append(f"needs at least two sides, got {len(self.sides)}")
        names = [s.name for s in self.sides]
        problems += [f"duplicate side {n!r}" for n in _duplicates(names)]
        everyone = [c for s in self.sides for c in s.members]
        problems += [f"{c!r} stands in more than one place" for c in _duplicates(everyone)]
        if problems:
            raise MapError("rows: " + "; ".join(problems))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_mapping(cls, data: Any, *, source: str = "<map>") -> Rows:
        """Build from a parsed map file (``kind: rows``); every problem is reported at once."""
        spec = validate(_RowsSpec, data, source=source, error=MapError)
        problems = [f"{source}: {p}" for p in _spec_problems(spec)]
        if problems:
            raise MapError("\n".join(problems))
        sides = tuple(
            Side(name, tuple(rows.front), tuple(rows.back)) for name, rows in spec.sides.items()
        )
        return cls(sides, spec.name)

    def to_mapping(self) -> dict[str, Any]:
        """The map-file mapping of these rows (``from_mapping`` reads it back)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.name:
            out["name"] = self.name
        out["sides"] = {s.name: {"front": list(s.front), "back": list(s.back)} for s in self.sides}
        return out

    # -- lookup -------------------------------------------------------------------------------

    def side(self, name: str) -> Side:
        """The side called ``name``."""
        for s in self.sides:
            if s.name == name:
                return s
        raise MapError(f"unknown side {name!r} (sides: {', '.join(s.name for s in self.sides)})")

    @property
    def characters(self) -> tuple[str, ...]:
        """Everyone on the battlefield, side by side, front row first."""
        return tuple(c for s in self.sides for c in s.members)

    def _find(self, char: str) -> tuple[Side, Row]:
        for s in self.sides:
            if char in s.front:
                return s, "front"
            if char in s.back:
                return s, "back"
        raise MapError(f"unknown character {char!r} (on the field: {', '.join(self.characters)})")

    def side_of(self, char: str) -> str:
        """The name of ``char``'s side."""
        return self._find(char)[0].name

    def row_of(self, char: str) -> Row:
        """``"front"`` or ``"back"``."""
        return self._find(char)[1]

    def is_in_front(self, char: str) -> bool:
        """Whether ``char`` is in the front row (after an advance, the whole advanced-on side)."""
        return self.row_of(char) == "front"

    # -- melee --------------------------------------------------------------------------------

    def can_make_melee(self, char: str) -> bool:
        """Whether ``char`` may use a melee attack or ability: only from the front row."""
        return self.is_in_front(char)

    def can_receive_melee(self, target: str) -> bool:
        """Whether ``target`` may be the target of a melee attack or ability: front row only."""
        return self.is_in_front(target)

    def can_melee(self, attacker: str, target: str) -> bool:
        """Whether ``attacker`` may make a melee attack or ability on ``target``."""
        return self.can_make_melee(attacker) and self.can_receive_melee(target)

    # -- changes ------------------------------------------------------------------------------

    def _with_side(self, side: Side) -> Rows:
        return replace(self, sides=tuple(side if s.name == side.name else s for s in self.sides))

    def with_moved(self, char: str, row: Row) -> Rows:
        """These rows with ``char`` in ``row`` of its side (at the end of that row)."""
        if row not in ROWS:
            raise MapError(f"row: expected 'front' or 'back', got {row!r}")
        side, current = self._find(char)
        if current == row:
            return self
        stay = tuple(c for c in side.row(current) if c != char)
        moved = (*side.row(row), char)
        front, back = (moved, stay) if row == "front" else (stay, moved)
        return self._with_side(Side(side.name, front, back))

    def with_character(self, char: str, side: str, row: Row = "front") -> Rows:
        """These rows with a new character (a summon, a late arrival) added to ``side``."""
        if char in self.characters:
            raise MapError(f"{char!r} is already on the field ({self.side_of(char)})")
        if row not in ROWS:
            raise MapError(f"row: expected 'front' or 'back', got {row!r}")
        s = self.side(side)
        if row == "front":
            return self._with_side(Side(s.name, (*s.front, char), s.back))
        return self._with_side(Side(s.name, s.front, (*s.back, char)))

    def without(self, char: str) -> Rows:
        """These rows without ``char`` (downed, fled)."""
        side, _ = self._find(char)
        front = tuple(c for c in side.front if c != char)
        back = tuple(c for c in side.back if c != char)
        return self._with_side(Side(side.name, front, back))

    def needs_advance(self) -> tuple[str, ...]:
        """The sides that may be advanced on: nobody in front, somebody in the back row."""
        return tuple(s.name for s in self.sides if not s.front and s.back)

    def advance(self, side: str, *, on: str | None = None) -> Rows:
        """``side`` advances on ``on``: everyone of ``on`` now counts as front row.

        ``on`` may be left out when exactly one other side may be advanced on.
        """
        self.side(side)
        open_sides = [n for n in self.needs_advance() if n != side]
        if on is None:
            if len(open_sides) != 1:
                found = ", ".join(open_sides) or "none (every other side has a front row)"
                raise MapError(f"{side} advancing: say on which side; sides to advance on: {found}")
            on = open_sides[0]
        target = self.side(on)
        if on == side:
            raise MapError(f"{side!r} cannot advance on itself")
        if on not in open_sides:
            raise MapError(
                f"{side!r} cannot advance on {on!r}: its front row is not empty "
                f"({', '.join(target.front) or 'nobody at all'})"
            )
        return self._with_side(Side(target.name, target.back, ()))

    # -- reports and pictures -----------------------------------------------------------------

    def distance(self, a: str, b: str) -> int:
        """Row steps from ``a`` to ``b`` along *back, front | front, back* (see the module)."""
        side_a, row_a = self._find(a)
        side_b, row_b = self._find(b)
        if side_a.name == side_b.name:
            return int(row_a != row_b)
        return (row_a == "back") + 1 + (row_b == "back")

    def sight_report(self, source: str, target: str, **options: str) -> SightReport:
        """Everyone sees everyone and nobody has cover; the details say which melee is possible.

        ``details``: ``rows`` (side, row of each), ``melee`` (``source_can_make``,
        ``target_can_receive``, ``possible``) and ``ranged`` (always true). Rows take no
        options; any given raises :class:`MapError`.
        """
        if options:
            raise MapError(
                f"unknown sight option(s) {', '.join(map(repr, options))}: rows take no options "
                "(there is no line of sight or cover to rule on)"
            )
        makes, receives = self.can_make_melee(source), self.can_receive_melee(target)
        reasons = [
            "rows have no line of sight and no cover: everyone sees everyone",
            f"{source} is in the {self.row_of(source)} row of {self.side_of(source)}: "
            + ("may use melee" if makes else "no melee from the back row"),
            f"{target} is in the {self.row_of(target)} row of {self.side_of(target)}: "
            + ("may be targeted in melee" if receives else "melee cannot reach the back row"),
        ]
        details = {
            "rows": {c: {"side": self.side_of(c), "row": self.row_of(c)} for c in (source, target)},
            "melee": {
                "source_can_make": makes,
                "target_can_receive": receives,
                "possible": makes and receives,
            },
            "ranged": True,
        }
        return SightReport(
            source=source,
            target=target,
            visible=True,
            cover=False,
            distance=self.distance(source, target),
            details=details,
            reasons=tuple(reasons),
        )

    def preview(self) -> str:
        """A small table: one line per side, back row | front row."""
        back_w = max([len("back"), *(len(", ".join(s.back)) for s in self.sides)])
        name_w = max([len("side"), *(len(s.name) for s in self.sides)])
        lines = [self.name or "Rows", f"{'side'.ljust(name_w)}  {'back'.ljust(back_w)} | front"]
        for s in self.sides:
            back = ", ".join(s.back) or "-"
            front = ", ".join(s.front) or "- (empty: may be advanced on)"
            lines.append(f"{s.name.ljust(name_w)}  {back.ljust(back_w)} | {front}")
        return "\n".join(lines)



def _duplicates(names: list[str]) -> list[str]:
    seen: set[str] = set()
    twice: list[str] = []
    for n in names:
        if n in seen and n not in twice:
            twice.append(n)
        seen.add(n)
    return twice


class _SideSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    front: list[str] = Field(default_factory=list)
    back: list[str] = Field(default_factory=list)


class _RowsSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["rows"]
    name: str = ""
    description: str = ""
    sides: dict[str, _SideSpec] = Field(min_length=2)


def _spec_problems(spec: _RowsSpec) -> Iterator[str]:
    first: dict[str, str] = {}
    for side, rows in spec.sides.items():
        for row in ROWS:
            for i, char in enumerate(getattr(rows, row)):
                where = f"sides.{side}.{row}[{i}]"
                if not char.strip() or char != char.strip():
                    yield f"{where}: expected a name without surrounding spaces, got {char!r}"
                elif char in first:
                    yield f"{where}: {char!r} already stands in {first[char]}; names must be unique"
                first.setdefault(char, f"sides.{side}.{row}")


