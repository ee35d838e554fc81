"""Readings that turn a rule around: where a reading makes cover raise the damage a target
takes (cover is meant to protect the side that takes it), the designer's commands say so in
words.

:func:`cover_reversal` asks the game's own matchups (``tactica matrix``'s exact odds) for every
attacker's weapon on every distinct target, in the open and in cover, under two sets of
rulings; a reading *reverses* cover where cover lowers (or leaves) the expected damage under
the baseline and raises it under the reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import Capability, Ruleset

__all__ = ["cover_effects", "cover_reversal"]


def cover_effects(ruleset: Ruleset, rulings: Mapping[str, str]
                  ) -> dict[tuple[str, str, str], tuple[Any, ...]] | None:
    """Per (attacker, weapon, target) of the game's profiles at its default range: expected
    damage and P(out of action) in the open and in cover (``None``: the game has no
    matchups or no cover)."""
    from tactica.analysis.matrix import matchup_matrix, matchup_targets
    from tactica.engine.ruleset import matchup_hooks

    if not ruleset.meta.has(Capability.MATCHUP):
        return None
    try:
        hooks = matchup_hooks(ruleset)
        attackers = list(hooks.profiles([]))
        targets = list(matchup_targets(ruleset, []))
        m = matchup_matrix(ruleset, attackers, targets, covers=[0, 1], rulings=dict(rulings))
    except TacticaError:
        return None
    cells: dict[tuple[str, str, str], dict[int, Any]] = {}
    for c in m.cells:
        if c.cover is None or c.expected_damage is None or (c.cover and c.in_cover is False):
            continue
        cells.setdefault((c.attacker, c.means, c.target), {})[c.cover] = (
            c.expected_damage, c.p_out_of_action)
    out = {k: (v[0][0], v[1][0], v[0][1], v[1][1]) for k, v in cells.items()
           if 0 in v and 1 in v}
    return out or None


def cover_reversal(ruleset: Ruleset, baseline: Mapping[str, str], label: str,
                   reading: Mapping[str, str],
                   cache: dict[Any, Any] | None = None) -> str | None:
    """One sentence when the reading ``label`` (rulings ``reading``) makes cover raise the
    damage a target takes where ``baseline``'s cover did not; ``None`` otherwise."""
    cache = {} if cache is None else cache
    key = tuple(sorted(baseline.items()))
    if key not in cache:
        cache[key] = cover_effects(ruleset, baseline)
    before = cache[key]
    if not before:  # no effect of cover to reverse: the reading is not worked out
        return None
    after = cover_effects(ruleset, reading)
    if not after:
        return None
    turned = [(k, after[k]) for k in after if k in before
              and before[k][1] <= before[k][0] and after[k][1] > after[k][0]]
    if not turned:
        return None
    (attacker, means, target), (open_d, cover_d, open_p, cover_p) = max(
        turned, key=lambda kv: kv[1][1] - kv[1][0])
    weapon = means if means == attacker else f"{attacker}'s {means}"
    odds = (f"{weapon} on {target}: expected damage {_f(open_d)} in the open, {_f(cover_d)} "
            "in cover")
    if open_p is not None and cover_p is not None:
        odds += f"; P(out of action) {_p(open_p)} to {_p(cover_p)}"
    more = f", and {len(turned) - 1} more matchup(s)" if len(turned) > 1 else ""
    return (f"{label} reverses cover: under it cover raises the damage a target takes "
            f"({odds}{more}), so the rule works against the side it is meant to protect")


def _f(x: Fraction) -> str:
    return f"{float(x):.2f}"


def _p(x: Fraction) -> str:
    return f"{float(x) * 100:.1f}%"


def open_and_cover(scenario: Any, attacker: str, target: str, weapon: str | None,
                   distance: int | None) -> list[tuple[str, Any]] | None:
    """The distributions of one attack set up by the game's own matchups at ``distance``, in
    the open and in cover (the first distribution of each odds report), to draw on one plot
    as AnyDice shows several outputs; ``None`` where the game cannot set it up."""
    from tactica.analysis.matrix import scenario_profiles
    from tactica.engine.errors import IllegalActionError
    from tactica.engine.ruleset import matchup_hooks, odds_hooks
    from tactica.engine.rulings import Rulings
    from tactica.engine.scenario import scenario_from_mapping

    ruleset = scenario.ruleset
    if not ruleset.meta.has(Capability.MATCHUP):
        return None
    units = scenario_profiles(scenario)
    hooks, odds = matchup_hooks(ruleset), odds_hooks(ruleset)
    out: list[tuple[str, Any]] = []
    try:
        in_force = Rulings(ruleset.meta.rulings, dict(scenario.rulings), where="odds")
        for cover, name in ((0, "in the open"), (1, "in cover")):
            m = hooks.matchup((units[attacker], units[target]), range=distance, cover=cover,
                              rulings=in_force, content=[])
            if cover and not m.cover:
                return None
            sc = scenario_from_mapping(m.scenario, source="odds overlay",
                                       base_dir=scenario.base_dir)
            state = sc.new_state()
            action = odds.odds_action(state, m.attacker, (m.target,), weapon)
            report = odds.odds(state, action)
            if not report.distributions:
                return None
            out.append((name, next(iter(report.distributions.values()))))
    except (TacticaError, IllegalActionError, KeyError):
        return None
    return out
