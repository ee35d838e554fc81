"""Who decides: random, greedy on exact odds, scripted; each deterministic given its generator.

A policy answers every decision of its side: which action to take, and any decision inside an
action (a reaction, a die assignment). Policies look at the battle only through the ruleset's
hooks, so they work for every game:

* ``rank_actions(state, actions) -> list[float]`` (optional, preferred: one batch),
* ``action_value(state, action) -> float`` (optional),
* ``choose_decision(state, decision, rng)`` (optional) for decisions inside an action.

Without them a greedy policy falls back to the first option.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from tactica.battle import Battle, Policy
from tactica.chance import Decide
from tactica.errors import ScriptError, TacticaError

__all__ = [
    "POLICIES",
    "GreedyPolicy",
    "RandomPolicy",
    "ScriptedPolicy",
    "make_policy",
]


def _inner(battle: Battle, decision: Decide[Any], rng: np.random.Generator) -> Any | None:
    hook = getattr(battle.ruleset, "choose_decision", None)
    if hook is None:
        return None
    return hook(battle.state, decision, rng)


class RandomPolicy:
    """Uniformly random among the options (the ruleset may still steer inner decisions)."""

    name = "random"

    def choose(self, battle: Battle, decision: Decide[Any], rng: np.random.Generator) -> Any:
        return decision.options[int(rng.integers(len(decision.options)))]


class GreedyPolicy:
    """The option with the best value by the ruleset's exact odds; ties broken by ``rng``."""

    name = "greedy"

    def choose(self, battle: Battle, decision: Decide[Any], rng: np.random.Generator) -> Any:
        options = decision.options
        if decision.label != "action":
            inner = _inner(battle, decision, rng)
            if inner is not None:
                return inner
        rs = battle.ruleset
        rank = getattr(rs, "rank_actions", None)
        if rank is not None:
            values = list(rank(battle.state, options))
        else:
            value = getattr(rs, "action_value", None)
            if value is None:
                return options[0]
            values = [value(battle.state, o) for o in options]
        best = max(values)
        top = [o for o, v in zip(options, values, strict=True) if v >= best - 1e-12]
        return top[int(rng.integers(len(top)))] if len(top) > 1 else top[0]


class ScriptedPolicy:
    """Choices given in advance, as options or as predicates; then a fallback (or an error)."""

    name = "scripted"

    def __init__(self, choices: Iterable[Any | Callable[[Any], bool]],
                 fallback: Policy | None = None):
        self._choices = list(choices)
        self._fallback = fallback

    def choose(self, battle: Battle, decision: Decide[Any], rng: np.random.Generator) -> Any:
        if not self._choices:
            if self._fallback is not None:
                return self._fallback.choose(battle, decision, rng)
            raise ScriptError(f"no scripted choice left for {decision.label!r}")
        want = self._choices.pop(0)
        if callable(want):
            for option in decision.options:
                if want(option):
                    return option
            raise ScriptError(f"no option of {decision.label!r} fits the scripted predicate")
        return want


POLICIES: Mapping[str, Callable[[], Policy]] = {
    "greedy": GreedyPolicy,
    "random": RandomPolicy,
}


def make_policy(name: str) -> Policy:
    """A policy by name (``greedy`` or ``random``)."""
    try:
        return POLICIES[name]()
    except KeyError:
        raise TacticaError(
            f"unknown policy {name!r} (expected one of {', '.join(POLICIES)})"
        ) from None
