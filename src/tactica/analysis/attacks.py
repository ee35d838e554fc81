"""The odds of every attack in a position: one row per action a unit could take odds of."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactica.engine.errors import IllegalActionError, TacticaError
from tactica.engine.limits import MAX_ODDS_TABLE
from tactica.engine.ruleset import OddsValue, Ruleset, odds_hooks

__all__ = ["attack_rows"]


def attack_rows(ruleset: Ruleset, state: Any, attacker: str | None,
                options: Mapping[str, OddsValue], *, target: str | None = None,
                limit: int | None = MAX_ODDS_TABLE) -> list[dict[str, Any]]:
    """One row per action any unit (or ``attacker``) could take odds of (against ``target``
    when given), with its report. More than ``limit`` actions is a :class:`TacticaError`
    saying how to narrow the table, raised before any of them is worked out."""
    hooks = odds_hooks(ruleset)
    units = [attacker] if attacker else [u.id for u in ruleset.units(state) if u.in_action]
    choices = [choice for uid in units for choice in hooks.choices(state, uid)
               if target is None or target in choice.targets]
    if limit is not None and len(choices) > limit:
        raise TacticaError(
            f"odds --table: {len(choices)} attacks to work out, more than {limit} (each is an "
            "exact distribution); narrow the table with --attacker ID (one unit's attacks) "
            "or --target ID (the attacks on one unit)")
    rows = []
    for choice in choices:
        try:
            report = hooks.odds(state, choice.action, **options)
        except IllegalActionError:
            continue  # an option that does not apply to this action (no cover to defend)
        rows.append({"attacker": choice.unit, "weapon": choice.means,
                     "target": ",".join(choice.targets), **report.to_dict()})
    return rows
