"""Builders for Arc tests: scenarios from a few lines, attacks with scripted dice, battles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tactica.engine.battle import Battle
from tactica.engine.chance import Roll, Trace, run_scripted
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.rulesets.arc import ARC
from tactica.rulesets.arc.attack import attack_process
from tactica.rulesets.arc.records import Attack
from tactica.rulesets.arc.state import ArcState
from tactica.testing.both import ReplayMirror, battle_for, set_up

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "arc"

#: The source's worked-example rifle.
RIFLE = {"name": "rifle", "damage": "3d6", "type": "ballistic", "spread": 4, "rof": 3,
         "accuracy": [0, 0]}
#: The source's worked-example SMG (2d4, spread 3, rof 8).
SMG = {"name": "smg", "damage": "2d4", "spread": 3, "rof": 8, "accuracy": [-2, 2]}


def gunner(side: str, *, guns: int = 16, evade: int = 12, health: int = 18,
           weapons: list[Any] | None = None, speed: int = 5, **extra: Any) -> dict[str, Any]:
    """A unit given by its skills: Guns 16, Evade 12, 18 health, speed 5, the rifle."""
    return {"side": side, "skills": {"guns": guns, "evade": evade}, "health": health,
            "speed": speed, "weapons": weapons if weapons is not None else [RIFLE], **extra}


def make(units: dict[str, dict[str, Any]], *, rulings: dict[str, str] | None = None,
         **extra: Any) -> Scenario:
    """A scenario from its units (and any other field)."""
    data: dict[str, Any] = {"game": "arc", "units": units, **extra}
    if rulings:
        data["rulings"] = rulings
    return scenario_from_mapping(data, source=str(ROOT / "test.yaml"), base_dir=ROOT)


def duel(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None, *,
         rulings: dict[str, str] | None = None, **extra: Any) -> Scenario:
    """Foo (red) against Bar (blue)."""
    return make({"Foo": a or gunner("red"), "Bar": b or gunner("blue", guns=12)},
                rulings=rulings, **extra)


def example(name: str) -> Scenario:
    """An example scenario of ``examples/arc``."""
    return load_scenario(EXAMPLES / name)


def shoot(state: ArcState, attacker: str, target: str, rolls: list[Any], *, aim: int = 0,
          evade: bool | None = False, weapon: str | None = None,
          decisions: list[Any] | None = None) -> Trace[Any]:
    """One attack with scripted dice (values, or lists of faces)."""
    w = weapon or state.fighters[attacker].hand
    return run_scripted(attack_process(state, Attack(attacker, target, w, aim), evade=evade),
                        rolls=rolls, decisions=decisions or [])


def of_type(events: list[Any], cls: type) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, cls)]


class LabelledDice:
    """Dice answered by order; records each request (label and number of physical dice)."""

    def __init__(self, *values: Any) -> None:
        self.values = list(values)
        self.asked: list[tuple[str, int]] = []

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        self.asked.append((request.label, len(request.dice)))
        if not self.values:
            raise AssertionError(f"no scripted value for {request.label!r}")
        return request.answer(self.values.pop(0))


def started(sc: Scenario, initiative: list[int]) -> Battle[Any]:
    """A battle past initiative: ``initiative`` is each unit's d20 in scenario order (each
    followed by its die magazines, if any)."""
    battle = battle_for(ARC, sc.new_state(), ReplayMirror(sc))
    dice = LabelledDice(*initiative)
    while battle.state.phase == "setup":
        battle.advance(dice=dice)
    set_up(battle)  # the test's situation comes next
    return battle


def rng(seed: int = 0) -> np.random.Generator:
    """A seeded generator."""
    return np.random.default_rng(seed)
