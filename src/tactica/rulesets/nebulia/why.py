"""Why a Nebulia Operations attack's odds show a zero or a certainty: the faces that hit and
save, the damage per unsaved hit against the target's defense.

:func:`explain_numbers` reads the report :func:`~tactica.rulesets.nebulia.odds.attack_odds`
built and names the rule behind each number that is 0 or 1 and what would change it.
"""

from __future__ import annotations

from tactica.engine.odds import OddsReport
from tactica.rulesets.nebulia.rules import NebState

__all__ = ["explain_numbers"]


def explain_numbers(state: NebState, report: OddsReport) -> dict[str, str]:
    """The reasons for the report's zeros and certainties (see module)."""
    n = report.numbers
    t = state.ops[report.target]
    dmg = report.distributions.get("damage")
    most = max((int(v) for v in dmg.outcomes), default=0) if dmg is not None else 0
    out: dict[str, str] = {}
    for name, what in (("p_hit_each_die", "hits"), ("p_save_each_die", "saves")):
        if n.get(name) == 0:
            out[name] = f"no face of the D10 {what} (see the faces above)"
        elif n.get(name) == 1:
            out[name] = f"every face of the D10 {what} (see the faces above)"
    if n.get("p_hit") == 0:
        out["p_hit"] = "no face of the D10 hits at this accuracy"
    elif n.get("p_hit") == 1:
        out["p_hit"] = "every face of the D10 hits at this accuracy"
    if n.get("p_save_each_die") == 1 and n.get("expected_damage") == 0:
        out["expected_damage"] = f"{t.id}'s armor saves every hit (every face saves)"
    elif n.get("expected_damage") == 0:
        out["expected_damage"] = "no hit gets past the armor save"
    if n.get("p_damage") == 0:
        out["p_damage"] = out.get("expected_damage", "no hit gets past the armor save")
    if n.get("p_out_of_action") == 0:
        out["p_out_of_action"] = (
            f"at most {most} damage against {t.id}'s defense {t.defense}: out of action "
            f"needs {t.defense} (more dice that hit, or a heavier weapon, would change it)"
            if most else f"no damage: {out.get('expected_damage', 'every hit is saved')}")
    elif n.get("p_out_of_action") == 1:
        out["p_out_of_action"] = (f"every outcome does at least {t.defense} damage, "
                                  f"{t.id}'s defense")
    return out
