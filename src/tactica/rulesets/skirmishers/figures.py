"""Every figure of a Skirmishers trooper for the unit panel and ``status``: its HP with the
most a card holds, its AP left this turn (the figure the acting trooper's prompt gives) beside
its card's AP, and the weapons and explosives it carries (the one in hand first)."""

from __future__ import annotations

from tactica.rulesets.skirmishers.card import CELLS
from tactica.rulesets.skirmishers.state import SkiState

__all__ = ["figures"]


def figures(state: SkiState) -> dict[str, dict[str, str]]:
    """``{trooper: {"hp": "7 of 10", "ap": "7", "max ap": "8", "weapons": ...,
    "explosives": ...}}``."""
    pack = state.setup.pack
    out: dict[str, dict[str, str]] = {}
    for t in state.troopers.values():
        carried = [t.active, *(w for w in t.weapons if w != t.active)] if t.active else \
            list(t.weapons)
        shown = {"hp": f"{t.hp} of {CELLS[0]}", "ap": str(state.available(t)),
                 "max ap": str(state.max_ap(t)),
                 "weapons": ", ".join(pack.item_name(w) + (" (in hand)" if w == t.active
                                                            else "") for w in carried)}
        if t.explosives:
            shown["explosives"] = ", ".join(f"{pack.item_name(k)} x{n}"
                                            for k, n in t.explosives)
        out[t.id] = shown
    return out
