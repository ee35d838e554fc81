"""The chance to win from here: each side's chance of winning a fight from its current state.

Exact (:func:`tactica.analysis.exact.fight_odds`) when the rest of the fight fits a budget of
states; otherwise estimated by playing the rest of the fight many times from the current state
with seeded dice (the Python reference: a compiled kernel starts only from a scenario's first
state), each chance with its 95% interval, and labelled *estimated*. What ``tactica play``'s
``chances`` query prints and the page's bar beside the turn indicator shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from tactica.analysis.exact import BudgetExceeded, fight_odds
from tactica.analysis.sim.tally import wilson
from tactica.engine.battle import Battle, SampledDice
from tactica.engine.chance import Policy
from tactica.engine.errors import TacticaError
from tactica.engine.policies import make_policy
from tactica.engine.ruleset import Finished, Ruleset

__all__ = ["CHANCE_BATTLES", "CHANCE_MAX_STATES", "Chances", "chances_from"]

#: The budget of states of an exact answer at the table (a few seconds at most).
CHANCE_MAX_STATES = 4_000
#: Battles played from the current state when the exact search does not fit.
CHANCE_BATTLES = 200
#: Steps after which a battle played for an estimate is stopped (counted unfinished).
_MAX_STEPS = 5_000


@dataclass(frozen=True)
class Chances:
    """Each side's chance of winning from here (and of no winner: a draw or the round limit).

    ``exact``: the chances are exact fractions; otherwise estimates from ``battles`` battles,
    with ``intervals`` (95%) per side and for ``"none"``. ``states``: the states searched (the
    exact search, or how far it got before its budget)."""

    sides: tuple[str, ...]
    win: Mapping[str, Fraction | float]
    none: Fraction | float
    exact: bool
    states: int
    battles: int = 0
    intervals: Mapping[str, tuple[float, float]] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: each side's chance (and the exact fraction or the interval)."""
        def one(key: str, p: Fraction | float) -> dict[str, Any]:
            row: dict[str, Any] = {"p": float(p)}
            if isinstance(p, Fraction):
                row["p_exact"] = f"{p.numerator}/{p.denominator}"
            if self.intervals is not None:
                lo, hi = self.intervals[key]
                row["ci95"] = [round(lo, 6), round(hi, 6)]
            return row

        return {"exact": self.exact, "label": "exact" if self.exact else "estimated",
                "sides": list(self.sides),
                "win": {s: one(s, self.win[s]) for s in self.sides},
                "none": one("none", self.none), "states": self.states,
                "battles": self.battles}

    def lines(self) -> list[str]:
        """The chances for people: one line per side, then no winner, and what they are."""
        out = []
        for key in (*self.sides, "none"):
            p = self.win[key] if key != "none" else self.none
            name = f"{key} wins" if key != "none" else "no winner"
            text = f"{name}: {float(p):.1%}"
            if self.intervals is not None:
                lo, hi = self.intervals[key]
                text += f" (95% interval {lo:.1%}-{hi:.1%})"
            elif isinstance(p, Fraction) and len(str(p)) <= 24:
                text += f" = {p}"
            out.append(text)
        if self.exact:
            out.append(f"exact: every way the fight can go from here ({self.states:,} states)")
        else:
            out.append(f"estimated: {self.battles} fights played from here (the rest of the "
                       f"fight has more than {self.states:,} states to search exactly)")
        return out


def chances_from(ruleset: Ruleset, state: Any, policies: Mapping[str, str], *,
                 max_rounds: int | None = None, max_states: int = CHANCE_MAX_STATES,
                 battles: int = CHANCE_BATTLES, seed: int = 0) -> Chances:
    """Each side's chance of winning from ``state`` (not changed) under ``policies`` (a
    name per side): exact within ``max_states`` states, else estimated from ``battles``
    seeded battles."""
    sides = tuple(ruleset.sides_of(state))
    missing = [s for s in sides if s not in policies]
    if missing:
        raise TacticaError(f"no policy given for side {missing[0]!r}")
    pending = ruleset.pending(state)
    if isinstance(pending, Finished):
        win: dict[str, Fraction | float] = {s: Fraction(int(pending.winner == s))
                                            for s in sides}
        return Chances(sides, win, Fraction(int(pending.winner is None)), True, 1)
    try:
        dist, states = fight_odds(ruleset, state, policies, max_rounds=max_rounds,
                                  max_states=max_states)
    except BudgetExceeded as exc:
        return _estimate(ruleset, state, policies, sides, battles, seed, exc.states)
    exact_win: dict[str, Fraction | float] = {
        s: sum((p for o, p in dist.items() if o.result == s), Fraction(0)) for s in sides}
    none = 1 - sum(exact_win.values(), Fraction(0))
    return Chances(sides, exact_win, Fraction(none), True, states)


def _estimate(ruleset: Ruleset, state: Any, policies: Mapping[str, str],
              sides: tuple[str, ...], battles: int, seed: int, states: int) -> Chances:
    made: dict[str, Policy] = {s: make_policy(policies[s], ruleset) for s in sides}
    wins = dict.fromkeys(sides, 0)
    for i in range(battles):
        battle = Battle(ruleset, ruleset.copy_state(state), record=False)
        rng = np.random.default_rng([seed, i, 1])
        dice = SampledDice(np.random.default_rng([seed, i, 0]))
        for _ in range(_MAX_STEPS):
            if battle.is_over:
                break
            battle.step(made, dice=dice, rng=rng)
        if battle.is_over and battle.winner in wins:
            wins[battle.winner] += 1
    none_count = battles - sum(wins.values())
    intervals = {s: wilson(wins[s], battles) for s in sides}
    intervals["none"] = wilson(none_count, battles)
    return Chances(sides, {s: wins[s] / battles for s in sides}, none_count / battles, False,
                   states, battles, intervals)
