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
from tactica.engine.rulings import Ruling, Rulings
from tactica.engine.stats import BattleResult, UnitStats

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario

__all__ = ["NOT_BUILT", "POLICY_CODES", "TWO64", "OptionReads", "Uncovered",
           "battle_arguments", "battle_result", "built_kernel", "check_option_reads", "compiled",
           "option_codes", "option_table", "starting_state", "uncovered_ruling"]

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


#: How a kernel's tables read ruling options: for each table key its compiled loop takes, the
#: ruling and the value the loop takes for each option the kernel implements. An option not
#: listed is not played (:func:`option_table` raises :class:`Uncovered`), never read as another.
OptionReads = Mapping[str, tuple[str, Mapping[str, int]]]


def option_codes(declared: Sequence[Ruling]) -> dict[str, dict[str, int]]:
    """Each declared ruling's options, numbered in declaration order (the default is 0): the
    table of what a game declares, that a kernel's reads are checked against.

    >>> option_codes([Ruling("X-1", "q?", "a", {"a": "first", "b": "second"})])
    {'X-1': {'a': 0, 'b': 1}}
    """
    return {r.id: {option: code for code, option in enumerate(r.options)} for r in declared}


def option_table(rulings: Rulings, reads: OptionReads) -> dict[str, int]:
    """The ruling options of a kernel's tables: for each key of ``reads``, the value its
    compiled loop takes for the option of the ruling in force. Raises :class:`Uncovered`
    naming the ruling and the option when the reads do not implement the option in force, or
    name a ruling or an option the game does not declare (a read out of step with the
    declaration), so the reference plays the battle.

    >>> r = Ruling("X-1", "q?", "a", {"a": "first", "b": "second", "c": "third"})
    >>> reads = {"second": ("X-1", {"a": 0, "b": 1})}
    >>> option_table(Rulings((r,), {"X-1": "b"}), reads)
    {'second': 1}
    >>> option_table(Rulings((r,), {"X-1": "c"}), reads)
    Traceback (most recent call last):
    ...
    tactica.engine.kernels.Uncovered: X-1=c (the kernel plays a, b)
    """
    codes = option_codes(rulings.declared())
    out: dict[str, int] = {}
    for key, (ruling, values) in reads.items():
        declared = codes.get(ruling)
        if declared is None:
            raise Uncovered(f"ruling {ruling} (the kernel reads a ruling the game does not "
                            "declare)")
        unknown = [option for option in values if option not in declared]
        if unknown:
            raise Uncovered(f"ruling {ruling} (the kernel reads options the game does not "
                            f"declare: {', '.join(unknown)})")
        chosen = rulings[ruling]
        if chosen not in values:
            raise Uncovered(f"{ruling}={chosen} (the kernel plays {', '.join(values)})")
        out[key] = values[chosen]
    return out


def check_option_reads(declared: Sequence[Ruling], covered: Mapping[str, Sequence[str]],
                       reads: OptionReads) -> list[str]:
    """What is out of step between a game's declaration, the options its kernel says it
    covers and the reads of its tables (an empty list: nothing). Every read names a declared
    ruling and implements exactly the options covered of it; every covered option is
    declared."""
    codes = option_codes(declared)
    problems = []
    for ruling, options in covered.items():
        if ruling not in codes:
            problems.append(f"{ruling} is covered but not declared")
            continue
        problems += [f"{ruling}={o} is covered but not declared" for o in options
                     if o not in codes[ruling]]
    for key, (ruling, values) in reads.items():
        if ruling not in codes:
            problems.append(f"{key} reads {ruling}, which is not declared")
            continue
        if set(values) != set(covered.get(ruling, ())):
            problems.append(f"{key} reads {ruling} as {sorted(values)}, the kernel covers "
                            f"{sorted(covered.get(ruling, ()))}")
    return problems


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
