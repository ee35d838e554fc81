"""A battle state is copied from its dataclass fields: a field added to a state is copied
without anyone writing it down, and a copy never shares what a battle changes."""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from typing import Any

import pytest

from tactica.engine.copying import FRESH, copy_plan, copy_state
from tactica.engine.ruleset import get_ruleset
from tactica.rulesets.arc.state import ArcState
from tactica.rulesets.last_odyssey.state import LodState
from tactica.rulesets.nebulia.rules import NebState
from tactica.rulesets.skirmishers.state import SkiState
from tactica.rulesets.unhex.state import UnhexState


@dataclass
class Piece:
    hp: int
    marks: list[str] = field(default_factory=list)


@dataclass
class Board:
    pieces: dict[str, Piece]
    seen: set[str] = field(default_factory=set)
    name: str = "b"
    memo: dict[str, int] = field(default_factory=dict, compare=False, metadata=FRESH)


def test_every_mutable_field_is_copied_and_the_rest_shared() -> None:
    a = Board({"A": Piece(3, ["x"])}, {"A"}, memo={"k": 1})
    b = copy_state(a)
    b.pieces["A"].hp = 1
    b.pieces["A"].marks.append("y")
    b.pieces["B"] = Piece(2)
    b.seen.add("B")
    assert a == Board({"A": Piece(3, ["x"])}, {"A"}) and b.memo == {} and a.memo == {"k": 1}
    assert b.name is a.name


def test_a_field_added_to_a_state_is_copied_without_writing_it_down() -> None:
    grown = dataclasses.make_dataclass("Grown", [("log", list[str], field(default_factory=list))],
                                       bases=(Board,))
    a = grown({"A": Piece(3)})
    b = copy_state(a)
    b.log.append("moved")
    assert a.log == [] and "log" in dict(copy_plan(grown))


def _mutable(tp: Any) -> bool:
    origin = typing.get_origin(tp) or tp
    return origin in (dict, set, list) or (
        dataclasses.is_dataclass(tp) and not tp.__dataclass_params__.frozen)


@pytest.mark.parametrize("cls", [NebState, ArcState, LodState, SkiState, UnhexState],
                         ids=lambda c: c.__name__)
def test_each_games_state_copies_every_field_a_battle_changes(cls: type) -> None:
    hints = typing.get_type_hints(cls)
    planned = dict(copy_plan(cls))
    for f in dataclasses.fields(cls):
        if _mutable(hints[f.name]):
            assert f.name in planned, f"{cls.__name__}.{f.name} would be shared by copies"
        else:  # immutable, or read-only by its annotation (Mapping): shared
            assert f.name not in planned or f.metadata.get("tactica.engine.copying.fresh")


@pytest.mark.parametrize("name", ["nebulia", "arc", "last-odyssey", "skirmishers", "unhex"])
def test_the_games_copy_by_the_core_rule(name: str) -> None:
    game = get_ruleset(name)
    assert game.rules.copy is copy_state
