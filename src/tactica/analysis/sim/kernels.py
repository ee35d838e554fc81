"""Compiled simulation kernels: the fast path beside the reference, never instead of it.

A game may declare a kernel (:class:`~tactica.engine.game.Kernel`): typed Cython over plain
data that plays the *same* battles as the Python rules, for bulk simulation only. For each
scenario (a variant of a comparison is a scenario of its own) the kernel is prepared once per
process; then every battle it covers is played by it, and every other battle (a ruling option,
a map size, a policy it does not handle, or an extension that was not built) by the reference,
:func:`tactica.analysis.sim.play.play_battle`. Either way the battle's result is the same: an
equivalence test plays every example, policy and ruling option both ways and compares them.

``TACTICA_KERNELS=0`` in the environment makes the reference play every battle. A run too short to
pay the kernel's preparation back (fewer than :data:`MIN_KERNEL_BATTLES` battles in each
process, :func:`short_run`) is left to the reference too, saying so; ``TACTICA_KERNELS=1``
makes the kernel play every battle it covers however short the run.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import cast

from tactica.engine.caching import Cache, SmallKeys
from tactica.engine.ruleset import ConsultingKernel, NotCovered, PreparedKernel, kernel_hooks
from tactica.engine.scenario import Scenario
from tactica.engine.stats import BattleResult

__all__ = ["ENVIRONMENT", "MIN_KERNEL_BATTLES", "REFERENCE_BUDGET", "Engine", "kernels_enabled",
           "kernels_forced", "prepared_kernel", "reference_played", "short_run", "simulated_battle"]

#: The environment variable that turns kernels off (``0``).
ENVIRONMENT = "TACTICA_KERNELS"


#: The fewest battles a process plays of a scenario for its kernel to be prepared: a run of
#: fewer is left to the reference (:func:`short_run`). Measured by ``bench/preparation.py``:
#: the kernel's preparation and first battle are paid back by the battles it saves after 0.2
#: to 8.7 battles of the examples (the slowest: 0.19 s to prepare, 0.029 s a battle by the
#: reference), and 0.7 and 2.3 at the largest maps (docs/simulation.md has the table).
MIN_KERNEL_BATTLES = 10
#: CPU seconds the reference may spend on a scenario's battles in one process before a short
#: run goes over to the kernel all the same (:func:`reference_played`): a battle that costs
#: more than preparing a kernel is not played many times by the reference. The most that
#: preparing a kernel and its first battle cost is 1.8 s (the largest zone map; 0.7 s on the
#: largest dot lattice), when a battle of the reference there takes 2.5 s: a short run of it
#: costs at most the reference's first battle and the kernel's preparation.
REFERENCE_BUDGET = 2.0
_SPENT: Cache[int, float] = Cache("simulate.reference-seconds", maxsize=32)


def kernels_enabled() -> bool:
    """False when ``TACTICA_KERNELS=0`` (the reference then plays every battle)."""
    return os.environ.get(ENVIRONMENT, "").strip() != "0"


def kernels_forced() -> bool:
    """True when ``TACTICA_KERNELS=1``: the kernel plays every battle it covers, however
    short the run."""
    return os.environ.get(ENVIRONMENT, "").strip() == "1"


def short_run(scenario: Scenario, battles: int) -> NotCovered | None:
    """Why the reference plays a battle of a run in which a process plays ``battles`` of
    ``scenario``'s battles: too few to pay the kernel's preparation back; ``None`` when the
    kernel may play them (enough battles, kernels forced or off, or the game has none, which
    say their own reasons), or when the reference has spent more than
    :data:`REFERENCE_BUDGET` seconds on the scenario's battles in this process (its battles
    cost more than preparing the kernel). The battles are the same either way."""
    if (battles >= MIN_KERNEL_BATTLES or kernels_forced() or not kernels_enabled()
            or kernel_hooks(scenario.ruleset) is None
            or _spent(scenario) > REFERENCE_BUDGET):
        return None
    return NotCovered(f"a run of {battles} battle{'s' if battles != 1 else ''} per process, too "
                      f"short to pay the kernel's preparation back: it plays from "
                      f"{MIN_KERNEL_BATTLES}")


@dataclass(frozen=True)
class Engine:
    """Who played a battle: the kernel (``reason`` is ``None``) or the reference, and why."""

    reason: str | None = None

    @property
    def is_kernel(self) -> bool:
        """True when the compiled kernel played the battle."""
        return self.reason is None


KERNEL = Engine()
_OFF = NotCovered(f"{ENVIRONMENT}=0")
_NO_KERNEL = NotCovered("the game has no compiled kernel")
#: Why the reference plays when consulted rulings are counted and the kernel cannot say them.
NOT_CONSULTING = NotCovered("the compiled kernel does not report the rulings a battle consults")

# Prepared kernels of the scenarios of this process, by the scenario object (its number from
# SmallKeys is never given to another object, so an entry cannot answer for another scenario).
_LIMIT = 32
_SCENARIOS = SmallKeys("simulate.kernel-scenarios", maxsize=_LIMIT)
_PREPARED: Cache[int, PreparedKernel | NotCovered] = Cache("simulate.kernels", maxsize=_LIMIT)


def prepared_kernel(scenario: Scenario) -> PreparedKernel | NotCovered:
    """The kernel of ``scenario``, prepared once per scenario object, or why there is none."""
    if not kernels_enabled():
        return _OFF
    key = _SCENARIOS.key_of(scenario)
    found = _PREPARED.get(key)
    if found is not None:
        return found
    hooks = kernel_hooks(scenario.ruleset)
    kernel: PreparedKernel | NotCovered = (_NO_KERNEL if hooks is None
                                           else hooks.prepare_kernel(scenario))
    return _PREPARED.put(key, kernel)


def _spent(scenario: Scenario) -> float:
    """The CPU seconds the reference spent on ``scenario``'s battles of short runs in this
    process (``-inf`` before the first)."""
    found = _SPENT.get(_SCENARIOS.key_of(scenario))
    return -math.inf if found is None else found


def reference_played(scenario: Scenario, seconds: float) -> None:
    """Count ``seconds`` of CPU the reference spent on a battle of ``scenario`` that a short
    run left to it (:func:`short_run`)."""
    key = _SCENARIOS.key_of(scenario)
    _SPENT.put(key, (_SPENT.get(key) or 0.0) + seconds)


def simulated_battle(scenario: Scenario, policies: Mapping[str, str], seed: int, index: int,
                     max_steps: int, *, consulted: bool = False,
                     reference: NotCovered | None = None) -> tuple[BattleResult, Engine]:
    """Battle ``index`` of ``seed`` played by the kernel where it covers it, else by the
    reference; the same result either way. ``consulted``: with the rulings the battle
    consulted (a kernel that cannot say them leaves the battle to the reference).
    ``reference``: the reference plays, for that reason (a run too short for the kernel,
    :func:`short_run`), and the kernel is not prepared."""
    from tactica.analysis.sim.play import play_battle

    kernel = reference if reference is not None else prepared_kernel(scenario)
    if not isinstance(kernel, NotCovered):
        if consulted:
            play_consulted = getattr(kernel, "play_consulted", None)
            if play_consulted is not None:
                played = cast(ConsultingKernel, kernel).play_consulted(policies, seed, index,
                                                                       max_steps)
                if not isinstance(played, NotCovered):
                    result, mask = played
                    return replace(result, consulted=rulings_of_mask(scenario, mask)), KERNEL
                kernel = played
            else:
                kernel = NOT_CONSULTING
        else:
            plain = kernel.play(policies, seed, index, max_steps)
            if not isinstance(plain, NotCovered):
                return plain, KERNEL
            kernel = plain
    return (play_battle(scenario, policies, seed, index, max_steps=max_steps,
                        consulted=consulted), Engine(kernel.reason))


def rulings_of_mask(scenario: Scenario, mask: int) -> frozenset[str]:
    """The rulings of a kernel's bit mask: bit ``i`` is ruling number ``i`` in the game's
    declaration order."""
    return frozenset(r.id for i, r in enumerate(scenario.rulings.declared()) if mask >> i & 1)


def mask_of_rulings(scenario: Scenario, rulings: frozenset[str]) -> int:
    """The bit mask of a set of rulings (the inverse of :func:`rulings_of_mask`)."""
    return sum(1 << i for i, r in enumerate(scenario.rulings.declared()) if r.id in rulings)


def engine_line(kernel: int, reference: int, not_covered: Mapping[str, int]) -> str:
    """One line for people: how many battles each engine played, and why the reference did.

    >>> engine_line(990, 10, {"a map of 40 x 40 tiles": 10})
    'engine: 990 battles by the compiled kernel, 10 by the reference (a map of 40 x 40 tiles: 10)'
    >>> engine_line(0, 5, {"the game has no compiled kernel": 5})
    'engine: the reference played every battle (the game has no compiled kernel)'
    """
    reasons = sorted(not_covered.items(), key=lambda kv: (-kv[1], kv[0]))
    if kernel == 0:
        why = "; ".join(reason for reason, _ in reasons)
        return "engine: the reference played every battle" + (f" ({why})" if why else "")
    line = f"engine: {kernel} battles by the compiled kernel, {reference} by the reference"
    if reasons:
        line += " (" + "; ".join(f"{reason}: {k}" for reason, k in reasons) + ")"
    return line
