"""The ``tactica`` command line: a thin layer over the public API.

Each command lives in its own module below this package and registers itself on
:data:`tactica.cli.app.app`, which imports a command's module only when the command is used
(:data:`tactica.cli.app.COMMANDS`). :func:`main` turns every
:class:`~tactica.engine.errors.TacticaError`, and every option or argument the command line
itself refuses (an unknown option, a value out of its range), into one line on standard error
and exit code 2; it runs every command under :func:`tactica.analysis.ctrl_c.stop_on_ctrl_c`
(Ctrl-C stops the work, says ``interrupted`` and exits with 130; a second Ctrl-C stops at once).
"""

from __future__ import annotations

import sys

import typer

from tactica.analysis import ctrl_c
from tactica.cli.app import COMMANDS, app, load_commands
from tactica.engine.errors import TacticaError, bounded_message
from tactica.presentation.terminal import echo

__all__ = ["COMMANDS", "COMMAND_MODULES", "app", "load_commands", "main"]

#: Modules that register commands (each imported when its command is first used).
COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(m for m, _ in COMMANDS.values()))


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (also used by the console script)."""
    with ctrl_c.stop_on_ctrl_c():
        try:
            code = _run(argv)
        except KeyboardInterrupt:
            code = ctrl_c.EXIT_CODE
        if code == ctrl_c.EXIT_CODE and ctrl_c.requested() and not ctrl_c.reported():
            echo("interrupted: stopped before the end (Ctrl-C)", file=sys.stderr)
        return code


def _run(argv: list[str] | None) -> int:
    try:
        code = app(args=argv, prog_name="tactica", standalone_mode=False)
    except TacticaError as exc:
        echo(bounded_message(f"error: {exc}"), file=sys.stderr)
        return 2
    except typer.Abort:
        echo("Aborted!", file=sys.stderr)
        return 1
    except typer.TyperException as exc:  # an option or argument refused by the parser
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare group: its help
            echo(exc.format_message(), file=sys.stderr)
        else:
            echo(bounded_message(f"error: {usage_line(exc)}"), file=sys.stderr)
        code = getattr(exc, "exit_code", 2)
        return code if isinstance(code, int) else 2
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        echo(str(code), file=sys.stderr)
        return 1
    return code if isinstance(code, int) else 0


def usage_line(exc: typer.TyperException) -> str:
    """What the parser refused, in one bounded line naming the command and where its help
    is (``tactica simulate: Invalid value for '--battles' / '-n': ... (tactica simulate
    --help)``)."""
    message = getattr(exc, "format_message", None)
    text = " ".join((message() if callable(message) else str(exc)).split())
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        path = ctx.command_path
        text = f"{path}: {text} (see {path} --help)"
    return bounded_message(text)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
