"""Squad matchups: N troopers of one kind against M of another, played as whole battles.

``tactica versus GAME --red 4xsmg --blue 4xrifle --range 10`` asks the game for a fight
between the two squads built through its own geometry (its ``Matchups.squads``: where each trooper
stands, how far apart the squads are), plays it with seeded dice both ways round (the red
squad moving first, then the blue squad moving first, from the other end of the field; in a
game whose own initiative roll orders the turns the second run lists blue first and sets it at
the other end, and the table says "listed first"), and
reports each squad's win rate with its 95% Wilson interval, each way round and over both. The
run with red moving first is seeded with ``2 * seed``, the other with ``2 * seed + 1``: two
independent sets of battles (the same dice both ways would mirror a fight of equal squads).

The verdict comes from the battles themselves: each battle scores +1 when red wins, -1 when
blue wins and 0 for a draw; the mean of those scores is the difference of the two win rates,
and its 95% interval (normal, from the scores' own spread, with one win added to each squad as
Agresti and Caffo do for two proportions) says whether the difference is clear.

A squad is written ``4xsmg`` (four of a profile), ``2xsmg+2xrifle`` (a mix) or just ``rifle``
(one); the profiles are the game's matchup profiles (``tactica matrix`` lists them). The games
that set up squads say so by giving their ``Matchups`` part ``squads``; ``tactica versus``
refuses the others with a clear error.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tactica.analysis.simulate import SimulationReport, simulate, wilson
from tactica.engine.errors import TacticaError
from tactica.engine.game import Matchups
from tactica.engine.limits import MAX_VERSUS_RANGES
from tactica.engine.ruleset import Capability, Ruleset, get_ruleset, matchup_hooks
from tactica.engine.rulings import Rulings
from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.presentation.tables import Column, NumberFormat, Table

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SIDES", "Squad", "VersusPoint", "VersusReport", "parse_squad",
           "squad_games", "squad_scenario", "versus"]

#: The two sides of a squad matchup, in the order the command names them.
SIDES = ("red", "blue")
#: Most troopers in a squad written ``NxPROFILE``.
MAX_COUNT = 50

_COUNTED = re.compile(r"^\s*(\d+)\s*[x×*]\s*(\S.*?)\s*$")


@dataclass(frozen=True)
class Squad:
    """A squad as written (``4xsmg``) and its troopers' profiles, one per trooper."""

    label: str
    members: tuple[str, ...]


def parse_squad(text: str, *, what: str) -> Squad:
    """``4xsmg``, ``2xsmg+2xrifle``, ``smg,rifle`` or ``rifle`` as a :class:`Squad`.

    >>> parse_squad("2xsmg+rifle", what="--red").members
    ('smg', 'smg', 'rifle')
    """
    members: list[str] = []
    parts = [p.strip() for p in re.split(r"[+,]", text)]
    if not text.strip() or any(not p for p in parts):
        raise TacticaError(f"{what}: expected a squad such as 4xsmg or 2xsmg+2xrifle, "
                           f"got {text!r}")
    for part in parts:
        m = _COUNTED.match(part)
        count, name = (int(m.group(1)), m.group(2)) if m else (1, part)
        if not 1 <= count <= MAX_COUNT:
            raise TacticaError(f"{what}: expected 1 to {MAX_COUNT} troopers of a kind, "
                               f"got {part!r}")
        members += [name] * count
    return Squad(text.strip().replace(" ", ""), tuple(members))


def squad_games() -> list[str]:
    """The names of the registered games that set up squad matchups."""
    from tactica.engine.ruleset import rulesets

    return [r.meta.name for r in rulesets() if _squads(r) is not None]


def _squads(ruleset: Ruleset) -> Matchups | None:
    """The game's matchups part when it sets up squads (its ``squads``); ``None`` when it
    has none."""
    if not ruleset.meta.has(Capability.MATCHUP):
        return None
    hooks = matchup_hooks(ruleset)
    return hooks if hooks.squads is not None else None


def _hooks(ruleset: Ruleset) -> Matchups:
    found = _squads(ruleset)
    if found is None:
        have = ", ".join(squad_games()) or "none"
        raise TacticaError(f"GAME: {ruleset.meta.title} has no squad matchups yet "
                           f"(games that have: {have})")
    return found


def squad_scenario(ruleset: Ruleset, squads: Mapping[str, Squad], *, range: int | None,
                   rulings: Mapping[str, str] | None = None, content: Sequence[Path] = ()
                   ) -> tuple[Scenario, int | None, tuple[str, ...]]:
    """The scenario of ``squads`` (the first moving first) as the game sets it up, validated
    like a scenario file; with the range that took effect and the game's notes."""
    hooks = _hooks(ruleset)
    in_force = Rulings(ruleset.meta.rulings, dict(rulings or {}), where="--rulings")
    data, took, notes = hooks.squad_matchup(
        {side: squad.members for side, squad in squads.items()}, range=range,
        rulings=in_force, content=content)
    names = " against ".join(f"{side} {squad.label}" for side, squad in squads.items())
    scenario = scenario_from_mapping(data, source=f"versus: {names}", base_dir=Path.cwd())
    return scenario, took, notes


def _check_squad(ruleset: Ruleset, squad: Squad, what: str, content: Sequence[Path]) -> None:
    """A squad's profiles are the game's (the game's own error, naming the option)."""
    hooks = _hooks(ruleset)
    in_force = Rulings(ruleset.meta.rulings, {}, where="--rulings")
    try:
        hooks.squad_matchup({"red": squad.members, "blue": squad.members}, range=None,
                            rulings=in_force, content=content)
    except TacticaError as exc:
        raise TacticaError(f"{what}: {exc}") from None


def _rate(wins: int, n: int) -> tuple[float, tuple[float, float]]:
    return (wins / n if n else 0.0), wilson(wins, n)


@dataclass(frozen=True)
class VersusPoint:
    """The battles at one range: one run with each squad moving first."""

    range: int | None
    runs: tuple[SimulationReport, ...]
    firsts: tuple[str, ...]
    notes: tuple[str, ...] = ()
    #: The earlier range whose battles ended exactly as these did (``None``: none), and why.
    same_as: int | None = None
    same_why: str = ""

    @property
    def battles(self) -> int:
        """Battles over every run."""
        return sum(r.battles for r in self.runs)

    def wins(self, side: str) -> int:
        """The side's wins over every run."""
        return sum(r.wins[side] for r in self.runs)

    @property
    def draws(self) -> int:
        """Draws (and unfinished battles) over every run."""
        return self.battles - sum(self.wins(s) for s in SIDES)

    def rate(self, side: str) -> tuple[float, tuple[float, float]]:
        """The side's win rate over every run, with its 95% Wilson interval."""
        return _rate(self.wins(side), self.battles)

    def difference(self) -> tuple[float, tuple[float, float]]:
        """Red's win rate minus blue's, with its 95% interval: the mean and spread of the
        battles' scores (+1 red wins, -1 blue wins, 0 otherwise)."""
        return _score_interval(self.wins("red"), self.wins("blue"), self.battles)

    def run_difference(self, k: int) -> tuple[float, tuple[float, float]]:
        """Red's win rate minus blue's in run ``k`` alone (one squad moving first), with its
        95% interval (as :meth:`difference`)."""
        r = self.runs[k]
        return _score_interval(r.wins["red"], r.wins["blue"], r.battles)

    def first_mover(self) -> tuple[float, tuple[float, float], bool]:
        """How much moving first changes the fight: red's score (red minus blue) with red
        moving first minus the same with blue moving first, its 95% interval (the runs are
        independent), and whether who moves first *decides* the fight: the runs disagree
        beyond their intervals, and either their verdicts differ or the gap is 20 points or
        more."""
        if len(self.runs) < 2:
            return 0.0, (math.nan, math.nan), False
        (a, (alo, ahi)), (b, (blo, bhi)) = self.run_difference(0), self.run_difference(1)
        (ca, sa), (cb, sb) = (_score_spread(r.wins["red"], r.wins["blue"], r.battles)
                              for r in self.runs[:2])
        gap = a - b
        half = 1.959964 * math.hypot(sa, sb)
        lo, hi = ca - cb - half, ca - cb + half
        clear = lo > 0 or hi < 0
        verdicts = {_sign(a, alo, ahi), _sign(b, blo, bhi)}
        return gap, (lo, hi), clear and (len(verdicts) > 1 or abs(gap) >= 0.2)

    def split(self, squads: Mapping[str, Squad]) -> str:
        """Each run in a few words: ``red (4xsmg) moving first, red 95.2%, blue 3.1%``."""
        parts = []
        for first, r in zip(self.firsts, self.runs, strict=True):
            rates = ", ".join(f"{s} {r.wins[s] / r.battles * 100:.1f}%" if r.battles else
                              f"{s} -" for s in SIDES)
            parts.append(f"{first} ({squads[first].label}) moving first, {rates}")
        return "; ".join(parts)

    def verdict(self, squads: Mapping[str, Squad]) -> str:
        """Which squad wins more, in words, or that the battles cannot tell; led by "who
        moves first decides this fight" where the two runs disagree beyond their intervals."""
        pooled = self._pooled_verdict(squads)
        if len(self.runs) < 2:
            return pooled
        decides = self.first_mover()[2]
        where = "" if self.range is None else f" at range {self.range}"
        if decides:
            return (f"who moves first decides this fight{where}: {self.split(squads)}; "
                    f"over both runs, {pooled}")
        return pooled

    def _pooled_verdict(self, squads: Mapping[str, Squad]) -> str:
        mean, (lo, hi) = self.difference()
        where = "" if self.range is None else f" at range {self.range}"
        if lo > 0 or hi < 0:
            better = "red" if mean > 0 else "blue"
            near, far = (lo, hi) if mean > 0 else (-hi, -lo)
            return (f"{better} ({squads[better].label}) wins more often{where}: by "
                    f"{abs(mean) * 100:.1f} points (95% interval {near * 100:.1f} to "
                    f"{far * 100:.1f})")
        return (f"no clear difference{where} after {self.battles:,} battles (red minus blue: "
                f"{mean * 100:+.1f} points, 95% interval {lo * 100:+.1f} to {hi * 100:+.1f}: "
                f"a difference of more than {max(hi - mean, mean - lo) * 100:.1f} points "
                "would have shown)")

    def record(self) -> dict[str, Any]:
        """JSON-ready: each run's and the pooled figures, and the difference."""
        mean, (lo, hi) = self.difference()
        runs = []
        for first, r in zip(self.firsts, self.runs, strict=True):
            runs.append({"first": first, "battles": r.battles, "draws": r.draws,
                         "wins": {s: r.wins[s] for s in SIDES},
                         "win_rate": {s: _rate_record(r.wins[s], r.battles) for s in SIDES},
                         "red_minus_blue": _difference_record(*_score_interval(
                             r.wins["red"], r.wins["blue"], r.battles)),
                         "rounds_mean": round(r.tally.rounds_sum / r.battles, 6)
                         if r.battles else None,
                         "engine": r.engine})
        gap, (glo, ghi), decides = self.first_mover()
        return {"range": self.range, "battles": self.battles, "draws": self.draws,
                "wins": {s: self.wins(s) for s in SIDES},
                "win_rate": {s: _rate_record(self.wins(s), self.battles) for s in SIDES},
                "red_minus_blue": _difference_record(mean, (lo, hi)),
                "first_mover": {"decides": decides,
                                "red_first_minus_blue_first": round(gap, 6),
                                "ci95": [_round(glo), _round(ghi)]},
                "same_as": self.same_as, "same_why": self.same_why,
                "runs": runs}


def _round(x: float) -> float | None:
    return round(x, 6) if math.isfinite(x) else None


def _difference_record(mean: float, bounds: tuple[float, float]) -> dict[str, Any]:
    lo, hi = bounds
    return {"difference": round(mean, 6), "ci95": [_round(lo), _round(hi)],
            "clear": lo > 0 or hi < 0}


def _sign(mean: float, lo: float, hi: float) -> int:
    return 1 if lo > 0 else -1 if hi < 0 else 0


def _score_interval(red: int, blue: int, n: int) -> tuple[float, tuple[float, float]]:
    """Red's win rate minus blue's over ``n`` battles and its 95% interval: the mean and
    spread of the battles' scores (+1 red wins, -1 blue wins, 0 otherwise), one win added to
    each side first (as Agresti and Caffo do for two proportions), so that a handful of
    one-sided battles never looks certain."""
    if n == 0:
        return 0.0, (math.nan, math.nan)
    mean = (red - blue) / n
    centre, se = _score_spread(red, blue, n)
    half = 1.959964 * se
    return mean, (max(-1.0, centre - half), min(1.0, centre + half))


def _score_spread(red: int, blue: int, n: int) -> tuple[float, float]:
    """The centre and standard error of the mean score, one win added to each side."""
    r, b, m = red + 1, blue + 1, n + 2
    centre = (r - b) / m
    var = ((r + b) / m - centre * centre) * m / (m - 1)
    return centre, math.sqrt(max(var, 0.0) / m)


def _rate_flat(wins: int, n: int) -> tuple[float, float, float]:
    p, (lo, hi) = _rate(wins, n)
    return p, lo, hi


def _rate_record(wins: int, n: int) -> dict[str, Any]:
    p, (lo, hi) = _rate(wins, n)
    return {"p": round(p, 6), "ci95": [round(lo, 6), round(hi, 6)]}


@dataclass(frozen=True)
class VersusReport:
    """A squad matchup at one or more ranges (see the module)."""

    game: str
    squads: Mapping[str, Squad]
    points: tuple[VersusPoint, ...]
    seed: int
    battles: int
    rulings: Mapping[str, str]
    policies: Mapping[str, str]
    notes: tuple[str, ...] = ()
    fmt: NumberFormat = field(default_factory=NumberFormat)
    #: Whether the game lets a squad move first (``False``: its own roll orders the turns,
    #: and the second run only lists the other squad first and sets it at the other end).
    sets_first: bool = True

    def name(self, side: str) -> str:
        """``red (4xsmg)``."""
        return f"{side} ({self.squads[side].label})"

    def table(self) -> Table:
        """A row per range and who moved first, then both runs together: each squad's win
        rate with its 95% interval, and the draws (narrow enough for 80 columns; the CSV's
        numbers are in :meth:`csv_table`)."""
        fmt = self.fmt
        order = "first" if self.sets_first else "listed first"
        cols = [Column("range", "int"), Column(order), Column("battles", "int"),
                Column("red wins (95%)", right=True), Column("blue wins (95%)", right=True),
                Column("draws", "p")]
        rows: list[list[Any]] = []
        for pt, first, _r, n, wins, draws in self._rows():
            cells = [fmt.p_interval(*_rate_flat(wins[s], n)) for s in SIDES]
            rows.append([pt.range, first, n, *cells, draws / n if n else None])
        return Table(self._title(), cols, rows, self._notes())

    def csv_table(self) -> Table:
        """The same rows as :meth:`table` with every rate and bound in a column of its own
        (what ``--csv`` writes)."""
        order = "moves first" if self.sets_first else "listed first"
        cols = [Column("range", "int"), Column(order), Column("battles", "int")]
        for side in SIDES:
            cols += [Column(f"{self.name(side)} wins", "p"), Column(f"{side} 95% low", "p"),
                     Column(f"{side} 95% high", "p")]
        cols.append(Column("draws", "p"))
        rows: list[list[Any]] = []
        for pt, first, _r, n, wins, draws in self._rows():
            row: list[Any] = [pt.range, first, n]
            for side in SIDES:
                row += list(_rate_flat(wins[side], n))
            row.append(draws / n if n else None)
            rows.append(row)
        return Table(self._title(), cols, rows, self._notes())

    def _rows(self) -> list[tuple[VersusPoint, str, SimulationReport | None, int,
                                  dict[str, int], int]]:
        out: list[tuple[VersusPoint, str, SimulationReport | None, int, dict[str, int],
                        int]] = []
        for pt in self.points:
            for first, r in zip(pt.firsts, pt.runs, strict=True):
                out.append((pt, first, r, r.battles,
                            {s: r.wins[s] for s in SIDES}, r.draws))
            if len(pt.runs) > 1:
                out.append((pt, "both", None, pt.battles,
                            {s: pt.wins(s) for s in SIDES}, pt.draws))
        return out

    def _title(self) -> str:
        title = (f"{self.game}: {self.name('red')} against {self.name('blue')}, seed "
                 f"{self.seed}")
        decided = [pt for pt in self.points if pt.first_mover()[2]]
        if decided:
            where = ("" if decided[0].range is None else " at range" +
                     ("s " if len(decided) > 1 else " ") + ", ".join(str(pt.range)
                                                                  for pt in decided))
            title += f"; who moves first decides this fight{where}"
        return title

    def _notes(self) -> list[str]:
        notes = [pt.verdict(self.squads) for pt in self.points]
        notes += [pt.same_why for pt in self.points if pt.same_why]
        return notes + list(self.notes)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``tactica versus --json``."""
        return {"game": self.game,
                "squads": {s: {"label": q.label, "troopers": list(q.members)}
                           for s, q in self.squads.items()},
                "battles_per_run": self.battles, "seed": self.seed,
                "first_moves_first": self.sets_first,
                "policies": dict(self.policies), "rulings": dict(self.rulings),
                "notes": list(self.notes),
                "first_mover_decides": [pt.range for pt in self.points
                                        if pt.first_mover()[2]],
                "points": [pt.record() for pt in self.points],
                "verdicts": [pt.verdict(self.squads) for pt in self.points]}

    def plot_points(self) -> list[dict[str, Any]]:
        """One record per range, squad and run (``first``: who moved first, or ``both
        runs``): ``range``, ``squad``, ``side``, ``first``, ``p``, ``low``, ``high`` (what
        :func:`tactica.analysis.plots.versus_plot` draws)."""
        out = []
        for pt, first, _r, n, wins, _draws in self._rows():
            for side in SIDES:
                p, lo, hi = _rate_flat(wins[side], n)
                out.append({"range": pt.range, "squad": self.name(side), "side": side,
                            "first": first, "p": p, "low": lo, "high": hi})
        return out

    def to_pandas(self) -> pd.DataFrame:
        """The table as a DataFrame (win rates as floats); needs pandas."""
        return self.table().to_pandas()

    def _repr_html_(self) -> str:
        return self.table().to_html(self.fmt)


def _offset(progress: Callable[[int, int], None] | None, before: int, planned: int
            ) -> Callable[[int, int], None] | None:
    """``progress`` told of one run's battles as part of all of them."""
    if progress is None:
        return None
    told = progress

    def tell(done: int, _: int) -> None:
        told(before + done, planned)

    return tell


def versus(
    game: str | Ruleset,
    red: str | Squad,
    blue: str | Squad,
    *,
    ranges: Sequence[int | None] = (None,),
    battles: int = 500,
    seed: int = 1,
    rulings: Mapping[str, str] | None = None,
    content: Sequence[Path] = (),
    workers: int | None = None,
    policies: Mapping[str, str] | str | None = None,
    swap: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> VersusReport:
    """Play the squads against each other at each range, ``battles`` battles with red moving
    first and (``swap``) as many with blue moving first from the other end of the field.
    ``progress(done, planned)`` is told the battles done as they finish; Ctrl-C (a
    KeyboardInterrupt) stops every run, not only the one under way."""
    ruleset = get_ruleset(game) if isinstance(game, str) else game
    _hooks(ruleset)
    if battles < 1:
        raise TacticaError(f"--battles: expected at least 1, got {battles}")
    if len(ranges) > MAX_VERSUS_RANGES:
        raise TacticaError(f"--range: at most {MAX_VERSUS_RANGES} ranges (each is two whole "
                           f"simulations; see docs/limits.md), got {len(ranges):,}")
    squads = {"red": red if isinstance(red, Squad) else parse_squad(red, what="--red"),
              "blue": blue if isinstance(blue, Squad) else parse_squad(blue, what="--blue")}
    for side, squad in squads.items():
        _check_squad(ruleset, squad, f"--{side}", content)
    points: list[VersusPoint] = []
    notes: dict[str, None] = {}
    shapes: dict[str, str] = {}
    chosen_policies: Mapping[str, str] = {}
    in_force: Mapping[str, str] = {}
    sets_first = True
    planned = len(ranges) * (2 if swap else 1) * battles
    finished = 0
    for rng in ranges:
        orders = [("red", "blue"), ("blue", "red")] if swap else [("red", "blue")]
        runs: list[SimulationReport] = []
        took: int | None = None
        for k, order in enumerate(orders):
            scenario, took, game_notes = squad_scenario(
                ruleset, {s: squads[s] for s in order}, range=rng, rulings=rulings,
                content=content)
            for note in game_notes:  # one note per kind, not one per range
                shape = re.sub(r"\d+", "#", note)
                if shape not in shapes:
                    shapes[shape] = note
                    notes[note] = None
                elif shapes[shape] != note and notes.pop(shapes[shape], 0) is None:
                    notes[f"{shapes[shape]} (so at every range, at its own distance)"] = None
            sets_first = "first" in scenario.data
            report = simulate(scenario, battles=battles, seed=seed * 2 + k, workers=workers,
                              policies=policies, progress=_offset(progress, finished, planned))
            if report.interrupted:  # the run kept what it had; the matchup stops here
                raise KeyboardInterrupt
            finished += report.battles
            runs.append(report)
            chosen_policies, in_force = report.policies, report.rulings
        points.append(VersusPoint(took, tuple(runs), tuple(o[0] for o in orders)))
    points = _explain_repeats(ruleset, squads, points, rulings, content)
    return VersusReport(ruleset.meta.title, squads, tuple(points), seed, battles,
                        dict(in_force), dict(chosen_policies), tuple(notes),
                        sets_first=sets_first)


def _fingerprint(point: VersusPoint) -> tuple[Any, ...]:
    """The figures of a point's rows (each run's wins and draws)."""
    return tuple((r.battles, tuple(sorted(r.wins.items())), r.draws) for r in point.runs)


def _lengths(point: VersusPoint) -> tuple[Any, ...]:
    return tuple((r.tally.rounds_sum, r.tally.rounds_squares) for r in point.runs)


def _explain_repeats(ruleset: Ruleset, squads: Mapping[str, Squad],
                     points: list[VersusPoint], rulings: Mapping[str, str] | None,
                     content: Sequence[Path]) -> list[VersusPoint]:
    """Each point whose figures repeat an earlier range's exactly, marked and explained."""
    from dataclasses import replace

    from tactica.analysis.repeats import odds_signature, same_note

    seen: dict[tuple[Any, ...], VersusPoint] = {}
    pairs = [(a, b) for a in squads["red"].members for b in squads["blue"].members]
    pairs += [(b, a) for a, b in pairs]
    out: list[VersusPoint] = []
    for pt in points:
        key = _fingerprint(pt)
        earlier = seen.get(key)
        if earlier is None or pt.range is None or earlier.range is None:
            seen.setdefault(key, pt)
            out.append(pt)
            continue
        here = odds_signature(ruleset, pairs, pt.range, rulings=rulings, content=content)
        there = odds_signature(ruleset, pairs, earlier.range, rulings=rulings,
                               content=content)
        odds = None if here is None or there is None else (there, here)
        why = same_note(f"range {pt.range}", f"range {earlier.range}", odds=odds,
                        same_lengths=_lengths(pt) == _lengths(earlier),
                        rounds=(_mean_rounds(earlier), _mean_rounds(pt)))
        out.append(replace(pt, same_as=earlier.range, same_why=why))
    return out


def _mean_rounds(point: VersusPoint) -> float:
    n = point.battles
    return sum(r.tally.rounds_sum for r in point.runs) / n if n else 0.0
