"""Small builders for Nebulia Operations tests: a scenario from an ASCII grid, a battle at the
point where an operator may attack, and scripted attacks.

A test then reads like the rulebook example it checks::

    battle = attack_ready('''
        A......
        ....#..
        .....B.
    ''', A=op("red", accuracy=6), B=op("blue", armor=3))
    events = attack(battle, "A", "B", to_hit=[3], armor=[4])
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.engine.battle import Battle, ScriptedDice
from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.rulesets.nebulia.kernel import NebuliaMirror
from tactica.rulesets.nebulia.records import Attack, Attacked, Move
from tactica.rulesets.nebulia.rules import NebState
from tactica.testing.both import battle_for, set_up


def rifle(accuracy: int = 6, *, dice: int = 1, damage: int = 1, name: str = "rifle",
          melee: bool = False) -> dict[str, Any]:
    """An inline weapon."""
    return {"name": name, "range": "melee" if melee else "ranged", "accuracy": accuracy,
            "dice": dice, "damage": damage}


def op(side: str, *, defense: int = 2, armor: int = 3, move: int = 3,
       weapons: Sequence[Mapping[str, Any] | str] | None = None, accuracy: int = 6,
       dice: int = 1, damage: int = 1, melee: bool = False) -> dict[str, Any]:
    """An operator with inline statistics (one weapon built from ``accuracy``/``dice``/...)."""
    if weapons is None:
        weapons = [rifle(accuracy, dice=dice, damage=damage, melee=melee,
                         name="knife" if melee else "rifle")]
    return {"side": side, "defense": defense, "armor": armor, "move": move,
            "weapons": list(weapons)}


def scenario(tiles: str, units: Mapping[str, Mapping[str, Any]], *,
             rulings: Mapping[str, str] | None = None, **extra: Any) -> Scenario:
    """A validated scenario from map rows and units."""
    data: dict[str, Any] = {
        "game": "nebulia-operations",
        "map": {"kind": "grid", "tiles": textwrap.dedent(tiles).strip("\n")},
        "units": {k: dict(v) for k, v in units.items()},
    }
    if rulings:
        data["rulings"] = dict(rulings)
    data.update(extra)
    return scenario_from_mapping(data, source="test.yaml", base_dir=Path("."))


def battle_of(sc: Scenario) -> Battle:
    """A new battle of the scenario: on the kernel engine (tactica.testing.both), each of its
    steps is played again on the compiled kernel and compared."""
    return battle_for(sc.ruleset, sc.new_state(), NebuliaMirror())


def state_of(battle: Battle) -> NebState:
    state = battle.state
    assert isinstance(state, NebState)
    return state


def start_round(battle: Battle, *rolls: Any) -> list[Any]:
    """Run the automatic start of the next round (``rolls`` only for NEB-11 ``random``)."""
    return battle.advance(dice=ScriptedDice(rolls))


def attack_ready(tiles: str, *, rulings: Mapping[str, str] | None = None,
                 active: str = "A", **units: Mapping[str, Any]) -> Battle:
    """A battle in round 1 where ``active`` has been activated (and stayed where it is), so
    that its attacks are the legal actions. ``active`` must be of the first side."""
    battle = battle_of(scenario(tiles, units, rulings=rulings))
    start_round(battle)
    here = state_of(battle).ops[active].pos
    battle.apply(Move(active, here), dice=ScriptedDice([]))
    set_up(battle)  # the test's situation comes next
    return battle


def attack(battle: Battle, unit: str, target: str, *, to_hit: Sequence[int] = (),
           armor: Sequence[int] | None = None, weapon: str | None = None) -> list[Any]:
    """Make an attack with scripted faces: ``to_hit`` faces, then ``armor`` faces (if any)."""
    state = state_of(battle)
    name = weapon or state.ops[unit].weapons[0].name
    rolls: list[Any] = [list(to_hit)]
    if armor is not None:
        rolls.append(list(armor))
    dice = ScriptedDice(rolls)
    events = battle.apply(Attack(unit, name, target), dice=dice)
    assert dice.remaining == [], f"scripted rolls left over: {dice.remaining}"
    return events


def attacked(events: Sequence[Any]) -> Attacked:
    """The Attacked event among ``events``."""
    found = [e for e in events if isinstance(e, Attacked)]
    assert len(found) == 1, events
    return found[0]
