"""Squad matchups (tactica versus): squads parsed from 4xsmg, built through the game's own
geometry, played both ways round with seeded dice; games without squads refused in one line."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import pytest

from tactica.analysis.versus import Squad, parse_squad, squad_games, squad_scenario, versus
from tactica.battlefield.dots.geometry import offset_to_axial, steps
from tactica.cli import main
from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import get_ruleset


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err
    return lines[0]


def test_squads_are_written_as_counts_of_profiles() -> None:
    assert parse_squad("4xsmg", what="--red") == Squad("4xsmg", ("smg",) * 4)
    assert parse_squad("2xsmg + rifle", what="--red").members == ("smg", "smg", "rifle")
    assert parse_squad("smg/standard,2*rifle", what="--red").members == (
        "smg/standard", "rifle", "rifle")
    for bad in ("", "4xsmg+", "0xsmg", "99xsmg"):
        with pytest.raises(TacticaError, match="--red"):
            parse_squad(bad, what="--red")


def test_skirmishers_squads_face_each_other_at_the_range_asked() -> None:
    game = get_ruleset("skirmishers")
    scenario, took, notes = squad_scenario(
        game, {"blue": parse_squad("3xrifle", what="--blue"),
               "red": parse_squad("2xsmg", what="--red")}, range=7)
    assert took == 7 and "7 dots away" in notes[0]
    units = scenario.data["units"]
    assert scenario.data["first"] == "blue" and scenario.data["sides"] == ["blue", "red"]
    blue = sorted((u["at"] for u in units.values() if u["side"] == "blue"), key=lambda a: a[1])
    red = sorted((u["at"] for u in units.values() if u["side"] == "red"), key=lambda a: a[1])
    assert len(blue) == 3 and len(red) == 2
    assert [u["primary"] for u in units.values()].count("rifle") == 3
    for a, b in zip(blue, red, strict=False):  # each trooper faces its opposite number
        assert steps(offset_to_axial(*a), offset_to_axial(*b)) == 7
    assert scenario.new_state() is not None  # a valid battle


def test_versus_plays_both_ways_round_and_is_seeded() -> None:
    a = versus("skirmishers", "2xsmg", "2xrifle", ranges=[6], battles=4, seed=3, workers=1)
    b = versus("skirmishers", "2xsmg", "2xrifle", ranges=[6], battles=4, seed=3, workers=1)
    assert a.to_dict() == b.to_dict()
    point = a.points[0]
    assert point.firsts == ("red", "blue") and point.battles == 8
    assert point.wins("red") + point.wins("blue") + point.draws == 8
    doc = a.to_dict()["points"][0]
    assert [r["first"] for r in doc["runs"]] == ["red", "blue"]
    mean, (lo, hi) = point.difference()
    assert lo <= mean <= hi
    assert mean == pytest.approx((point.wins("red") - point.wins("blue")) / 8)
    rows = a.table().rows
    assert [r[1] for r in rows] == ["red", "blue", "both"]
    assert list(a.to_pandas().columns)[3] == "red wins (95%)"
    assert list(a.csv_table().to_pandas().columns)[3] == "red (2xsmg) wins"


def test_the_verdict_needs_a_clear_difference() -> None:
    report = versus("skirmishers", "smg", "rifle", ranges=[3], battles=1, seed=0, workers=1)
    verdict = report.points[0].verdict(report.squads)
    assert verdict.startswith("no clear difference at range 3 after 2 battles")


def test_versus_command_json_csv_and_plot(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    picture, table = tmp_path / "v.png", tmp_path / "v.csv"
    code, out, err = run(capsys, "versus", "skirmishers", "--red", "2xsmg", "--blue", "2xrifle",
                         "--range", "5,8", "-n", "2", "-j", "1", "--json", "--csv", str(table),
                         "--plot", str(picture))
    assert code == 0, err
    doc = json.loads(out)
    assert [p["range"] for p in doc["points"]] == [5, 8]
    assert doc["squads"]["blue"] == {"label": "2xrifle", "troopers": ["rifle", "rifle"]}
    assert len(doc["verdicts"]) == 2
    assert picture.read_bytes()[:4] == b"\x89PNG"
    rows = list(csv.reader(table.read_text().splitlines()))
    assert rows[0][:4] == ["range", "moves first", "battles", "red (2xsmg) wins"]
    assert len(rows) == 7 and rows[1][0] == "5"


def test_versus_refuses_what_it_cannot_build(capsys: pytest.CaptureFixture[str]) -> None:
    assert set(squad_games()) == {"arc", "last-odyssey", "nebulia-operations", "skirmishers",
                                  "unhex"}
    game = get_ruleset("unhex")
    without = dataclasses.replace(game, matchups=dataclasses.replace(  # type: ignore[type-var]
        game.matchups, squads=None))  # type: ignore[attr-defined]
    with pytest.raises(TacticaError, match=r"Unhex has no squad matchups yet .*skirmishers"):
        versus(without, "2xgunman", "2xgunman", battles=1)
    line = fails(capsys, "versus", "skirmishers", "--red", "4xlaser", "--blue", "rifle")
    assert line.startswith("error: --red: unknown profile 'laser'")
    line = fails(capsys, "versus", "skirmishers", "--red", "smg", "--blue", "rifle",
                 "--range", "0")
    assert "--range" in line


def test_matrix_values_a_firing_arc_and_distinct_targets(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "matrix", "skirmishers", "-w", "smg,rifle", "--range", "10",
                         "--json")
    assert code == 0, err
    cells = json.loads(out)["cells"]
    assert {c["target"] for c in cells} == {"trooper", "trooper/basic", "trooper/standard",
                                            "trooper/heavy"}
    smg = next(c for c in cells if c["means"] == "smg" and c["target"] == "trooper")
    rifle = next(c for c in cells if c["means"] == "rifle" and c["target"] == "trooper")
    assert smg["action"] == "30-degree arc: 3 shots" and smg["ap"] == 2
    assert rifle["action"] == "30-degree arc: 1 shot"
    assert smg["expected_damage_per_ap"] == pytest.approx(smg["expected_damage"] / 2)
    code, out, _ = run(capsys, "matrix", "skirmishers", "-w", "smg", "-t", "trooper",
                       "--range", "10", "--per-roll", "--json")
    single = json.loads(out)["cells"][0]
    assert single["action"] == "" and single["p_hit"] == smg["p_hit"]
    assert single["expected_damage"] < smg["expected_damage"]


def test_three_shots_are_exact_and_chain_on_the_targets_card(
        capsys: pytest.CaptureFixture[str]) -> None:
    shot = str(Path(__file__).resolve().parents[2] / "examples" / "skirmishers" / "shot.yaml")
    one = json.loads(run(capsys, "odds", shot, "-a", "A", "-t", "B", "--json")[1])
    three = json.loads(run(capsys, "odds", shot, "-a", "A", "-t", "B", "--shots", "3",
                           "--json")[1])
    assert three["p_hit"] == one["p_hit"] and three["action"].endswith("3 times with a Rifle")
    assert one["expected_damage"] < three["expected_damage"] <= 3 * one["expected_damage"]
    assert one["p_out_of_action"] < three["p_out_of_action"]
    line = fails(capsys, "odds", shot, "-a", "A", "-t", "B", "--shots", "13")
    assert "--shots" in line


def test_a_table_too_wide_for_the_terminal_prints_one_block_per_row(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from tactica.cli import common

    monkeypatch.setattr(common.console, "width", 60)
    code, out, err = run(capsys, "matrix", "skirmishers", "-w", "smg", "-t", "trooper",
                         "--range", "10", "--long")
    assert code == 0, err
    assert "…" not in out and "┃" not in out
    assert "expected damage per AP" in out and "30-degree arc: 3 shots" in out


def test_exact_is_refused_where_battles_give_estimates(
        capsys: pytest.CaptureFixture[str]) -> None:
    duel = str(Path(__file__).resolve().parents[2] / "examples" / "nebulia" / "duel.yaml")
    for argv in (("simulate", duel, "-n", "2", "--exact"),
                 ("versus", "skirmishers", "--red", "smg", "--blue", "rifle", "--exact"),
                 ("sweep", duel, "-v", "rulings.NEB-6=die,characteristic", "-n", "2",
                  "--exact")):
        assert fails(capsys, *argv).startswith("error: --exact: win rates from battles")


def test_nebulia_squads_stand_in_columns_range_tiles_apart() -> None:
    game = get_ruleset("nebulia")
    scenario, took, _ = squad_scenario(
        game, {"red": parse_squad("2xbreacher", what="--red"),
               "blue": parse_squad("trooper", what="--blue")}, range=6,
        rulings={"NEB-3": "manhattan"})
    units = scenario.data["units"]
    assert took == 6 and scenario.data["first"] == "red"
    red = [u["at"] for u in units.values() if u["side"] == "red"]
    blue = [u["at"] for u in units.values() if u["side"] == "blue"]
    assert red[0][1] == blue[0][1] and blue[0][0] - red[0][0] == 6
    assert {u["profile"] for u in units.values()} == {"breacher", "trooper"}
    assert "nebulia-operations" in squad_games()
    report = versus(game, "breacher", "trooper", ranges=[3], battles=3, seed=1, workers=1)
    assert report.points[0].battles == 6


def _both_orders(report: object, red: int, blue: int, battles: int) -> None:
    """Both runs played, with the squads as built, and every battle counted once."""
    point = report.points[0]  # type: ignore[attr-defined]
    assert point.firsts == ("red", "blue") and point.battles == 2 * battles
    for run in point.runs:
        assert run.battles == battles
        assert run.wins["red"] + run.wins["blue"] + run.draws == battles
    assert point.wins("red") + point.wins("blue") + point.draws == 2 * battles
    doc = report.to_dict()  # type: ignore[attr-defined]
    assert len(doc["squads"]["red"]["troopers"]) == red
    assert len(doc["squads"]["blue"]["troopers"]) == blue
    assert [r["first"] for r in doc["points"][0]["runs"]] == ["red", "blue"]
    rows = report.csv_table().rows  # type: ignore[attr-defined]
    assert [r[1] for r in rows][2] == "both"
    assert sum(rows[2][i] for i in (3, 6, 9)) == pytest.approx(1.0)


def test_arc_squads_stand_the_range_apart_without_a_map() -> None:
    game = get_ruleset("arc")
    scenario, took, notes = squad_scenario(
        game, {"blue": parse_squad("2xdee", what="--blue"),
               "red": parse_squad("bobby+ivy", what="--red")}, range=35)
    assert took == 35 and "range in metres" in notes[0] and "initiative" in notes[0]
    assert "map" not in scenario.data
    units = scenario.data["units"]
    assert [u["side"] for u in units.values()] == ["blue", "blue", "red", "red"]
    assert [u["character"] for u in units.values()] == ["dee", "dee", "bobby", "ivy"]
    pairs = {(tuple(r["between"]), r["metres"]) for r in scenario.data["ranges"]}
    assert len(pairs) == 4 and {m for _, m in pairs} == {35}
    state = scenario.new_state()
    assert {f.side for f in state.fighters.values()} == {"blue", "red"}
    report = versus(game, "2xbobby", "dee", ranges=[20], battles=3, seed=2, workers=1)
    _both_orders(report, 2, 1, 3)
    assert report.points[0].range == 20 and not report.sets_first
    assert report.table().columns[1].name == "listed first"
    again = versus(game, "2xbobby", "dee", ranges=[20], battles=3, seed=2, workers=1)
    assert again.to_dict() == report.to_dict()


def test_unhex_squads_stand_at_the_ends_of_a_line_of_areas() -> None:
    game = get_ruleset("unhex")
    scenario, took, notes = squad_scenario(
        game, {"red": parse_squad("2xgunman", what="--red"),
               "blue": parse_squad("3xbrawler", what="--blue")}, range=3)
    assert took == 3 and "the range in connections apart" in notes[0]
    zones = scenario.data["map"]
    assert zones["areas"] == ["Area 0", "Area 1", "Area 2", "Area 3"]
    assert all("cover" not in c for c in zones["connections"])
    units = scenario.data["units"]
    assert {u["at"] for u in units.values() if u["side"] == "red"} == {"Area 0"}
    assert {u["at"] for u in units.values() if u["side"] == "blue"} == {"Area 3"}
    assert [u["profile"] for u in units.values()].count("brawler") == 3
    scenario.new_state()
    one, _, _ = squad_scenario(game, {"red": Squad("gunman", ("gunman",)),
                                      "blue": Squad("brawler", ("brawler",))}, range=0)
    assert one.data["map"]["areas"] == ["Area 0"]
    report = versus(game, "2xgunman", "2xbrawler", ranges=[1], battles=3, seed=1, workers=1)
    _both_orders(report, 2, 2, 3)
    assert report.points[0].range == 1


def test_last_odyssey_squads_stand_in_front_and_refuse_a_range(
        capsys: pytest.CaptureFixture[str]) -> None:
    game = get_ruleset("last-odyssey")
    scenario, took, notes = squad_scenario(
        game, {"red": parse_squad("2xrook", what="--red"),
               "blue": parse_squad("3xcop", what="--blue")}, range=None)
    assert took is None and "front row" in notes[0]
    rows = scenario.data["map"]["sides"]
    assert list(rows) == ["red", "blue"]
    assert len(rows["red"]["front"]) == 2 and len(rows["blue"]["front"]) == 3
    units = scenario.data["units"]
    assert [u.get("character") or u.get("enemy") for u in units.values()] == [
        "rook", "rook", "cop", "cop", "cop"]
    scenario.new_state()
    report = versus(game, "rook", "2xcop", battles=3, seed=1, workers=1)
    _both_orders(report, 1, 2, 3)
    assert report.points[0].range is None
    line = fails(capsys, "versus", "last-odyssey", "--red", "rook", "--blue", "cop",
                 "--range", "3")
    assert line.startswith("error: --range: Last Odyssey has no range")


@pytest.mark.parametrize(("game", "good"), [("arc", "dee"), ("unhex", "gunman"),
                                            ("last-odyssey", "cop")])
def test_a_wrong_name_is_one_error_line(capsys: pytest.CaptureFixture[str], game: str,
                                        good: str) -> None:
    line = fails(capsys, "versus", game, "--red", good, "--blue", "2xnobody")
    assert line.startswith("error: --blue: unknown profile 'nobody'") and good in line


def test_versus_command_runs_for_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    for game, red, blue in (("arc", "bobby", "dee"), ("unhex", "gunman", "brawler"),
                            ("last-odyssey", "rook", "cop")):
        code, out, err = run(capsys, "versus", game, "--red", red, "--blue", blue, "-n", "2",
                             "-j", "1", "--json")
        assert code == 0, err
        doc = json.loads(out)
        assert doc["first_moves_first"] is False and doc["points"][0]["battles"] == 4


def test_range_zero_is_the_games_to_take_or_refuse(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "versus", "unhex", "--red", "gunman", "--blue", "brawler",
                         "--range", "0", "-n", "1", "-j", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["points"][0]["range"] == 0  # one area: melee reaches
    line = fails(capsys, "versus", "arc", "--red", "dee", "--blue", "dee", "--range", "0")
    assert line.startswith("error: --range: expected 1 to")


def test_who_moves_first_leads_the_verdict_table_plot_and_json(tmp_path: Path) -> None:
    # At 2 dots the squad that moves first wins nearly every battle, whichever it is: the
    # pooled figures alone would say "no clear difference".
    report = versus("skirmishers", "2xsmg", "2xrifle", ranges=[2], battles=30, seed=1,
                    workers=1)
    point = report.points[0]
    _gap, (lo, _hi), decides = point.first_mover()
    assert decides and lo > 0.2
    verdict = point.verdict(report.squads)
    assert verdict.startswith("who moves first decides this fight at range 2: red (2xsmg) "
                              "moving first, red ")
    assert "over both runs, " in verdict
    table = report.table()
    assert "who moves first decides this fight at range 2" in table.title
    assert [r[1] for r in table.rows] == ["red", "blue", "both"]
    doc = report.to_dict()
    assert doc["first_mover_decides"] == [2]
    first = doc["points"][0]["first_mover"]
    assert first["decides"] and first["ci95"][0] > 0.2
    assert doc["verdicts"][0] == verdict
    assert [r["red_minus_blue"]["clear"] for r in doc["points"][0]["runs"]] == [True, True]
    from tactica.analysis.plots import versus_plot

    fig = versus_plot(report)
    assert [ax.get_title() for ax in fig.axes] == ["red (2xsmg) moves first",
                                                   "blue (2xrifle) moves first", "both runs"]
    width, height = fig.get_size_inches() * 300
    assert width <= 2400 and height <= 3000


def test_no_clear_difference_says_what_the_run_could_have_seen() -> None:
    report = versus("skirmishers", "smg", "rifle", ranges=[3], battles=1, seed=0, workers=1)
    assert "would have shown" in report.points[0].verdict(report.squads)


def test_the_versus_table_fits_80_columns() -> None:
    from rich.console import Console

    from tactica.presentation.tables import NumberFormat

    report = versus("skirmishers", "4xsmg", "4xrifle", ranges=[6], battles=2, seed=0,
                    workers=1)
    console = Console(width=80, record=True)
    console.print(report.table().to_rich(NumberFormat()))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert sum(1 for line in lines if line.startswith("│")) == 3  # no cell wraps
