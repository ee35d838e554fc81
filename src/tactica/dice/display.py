"""Bounded text for exact numbers: huge fractions are shown short, and in full on request.

Python refuses to print integers of more than 4,300 digits (``sys.int_max_str_digits``), and
the exact probabilities of big pools have thousands of digits (``2000d100kh``). Here:

* :func:`int_text` writes any integer in full, in pieces below that limit (exact on request);
* :func:`fraction_text` gives ``"a/b"`` only when it is at most ``limit`` characters long;
* :func:`sci_text` gives a correctly rounded decimal like ``1.00000e-4000`` for any size,
  where a float would underflow to 0.

>>> fraction_text(Fraction(1, 6))
'1/6'
>>> fraction_text(Fraction(1, 10**400), limit=300) is None
True
>>> sci_text(Fraction(1, 100**2000), 3)
'1.00e-4000'
>>> len(int_text(7**10000))
8451
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["EXACT_CHARS", "fraction_text", "int_text", "percent_text", "sci_text"]

#: Default longest exact fraction written out (numerator, slash and denominator).
EXACT_CHARS = 300
_PIECE_BITS = 9000  # about 2,700 digits: safely below Python's 4,300-digit limit
_LOG10_2 = math.log10(2)


def _digits(n: int) -> int:
    """An upper bound of the decimal digits of ``abs(n)``."""
    return int(abs(n).bit_length() * _LOG10_2) + 1


def int_text(n: int) -> str:
    """The decimal text of any integer, however many digits (split into exact pieces)."""
    if n < 0:
        return "-" + int_text(-n)
    if n.bit_length() <= _PIECE_BITS:
        return str(n)
    k = _digits(n) // 2
    high, low = divmod(n, 10**k)
    return int_text(high) + int_text(low).rjust(k, "0")


def fraction_text(p: Fraction | int, limit: int | None = EXACT_CHARS) -> str | None:
    """``"a/b"`` (or ``"a"`` for integers), or ``None`` when longer than ``limit`` characters.

    ``limit=None`` always gives the full text, however long.
    """
    q = Fraction(p)
    if limit is not None and _digits(q.numerator) + _digits(q.denominator) > limit + 1:
        return None
    text = int_text(q.numerator)
    if q.denominator != 1:
        text += "/" + int_text(q.denominator)
    return text if limit is None or len(text) <= limit else None


def sci_text(p: Fraction | int, digits: int = 6) -> str:
    """``p`` in scientific notation with ``digits`` significant digits, correctly rounded.

    Works at any magnitude (``1e-4000`` is not a float).
    """
    q = Fraction(p)
    if q == 0:
        return "0"
    sign = "-" if q < 0 else ""
    a, b = abs(q.numerator), q.denominator
    e = int((a.bit_length() - b.bit_length()) * _LOG10_2)
    while True:
        scale = digits - 1 - e
        num, den = (a * 10**scale, b) if scale >= 0 else (a, b * 10 ** (-scale))
        m = (2 * num + den) // (2 * den)
        if m >= 10**digits:
            e += 1
        elif m < 10 ** (digits - 1):
            e -= 1
        else:
            break
    text = str(m)
    mantissa = text[0] + ("." + text[1:] if digits > 1 else "")
    return f"{sign}{mantissa}e{e:+d}" if abs(e) >= 100 else f"{sign}{mantissa}e{e:+03d}"


def percent_text(p: Fraction) -> str:
    """A probability as a percentage: ``16.667%``, or ``1.00e-3998%`` when tiny."""
    if p == 0:
        return "0.000%"
    pct = p * 100
    if pct >= Fraction(1, 1000):
        return f"{float(pct):.3f}%"
    return sci_text(pct, 3) + "%"
