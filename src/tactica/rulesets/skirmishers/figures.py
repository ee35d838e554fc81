"""Every figure of a Skirmishers trooper for the unit panel and ``status``: its HP with the
most a card holds, its AP left this turn (the figure the acting trooper's prompt gives) beside
its card's AP, the weapon in hand (by its name), the other weapons and the explosives it
carries."""

from __future__ import annotations

from tactica.rulesets.skirmishers.card import CELLS
from tactica.rulesets.skirmishers.state import SkiState

__all__ = ["figures"]


def figures(state: SkiState) -> dict[str, dict[str, str]]:
    """``{trooper: {"hp": "7 of 10", "ap": "7", "max ap": "8", "weapon": ..., "other
    weapons": ..., "explosives": ...}}``: the weapon in hand by its name, in place of the
    details' item key, and what else the trooper carries (where it carries more)."""
    pack = state.setup.pack
    out: dict[str, dict[str, str]] = {}
    for t in state.troopers.values():
        others = [w for w in t.weapons if w != t.active]
        shown = {"hp": f"{t.hp} of {CELLS[0]}", "ap": str(state.available(t)),
                 "max ap": str(state.max_ap(t)),
                 "weapon": pack.item_name(t.active) if t.active else "none"}
        if others:
            shown["other weapons"] = ", ".join(pack.item_name(w) for w in others)
        if t.explosives:
            shown["explosives"] = ", ".join(f"{pack.item_name(k)} x{n}"
                                            for k, n in t.explosives)
        out[t.id] = shown
    return out
