"""Builders for Last Odyssey tests: scenarios from a few lines, dice by label, turns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import yaml

from tactica.engine.battle import Battle
from tactica.engine.chance import Roll
from tactica.engine.policies import GreedyPolicy, ScriptedPolicy
from tactica.engine.ruleset import Automatic, ChooseAction, Finished
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.rulesets.last_odyssey import LAST_ODYSSEY
from tactica.rulesets.last_odyssey.records import EndTurn
from tactica.rulesets.last_odyssey.state import LodState
from tactica.testing.both import ReplayMirror, battle_for

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "last-odyssey"

STATS = dict(hp=10, shell=0, mp=20, init=1, patk=0, matk=0, pdef=0, mdef=0, eva=0, res=0,
             pacc=0, macc=0, sacc=0)


def enemy(name: str = "Dummy", *, element: str = "colorless",
          abilities: tuple[str, ...] = ("fists",), **stats: int) -> dict[str, Any]:
    """A test enemy template: every statistic 0 unless given (HP 10, MP 20, Initiative 1)."""
    return {"name": name, "kind": "test", "rank": "normal", "element": element,
            **STATS, **stats, "abilities": list(abilities)}


def _rows(text: str) -> dict[str, list[str]]:
    front, _, back = text.partition("/")

    def split(part: str) -> list[str]:
        return [n.strip() for n in part.split(",") if n.strip()]

    return {"front": split(front), "back": split(back)}


def make(tmp: Path | None, units: dict[str, dict[str, Any]], sides: dict[str, str], *,
         pack: dict[str, Any] | None = None, rulings: dict[str, str] | None = None,
         **extra: Any) -> Scenario:
    """A scenario: ``sides`` maps each side to ``"front, names / back, names"``; ``pack`` is
    written to ``tmp`` as a content pack (enemies, abilities, ...)."""
    data: dict[str, Any] = {
        "game": "last-odyssey",
        "map": {"kind": "rows", "sides": {s: _rows(t) for s, t in sides.items()}},
        "units": units,
        **extra,
    }
    if rulings:
        data["rulings"] = rulings
    base = tmp or ROOT
    if pack is not None:
        assert tmp is not None, "a pack needs a folder"
        (tmp / "pack.yaml").write_text(yaml.safe_dump(pack), encoding="utf-8")
        data["content"] = ["pack.yaml"]
    return scenario_from_mapping(data, source=str(base / "test.yaml"), base_dir=base)


def example(name: str) -> Scenario:
    """An example scenario of ``examples/last-odyssey``."""
    return load_scenario(EXAMPLES / name)


class Dice:
    """Dice by order; the GM's initiative 2d4 answers ``gm`` unless scripted."""

    def __init__(self, *values: Any, gm: int = 5) -> None:
        self.values = list(values)
        self.gm = gm
        self.labels: list[str] = []

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        self.labels.append(request.label)
        if request.label.startswith("GM's"):
            return self.gm, None
        if not self.values:
            raise AssertionError(f"no scripted value for {request.label!r}")
        value = self.values.pop(0)
        assert request.dist.p(value) > 0, (request.label, value)
        return value, None


def policies(state: LodState, *choices: Any) -> dict[str, Any]:
    """Scripted choices for decisions inside actions (any side), then greedy."""
    shared = ScriptedPolicy(list(choices), fallback=GreedyPolicy(LAST_ODYSSEY))
    return {s: shared for s in state.sides}


def battle(sc: Scenario) -> Battle:
    """A fresh battle of ``sc``: on the kernel engine (tactica.testing.both), the kernel
    replays it after each step and is compared."""
    return battle_for(sc.ruleset, sc.new_state(), ReplayMirror(sc))


def to_turn(b: Battle, unit: str, dice: Dice | None = None, max_steps: int = 200) -> Battle:
    """Run automatic steps and end other characters' turns until it is ``unit``'s turn."""
    dice = dice or Dice()
    rng = np.random.default_rng(0)
    for _ in range(max_steps):
        p = b.pending
        if isinstance(p, Finished):
            raise AssertionError(f"the battle ended before {unit}'s turn: {p.reason}")
        if isinstance(p, Automatic):
            b.advance(dice=dice, policies=policies(b.state), rng=rng)
        elif isinstance(p, ChooseAction):
            active = b.state.active
            if active == unit:
                return b
            b.apply(EndTurn(str(active)), dice=dice)
    raise AssertionError(f"no turn for {unit} within {max_steps} steps")


def next_turn(b: Battle, unit: str, dice: Dice | None = None) -> Battle:
    """End the current turn if it is ``unit``'s, then run to ``unit``'s next turn."""
    if b.state.active == unit:
        b.apply(EndTurn(unit), dice=dice or Dice())
    return to_turn(b, unit, dice)


def act(b: Battle, action: Any, *dice: Any, choices: tuple[Any, ...] = ()) -> list[Any]:
    """Take ``action`` with scripted dice and decisions; returns the rule events."""
    d = Dice(*dice)
    events = b.apply(action, dice=d, policies=policies(b.state, *choices),
                     rng=np.random.default_rng(0))
    assert d.values == [], f"dice left over: {d.values}"
    return events


def of(events: list[Any], kind: type) -> list[Any]:
    """The events of one kind."""
    return [e for e in events if isinstance(e, kind)]
