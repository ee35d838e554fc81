"""A game declared as a Game: its capabilities follow from its parts, each part is the hooks
object the core asks for, and a game travels to worker processes by name."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import pytest

import tactica
from tactica.engine.errors import CapabilityError
from tactica.engine.game import Game, record_text
from tactica.engine.ruleset import (
    Capability,
    example_scenarios,
    get_ruleset,
    kernel_hooks,
    odds_hooks,
    sight_hooks,
    valuation_hooks,
)
from tactica.rulesets.nebulia.records import Attack

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_capabilities_follow_from_the_parts_set() -> None:
    neb = get_ruleset("nebulia")
    assert isinstance(neb, Game) and neb.meta.provides == frozenset(Capability)
    without = replace(neb, kernel=None)
    assert without.meta.provides == frozenset(Capability) - {Capability.KERNEL}
    assert kernel_hooks(without) is None and kernel_hooks(neb) is neb.kernel
    assert odds_hooks(neb) is neb.odds and valuation_hooks(neb) is neb.valuation
    assert example_scenarios(neb) and all(p.parent.name == "examples"
                                          for p in example_scenarios(neb))


def test_a_missing_part_is_refused_by_name() -> None:
    game = get_ruleset("nebulia")
    bare = Game(meta=game.meta, module=game.module, setup=game.setup, rules=game.rules,
                text=game.text)
    assert bare.meta.provides == frozenset()  # the core parts are no capability
    with pytest.raises(CapabilityError, match="has no odds"):
        odds_hooks(bare)
    with pytest.raises(CapabilityError, match="sight"):
        sight_hooks(bare)
    assert valuation_hooks(bare) is None


def test_a_scenario_and_its_game_pickle_by_name() -> None:
    sc = tactica.load(EXAMPLES / "nebulia" / "duel.yaml")
    again = pickle.loads(pickle.dumps(sc))
    assert again.ruleset is sc.ruleset


def test_the_odds_action_defaults_to_the_named_choice() -> None:
    sc = tactica.load(EXAMPLES / "nebulia" / "duel.yaml")
    hooks = odds_hooks(sc.ruleset)
    state = sc.new_state()
    choice = hooks.choices(state, "A")[0]
    assert hooks.odds_action(state, "A", choice.targets, choice.means) == choice.action
    assert isinstance(choice.action, Attack)


def test_without_a_sentence_a_record_reads_as_its_fields() -> None:
    assert record_text(None, Attack("A", "rifle", "B")) == \
        "neb.attack: unit A, weapon rifle, target B"
