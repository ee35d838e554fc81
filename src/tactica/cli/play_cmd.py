"""``tactica play SCENARIO``: the game master's assistant, with a crash-safe log and --resume."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from tactica.analysis import ctrl_c
from tactica.cli.app import app
from tactica.cli.common import console, err_console, parse_rulings
from tactica.engine.errors import TacticaError
from tactica.engine.scenario import load_scenario
from tactica.play import FightController, PlaySession
from tactica.play.console import PlainTerminal, RichTerminal

__all__ = ["ProxyTerminal", "default_log_path", "open_fight", "parse_computer", "play"]


class ProxyTerminal:
    """The terminal of ``tactica play``: prompt_toolkit and rich colours when both standard
    input and output are a terminal, plain lines otherwise (pipes, scripts). The rich one
    asks the session (once built) what to complete and how to colour."""

    def __init__(self) -> None:
        self.session: PlaySession | None = None
        self._rich: RichTerminal | None = None
        self._plain = PlainTerminal(console)
        if sys.stdin.isatty() and sys.stdout.isatty():
            try:
                self._rich = RichTerminal(palette=self._palette, words=self._words,
                                          names=self._names, console=console)
            except Exception:  # no usable terminal after all: plain lines
                self._rich = None

    def _palette(self) -> dict[str, int]:
        return self.session.palette() if self.session is not None else {}

    def _words(self) -> list[str]:
        return self.session.completions() if self.session is not None else []

    def _names(self) -> list[str]:
        if self.session is None:
            return []
        rs, state = self.session.battle.ruleset, self.session.battle.state
        return [u.id for u in rs.units(state)]

    def ask(self, prompt: str) -> str:
        return (self._rich or self._plain).ask(prompt)

    def say(self, text: str) -> None:
        (self._rich or self._plain).say(text)


def default_log_path(scenario: Path) -> Path:
    """``duel.yaml`` -> ``duel.log.jsonl`` in the current directory."""
    return Path(f"{scenario.stem}.log.jsonl")


def parse_computer(values: list[str] | None) -> dict[str, str | None]:
    """``["red", "blue=random"]`` -> ``{"red": None, "blue": "random"}`` (``None``: the
    game's default policy, ``greedy`` for a game with a valuation part)."""
    out: dict[str, str | None] = {}
    for item in values or []:
        side, sep, name = item.partition("=")
        if not side.strip() or (sep and not name.strip()):
            raise TacticaError(f"--computer: expected SIDE or SIDE=POLICY, got {item!r}")
        out[side.strip()] = name.strip() if sep else None
    return out


def open_fight(scenario: Path | None, *, log: Path | None, resume: Path | None,
               computer: list[str] | None, auto_dice: bool, seed: int | None,
               rulings: list[str] | None, command: str = "play",
               accept_old_log: bool = False) -> FightController:
    """The fight that ``tactica play`` and ``tactica serve`` (``command``, named in the
    hints) run: a new one on ``scenario`` (logged to ``log``, by default beside the current
    folder), or the one in ``resume`` (a version 1 log only with ``accept_old_log``)."""
    chosen = parse_computer(computer) if computer else None
    if resume is not None:
        if rulings:
            raise TacticaError("--rulings: a fight keeps the rulings it started with (its log "
                               "records them); resume without --rulings")
        if log is not None and log != resume:
            raise TacticaError(f"--log {str(log)!r} and --resume {str(resume)!r}: "
                               "name the log once, with --resume")
        sc = load_scenario(scenario) if scenario is not None else None
        # Without --auto-dice the dice are as the table last chose them in this fight.
        return FightController.resume(resume, scenario=sc, computer=chosen,
                                      ask_dice=False if auto_dice else None, seed=seed,
                                      command=command, accept_old_log=accept_old_log)
    if scenario is None:
        raise TacticaError("give a SCENARIO to start a fight, or --resume LOG to continue one")
    sc = load_scenario(scenario)
    if rulings:
        sc = sc.with_rulings(parse_rulings(rulings))
    path = log if log is not None else default_log_path(scenario)
    return FightController.start(sc, path, seed=seed, computer=chosen, ask_dice=not auto_dice,
                                 command=command)


@app.command()
def play(
    scenario: Annotated[Path | None, typer.Argument(help="A scenario file (with --resume: only if the log's own cannot be found).")] = None,
    log: Annotated[Path | None, typer.Option("--log", "-l", help="Where to log a new fight (default: SCENARIO's name + .log.jsonl, here).")] = None,
    resume: Annotated[Path | None, typer.Option("--resume", metavar="LOG", help="Continue the fight in LOG where it stopped.")] = None,
    computer: Annotated[list[str] | None, typer.Option("--computer", "-c", help="The computer plays SIDE (with the game's default policy, greedy where it has one), or SIDE=POLICY (repeatable).")] = None,
    auto_dice: Annotated[bool, typer.Option("--auto-dice", help="Roll every die virtually instead of asking.")] = False,
    seed: Annotated[int | None, typer.Option("--seed", "-s", min=0, help="Seed of the virtual dice and the computer's choices (recorded in the log).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable; not with --resume).")] = None,
    accept_old_log: Annotated[bool, typer.Option("--accept-old-log", help="Continue a version 1 log (tactica 0.2.0 and earlier), whose header has no check.")] = False,
) -> None:
    """Run a fight at the table: choose actions, type the dice you roll (or let tactica roll),
    see sight and odds; every step is saved as it happens and --resume LOG continues it."""
    terminal = ProxyTerminal()
    controller = open_fight(scenario, log=log, resume=resume, computer=computer,
                            auto_dice=auto_dice, seed=seed, rulings=rulings,
                            accept_old_log=accept_old_log)
    path = controller.log_path
    session = PlaySession(controller, terminal)
    terminal.session = session
    try:
        session.run()
    except KeyboardInterrupt:
        err_console.print(f"interrupted: the fight is saved in {path}; continue it with "
                          f"tactica play --resume {path}", markup=False, highlight=False,
                          soft_wrap=True)
        ctrl_c.mark_reported()
        raise typer.Exit(ctrl_c.EXIT_CODE) from None
