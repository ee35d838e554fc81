"""Sweeps: every point validated as a scenario, results in real Parquet read back by DuckDB."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import duckdb
import pytest

from tactica.analysis.simulate import compare
from tactica.analysis.sweep import (
    SweepSpec,
    column_name,
    parse_vary,
    query,
    read_meta,
    run_sweep,
    write_parquet,
)
from tactica.analysis.sweep_views import paired_differences, sweep_tables
from tactica.api import example
from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import get_ruleset
from tactica.engine.scenario import load_scenario


def test_parse_vary() -> None:
    assert parse_vary("units.B.armor=2-6").values == (2, 3, 4, 5, 6)
    assert parse_vary("rulings.NEB-6=die,characteristic").values == ("die", "characteristic")
    assert column_name("rulings.NEB-6") == "rulings_NEB_6"
    with pytest.raises(TacticaError, match="PATH=V1"):
        parse_vary("units.B.armor")


def test_a_ruling_and_a_weapon_field_over_five_values_go_to_parquet(tmp_path: Path) -> None:
    spec = SweepSpec((parse_vary("rulings.NEB-6=die,characteristic"),
                      parse_vary("content.weapons.smg.accuracy=2-6")),
                     game=get_ruleset("nebulia"), profiles=("breacher", "trooper"),
                     odds=True, range=8, cover=1)
    rows = run_sweep(spec)
    out = tmp_path / "sweep.parquet"
    write_parquet(rows, out, spec)
    con = duckdb.connect()
    got = con.execute(
        "SELECT rulings_NEB_6, content_weapons_smg_accuracy, p_out_of_action_exact "
        f"FROM read_parquet('{out}') ORDER BY 1, 2").fetchall()
    assert len(got) == 10
    assert {r[1] for r in got} == {2, 3, 4, 5, 6}
    # Higher accuracy, more knock-outs; the characteristic reading of cover is harsher.
    die = [Fraction(r[2]) for r in got if r[0] == "die"]
    char = [Fraction(r[2]) for r in got if r[0] == "characteristic"]
    assert die == sorted(die) and all(c > d for c, d in zip(char, die, strict=True))
    assert die[2] == Fraction(2268, 15625)  # accuracy 4: the pack's own smg, as in the matrix
    assert read_meta(out)["parameters"][1]["path"] == "content.weapons.smg.accuracy"


def test_a_simulation_sweep_keeps_intervals_and_plays_the_same_battles(tmp_path: Path) -> None:
    spec = SweepSpec((parse_vary("units.B.defense=1-3"),), scenario=load_scenario(
        example("duel")), battles=30, seed=4)
    rows = run_sweep(spec)
    sims = [r for r in rows if r["kind"] == "simulation"]
    assert len(sims) == 3 * 3  # red, blue and draws at each point
    for r in sims:
        assert r["low"] <= r["p"] <= r["high"] and r["battles"] == 30
    red = [r["p"] for r in sims if r["side"] == "red"]
    assert red[0] >= red[-1]
    assert rows == run_sweep(spec)  # seeded: the same numbers again
    out = tmp_path / "sim.parquet"
    write_parquet(rows, out, spec)
    table = query(out, "SELECT units_B_defense, p FROM sweep WHERE side = 'red' ORDER BY 1")
    assert [row[0] for row in table.rows] == [1, 2, 3]
    diffs = paired_differences(rows, ["units_B_defense"])
    assert [d["variant"] for d in diffs] == ["2 - 1", "3 - 1"]


def test_bad_paths_and_queries_are_one_clear_error(tmp_path: Path) -> None:
    duel = load_scenario(example("duel"))
    with pytest.raises(TacticaError, match=r"no units.Z in the scenario"):
        run_sweep(SweepSpec((parse_vary("units.Z.armor=1,2"),), scenario=duel, battles=2))
    with pytest.raises(TacticaError, match=r"no content pack has weapons\.laser"):
        run_sweep(SweepSpec((parse_vary("content.weapons.laser.accuracy=1,2"),),
                            scenario=duel, odds=True, attacker="A", target="B"))
    with pytest.raises(TacticaError, match="only a matchup sweep"):
        run_sweep(SweepSpec((parse_vary("range=1,2"),), scenario=duel, battles=2))
    with pytest.raises(TacticaError, match="NEB-6"):
        run_sweep(SweepSpec((parse_vary("rulings.NEB-6=sideways"),), scenario=duel,
                            battles=2))
    spec = SweepSpec((parse_vary("units.B.defense=1,2"),), scenario=duel, odds=True,
                     attacker="A", target="B")
    out = tmp_path / "s.parquet"
    write_parquet(run_sweep(spec), out, spec)
    with pytest.raises(TacticaError, match="--query"):
        query(out, "SELEKT nothing")
    with pytest.raises(TacticaError, match="no such file"):
        query(tmp_path / "missing.parquet", "SELECT 1")


def test_a_sweep_pairs_its_points_with_the_statistic_of_compare() -> None:
    duel = load_scenario(example("duel-cover"))
    spec = SweepSpec((parse_vary("rulings.NEB-6=die,characteristic"),), scenario=duel,
                     battles=30, seed=4)
    rows = run_sweep(spec)
    report = compare(duel, "NEB-6=die,characteristic", battles=30, seed=4, workers=1)
    found = paired_differences(rows, ["rulings_NEB_6"], side="*")
    assert [d["side"] for d in found] == ["red", "blue", "draw"]
    for d in found:
        want = report.paired_difference(1, d["side"])
        assert (d["diff"], d["low"], d["high"], d["verdict"]) == (
            want.difference, want.low, want.high, want.verdict)
        assert (d["consulted"], d["changed"]) == (report.consulted(1), report.changed(1))
    notes = sweep_tables(rows, spec)[-1].notes
    assert notes[0] == report.notes()[0].replace("under NEB-6=", "under rulings.NEB-6=")
    assert all(n.startswith("no clear difference: with 30 battles a point") for n in notes[1:])


def test_the_sweeps_description_is_json(tmp_path: Path) -> None:
    spec = SweepSpec((parse_vary("units.B.defense=1,2"),), scenario=load_scenario(
        example("duel")), odds=True, attacker="A", target="B")
    assert json.loads(json.dumps(spec.describe()))["odds"] is True
