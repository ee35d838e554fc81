"""Exact odds of an attack: checked against a brute-force count of the dice, against seeded
sampling of the battle's own process (within 4 standard errors), and through the CLI."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from unh_builders import NIGHTCLUB_FIGHT, npc, pc, ready

from tactica import odds_of
from tactica.cli import main
from tactica.engine.chance import run_sampled
from tactica.engine.errors import IllegalActionError
from tactica.engine.scenario import load_scenario, scenario_from_mapping
from tactica.engine.validation import load_yaml
from tactica.rulesets.unhex import UNHEX
from tactica.rulesets.unhex.body import Marks, location_of, wound
from tactica.rulesets.unhex.dice import PAIR, number, succeeds
from tactica.rulesets.unhex.records import (
    Attack,
    Attacked,
    KnockedOut,
    LocationFilled,
    Reaction,
    Wounded,
)
from tactica.rulesets.unhex.state import UnhexState
from tactica.rulesets.unhex.values import severity


def _oracle(state: UnhexState, a: str, t: str, *, cover: bool, defend: bool = False,
            rule: str = "worst") -> tuple[Fraction, Counter[str], Counter[int]]:
    """P(hit), hit locations and level lost, counted over every pair of dice (the critical
    success taken as an extra action, so the dice are never set)."""
    att, tgt = state.chars[a], state.chars[t]
    hits = Fraction(0)
    where: Counter[str] = Counter()
    lost: Counter[int] = Counter()
    defences = [p for p in PAIR.outcomes] if defend else [None]
    for pa in PAIR.outcomes:
        for pd in defences:
            weight = Fraction(1, 100 * len(defences))
            if not succeeds(pa, att.level):
                where["miss"] += weight
                lost[0] += weight
                continue
            if pd is not None and succeeds(pd, tgt.level) and (
                    number(pd) > number(pa) or (number(pd) == number(pa) and tgt.pc)):
                where["miss"] += weight
                lost[0] += weight
                continue
            readings = [(pa[0], location_of(pa[1])), (pa[1], location_of(pa[0]))]
            wounds = [wound(tgt.body, loc, dmg, state.damage) for dmg, loc in readings]
            if rule == "random" and readings[0] != readings[1]:
                chosen = [(w, weight / 2) for w in wounds]
            else:
                pick = min if cover else max
                chosen = [(pick(wounds, key=severity), weight)]
            for w, q in chosen:
                hits += q
                where[w.location] += q
                lost[w.level_lost] += q
    return hits, where, lost


def _check(report: object, hits: Fraction, where: Counter[str], lost: Counter[int]) -> None:
    assert report.numbers["p_hit"] == hits
    locs = report.distributions["hit_location"]
    assert {k: v for k, v in locs.items()} == {k: v for k, v in where.items() if v}
    levels = report.distributions["level_lost"]
    assert {k: v for k, v in levels.items()} == {k: v for k, v in lost.items() if v}


EXTRA = {"UNH-7": "extra-action"}


@pytest.mark.parametrize("rule", ["worst", "random"])
def test_odds_match_a_count_of_every_pair_of_dice(rule: str) -> None:
    b = ready({"A": pc("Entrance", items=["pistol"], level=55), "B": npc("Dance Floor")},
              rulings={**EXTRA, "UNH-6": rule})
    b.state.chars["B"].body = b.state.chars["B"].body.with_level(50)
    report = odds_of(UNHEX, b.state, "A", "B")
    _check(report, *_oracle(b.state, "A", "B", cover=False, rule=rule))
    assert report.numbers["p_hit"] == Fraction(55, 100)


def test_odds_in_cover_the_target_picks_the_lesser_reading() -> None:
    b = ready({"A": pc("Dance Floor", items=["pistol"]), "B": npc("Bar")}, rulings=EXTRA)
    from tactica.rulesets.unhex.body import Marks

    b.state.chars["B"].body = b.state.chars["B"].body.with_marks("torso", Marks(slash=12))
    report = odds_of(UNHEX, b.state, "A", "B")
    assert report.extra["assigned_by"] == "B" and report.extra["cover"]
    _check(report, *_oracle(b.state, "A", "B", cover=True))


def test_odds_with_the_target_defending_match_a_count_of_both_rolls() -> None:
    b = ready({"A": pc("Bar", level=60), "B": npc("Bar", level=45)}, rulings=EXTRA)
    plain = odds_of(UNHEX, b.state, "A", "B")
    report = odds_of(UNHEX, b.state, "A", "B", defend=True)
    _check(report, *_oracle(b.state, "A", "B", cover=False, defend=True))
    assert report.numbers["p_hit"] < plain.numbers["p_hit"]
    assert report.numbers["p_defended"] + report.numbers["p_hit"] + \
        report.distributions["outcome"].p("miss") == 1


def test_odds_refuse_what_the_rules_refuse() -> None:
    b = ready({"A": pc("Entrance", items=["pistol", "knife"], hold=["pistol"]),
               "B": npc("Dance Floor"), "C": npc("Catwalk"), "D": pc("Entrance")})
    with pytest.raises(IllegalActionError, match="without cover"):
        odds_of(UNHEX, b.state, "A", "B", defend=True)
    with pytest.raises(IllegalActionError, match="does not hold the 'knife'"):
        odds_of(UNHEX, b.state, "A", "B", "knife")
    with pytest.raises(IllegalActionError, match="carries no 'rifle'"):
        odds_of(UNHEX, b.state, "A", "B", "rifle")
    with pytest.raises(IllegalActionError, match=r"does not reach C at range 2"):
        odds_of(UNHEX, b.state, "A", "C")
    with pytest.raises(IllegalActionError, match="same team"):
        odds_of(UNHEX, b.state, "A", "D")


# -- exact odds against seeded sampling of the battle's own process ----------------------------


class _Adapter:
    """The ruleset's own decisions, with the target's reaction fixed."""

    def __init__(self, state: UnhexState, reaction: Reaction):
        self.state, self.reaction = state, reaction

    def choose(self, decision, state, rng):  # type: ignore[no-untyped-def]
        if decision.context.get("kind") == "react":
            return self.reaction
        return UNHEX.valuation.decide(self.state, decision, rng)


def _sampled(state: UnhexState, attack: Attack, reaction: Reaction, n: int,
             seed: int) -> dict[str, list[float]]:
    rng = np.random.default_rng(seed)
    state.chars[attack.target].actions = 1
    process_state = state
    out: dict[str, list[float]] = {"hit": [], "lost": [], "ko": [], "head": [], "torso": []}
    for _ in range(n):
        trace = run_sampled(UNHEX.resolve(process_state, attack), rng,
                            policies=_Adapter(process_state, reaction))
        att = next(e for e in trace.events if isinstance(e, Attacked))
        wounds = [e for e in trace.events if isinstance(e, Wounded)]
        out["hit"].append(att.outcome == "hit")
        out["lost"].append(sum(e.level_lost for e in trace.events
                               if isinstance(e, LocationFilled)))
        out["ko"].append(any(isinstance(e, KnockedOut) for e in trace.events))
        out["head"].append(bool(wounds) and wounds[0].location == "head")
        out["torso"].append(bool(wounds) and wounds[0].location == "torso")
    return out


def _within_4_se(exact: Fraction, sd: float, sample: list[float]) -> None:
    n = len(sample)
    mean = sum(sample) / n
    se = sd / math.sqrt(n)
    if se == 0:
        assert mean == float(exact)
    else:
        assert abs(mean - float(exact)) <= 4 * se, (mean, float(exact), se)


def _nightclub_state(**moves: str) -> UnhexState:
    data = load_yaml(NIGHTCLUB_FIGHT)
    for uid, area in moves.items():
        data["units"][uid]["at"] = area
    sc = scenario_from_mapping(data, source=str(NIGHTCLUB_FIGHT))
    return sc.new_state()


HURT = {"torso": 12, "head": 3, "left leg": 8}


@pytest.mark.parametrize(("attack", "defend", "moves", "hurt"), [
    (Attack("Rook", "shotgun", "Vince"), False, {}, False),
    (Attack("Rook", "shotgun", "Vince"), False, {}, True),
    (Attack("Jet", "pistol", "Lola"), True, {"Jet": "Dance Floor"}, True),  # Lola in cover
    (Attack("Vince", "baseball-bat", "Mara"), True, {"Vince": "Entrance"}, True),
])
def test_exact_odds_match_seeded_sampling_within_four_standard_errors(
        attack: Attack, defend: bool, moves: dict[str, str], hurt: bool) -> None:
    state = _nightclub_state(**moves)
    if hurt:
        t = state.chars[attack.target]
        for loc, n in HURT.items():
            t.body = t.body.with_marks(loc, Marks(slash=n))
    report = odds_of(UNHEX, state, attack.unit, attack.target, attack.weapon, defend=defend)
    sample = _sampled(state, attack, Reaction("defend" if defend else "none"), 3000,
                      seed=11)
    locs = report.distributions["hit_location"]
    lost = report.distributions["level_lost"]
    if hurt:
        assert report.numbers["p_knockout"] > 0
    for key, exact in (("hit", report.numbers["p_hit"]), ("ko", report.numbers["p_knockout"]),
                       ("head", locs.p("head")), ("torso", locs.p("torso"))):
        _within_4_se(exact, math.sqrt(float(exact * (1 - exact))), sample[key])
    _within_4_se(lost.mean(), lost.sd(), sample["lost"])


def test_the_nightclub_odds_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(NIGHTCLUB_FIGHT)
    assert main(["odds", path, "-a", "Rook", "-t", "Vince", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["exact"]["p_hit"] == "11/20" and doc["defend"] is False
    sc = load_scenario(NIGHTCLUB_FIGHT)
    assert doc == odds_of(UNHEX, sc.new_state(), "Rook", "Vince").to_dict()
    assert main(["odds", path, "-a", "Vince", "-t", "Rook", "--defend"]) == 2
    assert "does not reach Rook" in capsys.readouterr().err
    assert main(["odds", path, "-a", "Rook", "-t", "Vince", "--defend"]) == 2
    assert "without cover" in capsys.readouterr().err
    assert main(["odds", path, "--table", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {(r["attacker"], r["target"]) for r in rows} >= {("Rook", "Vince"), ("Mara", "Vince")}


def test_defend_from_the_command_line(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    data = load_yaml(NIGHTCLUB_FIGHT)
    data["units"]["Jet"]["at"] = "Dance Floor"
    path = tmp_path / "jet.yaml"
    path.write_text(json.dumps(data))
    assert main(["odds", str(path), "-a", "Jet", "-t", "Lola", "--defend", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["defend"] is True and doc["cover"] is True and doc["p_defended"] > 0


# -- the attacker's outcome when the target may counterattack ---------------------------------


def test_a_target_that_may_counterattack_gives_the_attackers_outcome_exactly() -> None:
    """A counterattack is a separate roll from the same area, no cover: the attacker's
    outcome is that roll counted over every pair of dice, the target's is unchanged."""
    b = ready({"A": pc("Bar", level=60), "B": npc("Bar", level=45)}, rulings=EXTRA)
    report = odds_of(UNHEX, b.state, "A", "B")
    assert report.extra["counterattack"] == "knife"
    assert report.extra["attacker_if"] == "if B counterattacks with the knife"
    hits, where, lost = _oracle(b.state, "B", "A", cover=False)
    assert report.numbers["p_attacker_hit"] == hits == Fraction(45, 100)
    back = report.distributions["attacker_hit_location"]
    assert {k: v for k, v in back.items()} == {k: v for k, v in where.items() if v}
    back_lost = report.distributions["attacker_level_lost"]
    assert {k: v for k, v in back_lost.items()} == {k: v for k, v in lost.items() if v}
    assert report.distributions["attacker_outcome"].p("hit") == hits
    # The target's own outcome is the undefended attack's.
    _check(report, *_oracle(b.state, "A", "B", cover=False))
    # A certainty says why (one hit cannot knock a fresh attacker out).
    from tactica.engine.odds_why import unexplained

    assert report.numbers["p_attacker_knocked_out"] == 0 and unexplained(report) == []
    assert "no outcome of B's counterattack with the knife" in \
        report.why["p_attacker_knocked_out"]


def test_no_attackers_outcome_where_the_target_cannot_counterattack() -> None:
    # Defending is the target's one reaction; another area; no melee weapon in hand; no
    # action left this round.
    b = ready({"A": pc("Bar", level=60), "B": npc("Bar", level=45)}, rulings=EXTRA)
    defended = odds_of(UNHEX, b.state, "A", "B", defend=True)
    assert defended.extra["counterattack"] is None
    assert not any(n.startswith("attacker") for n in defended.distributions)
    far = ready({"A": pc("Entrance", items=["pistol"]), "B": npc("Dance Floor")})
    assert odds_of(UNHEX, far.state, "A", "B").extra["counterattack"] is None
    unarmed = ready({"A": pc("Bar"), "B": npc("Bar", items=["pistol"])})
    assert odds_of(UNHEX, unarmed.state, "A", "B").extra["counterattack"] is None
    spent = ready({"A": pc("Bar"), "B": npc("Bar")}, actions={"B": 0})
    report = odds_of(UNHEX, spent.state, "A", "B")
    assert report.extra["counterattack"] is None and "p_attacker_hit" not in report.numbers


def test_before_the_first_round_the_target_is_taken_to_have_its_action() -> None:
    data = load_yaml(NIGHTCLUB_FIGHT)
    data["units"]["Jet"]["at"] = "Dance Floor"
    sc = scenario_from_mapping(data, source=str(NIGHTCLUB_FIGHT))
    report = odds_of(UNHEX, sc.new_state(), "Jet", "Vince")
    assert report.extra["counterattack"] == "baseball-bat"
    assert report.numbers["p_attacker_hit"] == Fraction(1, 2)  # Vince's level 50


def _sampled_counter(state: UnhexState, attack: Attack, weapon: str, n: int,
                     seed: int) -> dict[str, list[float]]:
    """The attacker's side of ``n`` seeded counterattacks, through the battle's process."""
    rng = np.random.default_rng(seed)
    state.chars[attack.target].actions = 1
    out: dict[str, list[float]] = {"hit": [], "lost": [], "ko": []}
    for _ in range(n):
        trace = run_sampled(UNHEX.resolve(state, attack), rng,
                            policies=_Adapter(state, Reaction("counterattack", weapon)))
        back = next(e for e in trace.events
                    if isinstance(e, Attacked) and e.kind == "counterattack")
        out["hit"].append(back.outcome == "hit")
        out["lost"].append(sum(e.level_lost for e in trace.events
                               if isinstance(e, LocationFilled) and e.unit == attack.unit))
        out["ko"].append(any(isinstance(e, KnockedOut) and e.unit == attack.unit
                             for e in trace.events))
    return out


def test_the_attackers_exact_outcome_matches_seeded_sampling_of_a_counterattack() -> None:
    state = _nightclub_state(Jet="Dance Floor")
    jet = state.chars["Jet"]
    for loc, k in HURT.items():
        jet.body = jet.body.with_marks(loc, Marks(slash=k))
    attack = Attack("Jet", "knife", "Vince")
    report = odds_of(UNHEX, state, "Jet", "Vince", "knife")
    assert report.extra["counterattack"] == "baseball-bat"
    sample = _sampled_counter(state, attack, "baseball-bat", 3000, seed=5)
    lost = report.distributions["attacker_level_lost"]
    assert report.numbers["p_attacker_knocked_out"] > 0
    for key, exact in (("hit", report.numbers["p_attacker_hit"]),
                       ("ko", report.numbers["p_attacker_knocked_out"])):
        _within_4_se(exact, math.sqrt(float(exact * (1 - exact))), sample[key])
    _within_4_se(lost.mean(), lost.sd(), sample["lost"])


def test_the_attackers_outcome_on_the_command_line(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    data = load_yaml(NIGHTCLUB_FIGHT)
    data["units"]["Jet"]["at"] = "Dance Floor"
    path = tmp_path / "close.yaml"
    path.write_text(json.dumps(data))
    assert main(["odds", str(path), "-a", "Jet", "-t", "Vince"]) == 0
    out = capsys.readouterr().out
    assert "attacker level lost" in out and "Vince may counterattack with the" in out
    assert main(["odds", str(path), "-a", "Jet", "-t", "Vince", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["exact"]["p_attacker_hit"] == "1/2"
    assert sum(row["p"] for row in doc["attacker_level_lost"]) == pytest.approx(1)


def test_plays_odds_lines_show_the_attackers_damage_too() -> None:
    from tactica.play.words import odds_lines

    b = ready({"A": pc("Bar", level=60), "B": npc("Bar", level=45)}, rulings=EXTRA)
    lines = odds_lines(odds_of(UNHEX, b.state, "A", "B"), "A attacks B with the knife")
    assert any(line.startswith("  damage: ") for line in lines)
    assert any(line.startswith("  attacker damage: ") for line in lines), lines
    assert any("B may counterattack with the knife" in line for line in lines)
