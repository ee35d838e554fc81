"""The fight in words, for every front end: actions grouped, typed text matched, odds, status.

Nothing here knows a game. Actions are grouped by the unit their description starts with and
the verb that follows (``A moves to 3,1`` is unit ``A``, verb ``moves``), so that twenty moves
read as one line; a typed text takes the action it alone matches.

>>> groups = group_actions(["A stays at 0,0", "A moves to 1,0", "A moves to 2,0",
...                         "A attacks B with rifle"], ["A", "B"])
>>> [(g.unit, g.verb, g.numbers) for g in groups]
[('A', 'stays', (1,)), ('A', 'moves', (2, 3)), ('A', 'attacks', (4,))]
>>> groups[1].head, groups[1].tails
('A moves to', ('1,0', '2,0'))
>>> match_actions("a 2,0", ["A moves to 1,0", "A moves to 2,0", "B moves to 2,0"])
[1]
>>> winner_line("goblins", "the heroes fled")
'Winner: goblins (the heroes fled)'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tactica.engine.odds import OddsReport
from tactica.engine.ruleset import UnitStatus

__all__ = [
    "ActionGroup",
    "friendly",
    "group_actions",
    "match_actions",
    "norm",
    "number_name",
    "odds_lines",
    "shown_value",
    "status_lines",
    "where_lines",
    "winner_line",
]

#: Outcome lists longer than this are summarised.
_OUTCOMES_SHOWN = 10


def norm(text: str) -> str:
    """Lower case, single spaces."""
    return " ".join(text.lower().split())


@dataclass(frozen=True)
class ActionGroup:
    """Actions of one unit and one kind: ``numbers`` (1-based) and their descriptions, with
    the words they share (``head``) and what tells them apart (``tails``)."""

    unit: str
    verb: str
    numbers: tuple[int, ...]
    texts: tuple[str, ...]

    @property
    def head(self) -> str:
        """The words every description of the group starts with."""
        split = [t.split() for t in self.texts]
        common: list[str] = []
        for words in zip(*split, strict=False):
            if any(w != words[0] for w in words):
                break
            common.append(words[0])
        if len(self.texts) > 1 and all(len(s) == len(common) for s in split):
            common = common[:-1]
        for k, word in enumerate(common):  # never cut inside brackets
            if "(" in word:
                common = common[:k]
                break
        return " ".join(common)

    @property
    def tails(self) -> tuple[str, ...]:
        """Each description without the shared words."""
        n = len(self.head.split())
        return tuple(" ".join(t.split()[n:]) for t in self.texts)

    def to_json(self) -> dict[str, Any]:
        """For the web page."""
        return {"unit": self.unit, "verb": self.verb, "numbers": list(self.numbers),
                "texts": list(self.texts), "head": self.head, "tails": list(self.tails)}


def _unit_of(text: str, units: Sequence[str]) -> str:
    best = ""
    for u in units:
        if len(u) > len(best) and (text == u or text.startswith(u + " ")):
            best = u
    return best


def group_actions(texts: Sequence[str], units: Iterable[str]) -> list[ActionGroup]:
    """Group action descriptions by unit and verb, in order of first appearance."""
    ids = sorted(set(units), key=len, reverse=True)
    order: dict[tuple[str, str], list[int]] = {}
    for i, text in enumerate(texts):
        unit = _unit_of(text, ids)
        rest = text[len(unit):].split()
        verb = rest[0] if rest else ""
        order.setdefault((unit, verb), []).append(i)
    return [ActionGroup(unit, verb, tuple(i + 1 for i in idx), tuple(texts[i] for i in idx))
            for (unit, verb), idx in order.items()]


def _target(action: Any) -> str | None:
    target = getattr(action, "target", None)
    if target is None:
        many = getattr(action, "targets", None)
        target = many[0] if isinstance(many, tuple) and len(many) == 1 else None
    return target if isinstance(target, str) else None


def friendly(actions: Sequence[Any], texts: Sequence[str],
             sides: Mapping[str, str]) -> list[bool]:
    """For each action, whether it aims at a friend (a unit of its own unit's side, not
    itself) the way one aims at an enemy: a friend in the line of fire, not a friend healed.
    An action on a friend counts unless the same action (its description with the target's
    name left out) is open on the unit itself and on no enemy (a potion, first aid). The
    target is read from the action's ``target`` (or its one ``targets``), its unit from
    ``unit``.

    >>> from types import SimpleNamespace as A
    >>> sides = {"E": "red", "D": "red", "1": "blue"}
    >>> friendly([A(unit="E", target="D"), A(unit="E", target="1"), A(unit="E", target="D"),
    ...           A(unit="E", target="E")],
    ...          ["E shoots D", "E shoots 1", "E heals D", "E heals itself"], sides)
    [True, False, False, False]
    """
    kinds: list[tuple[str, str] | None] = []  # (the action without its target, whom)
    for action, text in zip(actions, texts, strict=True):
        unit, target = getattr(action, "unit", None), _target(action)
        if not (isinstance(unit, str) and unit in sides and target is not None
                and target in sides):
            kinds.append(None)
            continue
        head, rest = (unit, text[len(unit):]) if text.startswith(unit) else ("", text)
        names = ("itself", target) if target == unit else (target,)
        for name in names:
            rest = re.sub(rf"(?<!\S){re.escape(name)}(?!\S)", "*", rest)
        whom = ("self" if target == unit else
                "friend" if sides[target] == sides[unit] else "enemy")
        kinds.append((head + rest, whom))
    on_enemies = {k[0] for k in kinds if k is not None and k[1] == "enemy"}
    on_self = {k[0] for k in kinds if k is not None and k[1] == "self"}
    return [k is not None and k[1] == "friend" and (k[0] in on_enemies or k[0] not in on_self)
            for k in kinds]


_MARKS = ",;:()[]'\""


def match_actions(text: str, texts: Sequence[str]) -> list[int]:
    """The indices (0-based) of the descriptions ``text`` matches: the one it equals; else
    those that contain it; else those holding every typed word (a word of three letters or
    more may be the start of a longer one)."""
    wanted = norm(text)
    if not wanted:
        return []
    normed = [norm(t) for t in texts]
    exact = [i for i, t in enumerate(normed) if t == wanted]
    if exact:
        return exact[:1]
    hits = [i for i, t in enumerate(normed) if wanted in t]
    if hits:
        return hits
    words = wanted.split()

    def has(tokens: list[str], w: str) -> bool:
        w = w.strip(_MARKS) or w
        return any(tok == w or (len(w) >= 3 and tok.startswith(w)) for tok in tokens)

    # a word is read without the commas and brackets around it ("(walk," is "walk")
    return [i for i, t in enumerate(normed)
            if all(has([tok.strip(_MARKS) or tok for tok in t.split()], w) for w in words)]


def number_name(name: str) -> str:
    """``p_hit`` -> ``P(hit)``, ``expected_damage`` -> ``expected damage``."""
    words = name.replace("_", " ")
    return f"P({words[2:]})" if name.startswith("p_") else words


def _percent(p: Fraction | float) -> str:
    return f"{float(p):.2%}"


def _numbers_line(numbers: Mapping[str, Fraction],
                  why: Mapping[str, str] | None = None) -> list[str]:
    out = []
    for name, value in numbers.items():
        shown = _percent(value) if name.startswith("p_") else f"{float(value):.3f}"
        out.append(f"{number_name(name)}: {shown}")
        if why and why.get(name):
            out.append(f"  why: {why[name]}")
    return out


def _summarised_outcomes(outcomes: Sequence[Mapping[str, Any]]) -> list[str]:
    """Many outcomes (each roll of a d100 its own line) read as a few: outcomes that differ
    only in their numbers are counted together, numbers shown as N."""
    merged: dict[str, float] = {}
    for o in outcomes:
        key = re.sub(r"\d+", "N", str(o.get("events", "")))
        merged[key] = merged.get(key, 0.0) + float(o.get("p", 0.0))
    ranked = sorted(merged.items(), key=lambda kv: (-kv[1], kv[0]))
    lines = [f"{p:7.2%}  {words}" for words, p in ranked[:_OUTCOMES_SHOWN]]
    if len(ranked) > _OUTCOMES_SHOWN:
        rest = sum(p for _, p in ranked[_OUTCOMES_SHOWN:])
        lines.append(f"{rest:7.2%}  ({len(ranked) - _OUTCOMES_SHOWN} other kinds of outcome)")
    return lines


def odds_lines(report: OddsReport, desc: str) -> list[str]:
    """An odds report for people: the action, why (sight, cover, what each die needs), the
    outcomes (summarised when there are many) and the headline numbers."""
    lines = [desc]
    outcomes = report.extra.get("outcomes") if isinstance(report.extra, Mapping) else None
    if isinstance(outcomes, list) and len(outcomes) > _OUTCOMES_SHOWN:
        lines.extend(f"  {r}" for r in _summarised_outcomes(outcomes))
    else:
        lines.extend(f"  {r}" for r in report.reasons)
    for name, dist in report.distributions.items():
        items = list(dist.items())
        if not items or len(items) == 1 or name not in ("damage", "attacker_damage"):
            continue
        if len(items) <= 8:
            shown = ", ".join(f"{v}: {_percent(p)}" for v, p in items)
        else:
            shown = f"{items[0][0]} to {items[-1][0]}, {float(dist.mean()):.2f} on average"
        lines.append(f"  {name.replace('_', ' ')}: {shown}")
    lines.extend(f"  {line}" for line in _numbers_line(report.numbers, report.why))
    # In the table's words: the rulings the reasons rest on are one `rulings` away.
    return [without_rule_ids(line) for line in lines]


def shown_value(value: Any) -> str:
    """A detail for people: yes/no for truth values (numpy's too), the value otherwise."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return "yes" if value else "no"
    return str(value)


def status_lines(units: Sequence[UnitStatus], round_number: int | None = None) -> list[str]:
    """Every unit, by side: where it stands, whether it is in action, its figures."""
    lines = [] if round_number is None else [f"round {round_number}"]
    sides = list(dict.fromkeys(u.side for u in units))
    for side in sides:
        lines.append(f"{side}:")
        for u in (u for u in units if u.side == side):
            standing = "in action" if u.in_action else "out of action"
            where = f" at {u.place}" if u.place else ""
            extra = ", ".join(f"{k.replace('_', ' ')} {shown_value(v)}"
                              for k, v in u.details.items())
            lines.append(f"  {u.id}{where}: {standing}" + (f"; {extra}" if extra else ""))
    return lines


def where_lines(units: Sequence[UnitStatus]) -> list[str]:
    """Who stands where, one line per side (units out of action marked)."""
    lines = []
    for side in dict.fromkeys(u.side for u in units):
        parts = []
        for u in (u for u in units if u.side == side):
            place = f" at {u.place}" if u.place else ""
            parts.append(f"{u.id}{place}" + ("" if u.in_action else " (out)"))
        lines.append(f"{side}: {', '.join(parts)}")
    return lines


def winner_line(winner: str | None, reason: str) -> str:
    """``Winner: goblins (reason)`` or ``A draw (reason)``: a side's name may be a plural
    noun or a team's name, so the sentence does not conjugate it."""
    if winner is None:
        return f"A draw ({reason})"
    return f"Winner: {winner} ({reason})"


#: A rule id in brackets, as odds reports cite their rulings (``(ABC-5)``, ``(ABC-1, ABC-24)``),
#: or leading a bracket that says more (``(ABC-13 'escalate')``).
_RULE_IDS = re.compile(r"\s*\((?:[A-Z]{2,5}-\d+)(?:,\s*[A-Z]{2,5}-\d+)*\)")
_LEADING_ID = re.compile(r"\((?:[A-Z]{2,5}-\d+)\s+")


def without_rule_ids(text: str) -> str:
    """``text`` without the bracketed rule ids an odds report cites (the table's words; the
    rulings are one ``rulings`` away)."""
    return _LEADING_ID.sub("(", _RULE_IDS.sub("", text))
