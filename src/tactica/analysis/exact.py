"""Exact whole fights: the exact chance that each side wins, found by enumerating the fight.

A fight is a chance process from step to step: at each state the rules say what happens next
(:meth:`~tactica.engine.ruleset.Rules.pending`); a side's policy chooses an action (a
probability distribution over the legal actions, :func:`exact_policy`), and the action's own
chance process is run by the exact driver of one action
(:func:`~tactica.engine.chance.run_exact`), which gives every outcome as the events it writes,
with its exact probability. Applying each outcome's events to a copy of the state gives the
next states. Equal states are merged by the key the core derives from their fields
(:class:`~tactica.engine.statekey.StateKeys`), each distinct state is expanded once, and the
fight's graph of states is searched depth first; the probability of reaching every state then
flows forward through the graph in topological order, exactly, as fractions.

The search has a budget of distinct states (``max_states``): past it, it stops with
:class:`BudgetExceeded` (one line: the states reached, and what to try instead), having held
at most that many states. A state that returns to itself (a round in which nothing changes,
where the state keeps no round counter) is summed as a geometric series; a longer cycle is
refused.

What a fight comes to is one of: a side wins, a draw (the rules end it with no winner), or
*unfinished* (the scenario's round limit was reached with the fight undecided); with the
number of rounds played and the units left standing on each side.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from tactica.dice import Dist
from tactica.engine.chance import Decide, Policy, Step, run_exact
from tactica.engine.consulted import recording
from tactica.engine.errors import TacticaError
from tactica.engine.events import RoundStarted
from tactica.engine.policies import GreedyPolicy, default_policy, resolve_policy
from tactica.engine.ruleset import (
    Automatic,
    ChooseAction,
    Finished,
    Ruleset,
    valuation_hooks,
)
from tactica.engine.scenario import Scenario
from tactica.engine.statekey import StateKeys
from tactica.engine.turns import round_limit

__all__ = [
    "DEFAULT_MAX_STATES",
    "BudgetExceeded",
    "ExactComparison",
    "ExactPolicy",
    "FightOdds",
    "Outcome",
    "exact_compare",
    "exact_fight",
    "exact_policy",
    "fight_odds",
    "policies_for",
]

#: The default budget of distinct states: about a minute of search on one core here (the
#: examples' searches measured in docs/exact.md: 50,000 to 70,000 states in 18 to 48 s).
DEFAULT_MAX_STATES = 100_000

#: What to try when a fight does not fit the budget.
TRY_INSTEAD = "try a smaller map, fewer rounds, or `simulate --precision`"


class BudgetExceeded(TacticaError):
    """The exact search reached its budget of distinct states before the fight was done."""

    def __init__(self, states: int, budget: int) -> None:
        self.states = states
        self.budget = budget
        super().__init__(
            f"the exact search reached its budget of {budget:,} distinct states ({states:,} "
            f"states reached) before the fight was done: {TRY_INSTEAD} (or a larger "
            "--max-states)")


# --------------------------------------------------------------------------------------------
# Policies as distributions


class _Draws(Exception):
    """A policy drew from its generator: its choice is random, and its distribution unknown."""


class _NoDraws(np.random.Generator):
    """A generator that refuses every draw (what a policy must not need to state its
    distribution)."""

    def __init__(self) -> None:
        super().__init__(np.random.PCG64(0))

    def __getattribute__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):  # Python's own (doctest's probes)
            return object.__getattribute__(self, name)
        raise _Draws(name)


#: One generator that refuses every draw, for every decision (making one is not cheap).
_NO_DRAWS = _NoDraws()


class ExactPolicy:
    """A policy stated as a distribution over the options of every decision: what the exact
    search needs. ``name`` is the policy it states (``greedy``, ``random``, ``first-option``);
    :meth:`choose` with ``rng=None`` returns a :class:`~tactica.dice.Dist` over the options,
    with a generator one option drawn from it (so that the same object plays battles too)."""

    def __init__(self, name: str, ruleset: Ruleset) -> None:
        self.name = name
        self.ruleset = ruleset
        self._greedy = GreedyPolicy(ruleset) if name == "greedy" else None
        self._hooks = valuation_hooks(ruleset) if name == "greedy" else None

    def distribution(self, decision: Decide[Any], state: Any) -> Dist[Any]:
        """The chance of each option of ``decision`` in ``state``."""
        options = decision.options
        if self.name == "random":
            return _uniform(options)
        if self.name == "first-option" or self._greedy is None:
            return Dist.constant(options[0])
        if decision.label == "action":
            hooks = self._hooks
            if hooks is None or state is None:
                return Dist.constant(options[0])
            values = hooks.rank(state, options)
            best = max(values)
            # The greedy policy's own tie rule: every action within 1e-12 of the best, one
            # of them drawn uniformly (GreedyPolicy.choose).
            return _uniform([o for o, v in zip(options, values, strict=True)
                             if v >= best - 1e-12])
        try:
            choice = self._greedy.choose(decision, state, _NO_DRAWS)
        except _Draws:
            raise TacticaError(
                f"the greedy policy of {self.ruleset.meta.title} chooses {decision.label!r} "
                "at random in a way it does not state, so its exact odds cannot be computed "
                "(use --policy random or first-option for that side)") from None
        return Dist.constant(choice)

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None
               ) -> Any:
        dist = self.distribution(decision, state)
        if rng is None:
            return dist if len(dist) > 1 else dist.outcomes[0]
        outcomes = dist.outcomes
        if len(outcomes) == 1:
            return outcomes[0]
        return outcomes[int(rng.integers(len(outcomes)))]


def _uniform(options: Sequence[Any]) -> Dist[Any]:
    if len(options) == 1:
        return Dist.constant(options[0])
    # By position, as the random policy draws: equal options (if any) add up.
    table: dict[Any, int] = {}
    for o in options:
        table[o] = table.get(o, 0) + 1
    return Dist.from_weights(table)


def exact_policy(policy: str | Policy, ruleset: Ruleset) -> ExactPolicy:
    """The policy ``policy`` (a name, or a policy object) stated as a distribution; a policy
    that cannot state one is refused with a TacticaError naming it."""
    if isinstance(policy, ExactPolicy):
        return policy
    if not isinstance(policy, str):
        name = getattr(policy, "name", type(policy).__name__)
        raise TacticaError(f"the policy {name!r} cannot state the chance of each of its "
                           "choices, so the exact odds of a fight played by it cannot be "
                           "computed (policies that can: greedy, random, first-option)")
    return ExactPolicy(resolve_policy(policy, ruleset), ruleset)


def policies_for(scenario: Scenario, policies: Mapping[str, str] | str | None
                 ) -> dict[str, str]:
    """Each side's policy name (``simulate``'s rules: one name for every side, or one per
    side; ``None``: the game's default), checked against the scenario's sides."""
    sides = scenario.ruleset.sides_of(scenario.new_state())
    if policies is None:
        policies = default_policy(scenario.ruleset)
    chosen = dict.fromkeys(sides, policies) if isinstance(policies, str) else dict(policies)
    unknown = sorted(set(chosen) - set(sides))
    if unknown:
        raise TacticaError(f"--policy: no side {unknown[0]!r} in this scenario "
                           f"(sides: {', '.join(sides)})")
    for s in sides:
        if s not in chosen:
            raise TacticaError(f"no policy given for side {s!r}")
        chosen[s] = resolve_policy(chosen[s], scenario.ruleset)
    return chosen


# --------------------------------------------------------------------------------------------
# Outcomes


@dataclass(frozen=True, order=True)
class Outcome:
    """How one fight ended: ``result`` is a side's name, ``"draw"`` or ``"unfinished"`` (the
    round limit came first); ``rounds`` played; ``standing``: the units left standing on each
    side, in side order."""

    result: str
    rounds: int
    standing: tuple[int, ...]


@dataclass(frozen=True)
class FightOdds:
    """The exact distribution of how a fight ends, under the policies given."""

    scenario: str
    sides: tuple[str, ...]
    policies: Mapping[str, str]
    outcomes: Dist[Outcome]
    states: int
    seconds: float
    rulings: Mapping[str, str] = field(default_factory=dict)
    consulted: frozenset[str] = frozenset()

    def p(self, result: str) -> Fraction:
        """The chance of ``result``: a side's name, ``"draw"`` or ``"unfinished"``."""
        return sum((q for o, q in self.outcomes.items() if o.result == result), Fraction(0))

    def results(self) -> dict[str, Fraction]:
        """Each side's chance of winning, then the draw's and the unfinished fight's."""
        return {r: self.p(r) for r in (*self.sides, "draw", "unfinished")}

    def rounds(self) -> Dist[int]:
        """The exact distribution of the number of rounds played."""
        return self.outcomes.map(lambda o: o.rounds)

    def standing(self, side: str) -> Dist[int]:
        """The exact distribution of the number of ``side``'s units left standing."""
        i = self.sides.index(side)
        return self.outcomes.map(lambda o: o.standing[i])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every chance as a float and as an exact fraction (``"p_exact"``)."""
        def row(p: Fraction) -> dict[str, Any]:
            return {"p": float(p), "p_exact": f"{p.numerator}/{p.denominator}"}

        results = self.results()
        return {
            "scenario": self.scenario,
            "sides": list(self.sides),
            "policies": dict(self.policies),
            "rulings": dict(self.rulings),
            "win": {s: row(results[s]) for s in self.sides},
            "draw": row(results["draw"]),
            "unfinished": row(results["unfinished"]),
            "rounds": [{"rounds": k, **row(p)} for k, p in self.rounds().items()],
            "rounds_mean": float(self.rounds().mean()),
            "standing": {s: [{"units": k, **row(p)} for k, p in self.standing(s).items()]
                         for s in self.sides},
            "states": self.states,
            "seconds": round(self.seconds, 3),
        }


# --------------------------------------------------------------------------------------------
# The search


Progress = Callable[[int, float], None]


@dataclass
class _Graph:
    """The fight's states: their edges (child, probability) and the outcome of each end."""

    edges: list[list[tuple[int, Fraction]]] = field(default_factory=list)
    ends: dict[int, Outcome] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)  # postorder


class _Search:
    """One exact search of a fight from ``state`` (see the module)."""

    def __init__(self, ruleset: Ruleset, state: Any, policies: Mapping[str, ExactPolicy], *,
                 limit_reason: str | None, max_states: int, rounds: int,
                 progress: Progress | None) -> None:
        self.ruleset = ruleset
        self.policies = dict(policies)
        self.sides = tuple(ruleset.sides_of(state))
        self.limit_reason = limit_reason
        self.max_states = max_states
        self.progress = progress
        self.keys = StateKeys(state)
        self.root = state
        self.rounds0 = rounds
        self.fractions: dict[Fraction, Fraction] = {}
        self.start = time.monotonic()
        self.last = self.start

    def _key(self, state: Any, rounds: int) -> Hashable:
        return (self.keys(state), rounds)

    def _outcome(self, state: Any, fin: Finished, rounds: int) -> Outcome:
        if fin.winner is not None:
            result = fin.winner
        elif self.limit_reason is not None and fin.reason == self.limit_reason:
            result = "unfinished"
        else:
            result = "draw"
        standing = dict.fromkeys(self.sides, 0)
        for u in self.ruleset.units(state):
            if (u.in_action if u.survived is None else u.survived) and u.side in standing:
                standing[u.side] += 1
        return Outcome(result, rounds, tuple(standing[s] for s in self.sides))

    def _process(self, state: Any, pending: Automatic | ChooseAction) -> Step:
        if isinstance(pending, Automatic):
            return pending.process
        resolve = self.ruleset.resolve
        return Decide(pending.side, "action", pending.actions,
                      lambda action: resolve(state, action))

    def successors(self, state: Any, rounds: int, pending: Automatic | ChooseAction
                   ) -> list[tuple[Any, int, Fraction]]:
        """The states one step after ``state``, with the rounds played and their chances."""
        ruleset = self.ruleset
        # alike: outcomes whose events change the state alike come as one (the first such
        # history, with their chances added up), so each is applied once.
        dist = run_exact(self._process(state, pending), policies=self.policies, events=True,
                         world=ruleset, state=state, alike=True)
        out: list[tuple[Any, int, Fraction]] = []
        copy_state, apply_event = ruleset.copy_state, ruleset.apply_event
        for (_, events), p in dist.items():
            new = copy_state(state)
            played = rounds
            for event in events:
                apply_event(new, event)
                if isinstance(event, RoundStarted) and event.round > played:
                    played = event.round
            out.append((new, played, p))
        return out

    def run(self) -> _Graph:
        graph = _Graph()
        ids: dict[Hashable, int] = {}
        on_stack: set[int] = set()
        fractions = self.fractions

        def new_node(key: Hashable) -> int:
            n = len(graph.edges)
            if n >= self.max_states:
                raise BudgetExceeded(n, self.max_states)
            ids[key] = n
            graph.edges.append([])
            return n

        pending_of = self.ruleset.pending
        # The fight's ends, one node per way it can end: two finished states that differ in
        # what no longer matters (the health of the fallen, the rounds left in a magazine) are
        # one end.
        end_ids: dict[Outcome, int] = {}

        def found(state: Any, played: int, key: Hashable) -> int:
            """The node of a state not met before (by its key): a new node to open, or the
            node of the way the fight ended there."""
            pending = pending_of(state)
            if isinstance(pending, Finished):
                outcome = self._outcome(state, pending, played)
                node = end_ids.get(outcome)
                if node is None:
                    node = new_node(("end", outcome))
                    end_ids[outcome] = node
                    graph.ends[node] = outcome
                    graph.order.append(node)  # no children: finished in the search's order
                return node
            node = new_node(key)
            unopened[node] = (state, played, pending)
            return node

        # States found but not yet expanded, by node; a frame of the search is a node on the
        # path and the children it has still to visit.
        unopened: dict[int, tuple[Any, int, Automatic | ChooseAction]] = {}
        stack: list[tuple[int, list[int]]] = []

        def open_node(node: int) -> None:
            state, rounds, pending = unopened.pop(node)
            merged: dict[int, Fraction] = {}
            for child_state, played, p in self.successors(state, rounds, pending):
                key = self._key(child_state, played)
                child = ids.get(key)
                if child is None:
                    child = found(child_state, played, key)
                merged[child] = merged.get(child, Fraction(0)) + p
            loop = merged.pop(node, Fraction(0))
            if loop:
                if loop == 1:
                    raise TacticaError("the fight can stay in one state forever (nothing "
                                       "changes and nothing can end it): it has no exact odds")
                merged = {c: p / (1 - loop) for c, p in merged.items()}
            edges = graph.edges[node]
            for child, p in merged.items():
                edges.append((child, fractions.setdefault(p, p)))
            on_stack.add(node)
            stack.append((node, list(merged)))
            self._tick(len(graph.edges))

        root = found(self.root, self.rounds0, self._key(self.root, self.rounds0))
        if root in unopened:
            open_node(root)
        while stack:
            node, children = stack[-1]
            if children:
                child = children.pop()
                if child in unopened:
                    open_node(child)
                elif child in on_stack:
                    raise TacticaError("the fight can come back to an earlier state by more "
                                       "than one step: the exact search handles fights that "
                                       f"move on ({TRY_INSTEAD})")
            else:
                stack.pop()
                on_stack.discard(node)
                graph.order.append(node)
        return graph

    def _tick(self, states: int) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if now - self.last >= 2.0:
            self.last = now
            self.progress(states, now - self.start)


def _forward(graph: _Graph) -> Dist[Outcome]:
    """The chance of every outcome: the probability of reaching each state, pushed forward
    through the graph in topological order (the reverse of the search's postorder)."""
    mass: dict[int, Fraction] = {graph.order[-1]: Fraction(1)} if graph.order else {}
    found: dict[Outcome, Fraction] = {}
    for node in reversed(graph.order):
        p = mass.pop(node, None)
        if p is None:
            continue
        end = graph.ends.get(node)
        if end is not None:
            found[end] = found.get(end, Fraction(0)) + p
            continue
        for child, q in graph.edges[node]:
            mass[child] = mass.get(child, Fraction(0)) + p * q
    return Dist.from_probs(found)


def fight_odds(ruleset: Ruleset, state: Any, policies: Mapping[str, str | Policy], *,
               max_rounds: int | None = None, max_states: int = DEFAULT_MAX_STATES,
               rounds: int = 0, progress: Progress | None = None) -> tuple[Dist[Outcome], int]:
    """The exact distribution of how the fight goes on from ``state`` (which is not changed),
    and the number of distinct states searched. ``policies``: each side's policy (a name or
    an :class:`ExactPolicy`); ``max_rounds``: the scenario's round limit (to tell an
    unfinished fight from a draw); ``rounds``: the rounds played so far."""
    exact = {side: exact_policy(p, ruleset) for side, p in policies.items()}
    reason = round_limit(max_rounds, max_rounds).reason if max_rounds else None  # type: ignore[union-attr]
    search = _Search(ruleset, state, exact, limit_reason=reason, max_states=max_states,
                     rounds=rounds, progress=progress)
    graph = search.run()
    return _forward(graph), len(graph.edges)


def exact_fight(scenario: Scenario, *, policies: Mapping[str, str] | str | None = None,
                max_states: int = DEFAULT_MAX_STATES, progress: Progress | None = None
                ) -> FightOdds:
    """The exact odds of ``scenario``'s whole fight under ``policies`` (``simulate``'s form:
    a name for every side, one per side, or ``None`` for the game's default)."""
    chosen = policies_for(scenario, policies)
    start = time.monotonic()
    with recording() as read:
        state = scenario.new_state()
        outcomes, states = fight_odds(scenario.ruleset, state, chosen,
                                      max_rounds=scenario.max_rounds, max_states=max_states,
                                      progress=progress)
    return FightOdds(scenario.name, tuple(scenario.ruleset.sides_of(state)), chosen,
                     outcomes, states, time.monotonic() - start, dict(scenario.rulings),
                     frozenset(read))


# --------------------------------------------------------------------------------------------
# Comparisons


@dataclass(frozen=True)
class ExactComparison:
    """The exact odds of a fight under each variant (a ruling's readings, or a field's
    values) and the exact difference of each later variant from the first."""

    scenario: str
    key: str
    is_ruling: bool
    labels: tuple[str, ...]
    odds: tuple[FightOdds, ...]

    @property
    def sides(self) -> tuple[str, ...]:
        return self.odds[0].sides

    @property
    def consulted(self) -> bool | None:
        """Whether the compared ruling was read in any state of the first variant's fight
        (``None`` for a field)."""
        if not self.is_ruling:
            return None
        return any(self.key in o.consulted for o in self.odds)

    def difference(self, variant: int, result: str) -> Fraction:
        """The exact change of ``result``'s chance from the first variant to ``variant``."""
        return self.odds[variant].p(result) - self.odds[0].p(result)

    def notes(self) -> list[str]:
        """A line when the compared ruling was never consulted."""
        if self.consulted is False:
            return [f"{self.key}: the ruling was never consulted in this fight: every variant "
                    "is the same fight"]
        return []

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: each variant's odds, and each later variant's exact differences."""
        def frac(p: Fraction) -> dict[str, Any]:
            return {"difference": float(p), "difference_exact": f"{p.numerator}/{p.denominator}"}

        results = (*self.sides, "draw", "unfinished")
        return {
            "scenario": self.scenario,
            "compare": {"key": self.key, "kind": "ruling" if self.is_ruling else "field",
                        "labels": list(self.labels)},
            "consulted": self.consulted,
            "variants": {label: o.to_dict() for label, o in zip(self.labels, self.odds,
                                                                 strict=True)},
            "differences": [{"variant": self.labels[i], "against": self.labels[0],
                             **{r: frac(self.difference(i, r)) for r in results}}
                            for i in range(1, len(self.odds))],
            "notes": self.notes(),
        }


def exact_compare(scenario: Scenario, spec: Any, *,
                  policies: Mapping[str, str] | str | None = None,
                  max_states: int = DEFAULT_MAX_STATES, progress: Progress | None = None
                  ) -> ExactComparison:
    """The exact odds of the fight under each variant of ``spec`` (``"ID=A,B"``, a ruling and
    two of its readings, or a field path, as ``simulate --compare``), and their exact
    differences."""
    from tactica.analysis.sim.variants import comparable_variants

    spec, variants = comparable_variants(scenario, spec)
    chosen = policies_for(scenario, policies)
    odds = tuple(exact_fight(v.scenario, policies=chosen, max_states=max_states,
                             progress=progress) for v in variants)
    return ExactComparison(scenario.name, spec.key, spec.is_ruling,
                           tuple(v.label for v in variants), odds)
