"""The computer's choices: reacting sensibly, die assignment (UNH-6), the critical success
choice (UNH-7), re-rolls, first aid, where an intercepted mover stops, and action values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unh_builders import npc, pc, ready

from tactica.engine.chance import Decide, Emit, Roll, Step
from tactica.engine.ruleset import ChooseAction
from tactica.rulesets.unhex import UNHEX
from tactica.rulesets.unhex.body import Marks
from tactica.rulesets.unhex.records import (
    Arrange,
    Assignment,
    Attack,
    EndTurn,
    FirstAid,
    Move,
    Reaction,
)


def decision(step: Step, rolls: Sequence[Any] = (), choices: Sequence[Any] = ()) -> Decide[Any]:
    """Walk a process with the given rolls and choices up to the next decision."""
    rolls, choices = list(rolls), list(choices)
    while True:
        if isinstance(step, Decide):
            if not choices:
                return step
            step = step.then(choices.pop(0))
        elif isinstance(step, Roll):
            step = step.then(rolls.pop(0))
        elif isinstance(step, Emit):
            step = step.then()
        else:
            step = step.advance()  # type: ignore[union-attr]


def choose(b: Any, d: Decide[Any]) -> Any:
    return UNHEX.valuation.decide(b.state, d, None)


def test_a_target_whose_turn_is_over_defends() -> None:
    b = ready({"A": pc("Dance Floor", items=["pistol"]), "B": npc("Bar")},
              order=("npcs", "pcs"))
    b.state.turn = 1  # the NPCs have had their turn: B's action is only good for reacting
    d = decision(UNHEX.resolve(b.state, Attack("A", "pistol", "B")))
    assert d.side == "npcs" and choose(b, d) == Reaction("defend")


def test_a_target_whose_strong_attack_is_still_to_come_keeps_its_action() -> None:
    b = ready({"A": pc("Dance Floor", level=10, items=["pistol"]),
               "B": npc("Bar", level=90, items=["shotgun"])})
    d = decision(UNHEX.resolve(b.state, Attack("A", "pistol", "B")))
    assert choose(b, d) == Reaction("none")


def test_a_melee_target_trades_blows_rather_than_only_defending() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")}, order=("npcs", "pcs"))
    b.state.turn = 1
    d = decision(UNHEX.resolve(b.state, Attack("A", "knife", "B")))
    assert choose(b, d) == Reaction("counterattack", "knife")


def test_a_character_whose_turn_is_over_intercepts() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Kitchen", items=["shotgun"])}, order=("npcs", "pcs"))
    b.state.turn = 1
    d = decision(UNHEX.resolve(b.state, Move("A", "Dance Floor")))
    assert choose(b, d) == Reaction("intercept", "shotgun")


def test_die_assignment_is_worst_for_the_other_side() -> None:
    b = ready({"A": pc("Dance Floor", items=["pistol"]), "B": npc("Bar"), "C": npc("Kitchen")})
    b.state.chars["B"].body = b.state.chars["B"].body.with_marks("head", Marks(slash=3))
    # 24: 2 damage to the torso, or 4 damage to the right leg. B is in cover and picks the leg.
    d = decision(UNHEX.resolve(b.state, Attack("A", "pistol", "B")), rolls=[(2, 4)],
                 choices=[Reaction("none")])
    assert d.side == "npcs" and choose(b, d).location == "torso"
    # 29 against a head with 3 marks: 2 to the head knocks B out; B in cover avoids it.
    d = decision(UNHEX.resolve(b.state, Attack("A", "pistol", "B")), rolls=[(2, 9)],
                 choices=[Reaction("none")])
    assert choose(b, d).location == "right leg"
    b.state.chars["A"].area = "Bar"  # no cover at range 0: A picks the knockout
    b.state.view.look("Bar", "Bar")
    d = decision(UNHEX.resolve(b.state, Attack("A", "pistol", "B")), rolls=[(2, 9)],
                 choices=[Reaction("none")])
    assert d.side == "pcs" and choose(b, d).location == "head"


def test_max_damage_and_random_assignment() -> None:
    b = ready({"A": pc("Bar", items=["pistol"]), "B": npc("Bar")},
              rulings={"UNH-6": "max-damage"})
    d = decision(UNHEX.resolve(b.state, Attack("A", "pistol", "B")), rolls=[(2, 4)],
                 choices=[Reaction("none")])
    assert choose(b, d).damage == 4
    b = ready({"A": pc("Bar", items=["pistol"]), "B": npc("Bar")}, rulings={"UNH-6": "random"})
    d = decision(UNHEX.resolve(b.state, Attack("A", "pistol", "B")), rolls=[(2, 4)],
                 choices=[Reaction("none")])
    mix = choose(b, d)
    assert sorted(a.damage for a in mix.outcomes) == [2, 4] and mix.p(mix.outcomes[0]) == 0.5


def test_the_critical_success_sets_the_dice_for_a_knockout_else_takes_the_action() -> None:
    b = ready({"A": pc("Bar", level=55, max_level=60), "B": npc("Bar")})
    step = UNHEX.resolve(b.state, Attack("A", "knife", "B"))
    d = decision(step, rolls=[(5, 5)], choices=[Reaction("none")])
    assert choose(b, d) == "set-dice"  # exactly 55: up to 60, and 59 is 5 damage to the head
    d = decision(step, rolls=[(5, 5)], choices=[Reaction("none"), "set-dice"])
    assert choose(b, d) == 59
    d = decision(step, rolls=[(1, 1)], choices=[Reaction("none")])
    assert choose(b, d) == "set-dice"  # 1 damage, when 49 gives 9 to the torso
    # Against a torso one box from full, 44 already knocks B out: take the extra action.
    b.state.chars["B"].body = b.state.chars["B"].body.with_marks("torso", Marks(slash=14))
    d = decision(UNHEX.resolve(b.state, Attack("A", "knife", "B")), rolls=[(4, 4)],
                 choices=[Reaction("none")])
    assert choose(b, d) == "extra-action"
    for rule, want in (("extra-action", "extra-action"), ("set-dice", "set-dice")):
        b = ready({"A": pc("Bar"), "B": npc("Bar")}, rulings={"UNH-7": rule})
        d = decision(UNHEX.resolve(b.state, Attack("A", "knife", "B")), rolls=[(1, 1)],
                     choices=[Reaction("none")])
        assert choose(b, d) == want


def test_a_good_attacker_rerolls_a_failure_and_keeps_a_success() -> None:
    b = ready({"A": pc("Bar", good=["attack"]), "B": npc("Bar")})
    step = UNHEX.resolve(b.state, Attack("A", "knife", "B"))
    assert choose(b, decision(step, rolls=[(3, 1)], choices=[Reaction("none")])) == "keep"
    assert choose(b, decision(step, rolls=[(8, 1)], choices=[Reaction("none")])) == "tens"


def test_first_aid_wakes_the_unconscious_first() -> None:
    b = ready({"M": pc("Bar", items=["first-aid-kit"]), "P": pc("Bar"), "B": npc("Alley")})
    p = b.state.chars["P"]
    p.body = p.body.with_marks("torso", Marks(slash=15)).with_marks("left leg", Marks(slash=6))
    d = decision(UNHEX.resolve(b.state, FirstAid("M", "P")), rolls=[(2, 1)])
    plan = choose(b, d)
    assert dict(plan.erase).get("torso", 0) >= 1


def test_the_interceptor_stops_the_mover_where_its_team_can_hit_it() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Kitchen"), "C": npc("Alley", items=["shotgun"])})
    b.state.chars["A"].body = b.state.chars["A"].body.with_marks("right leg", Marks(slash=9))
    d = decision(UNHEX.resolve(b.state, Move("A", "Kitchen")), rolls=[(2, 3)],
                 choices=[Reaction("intercept", "knife"), Reaction("none"),
                          Assignment(2, "right leg", "tens")])
    assert d.options == ("Bar", "Kitchen") and choose(b, d) == "Kitchen"


def test_action_values_prefer_attacking_arming_and_closing_in() -> None:
    b = ready({"A": pc("Entrance", items=["pistol"]), "B": npc("Dance Floor", level=20),
               "C": pc("Entrance", items=["knife"], hold=[]), "D": pc("Entrance", level=70)})
    p = b.pending
    assert isinstance(p, ChooseAction)
    values = dict(zip(p.actions, UNHEX.valuation.rank(b.state, p.actions), strict=True))
    assert values[Attack("A", "pistol", "B")] > values[EndTurn("pcs")]
    assert values[Arrange("C", "knife", None)] > values[EndTurn("pcs")]
    assert values[Move("D", "Dance Floor")] > values[Move("D", "Pool Tables")]
    # Unarmed, C keeps away from the knife.
    assert values[Move("C", "Dance Floor")] < values[Move("C", "Pool Tables")]
    assert UNHEX.valuation.rank(b.state, [EndTurn("pcs")]) == [0.0]
