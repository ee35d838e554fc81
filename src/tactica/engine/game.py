"""A game as one typed value built from parts: what it is, how a battle runs, how people read it.

A :class:`Game` is assembled from a required core and optional parts::

    DUEL = Game(
        meta=RulesetMeta(name="duel", title="Duel", battlefield=None, rulings=()),
        module=__name__,
        setup=Setup(build=build_setup, start=new_state),
        rules=Rules(pending=pending, resolve=resolve, apply=apply_event),
        text=Text(action=describe_action, event=describe_event, units=units),
        odds=Odds(choices=odds_choices, action=odds_action, report=attack_odds),
    )

* the core, which every game has: :class:`Setup` (a scenario's game part and a new battle
  from it), :class:`Rules` (what happens next, the chance process of an action, the one place
  a state changes) and :class:`Text` (lines for people, and the units as they stand);
* the optional parts: :class:`Odds`, :class:`Sight`, :class:`Valuation` (what the ``greedy``
  policy plays by), :class:`Explain`, :class:`Matchups` (``tactica matrix``), :class:`Kernel`
  (a compiled simulation kernel) and :class:`Menu` (the actions laid out for people).

What a game can do follows from which optional parts are set (``meta.provides`` is filled in
from them: :class:`tactica.engine.ruleset.Capability` lists them), so there is no list to keep
in step with the code. The core reaches an optional part through
:func:`tactica.engine.ruleset.odds_hooks` and its siblings, which answer with the part itself or
say that the game has none; it calls the core parts through the few methods of :class:`Game`
that :class:`tactica.engine.ruleset.RulesetProtocol` names (``pending``, ``resolve``,
``apply_event``...), which delegate to them. A game writes none of these methods.

A part's fields are functions of the game's own types: ``Game[NebState, Action, Event]``
checks that each one takes the game's state. Where the core can do the work, a part's field has
a default: a state is copied by :func:`tactica.engine.copying.copy_state` (from its dataclass
fields), the sides are the state's ``sides``, an action the game has no odds of its own for gets the
core's outcome report, and a decision inside an action is answered with its first option.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

import numpy as np

from tactica.battlefield.base import Battlefield, SightOption, SightReport
from tactica.engine.chance import Decide, Step
from tactica.engine.copying import copy_state
from tactica.engine.errors import CapabilityError, IllegalActionError, MapError
from tactica.engine.events import Action, Event, to_json
from tactica.engine.odds import OddsReading, OddsReport, outcome_report
from tactica.engine.ruleset import (
    Capability,
    Matchup,
    MatchupProfile,
    NotCovered,
    OddsChoice,
    OddsValue,
    Pending,
    PreparedKernel,
    RulesetMeta,
    UnitStatus,
)
from tactica.engine.rulings import Rulings

if TYPE_CHECKING:
    from tactica.engine.menu import ActionMenu
    from tactica.engine.scenario import Scenario

__all__ = [
    "Explain",
    "Game",
    "Kernel",
    "Matchups",
    "Menu",
    "Odds",
    "Rules",
    "Setup",
    "Sight",
    "Text",
    "Valuation",
    "lazy",
    "record_text",
]

S = TypeVar("S")
A = TypeVar("A", bound=Action)
E = TypeVar("E", bound=Event)
S_in = TypeVar("S_in", contravariant=True)
A_in = TypeVar("A_in", bound=Action, contravariant=True)


def lazy(module: str, name: str) -> Callable[..., Any]:
    """``module.name``, imported when first called (for a part whose module imports the
    game's package, or is slow to import)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return call


def _sides(state: Any) -> tuple[str, ...]:
    sides: tuple[str, ...] = state.sides
    return sides


# --------------------------------------------------------------------------------------------
# The core: every game has these


class BuildSetup(Protocol):
    """The game's part of a scenario from its fields (a ScenarioError lists every problem);
    ``battlefield`` is ``None`` for a scenario played without a map."""

    def __call__(self, data: Mapping[str, Any], *, source: str, battlefield: Battlefield | None,
                 rulings: Rulings, base_dir: Path) -> object: ...


@dataclass(frozen=True)
class Setup(Generic[S]):
    """A scenario's game part (``build``) and a new battle state from a scenario (``start``)."""

    build: BuildSetup
    start: Callable[[Scenario], S]


@dataclass(frozen=True)
class Rules(Generic[S, A, E]):
    """How a battle runs: what happens next, the chance process of an action, and the one
    place a state changes. ``copy`` defaults to a copy derived from the state's dataclass
    fields; ``sides`` to the state's ``sides``."""

    pending: Callable[[S], Pending]
    resolve: Callable[[S, A], Step]
    apply: Callable[[S, E], None]
    copy: Callable[[S], S] = copy_state
    sides: Callable[[S], tuple[str, ...]] = _sides


def record_text(state: object, record: Action | Event) -> str:
    """A record in plain words from its fields (``duel.shot: unit Lee, roll 8``): what a
    game shows for an action or event it has no sentence for."""
    fields = to_json(record)
    kind = fields.pop("type")
    return f"{kind}: " + ", ".join(f"{k} {v}" for k, v in fields.items())


@dataclass(frozen=True)
class Text(Generic[S, A, E]):
    """What people read: every unit as it stands (``units``), and one line per action and per
    event (by default :func:`record_text`, the record's fields). Optional, for the web page:
    ``ranges``, the distance in words between every two units of different sides (a fight
    without a map), and ``terrain``, ground the map does not draw but a move pays for, by
    place. Optional, for every dice prompt: ``roller``, who physically rolls the roll of that
    label during that action (``None`` when no side acts): a unit's id or a side's name,
    ``None`` to let the front end read it from the label (the first unit or side it names,
    else the acting side), or ``""`` for the acting side whatever the label names. Optional,
    for the web page: ``marks``, what the page draws on the map for the open actions (plain
    JSON, the game's own; ``targets``, by action number, names the unit an action aims at when
    its fields name only a place). Optional, for the unit panel and ``status``: ``figures``,
    every figure of every unit in words by unit id (its weapons, armor, AP, hit points with
    their maximum), shown in place of the ``units`` details it names and after the others."""

    units: Callable[[S], tuple[UnitStatus, ...]]
    action: Callable[[S, A], str] = record_text
    event: Callable[[S, E], str] = record_text
    ranges: Callable[[S], list[tuple[str, str, str]]] | None = None
    terrain: Callable[[S], dict[str, str]] | None = None
    roller: Callable[[S, str, A | None], str | None] | None = None
    marks: Callable[[S, Sequence[A]], dict[str, Any]] | None = None
    figures: Callable[[S], Mapping[str, Mapping[str, str]]] | None = None


# --------------------------------------------------------------------------------------------
# The optional parts (``game.odds`` and the like; ``None`` when the game has none)


class OddsReportOf(Protocol[S_in, A_in]):
    """The game's own odds of an action, or ``None`` for the core's outcome report."""

    def __call__(self, state: S_in, action: A_in,
                 **options: OddsValue) -> OddsReport | None: ...


class OddsReadingOf(Protocol[S_in, A_in]):
    """How the game's report of an action (with the same options) reads the action's
    process, or ``None`` for the core's reading."""

    def __call__(self, state: S_in, action: A_in,
                 **options: OddsValue) -> OddsReading | None: ...


@dataclass(frozen=True)
class Odds(Generic[S, A]):
    """Exact odds: the actions worth asking about (``choices``), the action a command names
    (``action``; by default the one of ``choices`` on those targets, by that means if named),
    and the report of one (``report``; ``None`` from it, or no ``report``, gives the core's
    report of every outcome)."""

    choices: Callable[[S, str], tuple[OddsChoice, ...]]
    action: Callable[[S, str, tuple[str, ...], str | None], A] | None = None
    report: OddsReportOf[S, A] | None = None
    #: How the reports read the action's process when not as the core does (the damage its
    #: events deal and whether someone drops out, decisions taking their first option), said
    #: for people; ``None``: the core's reading, which the conformance sweep compares exactly.
    reads: str | None = None
    #: The same reading for the conformance sweep (:class:`~tactica.engine.odds.OddsReading`:
    #: the process, the answers to its decisions, the damage and dropping out of an outcome),
    #: which it then compares exactly; a game saying ``reads`` without it is held only to
    #: reports that do not contradict themselves.
    reading: OddsReadingOf[S, A] | None = None
    game: Game[Any, Any, Any] | None = field(default=None, compare=False, repr=False)

    def odds_action(self, state: S, unit: str, targets: tuple[str, ...],
                    means: str | None) -> A:
        if self.action is not None:
            return self.action(state, unit, targets, means)
        # No ``action``: the choice of ``unit`` on ``targets`` (by ``means``, if named).
        options = self.choices(state, unit)
        for choice in options:
            if choice.targets == targets and means in (None, choice.means):
                return cast(A, choice.action)
        has = "; ".join(f"{' '.join(c.targets)} by {c.means}" for c in options) or "none"
        by = f" by {means}" if means else ""
        raise IllegalActionError(f"{unit} has no action on {' '.join(targets)}{by} "
                                 f"(its choices: {has})")

    def odds(self, state: S, action: A, **options: OddsValue) -> OddsReport:
        own = self.report(state, action, **options) if self.report is not None else None
        if own is not None:
            return own
        assert self.game is not None, "an Odds part answers once its game is declared"
        return outcome_report(self.game, state, action)


@dataclass(frozen=True)
class Sight(Generic[S]):
    """Sight and cover during a fight: the battlefield as it stands (``battlefield``), the
    sight options the rulings give (``options``). ``report`` defaults to asking the
    battlefield with the rulings' options (``rulings`` reads a state's rulings)."""

    battlefield: Callable[[S], Battlefield | None]
    options: Callable[[Rulings], Mapping[str, SightOption] | Iterable[tuple[str, SightOption]]]
    report: Callable[..., SightReport] | None = None
    rulings: Callable[[S], Rulings] = field(default=lambda state: state.rulings)

    def sight_options(self, rulings: Rulings) -> dict[str, SightOption]:
        return dict(self.options(rulings))

    def sight_report(self, state: S, source: str, target: str,
                     **options: SightOption) -> SightReport:
        if self.report is not None:
            report: SightReport = self.report(state, source, target, **options)
            return report
        where = self.battlefield(state)
        if where is None:
            raise MapError("this scenario is played without a map: there is no sight to "
                           "judge (everyone sees everyone)")
        return where.sight_report(source, target,
                                  **{**dict(self.options(self.rulings(state))), **options})


def _first_option(state: Any, decision: Decide[Any], rng: np.random.Generator | None) -> object:
    return decision.options[0]


@dataclass(frozen=True)
class Valuation(Generic[S, A]):
    """The computer's values, what the ``greedy`` policy plays by: how good each action
    looks to the side taking it (``rank``), and the answer to a decision inside an action
    (``decide``: its first option unless the game says otherwise). A *policy* is who decides
    for a side (:class:`tactica.engine.chance.Policy`); this part is what a game tells it."""

    rank: Callable[[S, Sequence[A]], list[float]]
    decide: Callable[[S, Decide[Any], np.random.Generator | None], object] = _first_option


def _option_text(state: Any, decision: Decide[Any], option: object) -> str:
    return str(option)


@dataclass(frozen=True)
class Explain(Generic[S, A]):
    """Why an action's dice are what they are (``action``), and one option of a decision
    inside an action in words (``option``: its ``str`` unless the game says otherwise)."""

    action: Callable[[S, A], list[str]]
    option: Callable[[S, Decide[Any], object], str] = _option_text


class MatchupOf(Protocol):
    """A scenario with a unit of ``profiles[0]`` ready to attack one of ``profiles[1]``."""

    def __call__(self, profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
                 cover: int | None, rulings: Rulings, pack_files: Sequence[Path],
                 game: str) -> Matchup: ...


class SquadsOf(Protocol):
    """The scenario mapping of two squads (each side's profiles, the first moving first), the
    range that took effect and notes for people."""

    def __call__(self, squads: Mapping[str, Sequence[MatchupProfile]], *, range: int | None,
                 rulings: Rulings, pack_files: Sequence[Path], game: str
                 ) -> tuple[dict[str, Any], int | None, tuple[str, ...]]: ...


@dataclass(frozen=True)
class Matchups:
    """One unit against another without a scenario file (``tactica matrix``): the profiles
    of the built-in and given packs (``profiles``), and the scenario of a matchup
    (``build``, told the game's name)."""

    profiles: Callable[[Sequence[Path]], tuple[str, ...]]
    build: MatchupOf
    game: str = ""
    #: Two squads against each other (``tactica versus``), optional.
    squads: SquadsOf | None = None
    #: The distinct targets of a matrix (default: every profile).
    targets: Callable[[Sequence[Path]], tuple[str, ...]] | None = None
    #: What one whole attack action is (a firing arc's shots, a rate of fire) for
    #: ``tactica matrix``: its odds options, its name and its AP; default a single roll.
    attack: Callable[[Any, OddsChoice], tuple[dict[str, OddsValue], str, int | None]] | None \
        = None
    #: The ranges of a matrix that names none, in the game's measure (``None``: the
    #: game's own default range).
    ranges: tuple[int | None, ...] = (None,)

    def matchup_targets(self, content: Sequence[Path]) -> tuple[str, ...]:
        return (self.targets or self.profiles)(content)

    def squad_matchup(self, squads: Mapping[str, Sequence[MatchupProfile]], *,
                      range: int | None, rulings: Rulings, content: Sequence[Path]
                      ) -> tuple[dict[str, Any], int | None, tuple[str, ...]]:
        if self.squads is None:
            raise CapabilityError(f"{self.game or 'this game'} has no squad matchups")
        return self.squads(squads, range=range, rulings=rulings, pack_files=content,
                           game=self.game)

    def matchup(self, profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
                cover: int | None, rulings: Rulings, content: Sequence[Path]) -> Matchup:
        return self.build(profiles, range=range, cover=cover, rulings=rulings,
                          pack_files=content, game=self.game)


@dataclass(frozen=True)
class Kernel:
    """A compiled simulation kernel: tables for a scenario, or why it cannot play it.

    ``prepare`` is the function, or the name of a module whose ``prepare(scenario)`` it is
    (imported at the first simulation, so that loading the game stays quick)::

        kernel=Kernel("tactica.rulesets.my_game.kernel")
    """

    prepare: Callable[[Scenario], PreparedKernel | NotCovered] | str

    def prepare_kernel(self, scenario: Scenario) -> PreparedKernel | NotCovered:
        prepare = self.prepare
        if isinstance(prepare, str):
            prepare = importlib.import_module(prepare).prepare
        found: PreparedKernel | NotCovered = prepare(scenario)
        return found


@dataclass(frozen=True)
class Menu(Generic[S, A]):
    """The actions laid out for people: grouped, ordered, with their costs."""

    layout: Callable[[S, Sequence[A]], ActionMenu]


# --------------------------------------------------------------------------------------------
# The game


_PARTS = {
    Capability.ODDS: "odds",
    Capability.SIGHT: "sight",
    Capability.EXPLAIN: "explain",
    Capability.VALUATION: "valuation",
    Capability.MATCHUP: "matchups",
    Capability.KERNEL: "kernel",
}


@dataclass(frozen=True, eq=False)
class Game(Generic[S, A, E]):
    """One game: what it is (``meta``; its ``provides`` is filled in from the parts set),
    the module that declares it (``module``: its examples and content packs lie beside it),
    the core parts and the optional ones."""

    meta: RulesetMeta
    module: str
    setup: Setup[S]
    rules: Rules[S, A, E]
    text: Text[S, A, E]
    odds: Odds[S, A] | None = None
    sight: Sight[S] | None = None
    valuation: Valuation[S, A] | None = None
    explain: Explain[S, A] | None = None
    matchups: Matchups | None = None
    kernel: Kernel | None = None
    menu: Menu[S, A] | None = None

    def __post_init__(self) -> None:
        provides = frozenset(c for c, name in _PARTS.items() if getattr(self, name) is not None)
        object.__setattr__(self, "meta", replace(self.meta, provides=provides))
        if self.odds is not None:
            object.__setattr__(self, "odds", replace(self.odds, game=self))
        if self.matchups is not None:
            object.__setattr__(self, "matchups", replace(self.matchups, game=self.meta.name))

    def part(self, capability: Capability) -> object | None:
        """The part that gives ``capability``, or ``None``."""
        found: object | None = getattr(self, _PARTS[capability])
        return found

    # -- what the core calls (RulesetProtocol), answered by the core parts -----------------

    def initial_state(self, scenario: Scenario) -> S:
        return self.setup.start(scenario)

    def pending(self, state: S) -> Pending:
        return self.rules.pending(state)

    # The core hands a game only its own actions and events (the legal ones it listed, the
    # events its processes emit): these methods take any, the parts the game's own types.

    def resolve(self, state: S, action: Action) -> Step:
        return self.rules.resolve(state, cast(A, action))

    def apply_event(self, state: S, event: Event) -> None:
        self.rules.apply(state, cast(E, event))

    def copy_state(self, state: S) -> S:
        return self.rules.copy(state)

    def sides_of(self, state: S) -> tuple[str, ...]:
        return self.rules.sides(state)

    def describe_action(self, state: S, action: Action) -> str:
        return self.text.action(state, cast(A, action))

    def describe_event(self, state: S, event: Event) -> str:
        return self.text.event(state, cast(E, event))

    def units(self, state: S) -> tuple[UnitStatus, ...]:
        return self.text.units(state)

    def __repr__(self) -> str:
        return f"Game({self.meta.name!r})"

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        # A game is pickled as where it is declared (a scenario sent to a worker process
        # names its game; the parts are functions of the declaring module).
        module = sys.modules.get(self.module)
        for name, value in vars(module).items() if module is not None else ():
            if value is self:
                return _declared_at, (self.module, name)
        raise TypeError(f"{self!r} is pickled by name: declare it at the top of {self.module}")


def _declared_at(module: str, name: str) -> Game[Any, Any, Any]:
    game: Game[Any, Any, Any] = getattr(importlib.import_module(module), name)
    return game
