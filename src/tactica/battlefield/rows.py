"""The rows battlefield: each side has a front row and a back row.

There is no distance to walk and no line of sight: everyone sees everyone, nobody has cover.
What rows hold is who stands in which row of which side; what a row *means* (who may strike
whom in melee, when a side may be advanced on) is the game's business. Moving between one's own
rows is :meth:`Rows.with_moved`; :meth:`Rows.with_all_in_front` puts a whole side in its front
row (what an advance does in a game with advancing).

``distance`` counts row steps along the line *back, front | front, back*: 0 within a row, 1
between the two rows of a side or between two front rows facing each other, 2 from a front row
to an opposing back row, 3 between two back rows. It is there for pictures and sorting.

>>> rows = Rows.from_mapping({"kind": "rows", "sides": {
...     "party": {"front": ["Ada"], "back": ["Bo"]},
...     "enemies": {"front": [], "back": ["Shaman"]}}})
>>> rows.row_of("Ada"), rows.distance("Bo", "Shaman")
('front', 3)
>>> rows.with_all_in_front("enemies").row_of("Shaman")
'front'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from tactica.battlefield.base import MovePath, SightOption, SightReport
from tactica.engine.errors import MapError
from tactica.engine.limits import MAX_UNITS
from tactica.engine.validation import validate

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

    def with_all_in_front(self, side: str) -> Rows:
        """These rows with everyone of ``side`` in its front row (back row first, then the
        former front row)."""
        s = self.side(side)
        return self._with_side(Side(s.name, (*s.back, *s.front), ()))

    # -- the battlefield vocabulary ----------------------------------------------------------

    @property
    def occupants(self) -> Mapping[str, str]:
        """Every character and its place, written ``side:row``."""
        return {c: f"{s.name}:{row}" for s in self.sides for row in ROWS for c in s.row(row)}

    def locate(self, ref: str) -> str:
        """The place of a character (``side:row``), or a ``side:row`` given as text."""
        if ref in self.occupants:
            return self.occupants[ref]
        side, _, row = ref.rpartition(":")
        if row in ROWS and any(s.name == side for s in self.sides):
            return ref
        raise MapError(f"unknown character or row {ref!r} (on the field: "
                       f"{', '.join(self.characters)})")

    def neighbours(self, ref: str) -> tuple[str, ...]:
        """The other row of the same side (the only place one step away)."""
        side, _, row = self.locate(ref).rpartition(":")
        return (f"{side}:{'back' if row == 'front' else 'front'}",)

    def path(self, start: str, goal: str) -> MovePath | None:
        """Between the two rows of one side: one step; to another side: no way."""
        a, b = self.locate(start), self.locate(goal)
        if a == b:
            return MovePath((a,), 0)
        if a.rpartition(":")[0] != b.rpartition(":")[0]:
            return None
        return MovePath((a, b), 1, (1,))

    def levels(self) -> tuple[str, ...]:
        """Rows are flat."""
        return ()

    # -- reports and pictures -----------------------------------------------------------------

    def _place(self, ref: str) -> tuple[str, Row]:
        side, _, row = self.locate(ref).rpartition(":")
        assert row in ROWS
        return side, "front" if row == "front" else "back"

    def distance(self, a: str, b: str) -> int:
        """Row steps from ``a`` to ``b`` along *back, front | front, back* (see the module)."""
        side_a, row_a = self._place(a)
        side_b, row_b = self._place(b)
        if side_a == side_b:
            return int(row_a != row_b)
        return (row_a == "back") + 1 + (row_b == "back")

    def sight_report(self, source: str, target: str, **options: SightOption) -> SightReport:
        """Everyone sees everyone and nobody has cover; the details say where each stands.

        Rows take no options; any given raises :class:`MapError`.
        """
        if options:
            raise MapError(
                f"unknown sight option(s) {', '.join(map(repr, options))}: rows take no options "
                "(there is no line of sight or cover to rule on)"
            )
        places = {c: self.locate(c) for c in (source, target)}
        reasons = [
            "rows have no line of sight and no cover: everyone sees everyone",
            *(f"{c} stands in the {p.partition(':')[2]} row of {p.partition(':')[0]}"
              for c, p in places.items()),
        ]
        details = {
            "rows": {c: {"side": p.rpartition(":")[0], "row": p.rpartition(":")[2]}
                     for c, p in places.items()},
        }
        return SightReport(
            source=source,
            target=target,
            visible=True,
            cover=0,
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

    front: list[str] = Field(default_factory=list, max_length=MAX_UNITS)
    back: list[str] = Field(default_factory=list, max_length=MAX_UNITS)


class _RowsSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["rows"]
    name: str = ""
    description: str = ""
    sides: dict[str, _SideSpec] = Field(min_length=2, max_length=MAX_UNITS)


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


