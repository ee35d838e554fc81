"""The typer application every command module registers itself on."""

from __future__ import annotations

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
