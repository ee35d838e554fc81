"""The typer application every command module registers itself on, loading commands lazily.

``tactica --version`` and ``tactica --help`` import no command module: the help lists each
command from :data:`COMMANDS` (its module and the first paragraph of its help, kept equal to the
command's own by a test), and a command's module is imported only when that command runs or
its own help is asked for. So starting the command line costs typer, not numpy, pandas or the
games.
"""

from __future__ import annotations

import importlib
from difflib import get_close_matches
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup
from typer.main import get_command_from_info

__all__ = ["COMMANDS", "LazyCommands", "app", "load_commands"]

#: Every command of ``tactica``, in the order ``--help`` lists them: the module that registers
#: it on :data:`app`, and the first paragraph of its help.
COMMANDS: dict[str, tuple[str, str]] = {
    "dice": ("tactica.cli.dice_cmd",
             "Exact odds of dice expressions: every value with its probability, mean and sd; "
             "several expressions side by side. 3d6>=4 COUNTS the dice showing 4 or more; (3d6)>=4 COMPARES the total (1 or 0)."),
    "demo": ("tactica.cli.demo_cmd",
             "The main job on embedded defaults: exact odds and a simulation of a 5 vs 5 "
             "firefight."),
    "games": ("tactica.cli.games_cmd",
              "Every game tactica knows: its map kind, its rulings and its example scenarios."),
    "validate": ("tactica.cli.validate_cmd",
                 "Check a scenario or map file; every problem is listed, each with its field."),
    "odds": ("tactica.cli.odds_cmd",
             "The exact outcome distribution of an action in the scenario's starting "
             "position."),
    "simulate": ("tactica.cli.simulate_cmd",
                 "Play whole battles with seeded dice; win rates with 95% confidence "
                 "intervals."),
    "map": ("tactica.cli.map_cmd", "Show a map: a text preview, or an SVG picture with --svg."),
    "sight": ("tactica.cli.sight_cmd",
              "Sight and cover between two places or units, with the reasons (every line, "
              "every blocker)."),
    "play": ("tactica.cli.play_cmd",
             "Run a fight at the table: choose actions, type the dice you roll (or let tactica "
             "roll), see sight and odds; every step is saved as it happens and --resume LOG "
             "continues it."),
    "serve": ("tactica.cli.serve_cmd",
              "Run a fight in the browser: the map, the units, sight and odds by clicking two "
              "units, actions and dice by clicking (or typing the dice rolled); saved after "
              "every event, so --resume LOG continues it here or in tactica play. Open the URL "
              "it prints: its token lets only you in."),
    "exact": ("tactica.cli.exact_cmd",
              "The exact chance that each side wins the whole fight, of a draw and of an "
              "unfinished fight, with the exact distributions of rounds and survivors, under "
              "the policies given."),
    "matrix": ("tactica.cli.matrix_cmd",
               "Exact odds of every weapon of some profiles against every target profile, at "
               "chosen ranges and cover set through the game's own geometry; --plot draws a "
               "heat map."),
    "versus": ("tactica.cli.versus_cmd",
               "Two squads set up through the game's own geometry and played as whole battles, "
               "each squad moving first in turn; each squad's win rate with its 95% interval, "
               "and which wins more."),
    "sweep": ("tactica.cli.sweep_cmd",
              "Vary one or two parameters over values; exact odds (--odds) or simulations "
              "(--battles) at each point, every result with its parameters in a Parquet file "
              "DuckDB can query."),
    "effects": ("tactica.cli.effects_cmd",
                "Play every alternative reading of every ruling against the scenario's own on "
                "the same seeded battles, ranked by the change of each side's win rate (paired "
                "95% intervals); rulings no battle consulted are listed as such."),
    "report": ("tactica.cli.report_cmd",
               "One self-contained HTML page for a scenario (map, rulings, odds, plots, "
               "simulation) or a sweep (what it varied, its tables and plots), to send to a "
               "co-author."),
}


def load_commands() -> None:
    """Import every command module (each registers its command on :data:`app`)."""
    for module, _ in COMMANDS.values():
        importlib.import_module(module)


class LazyCommands(TyperGroup):
    """The top-level group: lists every command of :data:`COMMANDS` and builds a command from
    its module on first use."""

    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(dict.fromkeys([*COMMANDS, *self.commands]))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = self.commands.get(cmd_name)
        if found is None and cmd_name in COMMANDS:
            module, summary = COMMANDS[cmd_name]
            if self._listing:  # the group's help needs the name and the summary only
                return TyperCommand(cmd_name, help=summary, rich_markup_mode=self.rich_markup_mode)
            importlib.import_module(module)
            for info in app.registered_commands:
                command = get_command_from_info(
                    info, pretty_exceptions_short=app.pretty_exceptions_short,
                    rich_markup_mode=app.rich_markup_mode)
                if command.name:
                    self.commands.setdefault(command.name, command)
            found = self.commands.get(cmd_name)
        return found

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if (name and not name.startswith("-") and name not in self.commands
                and name not in COMMANDS and not ctx.resilient_parsing):
            # A typo: suggest among every command, loaded or not.
            matches = get_close_matches(name, self.list_commands(ctx))
            hint = f". Did you mean {', '.join(repr(m) for m in matches)}?" if matches else "."
            ctx.fail(f"No such command {name!r}{hint}")
        return super().resolve_command(ctx, args)


app = typer.Typer(
    name="tactica",
    cls=LazyCommands,
    help=(
        "tactica: exact odds, seeded simulation and a game master's assistant for the combat "
        "rules of tabletop skirmish and role-playing games."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        from tactica.engine.version import version

        typer.echo(f"tactica {version()}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """tactica: exact odds, seeded simulation and a game master's assistant for the combat
    rules of tabletop skirmish and role-playing games."""
