"""Who decides: random, greedy on exact odds, scripted; each deterministic given its generator.

Every policy is a :class:`tactica.engine.chance.Policy`: it answers every decision of its side, the
choice of the next action (a decision labelled ``"action"``) and any decision inside an action
(a reaction, a die assignment). Policies see a game only through its valuation part
(:class:`tactica.engine.game.Valuation`): ``rank`` for the actions and ``decide`` for decisions
inside an action.

The policies a game offers follow from what it declares (:func:`policy_names`): ``greedy``
needs the game's valuation part; a game without one offers ``first-option`` (what its computer
does: the first option of every decision) and ``random``. :func:`default_policy` is the one a
command uses when none is named, and reports name the policy that actually played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tactica.engine.chance import Decide, Policy
from tactica.engine.errors import ScriptError, TacticaError
from tactica.engine.ruleset import Ruleset, valuation_hooks

if TYPE_CHECKING:
    from tactica.engine.game import Valuation

__all__ = [
    "POLICIES",
    "FirstOptionPolicy",
    "GreedyPolicy",
    "RandomPolicy",
    "ScriptedPolicy",
    "default_policy",
    "make_policy",
    "policy_names",
    "resolve_policy",
]


def _inner(hooks: Valuation[Any, Any] | None, decision: Decide[Any], state: Any,
           rng: np.random.Generator | None) -> Any:
    if hooks is None or state is None:
        return decision.options[0]
    return hooks.decide(state, decision, rng)


class RandomPolicy:
    """Uniformly random among the options of every decision."""

    name = "random"

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        if rng is None:
            return decision.options[0]
        return decision.options[int(rng.integers(len(decision.options)))]


class FirstOptionPolicy:
    """The first option of every decision: the computer of a game that has no valuation
    part (it has no values to rank its actions by)."""

    name = "first-option"

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        return decision.options[0]


class GreedyPolicy:
    """The action with the best value by the game's exact odds; ties broken by ``rng``."""

    name = "greedy"

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.hooks = valuation_hooks(ruleset)

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        options = decision.options
        hooks = self.hooks
        if decision.label != "action":
            return _inner(hooks, decision, state, rng)
        if hooks is None or state is None:
            return options[0]
        values = hooks.rank(state, options)
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
    "first-option": FirstOptionPolicy,
}


def policy_names(ruleset: Ruleset) -> tuple[str, ...]:
    """The policies ``ruleset`` offers, its default first: ``greedy`` only for a game with a
    valuation part."""
    if valuation_hooks(ruleset) is not None:
        return ("greedy", "random", "first-option")
    return ("first-option", "random")


def default_policy(ruleset: Ruleset) -> str:
    """The policy a command uses when none is named: ``greedy`` for a game with a policy
    part, ``first-option`` for one without."""
    return policy_names(ruleset)[0]


def resolve_policy(name: str | None, ruleset: Ruleset) -> str:
    """``name`` checked against what ``ruleset`` offers (``None``: its default); a
    TacticaError names the policies it has."""
    if name is None:
        return default_policy(ruleset)
    offered = policy_names(ruleset)
    if name not in offered:
        known = ", ".join(offered)
        if name in POLICIES:
            raise TacticaError(f"{ruleset.meta.title} has no valuation part, so it has no "
                               f"{name!r} policy (its policies: {known})")
        raise TacticaError(f"unknown policy {name!r} (expected one of {known})")
    return name


def make_policy(name: str, ruleset: Ruleset) -> Policy:
    """A policy by name (one of :func:`policy_names`) for a battle of ``ruleset``."""
    return POLICIES[resolve_policy(name, ruleset)](ruleset)
