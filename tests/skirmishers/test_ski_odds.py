"""Exact odds of a shot, a melee attack and an explosive, from the battle's own processes."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from ski_builders import EXAMPLES, example, ready, take, trooper

from tactica.cli import main
from tactica.engine.chance import Done, FirstOption, run_sampled
from tactica.engine.errors import TacticaError
from tactica.engine.odds import COMMON_KEYS
from tactica.rulesets.skirmishers import SKIRMISHERS
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import HOLD
from tactica.rulesets.skirmishers.fire import shot

pytestmark = pytest.mark.both_engines


def shot_odds(target: str, **options: str) -> dict[str, object]:
    sc = example("shot.yaml")
    state = sc.new_state()
    action = SKIRMISHERS.odds.odds_action(state, "A", (target,), None)
    return SKIRMISHERS.odds.odds(state, action, **options).to_dict()


def exact(rows: list[dict[str, object]]) -> dict[object, Fraction]:
    return {row["value"]: Fraction(str(row["p_exact"])) for row in rows}


@pytest.mark.reference_only  # no step played after the set-up
def test_a_rifle_at_short_range_on_a_fresh_unarmored_trooper_hits_13_in_18() -> None:
    d = shot_odds("B")
    assert d["exact"]["p_hit"] == "13/18"  # type: ignore[index]
    hp = exact(d["hp"])  # type: ignore[arg-type]
    # A miss leaves 10 HP; a hit crosses 4 cells from the start cell 2D6 (11, 12: cell 10).
    assert hp == {10: Fraction(5, 18), 6: Fraction(13, 108), 5: Fraction(13, 162),
                  4: Fraction(65, 648), 3: Fraction(13, 108), 2: Fraction(65, 648),
                  1: Fraction(13, 162), 0: Fraction(13, 108)}
    cards = exact(d["card"])  # type: ignore[arg-type]
    assert cards["DEAD"] == Fraction(13, 648) and cards["HP 3, 6 AP"] == Fraction(13, 108)
    assert d["exact"]["p_out_of_action"] == "13/108"  # type: ignore[index]


@pytest.mark.reference_only  # no step played after the set-up
def test_a_standard_armored_target_loses_armor_cells_first() -> None:
    d = shot_odds("C")
    assert exact(d["armor"]) == {0: Fraction(13, 18), 4: Fraction(5, 18)}  # type: ignore[arg-type]
    assert exact(d["hp"]) == {10: Fraction(1)}  # type: ignore[arg-type]
    assert exact(d["ap"]) == {6: Fraction(1)}  # type: ignore[arg-type]


@pytest.mark.reference_only  # no step played after the set-up
def test_a_mover_shot_after_spending_ap_may_fall_prone() -> None:
    d = shot_odds("B", spent="7")
    assert Fraction(d["exact"]["p_falls_prone"]) > 0  # type: ignore[index]
    assert shot_odds("B")["p_falls_prone"] == 0


@pytest.mark.reference_only  # no step played after the set-up
def test_the_odds_of_a_melee_attack() -> None:
    b = ready("A B .\n . . .", A=trooper("red"), B=trooper("blue", armor="basic"))
    report = SKIRMISHERS.odds.odds(b.state, r.Melee("A", "B", "bayonet"))
    assert report.numbers["p_hit"] == Fraction(33, 36)
    # The bayonet's 3X: 2 to the basic armor, 1 to the card.
    assert report.distributions["armor"].outcomes == (0, 2)
    fists = SKIRMISHERS.odds.odds(b.state, r.Melee("A", "B", "fists"))
    assert fists.numbers["expected_damage"] == 0        # bludgeoning ignored while armor lasts


@pytest.mark.reference_only  # no step played after the set-up
def test_an_explosive_where_it_lands_and_each_troopers_outcome() -> None:
    sc = example("shot.yaml")
    state = sc.new_state()
    action = SKIRMISHERS.odds.odds_action(state, "A", ("B",), "hand-grenade")
    report = SKIRMISHERS.odds.odds(state, action)
    landing = report.distributions["landing"]
    assert sum(p for _, p in landing.items()) == 1
    # 6 dots: 2D6 >= 6 lands on target; a miss scatters one dot, six ways alike.
    assert landing.p("7,1") == Fraction(13, 18) and len(landing) == 7
    assert all(p == Fraction(5, 18) / 6 for place, p in landing.items() if place != "7,1")
    assert "card B" in report.distributions
    assert report.numbers["expected_enemy_damage"] >= report.numbers["expected_damage"]


@pytest.mark.reference_only  # no step played after the set-up
def test_an_explosive_at_another_dot() -> None:
    sc = example("shot.yaml")
    state = sc.new_state()
    action = SKIRMISHERS.odds.odds_action(state, "A", ("B",), "hand-grenade")
    near = SKIRMISHERS.odds.odds(state, action, at="6,1")
    assert near.distributions["landing"].p("6,1") == Fraction(30, 36)  # 5 dots: 2D6 >= 5
    assert near.target == "B"


@pytest.mark.reference_only  # no step played after the set-up
def test_exact_odds_agree_with_sampling() -> None:
    b = ready("A . . . . B\n . . . . . .", A=trooper("red"), B=trooper("blue"))
    rifle = b.state.setup.pack.weapons["rifle"]
    process = shot(b.state, "A", "B", rifle, 7, "shot", lambda w: Done(None))
    report = SKIRMISHERS.odds.odds(b.state, r.Shoot("A", "B", "rifle"), spent="0")
    rng = np.random.default_rng(5)
    n = 4000
    total = 0
    for _ in range(n):
        trace = run_sampled(shot(b.state, "A", "B", rifle, 6, "shot", lambda w: Done(None)),
                            rng, world=SKIRMISHERS, state=b.state)
        total += sum(e.amount for e in trace.events if isinstance(e, r.Hit))
    mean = float(report.numbers["expected_damage"])
    sd = float(report.distributions["damage"].map(lambda x: (x - mean) ** 2).mean()) ** 0.5
    assert abs(total / n - mean) < 4 * sd / n ** 0.5
    del process


@pytest.mark.reference_only  # no step played after the set-up
def test_odds_json_keeps_the_common_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", str(EXAMPLES / "shot.yaml"), "-a", "A", "-t", "B", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and set(COMMON_KEYS) | {"p_hit"} <= set(out)
    assert out["exact"]["p_hit"] == "13/18"
    code = main(["odds", str(EXAMPLES / "shot.yaml"), "--table", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 0 and {row["weapon"] for row in rows} >= {"rifle", "hand-grenade"}


@pytest.mark.reference_only  # no step played after the set-up
def test_odds_refuse_an_attack_that_cannot_be_made() -> None:
    from tactica.engine.errors import IllegalActionError

    b = ready("A . . B\n . . . .", A=trooper("red"), B=trooper("blue"))
    with pytest.raises(IllegalActionError, match="not next to"):
        SKIRMISHERS.odds.odds_action(b.state, "A", ("B",), "knife")
    with pytest.raises(IllegalActionError, match="unknown weapon"):
        SKIRMISHERS.odds.odds_action(b.state, "A", ("B",), "bazooka")


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_the_odds_of_a_move_through_an_arc() -> None:
    """Few reaction shots: every outcome exactly; many: each shot's exact chance, and lower
    bounds of the damage."""
    b = ready("A . . . . . B\n . . . . . . .", A=trooper("red"),
              B=trooper("blue", "smg", arc=60, bearing=180))
    take(b, r.Activate("A"), decisions=[HOLD])
    short = SKIRMISHERS.odds.odds(b.state, r.Move("A", "1,0"))
    assert sum(p for _, p in short.distributions["damage"].items()) == 1
    far = SKIRMISHERS.odds.odds(b.state, r.Move("A", "5,0"))
    assert far.extra["shots"] == 5 and far.extra["lower_bound"]
    p = far.numbers["p_hit"]
    assert 0 < p < 1 and "at 1,0: B's SMG" in "\n".join(far.reasons)


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_a_move_into_an_arc_gives_the_movers_own_outcome() -> None:
    """The reaction shot a move draws is the mover's risk: its card afterwards, exactly, is
    the shot's outcome at the dot it enters (the same shot, asked of after the move)."""
    b = ready("A . . . . . B\n . . . . . . .", A=trooper("red"),
              B=trooper("blue", "smg", arc=60, bearing=180))
    take(b, r.Activate("A"), decisions=[HOLD])
    report = SKIRMISHERS.odds.odds(b.state, r.Move("A", "1,0"))
    assert report.attacker == "A"
    assert report.extra["attacker_if"] == "if every enemy that may fire at it does"
    # Only the reaction shot does damage here: the mover's damage is the move's.
    assert report.distributions["attacker_damage"] == report.distributions["damage"]
    take(b, r.Move("A", "1,0"), decisions=[HOLD])  # the shot held: A stands on the dot
    after = SKIRMISHERS.odds.odds(b.state, r.Shoot("B", "A", "smg"))
    assert report.distributions["attacker_hp"] == after.distributions["hp"]
    assert report.distributions["attacker_card"] == after.distributions["card"]
    assert report.numbers["p_attacker_out_of_action"] == after.numbers["p_out_of_action"]
    from tactica.engine.odds_why import unexplained

    assert report.numbers["p_attacker_falls_prone"] == 0
    assert "p_attacker_falls_prone" not in unexplained(report)


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_the_movers_exact_outcome_agrees_with_sampling_the_move() -> None:
    b = ready("A . . . . . B\n . . . . . . .", A=trooper("red"),
              B=trooper("blue", "smg", arc=60, bearing=180))
    take(b, r.Activate("A"), decisions=[HOLD])
    move = r.Move("A", "1,0")
    report = SKIRMISHERS.odds.odds(b.state, move)
    hp = report.distributions["attacker_hp"]
    rng = np.random.default_rng(7)
    n = 3000
    seen = []
    for _ in range(n):
        trace = run_sampled(SKIRMISHERS.resolve(b.state, move), rng,
                            policies=FirstOption(), world=SKIRMISHERS, state=b.state)
        hits = [e.hp for e in trace.events if isinstance(e, r.Hit) and e.unit == "A"]
        seen.append(hits[-1] if hits else b.state.troopers["A"].hp)
    mean = float(hp.mean())
    sd = float(hp.sd())
    assert abs(sum(seen) / n - mean) < 4 * sd / n ** 0.5


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_no_movers_outcome_where_no_arc_holds_the_path() -> None:
    b = ready("A . . . . . B\n . . . . . . .", A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    report = SKIRMISHERS.odds.odds(b.state, r.Move("A", "1,0"))
    assert not any(name.startswith("attacker") for name in report.distributions)


@pytest.mark.reference_only  # no step played after the set-up
def test_odds_refusals_say_what_refuses() -> None:
    """Melee is "adjacent on one level and in sight": a trooper next to the attacker on the
    floor above is refused for the level, not for being far; troopers attack the other
    side, so the odds of an attack on a friend say it is a friend."""
    from tactica.engine.errors import IllegalActionError

    b = ready("A F . .\n . . . .", upper=[". B . .\n . . . ."], A=trooper("red"),
              F=trooper("red"), B=trooper("blue"))
    with pytest.raises(IllegalActionError) as upstairs:
        SKIRMISHERS.odds.odds_action(b.state, "A", ("B",), "knife")
    assert "level" in str(upstairs.value) and "not next to" not in str(upstairs.value)
    for means in ("knife", None, "rifle"):
        with pytest.raises(IllegalActionError) as friend:
            SKIRMISHERS.odds.odds_action(b.state, "A", ("F",), means)
        assert "F is on A's side" in str(friend.value), str(friend.value)


def _claims(state: object, action: object, **options: str) -> list[str]:
    from tactica.testing.claims import odds_claims

    assert SKIRMISHERS.odds is not None and SKIRMISHERS.odds.reading is not None
    report = SKIRMISHERS.odds.odds(state, action, **options)
    reading = SKIRMISHERS.odds.reading(state, action, **options)
    assert reading is not None
    return odds_claims(report, reading.process, world=SKIRMISHERS,
                       state=reading.state or state, damage=reading.damage, out=reading.out)


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_the_reports_hold_to_the_battles_processes_through_their_reading() -> None:
    # a melee attack rolled as the battle rolls it when the target activates
    b = ready("A B .\n . . .", A=trooper("red"), B=trooper("blue", armor="basic"))
    for weapon in ("bayonet", "fists"):
        assert _claims(b.state, r.Melee("A", "B", weapon)) == []
    # a throw at another dot, and a shot at a target that has spent AP: as the report reads
    sc = example("shot.yaml")
    state = sc.new_state()
    throw = SKIRMISHERS.odds.odds_action(state, "A", ("B",), "hand-grenade")
    assert _claims(state, throw, at="6,1") == []
    shoot = SKIRMISHERS.odds.odds_action(state, "A", ("B",), None)
    assert _claims(state, shoot, spent="3") == []


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_a_volley_has_no_reading() -> None:
    sc = example("shot.yaml")
    state = sc.new_state()
    shoot = SKIRMISHERS.odds.odds_action(state, "A", ("B",), None)
    assert SKIRMISHERS.odds is not None and SKIRMISHERS.odds.reading is not None
    with pytest.raises(TacticaError, match="--shots: its report is no single process"):
        SKIRMISHERS.odds.reading(state, shoot, shots="2")
