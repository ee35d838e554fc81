"""The ``tactica`` command line: a thin layer over the public API.

Each command lives in its own module below this package and registers itself on
:data:`tactica.cli.app.app`, which imports a command's module only when the command is used
(:data:`tactica.cli.app.COMMANDS`). :func:`main` turns every
:class:`~tactica.engine.errors.TacticaError` into one line on standard error and exit code 2.
"""

from __future__ import annotations

import sys

from tactica.cli.app import COMMANDS, app, load_commands
from tactica.engine.errors import TacticaError, bounded_message
from tactica.presentation.terminal import echo

__all__ = ["COMMANDS", "COMMAND_MODULES", "app", "load_commands", "main"]

#: Modules that register commands (each imported when its command is first used).
COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(m for m, _ in COMMANDS.values()))


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (also used by the console script)."""
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
