"""Results that repeat exactly at different ranges, and why.

Every range of ``tactica versus`` and of a matchup sweep plays the same seeded dice (common
random numbers: the ranges then differ only where the rules make them differ). Where the
range changes nothing the dice meet (both weapons stay in the same range band, or the troopers
walk into the same bands before anybody shoots), the very same battles are played and the
figures repeat to the last battle. That is a finding, not an accident, and the output says so:
:func:`same_note` writes the sentence, with the proof where there is one (every attack
between the two sides has the same exact odds at both ranges).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import Ruleset

__all__ = ["odds_signature", "same_note"]


def odds_signature(ruleset: Ruleset, pairs: Sequence[tuple[str, str]], rng: int | None, *,
                   rulings: Mapping[str, str] | None = None,
                   content: Sequence[Path] = ()) -> dict[tuple[str, str, str], Any] | None:
    """The exact odds of every attack of each pair's first profile on its second, placed
    ``rng`` apart in the open by the game's own matchup geometry, by (attacker, target,
    weapon); an attack that cannot be made there is left out (``None``: the game cannot
    say)."""
    from tactica.analysis.matrix import matchup_matrix

    found: dict[tuple[str, str, str], Any] = {}
    for a, t in dict.fromkeys(pairs):
        try:
            m = matchup_matrix(ruleset, [a], [t], ranges=[rng], covers=[0],
                               rulings=dict(rulings or {}), content=content)
        except TacticaError as exc:
            if str(exc).startswith("no attacker has any action"):
                continue  # nothing reaches at this range
            return None
        for c in m.cells:
            if c.p_hit is not None:
                found[(a, t, c.means)] = (c.p_hit, c.expected_damage, c.p_out_of_action)
    return found


def same_note(what: str, earlier: str, *, odds: tuple[Mapping[Any, Any],
                                                      Mapping[Any, Any]] | None = None,
              same_lengths: bool = True, rounds: tuple[float, float] = (0.0, 0.0)) -> str:
    """The sentence for results at ``what`` that repeat those at ``earlier`` exactly
    (``odds``: :func:`odds_signature` there and here; ``same_lengths``: the battles lasted as
    long too, mean ``rounds`` there and here)."""
    head = (f"{what} gave exactly the wins and draws of {earlier}: every range plays the same "
            "seeded dice (so that ranges compare fairly)")
    if not same_lengths:
        head += (": the totals repeat though not every battle went the same way (mean rounds "
                 f"{rounds[0]:.3f} there, {rounds[1]:.3f} here)")
    else:
        head += ", and the range changed no battle's result"
    if odds is None:
        return head
    there, here = odds
    common = [k for k in here if k in there]
    alone = sorted({k[2] for k in set(here) ^ set(there)})
    if common and all(here[k] == there[k] for k in common):
        text = (head + ": every attack possible at both ranges has the same exact odds at "
                "both (the same range bands)")
        if alone:
            text += (f"; what reaches at only one of them ({', '.join(alone)}) changed no "
                     "total: a unit closes in, or holds its fire, before it matters")
        return text + ("" if alone else ", so the fight is the same fight")
    return (head + ": the odds at the two starting distances differ, so the two sides closed "
            "to the same range bands before those odds decided anything")
