"""One battle of a simulation, and a chunk of battles under every variant.

Battle ``i`` of a run seeded with ``s`` draws each roll from its own key
(:class:`~tactica.engine.streams.KeyedDice`: the seed, ``i``, the acting unit, the roll's label and
how many such rolls that unit made) and gives side number ``k`` of the scenario its own policy
generator ``default_rng([s, i, 1, k])``. Dice and policies are kept apart, and draws follow the
units and the sides rather than the order of the battle, so two variants of a scenario (a
ruling's two readings) roll the same dice for the same unit even after their battles have gone
different ways (common random numbers).

A simulated battle keeps no log (``Battle(record=False)``): it is the very battle that
:func:`logged_battle` plays and logs, with the same dice and decisions in the same order (a
test checks it event by event). A battle that has not ended after ``max_steps`` steps (a
scenario with ``max_rounds: 1000000`` where nobody can hurt anybody) is stopped and counted as
*unfinished*: the work of a battle is bounded.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from tactica.analysis.sim.tally import BattleResult, PairedTally, Tally
from tactica.engine.battle import Battle, Dice, Entry
from tactica.engine.caching import Cache
from tactica.engine.chance import Decide, Policy
from tactica.engine.consulted import recording
from tactica.engine.events import Event
from tactica.engine.policies import make_policy
from tactica.engine.scenario import Scenario
from tactica.engine.stats import battle_stats
from tactica.engine.streams import KeyedDice

if TYPE_CHECKING:
    from tactica.analysis.sim.kernels import Engine

__all__ = [
    "DEFAULT_MAX_STEPS",
    "battle_dice",
    "logged_battle",
    "play_battle",
    "play_chunk",
    "policy_generator",
]

#: Steps after which a simulated battle is stopped unfinished (a step is one action or one
#: automatic step; the examples' battles take 20 to 500).
DEFAULT_MAX_STEPS = 20_000


def policy_generator(seed: int, index: int, side: int) -> np.random.Generator:
    """The generator of the policy of side number ``side`` in battle ``index`` of ``seed``."""
    return np.random.default_rng([seed, index, 1, side])


def battle_dice(seed: int, index: int, battle: Battle[Any]) -> KeyedDice:
    """The dice of battle ``index`` of seed ``seed`` (keyed by ``battle``'s steps)."""
    return KeyedDice(seed, index, battle)


class _OwnStream:
    """A side's policy with its own generator (whatever generator the battle hands it)."""

    def __init__(self, policy: Policy, make: Callable[[], np.random.Generator]) -> None:
        self.policy = policy
        self.make = make
        self.rng: np.random.Generator | None = None

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        if self.rng is None:  # made on first use: many battles of greedy never draw
            self.rng = self.make()
        return self.policy.choose(decision, state, self.rng)


# Handed to the battle, never drawn from: every side's policy has its own generator.
_UNUSED = np.random.default_rng(0)

# Policies hold no state between decisions: one per game, policy name and ruleset object.
_POLICIES: Cache[tuple[int, str], Policy] = Cache("simulate.policies", maxsize=64)


def _policy(scenario: Scenario, name: str) -> Policy:
    key = (id(scenario.ruleset), name)
    found = _POLICIES.get(key)
    if found is None:
        found = _POLICIES.put(key, make_policy(name, scenario.ruleset))
    return found


def _run(battle: Battle[Any], scenario: Scenario, policies: Mapping[str, str], seed: int,
         index: int, max_steps: int, dice: Dice | None = None) -> bool:
    sides = list(scenario.ruleset.sides_of(battle.state))
    chosen: dict[str, Policy] = {
        side: _OwnStream(_policy(scenario, name),
                         functools.partial(policy_generator, seed, index, sides.index(side)))
        for side, name in policies.items()}
    if dice is None:
        dice = battle_dice(seed, index, battle)
    for _ in range(max_steps):
        if battle.is_over:
            return True
        battle.step(chosen, dice=dice, rng=_UNUSED)
    return battle.is_over


def play_battle(scenario: Scenario, policies: Mapping[str, str], seed: int, index: int, *,
                max_steps: int = DEFAULT_MAX_STEPS, consulted: bool = False) -> BattleResult:
    """Play battle number ``index`` of a run seeded with ``seed`` to the end (or until
    ``max_steps`` steps), keeping only its result; ``consulted``: with the rulings the battle
    consulted (:mod:`tactica.engine.consulted`), from setting it up to its end."""
    if consulted:
        with recording() as read:
            result = play_battle(scenario, policies, seed, index, max_steps=max_steps)
        return replace(result, consulted=frozenset(read))
    events: list[Entry] = []  # rule events only: nothing else is recorded
    battle = Battle(scenario.ruleset, scenario.new_state(), record=False,
                    listeners=[events.append])
    finished = _run(battle, scenario, policies, seed, index, max_steps)
    stats = battle_stats(scenario.ruleset, battle.state, cast(list[Event], events))
    return BattleResult(battle.winner if finished else None, stats.rounds, stats.units,
                        battle.steps, finished)


def logged_battle(scenario: Scenario, policies: Mapping[str, str], seed: int, index: int, *,
                  max_steps: int = DEFAULT_MAX_STEPS,
                  wrap: Callable[[Dice], Dice] | None = None) -> Battle[Any]:
    """The same battle as :func:`play_battle`, with its whole log (for tests and replays);
    ``wrap`` may wrap its dice (the benchmark records their requests)."""
    battle = Battle(scenario.ruleset, scenario.new_state())
    dice: Dice = battle_dice(seed, index, battle)
    if wrap is not None:
        dice = wrap(dice)
    _run(battle, scenario, policies, seed, index, max_steps, dice)
    return battle


def play_chunk(scenarios: Sequence[Scenario], policies: Mapping[str, str], seed: int,
               start: int, stop: int, *, max_steps: int = DEFAULT_MAX_STEPS,
               consulted: bool = False, rulings: Sequence[str | None] = (),
               reuse: bool = False, per_process: int | None = None
               ) -> tuple[list[Tally], PairedTally | None]:
    """Battles ``start`` .. ``stop - 1`` under every scenario (variant), tallied; each is
    played by the game's compiled kernel where it covers it (:mod:`tactica.analysis.sim.kernels`),
    else by the reference, with the same result. ``consulted``: count the rulings each
    battle consulted; ``rulings``: per variant, the ruling it changes from the first (its
    consultation is paired). ``reuse``: a battle whose first variant did not consult the
    ruling a later variant changes *is* the first variant's battle (nothing read that ruling,
    so nothing could go otherwise): its result is taken, not played again. ``per_process``:
    the battles of the whole run each process plays; when that is too few to pay the kernel's
    preparation back the reference plays them, saying so
    (:func:`~tactica.analysis.sim.kernels.short_run`)."""
    import time

    from tactica.analysis.sim.kernels import reference_played, short_run, simulated_battle

    def battle(sc: Scenario, i: int) -> tuple[BattleResult, Engine]:
        why = None if per_process is None else short_run(sc, per_process)
        if why is None:
            return simulated_battle(sc, policies, seed, i, max_steps, consulted=consulted)
        start = time.process_time()
        played = simulated_battle(sc, policies, seed, i, max_steps, consulted=consulted,
                                  reference=why)
        reference_played(sc, time.process_time() - start)
        return played

    sides = scenarios[0].ruleset.sides_of(scenarios[0].new_state())
    tallies = [Tally(sides) for _ in scenarios]
    paired = PairedTally((*sides, "draw"), len(scenarios)) if len(scenarios) > 1 else None
    changes = list(rulings) + [None] * (len(scenarios) - len(rulings))
    for i in range(start, stop):
        played = [battle(scenarios[0], i)]
        first = played[0][0]
        taken = [False]
        for sc, ruling in zip(scenarios[1:], changes[1:], strict=True):
            if reuse and ruling is not None and ruling not in first.consulted:
                played.append(played[0])
                taken.append(True)
            else:
                played.append(battle(sc, i))
                taken.append(False)
        results = [r for r, _ in played]
        for tally, (r, engine), was_taken in zip(tallies, played, taken, strict=True):
            tally.add(r)
            if not was_taken:  # a battle taken from the first variant was not played again
                tally.count_engine(engine.reason)
        if paired is not None:
            paired.add(results, changes)
    return tallies, paired
