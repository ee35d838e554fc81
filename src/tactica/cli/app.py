"""The typer application every command module registers itself on."""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["app"]

app = typer.Typer(
    name="tactica",
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
        from tactica import __version__

        typer.echo(f"tactica {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """tactica: exact odds, seeded simulation and a game master's assistant for the combat
    rules of tabletop skirmish and role-playing games."""
