"""Squad matchups: N troopers of one kind against M of another, played as whole battles.

``tactica versus GAME --red 4xsmg --blue 4xrifle --range 10`` asks the game for a fight
between the two squads built through its own geometry (:class:`SquadHooks`: where each trooper
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
that set up squads say so by providing :class:`SquadHooks`; ``tactica versus`` refuses the
others with a clear error.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from tactica.analysis.simulate import SimulationReport, simulate, wilson
from tactica.engine.errors import TacticaError
from tactica.engine.game import Matchups
from tactica.engine.limits import MAX_VERSUS_RANGES
from tactica.engine.ruleset import Capability, MatchupProfile, Ruleset, get_ruleset, matchup_hooks
from tactica.engine.rulings import Rulings
from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.presentation.tables import Column, NumberFormat, Table

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SIDES", "Squad", "SquadHooks", "VersusPoint", "VersusReport", "parse_squad",
           "squad_games", "squad_scenario", "versus"]

#: The two sides of a squad matchup, in the order the command names them.
SIDES = ("red", "blue")
#: Most troopers in a squad written ``NxPROFILE``.
MAX_COUNT = 50

_COUNTED = re.compile(r"^\s*(\d+)\s*[x×*]\s*(\S.*?)\s*$")


@runtime_checkable
class SquadHooks(Protocol):
    """A game that can set up two squads against each other (optional; ``tactica versus``)."""

    def squad_matchup(self, squads: Mapping[str, Sequence[MatchupProfile]], *,
                      range: int | None, rulings: Rulings, content: Sequence[Path]
                      ) -> tuple[dict[str, Any], int | None, tuple[str, ...]]:
        """A scenario mapping in which each side of ``squads`` (two, in order) fields its
        profiles, the first side moving first; ``range`` in the game's own measure (``None``:
        the game's default). Returns the scenario, the range that took effect (``None``: no
        meaning in the game) and notes for people; a TacticaError for a profile or range the
        game cannot set up."""
        ...


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


def _squads(ruleset: Ruleset) -> SquadHooks | None:
    """The game's squad matchups: its matchups part's ``squads`` (or, for a game written as a
    class, its ``squad_matchup`` hook); ``None`` when it has none."""
    if not ruleset.meta.has(Capability.MATCHUP):
        return None
    hooks = matchup_hooks(ruleset)
    if isinstance(hooks, Matchups):
        return hooks if hooks.squads is not None else None
    return hooks if isinstance(hooks, SquadHooks) else None


def _hooks(ruleset: Ruleset) -> SquadHooks:
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
        n = self.battles
        red, blue = self.wins("red"), self.wins("blue")
        if n == 0:
            return 0.0, (math.nan, math.nan)
        mean = (red - blue) / n
        # The interval adds one win to each side first (as Agresti and Caffo do for two
        # proportions), so that a handful of one-sided battles never looks certain.
        r, b, m = red + 1, blue + 1, n + 2
        centre = (r - b) / m
        var = ((r + b) / m - centre * centre) * m / (m - 1)
        half = 1.959964 * math.sqrt(max(var, 0.0) / m)
        return mean, (max(-1.0, centre - half), min(1.0, centre + half))

    def verdict(self, squads: Mapping[str, Squad]) -> str:
        """Which squad wins more, in words, or that the battles cannot tell."""
        mean, (lo, hi) = self.difference()
        where = "" if self.range is None else f" at range {self.range}"
        if lo > 0 or hi < 0:
            better = "red" if mean > 0 else "blue"
            near, far = (lo, hi) if mean > 0 else (-hi, -lo)
            return (f"{better} ({squads[better].label}) wins more often{where}: by "
                    f"{abs(mean) * 100:.1f} points (95% interval {near * 100:.1f} to "
                    f"{far * 100:.1f})")
        return (f"no clear difference{where} after {self.battles:,} battles (red minus blue: "
                f"{mean * 100:+.1f} points, 95% interval {lo * 100:+.1f} to {hi * 100:+.1f})")

    def record(self) -> dict[str, Any]:
        """JSON-ready: each run's and the pooled figures, and the difference."""
        mean, (lo, hi) = self.difference()
        runs = []
        for first, r in zip(self.firsts, self.runs, strict=True):
            runs.append({"first": first, "battles": r.battles, "draws": r.draws,
                         "wins": {s: r.wins[s] for s in SIDES},
                         "win_rate": {s: _rate_record(r.wins[s], r.battles) for s in SIDES},
                         "engine": r.engine})
        return {"range": self.range, "battles": self.battles, "draws": self.draws,
                "wins": {s: self.wins(s) for s in SIDES},
                "win_rate": {s: _rate_record(self.wins(s), self.battles) for s in SIDES},
                "red_minus_blue": {"difference": round(mean, 6),
                                   "ci95": [round(lo, 6), round(hi, 6)],
                                   "clear": lo > 0 or hi < 0},
                "runs": runs}


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
        """A row per range and who moved first (and both): each squad's win rate with its
        95% interval, and the draws."""
        order = "moves first" if self.sets_first else "listed first"
        cols = [Column("range", "int"), Column(order), Column("battles", "int")]
        for side in SIDES:
            cols += [Column(f"{self.name(side)} wins", "p"), Column(f"{side} 95% low", "p"),
                     Column(f"{side} 95% high", "p")]
        cols.append(Column("draws", "p"))
        rows: list[list[Any]] = []
        for pt in self.points:
            for first, r in zip(pt.firsts, pt.runs, strict=True):
                row: list[Any] = [pt.range, self.name(first), r.battles]
                for side in SIDES:
                    p, (lo, hi) = _rate(r.wins[side], r.battles)
                    row += [p, lo, hi]
                row.append(r.draws / r.battles if r.battles else None)
                rows.append(row)
            row = [pt.range, "either (both runs)", pt.battles]
            for side in SIDES:
                p, (lo, hi) = pt.rate(side)
                row += [p, lo, hi]
            row.append(pt.draws / pt.battles if pt.battles else None)
            rows.append(row)
        title = (f"{self.game}: {self.name('red')} against {self.name('blue')}, seed "
                 f"{self.seed}")
        notes = [pt.verdict(self.squads) for pt in self.points]
        notes += list(self.notes)
        return Table(title, cols, rows, notes)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``tactica versus --json``."""
        return {"game": self.game,
                "squads": {s: {"label": q.label, "troopers": list(q.members)}
                           for s, q in self.squads.items()},
                "battles_per_run": self.battles, "seed": self.seed,
                "first_moves_first": self.sets_first,
                "policies": dict(self.policies), "rulings": dict(self.rulings),
                "notes": list(self.notes),
                "points": [pt.record() for pt in self.points],
                "verdicts": [pt.verdict(self.squads) for pt in self.points]}

    def plot_points(self) -> list[dict[str, Any]]:
        """One record per range and squad, over both runs: ``range``, ``squad``, ``p``,
        ``low``, ``high`` (what :func:`tactica.analysis.plots.versus_plot` draws)."""
        out = []
        for pt in self.points:
            for side in SIDES:
                p, (lo, hi) = pt.rate(side)
                out.append({"range": pt.range, "squad": self.name(side), "p": p, "low": lo,
                            "high": hi})
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
            notes.update(dict.fromkeys(game_notes))
            sets_first = "first" in scenario.data
            report = simulate(scenario, battles=battles, seed=seed * 2 + k, workers=workers,
                              policies=policies, progress=_offset(progress, finished, planned))
            if report.interrupted:  # the run kept what it had; the matchup stops here
                raise KeyboardInterrupt
            finished += report.battles
            runs.append(report)
            chosen_policies, in_force = report.policies, report.rulings
        points.append(VersusPoint(took, tuple(runs), tuple(o[0] for o in orders)))
    return VersusReport(ruleset.meta.title, squads, tuple(points), seed, battles,
                        dict(in_force), dict(chosen_policies), tuple(notes),
                        sets_first=sets_first)
