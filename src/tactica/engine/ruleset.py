"""The core's side of the contract with a game: what a game declares, what happens next, and
the registry.

A game is one :class:`tactica.engine.game.Game` value (its :class:`RulesetMeta` and its parts;
see that module). The core never asks which game is running and never probes a game: it calls
what every game has (:class:`RulesetProtocol`, answered by a Game from its core parts), and
reaches an optional part only through :func:`odds_hooks`, :func:`sight_hooks`,
:func:`explain_hooks`, :func:`valuation_hooks`, :func:`matchup_hooks` and :func:`kernel_hooks`,
which answer with the part, or say plainly when the game has none. :func:`register` checks a
game's declaration and refuses it with a message naming each problem.

Games are plug-ins: the built-in ones and any other package's are found through the Python
entry point group ``tactica.rulesets`` (see :func:`rulesets`), so a sixth game is one package
that touches no core file. See ``docs/adding-a-game.md``.

The shape of a battle, as the core sees it:

* ``pending`` (the ``Rules`` part's) says what happens next: a side chooses an action
  (:class:`ChooseAction`), something happens by itself (:class:`Automatic`: initiative, the end
  of a round, explosives, wound dice), or the battle is over (:class:`Finished`).
* ``resolve`` turns a chosen action into a chance process (:mod:`tactica.engine.chance`) that
  emits events; the core appends them to the log and applies them with ``apply``, the only
  place where a battle's state changes. A process reads the effect of the events it has
  emitted so far with :class:`tactica.engine.chance.Observe`.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar, runtime_checkable

from tactica.engine.chance import Step
from tactica.engine.errors import CapabilityError, TacticaError
from tactica.engine.events import Action, Event
from tactica.engine.plugins import broken_plugins, discover
from tactica.engine.rulings import Ruling, Rulings

if TYPE_CHECKING:
    from tactica.engine.game import Explain, Game, Kernel, Matchups, Odds, Sight, Valuation
    from tactica.engine.scenario import Scenario
    from tactica.engine.stats import BattleResult

__all__ = [
    "ENTRY_POINT_GROUP",
    "Aiming",
    "Automatic",
    "Capability",
    "ChooseAction",
    "Finished",
    "Matchup",
    "MatchupProfile",
    "NotCovered",
    "OddsChoice",
    "OddsOption",
    "OddsValue",
    "Pending",
    "PreparedKernel",
    "Ruleset",
    "RulesetMeta",
    "RulesetProtocol",
    "Ruling",
    "Rulings",
    "UnitStatus",
    "builtin_packs",
    "example_scenarios",
    "explain_hooks",
    "get_ruleset",
    "kernel_hooks",
    "matchup_hooks",
    "odds_hooks",
    "register",
    "rulesets",
    "sight_hooks",
    "unregister",
    "valuation_hooks",
]

S = TypeVar("S")
S_in = TypeVar("S_in", contravariant=True)

#: The entry point group through which packages declare games.
ENTRY_POINT_GROUP = "tactica.rulesets"


class Capability(enum.StrEnum):
    """The optional parts a game may set (its ``meta.provides``, filled in from the parts of
    its :class:`~tactica.engine.game.Game`). The core parts, ``setup``, ``rules`` and ``text``,
    are not capabilities: every game has them."""

    ODDS = "odds"
    """Exact odds of any action: the ``Odds`` part."""
    SIGHT = "sight"
    """Sight and cover between units during a fight: the ``Sight`` part."""
    EXPLAIN = "explain"
    """Explanations for people (why the dice are what they are): the ``Explain`` part."""
    VALUATION = "valuation"
    """Values for the computer's choices (what the ``greedy`` policy plays by): the
    ``Valuation`` part."""
    MATCHUP = "matchup"
    """One unit against another at a chosen range and cover, without a scenario file:
    the ``Matchups`` part (``tactica matrix``, matchup sweeps)."""
    KERNEL = "kernel"
    """A compiled simulation kernel that plays the reference's battles faster: the
    ``Kernel`` part (used by simulation whenever it covers a battle)."""


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
#: ``Matchups.profiles`` lists), or one unit's entry as a scenario's ``units:``
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
# What the core calls


@runtime_checkable
class RulesetProtocol(Protocol[S]):
    """What the core calls on a registered game, whatever its types: a
    :class:`tactica.engine.game.Game` answers each method from its parts (``pending`` from
    ``rules.pending``, ``initial_state`` from ``setup.start``, ``describe_event`` from
    ``text.event``), so a game never writes these; they are the core's side of the contract,
    not a second way to declare a game. ``S`` is the game's own (mutable, copyable) state type.
    """

    @property
    def meta(self) -> RulesetMeta:
        """What the game declares about itself."""
        ...

    def initial_state(self, scenario: Scenario) -> S:
        """A new battle state from a validated scenario (``Setup.start``)."""
        ...

    def pending(self, state: S) -> Pending:
        """What happens next in ``state`` (``Rules.pending``)."""
        ...

    def resolve(self, state: S, action: Action) -> Step:
        """The chance process of ``action`` in ``state``; it emits events and ends in Done
        (``Rules.resolve``). Must not change ``state``; may assume ``action`` is legal.
        """
        ...

    def apply_event(self, state: S, event: Event) -> None:
        """Change ``state`` by one event: the only mutation of a battle (``Rules.apply``)."""
        ...

    def copy_state(self, state: S) -> S:
        """An independent copy of ``state`` (``Rules.copy``)."""
        ...

    def describe_action(self, state: S, action: Action) -> str:
        """One line for people (``A moves to 3,4``; ``Text.action``)."""
        ...

    def describe_event(self, state: S, event: Event) -> str:
        """One line for people (``Text.event``)."""
        ...

    def sides_of(self, state: S) -> tuple[str, ...]:
        """The sides of the battle, in order (``Rules.sides``)."""
        ...

    def units(self, state: S) -> tuple[UnitStatus, ...]:
        """Every unit of the battle, in scenario order, as it stands now (``Text.units``)."""
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


#: A registered game, whatever its types: a :class:`tactica.engine.game.Game`.
if TYPE_CHECKING:
    Ruleset: TypeAlias = Game[Any, Any, Any]
else:  # annotations only; at run time the registry holds Game values
    Ruleset = RulesetProtocol[Any]


def _require(ruleset: Ruleset, capability: Capability, what: str) -> None:
    if capability not in ruleset.meta.provides:
        has = ", ".join(sorted(c.value for c in ruleset.meta.provides)) or "none"
        raise CapabilityError(
            f"{ruleset.meta.title} has no {what} (its optional parts: {has})"
        )


def odds_hooks(ruleset: Ruleset) -> Odds[Any, Any]:
    """The game's :class:`~tactica.engine.game.Odds` part, or a CapabilityError ("X has no
    odds")."""
    _require(ruleset, Capability.ODDS, "odds")
    assert ruleset.odds is not None
    return ruleset.odds


def sight_hooks(ruleset: Ruleset) -> Sight[Any]:
    """The game's :class:`~tactica.engine.game.Sight` part, or a CapabilityError (a game
    without a map has none)."""
    _require(ruleset, Capability.SIGHT, "sight (it is played without a map)"
             if ruleset.meta.battlefield is None else "sight questions during a fight")
    assert ruleset.sight is not None
    return ruleset.sight


def explain_hooks(ruleset: Ruleset) -> Explain[Any, Any] | None:
    """The game's :class:`~tactica.engine.game.Explain` part, or ``None`` if it has none
    (people then see less)."""
    return ruleset.explain


def valuation_hooks(ruleset: Ruleset) -> Valuation[Any, Any] | None:
    """The game's :class:`~tactica.engine.game.Valuation` part, or ``None`` (the computer
    then takes the first option)."""
    return ruleset.valuation


def matchup_hooks(ruleset: Ruleset) -> Matchups:
    """The game's :class:`~tactica.engine.game.Matchups` part, or a CapabilityError ("X has
    no matchups")."""
    _require(ruleset, Capability.MATCHUP, "matchups (the 'matchups' part of tactica matrix)")
    assert ruleset.matchups is not None
    return ruleset.matchups


def kernel_hooks(ruleset: Ruleset) -> Kernel | None:
    """The game's :class:`~tactica.engine.game.Kernel` part, or ``None`` (the reference plays
    every battle)."""
    return ruleset.kernel


# --------------------------------------------------------------------------------------------
# The registry

_RULESETS: dict[str, Ruleset] = {}
_ALIASES: dict[str, str] = {}


def _is_game(ruleset: object) -> bool:
    from tactica.engine.game import Game

    return isinstance(ruleset, Game)


def _contract_problems(ruleset: object) -> list[str]:
    from tactica.engine.game import Game

    if not isinstance(ruleset, Game):
        return [f"it is a {type(ruleset).__name__}, not a tactica.engine.game.Game (a game is "
                "declared as one Game value: see docs/adding-a-game.md)"]
    return _meta_problems(ruleset.meta)


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
        name = repr(ruleset) if _is_game(ruleset) else type(ruleset).__name__
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
    module = sys.modules.get(ruleset.module)
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
