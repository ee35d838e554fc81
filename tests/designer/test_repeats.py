"""Ranges that repeat: every game's matchup builders place the units differently at different
ranges, and results that repeat exactly across ranges always come with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tactica.analysis.sweep import Parameter, SweepSpec, run_sweep
from tactica.analysis.sweep_views import sweep_tables
from tactica.analysis.versus import versus
from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import get_ruleset, matchup_hooks
from tactica.engine.rulings import Rulings

GAMES = {"skirmishers": ("smg", "rifle"), "nebulia-operations": ("breacher", "trooper"),
         "unhex": ("gunman", "brawler"), "arc": ("bobby", "dee"),
         "last-odyssey": None}
RANGES = [1, 2, 3, 4, 6, 8, 12, 16, 20]


def _field(data: dict[str, Any]) -> Any:
    """Where everybody stands: positions, areas, the ranges between them, and the map."""
    units = {k: (v.get("at"), v.get("area"), v.get("zone")) for k, v in data["units"].items()}
    return repr((units, data.get("ranges"), data.get("map")))


@pytest.mark.parametrize("game", list(GAMES))
def test_distinct_ranges_build_distinct_fields(game: str) -> None:
    ruleset = get_ruleset(game)
    hooks = matchup_hooks(ruleset)
    rulings = Rulings(ruleset.meta.rulings, {}, where="test")
    profiles = GAMES[game] or tuple(hooks.profiles([])[:2])
    fields: dict[Any, int | None] = {}
    squads: dict[Any, int | None] = {}
    for rng in RANGES:
        m = hooks.matchup(profiles, range=rng, cover=0, rulings=rulings, content=[])
        if m.range is None:  # the game gives range no meaning, and says so
            assert any("range" in n for n in m.notes)
            continue
        assert m.range == rng  # never clamped to the map
        key = _field(m.scenario)
        assert key not in fields, f"{game}: ranges {fields[key]} and {rng} build one field"
        fields[key] = rng
        try:
            data, took, _ = hooks.squad_matchup(  # type: ignore[union-attr]
                {"red": [profiles[0]] * 2, "blue": [profiles[1]] * 2}, range=rng,
                rulings=rulings, content=[])
        except TacticaError:
            continue  # a range the squads cannot stand at: refused, not clamped
        assert took == rng
        key = _field(data)
        assert key not in squads, f"{game}: squads at ranges {squads[key]} and {rng} alike"
        squads[key] = rng


def test_versus_results_that_repeat_across_ranges_say_why() -> None:
    # From 6 to 17 dots the SMG is at long range and the rifle at short range: the same
    # seeded dice may give the same totals at several ranges, and then the output says why.
    report = versus("skirmishers", "smg", "rifle", ranges=[4, 6, 12, 14, 16], battles=30,
                    seed=2, workers=1)
    rows: dict[Any, int | None] = {}
    for i, pt in enumerate(report.points):
        key = tuple((r.wins["red"], r.wins["blue"], r.draws) for r in pt.runs)
        if key in rows:
            assert pt.same_as == rows[key] and pt.same_why, pt.range
            assert pt.same_why in report.table().notes
            assert report.to_dict()["points"][i]["same_as"] == rows[key]
        else:
            assert pt.same_as is None and not pt.same_why
            rows[key] = pt.range


def test_sweep_results_that_repeat_across_ranges_say_why(tmp_path: Path) -> None:
    spec = SweepSpec((Parameter("range", (6, 8, 12)),), game=get_ruleset("skirmishers"),
                     profiles=("smg", "rifle"), battles=30, seed=2)
    rows = run_sweep(spec)
    table = sweep_tables(rows, spec)[0]
    wins = {}
    for r in rows:
        wins.setdefault(r["range"], []).append(r["wins"])
    assert wins[6] == wins[12]
    said = [n for n in table.notes if n.startswith("range=12 gave exactly")]
    assert len(said) == 1 and "same exact odds" in said[0]
    if wins[8] != wins[6]:
        assert not any(n.startswith("range=8 gave") for n in table.notes)
