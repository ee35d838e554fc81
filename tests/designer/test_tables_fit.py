"""Tables that fit 80 columns: odds --table and a sweep's paired differences print as one
table, not a block per row."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from tactica.analysis.attacks import attack_rows
from tactica.analysis.sweep import SweepSpec, parse_vary, run_sweep
from tactica.analysis.sweep_views import sweep_tables
from tactica.analysis.views import attack_table
from tactica.cli.output import too_wide
from tactica.engine.scenario import load_scenario
from tactica.presentation.tables import NumberFormat

ROOT = Path(__file__).resolve().parents[2]


def _fits(table: object) -> None:
    console = Console(width=80)
    rich = table.to_rich(NumberFormat())  # type: ignore[attr-defined]
    assert console.measure(rich).maximum <= 80
    assert not too_wide(rich) or Console().width < 80


def test_every_attack_fits_80_columns() -> None:
    for name in ("nebulia/firefight.yaml", "arc/warehouse.yaml", "unhex/nightclub-fight.yaml"):
        sc = load_scenario(ROOT / "examples" / name)
        rows = attack_rows(sc.ruleset, sc.new_state(), None, {})
        table = attack_table(sc.name, rows)
        assert table.notes == ["E(dmg): expected damage; P(out): P(out of action)"]
        _fits(table)


def test_a_sweeps_paired_differences_are_one_table() -> None:
    spec = SweepSpec((parse_vary("rulings.NEB-6=die,characteristic"),
                      parse_vary("content.weapons.smg.accuracy=2-4")),
                     scenario=load_scenario(ROOT / "examples" / "nebulia" / "firefight.yaml"),
                     battles=10, seed=1)
    paired = sweep_tables(run_sweep(spec), spec)[-1]
    assert paired.title.endswith(": characteristic - die")
    assert [c.name for c in paired.columns] == ["at", "outcome", "difference", "95% low",
                                                "95% high", "verdict"]
    assert len(paired.rows) == 9
    _fits(paired)


def test_the_reports_units_table_has_weapons_and_armor() -> None:
    from tactica.analysis.report import scenario_report

    page = scenario_report(load_scenario(ROOT / "examples" / "arc" / "warehouse.yaml"),
                           battles=0, plots=False)
    units = page[page.index("<h2>Units</h2>"):page.index("<h2>Rulings</h2>")]
    assert "<th>weapons</th>" in units and "<th>armor</th>" in units
    assert "DMR" in units and "d6 (Light vest)" in units


def test_rulings_sort_naturally() -> None:
    from tactica.presentation.tables import natural_key

    assert sorted(["NEB-10", "NEB-2", "NEB-1"], key=natural_key) == ["NEB-1", "NEB-2",
                                                                       "NEB-10"]
