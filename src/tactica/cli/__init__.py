"""The ``tactica`` command line: a thin layer over the public API.

Each command lives in its own module below this package and registers itself on
:data:`tactica.cli.app.app`. :func:`main` turns every :class:`~tactica.errors.TacticaError`
into one line on standard error and exit code 2.
"""

from __future__ import annotations

import importlib
import sys

from tactica.cli.app import app
from tactica.errors import TacticaError, bounded_message
from tactica.terminal import echo

__all__ = ["COMMAND_MODULES", "app", "main"]

#: Modules that register commands; each is imported once by :func:`load_commands`.
COMMAND_MODULES: tuple[str, ...] = (
    "tactica.cli.dice_cmd",
    "tactica.cli.demo_cmd",
    "tactica.cli.games_cmd",
    "tactica.cli.validate_cmd",
    "tactica.cli.odds_cmd",
    "tactica.cli.simulate_cmd",
    "tactica.cli.map_cmd",
    "tactica.cli.sight_cmd",
    "tactica.cli.play_cmd",
    "tactica.cli.serve_cmd",
    "tactica.cli.matrix_cmd",
    "tactica.cli.sweep_cmd",
    "tactica.cli.report_cmd",
)


def load_commands() -> None:
    """Import every command module so that its commands are registered on :data:`app`."""
    for name in COMMAND_MODULES:
        importlib.import_module(name)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (also used by the console script)."""
    load_commands()
    try:
        app(args=argv, prog_name="tactica")
    except TacticaError as exc:
        echo(f"error: {bounded_message(str(exc))}", file=sys.stderr)
        return 2
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        echo(str(code), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
