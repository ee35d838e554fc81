"""What reaches the terminal: every text printed passes
:func:`tactica.presentation.clean.clean_text`.

:class:`SafeConsole` is the rich console of every command and of ``tactica play``: rich markup
and emoji codes are off (a unit named ``[bold]x`` or ``:fire:`` prints as it is written), and
each string it renders, printed or in a table's cell or title, loses its control characters and
escape sequences first. Styles are applied by the code with ``style=`` or :class:`rich.text.
Text`, never parsed out of text. :func:`echo` is the same for plain writes (a map's preview,
a sight report, the ``error:`` line).

>>> import io
>>> out = io.StringIO()
>>> SafeConsole(file=out, width=60).print("side [bold]red[/bold]\\x1b[2J :fire:")
>>> out.getvalue()
'side [bold]red[/bold] :fire:\\n'
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any, TextIO

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.text import Text

from tactica.presentation.clean import clean_text

__all__ = ["SafeConsole", "clean_rich", "echo"]


class SafeConsole(Console):
    """A rich console that prints text literally and without control characters."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("markup", False)
        kwargs.setdefault("emoji", False)
        kwargs.setdefault("highlight", False)
        super().__init__(**kwargs)

    def render_str(self, text: str, **kwargs: Any) -> Text:
        """A string as rich Text, without control characters; markup only where the code
        asks for it with ``markup=True`` (never for text from a file)."""
        return super().render_str(clean_text(text), **kwargs)

    def render(self, renderable: RenderableType,
               options: ConsoleOptions | None = None) -> Iterable[Segment]:
        """Render anything (a table's cells come here too); a rich Text is cleaned first."""
        if isinstance(renderable, Text):
            renderable = clean_rich(renderable)
        return super().render(renderable, options)


def clean_rich(text: Text) -> Text:
    """A rich Text without control characters, its styles kept on what remains.

    >>> t = Text.assemble(("bold\x1b[2J", "bold"), " plain")
    >>> c = clean_rich(t)
    >>> c.plain, [(s.start, s.end, str(s.style)) for s in c.spans]
    ('bold plain', [(0, 4, 'bold')])
    """
    if clean_text(text.plain) == text.plain:
        return text
    cuts = sorted({0, len(text.plain)} | {s.start for s in text.spans}
                  | {s.end for s in text.spans})
    out = Text(style=text.style, justify=text.justify, overflow=text.overflow,
               no_wrap=text.no_wrap, end=text.end)
    for piece in text.divide(cuts):
        cleaned = clean_text(piece.plain)
        part = Text(cleaned)
        for span in piece.spans:  # every span of a piece covers all of it
            part.stylize(span.style, 0, len(cleaned))
        out.append_text(part)
    return out


def echo(text: str, *, file: TextIO | None = None) -> None:
    """Print one text (and a newline) on standard output or ``file``, cleaned."""
    stream = file if file is not None else sys.stdout
    stream.write(clean_text(text) + "\n")
    stream.flush()
