"""Why a Skirmishers attack's odds show a zero or a certainty: body armor cells, the card's
cells left, the prone rule (SKI-3) and the AP already spent.

:func:`explain_numbers` reads the report the game's odds built and the state, and names the
rule behind each number that is 0 or 1 and what would change it.
"""

from __future__ import annotations

from typing import Any

from tactica.engine.odds import OddsReport
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.state import SkiState

__all__ = ["explain_numbers"]


def _most(report: OddsReport) -> int:
    dist = report.distributions.get("damage")
    return max((int(v) for v in dist.outcomes), default=0) if dist is not None else 0


def _weapon(state: SkiState, action: Any) -> tuple[str, int, int] | None:
    """``(name, lethal, bludgeoning)`` of a shot's or a melee attack's weapon."""
    pack = state.setup.pack
    if isinstance(action, r.Shoot):
        w = pack.weapons[action.weapon]
        return w.name, w.lethal, w.bludgeoning
    if isinstance(action, r.Melee):
        m = pack.melee[action.weapon]
        return m.name, m.lethal, m.bludgeoning
    return None


def _no_damage(state: SkiState, action: Any, report: OddsReport) -> str:
    t = state.troopers[report.target]
    if report.numbers.get("p_hit") == 0:
        return "it never hits"
    weapon = _weapon(state, action)
    if t.armor_left > 0 and weapon is not None:
        name, lethal, blunt = weapon
        if lethal <= t.armor_left:
            return (f"{t.id}'s body armor takes a hit's lethal points before its HP cells "
                    f"({t.armor_left} armor cell(s) left) and the {name} does {lethal}X"
                    + (f" {blunt}\\, bludgeoning ignored while armor cells remain" if blunt
                       else "")
                    + f": every hit is stopped by the armor; more than {t.armor_left} lethal "
                    "points in one hit, or the armor cells used up, would reach HP")
    return f"no outcome marks one of {t.id}'s HP cells (partial marks do not lower HP)"


def explain_numbers(state: SkiState, action: Any, report: OddsReport) -> dict[str, str]:
    """The reasons for the report's zeros and certainties (see module)."""
    n = report.numbers
    if report.target not in state.troopers:
        return {}
    t = state.troopers[report.target]
    out: dict[str, str] = {}
    most = _most(report)
    nothing = _no_damage(state, action, report) if most == 0 else ""
    if n.get("p_hit") == 0:
        out["p_hit"] = "no roll of 2D6 reaches the target number (see above)"
    elif n.get("p_hit") == 1:
        out["p_hit"] = "every roll of 2D6 reaches the target number (see above)"
    if n.get("expected_damage") == 0:
        out["expected_damage"] = nothing or "no outcome lowers its HP"
    if n.get("p_out_of_action") == 0:
        out["p_out_of_action"] = (f"no damage reaches {t.id}'s HP: {nothing}" if nothing else
                                  f"at most {most} HP lost of its {t.hp}: out of action "
                                  f"needs all {t.hp}")
    if n.get("p_dead") == 0:
        out["p_dead"] = (f"no damage reaches {t.id}'s HP: {nothing}" if nothing else
                         f"death needs a hit to run past the last cell of {t.id}'s card; "
                         f"at most {most} of its {t.hp} HP go in one attack and no outcome "
                         "gets past the end")
    if n.get("p_falls_prone") == 0:
        rule = state.rulings["SKI-3"]
        when = ("when the AP it has already spent meets or exceeds its new maximum" if rule ==
                "spent-exceeds" else "when its new maximum meets or exceeds the AP already "
                "spent")
        out["p_falls_prone"] = (
            f"no damage reaches {t.id}'s HP: {nothing}" if nothing else
            f"{t.id} has spent no AP this turn, and a hit makes a trooper fall prone only "
            f"{when} (SKI-3 '{rule}'); odds with --spent N ask as if it had spent N"
            if rule == "spent-exceeds" and t.ap_spent == 0 else
            f"a hit makes a trooper fall prone {when} (SKI-3 '{rule}'); {t.id} has spent "
            f"{t.ap_spent} AP this turn and no outcome that leaves it in action does that "
            "(odds with --spent N ask as if it had spent N)")
    if n.get("p_out_of_action") == 1:
        out["p_out_of_action"] = f"every outcome takes all of {t.id}'s {t.hp} HP"
    if n.get("p_dead") == 1:
        out["p_dead"] = f"every outcome runs a hit past the last cell of {t.id}'s card"
    return out
