"""The round of Last Odyssey: initiative, the Action, Effect and Paradigm phases, the end.

* First Strike (if a side has the upper hand): before initiative, each of its characters takes
  a free turn with 1 AP, highest Initiative statistic first (LOD-24).
* Initiative (once, before round 1): the order is highest Initiative first, fixed for the
  battle. Each player calls 1-8 (LOD-8) and the GM rolls 2d4: an exact call gives Initiative
  x 1.5; a call below the roll wins ties with enemies, at or above loses them; other ties go by
  the scenario's order (LOD-13). An extra Paradigm phase opens round 1.
* Action phase: each character's turn in order, with AP by tier (2 for tiers 1-5, 3 above).
* Effect phase: damage (poison), then healing and statuses (no tier 1 content has any), then
  a Boar Rider at 0 HP falls, then advancing: a side with nobody in its front row may be
  advanced on by the other side (its choice).
* Paradigm phase: job changes (not modelled: tactica's characters have one job each).

The battle ends when at most one side has characters standing, or after ``max_rounds``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tactica.dice import die
from tactica.engine.chance import Done, Step
from tactica.engine.ruleset import Automatic, ChooseAction, Finished, Pending
from tactica.rulesets.last_odyssey import melee
from tactica.rulesets.last_odyssey.hitdie import Absorbed, absorb
from tactica.rulesets.last_odyssey.records import (
    Advanced,
    Damaged,
    Downed,
    HeldOn,
    InitiativeRolled,
    PhaseStarted,
    RoundEnded,
    TurnEnded,
)
from tactica.rulesets.last_odyssey.resolve import decide, emit, roll
from tactica.rulesets.last_odyssey.state import Fighter, LodState, first_strike_order
from tactica.rulesets.last_odyssey.targeting import can_act, legal_actions

__all__ = ["effect_phase", "finished", "first_strike_order", "initiative", "initiative_order",
           "pending"]


def finished(state: LodState) -> Finished | None:
    """Finished when at most one side has anyone standing."""
    standing = [s for s in state.sides if state.standing(s)]
    if len(standing) == 1:
        gone = [s for s in state.sides if s != standing[0]]
        fled = [s for s in gone if any(f.fled for f in state.fighters.values() if f.side == s)]
        how = "fled or downed" if fled else "downed"
        return Finished(standing[0], f"the only side standing: {standing[0]} "
                                     f"({', '.join(gone)}: {how})")
    if not standing:
        return Finished(None, "nobody is left standing")
    return None


# --------------------------------------------------------------------------------------------
# Initiative


def initiative_order(state: LodState, calls: dict[str, int], roll_value: int) -> tuple[
        tuple[str, ...], tuple[str, ...]]:
    """``(order, boosted)``: the initiative order and the players who called the roll."""
    boost = state.pack.figures.initiative_boost
    listed = list(state.fighters)
    boosted = tuple(u for u, c in calls.items() if c == roll_value)

    def key(f: Fighter) -> tuple[Fraction, int, int]:
        value = Fraction(f.template.initiative) * (boost if f.id in boosted else 1)
        group = (0 if calls.get(f.id, roll_value) < roll_value else 2) if f.player else 1
        return (-value, group, listed.index(f.id))

    return tuple(f.id for f in sorted(state.fighters.values(), key=key)), boosted


def initiative(state: LodState) -> Step:
    """Calls (LOD-8), the GM's 2d4, the order; the opening Paradigm phase, then round 1."""
    work = state
    figures = state.pack.figures
    players = [f for f in work.fighters.values() if f.player and f.standing]
    lo, hi = figures.initiative_call
    n, sides = figures.initiative_roll
    d = die(sides)

    def start(w: LodState, calls: dict[str, int], value: int) -> Step:
        order, boosted = initiative_order(w, calls, value)
        return emit([InitiativeRolled(tuple(calls.items()), value, boosted, order),
                     PhaseStarted(1, "paradigm"), PhaseStarted(1, "action")],
                    lambda _w: Done(None))

    def rolled(w: LodState, calls: dict[str, int]) -> Step:
        return roll(f"GM's {n}d{sides}", d.repeat_sum(n),
                    lambda w2, v: start(w2, calls, int(v)), (d,) * n, sum)

    if not players:
        return start(work, {}, 0)
    if state.rulings["LOD-8"] == "call-one":
        return rolled(work, {p.id: lo for p in players})

    def ask(w: LodState, i: int, calls: dict[str, int]) -> Step:
        if i == len(players):
            return rolled(w, calls)
        p = players[i]
        return decide(p.side, f"initiative call for {p.id}", range(lo, hi + 1),
                      lambda w2, c: ask(w2, i + 1, {**calls, p.id: int(c)}), unit=p.id)

    return ask(work, 0, {})


# --------------------------------------------------------------------------------------------
# The Effect phase


def _poison_events(w: LodState, f: Fighter) -> list[Any]:
    amount = max(1, f.max_hp // w.pack.figures.poison_divisor)
    if w.rulings["LOD-17"] == "shell-first":
        a = absorb(f.shell, f.hp, amount)
    else:
        a = absorb(0, f.hp, amount)
        a = Absorbed(0, a.to_hp, f.shell, a.hp, False, a.downed)
    out: list[Any] = [Damaged(f.id, "poison", a.to_shell, a.to_hp, a.shell, a.hp, a.broken)]
    if a.downed:
        out.append(HeldOn(f.id, False, "poison") if "too-stupid-to-die" in f.passives
                   else Downed(f.id, False, "poison"))
    return out


def effect_phase(state: LodState) -> Step:
    """Poison, then a Boar Rider at 0 HP falls, then advancing; the Paradigm phase; the end."""
    r = state.round

    def poison(w: LodState, i: int) -> Step:
        if i == len(w.order):
            return falls(w)
        f = w.fighters[w.order[i]]
        if not f.standing or "poisoned" not in f.statuses or f.hp == 0:
            return poison(w, i + 1)
        return emit(_poison_events(w, f), lambda w2: poison(w2, i + 1))

    def falls(w: LodState) -> Step:
        out = [Downed(f.id, f.held_knocked_out, "") for f in w.fighters.values()
               if f.standing and f.hp == 0 and "too-stupid-to-die" in f.passives]
        return emit(out, advance)

    def advance(w: LodState) -> Step:
        for side in melee.needs_advance(w.rows):
            others = [s.name for s in w.rows.sides if s.name != side and w.standing(s.name)]
            if not others:
                continue

            def chosen(w2: LodState, yes: bool, who: str = others[0], on: str = side) -> Step:
                if not yes:
                    return end(w2)
                return emit([Advanced(who, on)], advance)

            return decide(others[0], f"advance on {side}", (True, False), chosen,
                          on=side)
        return end(w)

    def end(w: LodState) -> Step:
        return emit([PhaseStarted(r, "paradigm"), RoundEnded(r)], lambda _w: Done(None))

    return emit([PhaseStarted(r, "effect")], lambda w: poison(w, 0))


# --------------------------------------------------------------------------------------------
# What happens next


def pending(state: LodState) -> Pending:
    """What happens next in the battle."""
    fin = finished(state)
    if fin is not None:
        return fin
    if state.phase == "setup":
        if state.first_strike is not None and state.standing(state.first_strike):
            return Automatic("first strike", _phase(state, 0, "first-strike"))
        return Automatic("initiative", initiative(state))
    if state.queue and not can_act(state, state.fighters[state.queue[0].unit]):
        # A character that may not act (LOD-21 idle) passes its turn automatically.
        return Automatic(f"{state.queue[0].unit} passes", _pass(state))
    if state.queue:
        f = state.fighters[state.queue[0].unit]
        extra = " (held turn)" if state.queue[0].extra else ""
        return ChooseAction(f.side, legal_actions(state, f.id),
                            f"{f.id}'s turn{extra}: {state.ap} AP")
    if state.phase == "first-strike":
        return Automatic("initiative", initiative(state))
    if state.phase == "action":
        return Automatic(f"effect phase of round {state.round}", effect_phase(state))
    if state.round >= state.max_rounds:
        return Finished(None, f"the round limit ({state.max_rounds}) was reached")
    return Automatic(f"round {state.round + 1}", _phase(state, state.round + 1, "action"))


def _phase(state: LodState, r: int, phase: str) -> Step:
    return emit([PhaseStarted(r, phase)], lambda _w: Done(None))


def _pass(state: LodState) -> Step:
    unit = state.queue[0].unit
    return emit([TurnEnded(unit)], lambda _w: Done(None))

