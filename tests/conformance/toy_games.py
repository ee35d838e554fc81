"""Two toy games written as a sixth game's author would, with no edit under ``src/``.

* **Toy Rows** (``toy-rows``) is played on the rows map kind. Each side's fighters take turns
  in scenario order; a fighter strikes a foe with one d6 (4+ hits; a fighter in the back row
  needs 5+ and can only be struck by a ranged blow) for 1 damage, or steps to its other row.
  It sets every optional part but matchups and a kernel.
* **Toy Duel** (``toy-duel``) has no map. Two gunslingers fire 2d6 at a number in turn; a hit
  deals 1d3. A fighter may instead *brace*, raising its target number against the next shot.
  Its only optional part is odds, so it has no sight and no explanations, and its computer
  players take the first option of every decision inside an action.

Both emit the core's events (round started, damaged, out of action), so statistics, odds
reports and the command line work for them through the contract alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from tactica.battlefield.base import Battlefield, SightOption, SightReport
from tactica.battlefield.rows import Rows
from tactica.dice import die, two_d6
from tactica.engine import events
from tactica.engine.chance import Decide, Done, Emit, Observe, Roll, Step, emit_all, run_exact
from tactica.engine.errors import IllegalActionError, ScenarioError
from tactica.engine.events import Action, Event, record
from tactica.engine.game import Explain, Game, Odds, Rules, Setup, Sight, Text, Valuation
from tactica.engine.odds import OddsReport, damage_dealt
from tactica.engine.odds_why import with_why
from tactica.engine.ruleset import (
    Automatic,
    ChooseAction,
    Finished,
    OddsChoice,
    OddsOption,
    OddsValue,
    Pending,
    RulesetMeta,
    UnitStatus,
)
from tactica.engine.rulings import Ruling, Rulings

__all__ = ["TOY_DUEL", "TOY_ROWS", "ToyDuel", "ToyRows", "duel_game"]


# ============================================================================================
# Toy Rows


@record("toy-rows.strike", order=True)
class Strike(Action):
    unit: str
    target: str


@record("toy-rows.step", order=True)
class Step_(Action):
    unit: str


@record("toy-rows.round")
class RoundBegan(events.RoundStarted):
    pass


@record("toy-rows.struck")
class Struck(Event):
    unit: str
    target: str
    roll: int


@record("toy-rows.hurt")
class Hurt(events.Damaged):
    left: int


@record("toy-rows.down")
class Down(events.OutOfAction):
    pass


@record("toy-rows.stepped")
class Stepped(events.Moved):
    row: str


@dataclass
class RowsState:
    rows: Rows
    hp: dict[str, int]
    side_of: dict[str, str]
    order: tuple[str, ...]
    rulings: Rulings
    max_rounds: int
    round: int = 0
    acted: set[str] = field(default_factory=set)


TOY_ROWS_RULINGS = (
    Ruling("TOYR-1", "What does a back-row striker need?", "five", {
        "five": "5 or more on the d6",
        "four": "4 or more, like anyone",
    }),
)


def _need(state: RowsState, unit: str) -> int:
    back = state.rows.row_of(unit) == "back"
    return 5 if back and state.rulings["TOYR-1"] == "five" else 4


def _alive(state: RowsState) -> list[str]:
    return [u for u in state.order if state.hp[u] > 0]


class ToyRows:
    """A toy game on rows."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        name="toy-rows",
        title="Toy Rows",
        battlefield="rows",
        rulings=TOY_ROWS_RULINGS,
        summary="a d6 for each blow, rows decide who reaches whom",
        examples="toys",
    )

    # -- core
    def initial_state(self, scenario: Any) -> RowsState:
        setup = scenario.setup
        assert isinstance(setup, dict) and isinstance(scenario.battlefield, Rows)
        rows = scenario.battlefield
        order = rows.characters
        return RowsState(rows, {u: setup["hp"].get(u, 2) for u in order},
                         {u: rows.side_of(u) for u in order}, order, scenario.rulings,
                         scenario.max_rounds)

    def pending(self, state: RowsState) -> Pending:
        standing = {state.side_of[u] for u in _alive(state)}
        if len(standing) <= 1:
            winner = next(iter(standing), None)
            return Finished(winner, f"{winner} is the last side standing" if winner
                            else "nobody is left")
        ready = [u for u in _alive(state) if u not in state.acted]
        if state.round == 0 or not ready:
            if state.round >= state.max_rounds:
                return Finished(None, "the round limit was reached")
            nxt = state.round + 1
            return Automatic(f"round {nxt}", Emit(RoundBegan(nxt), lambda: Done(None)))
        unit = ready[0]
        return ChooseAction(state.side_of[unit], self._actions(state, unit), f"{unit} acts")

    def _actions(self, state: RowsState, unit: str) -> tuple[Action, ...]:
        foes = [u for u in _alive(state) if state.side_of[u] != state.side_of[unit]]
        front = [u for u in foes if state.rows.row_of(u) == "front"]
        targets = front or foes
        return (*(Strike(unit, t) for t in targets), Step_(unit))

    def resolve(self, state: RowsState, action: Action) -> Step:
        if isinstance(action, Step_):
            row = "back" if state.rows.row_of(action.unit) == "front" else "front"
            return Emit(Stepped(action.unit, row), lambda: Done(None))
        assert isinstance(action, Strike)
        need = _need(state, action.unit)

        def struck(roll: int) -> Step:
            head = Struck(action.unit, action.target, roll)
            if roll < need:
                return Emit(head, lambda: Done(None))

            def hurt(now: RowsState) -> Step:  # reads the state the strike left
                left = now.hp[action.target] - 1
                out: list[Event] = [Hurt(action.target, 1, action.unit, left)]
                if left == 0:
                    out.append(Down(action.target))
                return emit_all(out, Done(None))

            return Emit(head, lambda: Observe(hurt))

        return Roll("blow", die(6), struck, dice=(die(6),), read=lambda f: f[0])

    def apply_event(self, state: RowsState, event: Event) -> None:
        if isinstance(event, RoundBegan):
            state.round = event.round
            state.acted = set()
        elif isinstance(event, Struck):
            state.acted.add(event.unit)
        elif isinstance(event, Hurt):
            state.hp[event.unit] = event.left
        elif isinstance(event, Down):
            state.rows = state.rows.without(event.unit)
        elif isinstance(event, Stepped):
            state.rows = state.rows.with_moved(event.unit, "front" if event.row == "front"
                                               else "back")
            state.acted.add(event.unit)

    def copy_state(self, state: RowsState) -> RowsState:
        return replace(state, hp=dict(state.hp), acted=set(state.acted))

    def describe_action(self, state: RowsState, action: Action) -> str:
        if isinstance(action, Strike):
            return f"{action.unit} strikes {action.target}"
        assert isinstance(action, Step_)
        return f"{action.unit} steps to its other row"

    def describe_event(self, state: RowsState, event: Event) -> str:
        return repr(event)

    def sides_of(self, state: RowsState) -> tuple[str, ...]:
        return tuple(dict.fromkeys(state.side_of.values()))

    def units(self, state: RowsState) -> tuple[UnitStatus, ...]:
        return tuple(UnitStatus(u, state.side_of[u], state.hp[u] > 0,
                                state.rows.locate(u) if state.hp[u] > 0 else None,
                                {"hp": state.hp[u]}) for u in state.order)

    # -- setup
    def build_setup(self, data: Mapping[str, Any], *, source: str,
                    battlefield: Battlefield | None, rulings: Rulings,
                    base_dir: Path) -> dict[str, Any]:
        if not isinstance(battlefield, Rows):
            raise ScenarioError(f"{source}: map: Toy Rows is played on rows")
        hp = data.get("hp", {})
        if not isinstance(hp, Mapping) or not all(isinstance(v, int) and 1 <= v <= 9
                                                  for v in hp.values()):
            raise ScenarioError(f"{source}: hp: expected fighter: 1..9")
        unknown = set(data) - {"game", "name", "rulings", "map", "max_rounds", "seed", "hp"}
        if unknown:
            raise ScenarioError(f"{source}: {sorted(unknown)[0]}: unknown field")
        return {"hp": dict(hp)}

    # -- odds
    def odds_choices(self, state: RowsState, unit: str) -> tuple[OddsChoice, ...]:
        return tuple(OddsChoice(unit, (a.target,), "blow", a)
                     for a in self._actions(state, unit) if isinstance(a, Strike))

    def odds_action(self, state: RowsState, unit: str, targets: tuple[str, ...],
                    means: str | None) -> Action:
        for choice in self.odds_choices(state, unit):
            if choice.targets == targets:
                return choice.action
        raise IllegalActionError(f"{unit} cannot strike {','.join(targets)}")

    def odds(self, state: RowsState, action: Action, **options: OddsValue) -> OddsReport:
        assert isinstance(action, Strike)
        outcomes = run_exact(self.resolve(state, action), events=True, world=self,
                             state=state)
        report = OddsReport.from_outcomes(
            outcomes, attacker=action.unit, target=action.target,
            action=self.describe_action(state, action), hit=lambda o: damage_dealt(o) > 0,
            reasons=(f"needs {_need(state, action.unit)}+ on a d6",))
        return with_why(report, _why(report, f"a blow does 1 damage and {action.target} has "
                                             f"{state.hp[action.target]} HP"))

    # -- sight and explanations
    def battlefield_of(self, state: RowsState) -> Rows:
        return state.rows

    def sight_options(self, rulings: Rulings) -> dict[str, SightOption]:
        return {}

    def sight_report(self, state: RowsState, source: str, target: str,
                     **options: SightOption) -> SightReport:
        return state.rows.sight_report(source, target, **options)

    def explain_action(self, state: RowsState, action: Action) -> list[str]:
        if isinstance(action, Strike):
            return [f"needs {_need(state, action.unit)}+ on a d6"]
        return ["a step to the other row"]

    def describe_option(self, state: RowsState, decision: Decide[Any], option: object) -> str:
        return str(option)

    # -- policy
    def rank_actions(self, state: RowsState, actions: Sequence[Action]) -> list[float]:
        return [(7 - _need(state, a.unit)) / 6 if isinstance(a, Strike) else 0.0
                for a in actions]

    def choose_decision(self, state: RowsState, decision: Decide[Any],
                        rng: np.random.Generator | None) -> object:
        return decision.options[0]


_ROWS = ToyRows()

TOY_ROWS: Game[RowsState, Action, Event] = Game(
    meta=ToyRows.meta,
    module=__name__,
    setup=Setup(build=_ROWS.build_setup, start=_ROWS.initial_state),
    rules=Rules(pending=_ROWS.pending, resolve=_ROWS.resolve, apply=_ROWS.apply_event,
                copy=_ROWS.copy_state, sides=_ROWS.sides_of),
    text=Text(units=_ROWS.units, action=_ROWS.describe_action, event=_ROWS.describe_event),
    odds=Odds(choices=_ROWS.odds_choices, action=_ROWS.odds_action, report=_ROWS.odds),
    sight=Sight(battlefield=_ROWS.battlefield_of, options=_ROWS.sight_options,
                report=_ROWS.sight_report),
    explain=Explain(action=_ROWS.explain_action, option=_ROWS.describe_option),
    valuation=Valuation(rank=_ROWS.rank_actions, decide=_ROWS.choose_decision),
)


# ============================================================================================
# Toy Duel: no map


@record("toy-duel.shoot", order=True)
class Shoot(Action):
    unit: str
    target: str


@record("toy-duel.brace", order=True)
class Brace(Action):
    unit: str


@record("toy-duel.turn")
class TurnBegan(events.RoundStarted):
    unit: str


@record("toy-duel.shot")
class Shot(Event):
    unit: str
    target: str
    roll: int
    need: int


@record("toy-duel.wound")
class Wound(events.Damaged):
    left: int


@record("toy-duel.fallen")
class Fallen(events.OutOfAction):
    pass


@record("toy-duel.braced")
class Braced(Event):
    unit: str


@dataclass
class DuelState:
    names: tuple[str, str]
    hp: dict[str, int]
    braced: set[str]
    need: int
    max_rounds: int
    rulings: Rulings
    turn: int = 0
    done: bool = False

    def acting(self) -> str:
        return self.names[(self.turn - 1) % 2]


class ToyDuel:
    """A toy game without a map."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        name="toy-duel",
        title="Toy Duel",
        battlefield=None,
        rulings=(Ruling("TOYD-1", "How much does bracing add?", "one", {
            "one": "+1 to the target number of the next shot",
            "two": "+2",
        }),),
        odds_options=(OddsOption("braced", "the target has braced"),),
        summary="two gunslingers, 2d6 at a number, no map",
        examples="toys",
    )

    def initial_state(self, scenario: Any) -> DuelState:
        s = scenario.setup
        return DuelState(tuple(s["fighters"]), dict(s["fighters"]), set(s["braced"]),
                         s["need"], scenario.max_rounds, scenario.rulings)

    def pending(self, state: DuelState) -> Pending:
        alive = [n for n in state.names if state.hp[n] > 0]
        if len(alive) == 1:
            return Finished(alive[0], f"{alive[0]} stands")
        if state.turn == 0 or state.done:
            if state.turn >= 2 * state.max_rounds:
                return Finished(None, "nobody fell")
            nxt = state.turn + 1
            who = state.names[(nxt - 1) % 2]
            return Automatic(f"{who}'s turn", Emit(TurnBegan(nxt, who), lambda: Done(None)))
        me = state.acting()
        other = state.names[1] if me == state.names[0] else state.names[0]
        return ChooseAction(me, (Shoot(me, other), Brace(me)))

    def _need(self, state: DuelState, target: str) -> int:
        up = 1 if state.rulings["TOYD-1"] == "one" else 2
        return state.need + (up if target in state.braced else 0)

    def resolve(self, state: DuelState, action: Action) -> Step:
        if isinstance(action, Brace):
            return Emit(Braced(action.unit), lambda: Done(None))
        assert isinstance(action, Shoot)
        need = self._need(state, action.target)

        def shot(roll: int) -> Step:
            head = Shot(action.unit, action.target, roll, need)
            if roll < need:
                return Emit(head, lambda: Done(None))

            def wound(n: int) -> Step:
                left = max(0, state.hp[action.target] - n)
                out: list[Event] = [head, Wound(action.target, n, action.unit, left)]
                if left == 0:
                    out.append(Fallen(action.target))
                return emit_all(out, Done(None))

            return Roll("wound", die(3), wound, dice=(die(3),), read=lambda f: f[0])

        return Roll("shot", two_d6(), shot, dice=(die(6), die(6)), read=sum)

    def apply_event(self, state: DuelState, event: Event) -> None:
        if isinstance(event, TurnBegan):
            state.turn = event.round
            state.done = False
        elif isinstance(event, Shot):
            state.braced.discard(event.target)
            state.done = True
        elif isinstance(event, Wound):
            state.hp[event.unit] = event.left
        elif isinstance(event, Braced):
            state.braced.add(event.unit)
            state.done = True

    def copy_state(self, state: DuelState) -> DuelState:
        return replace(state, hp=dict(state.hp), braced=set(state.braced))

    def describe_action(self, state: DuelState, action: Action) -> str:
        if isinstance(action, Shoot):
            return f"{action.unit} shoots at {action.target}"
        assert isinstance(action, Brace)
        return f"{action.unit} braces"

    def describe_event(self, state: DuelState, event: Event) -> str:
        return repr(event)

    def sides_of(self, state: DuelState) -> tuple[str, ...]:
        return state.names

    def units(self, state: DuelState) -> tuple[UnitStatus, ...]:
        return tuple(UnitStatus(n, n, state.hp[n] > 0, None, {"hp": state.hp[n]})
                     for n in state.names)

    def build_setup(self, data: Mapping[str, Any], *, source: str,
                    battlefield: Battlefield | None, rulings: Rulings,
                    base_dir: Path) -> dict[str, Any]:
        fighters = data.get("fighters")
        if not (isinstance(fighters, Mapping) and len(fighters) == 2
                and all(isinstance(v, int) and v > 0 for v in fighters.values())):
            raise ScenarioError(f"{source}: fighters: expected two names with their hit points")
        need = data.get("need", 7)
        if not isinstance(need, int) or not 2 <= need <= 12:
            raise ScenarioError(f"{source}: need: expected 2..12, got {need!r}")
        return {"fighters": dict(fighters), "need": need, "braced": list(data.get("braced", []))}

    def odds_choices(self, state: DuelState, unit: str) -> tuple[OddsChoice, ...]:
        other = state.names[1] if unit == state.names[0] else state.names[0]
        return (OddsChoice(unit, (other,), "gun", Shoot(unit, other)),)

    def odds_action(self, state: DuelState, unit: str, targets: tuple[str, ...],
                    means: str | None) -> Action:
        if len(targets) != 1 or targets[0] == unit or targets[0] not in state.hp:
            raise IllegalActionError(f"{unit} shoots at the other fighter")
        return Shoot(unit, targets[0])

    def odds(self, state: DuelState, action: Action, **options: OddsValue) -> OddsReport:
        assert isinstance(action, Shoot)
        work = self.copy_state(state)
        if options.get("braced"):
            work.braced.add(action.target)
        outcomes = run_exact(self.resolve(work, action), events=True)
        report = OddsReport.from_outcomes(
            outcomes, attacker=action.unit, target=action.target,
            action=self.describe_action(state, action), hit=lambda o: damage_dealt(o) > 0,
            reasons=(f"2d6 at {self._need(work, action.target)} or more",))
        return with_why(report, _why(report, f"a shot does 1 damage and {action.target} has "
                                             f"{work.hp[action.target]} HP"))


def _why(report: OddsReport, damage: str) -> dict[str, str]:
    """The toy games' reasons for a zero or a certainty: what one attack can do."""
    return {name: damage for name, value in report.numbers.items() if value in (0, 1)}


def duel_game(duel: ToyDuel, module: str = __name__) -> Game[DuelState, Action, Event]:
    """``duel``'s functions as a game (the toy duel, or a variant of it a test writes);
    ``module`` is where the game is declared, for pickling and for its examples."""
    return Game(
        meta=duel.meta,
        module=module,
        setup=Setup(build=duel.build_setup, start=duel.initial_state),
        rules=Rules(pending=duel.pending, resolve=duel.resolve, apply=duel.apply_event,
                    copy=duel.copy_state, sides=duel.sides_of),
        text=Text(units=duel.units, action=duel.describe_action, event=duel.describe_event),
        odds=Odds(choices=duel.odds_choices, action=duel.odds_action, report=duel.odds),
    )


TOY_DUEL = duel_game(ToyDuel())
