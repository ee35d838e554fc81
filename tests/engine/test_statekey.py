"""The merge keys of battle states: derived from their fields, conservative, and declarable."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest

from tactica.engine.copying import FRESH, copy_state
from tactica.engine.errors import TacticaError
from tactica.engine.statekey import NOT_KEYED, StateKeys, declare_key, declared_key


@dataclass(frozen=True)
class Board:
    width: int
    walls: frozenset[tuple[int, int]]


@dataclass
class Unit:
    place: tuple[int, int]
    hp: int


@dataclass
class State:
    board: Board
    units: dict[str, Unit]
    round: int = 0
    ready: set[str] = field(default_factory=set)
    memo: dict[str, Any] = field(default_factory=dict, compare=False)
    fresh: dict[str, Any] = field(default_factory=dict, metadata=FRESH)
    told: int = field(default=0, metadata=NOT_KEYED)


def start() -> State:
    return State(Board(10, frozenset({(1, 1)})), {"A": Unit((0, 0), 2), "B": Unit((5, 5), 2)})


def test_equal_states_have_equal_keys_and_a_changed_field_another() -> None:
    root = start()
    keys = StateKeys(root)
    a, b = copy_state(root), copy_state(root)
    assert keys(a) == keys(b) and hash(keys(a)) == hash(keys(b))
    b.units["B"].hp = 1
    assert keys(a) != keys(b)
    c = copy_state(root)
    c.ready.add("A")
    assert keys(c) != keys(a)


def test_memos_and_figures_for_people_are_left_out() -> None:
    root = start()
    keys = StateKeys(root)
    a, b = copy_state(root), copy_state(root)
    b.memo["sight"] = [1, 2]      # compare=False: a memo of derived answers
    b.fresh["x"] = object()       # FRESH: starts again in every copy
    b.told = 7                    # NOT_KEYED: never changes what happens next
    assert keys(a) == keys(b)


def test_what_the_starting_state_shares_is_keyed_by_identity() -> None:
    root = start()
    keys = StateKeys(root)
    a = copy_state(root)
    assert a.board is root.board
    key = keys(a)
    assert any(isinstance(part, tuple) and part and part[0].__name__ == "_Same"
               for part in key[1])  # type: ignore[index]
    other = copy_state(root)
    other.board = Board(10, frozenset({(1, 1)}))  # an equal board, but another object
    assert keys(other) != key  # conservative: less merging, never a wrong one
    moved = copy_state(root)
    moved.board = Board(11, frozenset())
    assert keys(moved) != keys(other)


def test_an_unhashable_field_is_refused_and_a_game_may_declare_its_key() -> None:
    @dataclass
    class Odd:
        stuff: Any

    class Bag:
        __hash__ = None  # type: ignore[assignment]

    root = Odd(1)
    with pytest.raises(TacticaError, match="cannot key a field of Odd"):
        StateKeys(root)(Odd(Bag()))
    declare_key(Odd, lambda state, core: core(state.stuff) if isinstance(state.stuff, int)
                else "bag")
    try:
        assert declared_key(Odd) is not None
        keys = StateKeys(root)
        assert keys(Odd(Bag())) == keys(Odd(Bag())) == "bag"
        assert keys(Odd(3)) == 3
    finally:
        from tactica.engine import statekey

        statekey._DECLARED.pop(Odd)


def test_arc_forgets_its_initiative_checks_once_the_order_is_set() -> None:
    from pathlib import Path

    from tactica.engine.scenario import load_scenario

    sc = load_scenario(Path(__file__).parents[2] / "examples" / "arc" / "pistol-duel.yaml")
    root = sc.new_state()
    keys = StateKeys(root)
    a, b = copy_state(root), copy_state(root)
    a.checks, b.checks = (("Francis", 3, True, 1),), (("Francis", 4, True, 1),)
    assert keys(a) != keys(b)  # while the order is set up, the checks decide it
    a.phase = b.phase = "round"
    assert keys(a) == keys(b)  # after that they are read no more


def test_a_frozen_part_shared_by_two_states_is_keyed_once_and_alike() -> None:
    @dataclass(frozen=True)
    class Card:
        hp: int
        notes: tuple[str, ...]

    @dataclass
    class Holder:
        card: Card

    root = Holder(Card(3, ()))
    keys = StateKeys(root)
    hurt = Card(2, ("hit",))
    a, b = Holder(hurt), Holder(hurt)
    assert keys(a) == keys(b)
    assert keys.frozen[id(hurt)][0] is hurt  # found by identity the second time
    assert keys(Holder(Card(2, ("hit",)))) == keys(a)  # an equal copy: an equal key
    assert keys(Holder(Card(1, ("hit",)))) != keys(a)


def test_skirmishers_keys_a_trooper_out_of_action_by_what_can_still_be_read() -> None:
    from dataclasses import replace
    from pathlib import Path

    from tactica.engine.scenario import load_scenario

    sc = load_scenario(Path(__file__).parents[2] / "examples" / "skirmishers" / "shot.yaml")
    root = sc.new_state()
    keys = StateKeys(root)
    a, b = copy_state(root), copy_state(root)
    a.troopers["B"] = replace(a.troopers["B"], marks="XXXXX......", ap_spent=2)
    b.troopers["B"] = replace(b.troopers["B"], marks="XXXXXXX....", ap_spent=1)
    assert keys(a) != keys(b)  # in action: its card and AP decide what it does next
    a.troopers["B"] = replace(a.troopers["B"], out=True, arc=None)
    b.troopers["B"] = replace(b.troopers["B"], out=True, arc=None)
    assert keys(a) == keys(b)  # out of action for good: they no longer matter
    b.troopers["B"] = replace(b.troopers["B"], weapons=())
    assert keys(a) != keys(b)  # what a friend may take from it still does


def test_events_declared_alike_change_a_state_alike() -> None:
    from tactica.dice import Dist
    from tactica.engine import statekey
    from tactica.engine.chance import Done, Emit, Roll, run_exact

    @dataclass(frozen=True)
    class Rolled:
        side: str
        roll: int  # for the log only

    def process():
        return Roll("d6", Dist.uniform(range(1, 7)),
                    lambda v: Emit(Rolled("red" if v > 4 else "blue", v), lambda: Done(None)))

    assert len(run_exact(process(), events=True)) == 6
    assert len(run_exact(process(), events=True, alike=True)) == 6  # nothing declared
    statekey.declare_effect(Rolled, lambda e: e.side)
    try:
        assert statekey.effects_key([Rolled("red", 5)]) == statekey.effects_key(
            [Rolled("red", 6)])
        dist = run_exact(process(), events=True, alike=True)
        assert sorted((events[0].side, p) for (_, events), p in dist.items()) == [
            ("blue", Fraction(2, 3)), ("red", Fraction(1, 3))]
        # the history kept for each effect is the first met, a real one
        assert {events[0].roll for (_, events), _ in dist.items()} <= set(range(1, 7))
        assert len(run_exact(process(), events=True)) == 6  # without alike: every history
    finally:
        statekey._EFFECTS.pop(Rolled)
