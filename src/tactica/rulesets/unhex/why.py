"""Why an Unhex attack's odds show a zero or a certainty: who picks the dice, how many boxes
are free, what death needs, sight and level.

:func:`explain_numbers` reads the report :func:`~tactica.rulesets.unhex.odds.attack_odds`
built and the state, and names the rule behind each number that is 0 or 1 and what would change
it.
"""

from __future__ import annotations

from fractions import Fraction

from tactica.engine.odds import OddsReport
from tactica.rulesets.unhex.records import Attack
from tactica.rulesets.unhex.state import UnhexState

__all__ = ["explain_numbers"]


def _free(state: UnhexState, target: str, location: str) -> int:
    body = state.chars[target].body
    return body.boxes_at(location) - body.marks_at(location).total


def _picker(state: UnhexState, report: OddsReport) -> str:
    by = str(report.extra.get("assigned_by", ""))
    if report.extra.get("cover"):
        return (f"{by} is in cover and picks which die is damage and which the location "
                f"(UNH-6 '{state.rulings['UNH-6']}'); out of cover the attacker would pick")
    if report.extra.get("shield"):
        return (f"{by} holds a shield and picks which die is damage and which the location "
                f"(UNH-25, UNH-6 '{state.rulings['UNH-6']}')")
    return f"{by} picks which die is damage and which the location (UNH-6 " \
           f"'{state.rulings['UNH-6']}')"


def explain_numbers(state: UnhexState, action: Attack, report: OddsReport) -> dict[str, str]:
    """The reasons for the report's zeros and certainties (see module)."""
    a, t = state.chars[action.unit], state.chars[action.target]
    n = report.numbers
    out: dict[str, str] = {}
    never = n.get("p_hit") == 0
    if never:
        out["p_hit"] = (f"{a.id}'s level is {a.level}: no roll succeeds" if a.level <= 0 else
                        f"{t.id} defends and always wins the opposed roll"
                        if n.get("p_defended") == 1 else
                        f"no roll of {a.id}'s d100 at or under {a.level} hits")
    elif n.get("p_hit") == 1:
        out["p_hit"] = f"{a.id}'s roll cannot fail"
    if n.get("expected_damage") == 0:
        out["expected_damage"] = ("it never hits" if never else
                                  f"every hit's damage die the picker takes is 0: "
                                  f"{_picker(state, report)}")
    head, torso = _free(state, t.id, "head"), _free(state, t.id, "torso")
    out_needs = (f"a knockout needs {t.id}'s head filled ({head} box(es) free: a damage die "
                 f"of {head}+ with a 9 for the location) or its torso ({torso} free), or its "
                 f"level ({t.level}) lost, in one hit whose damage die is at most 9 and whose "
                 f"two dice read at most {a.level} (a success)")
    for name in ("p_knockout", "p_out_of_action"):
        if n.get(name) == 0:
            out[name] = ("it never hits" if never else
                         f"{out_needs}; {_picker(state, report)}, and no pair of dice that "
                         "hits gets there")
        elif n.get(name) == 1:
            out[name] = f"every outcome fills {t.id}'s head or torso or takes its last level"
    if n.get("p_death") == 0:
        out["p_death"] = ("it never hits" if never else
                          f"death needs every head or every torso box permanent (filled "
                          f"marks); a wound marks '{state.rulings['UNH-11']}' (UNH-11) and "
                          f"only damage to a full torso hardens marks (UNH-13 "
                          f"'{state.rulings['UNH-13']}'): one hit does not get there from "
                          f"{t.id}'s {t.body.summary()}")
    for name, what in (("p_critical_success", "success"), ("p_critical_failure", "failure")):
        if n.get(name) == 0:
            out[name] = (f"{a.id}'s level {a.level}: " + (
                "no roll is a critical success (doubles at or under the level, or exactly "
                "the level)" if what == "success" else
                "no roll is a critical failure (doubles above the level, or 100)"))
    if n.get("p_defended") == 0:
        out["p_defended"] = (f"{t.id}'s defence (an opposed roll at {t.level}) never beats "
                             f"{a.id}'s roll at {a.level}")
    elif n.get("p_defended") == 1:
        out["p_defended"] = f"{t.id}'s defence always wins the opposed roll"
    if n.get("expected_level_lost") == 0 and "p_knockout" in out:
        out["expected_level_lost"] = (f"the level drops only when a location fills; "
                                      f"{_picker(state, report)}")
    return {k: v for k, v in out.items() if k in n and isinstance(n[k], Fraction)}
