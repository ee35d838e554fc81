"""The contract between the core and a game: declared metadata and typed hooks.

A game (a *ruleset*) is one object with a :class:`RulesetMeta` and the hooks of the protocols
below. The core never asks which game is running and never probes a game for a hook: it calls
the :class:`Rules` hooks every game has, and reaches the optional ones only through
:func:`setup_hooks`, :func:`odds_hooks`, :func:`sight_hooks`, :func:`explain_hooks`,
:func:`policy_hooks`, :func:`matchup_hooks` and :func:`kernel_hooks`, which answer from what
the game *declares* in ``meta.provides`` (and say plainly when it does not). :func:`register`
checks a game against its declaration and refuses it with a message naming what is missing.

Games are plug-ins: the built-in ones and any other package's are found through the Python
entry point group ``tactica.rulesets`` (see :func:`rulesets`), so a sixth game is one package
that touches no core file. See ``docs/adding-a-game.md``.

The shape of a battle, as the core sees it:

* :meth:`Rules.pending` says what happens next: a side chooses an action
  (:class:`ChooseAction`), something happens by itself (:class:`Automatic`: initiative, the end
  of a round, explosives, wound dice), or the battle is over (:class:`Finished`).
* :meth:`Rules.resolve` turns a chosen action into a chance process (:mod:`tactica.engine.chance`)
that
  emits events; the core appends them to the log and applies them with
  :meth:`Rules.apply_event`, the only place where a battle's state changes. A process reads the
  effect of the events it has emitted so far with :class:`tactica.engine.chance.Observe`.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from tactica.battlefield.base import Battlefield, SightOption, SightReport
from tactica.engine.chance import Decide, Step
from tactica.engine.errors import CapabilityError, TacticaError
from tactica.engine.events import Action, Event
from tactica.engine.odds import OddsReport
from tactica.engine.plugins import broken_plugins, discover
from tactica.engine.rulings import Ruling, Rulings

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario
    from tactica.engine.stats import BattleResult

__all__ = [
    "ENTRY_POINT_GROUP",
    "HOOKS",
    "Aiming",
    "Automatic",
    "Capability",
    "ChooseAction",
    "ExplainHooks",
    "Finished",
    "KernelHooks",
    "Matchup",
    "MatchupHooks",
    "MatchupProfile",
    "NotCovered",
    "OddsChoice",
    "OddsHooks",
    "OddsOption",
    "OddsValue",
    "Pending",
    "PolicyHooks",
    "PreparedKernel",
    "Rules",
    "Ruleset",
    "RulesetMeta",
    "Ruling",
    "Rulings",
    "SetupHooks",
    "SightHooks",
    "UnitStatus",
    "builtin_packs",
    "example_scenarios",
    "explain_hooks",
    "get_ruleset",
    "kernel_hooks",
    "matchup_hooks",
    "odds_hooks",
    "policy_hooks",
    "register",
    "rulesets",
    "setup_hooks",
    "sight_hooks",
    "unregister",
]

S = TypeVar("S")
S_in = TypeVar("S_in", contravariant=True)

#: The entry point group through which packages declare games.
ENTRY_POINT_GROUP = "tactica.rulesets"


class Capability(enum.StrEnum):
    """The optional parts of the contract a game may provide (declared in its meta)."""

    SETUP = "setup"
    """Build the game's part of a scenario (units, content): :class:`SetupHooks`."""
    ODDS = "odds"
    """Exact odds of any action: :class:`OddsHooks`."""
    SIGHT = "sight"
    """Sight and cover between units during a fight: :class:`SightHooks`."""
    EXPLAIN = "explain"
    """Explanations for people (why the dice are what they are): :class:`ExplainHooks`."""
    POLICY = "policy"
    """Values for the computer's choices: :class:`PolicyHooks`."""
    MATCHUP = "matchup"
    """One unit against another at a chosen range and cover, without a scenario file:
    :class:`MatchupHooks` (``tactica matrix``, matchup sweeps)."""
    KERNEL = "kernel"
    """A compiled simulation kernel that plays the reference's battles faster:
    :class:`KernelHooks` (used by simulation whenever it covers a battle)."""


#: The hooks each capability requires (checked by :func:`register`).
HOOKS: Mapping[Capability | None, tuple[str, ...]] = {
    None: ("initial_state", "pending", "resolve", "apply_event", "copy_state",
           "describe_action", "describe_event", "sides_of", "units"),
    Capability.SETUP: ("build_setup",),
    Capability.ODDS: ("odds_choices", "odds_action", "odds"),
    Capability.SIGHT: ("battlefield_of", "sight_options", "sight_report"),
    Capability.EXPLAIN: ("explain_action", "describe_option"),
    Capability.POLICY: ("rank_actions", "choose_decision"),
    Capability.MATCHUP: ("matchup_profiles", "matchup"),
    Capability.KERNEL: ("prepare_kernel",),
}

#: The value of a game-specific odds option (``--defend`` is ``True``, ``--aim 2`` is ``"2"``).
OddsValue = bool | str


@dataclass(frozen=True)
class OddsOption:
    """A game-specific option of the odds of an action (``--defend``, ``--aim N``).

    ``takes_value`` False: a flag (``--defend``); True: ``--name VALUE``, one of ``choices``
    when they are given. ``case``: a flag that the target chooses during the attack (an
    evasion), so the attack's preview shows its odds with the flag beside those without.
    """

    name: str
    help: str
    takes_value: bool = False
    choices: tuple[str, ...] = ()
    case: bool = False


@dataclass(frozen=True)
class RulesetMeta:
    """What a game declares about itself.

    ``battlefield`` is the map kind its scenarios use, or ``None`` for a game played without a
    map; such a game may still accept a map of the kinds in ``optional_maps``. ``provides``
    lists the optional capabilities it implements. ``odds_options`` are the
    game's own options of ``odds``. ``examples`` is the folder inside the game's package that
    holds its example scenarios (listed by ``tactica games``).
    """

    name: str
    title: str
    battlefield: str | None
    rulings: tuple[Ruling, ...]
    provides: frozenset[Capability] = frozenset()
    odds_options: tuple[OddsOption, ...] = ()
    aliases: tuple[str, ...] = ()
    source: str = ""
    summary: str = ""
    examples: str | None = "examples"
    optional_maps: tuple[str, ...] = ()
    content: tuple[str, ...] = ()
    """The built-in content pack files beside the game's module (a sweep may change them)."""

    def has(self, capability: Capability) -> bool:
        """True if the game declares ``capability``."""
        return capability in self.provides


# --------------------------------------------------------------------------------------------
# What happens next


class Aiming(Protocol):
    """Actions a person may aim at any bearing (a firing arc "oriented in any direction"),
    beyond the finite list a side chooses from: the computer keeps to the list."""

    def aim(self, action: Action, bearing: Fraction) -> Action | None:
        """``action`` (one of the listed ones) aimed at ``bearing`` degrees clockwise from
        east, or ``None`` if it cannot be aimed."""
        ...

    def accepts(self, action: Action) -> bool:
        """Whether ``action``, not listed, is an aimed action legal now (checked when it is
        taken and when a log is replayed)."""
        ...


@dataclass(frozen=True)
class ChooseAction:
    """``side`` must choose one of ``actions``; ``prompt`` says what for (for people);
    ``aiming``: the actions a person may aim at any bearing instead (``None``: none)."""

    side: str
    actions: tuple[Action, ...]
    prompt: str = ""
    aiming: Aiming | None = field(default=None, compare=False, repr=False)

    def allows(self, action: Action) -> bool:
        """Whether ``action`` may be taken now: one of ``actions`` or an aimed one."""
        # A policy hands back one of the options themselves: find it by identity before
        # comparing values (an action's equality compares all its fields).
        for option in self.actions:
            if option is action:
                return True
        return action in self.actions or (self.aiming is not None
                                          and self.aiming.accepts(action))


@dataclass(frozen=True)
class Automatic:
    """Something happens by itself: run ``process`` (it may roll and emit events)."""

    label: str
    process: Step


@dataclass(frozen=True)
class Finished:
    """The battle is over: ``winner`` is a side or ``None`` for a draw."""

    winner: str | None
    reason: str


Pending = ChooseAction | Automatic | Finished


@dataclass(frozen=True)
class UnitStatus:
    """One unit as a game shows it: its side, whether it still fights (and may be targeted),
    where it stands (the map kind's text, or ``None``) and a few figures for people
    (``{"defense": 2}``)."""

    id: str
    side: str
    in_action: bool
    place: str | None = None
    details: Mapping[str, str | int | bool] = field(default_factory=dict)
    survived: bool | None = None
    """Whether it came through the fight (``None``: the same as ``in_action``; a unit that
    fled or retreated is out of the fight but survived)."""


@dataclass(frozen=True)
class OddsChoice:
    """An action whose odds make sense (an attack, an ability on targets), named for people:
    who acts, on which targets, by what means (a weapon, an ability)."""

    unit: str
    targets: tuple[str, ...]
    means: str
    action: Action


#: Who takes part in a matchup: a profile name of the content packs (what
#: :meth:`MatchupHooks.matchup_profiles` lists), or one unit's entry as a scenario's ``units:``
#: mapping writes it (``{"side": "red", "profile": "trooper", "armor": 4, "at": [2, 3]}``); the
#: game ignores whatever places the unit (its side, where it stands) and keeps the rest.
MatchupProfile = str | Mapping[str, Any]


def squad_size(squads: Mapping[str, Sequence[MatchupProfile]], limit: int, members: str) -> int:
    """The size of the larger of two squads, checked: exactly two squads, each of at most
    ``limit`` ``members`` (a game's word: "troopers", "characters"), else a TacticaError.

    >>> squad_size({"red": ["smg"] * 4, "blue": ["rifle"] * 3}, 13, "troopers")
    4
    >>> squad_size({"red": ["smg"] * 14, "blue": ["rifle"]}, 13, "troopers")
    Traceback (most recent call last):
    tactica.engine.errors.TacticaError: a squad has at most 13 troopers here, got 14
    """
    if len(squads) != 2:
        raise TacticaError(f"a squad matchup has two squads, got {len(squads)}")
    size = max(len(s) for s in squads.values())
    if size > limit:
        raise TacticaError(f"a squad has at most {limit} {members} here, got {size}")
    return size


@dataclass(frozen=True)
class Matchup:
    """Two units set up for a matchup: a scenario and who attacks whom in it.

    ``scenario`` is a complete scenario mapping (``game``, ``rulings``, ``map`` when the game
    has one, its units, ``content`` with absolute paths), exactly as a scenario file would
    hold it: the core validates it with :func:`tactica.engine.scenario.scenario_from_mapping` and
    asks the odds of ``attacker`` acting on ``target`` in its starting position. ``range`` and
    ``cover`` are the values that took effect, ``None`` for a parameter that means nothing in
    the game (a game on rows has no range); ``notes`` tell people how the game read them
    ("cover: 3 of 4 sight lines clear"; "within 3 tiles nobody benefits from cover").
    """

    scenario: Mapping[str, Any]
    attacker: str
    target: str
    range: int | None
    cover: int | None
    notes: tuple[str, ...] = ()


# --------------------------------------------------------------------------------------------
# The protocols


@runtime_checkable
class Rules(Protocol[S]):
    """The hooks every game has. ``S`` is the game's own (mutable, copyable) state type."""

    @property
    def meta(self) -> RulesetMeta:
        """What the game declares about itself."""
        ...

    def initial_state(self, scenario: Scenario) -> S:
        """A new battle state from a validated scenario."""
        ...

    def pending(self, state: S) -> Pending:
        """What happens next in ``state``."""
        ...

    def resolve(self, state: S, action: Action) -> Step:
        """The chance process of ``action`` in ``state``; it emits events and ends in Done.

        Must not change ``state``; may assume ``action`` is legal.
        """
        ...

    def apply_event(self, state: S, event: Event) -> None:
        """Change ``state`` by one event: the only mutation of a battle."""
        ...

    def copy_state(self, state: S) -> S:
        """An independent copy of ``state``."""
        ...

    def describe_action(self, state: S, action: Action) -> str:
        """One line for people (``A moves to 3,4``)."""
        ...

    def describe_event(self, state: S, event: Event) -> str:
        """One line for people."""
        ...

    def sides_of(self, state: S) -> tuple[str, ...]:
        """The sides of the battle, in order."""
        ...

    def units(self, state: S) -> tuple[UnitStatus, ...]:
        """Every unit of the battle, in scenario order, as it stands now."""
        ...


@runtime_checkable
class SetupHooks(Protocol):
    """Building the game's part of a scenario."""

    def build_setup(self, data: Mapping[str, Any], *, source: str,
                    battlefield: Battlefield | None, rulings: Rulings, base_dir: Path) -> object:
        """The game's setup from the scenario's fields (``data``), or a ScenarioError listing
        every problem; ``battlefield`` is ``None`` for a game played without a map."""
        ...


@runtime_checkable
class OddsHooks(Protocol[S_in]):
    """Exact odds of any action."""

    def odds_choices(self, state: S_in, unit: str) -> tuple[OddsChoice, ...]:
        """Every action of ``unit`` whose odds make sense, from where it stands now (turn
        order ignored): what ``odds --table`` lists."""
        ...

    def odds_action(self, state: S_in, unit: str, targets: tuple[str, ...],
                    means: str | None) -> Action:
        """The action of ``unit`` on ``targets`` by ``means`` (``None``: the game's default);
        an IllegalActionError says why there is none."""
        ...

    def odds(self, state: S_in, action: Action, **options: OddsValue) -> OddsReport:
        """The exact outcome of ``action`` (options: the game's declared odds options)."""
        ...


@runtime_checkable
class SightHooks(Protocol[S_in]):
    """Sight and cover between units during a fight."""

    def battlefield_of(self, state: S_in) -> Battlefield | None:
        """The battlefield as it stands now (units where they are); ``None`` for a scenario
        played without a map in a game whose map is optional."""
        ...

    def sight_options(self, rulings: Rulings) -> Mapping[str, SightOption]:
        """The battlefield's sight options under these rulings."""
        ...

    def sight_report(self, state: S_in, source: str, target: str,
                     **options: SightOption) -> SightReport:
        """Sight and cover between two units (or places) now, under the rulings in force;
        ``options`` override the rulings' sight options."""
        ...


@runtime_checkable
class ExplainHooks(Protocol[S_in]):
    """Explanations for people."""

    def explain_action(self, state: S_in, action: Action) -> list[str]:
        """Why an action's dice are what they are (sight, cover, what each die needs)."""
        ...

    def describe_option(self, state: S_in, decision: Decide[Any], option: object) -> str:
        """One option of a decision inside an action, in words."""
        ...


@runtime_checkable
class PolicyHooks(Protocol[S_in]):
    """What the computer needs to choose well."""

    def rank_actions(self, state: S_in, actions: Sequence[Action]) -> list[float]:
        """How good each action looks for the side taking it (higher is better)."""
        ...

    def choose_decision(self, state: S_in, decision: Decide[Any],
                        rng: np.random.Generator | None) -> object:
        """The computer's answer to a decision inside an action."""
        ...


@runtime_checkable
class MatchupHooks(Protocol):
    """One unit against another without a scenario file: what ``tactica matrix`` asks."""

    def matchup_profiles(self, content: Sequence[Path]) -> tuple[str, ...]:
        """The profiles of the built-in packs and of ``content`` (absolute paths)."""
        ...

    def matchup(self, profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
                cover: int | None, rulings: Rulings, content: Sequence[Path]) -> Matchup:
        """A scenario in which a unit of ``profiles[0]`` stands ready to attack a unit of
        ``profiles[1]`` (on another side), built through the game's own geometry:

        * ``range``: the distance between the two in the game's own measure (tiles under the
          rulings' metric, areas, inches); ``None``: the game's natural default (the closest
          range at which its ranged weapons work, or none for a game without range);
        * ``cover``: the cover the target stands in, ``0`` none, ``1`` the game's ordinary
          cover, higher numbers heavier cover where the game has levels; ``None``: no cover;
        * ``rulings``: the rulings in force; ``content``: packs added to the built-in ones.

        A parameter the game has no use for is ignored and reported as ``None`` in the
        :class:`Matchup`, with a note; a value it cannot set up (a cover level it does not
        have, an unknown profile) is a TacticaError naming what it has."""
        ...


@dataclass(frozen=True)
class NotCovered:
    """What a simulation kernel answers for a scenario or a battle it does not play (a ruling
    option, a map size, a policy, a content feature, or no compiled extension): the reference
    plays it instead. ``reason`` says why, for people."""

    reason: str


@runtime_checkable
class PreparedKernel(Protocol):
    """A game's compiled kernel made ready for one scenario (its rulings included)."""

    def play(self, policies: Mapping[str, str], seed: int, index: int,
             max_steps: int) -> BattleResult | NotCovered:
        """Battle ``index`` of a run seeded with ``seed``, each side played by the policy named
        in ``policies`` (``greedy``, ``random``), stopped after ``max_steps`` steps: exactly
        the :class:`~tactica.analysis.sim.tally.BattleResult` the reference gives
        (:func:`tactica.analysis.sim.play.play_battle`), or :class:`NotCovered`."""
        ...


@runtime_checkable
class ConsultingKernel(Protocol):
    """A prepared kernel that also says which rulings each battle consulted (the counts of
    ``simulate --compare``, ``sweep`` over a ruling and ``tactica effects``). A kernel
    without this method answers :class:`NotCovered` whenever those counts are asked for, and
    the reference plays."""

    def play_consulted(self, policies: Mapping[str, str], seed: int, index: int,
                       max_steps: int) -> tuple[BattleResult, int] | NotCovered:
        """As :meth:`PreparedKernel.play`, with a bit mask of the rulings the battle
        consulted: bit ``i`` set when it read ruling number ``i`` of the game's declaration
        order (``scenario.rulings.declared()[i]``), exactly when the reference's
        :func:`~tactica.analysis.sim.play.play_battle` (``consulted=True``) records that ruling."""
        ...


@runtime_checkable
class KernelHooks(Protocol):
    """A compiled simulation kernel (see ``docs/simulation.md``): bulk simulation only; the
    Python rules stay the reference, and an equivalence test keeps the two in step."""

    def prepare_kernel(self, scenario: Scenario) -> PreparedKernel | NotCovered:
        """Tables built once for ``scenario`` (from the reference's own geometry, content and
        odds), or :class:`NotCovered` when the kernel cannot play its battles."""
        ...


#: A registered game, whatever its state type.
Ruleset = Rules[Any]

def _declared(ruleset: object) -> Any:
    """The game as a :class:`tactica.engine.game.Game` declaration, or ``None`` (a game written as a
    class with hook methods)."""
    from tactica.engine.game import Game

    return ruleset if isinstance(ruleset, Game) else None


def _hooks(ruleset: Ruleset, capability: Capability) -> Any:
    game = _declared(ruleset)
    return ruleset if game is None else game.part(capability)


def _require(ruleset: Ruleset, capability: Capability, what: str) -> None:
    if capability not in ruleset.meta.provides:
        has = ", ".join(sorted(c.value for c in ruleset.meta.provides)) or "none"
        raise CapabilityError(
            f"{ruleset.meta.title} has no {what} (its optional capabilities: {has})"
        )


def setup_hooks(ruleset: Ruleset) -> SetupHooks:
    """The game's setup hooks, or a CapabilityError."""
    _require(ruleset, Capability.SETUP, "scenario setup")
    hooks = _hooks(ruleset, Capability.SETUP)
    assert isinstance(hooks, SetupHooks)
    return hooks


def odds_hooks(ruleset: Ruleset) -> OddsHooks[Any]:
    """The game's odds hooks, or a CapabilityError ("X has no odds")."""
    _require(ruleset, Capability.ODDS, "odds")
    hooks = _hooks(ruleset, Capability.ODDS)
    assert isinstance(hooks, OddsHooks)
    return hooks


def sight_hooks(ruleset: Ruleset) -> SightHooks[Any]:
    """The game's sight hooks, or a CapabilityError (a game without a map has none)."""
    _require(ruleset, Capability.SIGHT, "sight (it is played without a map)"
             if ruleset.meta.battlefield is None else "sight questions during a fight")
    hooks = _hooks(ruleset, Capability.SIGHT)
    assert isinstance(hooks, SightHooks)
    return hooks


def explain_hooks(ruleset: Ruleset) -> ExplainHooks[Any] | None:
    """The game's explanations, or ``None`` if it declares none (people then see less)."""
    if Capability.EXPLAIN not in ruleset.meta.provides:
        return None
    hooks = _hooks(ruleset, Capability.EXPLAIN)
    assert isinstance(hooks, ExplainHooks)
    return hooks


def policy_hooks(ruleset: Ruleset) -> PolicyHooks[Any] | None:
    """The game's policy hooks, or ``None`` (the computer then takes the first option)."""
    if Capability.POLICY not in ruleset.meta.provides:
        return None
    hooks = _hooks(ruleset, Capability.POLICY)
    assert isinstance(hooks, PolicyHooks)
    return hooks


def matchup_hooks(ruleset: Ruleset) -> MatchupHooks:
    """The game's matchup hooks, or a CapabilityError ("X has no matchups")."""
    _require(ruleset, Capability.MATCHUP, "matchups (the 'matchup' hooks of tactica matrix)")
    hooks = _hooks(ruleset, Capability.MATCHUP)
    assert isinstance(hooks, MatchupHooks)
    return hooks


def kernel_hooks(ruleset: Ruleset) -> KernelHooks | None:
    """The game's simulation kernel hooks, or ``None`` (the reference plays every battle)."""
    if Capability.KERNEL not in ruleset.meta.provides:
        return None
    hooks = _hooks(ruleset, Capability.KERNEL)
    assert isinstance(hooks, KernelHooks)
    return hooks


# --------------------------------------------------------------------------------------------
# The registry

_RULESETS: dict[str, Ruleset] = {}
_ALIASES: dict[str, str] = {}


def _missing(ruleset: object, names: tuple[str, ...]) -> list[str]:
    # Registration is the one place that looks at what an object has: it checks a game against
    # its declaration, so that nothing later needs to.
    cls = type(ruleset)
    return [n for n in names if not callable(getattr(cls, n, None))]


def _contract_problems(ruleset: object) -> list[str]:
    if _declared(ruleset) is not None:
        return _meta_problems(ruleset.meta)  # type: ignore[attr-defined]
    meta = getattr(type(ruleset), "meta", None)
    if not isinstance(meta, RulesetMeta):
        return ["it has no class attribute 'meta' holding a RulesetMeta"]
    problems: list[str] = []
    for capability, names in HOOKS.items():
        declared = capability is None or capability in meta.provides
        missing = _missing(ruleset, names)
        label = "core" if capability is None else f"'{capability.value}'"
        if declared and missing:
            problems.append(f"it declares the {label} hooks but lacks {', '.join(missing)}")
        elif not declared and not missing:
            problems.append(
                f"it has every {label} hook ({', '.join(names)}) but does not declare "
                f"Capability.{capability.name if capability else ''} in meta.provides"
            )
    return problems + _meta_problems(meta)


def _meta_problems(meta: RulesetMeta) -> list[str]:
    problems: list[str] = []
    if not meta.name or meta.name != meta.name.strip().lower() or " " in meta.name:
        problems.append(f"meta.name {meta.name!r} must be lower-case without spaces")
    seen: set[str] = set()
    for ruling in meta.rulings:
        if ruling.id in seen:
            problems.append(f"ruling {ruling.id} is declared twice")
        seen.add(ruling.id)
        if ruling.default not in ruling.options:
            problems.append(f"ruling {ruling.id}: default {ruling.default!r} is not an option")
    for option in meta.odds_options:
        if not option.name.replace("-", "").isalnum():
            problems.append(f"odds option {option.name!r} must be a word (letters, digits, -)")
    if meta.odds_options and Capability.ODDS not in meta.provides:
        problems.append("it declares odds options but not the 'odds' capability")
    return problems


def register(ruleset: Any) -> Ruleset:
    """Make a game available by its name and aliases, after checking it against its declared
    contract; a game that does not fit is refused with a TacticaError naming every problem."""
    problems = _contract_problems(ruleset)
    if problems:
        name = repr(ruleset) if _declared(ruleset) is not None else type(ruleset).__name__
        raise TacticaError(f"cannot register game {name}: " + "; ".join(problems))
    meta: RulesetMeta = ruleset.meta
    for alias in (meta.name, *meta.aliases):
        owner = _ALIASES.get(alias.lower())
        if owner is not None and owner != meta.name:
            raise TacticaError(
                f"cannot register game {meta.name!r}: the name {alias!r} is taken by {owner!r}"
            )
    _RULESETS[meta.name] = ruleset
    for alias in (meta.name, *meta.aliases):
        _ALIASES[alias.lower()] = meta.name
    return ruleset  # type: ignore[no-any-return]


def unregister(name: str) -> None:
    """Forget a registered game (tests that register toy games clean up with this)."""
    meta = _RULESETS.pop(name).meta
    for alias in (meta.name, *meta.aliases):
        _ALIASES.pop(alias.lower(), None)


def _accept(found: object) -> None:
    meta = getattr(found, "meta", None)
    if isinstance(meta, RulesetMeta) and meta.name in _RULESETS:
        return  # registered already (by import, or by a test under the same name)
    register(found)


def _discover() -> None:
    discover(ENTRY_POINT_GROUP, _accept)  # a broken plug-in is skipped (tactica games says so)


def rulesets() -> tuple[Ruleset, ...]:
    """Every registered game, by name."""
    _discover()
    return tuple(_RULESETS[k] for k in sorted(_RULESETS))


def get_ruleset(name: str, *, where: str = "game") -> Ruleset:
    """The game called ``name`` (or an alias), or a TacticaError listing the known games."""
    _discover()
    key = _ALIASES.get(str(name).lower())
    if key is None:
        known = ", ".join(sorted(_RULESETS))
        broken = [b for b in broken_plugins(ENTRY_POINT_GROUP) if b.name == str(name).lower()]
        why = f"; the {broken[0]}" if broken else ""
        raise TacticaError(f"{where}: unknown game {name!r} (expected one of {known}){why}")
    return _RULESETS[key]


def example_scenarios(ruleset: Ruleset) -> tuple[Path, ...]:
    """The example scenario files shipped with the game: the YAML files in the folder
    ``meta.examples`` beside the game's module whose ``game:`` names this game."""
    folder = ruleset.meta.examples
    where = _module_file(ruleset)
    if folder is None or not where:
        return ()
    path = Path(where).parent / folder
    if not path.is_dir():
        return ()
    names = {ruleset.meta.name, *ruleset.meta.aliases}
    return tuple(sorted(p for p in path.glob("*.yaml") if _game_named(p) in names))


def builtin_packs(ruleset: Ruleset) -> tuple[Path, ...]:
    """The game's built-in content pack files (``meta.content``, beside its module)."""
    where = _module_file(ruleset)
    if not where:
        return ()
    return tuple(Path(where).parent / name for name in ruleset.meta.content)


def _module_file(ruleset: Ruleset) -> str | None:
    game = _declared(ruleset)
    module = sys.modules.get(game.module if game is not None else type(ruleset).__module__)
    where: str | None = getattr(module, "__file__", None)
    return where


def _game_named(path: Path) -> str | None:
    try:
        head = path.read_text(encoding="utf-8")[:4000]
    except (OSError, UnicodeDecodeError):
        return None
    for line in head.splitlines():
        if line.startswith("game:"):
            return line.partition(":")[2].split("#")[0].strip().strip("'\"")
    return None
