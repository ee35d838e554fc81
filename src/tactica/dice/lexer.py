"""Tokens of the dice language, each with its 1-based column for error messages.

Letters are case-insensitive and a run of letters is split into the known words, longest
first, so ``4d6khx`` reads ``d``, ``kh``, ``x`` and ``2d20kh`` reads ``d``, ``kh``.

>>> [t.text for t in tokenize("4d6r1!!>=5kh3")]
['4', 'd', '6', 'r', '1', '!!', '>=', '5', 'kh', '3', '']
>>> [t.text for t in tokenize("2d6[fire] + 1 # a comment")]
['2', 'd', '6', 'fire', '+', '1', '']
>>> tokenize("2d6 ? 1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tactica.dice.lexer.DiceSyntaxError: unexpected '?' at column 5 in '2d6 ? 1'
"""

from __future__ import annotations

from dataclasses import dataclass

from tactica.engine.errors import DiceError

__all__ = ["WORDS", "DiceSyntaxError", "Token", "tokenize"]

#: The words of the language, lower case (``df`` is also the Fate die ``dF``).
WORDS: tuple[str, ...] = (
    "max", "min",
    "cs", "cf", "df", "dh", "dl", "kh", "kl", "xo", "rr", "ro",
    "d", "k", "x", "r", "f", "u",
)  # fmt: skip
_BY_LENGTH = sorted(WORDS, key=len, reverse=True)
_DIGITS = frozenset("0123456789")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SINGLE = frozenset("+-*/()%{},")


class DiceSyntaxError(DiceError):
    """A dice expression that does not parse; ``column`` (1-based) points at the problem."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.column = column


@dataclass(frozen=True, slots=True)
class Token:
    """One token: ``kind`` is ``num``, ``word``, ``cmp``, ``!``, ``!!``, ``!p``, ``flavor``
    (the text of a ``[flavor]`` tag, without the brackets), a single character
    (``+ - * / ( ) % { } ,``) or ``end``; words are lower case in ``text``."""

    kind: str
    text: str
    col: int


def error_at(what: str, col: int, text: str) -> DiceSyntaxError:
    """``what at column N in 'text'``, with the column kept on the exception."""
    return DiceSyntaxError(f"{what} at column {col} in {text!r}", col)


def _split_word(run: str, start: int, text: str) -> list[Token]:
    out: list[Token] = []
    low = run.lower()
    i = 0
    while i < len(low):
        for word in _BY_LENGTH:
            if low.startswith(word, i):
                out.append(Token("word", word, start + i + 1))
                i += len(word)
                break
        else:
            raise error_at(f"unknown word {run[i:]!r}", start + i + 1, text)
    return out


def comment_start(text: str) -> int:
    """The index of the ``#`` that starts a comment (``len(text)`` when there is none).

    A ``#`` inside a ``[flavor]`` tag is part of the tag, not a comment.
    """
    depth = False
    for i, ch in enumerate(text):
        if ch == "[":
            depth = True
        elif ch == "]":
            depth = False
        elif ch == "#" and not depth:
            return i
    return len(text)


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``, ending with an ``end`` token (its column is one past the end).

    Everything from an unbracketed ``#`` on is a comment and gives no token.
    """
    tokens: list[Token] = []
    i, n = 0, comment_start(text)
    while i < n:
        ch = text[i]
        start = i
        if ch.isspace():
            i += 1
        elif ch == "[":
            close = text.find("]", i + 1, n)
            if close < 0:
                raise error_at("'[' without its ']'", start + 1, text)
            tokens.append(Token("flavor", text[i + 1 : close].strip(), start + 1))
            i = close + 1
        elif ch in _DIGITS:
            while i < n and text[i] in _DIGITS:
                i += 1
            tokens.append(Token("num", text[start:i], start + 1))
        elif ch in _LETTERS:
            while i < n and text[i] in _LETTERS:
                i += 1
            tokens.extend(_split_word(text[start:i], start, text))
        elif ch in "<>=":
            two = text[i : i + 2]
            if two in (">=", "<=", "=="):
                tokens.append(Token("cmp", two, start + 1))
                i += 2
            else:
                tokens.append(Token("cmp", "==" if ch == "=" else ch, start + 1))
                i += 1
        elif ch == "!":
            two = text[i : i + 2]
            if two == "!=":
                tokens.append(Token("cmp", "!=", start + 1))
                i += 2
            elif two == "!!":
                tokens.append(Token("!!", "!!", start + 1))
                i += 2
            elif two.lower() == "!p":
                tokens.append(Token("!p", "!p", start + 1))
                i += 2
            else:
                tokens.append(Token("!", "!", start + 1))
                i += 1
        elif ch in _SINGLE:
            tokens.append(Token(ch, ch, start + 1))
            i += 1
        else:
            raise error_at(f"unexpected {ch!r}", start + 1, text)
    tokens.append(Token("end", "", n + 1))
    return tokens
