"""Questions a game master asks during a fight, answered through the game's declared hooks:
the map (as text or SVG), sight between two units, the odds of an action, the units.

A game without a map (no sight capability) has no picture and no sight: the answers say so in
one sentence instead of failing. Every function reads the battle; none changes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tactica.battlefield.base import Battlefield, SightReport
from tactica.engine.battle import Battle
from tactica.engine.errors import TacticaError
from tactica.engine.maps import to_svg
from tactica.engine.odds import OddsReport, outcome_report
from tactica.engine.ruleset import Capability, OddsValue, UnitStatus, odds_hooks, sight_hooks
from tactica.presentation.render.svg import side_colours

__all__ = [
    "has_map",
    "no_map_sentence",
    "odds_cases",
    "odds_of",
    "picture_of",
    "side_colours_of",
    "sight_of",
    "svg_of",
    "unit_ids",
    "units_shown",
]


def _battlefield(battle: Battle[Any]) -> Battlefield | None:
    if not battle.ruleset.meta.has(Capability.SIGHT):
        return None
    return sight_hooks(battle.ruleset).battlefield(battle.state)


def has_map(battle: Battle[Any]) -> bool:
    """True if the fight has a battlefield to show (the game declares sight and this scenario
    has a map)."""
    return _battlefield(battle) is not None


def no_map_sentence(battle: Battle[Any]) -> str:
    """Why there is no map or sight in this fight."""
    meta = battle.ruleset.meta
    if meta.battlefield is None:
        return (f"this {meta.title} fight is played without a map: there is no map and no "
                "sight to show")
    return f"{meta.title} does not show its battlefield during a fight"


def picture_of(battle: Battle[Any]) -> str:
    """The battlefield as text (``""`` for a game without a map)."""
    field = _battlefield(battle)
    return "" if field is None else field.preview()


def side_colours_of(battle: Battle[Any]) -> dict[str, str]:
    """The one colour of every side of the fight (the game's order of its sides, then any
    side only a unit names): the map, the page's chips and its tokens all use it."""
    rs, state = battle.ruleset, battle.state
    sides = [*rs.sides_of(state), *(u.side for u in rs.units(state))]
    return side_colours(sides)


def svg_of(battle: Battle[Any], sight: SightReport | None = None) -> str:
    """The battlefield as SVG, with the evidence of ``sight`` (``""`` without a map), its
    sides in the fight's colours (:func:`side_colours_of`)."""
    field = _battlefield(battle)
    if field is None:
        return ""
    return to_svg(field, sight=sight, colours=side_colours_of(battle))


def units_shown(battle: Battle[Any]) -> tuple[UnitStatus, ...]:
    """Every unit as people see it: its details, with every figure the game tells (its text
    part's optional ``figures``: weapons, armor, AP, hit points with their maximum) in place
    of the details they name and after the others."""
    units = battle.ruleset.units(battle.state)
    ruleset = battle.ruleset
    hook = ruleset.text.figures
    if hook is None:
        return units
    try:
        figures = hook(battle.state)
    except TacticaError:
        return units
    return tuple(replace(u, details={**u.details, **figures.get(u.id, {})}) for u in units)


def unit_ids(units: Sequence[UnitStatus]) -> list[str]:
    """The ids, in scenario order."""
    return [u.id for u in units]


def _resolve_name(name: str, units: Sequence[UnitStatus]) -> str:
    """A unit id typed in any case (``rook`` is ``Rook``); other names pass unchanged."""
    for u in units:
        if u.id == name:
            return u.id
    folded = [u.id for u in units if u.id.lower() == name.lower()]
    return folded[0] if len(folded) == 1 else name


def sight_of(battle: Battle[Any], source: str, target: str) -> SightReport:
    """Sight and cover between two units (or places) now; a TacticaError says why not
    (no map in this game, an unknown name)."""
    if not has_map(battle):
        raise TacticaError(no_map_sentence(battle))
    units = battle.ruleset.units(battle.state)
    a, b = _resolve_name(source, units), _resolve_name(target, units)
    return sight_hooks(battle.ruleset).sight_report(battle.state, a, b)


def odds_of(battle: Battle[Any], action: Any, **options: OddsValue) -> OddsReport:
    """The exact odds of ``action`` now (with the game's odds ``options``): the game's own
    report, or every outcome."""
    rs, state = battle.ruleset, battle.state
    if rs.meta.has(Capability.ODDS):
        return odds_hooks(rs).odds(state, action, **options)
    return outcome_report(rs, state, action)


def odds_cases(battle: Battle[Any], action: Any) -> list[tuple[str, OddsReport]]:
    """The odds of ``action`` in each case the target may choose during it (the game's odds
    flags marked ``case``: an evasion), each with the flag's words; ``[]`` when the game has
    none or the action is not one they apply to."""
    rs = battle.ruleset
    if not rs.meta.has(Capability.ODDS):
        return []
    out = []
    for option in rs.meta.odds_options:
        if not option.case or option.takes_value:
            continue
        try:
            out.append((option.help, odds_of(battle, action, **{option.name: True})))
        except TacticaError:
            continue
    return out
