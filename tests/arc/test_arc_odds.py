"""Exact odds of an attack: hitting, the hits, the damage to health, the armor left, the wound
dice added, falling and dying, with a given aim and with or without the target's Evade."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from arc_builders import RIFLE, SMG, duel, example, gunner, make

from tactica.cli import main
from tactica.dice import Dist, evaluate
from tactica.engine.chance import run_sampled
from tactica.engine.errors import IllegalActionError, TacticaError
from tactica.engine.odds import COMMON_KEYS
from tactica.rulesets.arc import ARC
from tactica.rulesets.arc.attack import attack_process
from tactica.rulesets.arc.checks import Check, check_dist, evade_wins, hits_of
from tactica.rulesets.arc.records import Attack, Wounded


def rifle_damage() -> Dist[int]:
    """Guns 16 with the rifle against an unarmored target, straight from the dice."""
    hits = {0: Fraction(4, 20), 1: Fraction(7, 20), 2: Fraction(4, 20), 3: Fraction(5, 20)}
    out: dict[int, Fraction] = {}
    for n, p in hits.items():
        dist = evaluate(f"{3 * n}d6") if n else Dist.constant(0)
        for v, q in dist.items():
            out[v] = out.get(v, Fraction(0)) + p * q
    return Dist.from_probs(out)


def test_guns_16_with_the_rifle_hits_4_times_in_5_and_its_damage_is_exact() -> None:
    sc = example("firefight.yaml")
    state = sc.new_state()
    report = ARC.odds.odds(state, ARC.odds.odds_action(state, "Foo", ("Bar",), None))
    assert report.numbers["p_hit"] == Fraction(4, 5)
    assert report.distributions["hits"] == Dist.from_probs(
        {0: Fraction(1, 5), 1: Fraction(7, 20), 2: Fraction(1, 5), 3: Fraction(1, 4)})
    assert report.distributions["damage"] == rifle_damage()
    assert report.numbers["expected_damage"] == Fraction(63, 4)
    assert report.distributions["wound_dice_added"].p("none") == Fraction(1, 5)
    assert "armor_left" not in report.distributions         # Bar has no armor
    assert report.numbers["p_out_of_action"] == sum(
        (p for v, p in rifle_damage().items() if v >= 16), Fraction(0))


def test_with_an_evade_the_hits_fall_by_the_degree_comparison() -> None:
    state = example("firefight.yaml").new_state()
    action = Attack("Foo", "Bar", "rifle")
    report = ARC.odds.odds(state, action, evade=True)
    attack, evade = check_dist(Check("Guns", 16, 4), state.rulings), \
        check_dist(Check("Evade", 12, 5), state.rulings)
    expected = sum((p * q for a, p in attack.items() for e, q in evade.items()
                    if hits_of(a, Fraction(3), state.rulings)
                    and not evade_wins(a, e, state.rulings, same_increment=False)),
                   Fraction(0))
    assert report.numbers["p_hit"] == expected < Fraction(4, 5)
    assert report.numbers["p_evaded"] > 0
    assert report.extra["evade"] is True


def test_aiming_raises_the_target_number() -> None:
    state = duel(gunner("red", weapons=[SMG])).new_state()
    action = Attack("Foo", "Bar", "smg")
    plain = ARC.odds.odds(state, action)
    aimed = ARC.odds.odds(state, action, aim="4")
    assert plain.numbers["p_hit"] == Fraction(14, 20)        # 16 - 2 unaimed
    assert aimed.numbers["p_hit"] == Fraction(18, 20)        # 16 + 2 at most
    with pytest.raises(TacticaError, match="--aim"):
        ARC.odds.odds(state, action, aim="lots")


def test_against_armor_the_report_shows_the_armor_left_die_by_die() -> None:
    plates = [{"die": "d8", "against": ["ballistic"], "name": "plate"},
              {"die": "d4", "against": ["ballistic"], "name": "vest"}]
    state = duel(b=gunner("blue", armor=plates)).new_state()
    report = ARC.odds.odds(state, Attack("Foo", "Bar", "rifle"))
    armor = report.distributions["armor_left"]
    assert sum(p for _, p in armor.items()) == 1
    assert armor.p("d8 (plate), d4 (vest)") > 0           # untouched (misses, absorbed)
    assert armor.p("d6 (plate), d4 (vest)") > 0           # the highest dropped (ARC-4)
    assert report.numbers["expected_damage"] < Fraction(63, 4)
    for name in ("p_hit", "p_out_of_action", "p_kill", "p_killed_outright", "p_jam"):
        assert 0 <= report.numbers[name] <= 1


@pytest.mark.parametrize("arc5", ["no", "penetrates"])
def test_the_exact_odds_agree_with_seeded_sampling(arc5: str) -> None:
    state = duel(b=gunner("blue", armor=[{"die": "d6", "against": ["ballistic"]}]),
                 rulings={"ARC-5": arc5}).new_state()
    action = Attack("Foo", "Bar", "rifle")
    exact = float(ARC.odds.odds(state, action).numbers["expected_damage"])
    rng = np.random.default_rng(11)
    draws = []
    for _ in range(3000):
        trace = run_sampled(attack_process(state, action, evade=False), rng)
        draws.append(sum(e.amount for e in trace.events if isinstance(e, Wounded)))
    mean = float(np.mean(draws))
    se = float(np.std(draws)) / math.sqrt(len(draws))
    assert abs(mean - exact) < 4 * se


def test_odds_choices_list_every_weapon_on_every_enemy_in_reach() -> None:
    state = duel(gunner("red", weapons=[RIFLE, "pistol-concealable"]),
                 ranges=[{"between": ["Foo", "Bar"], "metres": 20}]).new_state()
    choices = ARC.odds.choices(state, "Foo")
    assert [(c.means, c.targets) for c in choices] == [("rifle", ("Bar",))]
    with pytest.raises(IllegalActionError, match="does not reach"):
        ARC.odds.odds_action(state, "Foo", ("Bar",), "Pistol, concealable")
    with pytest.raises(IllegalActionError, match="no weapon"):
        ARC.odds.odds_action(state, "Foo", ("Bar",), "bazooka")


def test_the_command_line_odds_keep_the_common_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "examples/arc/firefight.yaml", "-a", "Foo", "-t", "Bar", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert set(COMMON_KEYS) | {"p_hit", "hits", "wound_dice_added"} <= set(out)
    assert out["exact"]["p_hit"] == "4/5" and out["exact"]["expected_damage"] == "63/4"
    code = main(["odds", "examples/arc/firefight.yaml", "--table", "--json", "--evade",
                 "--aim", "1"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 0 and rows and all(r["evade"] and r["aim"] == 1 for r in rows)


def test_odds_refusals_say_the_rule_that_refuses() -> None:
    """Attacks target other sides; a melee weapon reaches the adjacent squares on a grid
    (the actions chapter's 5-foot squares) and 2 m without one; sight is ARC-29's."""
    units = {"A": gunner("red", weapons=[RIFLE, "knife"], attributes={"DEX": 5}),
             "P": gunner("red"),
             "B": gunner("blue")}
    state = make(units, map={"kind": "grid", "tiles": "A...#.B\nP......"}).new_state()
    with pytest.raises(IllegalActionError) as friend:
        ARC.odds.odds_action(state, "A", ("P",), None)
    assert "P is on A's side" in str(friend.value), str(friend.value)
    with pytest.raises(IllegalActionError) as melee:
        ARC.odds.odds_action(state, "A", ("B",), "Combat knife")
    text = str(melee.value)
    assert "melee" in text and "adjacent" in text and "None" not in text, text
    with pytest.raises(IllegalActionError) as unseen:
        ARC.odds.odds_action(state, "A", ("B",), None)
    assert "ARC-29" in str(unseen.value), str(unseen.value)
    apart = duel(gunner("red", weapons=[RIFLE, "knife"], attributes={"DEX": 5}),
                 ranges=[{"between": ["Foo", "Bar"], "metres": 20}]).new_state()
    with pytest.raises(IllegalActionError) as far:
        ARC.odds.odds_action(apart, "Foo", ("Bar",), "Combat knife")
    assert "melee" in str(far.value) and "None" not in str(far.value), str(far.value)
