"""The game master's assistant in the terminal: a front end over the fight controller.

A :class:`PlaySession` shows what the :class:`~tactica.play.controller.FightController` says
and asks, and reads the game master's answers through a :class:`~tactica.play.answer.Terminal`
(a plain one for pipes and tests, prompt_toolkit and rich in a real terminal: see
:mod:`tactica.play.console`). Actions are chosen by number or by typing their words (a text
only one action matches takes it); dice are typed as rolled (``37`` for a d100, ``2 5`` for
two dice) or rolled by tactica with Enter; the same commands (``help``, ``map``, ``status``,
``sight A B``, ``odds N``, ``history``, ``dice auto``, ``quit``) work at every prompt.

Everything the engine does goes through the controller, which writes the log as it happens:
a fight stopped at any moment, by ``quit``, Ctrl-C or a crash, continues with
:meth:`PlaySession.resume` where it was, in the terminal or in the browser (``tactica serve``).
With virtual dice and the computer on every side, the same scenario and seed give the same log,
byte for byte, whether or not the fight was interrupted and resumed on the way.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from tactica.engine.errors import TacticaError
from tactica.engine.menu import ActionMenu
from tactica.engine.scenario import Scenario
from tactica.engine.stats import battle_stats
from tactica.engine.validation import whole_number
from tactica.play.answer import LeaveTable, Terminal, answer_example, roll_lines
from tactica.play.controller import (
    ActionRequest,
    DecisionRequest,
    FightController,
    Note,
    Over,
    Request,
    RollRequest,
)
from tactica.play.fight import scenario_digest
from tactica.play.queries import (
    has_map,
    no_map_sentence,
    odds_of,
    picture_of,
    sight_of,
    units_shown,
)
from tactica.play.words import (
    ActionGroup,
    friendly,
    group_actions,
    match_actions,
    norm,
    odds_lines,
    status_lines,
    where_lines,
    winner_line,
)

__all__ = ["COMMANDS", "HELP", "PlayResult", "PlaySession", "number_range",
           "scenario_digest"]

HELP = """\
  N              take action number N (or option N when a side decides)
  TEXT           take the action described so: 'A moves to 2,3', or any part only it has
  aim N DEGREES  take action N (a firing arc) aimed at any bearing instead: degrees
                 clockwise from east on the map ('aim 7 37.5')
  actions        the actions open now, grouped by unit and kind
  list [WORDS]   every action, numbered (only those with every word: 'list A moves')
  odds N         what could happen if action N is taken, and why
  rulings        the rulings in force, with their ids ('rulings 20': those with every word)
  suggest        the action the computer would choose
  sight A B      can A see B now, is B in cover, and why
  map            the battlefield and who stands where;  status: every unit
  history [N]    the last N events
  dice ask|auto  type the dice rolled by hand (default) or let tactica roll them
  chances [on|off]  each side's chance to win from here (exact when it fits, else
                 estimated); 'on' shows it at every turn
  quit           stop here: the log keeps everything, --resume continues
At a dice prompt type the faces as rolled ('37' for a d100, '2 5' for two dice, '=N' for
the result itself) or press Enter to let tactica roll."""

#: The words that start a command, for completion.
COMMANDS = ("help", "actions", "list", "aim", "odds", "rulings", "suggest", "sight", "map",
            "status", "history", "dice", "chances", "quit")

_LIST_ALL = 12
_GROUP_LISTED = 3


@dataclass(frozen=True)
class PlayResult:
    """How a session ended: ``finished`` (with ``winner``, ``None`` for a draw) or stopped."""

    finished: bool
    winner: str | None
    reason: str
    log: Path
    steps: int


#: The longest line read at a prompt (an action's words, dice, a command); a longer one is
#: refused without being shown again.
MAX_TYPED = 1000


class PlaySession:
    """One sitting at the table over one fight; build it with :meth:`start` or :meth:`resume`,
    then call :meth:`run` once."""

    def __init__(self, controller: FightController, terminal: Terminal):
        self.controller = controller
        self.terminal = terminal
        self._shown_map = ""
        self._last_turn: tuple[str, str, int] | None = None
        self._chances_on = False

    @classmethod
    def start(cls, scenario: Scenario, log: str | Path, terminal: Terminal, *,
              seed: int | None = None, computer: Mapping[str, str | None] | None = None,
              ask_dice: bool = True, durable: bool = True,
              replace_empty: bool = False) -> PlaySession:
        """A new fight logged to ``log`` (which must not exist yet); see
        :meth:`FightController.start`. The session holds the log's lock until :meth:`run`
        ends."""
        ctl = FightController.start(scenario, log, seed=seed, computer=computer,
                                    ask_dice=ask_dice, durable=durable,
                                    replace_empty=replace_empty)
        return cls(ctl, terminal)

    @classmethod
    def resume(cls, log: str | Path, terminal: Terminal, *, scenario: Scenario | None = None,
               computer: Mapping[str, str | None] | None = None,
               ask_dice: bool | None = None, durable: bool = True,
               seed: int | None = None, accept_old_log: bool = False) -> PlaySession:
        """Continue the fight in ``log`` (see :func:`tactica.play.fight.resume_fight`)."""
        ctl = FightController.resume(log, scenario=scenario, computer=computer,
                                     ask_dice=ask_dice, durable=durable, seed=seed,
                                     accept_old_log=accept_old_log)
        return cls(ctl, terminal)

    @property
    def battle(self) -> Any:
        """The battle being played."""
        return self.controller.battle

    @property
    def log_path(self) -> Path:
        """The log file."""
        return self.controller.log_path

    # -- the loop ------------------------------------------------------------------------------

    def run(self) -> PlayResult:
        """Play until the battle ends or the game master stops; the log is closed after."""
        ctl = self.controller
        try:
            for note in ctl.feed:
                self._show(note)
            self._greet()
            ctl.subscribe(self._show)
            while True:
                req = ctl.advance()
                if isinstance(req, Over):
                    return PlayResult(True, req.winner, req.reason, self.log_path, ctl.steps)
                if isinstance(req, ActionRequest):
                    self._action_turn(req)
                elif isinstance(req, RollRequest):
                    self._roll(req)
                else:
                    self._decision(req)
        except LeaveTable:
            self.terminal.say(f"Stopped. The fight is saved in {self.log_path}; continue it "
                              f"with: tactica play --resume {self.log_path}")
            return PlayResult(False, None, "stopped at the table", self.log_path, ctl.steps)
        finally:
            ctl.close()

    def _show(self, note: Note) -> None:
        if note.kind == "turn":
            self.terminal.say(f"-- {note.text} --")
        elif note.kind in ("action", "end", "info"):
            self.terminal.say(note.text)
        else:
            self.terminal.say(f"  {note.text}")

    def _greet(self) -> None:
        ctl = self.controller
        sc, h = ctl.scenario, ctl.header
        lines = [f"{sc.name} ({sc.ruleset.meta.title}); log {self.log_path}, seed {h.seed}"]
        changed = sc.rulings.changed()
        if changed:
            lines.append("rulings: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
        if ctl.computer:
            lines.append("the computer plays " + ", ".join(
                f"{side} ({name})" for side, name in ctl.computer.items()))
        lines.append("type 'help' at any prompt for the commands")
        if ctl.resumed:
            lines.append(f"resuming after {ctl.steps} step(s); the last events:")
            lines.extend(f"  {e}" for e in ctl.history(5))
        self.terminal.say("\n".join(lines))

    def _ask(self, prompt: str) -> str:
        while True:
            try:
                text = self.terminal.ask(prompt)
            except EOFError:
                raise LeaveTable from None
            if len(text) <= MAX_TYPED:
                return text
            # Never echoed back: a pasted megabyte would fill the screen (and the scrollback).
            self.terminal.say(f"  that line is {len(text):,} characters long; at most "
                              f"{MAX_TYPED:,} are read (nothing of it was done)")

    # -- the three questions --------------------------------------------------------------------

    def _action_turn(self, req: ActionRequest) -> None:
        picture = picture_of(self.battle)
        if picture and picture != self._shown_map:
            self.terminal.say(picture)
            self._shown_map = picture
        what = f": {req.prompt}" if req.prompt else ""
        n = len(req.texts)
        self.terminal.say(f"{req.side} to choose{what} ({n} action{'s' if n != 1 else ''})")
        if self._chances_on:
            self._chances()
        # the same unit's turn goes on when only the action it took came between
        turn = ((req.side, req.prompt.split(":")[0], self.controller.steps)
                if ":" in req.prompt else None)
        last = self._last_turn
        if turn is not None and last is not None and turn[:2] == last[:2] \
                and turn[2] == last[2] + 1 and req.menu is None and n > _LIST_ALL:
            self.terminal.say(self._summary(req))
        else:
            self._overview(req)
        self._last_turn = turn
        while True:
            text = self._ask(f"{req.side}> ")
            words = text.split()
            if len(words) == 1 and whole_number(words[0]) is not None:
                k = int(words[0])
                if 1 <= k <= n:
                    self.controller.take(k - 1, key=req.key)
                    return
                self.terminal.say(f"  no action {k}: choose 1 to {n}")
                continue
            if words and words[0].lower() == "aim":
                if self._aim(words[1:], req):
                    return
                continue
            if self._command(text, req):
                continue
            hits = _matching(text, req, self._marked(req))
            if len(hits) == 1:
                self.controller.take(hits[0], key=req.key)
                return
            if not hits:
                self.terminal.say(f"  no action matches {text.strip()!r}; 'list' shows them "
                                  "all, 'help' the commands")
            else:
                self.terminal.say(f"  {len(hits)} action(s) match {text.strip()!r}; "
                                  "type the number (or more words) to take one:")
                self.terminal.say("\n".join(f"  [{i + 1}] {req.texts[i]}" for i in hits))

    def _aim(self, words: Sequence[str], req: ActionRequest) -> bool:
        """``aim N DEGREES``: take action N aimed at a bearing; False (and why) if not."""
        if not req.aimable:
            self.terminal.say("  no action can be aimed at a bearing now")
            return False
        example = req.aimable[0] + 1
        if len(words) != 2 or not words[0].isdigit():
            self.terminal.say(f"  type 'aim N DEGREES', such as 'aim {example} 37.5'")
            return False
        try:
            bearing = Fraction(words[1].rstrip("°"))
        except (ValueError, ZeroDivisionError):
            self.terminal.say(f"  {words[1]!r} is not a number of degrees (such as 37.5)")
            return False
        try:
            self.controller.take(int(words[0]) - 1, key=req.key, bearing=bearing)
        except TacticaError as exc:
            self.terminal.say(f"  {exc}")
            return False
        return True

    def _roll(self, req: RollRequest) -> None:
        side, during = self.controller.acting()
        roller = self.controller.roller(req).words()
        where = (f" in {side}'s action: {during}" if side else
                 f" for the table: {during}" if during else "")
        self.terminal.say(f"{roller} rolls{where}")
        self.terminal.say("\n".join(roll_lines(req.roll)))
        example = answer_example(req.roll)
        while True:
            text = self._ask(f"dice for {req.label}, rolled by {roller} (e.g. {example}; "
                             "Enter rolls)> ")
            if not text.strip():
                self.controller.answer_roll("", key=req.key)
                return
            if text.strip().lower() in ("?", "help"):
                self.terminal.say(HELP)
                self.terminal.say("  (quit at a dice prompt keeps this roll's place: --resume "
                                  "asks for it again)")
                continue
            if text.strip()[0].isalpha() and self._command(text, req):
                if self.controller.open_request is not req:  # 'dice auto' rolled it
                    return
                continue
            try:
                self.controller.answer_roll(text, key=req.key)
                return
            except TacticaError as exc:
                self.terminal.say(f"  {exc}")

    def _decision(self, req: DecisionRequest) -> None:
        span = number_range(req.decision.options)
        if span is not None:
            self._range(req, *span)
            return
        lines = [f"{req.side} decides {req.decision.label!r}:"]
        lines.extend(option_lines(req.texts))
        self.terminal.say("\n".join(lines))
        n = len(req.texts)
        while True:
            text = self._ask(f"{req.side} decides> ").strip()
            if not text:
                continue
            if whole_number(text) is not None and 1 <= int(text) <= n:
                self.controller.decide(int(text) - 1, key=req.key)
                return
            exact = [i for i, t in enumerate(req.texts) if norm(t) == norm(text)]
            if not exact and text and self._command(text, req):
                continue
            hits = exact or match_actions(text, req.texts)
            if len(hits) == 1:
                self.controller.decide(hits[0], key=req.key)
                return
            self.terminal.say(f"  {text!r} is not one of the options: type 1 to {n} "
                              "('help' for the commands, 'quit' to stop)")

    def _range(self, req: DecisionRequest, low: int, high: int) -> None:
        """A decision among many consecutive whole numbers, asked as the range it is."""
        self.terminal.say(f"{req.side} decides {req.decision.label!r}: a number from {low} "
                          f"to {high}")
        while True:
            text = self._ask(f"{req.side} decides ({low}-{high})> ").strip()
            if not text:
                continue
            if text.lstrip("-").isdigit():
                value = int(text)
                if low <= value <= high:
                    self.controller.decide(value - low, key=req.key)
                    return
                self.terminal.say(f"  {value} is not from {low} to {high}: type a number "
                                  f"from {low} to {high}")
                continue
            if self._command(text, req):
                continue
            self.terminal.say(f"  {text!r} is not a number: type a number from {low} to "
                              f"{high} ('help' for the commands, 'quit' to stop)")

    # -- the game master's commands -------------------------------------------------------------

    def _command(self, text: str, req: Request) -> bool:
        """Handle a command typed at any prompt; False if ``text`` is not one."""
        words = text.split()
        if not words:
            return True
        cmd, rest = words[0].lower(), words[1:]
        actions = req if isinstance(req, ActionRequest) else None
        if cmd in ("q", "quit", "exit") and not rest:
            raise LeaveTable
        if cmd in ("help", "?") and not rest:
            self.terminal.say(HELP)
        elif cmd == "actions" and not rest:
            if actions is None:
                self.terminal.say("  no actions to show now: " + _waiting(req))
            else:
                self._overview(actions)
        elif cmd in ("list", "ls"):
            if actions is None:
                self.terminal.say("  no actions to list now: " + _waiting(req))
            else:
                self._list(self._marked(actions), rest, _shown_words(actions))
        elif cmd == "odds" and len(rest) == 1 and whole_number(rest[0]) is not None:
            self._odds(actions, int(rest[0]), req)
        elif cmd in ("suggest", "hint") and not rest:
            if isinstance(req, DecisionRequest):
                pick = self.controller.suggestion()
                self.terminal.say(f"  suggestion: [{pick + 1}] {req.texts[pick]}")
            elif actions is None:
                self.terminal.say("  suggestions are for actions and decisions: "
                                  + _waiting(req))
            else:
                pick = self.controller.suggestion()
                self.terminal.say(f"  suggestion: [{pick + 1}] {actions.texts[pick]}")
        elif cmd == "rulings":
            self._rulings(rest)
        elif cmd == "status" and not rest:
            self._status()
        elif cmd == "history" and len(rest) <= 1 and all(
                whole_number(r) is not None for r in rest):
            lines = self.controller.history(int(rest[0]) if rest else 10)
            self.terminal.say("\n".join(f"  {e}" for e in lines) if lines
                              else "  nothing has happened yet")
        elif cmd == "map" and not rest:
            self._map()
        elif cmd == "sight" and rest:
            self._sight(" ".join(text.split()[1:]))
        elif cmd == "chances" and len(rest) <= 1 and all(
                r.lower() in ("on", "off") for r in rest):
            if rest:
                self._chances_on = rest[0].lower() == "on"
                self.terminal.say("  chances: shown at every turn" if self._chances_on
                                  else "  chances: on request")
            if not rest or self._chances_on:
                self._chances()
        elif cmd == "dice" and len(rest) == 1 and rest[0].lower() in ("ask", "auto"):
            self.terminal.say("  dice: " + ("typed by hand" if rest[0].lower() == "ask" else
                                            "rolled by tactica, this one too"
                                            if isinstance(req, RollRequest) else
                                            "rolled by tactica"))
            self.controller.set_dice(rest[0].lower() == "ask")
        else:
            return False
        return True

    def _summary(self, req: ActionRequest) -> str:
        """The same unit's turn goes on: its actions counted by kind, the list on request."""
        units = [u.id for u in self.battle.ruleset.units(self.battle.state)]
        kinds: dict[str, list[int]] = {}
        for g in group_actions(req.texts, units):
            kinds.setdefault(g.verb, []).extend(g.numbers)
        pieces = []
        for verb, numbers in kinds.items():
            if len(numbers) == 1:
                text = req.texts[numbers[0] - 1]
                unit = next((u for u in units if text.startswith(u + " ")), "")
                pieces.append(f"[{numbers[0]}] {text[len(unit):].strip()},")
            else:
                span = (f"[{numbers[0]}-{numbers[-1]}] "
                        if numbers[-1] - numbers[0] == len(numbers) - 1 else "")
                pieces.append(f"{span}{verb} ({len(numbers)}),")
        pieces[-1] = pieces[-1].rstrip(",") + ";"
        return _wrapped("  ", [*pieces, "'actions' shows them all, 'list WORDS' numbers "
                                        "them, or type an action's words"])

    def _overview(self, req: ActionRequest) -> None:
        """The actions grouped by unit and kind: a large group reads as one line."""
        self._overview_lines(req)
        if req.aimable:
            n = req.aimable[0] + 1
            self.terminal.say(f"  an action with a bearing (a firing arc) may be aimed at any "
                              f"other: 'aim N DEGREES'\n  (degrees clockwise from east), "
                              f"such as 'aim {n} 37.5'")

    def _overview_lines(self, req: ActionRequest) -> None:
        if req.menu is not None:
            self.terminal.say("\n".join(menu_lines(req.menu)))
            if len(req.texts) > _LIST_ALL and req.menu.items:
                example = req.texts[req.menu.items[len(req.menu.items) // 3].index]
                self.terminal.say(f"  type a number, or an action's words (such as "
                                  f"'{example}'); 'help' for more")
            return
        marked = self._marked(req)
        if len(req.texts) <= _LIST_ALL:
            self._list(marked, [])
            return
        units = [u.id for u in self.battle.ruleset.units(self.battle.state)]
        lines: list[str] = []
        examples: list[str] = []
        groups = group_actions(marked, units)
        # actions on friends after those on enemies
        groups.sort(key=lambda g: all(t.endswith(FRIEND) for t in g.texts))
        for g in groups:
            lines.extend(_group_lines(g, examples, depth=0))
        self.terminal.say("\n".join(lines))
        example = examples[0] if examples else ""
        if example:
            self.terminal.say(f"  type a number, or an action's words (such as "
                              f"'{example}');\n  'list WORDS' numbers them, 'help' for more")

    def _marked(self, req: ActionRequest) -> list[str]:
        """The open actions' descriptions, those on a friend marked so."""
        sides = {u.id: u.side for u in self.battle.ruleset.units(self.battle.state)}
        return _marked(req, sides)

    def _list(self, texts: Sequence[str], words: Sequence[str],
              shown: Sequence[str] = ()) -> None:
        """Every action (those with every word of ``words``, in its description or in the
        words the menu shows for it: ``list toward A``), numbered."""
        keys = [norm(w) for w in words]
        extra = list(shown) or [""] * len(texts)

        def has(text: str, key: str) -> bool:  # one letter (a unit's name): a whole word
            text = norm(text)
            return key in text.split() if len(key) == 1 else key in text

        # the words the menu shows first (its "toward A"), else the descriptions
        picked = [i for i, more in enumerate(extra) if more and all(has(more, k) for k in keys)]
        if not picked:
            picked = [i for i, d in enumerate(texts) if all(has(d, k) for k in keys)]
            extra = [""] * len(texts)
        if keys and not picked:  # the words as typed at the prompt find them
            extra = list(shown) or [""] * len(texts)
            picked = match_actions(" ".join(words), [f"{d} {m}" for d, m in
                                                     zip(texts, extra, strict=True)])
        if not keys:  # every action, those on friends after those on enemies
            picked = sorted(range(len(texts)), key=lambda i: texts[i].endswith(FRIEND))
            extra = [""] * len(texts)
        lines = [f"  [{i + 1}] {texts[i]}" + (f"  ({extra[i]})" if extra[i] else "")
                 for i in picked]
        self.terminal.say("\n".join(lines) if lines else "  no action matches")

    def _odds(self, actions: ActionRequest | None, n: int, req: Request) -> None:
        if actions is None:
            self.terminal.say("  odds are for the actions a side chooses from: " + _waiting(req))
            return
        if not 1 <= n <= len(actions.texts):
            self.terminal.say(f"  no action {n}: choose 1 to {len(actions.texts)}")
            return
        report = odds_of(self.battle, actions.actions[n - 1])
        self.terminal.say("\n".join(odds_lines(report, actions.texts[n - 1])))

    def _rulings(self, words: Sequence[str]) -> None:
        """The rulings behind the prompts (which keep to words): id, question, the value in
        force and what it means."""
        rulings = self.controller.scenario.rulings
        keys = [norm(w) for w in words]
        lines = []
        for r in rulings.declared():
            value = rulings[r.id]
            line = f"  {r.id} {r.question}: {value} ({r.options.get(value, '')})"
            if all(k in norm(line) for k in keys):
                lines.append(line)
        self.terminal.say("\n".join(lines) if lines else "  no ruling matches")

    def _chances(self) -> None:
        from tactica.play.chances import chances_of

        ctl = self.controller
        try:
            found = chances_of(ctl.scenario, self.battle, ctl.computer)
        except TacticaError as exc:  # a policy that cannot state its chances
            self.terminal.say(f"  chances: {exc}")
            return
        self.terminal.say("\n".join(f"  {line}" for line in found.lines()))

    def _status(self) -> None:
        rs, state = self.battle.ruleset, self.battle.state
        stats = battle_stats(rs, state, self.battle.events())
        lines = status_lines(units_shown(self.battle), stats.rounds)
        self.terminal.say("\n".join(f"  {line}" for line in lines))

    def _map(self) -> None:
        units = self.battle.ruleset.units(self.battle.state)
        if not has_map(self.battle):
            self.terminal.say(f"  {no_map_sentence(self.battle)}")
        else:
            self.terminal.say(picture_of(self.battle))
        self.terminal.say("\n".join(["  who stands where:",
                                     *(f"    {line}" for line in where_lines(units))]))

    def _sight(self, text: str) -> None:
        names = _two_names(text, [u.id for u in self.battle.ruleset.units(self.battle.state)])
        if names is None:
            self.terminal.say("  sight needs two names: sight A B (quote a name with spaces: "
                              "sight Rook 'Pool Tables')")
            return
        try:
            report = sight_of(self.battle, *names)
        except TacticaError as exc:
            self.terminal.say(f"  {exc}")
            return
        self.terminal.say("\n".join(f"  {line}" for line in report.explain().split("\n")))

    # -- for the rich terminal ------------------------------------------------------------------

    def completions(self) -> list[str]:
        """What may be typed now: commands, unit ids, and the open request's texts."""
        ctl = self.controller
        words = list(COMMANDS)
        words += [u.id for u in self.battle.ruleset.units(self.battle.state)]
        req = ctl.open_request
        if isinstance(req, ActionRequest | DecisionRequest):
            words += list(req.texts)
        return words

    def palette(self) -> dict[str, int]:
        """Unit ids and side names, each with the index of its side (for colours)."""
        rs, state = self.battle.ruleset, self.battle.state
        sides = list(rs.sides_of(state))
        out = {s: i for i, s in enumerate(sides)}
        for u in rs.units(state):
            if u.side in out:
                out[u.id] = out[u.side]
        return out


def number_range(options: Sequence[Any]) -> tuple[int, int] | None:
    """``(low, high)`` when the options are more than a screen of consecutive whole numbers
    in order (a number to set), else ``None``: those are asked as a range, not listed.

    >>> number_range(tuple(range(1, 56)))
    (1, 55)
    >>> number_range((1, 2, 3)) is None
    True
    """
    if len(options) <= _LIST_ALL:
        return None
    if not all(isinstance(o, int) and not isinstance(o, bool) for o in options):
        return None
    low = options[0]
    if any(o != low + k for k, o in enumerate(options)):
        return None
    return low, low + len(options) - 1


#: How a list marks an action on a friend (its own side's unit).
FRIEND = " (a friend)"


def _marked(req: ActionRequest, sides: Mapping[str, str]) -> list[str]:
    """The descriptions as lists show them: an action on a friend marked so."""
    return [t + FRIEND if f else t
            for t, f in zip(req.texts, friendly(req.actions, req.texts, sides), strict=True)]


def _shown_words(req: ActionRequest, *, group: bool = False) -> list[str]:
    """Each action's words as the game's menu shows them (``150°, 6 AP, 12 shots toward A
    (2,6)``; with ``group``, after its group's title), ``""`` where the description says it
    all (or there is no menu)."""
    shown = [""] * len(req.texts)
    if req.menu is not None:
        for item in req.menu.items:
            if item.label and 0 <= item.index < len(shown):
                words = f"{item.sub} {item.label}".strip()
                shown[item.index] = f"{item.group} {words}" if group else words
    return shown


def _matching(text: str, req: ActionRequest, marked: Sequence[str] = ()) -> list[int]:
    """The actions typed ``text`` names. It is read against the words the menu shows for
    them (``150° toward A``), the descriptions (as listed, a friend marked), the menu's words
    after their group's title (``W moves to 1 AP 9,5``), and a description with the menu's
    words; the first reading that names one action alone wins, else the first that names
    some (to list them)."""
    shown = _shown_words(req)
    readings: list[Sequence[str]] = []
    if any(shown):
        readings.append(shown)
    readings.append(req.texts)
    if marked:
        readings.append(marked)
    if any(shown):
        titled = _shown_words(req, group=True)
        readings.append(titled)
        readings.append([f"{t} {m}" for t, m in zip(req.texts, titled, strict=True)])
    found = [match_actions(text, reading) for reading in readings]
    return next((hits for hits in found if len(hits) == 1),
                next((hits for hits in found if hits), []))


def option_lines(texts: Sequence[str]) -> list[str]:
    """A decision's options for people: each on its line when few; when many, those whose
    descriptions share what comes before ``": "`` (and the first word after it) on one
    wrapped line under it, each with its number.

    >>> option_lines(["a", "b"])
    ['  [1] a', '  [2] b']
    >>> texts = [f"2 boxes: erase head {n}" for n in range(1, 8)] + [
    ...     f"3 boxes: erase torso {n}" for n in range(1, 8)]
    >>> print("\\n".join(option_lines(texts)))
      2 boxes, erase: [1] head 1  [2] head 2  [3] head 3  [4] head 4  [5] head 5  [6] head 6
            [7] head 7
      3 boxes, erase: [8] torso 1  [9] torso 2  [10] torso 3  [11] torso 4  [12] torso 5
            [13] torso 6  [14] torso 7
    """
    numbered = list(enumerate(texts, start=1))
    if len(texts) <= _LIST_ALL or not all(": " in t for t in texts):
        return [f"  [{n}] {t}" for n, t in numbered]
    runs: list[tuple[str, list[tuple[int, str]]]] = []
    for n, t in numbered:
        head, tail = t.split(": ", 1)
        if runs and runs[-1][0] == head:
            runs[-1][1].append((n, tail))
        else:
            runs.append((head, [(n, tail)]))
    if len(runs) * 2 > len(texts):
        return [f"  [{n}] {t}" for n, t in numbered]
    lines: list[str] = []
    for head, items in runs:
        firsts = {tail.split(" ", 1)[0] for _, tail in items}
        if len(firsts) == 1 and all(" " in tail for _, tail in items):
            head = f"{head}, {firsts.pop()}"
            items = [(n, tail.split(" ", 1)[1]) for n, tail in items]
        lines.append(_wrapped(f"  {head}: ", [f"[{n}] {tail}" for n, tail in items]))
    return lines


def _group_lines(g: ActionGroup, examples: list[str], depth: int) -> list[str]:
    """One group of actions for people: each action when few, one line of what tells them
    apart when those are short words, else one line per next word (``uses Dragonslayer on``,
    ``uses Cure on``) and at last a count with the 'list' that shows them."""
    span = (f"[{g.numbers[0]}-{g.numbers[-1]}] "
            if g.numbers[-1] - g.numbers[0] == len(g.numbers) - 1 else "")
    short = all(len(t.split()) <= 2 for t in g.tails) and g.head
    # the same action with other choices in brackets (items in each hand): one line
    if g.head and len(g.numbers) > _GROUP_LISTED and all(
            t.startswith("(") and t.endswith(")") for t in g.tails):
        examples.append(g.texts[len(g.texts) // 2])
        return [_wrapped(f"  {g.head} ({len(g.numbers)}): ",
                         [f"[{n}] {t}" for n, t in zip(g.numbers, g.tails, strict=True)])]
    if len(g.numbers) <= _GROUP_LISTED or (not short and len(g.numbers) <= 6):
        return [f"  [{n}] {t}" for n, t in zip(g.numbers, g.texts, strict=True)]
    if short:
        examples.append(f"{g.head} {g.tails[len(g.tails) // 2]}")
        # each destination carries its own number, in one run or not
        return [_wrapped(f"  {g.head} ({len(g.numbers)}): ",
                         [f"[{n}] {t}" for n, t in zip(g.numbers, g.tails, strict=True)])]
    if depth == 0:
        subs: dict[str, list[int]] = {}
        for k, tail in enumerate(g.tails):
            subs.setdefault(tail.split()[0] if tail.split() else "", []).append(k)
        if len(subs) > 1:
            out: list[str] = []
            for ks in subs.values():
                sub = ActionGroup(g.unit, g.verb, tuple(g.numbers[k] for k in ks),
                                  tuple(g.texts[k] for k in ks))
                out.extend(_group_lines(sub, examples, depth + 1))
            return out
    words = g.head or f"{g.unit} {g.verb}".strip()
    return [f"  {span}{words} ... ({len(g.numbers)} ways: 'list {words}' shows them)"]


def menu_lines(menu: ActionMenu) -> list[str]:
    """A game's menu for people: a group per kind, a line per cost inside it (``2 AP: [5]
    3,6  [9] 2,7``), each action with its number; then the game's hint."""
    lines: list[str] = []
    runs = list(menu.lines())
    for k, (group, sub, items) in enumerate(runs):
        pieces = tuple(f"[{i.index + 1}] {i.label}".rstrip() for i in items)
        alone = (k == 0 or runs[k - 1][0] != group) and (k + 1 == len(runs)
                                                          or runs[k + 1][0] != group)
        if not sub and all(not i.label for i in items):
            lines.extend(f"  [{i.index + 1}] {group}" for i in items)
        elif alone and not sub:
            lines.append(_wrapped(f"  {group}: ", pieces))
        else:
            if k == 0 or runs[k - 1][0] != group:
                lines.append(f"  {group}:")
            lines.append(_wrapped(f"    {sub}: ", pieces))
    if menu.hint:
        lines.append(f"  {menu.hint}")
    return lines


def _wrapped(head: str, tails: Sequence[str], width: int = 96) -> str:
    lines, line = [], head
    indent = " " * min(len(head), 8)
    for t in tails:
        piece = t + "  "
        if len(line) + len(piece) > width and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += piece
    lines.append(line.rstrip())
    return "\n".join(lines)


def _two_names(text: str, units: Sequence[str]) -> tuple[str, str] | None:
    """The two names of ``sight A B``: quoted, or split where both halves are known."""
    try:
        parts = shlex.split(text)
    except ValueError:
        parts = text.split()
    if len(parts) == 2:
        return parts[0], parts[1]
    if len(parts) < 2:
        return None
    known = {u.lower() for u in units}
    for k in range(1, len(parts)):
        a, b = " ".join(parts[:k]), " ".join(parts[k:])
        if a.lower() in known or b.lower() in known:
            return a, b
    return None


def _waiting(req: Request) -> str:
    if isinstance(req, RollRequest):
        return f"the dice for {req.label!r} are awaited"
    if isinstance(req, DecisionRequest):
        return f"{req.side} decides {req.decision.label!r}"
    if isinstance(req, Over):
        return winner_line(req.winner, req.reason)
    return f"{req.side} chooses an action"
