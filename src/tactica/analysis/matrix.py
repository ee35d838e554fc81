"""Matchup matrices: every weapon or ability of some profiles against some targets, at chosen
ranges and cover, in exact odds, without a scenario file.

Each cell asks the game, through its matchups part (:class:`tactica.engine.game.Matchups`),
for a tiny scenario with the two units placed at that range and cover by the game's own geometry,
validates it like a scenario file, and asks the game's odds of every action the attacker has on
the target there. A range or cover the game has no use for is computed once and shown as ``-``.

A cell values one *attack action*, not one die roll, where the game says what an action is
(``Matchups.attack``: a firing arc's every shot at the target, a melee attack, a
throw), with its AP where the game spends AP, so that ``expected_damage_per_ap`` compares a
three-shot SMG arc with a one-shot rifle arc fairly; ``per_roll=True`` asks for a single roll.

The README shows one, and ``docs/designer.md`` the command.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tactica.engine.errors import IllegalActionError, TacticaError
from tactica.engine.limits import (
    MAX_INT_DIGITS,
    MAX_LISTED_NUMBERS,
    MAX_MATRIX_MATCHUPS,
    MAX_NUMBER,
)
from tactica.engine.ruleset import (
    MatchupProfile,
    OddsChoice,
    OddsValue,
    Ruleset,
    get_ruleset,
    matchup_hooks,
    odds_hooks,
)
from tactica.engine.rulings import Rulings
from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.presentation.tables import Column, Kind, NumberFormat, Table, data_frame

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["VALUES", "Matrix", "MatrixCell", "matchup_matrix", "matchup_targets",
           "parse_numbers", "scenario_profiles"]

#: What a matrix can show in its cells, with headings.
VALUES = {"p_out_of_action": "P(out of action)", "expected_damage": "expected damage",
          "p_hit": "P(hit)", "expected_damage_per_ap": "expected damage per AP"}


@dataclass(frozen=True)
class MatrixCell:
    """One weapon or ability of one attacker on one target at one range and cover.

    ``range`` and ``cover`` are as the game set them up (``None``: no meaning in the game);
    ``in_cover`` is whether the game's odds counted cover (``None``: the game does not say);
    numbers are exact, ``None`` where the action is impossible (``note`` says why).
    """

    attacker: str
    means: str
    target: str
    range: int | None
    cover: int | None
    p_hit: Fraction | None
    expected_damage: Fraction | None
    p_out_of_action: Fraction | None
    in_cover: bool | None = None
    note: str = ""
    action: str = ""
    ap: int | None = None

    @property
    def expected_damage_per_ap(self) -> Fraction | None:
        """The action's expected damage for each AP it costs (``None``: no AP, or no
        action)."""
        if self.expected_damage is None or not self.ap:
            return None
        return self.expected_damage / self.ap

    def value(self, name: str) -> Fraction | None:
        """The number called ``name`` (one of :data:`VALUES`)."""
        found: Fraction | None = getattr(self, name)
        return found

    def record(self) -> dict[str, Any]:
        """JSON-ready: numbers as floats with their exact fractions."""
        out: dict[str, Any] = {"attacker": self.attacker, "means": self.means,
                               "action": self.action, "ap": self.ap,
                               "target": self.target, "range": self.range, "cover": self.cover,
                               "in_cover": self.in_cover}
        for name in VALUES:
            v = self.value(name)
            out[name] = None if v is None else float(v)
            out[f"{name}_exact"] = None if v is None else str(v)
        out["note"] = self.note
        return out


@dataclass(frozen=True)
class Matrix:
    """The cells of a matchup matrix, the game and rulings, and the games' notes."""

    game: str
    cells: tuple[MatrixCell, ...]
    rulings: Mapping[str, str]
    notes: tuple[str, ...] = ()
    fmt: NumberFormat = field(default_factory=NumberFormat)

    def records(self) -> list[dict[str, Any]]:
        """One JSON-ready record per cell."""
        return [c.record() for c in self.cells]

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``tactica matrix --json``."""
        return {"game": self.game, "rulings": dict(self.rulings), "notes": list(self.notes),
                "cells": self.records()}

    def long_table(self) -> Table:
        """Every cell as a row with all three numbers."""
        cols = [Column("attacker"), Column("weapon"), Column("action"), Column("AP", "int"),
                Column("target"), Column("range", "int"),
                Column("cover", "int"), Column("in cover"), Column(VALUES["p_hit"], "p"),
                Column(VALUES["expected_damage"], "num"), Column(VALUES["p_out_of_action"], "p"),
                Column(VALUES["expected_damage_per_ap"], "num"), Column("note")]
        rows = [[c.attacker, c.means, c.action, c.ap, c.target, c.range, c.cover, c.in_cover,
                 c.p_hit, c.expected_damage, c.p_out_of_action, c.expected_damage_per_ap,
                 c.note] for c in self.cells]
        if not any(c.action for c in self.cells):  # the game has no attack actions
            keep = [i for i, c in enumerate(cols)
                    if c.name not in ("action", "AP", VALUES["expected_damage_per_ap"])]
            cols = [cols[i] for i in keep]
            rows = [[row[i] for i in keep] for row in rows]
        return Table(f"{self.game}: matchups", cols, rows, list(self.notes))

    def table(self, value: str = "p_out_of_action") -> Table:
        """The matrix as people read it: a row per target and range, a column per attacker's
        weapon and cover, the chosen number in each cell (``-``: the action is impossible)."""
        if value not in VALUES:
            raise TacticaError(f"--value: expected one of {', '.join(VALUES)}, got {value!r}")
        columns: dict[tuple[str, str, int | None], None] = {}
        rows: dict[tuple[str, int | None], dict[tuple[str, str, int | None], Any]] = {}
        for c in self.cells:
            key = (c.attacker, c.means, c.cover)
            columns.setdefault(key)
            rows.setdefault((c.target, c.range), {})[key] = c.value(value)
        kind: Kind = "p" if value.startswith("p_") else "num"
        heads = [Column("target"), Column("range", "int")]
        heads += [Column(_heading(a, m, cov), kind) for a, m, cov in columns]
        body = [[t, r, *(vals.get(k) for k in columns)] for (t, r), vals in rows.items()]
        return Table(f"{self.game}: {VALUES[value]}", heads, body, list(self.notes))

    def to_pandas(self) -> pd.DataFrame:
        """Every cell as a row of a DataFrame (numbers as floats); needs pandas."""
        return data_frame(self.records())

    to_frame = to_pandas

    def _repr_html_(self) -> str:
        return self.table().to_html(self.fmt)


def _heading(attacker: str, means: str, cover: int | None) -> str:
    where = "" if cover is None else (" in the open" if cover == 0 else f" in cover {cover}"
                                      if cover > 1 else " in cover")
    return f"{attacker}{'' if means == attacker else ' ' + means}{where}"


def parse_numbers(text: str, *, what: str, low: int = 0, most: int = MAX_LISTED_NUMBERS,
                  high: int = MAX_NUMBER) -> list[int]:
    """``"1-20"``, ``"1,5,10"`` or ``"0-20/5"`` as whole numbers; a TacticaError otherwise.

    The size is checked before anything is built: each number is from ``low`` to ``high``,
    and the count the text asks for (worked out from the ranges' ends and steps) at most
    ``most`` (docs/limits.md)."""
    spans: list[tuple[int, int, int]] = []
    count = 0
    shown = text if len(text) <= 60 else text[:57] + "..."
    for part in (p.strip() for p in text.split(",")):
        span, _, step_text = part.partition("/")
        a, dash, b = span.partition("-")
        pieces = [step_text, a, b]
        if any(len(p.strip()) > MAX_INT_DIGITS for p in pieces):
            raise TacticaError(f"{what}: numbers of at most {high:,}, got {shown!r}")
        try:
            step = int(step_text) if step_text else 1
            lo = int(a)
            hi = int(b) if dash else lo
        except ValueError:
            raise TacticaError(f"{what}: expected numbers like 1-20, 1,5,10 or 0-20/5, "
                               f"got {shown!r}") from None
        if step < 1 or hi < lo or lo < low:
            part = part if len(part) <= 60 else part[:57] + "..."
            raise TacticaError(f"{what}: expected numbers from {low} upward, low-high, "
                               f"got {part!r}")
        if hi > high or step > high:
            raise TacticaError(f"{what}: numbers of at most {high:,}, got {shown!r}")
        count += (hi - lo) // step + 1
        if count > most:
            raise TacticaError(f"{what}: at most {most:,} numbers (see docs/limits.md), "
                               f"got {shown!r}")
        spans.append((lo, hi, step))
    out: list[int] = []
    for lo, hi, step in spans:
        out.extend(range(lo, hi + 1, step))
    return list(dict.fromkeys(out))


def scenario_profiles(scenario: Scenario) -> dict[str, MatchupProfile]:
    """The units of a scenario as matchup profiles (each unit's own entry), by unit id."""
    units = scenario.data.get("units")
    if not isinstance(units, Mapping):
        raise TacticaError(f"{scenario.source}: no 'units' mapping to take profiles from")
    return {str(k): v for k, v in units.items() if isinstance(v, Mapping)}


def _content_of(scenario: Scenario) -> list[Path]:
    listed = scenario.data.get("content") or []
    return [Path(os.path.join(scenario.base_dir, str(p))) for p in listed]


def matchup_matrix(
    game: str | Ruleset | Scenario,
    attackers: Sequence[str] | Mapping[str, MatchupProfile],
    targets: Sequence[str] | Mapping[str, MatchupProfile],
    *,
    ranges: Sequence[int | None] = (None,),
    covers: Sequence[int | None] = (0,),
    rulings: Mapping[str, str] | None = None,
    content: Sequence[Path] = (),
    means: Sequence[str] = (),
    options: Mapping[str, OddsValue] | None = None,
    per_roll: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Matrix:
    """Exact odds of every weapon of ``attackers`` on every one of ``targets`` at each range
    and cover (see the module's docstring).

    ``game`` is a game's name, a game, or a scenario whose units, rulings and content packs the
    profiles then come from (by unit id). ``attackers`` and ``targets`` are profile names, or
    mappings of a label to a profile (a name or a unit's entry). ``means`` keeps only those
    weapons or abilities; ``options`` are the game's odds options (``defend=True``);
    ``per_roll`` values a single roll even where the game says what an attack action is;
    ``progress(done, planned)`` is told the matchups worked out.
    """
    scenario: Scenario | None = None
    if isinstance(game, Scenario):
        scenario = game
        ruleset = scenario.ruleset
        content = [*_content_of(scenario), *content]
        chosen = {**dict(scenario.rulings), **(rulings or {})}
    else:
        ruleset = get_ruleset(game) if isinstance(game, str) else game
        chosen = dict(rulings or {})
    hooks = matchup_hooks(ruleset)
    odds = odds_hooks(ruleset)
    in_force = Rulings(ruleset.meta.rulings, chosen, where="--rulings")
    units = scenario_profiles(scenario) if scenario is not None else {}
    known = hooks.profiles(content)
    attack = _attack_of(ruleset)
    distinct = matchup_targets(ruleset, content)

    def labelled(given: Sequence[str] | Mapping[str, MatchupProfile],
                 what: str) -> dict[str, MatchupProfile]:
        if isinstance(given, Mapping):
            return dict(given)
        out: dict[str, MatchupProfile] = {}
        for name in given:
            if name in units:
                out[name] = units[name]
            elif name in known or (what == "--target" and name in distinct) or "/" in name:
                out[name] = name  # a profile's variant (smg/standard): the game checks it
            else:
                have = ", ".join(units) + "; profiles: " if units else ""
                extra = [t for t in distinct if t not in known] if what == "--target" else []
                raise TacticaError(f"{what}: unknown profile {name!r} (known: {have}"
                                   f"{', '.join([*known, *extra])})")
        if not out:
            raise TacticaError(f"{what}: give at least one profile")
        return out

    atk = labelled(attackers, "--attacker")
    tgt = labelled(targets, "--target")
    sides = {k: str(v.get("side")) for k, v in units.items() if isinstance(v, Mapping)}
    cells: list[MatrixCell] = []
    notes: dict[str, None] = {}
    done: set[tuple[str, str, int | None, int | None]] = set()
    states: dict[tuple[str, str, int | None, int | None], tuple[Any, str, str]] = {}
    friendly = False
    planned, step = len(atk) * len(tgt) * len(covers) * len(ranges), 0
    if planned > MAX_MATRIX_MATCHUPS:
        raise TacticaError(
            f"matrix: {len(atk)} attacker(s) x {len(tgt)} target(s) x {len(ranges)} range(s) "
            f"x {len(covers)} cover(s) make {planned:,} matchups, more than "
            f"{MAX_MATRIX_MATCHUPS:,} (each is worked out exactly; see docs/limits.md): "
            "narrow it with --attacker, --target, --range or --cover")
    for a_label, a_prof in atk.items():
        # Enemies first, then friends (a scenario's units of the attacker's side); never the
        # attacker itself.
        aimed = sorted((t for t in tgt if t != a_label or not units),
                       key=lambda t: sides.get(t) == sides.get(a_label) and t in sides)
        for t_label in aimed:
            t_prof = tgt[t_label]
            if units and t_label in sides and sides.get(t_label) == sides.get(a_label):
                friendly = True
            for cover in covers:
                for rng in ranges:
                    if progress is not None:
                        progress(step, planned)
                    step += 1
                    try:
                        m = hooks.matchup((a_prof, t_prof), range=rng, cover=cover,
                                          rulings=in_force, content=content)
                    except TacticaError as exc:
                        raise TacticaError(f"{a_label} against {t_label}: {exc}") from None
                    key = (a_label, t_label, m.range, m.cover)
                    if key in done:
                        continue
                    done.add(key)
                    for n in m.notes:
                        if m.range is None or m.cover is None:
                            notes.setdefault(f"{ruleset.meta.title}: {n}")
                    sc = scenario_from_mapping(m.scenario, source=f"matchup {a_label} against "
                                               f"{t_label}", base_dir=Path.cwd())
                    state = sc.new_state()
                    states[key] = (state, m.attacker, m.target)
                    for choice in odds.choices(state, m.attacker):
                        if choice.targets != (m.target,) or (means and choice.means not in
                                                             means):
                            continue
                        made: dict[str, OddsValue] = {}
                        action, ap = "", None
                        if attack is not None and not per_roll:
                            made, action, ap = attack(state, choice)
                        try:
                            report = odds.odds(state, choice.action,
                                               **{**made, **(options or {})})
                        except IllegalActionError as exc:
                            cells.append(MatrixCell(a_label, choice.means, t_label, m.range,
                                                    m.cover, None, None, None, None, str(exc),
                                                    action, ap))
                            continue
                        cover_read = report.extra.get("cover")
                        cells.append(MatrixCell(
                            a_label, choice.means, t_label, m.range, m.cover,
                            report.numbers.get("p_hit"), report.numbers.get("expected_damage"),
                            report.numbers.get("p_out_of_action"),
                            bool(cover_read) if isinstance(cover_read, bool | int) else None,
                            "", action, ap))
    cells += _impossible(cells, states, odds, means)
    uncounted = sorted({c.range for c in cells if c.cover and c.in_cover is False
                        and c.range is not None})
    if uncounted:
        notes.setdefault(f"{ruleset.meta.title}: the cover asked for did not count at range "
                         f"{', '.join(map(str, uncounted))} (the game's own rule)")
    order = {k: i for i, k in enumerate(dict.fromkeys((c.attacker, c.means) for c in cells))}
    target_order = {t: i + (len(tgt) if units and t in sides and any(
        sides.get(t) == sides.get(a) for a in atk) else 0) for i, t in enumerate(tgt)}
    if friendly:
        notes.setdefault("targets of the attacker's own side are listed after the enemies, "
                         "marked (friend)")
        cells = [replace(c, target=f"{c.target} (friend)")
                 if sides.get(c.target) == sides.get(c.attacker) else c for c in cells]
        target_order.update({f"{t} (friend)": target_order[t] for t in list(target_order)})
    reversed_cover = _cover_works_against(cells)
    if reversed_cover:
        changed = ", ".join(f"{k}={v}" for k, v in in_force.changed().items())
        notes.setdefault(f"{ruleset.meta.title}: cover raises the damage a target takes "
                         f"({reversed_cover})" + (f" under {changed}" if changed else "")
                         + ": the rule works against the side it is meant to protect")
    cells.sort(key=lambda c: (order[(c.attacker, c.means)], target_order.get(c.target, 0),
                              c.target, c.cover or 0, c.range or 0))
    if not cells:
        raise TacticaError("no attacker has any action on any target in these matchups"
                           + (f" with {', '.join(means)}" if means else ""))
    if attack is not None and not per_roll:
        shown = dict.fromkeys(f"{c.means} = {c.action}" + (f", {c.ap} AP" if c.ap else "")
                              for c in cells if c.action)
        notes.setdefault(f"{ruleset.meta.title}: each cell is one attack action: "
                         + "; ".join(shown))
    return Matrix(ruleset.meta.title, tuple(cells), dict(in_force), tuple(notes))


def matchup_targets(ruleset: Ruleset, content: Sequence[Path]) -> tuple[str, ...]:
    """The game's distinct target profiles (``Matchups.targets``, optional), or its profiles."""
    return matchup_hooks(ruleset).matchup_targets(content)


def _attack_of(ruleset: Ruleset) -> Callable[[Any, OddsChoice],
                                              tuple[dict[str, OddsValue], str, int | None]] | None:
    """What one whole attack action of the game is (its matchups part's ``attack``);
    ``None``: a single roll."""
    return matchup_hooks(ruleset).attack


def _impossible(cells: list[MatrixCell], states: Mapping[tuple[str, str, int | None,
                int | None], tuple[Any, str, str]], odds: Any,
                means: Sequence[str]) -> list[MatrixCell]:
    """A cell with the reason for every weapon an attacker has elsewhere but not here (a
    melee weapon out of reach, a shotgun too close)."""
    by_attacker: dict[str, dict[str, None]] = {}
    for c in cells:
        by_attacker.setdefault(c.attacker, {})[c.means] = None
    have = {(c.attacker, c.target, c.range, c.cover, c.means) for c in cells}
    out: list[MatrixCell] = []
    for (a, t, rng, cov), (state, a_id, t_id) in states.items():
        for name in by_attacker.get(a, {}):
            if (a, t, rng, cov, name) in have or (means and name not in means):
                continue
            why = "not possible here"
            try:
                odds.odds_action(state, a_id, (t_id,), name)
            except (IllegalActionError, TacticaError) as exc:
                why = str(exc)
            out.append(MatrixCell(a, name, t, rng, cov, None, None, None, None, why))
    return out


def _cover_works_against(cells: Sequence[MatrixCell]) -> str:
    """The matchups where a counted cover raises the expected damage over the open (at the
    same range), in words; ``""`` where cover never does."""
    open_ = {(c.attacker, c.means, c.target, c.range): c for c in cells
             if c.cover == 0 and c.expected_damage is not None}
    worse: list[tuple[MatrixCell, Fraction, Fraction]] = []
    for c in cells:
        o = open_.get((c.attacker, c.means, c.target, c.range))
        if (c.cover and c.in_cover is not False and o is not None
                and o.expected_damage is not None and c.expected_damage is not None
                and c.expected_damage > o.expected_damage):
            worse.append((c, o.expected_damage, c.expected_damage))
    if not worse:
        return ""
    c, before, after = max(worse, key=lambda co: co[2] - co[1])
    weapon = c.means if c.means == c.attacker else f"{c.attacker}'s {c.means}"
    at = "" if c.range is None else f" at range {c.range}"
    more = f", and {len(worse) - 1} more cell(s)" if len(worse) > 1 else ""
    return (f"{weapon} on {c.target}{at}: expected damage {float(before):.2f} in "
            f"the open, {float(after):.2f} in cover{more}")


def difference_table(after: Matrix, before: Matrix | None = None,
                     value: str = "expected_damage", *, what: str = "") -> Table:
    """A difference view: with ``before``, each cell of ``after`` minus the same cell of
    ``before`` (reading B minus reading A); without it, each cell in cover minus the same cell
    in the open (``after`` must hold both). A row per target and range, a column per
    attacker's weapon; a positive difference of damage is more damage taken."""
    if value not in VALUES:
        raise TacticaError(f"--value: expected one of {', '.join(VALUES)}, got {value!r}")
    pairs: dict[tuple[str, str, str, int | None], tuple[Any, Any]] = {}
    if before is None:
        open_ = {(c.attacker, c.means, c.target, c.range): c.value(value)
                 for c in after.cells if c.cover == 0}
        for c in after.cells:
            if c.cover:
                key = (c.attacker, c.means, c.target, c.range)
                pairs[key] = (open_.get(key), c.value(value))
        title = what or f"{after.game}: {VALUES[value]}, in cover minus in the open"
    else:
        then = {(c.attacker, c.means, c.target, c.range, c.cover): c.value(value)
                for c in before.cells}
        for c in after.cells:
            key5 = (c.attacker, c.means, c.target, c.range, c.cover)
            key = (c.attacker, c.means, c.target, c.range)
            if c.cover:  # one column per weapon and cover
                key = (c.attacker, f"{c.means} in cover", c.target, c.range)
            pairs[key] = (then.get(key5), c.value(value))
        title = what or f"{after.game}: {VALUES[value]}, reading B minus reading A"
    columns = list(dict.fromkeys((a, m) for a, m, _, _ in pairs))
    rows: dict[tuple[str, int | None], dict[tuple[str, str], Any]] = {}
    for (a, m, t, r), (x, y) in pairs.items():
        rows.setdefault((t, r), {})[(a, m)] = None if x is None or y is None else y - x
    kind: Kind = "pts" if value.startswith("p_") else "num"
    heads = [Column("target"), Column("range", "int")]
    heads += [Column(m if a == m else f"{a} {m}", kind) for a, m in columns]
    body = [[t, r, *(vals.get(k) for k in columns)] for (t, r), vals in rows.items()]
    notes = ["a positive difference is more " + ("damage taken" if "damage" in value
                                                  else "of the number") + "; -: no action"]
    return Table(title, heads, body, notes)
