"""The parser of the dice language: recursive descent over :mod:`tactica.dice.lexer` tokens.

The grammar, with the meaning of every form, is documented in ``docs/dice.md``; in short::

    expr     := sum [cmp sum]                 a comparison: see "counting or comparing" below
    sum      := product (("+" | "-") product)*
    product  := unary (("*" | "/") unary ["u"])*          "/" rounds down, "/ ... u" up
    unary    := ("-" | "+") unary | atom
    atom     := (dice | NUMBER | "(" expr ")" ["d" faces] | group
              | ("max" | "min") "(" expr ("," expr)* ")") ["[" flavor "]"]
    group    := "{" expr ("," expr)* "}" [keep]       Foundry's pool: keeps among the totals
    dice     := [NUMBER] "d" faces modifier*
    faces    := NUMBER | "%" | "F" | "{" INT ("," INT)* "}"
    modifier := per-die modifiers (r rr ro x xo ! !! !p min max), then one keep or drop
                (kh kl dh dl k d), then one count (cs cf, with df or f for failures)

Counting or comparing: ``L op R`` counts the dice of ``L`` meeting ``op R`` when ``L`` is one
dice term written bare (no parentheses, nothing added, no count yet) and ``R`` is a whole
number; otherwise it compares the two values and gives 1 or 0.

The dialect (``roll20``, the default, or ``foundry``) decides what a bare ``r`` means: reroll
until the face no longer matches (Roll20) or reroll once (Foundry); ``ro`` (once) and ``rr``
(until) mean the same in both. Everything after an unbracketed ``#`` is a comment.
"""

from __future__ import annotations

from dataclasses import replace

from tactica.dice.cost import MAX_DICE, MAX_SIDES
from tactica.dice.lexer import DiceSyntaxError, Token, error_at, tokenize
from tactica.dice.nodes import (
    Chain,
    Compare,
    Const,
    DiceTerm,
    Expr,
    Func,
    Group,
    Neg,
    RandomRoll,
)
from tactica.dice.pool import (
    EXPLODE_DEPTH,
    Clamp,
    Cond,
    Count,
    Explode,
    Faces,
    Keep,
    PoolSpec,
    Reroll,
    _exploding,
    _unit,
)
from tactica.engine.errors import DiceError

__all__ = ["DEFAULT_DIALECT", "DIALECTS", "MAX_DEPTH", "MAX_FACES", "MAX_GROUP", "Parser"]

#: The dialects of dice notation: they differ in what a bare ``r`` means.
DIALECTS: tuple[str, ...] = ("roll20", "foundry")
#: The dialect used when none is named (the meaning of ``r`` before dialects existed).
DEFAULT_DIALECT = "roll20"
#: Most expressions in one ``{...}`` group.
MAX_GROUP = 100

#: Deepest nesting of parentheses, signs and function calls.
MAX_DEPTH = 60
#: Most faces listed in one ``d{...}``.
MAX_FACES = 1000
_MAX_NUMBER_DIGITS = 9
#: Dice whose faces can be listed cheaply while parsing (for the "count never varies" check).
_CHECK_FACES = 20_000

_ARITH = frozenset({"+", "-", "*", "/"})
_PER_DIE = frozenset({"r", "rr", "ro", "x", "xo", "min", "max"})
_EXPLODES = {"x": "x", "xo": "xo", "!": "x", "!!": "!!", "!p": "!p"}
_KEEPS = {"kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "k": "kh", "d": "dl"}
#: Roll20's spellings read a bare ">" as "at least" and "<" as "at most".
#: (``r`` follows the dialect: inclusive in Roll20's, strict in Foundry's.)
_ROLL20 = frozenset({"ro", "!", "!!", "!p", "f", "count"})


def normal_cond(op: str, target: int, *, roll20: bool) -> Cond:
    """A compare point with ``>`` and ``<`` made inclusive (``>4`` is ``>=5`` in Foundry's
    spellings, ``>=4`` in Roll20's)."""
    if op == ">":
        return Cond(">=", target if roll20 else target + 1)
    if op == "<":
        return Cond("<=", target if roll20 else target - 1)
    return Cond(op, target)


class Parser:
    """Recursive descent over the token list; one method per grammar rule."""

    def __init__(
        self, text: str, explode_depth: int = EXPLODE_DEPTH, dialect: str = DEFAULT_DIALECT
    ) -> None:
        if dialect not in DIALECTS:
            raise DiceError(
                f"unknown dice dialect {dialect!r}; expected one of {', '.join(DIALECTS)}"
            )
        self.dialect = dialect
        #: ``(term, flavor)`` for every ``[flavor]`` tag, in the order written.
        self.labels: list[tuple[str, str]] = []
        self.text = text
        self.tokens = tokenize(text)
        self.pos = 0
        self.depth = 0
        self.explode_depth = explode_depth

    # ------------------------------------------------------------------ helpers

    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def advance(self) -> Token:
        t = self.tokens[self.pos]
        if t.kind != "end":
            self.pos += 1
        return t

    def is_word(self, *words: str) -> bool:
        t = self.tokens[self.pos]
        return t.kind == "word" and t.text in words

    def fail(self, token: Token, hint: str = "") -> DiceSyntaxError:
        if token.kind == "flavor":
            what = f"unexpected [{token.text}]"
            hint = "a [flavor] tag goes right after a term, like 2d6[fire]"
        else:
            what = "unexpected end" if token.kind == "end" else f"unexpected {token.text!r}"
        err = error_at(what, token.col, self.text)
        if hint:
            return DiceSyntaxError(f"{err}; {hint}", token.col)
        return err

    def error(self, what: str, token: Token) -> DiceSyntaxError:
        return error_at(what, token.col, self.text)

    def expect(self, kind: str, hint: str) -> Token:
        if self.tok.kind != kind:
            raise self.fail(self.tok, hint)
        return self.advance()

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise DiceSyntaxError(
                f"expression nested too deeply at column {self.tok.col} in {self.text!r} "
                f"(at most {MAX_DEPTH} levels)",
                self.tok.col,
            )

    def number(self) -> int:
        t = self.expect("num", "expected a number")
        if len(t.text) > _MAX_NUMBER_DIGITS:
            raise DiceSyntaxError(
                f"number {t.text} at column {t.col} in {self.text!r} is too large "
                f"(at most {_MAX_NUMBER_DIGITS} digits)",
                t.col,
            )
        return int(t.text)

    def signed(self) -> int:
        if self.tok.kind in ("-", "+"):
            sign = -1 if self.advance().kind == "-" else 1
            return sign * self.number()
        return self.number()

    # ------------------------------------------------------------------ expressions

    def parse(self) -> Expr:
        if self.tok.kind == "end":
            raise DiceSyntaxError("empty dice expression; try something like '2d6+1'", 1)
        node = self.expr()
        if self.tok.kind != "end":
            hint = ""
            if self.tok.kind == "cmp":
                hint = "comparisons do not chain; use parentheses"
            elif self.is_word("f", "df"):
                hint = "failures (f, df) follow a count of dice, like 6d6>4f1 or 6d6cs>4df1"
            raise self.fail(self.tok, hint)
        return node

    def expr(self) -> Expr:
        start = self.tok
        left = self.sum()
        if self.tok.kind != "cmp":
            return left
        op_tok = self.advance()
        right_start = self.pos
        right = self.sum()
        bare = (
            isinstance(left, DiceTerm)
            and left.spec.count is None
            and start.kind in ("num", "word")
        )
        if not bare:
            return Compare(op_tok.text, left, right)
        assert isinstance(left, DiceTerm)
        literal_end = right_start + (2 if self.tokens[right_start].kind in ("-", "+") else 1)
        if self.tokens[literal_end - 1].kind != "num":
            return Compare(op_tok.text, left, right)
        if self.pos != literal_end:
            if isinstance(right, Chain) and self.tokens[literal_end].kind in _ARITH:
                raise self.ambiguous(start, op_tok, literal_end)
            return Compare(op_tok.text, left, right)
        target = right.value if isinstance(right, Const) else -_literal(right)
        return self.dice_count(left, op_tok, target)

    def ambiguous(self, start: Token, op_tok: Token, literal_end: int) -> DiceSyntaxError:
        """``6d6>4+2``: a count of dice plus 2, or the total against 6? Ask for parentheses."""
        cut = self.tokens[literal_end].col - 1
        left = self.text[start.col - 1 : op_tok.col - 1].strip()
        point = self.text[op_tok.col - 1 : cut].strip()
        rest = self.text[cut : self.tok.col - 1].strip()
        return self.error(
            f"ambiguous {point!r} after {left!r}: write ({left}{point}){rest} to count the dice "
            f"showing {point}, or ({left}){point}{rest} to compare the total",
            op_tok,
        )

    def dice_count(self, term: DiceTerm, op_tok: Token, target: int) -> DiceTerm:
        """``6d6>4`` (Roll20: count the dice showing 4 or more), optionally ``f<2``."""
        success = normal_cond(op_tok.text, target, roll20=True)
        failure = None
        if self.is_word("f"):
            self.advance()
            failure = self.cond("f", roll20=True, required=True)
        spec = replace(term.spec, count=Count(success, failure))
        counted = DiceTerm(term.count, spec)
        faces = spec.faces.distinct * ((spec.explode.limit + 1) if spec.explode else 1)
        if term.count >= 2 and faces <= _CHECK_FACES:
            unit = _unit(spec)
            if len(unit) == 1:
                raise DiceSyntaxError(
                    f"{term}{op_tok.text}{target} (column {op_tok.col} in {self.text!r}) counts "
                    f"the dice showing {success.words()}, which is always "
                    f"{unit.outcomes[0] * term.count}; to compare the total write "
                    f"({term}){op_tok.text}{target}",
                    op_tok.col,
                )
        return counted

    def sum(self) -> Expr:
        first = self.product()
        rest: list[tuple[str, Expr]] = []
        while self.tok.kind in ("+", "-"):
            op = self.advance().kind
            rest.append((op, self.product()))
        return Chain(first, tuple(rest)) if rest else first

    def product(self) -> Expr:
        first = self.unary()
        rest: list[tuple[str, Expr]] = []
        while self.tok.kind in ("*", "/"):
            op = self.advance().kind
            operand = self.unary()
            if op == "/" and self.is_word("u"):
                self.advance()
                op = "/u"
            rest.append((op, operand))
        return Chain(first, tuple(rest)) if rest else first

    def unary(self) -> Expr:
        if self.tok.kind in ("-", "+"):
            sign = self.advance().kind
            self.enter()
            operand = self.unary()
            self.depth -= 1
            return Neg(operand) if sign == "-" else operand
        return self.atom()

    def atom(self) -> Expr:
        start = self.tok
        node = self.bare_atom()
        while self.tok.kind == "flavor":
            tag = self.advance()
            term = self.text[start.col - 1 : tag.col - 1].strip()
            if tag.text:
                self.labels.append((term, tag.text))
        counted = self.tok.kind == "cmp" or self.is_word("cs", "cf")
        if start.kind == "{" and counted:
            raise self.fail(
                self.tok,
                f"counting the results of a group is not supported; to compare the total "
                f"write ({self.text[start.col - 1 : self.tok.col - 1].strip()})"
                f"{self.tok.text}...",
            )
        return node

    def group(self) -> Expr:
        """``{a, b, ...}`` with an optional keep or drop among the totals."""
        self.advance()
        self.enter()
        args = [self.expr()]
        while self.tok.kind == ",":
            self.advance()
            args.append(self.expr())
            if len(args) > MAX_GROUP:
                raise self.error(f"too many expressions in one group (at most {MAX_GROUP})",
                                 self.tok)
        self.depth -= 1
        self.expect("}", "expected ',' or '}' to end the group")
        keep = None
        if self.is_word(*_KEEPS):
            t = self.advance()
            n = self.number() if self.tok.kind == "num" else 1
            kind = _KEEPS[t.text]
            if len(args) == 1:
                err = self.error("a keep or drop on a group of one expression", t)
                raise DiceSyntaxError(
                    f"{err}: Roll20 keeps among its dice, Foundry its total; write the keep on "
                    "the dice, like 4d6kh3, or list several expressions, like {4d6, 3d8}kh",
                    t.col)
            if n > len(args):
                verb = "keep" if kind[0] == "k" else "drop"
                raise self.error(f"cannot {verb} {n} of {len(args)} results", t)
            keep = (kind, n)
        return Group(tuple(args), keep)

    def bare_atom(self) -> Expr:
        t = self.tok
        if t.kind == "{":
            return self.group()
        if t.kind == "(":
            self.advance()
            self.enter()
            inner = self.expr()
            self.depth -= 1
            self.expect(")", "expected ')'")
            if self.is_word("d", "df"):
                faces = self.faces()
                if self.tok.kind in ("!", "!!", "!p") or self.is_word(*_PER_DIE, *_KEEPS, "cs",
                                                                        "cf"):
                    raise self.fail(
                        self.tok, "modifiers need a fixed number of dice, like 3d6x"
                    )
                return RandomRoll(inner, faces)
            return inner
        if self.is_word("max", "min"):
            return self.function()
        if t.kind == "num":
            count = self.number()
            if not self.is_word("d", "df"):
                return Const(count)
        elif self.is_word("d", "df"):
            count = 1
        else:
            raise self.fail(t, "expected a number, a die like 2d6, or '('")
        if count > MAX_DICE:
            raise self.error(f"too many dice: {count} (at most {MAX_DICE} in one roll)", t)
        return self.dice(count)

    def function(self) -> Expr:
        name = self.advance().text
        self.expect("(", f"{name} needs its arguments in parentheses, like {name}(d20, d20)")
        self.enter()
        args = [self.expr()]
        while self.tok.kind == ",":
            self.advance()
            args.append(self.expr())
        self.depth -= 1
        self.expect(")", "expected ',' or ')'")
        return Func(name, tuple(args))

    # ------------------------------------------------------------------ dice terms

    def faces(self) -> Faces:
        d_tok = self.advance()  # "d", or "df" for dF
        if d_tok.text == "df":
            return Faces.fate()
        t = self.tok
        if t.kind == "%":
            self.advance()
            return Faces.percent()
        if self.is_word("f"):
            self.advance()
            return Faces.fate()
        if t.kind == "{":
            return self.face_list()
        if t.kind != "num":
            raise self.fail(t, "a die needs sides, like d6, d%, dF or d{1,2,3}")
        sides = self.number()
        if not 1 <= sides <= MAX_SIDES:
            raise self.error(f"a die needs 1 to {MAX_SIDES} sides, got {sides}", t)
        return Faces.plain(sides)

    def face_list(self) -> Faces:
        self.advance()
        values = [self.signed()]
        while self.tok.kind == ",":
            self.advance()
            values.append(self.signed())
            if len(values) > MAX_FACES:
                raise self.error(f"too many faces (at most {MAX_FACES})", self.tok)
        self.expect("}", "expected ',' or '}' in a list of faces like d{0,0,1,1,2}")
        return Faces.listed(tuple(values))

    def cond(self, word: str, *, roll20: bool, required: bool) -> Cond | None:
        """A compare point after a modifier: ``>=5``, ``<2``, ``=3`` or a bare number."""
        t = self.tok
        if t.kind == "cmp":
            self.advance()
            return normal_cond(t.text, self.signed(), roll20=roll20)
        if t.kind == "num":
            return Cond("==", self.number())
        if required:
            raise self.fail(t, f"{word} needs a target, like {word}>=5 or {word}1")
        return None

    def dice(self, count: int) -> DiceTerm:
        faces = self.faces()
        spec = PoolSpec(faces)
        stage = 0  # 0: per-die modifiers, 1: after a keep or drop, 2: after a count
        first_mod: Token | None = None
        while True:
            t = self.tok
            word = t.text if t.kind == "word" else t.kind
            if word in _PER_DIE or word in _EXPLODES:
                if stage:
                    raise self.error(
                        f"{t.text!r} changes each die, so it goes before keeping, dropping "
                        "and counting", t)
                self.advance()
                first_mod = first_mod or t
                spec = self.per_die(spec, word, t)
            elif word in _KEEPS:
                if stage:
                    raise self.error("keep or drop once per dice term, before counting", t)
                self.advance()
                n = self.number() if self.tok.kind == "num" else 1
                kind = _KEEPS[word]
                if n > count:
                    verb = "keep" if kind[0] == "k" else "drop"
                    raise self.error(f"cannot {verb} {n} of {count} dice", t)
                spec = replace(spec, keep=Keep(kind, n))
                stage = 1
            elif word in ("cs", "cf"):
                if stage == 2:
                    raise self.error("count once per dice term", t)
                self.advance()
                success = self.cond(word, roll20=False, required=True)
                assert success is not None
                failure = None
                if self.is_word("df", "f"):
                    f_tok = self.advance()
                    failure = self.cond(f_tok.text, roll20=f_tok.text == "f", required=True)
                spec = replace(spec, count=Count(success, failure))
                stage = 2
            else:
                if first_mod is not None and faces.distinct <= _CHECK_FACES:
                    self.check_die(spec, first_mod)
                return DiceTerm(count, spec)

    def check_die(self, spec: PoolSpec, first_mod: Token) -> None:
        """A die that never stops rerolling or exploding is an error at its modifiers."""
        try:
            _exploding(spec)
        except DiceError as exc:
            raise DiceSyntaxError(
                f"{exc} (column {first_mod.col} in {self.text!r})", first_mod.col
            ) from None

    def per_die(self, spec: PoolSpec, word: str, t: Token) -> PoolSpec:
        if word in ("min", "max"):
            limit = self.signed()
            return replace(spec, clamps=(*spec.clamps, Clamp(word, limit)))
        if word in ("r", "rr", "ro"):
            foundry = self.dialect == "foundry"
            once = word == "ro" or (word == "r" and foundry)
            roll20 = word == "ro" or (word == "r" and not foundry)
            cond = self.cond(word, roll20=roll20, required=False)
            if cond is None:
                cond = Cond("==", spec.faces.lo)
            old = spec.reroll
            if old is not None and old.once != once:
                raise self.error("reroll once (ro) or until it stops (rr), not both", t)
            conds = (*old.conds, cond) if old is not None else (cond,)
            return replace(spec, reroll=Reroll(conds, once))
        if spec.explode is not None:
            raise self.error("one explosion per dice term", t)
        cond = self.cond(word, roll20=word in _ROLL20, required=False)
        depth = self.explode_depth
        return replace(spec, explode=Explode(_EXPLODES[word], cond, depth))


def _literal(node: Expr) -> int:
    """The value of ``-N`` (a negated number literal)."""
    if isinstance(node, Neg) and isinstance(node.operand, Const):
        return node.operand.value
    raise DiceSyntaxError(f"expected a whole number, got {node}")
