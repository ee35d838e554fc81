"""Chance processes and their drivers: exact, sampled, scripted; decisions; merging at nodes."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactica.dice import Dist, binomial, d10_target_successes
from tactica.engine.chance import (
    Decide,
    DecisionRecord,
    Done,
    Emit,
    FirstOption,
    Observe,
    Roll,
    RollRecord,
    Step,
    and_then,
    emit_all,
    run,
    run_exact,
    run_sampled,
    run_scripted,
)
from tactica.engine.errors import ScriptError, TacticaError

D10 = Dist.uniform(range(10))


def count_under(target: int) -> Callable[[tuple[int, ...]], int]:
    def read(faces: tuple[int, ...]) -> int:
        return sum(1 for f in faces if f == 1 or (f != 0 and f <= target))

    return read


def pool(label: str, n: int, target: int, then: Callable[[int], Step]) -> Step:
    """n D10 rolled under ``target``: one roll of the number of successes, with its dice."""
    if n == 0:
        return then(0)
    return Roll(label, d10_target_successes(n, target), then, dice=(D10,) * n,
                read=count_under(target))


def attack(n: int, a: int, s: int) -> Step:
    """n D10 to hit at accuracy a, one armor D10 per hit saving at armor s: Done(damage)."""
    return pool("to hit", n, a,
                lambda hits: pool("armor", hits, s,
                                  lambda saves: Emit(("damage", hits - saves),
                                                     lambda: Done(hits - saves))))


def p_success(target: int) -> Fraction:
    return Fraction(max(1, min(target, 9)), 10)


def closed_form(n: int, a: int, s: int) -> dict[int, Fraction]:
    q = p_success(a) * (1 - p_success(s))
    return {k: math.comb(n, k) * q**k * (1 - q) ** (n - k) for k in range(n + 1)}


# -- exact ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "a", "s"),
                         [(1, 6, 3), (2, 4, 3), (4, 7, 2), (6, 5, 5), (3, 0, 9), (5, 10, 0),
                          (10, 6, 4)])
def test_exact_equals_the_binomial_closed_form(n: int, a: int, s: int) -> None:
    dist = run_exact(attack(n, a, s))
    expected = closed_form(n, a, s)
    assert {k: dist.p(k) for k in range(n + 1)} == expected
    assert set(dist.outcomes) <= set(expected)


def test_exact_with_events_keeps_them_in_order() -> None:
    dist = run_exact(emit_all(["a", "b"], attack(1, 6, 3)), events=True)
    assert dist.to_dict() == {
        (0, ("a", "b", ("damage", 0))): Fraction(29, 50),
        (1, ("a", "b", ("damage", 1))): Fraction(21, 50),
    }


# -- sampled ----------------------------------------------------------------------------------


@pytest.mark.parametrize("faces", [False, True])
def test_seeded_sampling_agrees_with_exact_within_four_standard_errors(faces: bool) -> None:
    process = attack(4, 6, 3)
    exact = run_exact(process)
    rng = np.random.default_rng(7)
    n = 4000
    values = [run_sampled(process, rng, faces=faces).value for _ in range(n)]
    for k, p in exact.items():
        se = math.sqrt(float(p * (1 - p)) / n)
        assert abs(values.count(k) / n - float(p)) <= 4 * se
    assert abs(np.mean(values) - float(exact.mean())) <= 4 * exact.sd() / math.sqrt(n)


def test_the_same_seed_gives_the_same_run() -> None:
    a = run_sampled(attack(5, 5, 5), np.random.default_rng(3), faces=True)
    b = run_sampled(attack(5, 5, 5), np.random.default_rng(3), faces=True)
    assert a == b


def test_sampling_with_faces_records_each_die() -> None:
    trace = run_sampled(attack(3, 6, 3), np.random.default_rng(1), faces=True)
    first = trace.records[0]
    assert isinstance(first, RollRecord) and first.label == "to hit"
    assert first.faces is not None and len(first.faces) == 3
    assert first.value == count_under(6)(first.faces)
    plain = run_sampled(attack(3, 6, 3), np.random.default_rng(1))
    assert all(isinstance(r, RollRecord) and r.faces is None for r in plain.records)


# -- scripted ---------------------------------------------------------------------------------


def test_scripted_reproduces_a_sampled_roll_sequence_values_and_faces() -> None:
    rng = np.random.default_rng(12)
    for _ in range(20):
        trace = run_sampled(attack(4, 5, 4), rng, faces=True)
        faces = [list(r.faces) for r in trace.records if isinstance(r, RollRecord)
                 and r.faces is not None]
        again = run_scripted(attack(4, 5, 4), rolls=faces)
        assert again == trace
        values = [r.value for r in trace.records if isinstance(r, RollRecord)]
        by_value = run_scripted(attack(4, 5, 4), rolls=values)
        assert by_value.value == trace.value and by_value.events == trace.events
        assert [r.value for r in by_value.records] == values  # type: ignore[union-attr]


def test_scripted_worked_example() -> None:
    trace = run_scripted(attack(4, 4, 3), rolls=[[3, 5, 1, 0], [3, 4]])
    assert trace.value == 1
    assert trace.records == [RollRecord("to hit", 2, (3, 5, 1, 0)),
                             RollRecord("armor", 1, (3, 4))]
    assert trace.events == [("damage", 1)]


def test_scripted_fails_clearly_on_an_unscripted_roll() -> None:
    with pytest.raises(ScriptError) as info:
        run_scripted(attack(2, 6, 3), rolls=[2])
    assert str(info.value) == "no scripted value for roll 2 ('armor'); possible values: 0, 1, 2"


def test_scripted_fails_clearly_on_an_impossible_value() -> None:
    with pytest.raises(ScriptError) as info:
        run_scripted(attack(2, 6, 3), rolls=[3])
    assert str(info.value) == ("scripted value 3 for roll 1 ('to hit') is impossible; "
                               "possible values: 0, 1, 2")
    with pytest.raises(ScriptError, match=r"roll 'to hit': die 2 cannot show 10 \(faces 0..9\)"):
        run_scripted(attack(2, 6, 3), rolls=[[1, 10]])
    with pytest.raises(ScriptError,
                       match=r"roll 'to hit' is 2 dice: type 2 faces \(typed 3: 1 2 3\)"):
        run_scripted(attack(2, 6, 3), rolls=[[1, 2, 3]])


def test_scripted_fails_clearly_on_a_value_left_over() -> None:
    with pytest.raises(ScriptError) as info:
        run_scripted(attack(1, 6, 3), rolls=[0, 1, 2])
    assert str(info.value) == "scripted values left over after the process ended: rolls [1, 2]"
    choose = Decide("red", "pick", ("x", "y"), Done)
    with pytest.raises(ScriptError, match=r"left over .*decisions \['y'\]"):
        run_scripted(choose, decisions=["x", "y"])


def test_a_roll_without_dice_cannot_be_scripted_as_faces() -> None:
    step = Roll("initiative", Dist.uniform(["red", "blue"]), Done)
    assert run_scripted(step, rolls=["blue"]).value == "blue"
    with pytest.raises(ScriptError, match="not made with physical dice"):
        run_scripted(step, rolls=[[1]])


# -- decisions --------------------------------------------------------------------------------


class Pick:
    def __init__(self, option: Any) -> None:
        self.option = option
        self.seen: list[Decide[Any]] = []

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        self.seen.append(decision)
        return self.option


def duel_choice() -> Step:
    return Decide("red", "weapon", ("rifle", "knife"),
                  lambda w: Decide("blue", "react", ("duck", "stand"),
                                   lambda r: Done((w, r))),
                  context={"attacker": "A"})


def test_decisions_go_to_the_policy_of_the_named_side() -> None:
    red, blue = Pick("knife"), Pick("duck")
    trace = run_sampled(duel_choice(), np.random.default_rng(0),
                        policies={"red": red, "blue": blue})
    assert trace.value == ("knife", "duck")
    assert [d.side for d in red.seen] == ["red"] and [d.side for d in blue.seen] == ["blue"]
    assert red.seen[0].context == {"attacker": "A"}
    assert trace.records == [DecisionRecord("red", "weapon", "knife"),
                             DecisionRecord("blue", "react", "duck")]


def test_a_side_without_a_policy_or_a_choice_outside_the_options_is_an_error() -> None:
    with pytest.raises(TacticaError, match="no policy for side 'blue'"):
        run_sampled(duel_choice(), np.random.default_rng(0), policies={"red": Pick("rifle")})
    with pytest.raises(TacticaError, match="red chose 'sword' for 'weapon', which is not one"):
        run_sampled(duel_choice(), np.random.default_rng(0), policies=Pick("sword"))
    with pytest.raises(TacticaError, match="has no options"):
        run_sampled(Decide("red", "nothing", (), Done), np.random.default_rng(0))


def test_scripted_decisions_then_the_policy() -> None:
    trace = run_scripted(duel_choice(), decisions=["knife"], policies={"blue": Pick("stand")})
    assert trace.value == ("knife", "stand")
    with pytest.raises(ScriptError, match=r"no scripted choice for decision 2 \('react' by blue"):
        run_scripted(duel_choice(), decisions=["knife"])


def test_exact_decisions_may_mix_options() -> None:
    class Coin:
        def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
            assert rng is None
            return Dist.uniform(decision.options)

    dist = run_exact(duel_choice(), policies={"red": Coin(), "blue": FirstOption()})
    assert dist.to_dict() == {("rifle", "duck"): Fraction(1, 2),
                              ("knife", "duck"): Fraction(1, 2)}


# -- the generic driver and composition -------------------------------------------------------


def test_run_calls_back_for_every_event_and_record() -> None:
    events: list[Any] = []
    records: list[Any] = []
    value = run(attack(2, 6, 3), roll=lambda r: (r.dist.outcomes[-1], None),
                decide=lambda d: d.options[0], on_event=events.append,
                on_record=records.append)
    assert value == 0  # both hit, both saved
    assert events == [("damage", 0)]
    assert [r.label for r in records] == ["to hit", "armor"]


def test_and_then_sequences_processes() -> None:
    twice = and_then(attack(1, 6, 3), lambda first: and_then(
        attack(1, 6, 3), lambda second: Done(first + second)))
    assert run_exact(twice) == run_exact(attack(2, 6, 3))
    assert run_scripted(twice, rolls=[1, 0, 1, 1]).value == 1


# -- merging at nodes -------------------------------------------------------------------------


@dataclass(frozen=True)
class Barrage:
    """Hits one after another against armor that degrades by one with each unsaved hit."""

    hits_left: int
    armor: int
    damage: int
    counter: list[int]

    def __hash__(self) -> int:
        return hash((self.hits_left, self.armor, self.damage))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Barrage) and (self.hits_left, self.armor, self.damage) == (
            other.hits_left, other.armor, other.damage)

    def advance(self) -> Step:
        self.counter[0] += 1
        if self.hits_left == 0:
            return Done(self.damage)
        return Roll("armor", d10_target_successes(1, self.armor), self._after)

    def _after(self, saved: int) -> Step:
        if saved:
            return Barrage(self.hits_left - 1, self.armor, self.damage, self.counter)
        return Barrage(self.hits_left - 1, max(0, self.armor - 1), self.damage + 1,
                       self.counter)


def barrage_by_recursion(hits: int, armor: int) -> dict[int, Fraction]:
    """The same distribution by a memoised recursion over (hits, armor)."""
    memo: dict[tuple[int, int], dict[int, Fraction]] = {}

    def go(h: int, a: int) -> dict[int, Fraction]:
        if h == 0:
            return {0: Fraction(1)}
        if (h, a) not in memo:
            p = p_success(a)
            out: dict[int, Fraction] = {}
            for d, q in go(h - 1, a).items():
                out[d] = out.get(d, Fraction(0)) + p * q
            for d, q in go(h - 1, max(0, a - 1)).items():
                out[d + 1] = out.get(d + 1, Fraction(0)) + (1 - p) * q
            memo[h, a] = out
        return memo[h, a]

    return go(hits, armor)


def test_thirty_hits_against_degrading_armor_merge_into_few_states() -> None:
    counter = [0]
    dist = run_exact(Barrage(30, 8, 0, counter))
    # Without merging this would be 2**30 paths. With merging, layer k holds at most k + 1
    # states (the damage so far decides the armor), so at most 31 * 32 / 2 advances, plus
    # the final layer.
    assert counter[0] <= 31 * 32 // 2 + 31
    assert sum(p for _, p in dist.items()) == 1
    assert dist.to_dict() == {k: v for k, v in barrage_by_recursion(30, 8).items() if v}


@dataclass(frozen=True, eq=False)
class UnmergedBarrage(Barrage):
    """The same process whose states never compare equal: nothing merges."""

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def _after(self, saved: int) -> Step:
        b = super()._after(saved)
        assert isinstance(b, Barrage)
        return UnmergedBarrage(b.hits_left, b.armor, b.damage, b.counter)


def test_without_equal_states_the_same_chain_branches_per_die() -> None:
    merged, unmerged = [0], [0]
    a = run_exact(Barrage(12, 5, 0, merged))
    b = run_exact(UnmergedBarrage(12, 5, 0, unmerged))
    assert a == b
    assert unmerged[0] == 2**13 - 1  # every path of 12 binary rolls, node by node
    assert merged[0] <= 13 * 14 // 2 + 13


def test_nodes_stay_nodes_through_and_then() -> None:
    counter = [0]
    doubled = and_then(Barrage(12, 5, 0, counter), lambda d: Done(2 * d))
    dist = run_exact(doubled)
    assert counter[0] <= 13 * 14 // 2 + 13
    assert dist == run_exact(Barrage(12, 5, 0, [0])).map(lambda d: 2 * d)


# -- properties -------------------------------------------------------------------------------

weights = st.dictionaries(st.integers(0, 5), st.integers(1, 9), min_size=1, max_size=4)


@st.composite
def processes(draw: st.DrawFn, depth: int = 0) -> Step:
    """A random tree of rolls, events, and Done leaves."""
    kind = draw(st.sampled_from(["done", "roll", "roll", "emit"] if depth < 3 else ["done"]))
    if kind == "done":
        return Done(draw(st.integers(0, 3)))
    if kind == "emit":
        rest = draw(processes(depth + 1))
        return Emit(draw(st.integers()), lambda: rest)
    dist = Dist.from_weights(draw(weights))
    children = {v: draw(processes(depth + 1)) for v in dist.outcomes}
    return Roll(f"r{depth}", dist, lambda v: children[v])


@settings(max_examples=150, deadline=None)
@given(processes())
def test_exact_probabilities_are_in_range_and_sum_to_exactly_one(process: Step) -> None:
    dist = run_exact(process)
    probs = [p for _, p in dist.items()]
    assert all(isinstance(p, Fraction) and 0 < p <= 1 for p in probs)
    assert sum(probs) == 1
    with_events = run_exact(process, events=True)
    assert sum(p for _, p in with_events.items()) == 1
    assert with_events.map(lambda ve: ve[0]) == dist


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 14), st.integers(0, 10))
def test_merged_barrage_is_exact_for_any_length_and_armor(hits: int, armor: int) -> None:
    dist = run_exact(Barrage(hits, armor, 0, [0]))
    assert sum(p for _, p in dist.items()) == 1
    assert dist.to_dict() == {k: v for k, v in barrage_by_recursion(hits, armor).items() if v}


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(0, 10), st.integers(0, 10))
def test_exact_attack_is_binomial_for_any_pool(n: int, a: int, s: int) -> None:
    q = p_success(a) * (1 - p_success(s))
    assert run_exact(attack(n, a, s)) == binomial(n, q)


# -- reading the state mid-action (Observe) ----------------------------------------------------


@dataclass
class Trooper:
    """A tiny world: a trooper's AP and whether it lies prone."""

    ap: int = 6
    prone: bool = False
    armor: int = 8


class TrooperRules:
    """``copy_state`` and ``apply_event``: what a driver needs to keep a working state."""

    def copy_state(self, state: Trooper) -> Trooper:
        return Trooper(state.ap, state.prone, state.armor)

    def apply_event(self, state: Trooper, event: Any) -> None:
        kind, amount = event
        if kind == "ap-lost":
            state.ap -= amount
            state.prone = state.prone or state.ap <= 2
        elif kind == "armor-worn":
            state.armor -= amount
        elif kind == "step":
            state.ap -= 1


RULES = TrooperRules()


def move_under_fire(steps: int) -> Step:
    """A move of ``steps`` dots; reaction fire after each may cost 3 AP; the mover stops
    when it has no AP left or lies prone: what it can still do is read from the state."""

    def step(k: int) -> Step:
        def go(now: Trooper) -> Step:
            if k == steps or now.ap <= 0 or now.prone:
                return Done((k, now.ap, now.prone))
            return Emit(("step", 1), lambda: Roll(
                "reaction fire", Dist.uniform((0, 3)),
                lambda lost: (Emit(("ap-lost", lost), lambda: step(k + 1)) if lost
                              else step(k + 1))))

        return Observe(go)

    return step(0)


def test_a_move_sees_the_ap_its_own_reaction_fire_took() -> None:
    trace = run_scripted(move_under_fire(4), rolls=[3], world=RULES, state=Trooper())
    # 6 AP: a step (5), hit for 3 (2 AP: prone), and the move stops after one dot.
    assert trace.value == (1, 2, True)
    untouched = run_scripted(move_under_fire(4), rolls=[0, 0, 0, 0], world=RULES,
                             state=Trooper())
    assert untouched.value == (4, 2, False)


def test_the_exact_driver_keeps_a_working_state_per_branch() -> None:
    dist = run_exact(move_under_fire(4), world=RULES, state=Trooper())
    assert sum(p for _, p in dist.items()) == 1
    assert dist.p((1, 2, True)) == Fraction(1, 2)
    assert dist.p((4, 2, False)) == Fraction(1, 16)
    sampled = run_sampled(move_under_fire(4), np.random.default_rng(3), world=RULES,
                          state=Trooper())
    assert dist.p(sampled.value) > 0


def test_observing_without_a_state_is_a_clear_error() -> None:
    with pytest.raises(TacticaError, match="observes the battle state"):
        run_exact(move_under_fire(2))


@dataclass(frozen=True)
class WornBarrage:
    """Hits against armor read from the state the attack's first event left."""

    hits_left: int
    armor: int
    damage: int
    counter: list[int]

    def __hash__(self) -> int:
        return hash((self.hits_left, self.armor, self.damage))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WornBarrage) and (self.hits_left, self.armor, self.damage) \
            == (other.hits_left, other.armor, other.damage)

    def advance(self) -> Step:
        self.counter[0] += 1
        if self.hits_left == 0:
            return Emit(("armor-worn", 0), lambda: Done(self.damage))
        return Roll("armor", d10_target_successes(1, self.armor), self._after)

    def _after(self, saved: int) -> Step:
        if saved:
            return WornBarrage(self.hits_left - 1, self.armor, self.damage, self.counter)
        return WornBarrage(self.hits_left - 1, max(0, self.armor - 1), self.damage + 1,
                           self.counter)


def test_n_hits_against_degrading_armor_still_merge_after_observing() -> None:
    """An attack that first wears the armor (an event), then reads the worn armor from the
    state and rolls 30 hits as merged nodes: still polynomial, and exactly the recursion."""
    counter = [0]
    process = Emit(("armor-worn", 1),
                   lambda: Observe(lambda now: WornBarrage(30, now.armor, 0, counter)))
    dist = run_exact(process, world=RULES, state=Trooper(armor=9))
    assert counter[0] <= 31 * 32 // 2 + 31
    assert dist.to_dict() == {k: v for k, v in barrage_by_recursion(30, 8).items() if v}
