"""Small builders for Unhex tests: scenarios on the nightclub (or any zone map), a battle at
the start of a team turn, and actions with scripted dice and decisions.

A test then reads like the rule it checks::

    b = ready({"A": pc("Entrance", items=["pistol"]), "B": npc("Dance Floor")})
    events = act(b, Attack("A", "pistol", "B"), rolls=[(3, 4)],
                 decisions={"npcs": [Reaction("none")], "pcs": [...]})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.engine.battle import Battle, ScriptedDice
from tactica.engine.policies import ScriptedPolicy
from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.engine.validation import load_yaml
from tactica.rulesets.unhex.records import InitiativeWon, RoundStarted, TeamOrder
from tactica.rulesets.unhex.state import UnhexState
from tactica.testing.both import ReplayMirror, battle_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "unhex"
CLUB_MAP: dict[str, Any] = load_yaml(EXAMPLES / "nightclub.yaml")
NIGHTCLUB_FIGHT = EXAMPLES / "nightclub-fight.yaml"


def unit(side: str, at: str, *, level: int = 50, max_level: int | None = None,
         items: Sequence[str] = ("knife",), hold: Sequence[str] | None = None,
         good: Sequence[str] = ()) -> dict[str, Any]:
    """A character (holding its first items unless ``hold`` says otherwise)."""
    out: dict[str, Any] = {"side": side, "at": at, "level": level, "items": list(items),
                           "hold": list(items[:1] if hold is None else hold),
                           "good": list(good)}
    if max_level is not None:
        out["max_level"] = max_level
    return out


def pc(at: str, **kw: Any) -> dict[str, Any]:
    """A PC (side ``pcs``)."""
    return unit("pcs", at, **kw)


def npc(at: str, **kw: Any) -> dict[str, Any]:
    """An NPC (side ``npcs``)."""
    return unit("npcs", at, **kw)


def scenario(units: Mapping[str, Mapping[str, Any]], *, zones: Mapping[str, Any] | None = None,
             rulings: Mapping[str, str] | None = None, pcs: Sequence[str] = ("pcs",),
             **extra: Any) -> Scenario:
    """A scenario on the nightclub (or ``zones``)."""
    data: dict[str, Any] = {"game": "unhex", "map": dict(zones or CLUB_MAP),
                            "units": {k: dict(v) for k, v in units.items()},
                            "pcs": list(pcs), **extra}
    if rulings:
        data["rulings"] = dict(rulings)
    return scenario_from_mapping(data, source="test.yaml")


def battle(units: Mapping[str, Mapping[str, Any]], **kw: Any) -> Battle:
    """A battle before its first round."""
    sc = scenario(units, **kw)
    return battle_for(sc.ruleset, sc.new_state(), ReplayMirror(sc))


def start_round(b: Battle, order: Sequence[str], *, actions: Mapping[str, int] | None = None,
                round: int = 1) -> Battle:
    """The battle at the start of a round's first team turn (no initiative rolled)."""
    state: UnhexState = b.state
    given = {c.id: 1 for c in state.fighters()}
    given.update(actions or {})
    for e in (RoundStarted(round, tuple(given.items())), InitiativeWon(order[0], "test"),
              TeamOrder(tuple(order))):
        b.ruleset.apply_event(state, e)
    return Battle(b.ruleset, state, log=b.log)


def ready(units: Mapping[str, Mapping[str, Any]], order: Sequence[str] = ("pcs", "npcs"),
          *, actions: Mapping[str, int] | None = None, **kw: Any) -> Battle:
    """A battle at the start of round 1, ``order[0]``'s turn."""
    return start_round(battle(units, **kw), order, actions=actions)


def policies(decisions: Mapping[str, Sequence[Any]] | None, sides: Sequence[str]) \
        -> dict[str, ScriptedPolicy]:
    """Scripted decisions per side (an error if a side is asked for more)."""
    decisions = decisions or {}
    return {s: ScriptedPolicy(list(decisions.get(s, ()))) for s in sides}


def act(b: Battle, action: Any, *, rolls: Sequence[Any] = (),
        decisions: Mapping[str, Sequence[Any]] | None = None) -> list[Any]:
    """Take ``action`` with scripted dice (pairs are the two dice) and decisions."""
    dice = ScriptedDice(rolls)
    events = b.apply(action, dice=dice, policies=policies(decisions, b.state.sides))
    assert dice.remaining == [], f"rolls left over: {dice.remaining}"
    return events


def advance(b: Battle, *, rolls: Sequence[Any] = (),
            decisions: Mapping[str, Sequence[Any]] | None = None) -> list[Any]:
    """Run the automatic step that comes next with scripted dice and decisions."""
    dice = ScriptedDice(rolls)
    events = b.advance(dice=dice, policies=policies(decisions, b.state.sides))
    assert dice.remaining == [], f"rolls left over: {dice.remaining}"
    return events


def of(events: Sequence[Any], kind: type) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, kind)]
