"""Small builders for Skirmishers tests: a scenario from rows of dots, a battle at the moment a
side acts, and actions taken with scripted dice and decisions.

A test then reads like the rulebook::

    b = ready('''
        A . . . . . B
         . . . . . . .
    ''', A=trooper("red"), B=trooper("blue", arc=60, bearing=180))
    events = take(b, Activate("A"), rolls=[[3, 4], [5, 2]], decisions=["B"])
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.engine.battle import Battle, ScriptedDice
from tactica.engine.chance import FirstOption
from tactica.engine.events import Event
from tactica.engine.policies import ScriptedPolicy
from tactica.engine.ruleset import ChooseAction
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.rulesets.skirmishers.state import SkiState, Soldier
from tactica.testing.both import ReplayMirror, battle_for, set_up

EXAMPLES = Path(__file__).parents[2] / "examples" / "skirmishers"


def example(name: str) -> Scenario:
    """A shipped example scenario."""
    return load_scenario(EXAMPLES / name)


def trooper(side: str, primary: str = "rifle", *, arc: int | None = None,
            bearing: float | None = None, toward: tuple[int, int] | None = None,
            **fields: Any) -> dict[str, Any]:
    """A trooper's scenario entry (``arc``: the width of an arc already established)."""
    out: dict[str, Any] = {"side": side, "primary": primary, **fields}
    if arc is not None:
        out["arc"] = {"width": arc, **({"bearing": bearing} if bearing is not None else {}),
                      **({"toward": list(toward)} if toward is not None else {})}
    return out


def scenario(ground: str, units: Mapping[str, Mapping[str, Any]], *,
             upper: Sequence[str] = (), features: Sequence[Mapping[str, Any]] = (),
             stairs: Sequence[Sequence[int]] = (), rulings: Mapping[str, str] | None = None,
             optional: Sequence[str] = (), first: str | None = "red", max_rounds: int = 4,
             buildings: Sequence[Mapping[str, Any]] = (), base_dir: Path = Path("."),
             **extra: Any) -> Scenario:
    """A validated scenario: rows of dots (troopers drawn by id), features, troopers."""
    levels: dict[str, str] = {"ground": textwrap.dedent(ground).strip("\n") + "\n"}
    names = ["first", "second", "third"]
    for i, text in enumerate(upper):
        levels[names[i]] = textwrap.dedent(text).strip("\n") + "\n"
    game_map: dict[str, Any] = {"kind": "dots", "levels": levels}
    if features:
        game_map["features"] = [dict(f) for f in features]
    if buildings:
        game_map["buildings"] = [dict(b) for b in buildings]
    if stairs:
        names_ = list(levels)
        game_map["stairs"] = [{"at": list(s), "levels": [names_[0], names_[-1]]}
                              for s in stairs]
    data: dict[str, Any] = {"game": "skirmishers", "map": game_map, "max_rounds": max_rounds,
                            "units": {k: dict(v) for k, v in units.items()}}
    if rulings:
        data["rulings"] = dict(rulings)
    if optional:
        data["optional"] = list(optional)
    if first is not None:
        data["first"] = first
    data.update(extra)
    return scenario_from_mapping(data, source="test.yaml", base_dir=base_dir)


def ready(ground: str, *, upper: Sequence[str] = (), features: Sequence[Mapping[str, Any]] = (),
          stairs: Sequence[Sequence[int]] = (), rulings: Mapping[str, str] | None = None,
          optional: Sequence[str] = (), first: str = "red", max_rounds: int = 4,
          buildings: Sequence[Mapping[str, Any]] = (),
          **units: Mapping[str, Any]) -> Battle[SkiState]:
    """A battle run up to the first side's first choice (its turn begun, nobody activated)."""
    sc = scenario(ground, units, upper=upper, features=features, stairs=stairs,
                  rulings=rulings, optional=optional, first=first, max_rounds=max_rounds,
                  buildings=buildings)
    b: Battle[SkiState] = battle_for(sc.ruleset, sc.new_state(), ReplayMirror(sc))
    while not isinstance(b.pending, ChooseAction):
        b.advance(dice=ScriptedDice([]))
    set_up(b)  # the test's situation comes next
    return b


def take(b: Battle[SkiState], action: Any, *, rolls: Sequence[Any] = (),
         decisions: Sequence[Any] = ()) -> list[Event]:
    """Take ``action`` with scripted dice (faces as lists) and decisions (for any side, in
    order; then the first option)."""
    policy = ScriptedPolicy(list(decisions), fallback=FirstOption())
    dice = ScriptedDice(list(rolls))
    events = b.apply(action, dice=dice, policies={s: policy for s in b.ruleset.sides_of(b.state)})
    assert dice.remaining == [], f"rolls left over: {dice.remaining}"
    return events


def advance(b: Battle[SkiState], *, rolls: Sequence[Any] = (),
            decisions: Sequence[Any] = ()) -> list[Event]:
    """Run the automatic step that comes next with scripted dice and decisions."""
    policy = ScriptedPolicy(list(decisions), fallback=FirstOption())
    dice = ScriptedDice(list(rolls))
    events = b.advance(dice=dice, policies={s: policy for s in b.ruleset.sides_of(b.state)})
    assert dice.remaining == [], f"rolls left over: {dice.remaining}"
    return events


def soldier(b: Battle[SkiState], uid: str) -> Soldier:
    """A trooper as it stands."""
    return b.state.troopers[uid]


def of(events: Sequence[Event], kind: type) -> list[Any]:
    """The events of one kind."""
    return [e for e in events if isinstance(e, kind)]
