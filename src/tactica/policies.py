"""Who decides: random, greedy on exact odds, scripted; each deterministic given its generator.

Every policy is a :class:`tactica.chance.Policy`: it answers every decision of its side, the
choice of the next action (a decision labelled ``"action"``) and any decision inside an action
(a reaction, a die assignment). Policies see a game only through its declared policy hooks
(:class:`tactica.ruleset.PolicyHooks`): ``rank_actions`` for the actions and
``choose_decision`` for decisions inside an action. A game without them gets the first option.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from tactica.chance import Decide, Policy
from tactica.errors import ScriptError, TacticaError
from tactica.ruleset import PolicyHooks, Ruleset, policy_hooks

__all__ = [
    "POLICIES",
    "GreedyPolicy",
    "RandomPolicy",
    "ScriptedPolicy",
    "make_policy",
]


def _inner(hooks: PolicyHooks[Any] | None, decision: Decide[Any], state: Any,
           rng: np.random.Generator | None) -> Any:
    if hooks is None or state is None:
        return decision.options[0]
    return hooks.choose_decision(state, decision, rng)


class RandomPolicy:
    """Uniformly random among the options of every decision."""

    name = "random"

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        if rng is None:
            return decision.options[0]
        return decision.options[int(rng.integers(len(decision.options)))]


class GreedyPolicy:
    """The action with the best value by the game's exact odds; ties broken by ``rng``."""

    name = "greedy"

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        # Looked up once: a check against a runtime protocol costs tens of microseconds.
        self.hooks = policy_hooks(ruleset)

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        options = decision.options
        hooks = self.hooks
        if decision.label != "action":
            return _inner(hooks, decision, state, rng)
        if hooks is None or state is None:
            return options[0]
        values = hooks.rank_actions(state, options)
        best = max(values)
        top = [o for o, v in zip(options, values, strict=True) if v >= best - 1e-12]
        if len(top) > 1 and rng is not None:
            return top[int(rng.integers(len(top)))]
        return top[0]


class ScriptedPolicy:
    """Choices given in advance, as options or as predicates; then a fallback (or an error)."""

    name = "scripted"

    def __init__(self, choices: Iterable[Any | Callable[[Any], bool]],
                 fallback: Policy | None = None):
        self._choices = list(choices)
        self._fallback = fallback

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        if not self._choices:
            if self._fallback is not None:
                return self._fallback.choose(decision, state, rng)
            raise ScriptError(f"no scripted choice left for {decision.label!r}")
        want = self._choices.pop(0)
        if callable(want):
            for option in decision.options:
                if want(option):
                    return option
            raise ScriptError(f"no option of {decision.label!r} fits the scripted predicate")
        return want


POLICIES: Mapping[str, Callable[[Ruleset], Policy]] = {
    "greedy": GreedyPolicy,
    "random": RandomPolicy,
}


def make_policy(name: str, ruleset: Ruleset) -> Policy:
    """A policy by name (``greedy`` or ``random``) for a battle of ``ruleset``."""
    try:
        factory = POLICIES[name]
    except KeyError:
        raise TacticaError(
            f"unknown policy {name!r} (expected one of {', '.join(POLICIES)})"
        ) from None
    return factory(ruleset)
