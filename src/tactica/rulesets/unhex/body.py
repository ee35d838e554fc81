"""Hit locations, the boxes of a character's body, wounds and their consequences.

A body is an immutable value: the level and max level, and for each of the six locations its
boxes and the marks on them: ``\\`` (first aid can treat), ``X`` (rest only) and permanent.
:func:`wound` applies a hit and says what followed; the battle turns that into events, odds
count it, and the die-assignment policies compare the two ways a roll can be read.

>>> body = Body.fresh(50)
>>> w = wound(body, "head", 7, DamageRules())
>>> w.body.level, w.filled, w.knocked_out, w.body.marks_at("torso").slash
(45, ('head',), True, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "BOXES",
    "LATER_BOXES",
    "LOCATIONS",
    "Body",
    "DamageRules",
    "Marks",
    "Wound",
    "location_of",
    "wound",
]

LOCATIONS: tuple[str, ...] = ("head", "right arm", "left arm", "torso", "right leg", "left leg")
#: Boxes per location in the first filled-in damage rules (UNH-4 ``first``).
BOXES: tuple[int, ...] = (5, 5, 5, 15, 10, 10)
#: Boxes per location in the later rules (UNH-4 ``later``).
LATER_BOXES: tuple[int, ...] = (3, 3, 3, 9, 6, 6)

_INDEX = {name: i for i, name in enumerate(LOCATIONS)}
TORSO = _INDEX["torso"]
HEAD = _INDEX["head"]


def location_of(die: int) -> str:
    """The location a location die points at: 9 head, 8 right arm, 7 left arm, 4-6 torso,
    2-3 right leg, 0-1 left leg."""
    if die == 9:
        return "head"
    if die == 8:
        return "right arm"
    if die == 7:
        return "left arm"
    if die >= 4:
        return "torso"
    return "right leg" if die >= 2 else "left leg"


@dataclass(frozen=True)
class Marks:
    """The marks on one location: ``slash`` (``\\``), ``x`` (``X``) and ``perm`` (filled)."""

    slash: int = 0
    x: int = 0
    perm: int = 0

    @property
    def total(self) -> int:
        """Boxes marked in any way."""
        return self.slash + self.x + self.perm

    def text(self, boxes: int) -> str:
        """The boxes drawn: ``#`` permanent, ``X``, ``\\`` and ``.`` for an empty box."""
        return "#" * self.perm + "X" * self.x + "\\" * self.slash + "." * (boxes - self.total)


@dataclass(frozen=True)
class DamageRules:
    """The damage rulings in force (UNH-4, UNH-11, UNH-12, UNH-13, UNH-18)."""

    version: str = "first"
    mark: str = "slash"
    excess: str = "torso"
    full_torso: str = "escalate"
    refill: str = "again"

    @property
    def boxes(self) -> tuple[int, ...]:
        """Boxes per location under this version."""
        return LATER_BOXES if self.version == "later" else BOXES


@dataclass(frozen=True)
class Body:
    """Level, max level and the marks on each location (in :data:`LOCATIONS` order)."""

    level: int
    max_level: int
    boxes: tuple[int, ...] = BOXES
    marks: tuple[Marks, ...] = (Marks(),) * 6
    filled_before: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        # A list, not a generator: bodies are made by the thousand when policies weigh wounds.
        full = tuple([m.slash + m.x + m.perm >= b
                      for m, b in zip(self.marks, self.boxes, strict=True)])
        object.__setattr__(self, "_full", full)
        object.__setattr__(self, "_out", self.level <= 0 or full[HEAD] or full[TORSO])

    def __hash__(self) -> int:
        found: int | None = self.__dict__.get("_hash")
        if found is None:
            found = hash((self.level, self.max_level, self.boxes, self.marks,
                          self.filled_before))
            object.__setattr__(self, "_hash", found)
        return found

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state.pop("_hash", None)  # string hashes differ between processes
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)

    @classmethod
    def fresh(cls, level: int, max_level: int | None = None,
              boxes: tuple[int, ...] = BOXES) -> Body:
        """An unhurt body."""
        return cls(level, max_level if max_level is not None else level, boxes)

    def boxes_at(self, location: str) -> int:
        """How many boxes ``location`` has."""
        return self.boxes[_INDEX[location]]

    def marks_at(self, location: str) -> Marks:
        """The marks on ``location``."""
        return self.marks[_INDEX[location]]

    def is_full(self, location: str) -> bool:
        """Every box of ``location`` is marked."""
        full: tuple[bool, ...] = self.__dict__["_full"]
        return full[_INDEX[location]]

    def with_marks(self, location: str, marks: Marks) -> Body:
        """A copy with ``location`` marked so."""
        i = _INDEX[location]
        return Body(self.level, self.max_level, self.boxes,
                    (*self.marks[:i], marks, *self.marks[i + 1:]), self.filled_before)

    def with_level(self, level: int) -> Body:
        """A copy at ``level`` (never below 0)."""
        return Body(max(0, level), self.max_level, self.boxes, self.marks, self.filled_before)

    @property
    def unconscious(self) -> bool:
        """Level 0, or every head box or every torso box marked."""
        out: bool = self.__dict__["_out"]
        return out

    @property
    def dead(self) -> bool:
        """Every head box or every torso box permanent."""
        return (self.marks[HEAD].perm >= self.boxes[HEAD]
                or self.marks[TORSO].perm >= self.boxes[TORSO])

    @property
    def legs_full(self) -> int:
        """How many legs are full."""
        return sum(self.is_full(leg) for leg in ("right leg", "left leg"))

    def hand_usable(self, hand: str) -> bool:
        """The ``right`` or ``left`` hand works (its arm is not full)."""
        return not self.is_full(f"{hand} arm")

    @property
    def slashes(self) -> int:
        """``\\`` marks over the whole body."""
        return sum(m.slash for m in self.marks)

    def summary(self) -> str:
        """One line: level and the marked locations."""
        parts = [f"{name} {m.text(b)}" for name, m, b in zip(LOCATIONS, self.marks, self.boxes,
                                                            strict=True) if m.total]
        return f"level {self.level}/{self.max_level}" + (": " + ", ".join(parts) if parts else "")


@dataclass(frozen=True)
class Wound:
    """What one hit did: the body after it, where marks landed, and what followed."""

    body: Body
    location: str
    damage: int
    changed: tuple[str, ...] = ()
    filled: tuple[str, ...] = ()
    losses: tuple[int, ...] = ()
    level_lost: int = 0
    knocked_out: bool = False
    died: bool = False

    @property
    def stops(self) -> bool:
        """A leg filled or the character went down: a mover stops."""
        return self.knocked_out or any(loc.endswith("leg") for loc in self.filled)


def _mark(marks: Marks, n: int, kind: str) -> Marks:
    if kind == "x":
        return Marks(marks.slash, marks.x + n, marks.perm)
    return Marks(marks.slash + n, marks.x, marks.perm)


def _escalate(marks: Marks, n: int) -> Marks:
    up = min(n, marks.slash)
    marks = Marks(marks.slash - up, marks.x + up, marks.perm)
    n -= up
    up = min(n, marks.x)
    return Marks(marks.slash, marks.x - up, marks.perm + up)


def wound(body: Body, location: str, damage: int, rules: DamageRules) -> Wound:
    """Mark ``damage`` boxes on ``location`` with the rules in force, and what follows.

    Damage to a full location goes to the torso; the rest of a hit that fills its location
    too (UNH-12). Damage to a full torso makes its marks heavier (UNH-13). Under the first
    damage rules a location that fills lowers the level by its box count (again each time it
    fills, UNH-18); under the later ones damage lowers the level directly (UNH-4).
    """
    before = body
    marks = list(body.marks)
    boxes = body.boxes
    ever = body.filled_before
    changed: list[str] = []
    filled: list[str] = []
    losses: list[int] = []
    lost = 0
    todo = damage
    where = location
    if damage > 0 and body.is_full(where):
        where = "torso"
    while todo > 0:
        i = _INDEX[where]
        m = marks[i]
        free = boxes[i] - m.total
        if free <= 0:
            if where != "torso" or rules.full_torso == "lost":
                break
            esc = _escalate(m, todo)
            if esc != m:
                marks[i] = esc
                changed.append(where)
            break
        n = min(free, todo)
        marks[i] = _mark(m, n, rules.mark)
        changed.append(where)
        todo -= n
        if n == free:
            filled.append(where)
            step = 0
            if rules.version == "first" and (rules.refill == "again" or where not in ever):
                step = boxes[i]
            losses.append(step)
            lost += step
            ever = ever | {where}
        if todo <= 0 or (where != "torso" and rules.excess == "lost"):
            break
        where = "torso"
    if rules.version == "later":
        lost = damage
    body = Body(max(0, body.level - lost), body.max_level, boxes, tuple(marks), ever)
    return Wound(
        body=body,
        location=location,
        damage=damage,
        changed=tuple(dict.fromkeys(changed)),
        filled=tuple(filled),
        losses=tuple(losses),
        level_lost=before.level - body.level,
        knocked_out=body.unconscious and not before.unconscious,
        died=body.dead and not before.dead,
    )
