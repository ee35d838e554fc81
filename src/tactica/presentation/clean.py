"""Text from files made harmless to show: no terminal escape sequences, no control characters.

A scenario or map file may hold any text in its names and descriptions. Before such text
reaches a terminal, an SVG picture or an HTML page it passes through :func:`clean_text`, which
removes escape sequences (``ESC [ 2 J`` clears a screen, ``ESC ] ... BEL`` retitles a window),
the remaining C0 and C1 control characters (newline and tab stay), the bidirectional overrides
that make a line read differently from what it holds, and code points that XML does not allow.

>>> clean_text("red\\x1b[2J\\x1b]0;pwned\\x07 side\\x00")
'red side'
>>> clean_text("two\\nlines\\tand a tab\\r")
'two\\nlines\\tand a tab'
>>> clean_text("line", newlines=False), clean_text("a\\nb", newlines=False)
('line', 'a b')
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["clean_text"]

#: Escape sequences: CSI (ESC [ or 0x9B ... final byte), OSC/DCS/SOS/PM/APC strings (ended by
#: BEL or ST, or running to the end of the text), and two-byte ESC sequences.
_SEQUENCES: Final = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"
)
#: Control characters other than tab and newline, bidirectional controls (the Arabic letter mark
#: U+061C too), the line and paragraph separators U+2028 and U+2029 (a terminal may start a line
#: at them), and the code points XML forbids (lone surrogates, U+FFFE, U+FFFF).
_CONTROLS: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff\ufffe\uffff]"
)


def clean_text(text: str, *, newlines: bool = True) -> str:
    """``text`` without escape sequences and control characters (tab and newline kept; with
    ``newlines=False`` a newline or tab becomes a space)."""
    if text.isprintable():  # the common case: nothing to remove
        return text
    out = _CONTROLS.sub("", _SEQUENCES.sub("", text))
    if not newlines:
        out = out.replace("\n", " ").replace("\t", " ")
    return out
