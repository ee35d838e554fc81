"""The exceptions tactica raises on bad input or illegal play.

Every message quotes the bad input and, where it can, hints at the fix. The command line turns
any :class:`TacticaError` into one line on standard error and exit code 2, never a traceback.
"""

from __future__ import annotations

__all__ = [
    "CapabilityError",
    "ContentError",
    "DiceError",
    "IllegalActionError",
    "MapError",
    "RulingError",
    "ScenarioError",
    "ScriptError",
    "TacticaError",
    "bounded_message",
    "join_problems",
]

#: How many problems a message lists (the rest are counted), and how long one line may be
#: (the same figures as :mod:`tactica.engine.limits`, which imports nothing).
_LINES = 30
_LINE_CHARS = 400


def _cut_line(line: str) -> str:
    return line if len(line) <= _LINE_CHARS else line[: _LINE_CHARS - 3] + "..."


def join_problems(problems: list[str]) -> str:
    """Problems one per line, at most a bounded number of them (then how many more), each
    line cut to a bounded length."""
    lines = [line for p in problems for line in p.split("\n") if line.strip()]
    shown = [_cut_line(line) for line in lines[:_LINES]]
    if len(lines) > _LINES:
        shown.append(f"... and {len(lines) - _LINES} more problem(s)")
    return "\n".join(shown)


def bounded_message(text: str) -> str:
    """A message as the command line prints it: bounded in lines and line length."""
    if len(text) <= _LINE_CHARS and "\n" not in text:
        return text
    return join_problems([text])


class TacticaError(Exception):
    """Base class of every error tactica raises on purpose."""


class DiceError(TacticaError, ValueError):
    """A dice expression or distribution request that cannot be honoured."""


class MapError(TacticaError, ValueError):
    """A map file or battlefield query that is malformed (names the file and the field)."""


class ScenarioError(TacticaError, ValueError):
    """A scenario file that does not validate (names the file and the field)."""


class ContentError(TacticaError, ValueError):
    """A content pack (weapons, profiles, items) that does not validate."""


class RulingError(TacticaError, ValueError):
    """An unknown ruling id or an unknown option for a ruling."""


class CapabilityError(TacticaError):
    """A question a game does not answer (odds of a game without odds, sight without a map)."""


class IllegalActionError(TacticaError):
    """An action that the rules do not allow in the current battle state."""


class ScriptError(TacticaError):
    """A scripted roll or decision that is missing, out of range, or left over."""
