"""What every game's compiled simulation kernel shares on its Python side.

A kernel (``rulesets/<game>/kernel.py`` beside its ``_kernel.pyx``) answers
:class:`~tactica.engine.ruleset.NotCovered` for what it does not play; the reasons that are the
same for every game, the policies it knows, and the battle's arguments and result are here.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from tactica.engine.ruleset import NotCovered
from tactica.engine.rulings import Rulings
from tactica.engine.stats import BattleResult, UnitStats

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario

__all__ = ["NOT_BUILT", "POLICY_CODES", "TWO64", "Uncovered", "battle_arguments",
           "battle_result", "built_kernel", "compiled", "starting_state", "uncovered_ruling"]

#: Why the reference plays when the extension was not built.
NOT_BUILT = "the compiled kernel is not built: reinstall with a C compiler (pip install -e .)"
#: The policies a kernel plays, by the code its battle loop takes.
POLICY_CODES: Mapping[str, int] = {"greedy": 0, "random": 1}
#: Seeds, battle indices and exact totals a kernel draws with fit below this.
TWO64 = 1 << 64


def compiled(package: str) -> ModuleType | None:
    """The compiled ``_kernel`` module of the game ``package``, or ``None`` when it was not
    built."""
    try:
        return importlib.import_module(f"{package}._kernel")
    except ImportError:
        return None


class Uncovered(Exception):
    """Raised while a kernel's tables are built: the scenario needs what the kernel does not
    play (the message says what); ``prepare`` answers it as :class:`NotCovered`."""


def built_kernel(module: ModuleType, tables: Mapping[str, Any]) -> Any:
    """``module.Kernel(tables)``, or the :class:`NotCovered` reason when the scenario passes
    one of the kernel's fixed limits (its module's ``LIMITS``; the compiled ``Kernel`` checks
    every one of them before it writes anything and raises :class:`Uncovered` naming it)."""
    try:
        return module.Kernel(tables)
    except Uncovered as exc:
        return NotCovered(str(exc))


def starting_state(module: ModuleType | None, scenario: Scenario,
                   covered: Mapping[str, Sequence[str]]) -> Any:
    """The checks every kernel's ``prepare`` starts with -- its extension ``module`` was built,
    every ruling option of ``scenario`` is covered -- then the scenario's starting state; or
    the :class:`NotCovered` reason."""
    if module is None:
        return NotCovered(NOT_BUILT)
    uncovered = uncovered_ruling(scenario.rulings, covered)
    if uncovered is not None:
        return uncovered
    return scenario.new_state()


def uncovered_ruling(rulings: Rulings,
                     covered: Mapping[str, Sequence[str]]) -> NotCovered | None:
    """Why a kernel covering ``covered`` (the options it plays, by ruling) cannot play under
    ``rulings``, or ``None`` when it can."""
    for ruling in rulings.declared():
        options = covered.get(ruling.id)
        if options is None:
            return NotCovered(f"ruling {ruling.id} (the kernel does not know it)")
        if rulings[ruling.id] not in options:
            return NotCovered(f"{ruling.id}={rulings[ruling.id]}")
    return None


def battle_arguments(sides: Sequence[str], policies: Mapping[str, str], seed: int,
                     index: int) -> tuple[tuple[int, ...], bytes] | NotCovered:
    """Each side's policy code and the battle's dice key (``seed|index|``), or why the kernel
    cannot play the battle."""
    codes = []
    for side in sides:
        code = POLICY_CODES.get(policies.get(side, ""))
        if code is None:
            return NotCovered(f"the policy {policies.get(side)!r} (the kernel plays "
                              "greedy and random)")
        codes.append(code)
    if not 0 <= seed < TWO64 or not 0 <= index < TWO64:
        return NotCovered("a seed or battle index beyond 64 bits")
    return tuple(codes), f"{seed}|{index}|".encode()


def battle_result(sides: Sequence[str], winner: int, finished: int, rounds: int, steps: int,
                  stats: Mapping[str, UnitStats]) -> BattleResult:
    """The :class:`BattleResult` of a battle the loop played (``winner``: a side's number,
    negative for none)."""
    return BattleResult(sides[winner] if winner >= 0 else None, rounds, stats, steps,
                        bool(finished))
