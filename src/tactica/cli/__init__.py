"""The ``tactica`` command line: a thin layer over the public API.

Each command lives in its own module below this package and registers itself on
:data:`tactica.cli.app.app`. :func:`main` turns every :class:`~tactica.errors.TacticaError`
into one line on standard error and exit code 2.
"""

from __future__ import annotations

import importlib
import sys

from tactica.cli.app import app
from tactica.errors import TacticaError

__all__ = ["COMMAND_MODULES", "app", "main"]

#: Modules that register commands; each is imported once by :func:`load_commands`.
COMMAND_MODULES: tuple[str, ...] = (
    "tactica.cli.dice_cmd",
    "tactica.cli.demo_cmd",
    "tactica.cli.validate_cmd",
    "tactica.cli.odds_cmd",
    "tactica.cli.simulate_cmd",
    "tactica.cli.map_cmd",
    "tactica.cli.sight_cmd",
)


def load_commands() -> None:
    """Import every command module so that its commands are registered on :data:`app`."""
    for name in COMMAND_MODULES:
        importlib.import_module(name)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (also used by the console script)."""
    load_commands()
    try:
        rv = app(args=argv, prog_name="tactica", standalone_mode=False)
    except TacticaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # typer.Exit inside standalone_mode=False
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # click usage errors and aborts
        import click

        if isinstance(exc, click.exceptions.ClickException):
            exc.show()
            return exc.exit_code
        if isinstance(exc, click.exceptions.Abort):
            print("aborted", file=sys.stderr)
            return 1
        raise
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
