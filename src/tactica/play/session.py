"""The game master's assistant: a fight run step by step at the table, its log always on disk.

A :class:`PlaySession` walks the battle: automatic steps run by themselves, the computer
chooses for the sides it plays, and the game master chooses for the others by number or by
typing the action. Rolls are typed as the faces rolled by hand (or rolled virtually), with the
chance of each result shown first. Every record reaches the log file as it happens
(:mod:`tactica.play.logfile`), so a fight stopped at any moment, by ``quit``, Ctrl-C or a
crash, continues with :meth:`PlaySession.resume` exactly where it was, asking only for the dice
not yet recorded.

With virtual dice and the computer on every side, the same scenario and seed give the same
log, byte for byte, whether or not the fight was interrupted and resumed on the way.

The session reaches a game only through what it declares: its explanations, its odds and its
battlefield during a fight (:mod:`tactica.ruleset`); a game without one of them simply shows
less.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tactica.battle import Battle, ReplayError, Resolved
from tactica.chance import Decide, Done, Policy
from tactica.errors import TacticaError
from tactica.events import ActionTaken, BattleEnded, Decided, Rolled
from tactica.limits import MAX_SEED
from tactica.odds import outcome_report
from tactica.play.answer import (
    ACTIONS,
    HINTS,
    LeaveTable,
    SeededPolicy,
    SeededStreams,
    TableDice,
    TablePolicy,
    Terminal,
)
from tactica.play.logfile import LogHeader, LogWriter, create_log, digest_of, repair_log
from tactica.policies import POLICIES, GreedyPolicy, make_policy
from tactica.ruleset import (
    Automatic,
    Capability,
    ChooseAction,
    Finished,
    Ruleset,
    explain_hooks,
    odds_hooks,
    sight_hooks,
)
from tactica.scenario import Scenario, load_scenario
from tactica.stats import battle_stats

__all__ = ["HELP", "PlayResult", "PlaySession", "scenario_digest"]

HELP = """\
  N              take action number N
  TEXT           take the action described so (or list the actions containing TEXT)
  list [WORDS]   the actions (only those containing every word)
  odds N         what could happen if action N is taken, and why
  suggest        the action the computer would choose
  sight A B      can A see B now, is B in cover, and why
  status         the units;  history [N]: the last N events;  map: the battlefield
  dice ask|auto  type the dice rolled by hand (default) or let tactica roll them
  quit           stop here: the log keeps everything, --resume continues"""

_LIST_ALL = 12
_OUTCOMES_SHOWN = 12


def scenario_digest(scenario: Scenario) -> str:
    """The digest of everything a fight depends on but its rulings (the log records those
    itself): the scenario's content and the bytes of every content pack its game read for it
    (tactica's own packs too)."""
    return digest_of({"scenario": {k: v for k, v in scenario.data.items() if k != "rulings"},
                      "content": [list(item) for item in scenario.content]})


@dataclass(frozen=True)
class PlayResult:
    """How a session ended: ``finished`` (with ``winner``, ``None`` for a draw) or stopped."""

    finished: bool
    winner: str | None
    reason: str
    log: Path
    steps: int


def _new_seed() -> int:
    """A fresh seed from the operating system's entropy (recorded in the log)."""
    return int(np.random.SeedSequence().generate_state(1)[0])


def _norm(text: str) -> str:
    return " ".join(text.lower().split())




class PlaySession:
    """One sitting at the table over one fight; build it with :meth:`start` or :meth:`resume`,
    then call :meth:`run` once."""

    def __init__(self, scenario: Scenario, battle: Battle[Any], writer: LogWriter,
                 header: LogHeader,
                 terminal: Terminal, *, ask_dice: bool, computer: Mapping[str, str],
                 cut: Sequence[Any] = (), resumed: bool = False):
        self.scenario = scenario
        self.battle = battle
        self.writer = writer
        self.header = header
        self.terminal = terminal
        self.ask_dice = ask_dice
        self.computer = dict(computer)
        self.streams = SeededStreams(header.seed)
        self._policies: dict[str, Policy] = {
            s: make_policy(n, scenario.ruleset) for s, n in self.computer.items()}
        self._cut = list(cut)
        self._resumed = resumed
        self._shown_map = ""

    # -- building ------------------------------------------------------------------------------

    @classmethod
    def start(cls, scenario: Scenario, log: str | Path, terminal: Terminal, *,
              seed: int | None = None, computer: Mapping[str, str] | None = None,
              ask_dice: bool = True, durable: bool = True,
              replace_empty: bool = False) -> PlaySession:
        """A new fight logged to ``log`` (which must not exist yet).

        ``seed`` drives the virtual dice and the computer's choices (default: the scenario's
        ``seed``, else a fresh one, recorded in the log); ``computer`` maps the sides the
        computer plays to a policy name (``greedy``, ``random``). The session holds the log's
        lock until :meth:`run` ends.
        """
        state, header = _new_fight(scenario, Path(log), seed, computer)
        writer = create_log(log, header, durable=durable, replace_empty=replace_empty)
        battle = Battle(scenario.ruleset, state, listeners=[writer.append])
        return cls(scenario, battle, writer, header, terminal, ask_dice=ask_dice,
                   computer=header.computer)

    @classmethod
    def resume(cls, log: str | Path, terminal: Terminal, *, scenario: Scenario | None = None,
               computer: Mapping[str, str] | None = None, ask_dice: bool = True,
               durable: bool = True, seed: int | None = None) -> PlaySession:
        """Continue the fight in ``log``.

        The scenario is the one the log names (relative to the log's folder) unless
        ``scenario`` is given; either way its content, and that of every content pack it
        uses, must be what the fight started with. Every step of the log is re-run from its
        recorded action, rolls and decisions and must give the events recorded; the first
        record that does not follow is refused with its line number. A torn last line and the
        results of a step cut short are dropped from the file; the step is finished by
        :meth:`run` from its recorded rolls. The rulings, the seed and (unless ``computer`` is
        given) the computer's sides come from the log. A log that holds no complete line (a
        header torn by a crash) starts the fight anew on ``scenario`` (with ``seed``); a file
        that is not a tactica log is never changed. The session holds the log's lock (a second
        writer is refused) until :meth:`run` ends.
        """
        path = Path(log)
        writer = LogWriter(path, durable=durable)
        try:
            return cls._resume(path, writer, terminal, scenario=scenario, computer=computer,
                               ask_dice=ask_dice, seed=seed)
        except BaseException:
            writer.close()
            raise

    @classmethod
    def _resume(cls, path: Path, writer: LogWriter, terminal: Terminal, *,
                scenario: Scenario | None, computer: Mapping[str, str] | None,
                ask_dice: bool, seed: int | None) -> PlaySession:
        contents = repair_log(path, durable=writer.durable, writer=writer)
        header = contents.header
        if header is None:
            if scenario is None:
                raise TacticaError(
                    f"{path} holds no complete line, not even the scenario's name; start the "
                    f"fight anew with: tactica play SCENARIO --resume {path}"
                )
            terminal.say(f"{path} holds no complete line yet: the fight starts anew.")
            state, header = _new_fight(scenario, path, seed, computer)
            writer.truncate(0)
            writer.write_line(json.dumps(header.to_json(), separators=(",", ":"),
                                         ensure_ascii=False))
            battle = Battle(scenario.ruleset, state, listeners=[writer.append])
            return cls(scenario, battle, writer, header, terminal, ask_dice=ask_dice,
                       computer=header.computer)
        if scenario is None:
            scenario = _scenario_of(header, path)
        rs = scenario.ruleset
        if header.game != rs.meta.name:
            raise TacticaError(f"{path}: the log is a fight of {header.game!r}, but "
                               f"{scenario.source} is a {rs.meta.name!r} scenario")
        if header.digest != scenario_digest(scenario):
            raise TacticaError(
                f"{path}: the log was written for {header.scenario!r} with other content "
                f"(digest {header.digest}, {scenario.source} and its content packs now have "
                f"{scenario_digest(scenario)}); resume with the scenario and packs as they were"
            )
        if dict(scenario.rulings) != dict(header.rulings):
            scenario = scenario.with_rulings(header.rulings, where=f"{path}: rulings")
        state = scenario.new_state()
        chosen = _checked_computer(rs, rs.sides_of(state),
                                   header.computer if computer is None else computer)
        try:
            battle, cut = Battle.replay(rs, state, contents.records, listeners=[writer.append])
        except ReplayError as exc:
            line = exc.index + 2 if exc.index is not None else None
            where = f"{path}:{line}" if line is not None else str(path)
            raise TacticaError(f"{where}: {exc}") from None
        except TacticaError as exc:
            raise TacticaError(f"{path}: {exc}") from None
        return cls(scenario, battle, writer, header, terminal, ask_dice=ask_dice,
                   computer=chosen, cut=cut, resumed=True)

    # -- the loop ------------------------------------------------------------------------------

    @property
    def log_path(self) -> Path:
        """The log file."""
        return self.writer.path

    def run(self) -> PlayResult:
        """Play until the battle ends or the game master stops; the log is closed after."""
        try:
            self._greet()
            if self._cut:
                self._finish_cut_step()
            while True:
                p = self.battle.pending
                if isinstance(p, Finished):
                    return self._finished(p)
                if isinstance(p, Automatic):
                    self.terminal.say(f"-- {p.label} --")
                    dice, policies = self._answerers()
                    self._tell(self.battle.advance(dice=dice, policies=policies))
                elif p.side in self.computer:
                    self._computer_turn(p)
                else:
                    self._person_turn(p)
        except LeaveTable:
            self.terminal.say(f"Stopped. The fight is saved in {self.log_path}; continue it "
                              f"with: tactica play --resume {self.log_path}")
            return PlayResult(False, None, "stopped at the table", self.log_path, self._steps())
        finally:
            self.writer.close()

    def _steps(self) -> int:
        return sum(1 for r in self.battle.log if isinstance(r, Resolved))

    def _answerers(self, rolls: int = 0, decisions: int = 0) -> tuple[TableDice,
                                                                       dict[str, Policy]]:
        step = self._steps()
        dice = TableDice(self.terminal, self.streams, step, ask=self.ask_dice, first=rolls)
        indices = itertools.count(decisions)
        policies: dict[str, Policy] = {}
        for side in self.battle.ruleset.sides_of(self.battle.state):
            policy: Policy
            if side in self.computer:
                policy = SeededPolicy(self._policies[side], self.streams, step, indices=indices)
            else:
                policy = TablePolicy(self.terminal, self._describe_option)
            policies[side] = policy
        return dice, policies

    def _greet(self) -> None:
        sc, h = self.scenario, self.header
        lines = [f"{sc.name} ({sc.ruleset.meta.title}); log {self.log_path}, seed {h.seed}"]
        changed = sc.rulings.changed()
        if changed:
            lines.append("rulings: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
        if self.computer:
            lines.append("the computer plays " + ", ".join(
                f"{side} ({name})" for side, name in self.computer.items()))
        if self._resumed:
            lines.append(f"resuming after {self._steps()} step(s); the last events:")
            lines.extend(self._history(5))
        self.terminal.say("\n".join(lines))

    def _finish_cut_step(self) -> None:
        cut, self._cut = self._cut, []
        rolls = [r for r in cut if isinstance(r, Rolled)]
        decisions = [r for r in cut if isinstance(r, Decided)]
        first = cut[0]
        if isinstance(first, ActionTaken):
            what = self._describe(first.action)
        else:
            p = self.battle.pending
            what = p.label if isinstance(p, Automatic) else "the step"
        made = [f"{n} {word}{'s' if n != 1 else ''}"
                for n, word in ((len(rolls), "roll"), (len(decisions), "decision")) if n]
        after = f" after {' and '.join(made)}" if made else ""
        self.terminal.say(f"Finishing {what!r}, cut short{after}:")
        if isinstance(first, ActionTaken):
            self._say_indented(self._explain(first.action))
        for r in rolls:
            shown = f"{' '.join(map(str, r.faces))} -> {r.value}" if r.faces else str(r.value)
            self.terminal.say(f"  {r.label}: {shown} (from the log)")
        dice, policies = self._answerers(len(rolls), len(decisions))
        self._tell(self.battle.resume_step(cut, dice=dice, policies=policies))

    def _finished(self, p: Finished) -> PlayResult:
        if not any(isinstance(r, BattleEnded) for r in self.battle.log):
            ended = BattleEnded(p.winner, p.reason)  # the step's marker reached the disk alone
            self.battle.log.append(ended)
            self.writer.append(ended)
        who = f"{p.winner} wins" if p.winner is not None else "a draw"
        self.terminal.say(f"The battle is over: {who} ({p.reason}). Log: {self.log_path}")
        return PlayResult(True, p.winner, p.reason, self.log_path, self._steps())

    def _computer_turn(self, p: ChooseAction) -> None:
        decision: Decide[Any] = Decide(p.side, "action", p.actions, Done)
        rng = self.streams.generator(self._steps(), ACTIONS)
        action = self._policies[p.side].choose(decision, self.battle.state, rng)
        self.terminal.say(f"{p.side} (computer): {self._describe(action)}")
        self._take(action)

    def _take(self, action: Any) -> None:
        self._say_indented(self._explain(action))
        dice, policies = self._answerers()
        self._tell(self.battle.apply(action, dice=dice, policies=policies))

    def _person_turn(self, p: ChooseAction) -> None:
        descs = [self._describe(a) for a in p.actions]
        picture = self._picture()
        if picture and picture != self._shown_map:
            self.terminal.say(picture)
            self._shown_map = picture
        what = f": {p.prompt}" if p.prompt else ""
        self.terminal.say(f"{p.side} to choose{what} ({len(descs)} action(s))")
        if len(descs) <= _LIST_ALL:
            self._list(descs, [])
        else:
            self.terminal.say("  'list' shows them, 'list WORDS' only some; 'help' for more")
        while True:
            try:
                text = self.terminal.ask(f"{p.side}> ")
            except EOFError:
                raise LeaveTable from None
            chosen = self._command(text, p, descs)
            if chosen is not None:
                self._take(p.actions[chosen])
                return

    # -- the game master's commands -------------------------------------------------------------

    def _command(self, text: str, p: ChooseAction, descs: list[str]) -> int | None:
        """Handle one line; the index of the action to take, or None."""
        words = text.split()
        if not words:
            return None
        cmd, rest = words[0].lower(), words[1:]
        if cmd.isdigit() and not rest:
            n = int(cmd)
            if 1 <= n <= len(descs):
                return n - 1
            self.terminal.say(f"  no action {cmd}: choose 1 to {len(descs)}")
        elif cmd in ("q", "quit", "exit") and not rest:
            raise LeaveTable
        elif cmd in ("help", "?") and not rest:
            self.terminal.say(HELP)
        elif cmd in ("list", "ls"):
            self._list(descs, rest)
        elif cmd == "odds" and len(rest) == 1 and rest[0].isdigit():
            n = int(rest[0])
            if 1 <= n <= len(descs):
                self._odds(p.actions[n - 1], descs[n - 1])
            else:
                self.terminal.say(f"  no action {rest[0]}: choose 1 to {len(descs)}")
        elif cmd in ("suggest", "hint") and not rest:
            decision: Decide[Any] = Decide(p.side, "action", p.actions, Done)
            rng = self.streams.generator(self._steps(), HINTS)
            greedy = GreedyPolicy(self.battle.ruleset)
            pick = p.actions.index(greedy.choose(decision, self.battle.state, rng))
            self.terminal.say(f"  suggestion: [{pick + 1}] {descs[pick]}")
        elif cmd == "status" and not rest:
            self._status()
        elif cmd == "history" and len(rest) <= 1 and all(r.isdigit() for r in rest):
            lines = self._history(int(rest[0]) if rest else 10)
            self.terminal.say("\n".join(lines) if lines else "  nothing has happened yet")
        elif cmd == "map" and not rest:
            picture = self._picture()
            self.terminal.say(picture or f"  {self.battle.ruleset.meta.title} does not show "
                              "its battlefield during a fight")
        elif cmd == "sight" and len(rest) == 2:
            self._sight(rest[0], rest[1])
        elif cmd == "dice" and len(rest) == 1 and rest[0].lower() in ("ask", "auto"):
            self.ask_dice = rest[0].lower() == "ask"
            self.terminal.say("  dice: " + ("typed by hand" if self.ask_dice else
                                            "rolled by tactica"))
        else:
            return self._match(text, descs)
        return None

    def _match(self, text: str, descs: list[str]) -> int | None:
        wanted = _norm(text)
        for i, d in enumerate(descs):
            if _norm(d) == wanted:
                return i
        hits = [i for i, d in enumerate(descs) if wanted in _norm(d)]
        if not hits:  # then every word, anywhere
            hits = [i for i, d in enumerate(descs) if all(w in _norm(d) for w in wanted.split())]
        if not hits:
            self.terminal.say(f"  no action matches {text.strip()!r}; 'list' shows them all, "
                              "'help' the commands")
        else:
            self.terminal.say(f"  {len(hits)} action(s) match {text.strip()!r}; "
                              "type the number to take one:")
            self.terminal.say("\n".join(f"  [{i + 1}] {descs[i]}" for i in hits))
        return None

    def _list(self, descs: list[str], words: Sequence[str]) -> None:
        keys = [_norm(w) for w in words]
        lines = [f"  [{i}] {d}" for i, d in enumerate(descs, start=1)
                 if all(k in _norm(d) for k in keys)]
        self.terminal.say("\n".join(lines) if lines else "  no action matches")

    def _odds(self, action: Any, desc: str) -> None:
        rs, state = self.battle.ruleset, self.battle.state
        hooks = odds_hooks(rs) if rs.meta.has(Capability.ODDS) else None
        report = (hooks.odds(state, action) if hooks is not None
                  else outcome_report(rs, state, action))
        lines = [desc, *(f"  {r}" for r in report.reasons)]
        for name, value in report.numbers.items():
            lines.append(f"  {name.replace('_', ' ')}: {float(value):.2%}"
                         if name.startswith("p_") else
                         f"  {name.replace('_', ' ')}: {float(value):.3f}")
        self.terminal.say("\n".join(lines))

    def _status(self) -> None:
        rs, state = self.battle.ruleset, self.battle.state
        stats = battle_stats(rs, state, self.battle.events())
        lines = [f"  round {stats.rounds}"]
        for unit in rs.units(state):
            standing = "in action" if unit.in_action else "out of action"
            where = f" at {unit.place}" if unit.place else ""
            extra = ", ".join(f"{k.replace('_', ' ')} {_shown(v)}"
                              for k, v in unit.details.items())
            lines.append(f"  {unit.id} ({unit.side}): {standing}{where}; {extra}")
        self.terminal.say("\n".join(lines))

    def _picture(self) -> str:
        rs = self.battle.ruleset
        if not rs.meta.has(Capability.SIGHT):
            return ""
        return sight_hooks(rs).battlefield_of(self.battle.state).preview()

    def _sight(self, source: str, target: str) -> None:
        try:
            hooks = sight_hooks(self.battle.ruleset)
            report = hooks.sight_report(self.battle.state, source, target)
        except TacticaError as exc:
            self.terminal.say(f"  {exc}")
            return
        self._say_indented(report.explain().split("\n"))

    def _history(self, n: int) -> list[str]:
        rs, state = self.battle.ruleset, self.battle.state
        events = self.battle.events()[-n:] if n > 0 else []
        return [f"  {rs.describe_event(state, e)}" for e in events]

    # -- words -----------------------------------------------------------------------------------

    def _describe(self, action: Any) -> str:
        return self.battle.ruleset.describe_action(self.battle.state, action)

    def _describe_option(self, decision: Decide[Any], option: Any) -> str:
        hooks = explain_hooks(self.battle.ruleset)
        if hooks is not None:
            return hooks.describe_option(self.battle.state, decision, option)
        return str(option)

    def _explain(self, action: Any) -> list[str]:
        """Why an action's dice are what they are: sight, cover, what each die needs."""
        hooks = explain_hooks(self.battle.ruleset)
        if hooks is None:
            return []
        try:
            return hooks.explain_action(self.battle.state, action)
        except TacticaError:
            return []

    def _tell(self, events: Sequence[Any]) -> None:
        rs, state = self.battle.ruleset, self.battle.state
        self._say_indented([rs.describe_event(state, e) for e in events])

    def _say_indented(self, lines: Sequence[str]) -> None:
        if lines:
            self.terminal.say("\n".join(f"  {line}" for line in lines))


def _new_fight(scenario: Scenario, log: Path, seed: int | None,
               computer: Mapping[str, str] | None) -> tuple[Any, LogHeader]:
    """A fresh state and the header of a new fight's log."""
    state = scenario.new_state()
    rs = scenario.ruleset
    chosen = _checked_computer(rs, rs.sides_of(state), computer or {})
    if seed is None:
        given = scenario.data.get("seed")
        seed = given if isinstance(given, int) and 0 <= given <= MAX_SEED else _new_seed()
    if not 0 <= seed <= MAX_SEED:
        raise TacticaError(f"seed: expected a whole number from 0 to {MAX_SEED}, got {seed!r}")
    header = LogHeader(
        game=rs.meta.name,
        scenario=_scenario_ref(scenario.source, log),
        digest=scenario_digest(scenario),
        rulings=dict(scenario.rulings),
        seed=seed,
        computer=chosen,
    )
    return state, header


def _checked_computer(ruleset: Ruleset, sides: Sequence[str],
                      computer: Mapping[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for side, name in computer.items():
        if side not in sides:
            raise TacticaError(f"computer: no side {side!r} in this battle "
                               f"(sides: {', '.join(sides)})")
        if name not in POLICIES:
            make_policy(name, ruleset)  # raises, naming the known policies
        out[side] = name
    return out


def _scenario_ref(source: str, log: Path) -> str:
    """The scenario's path as the log records it: relative to the log's folder."""
    try:
        # abspath, not resolve: a scenario reached through a link keeps the path it was given.
        rel = os.path.relpath(os.path.abspath(source), os.path.abspath(log.parent))
    except ValueError:  # another drive
        return Path(os.path.abspath(source)).as_posix()
    return Path(rel).as_posix()


def _scenario_of(header: LogHeader, log: Path) -> Scenario:
    where = log.parent / header.scenario
    try:
        return load_scenario(where)
    except TacticaError as exc:
        raise TacticaError(
            f"{log}: cannot load the fight's scenario {str(where)!r} ({exc}); "
            f"name it: tactica play SCENARIO --resume {log}"
        ) from None


def _shown(value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
