"""``tactica dice`` and ``tactica demo`` on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from tactica.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_gives_exact_and_float_probabilities(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "dice", "2d6", "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert {"expression", "outcomes", "mean", "sd"} <= doc.keys()
    assert doc["expression"] == "2d6"
    seven = next(o for o in doc["outcomes"] if o["value"] == 7)
    assert seven == {"value": 7, "p": pytest.approx(1 / 6), "p_exact": "1/6"}
    assert [o["value"] for o in doc["outcomes"]] == list(range(2, 13))
    assert doc["mean"] == 7.0 and doc["sd"] == pytest.approx(2.41523, abs=1e-5)


def test_json_with_cumulative_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "2d6", "--json", "--at-least", "--at-most")
    rows = {o["value"]: o for o in json.loads(out)["outcomes"]}
    assert code == 0
    assert rows[8]["at_least_exact"] == "5/12" and rows[7]["at_most_exact"] == "7/12"
    assert rows[2]["at_least"] == 1.0


def test_table_shows_every_value_a_bar_and_the_moments(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "dice", "3d6", "--at-least", "--at-most")
    assert code == 0
    for value in range(3, 19):
        assert f" {value} " in out
    assert "at least" in out and "at most" in out and "█" in out
    assert "mean 10.5000" in out and "sd 2.9580" in out


def test_comparison_is_shown_as_zero_or_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "(2d6)>=8")
    assert code == 0
    assert "1 (true)" in out and "0 (false)" in out and "5/12" in out
    code, out, _ = run(capsys, "dice", "2d6+1>=8", "--json")
    doc = json.loads(out)
    assert doc["comparison"] is True and doc["counts_dice"] is False
    assert [o["value"] for o in doc["outcomes"]] == [0, 1]
    assert doc["outcomes"][1]["p_exact"] == "7/12"


def test_a_bare_pool_before_a_comparison_counts_dice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "6d6cs>=5", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["counts_dice"] is True and doc["comparison"] is False
    rows = {o["value"]: o["p_exact"] for o in doc["outcomes"]}
    assert rows[2] == "80/243" and list(rows) == list(range(7))
    code, out, _ = run(capsys, "dice", "6d6>4")
    assert code == 0 and "read as 6d6cs>=4" in out and "counts the dice showing 4 or more" in out
    code, out, _ = run(capsys, "dice", "3d6>=4", "--json")
    assert json.loads(out)["canonical"] == "3d6cs>=4"


def test_help_says_which_form_counts_and_which_compares(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "dice", "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert "3d6>=4 COUNTS the dice" in flat and "(3d6)>=4 COMPARES the total" in flat
    assert "docs/dice.md" in flat


def test_big_pools_answer_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "1000d6")
    assert code == 0 and "mean 3500.0000" in out
    code, out, _ = run(capsys, "dice", "500d10cs>=7", "--json")
    doc = json.loads(out)
    assert code == 0 and len(doc["outcomes"]) == 501 and doc["mean_exact"] == "200"


def test_truncated_explosions_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "d6x", "--explode-depth", "3", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["truncated_exact"] == "1/1296" and doc["explode_depth"] == 3
    assert sum(Fraction(o["p_exact"]) for o in doc["outcomes"]) == 1
    code, out, _ = run(capsys, "dice", "4d6x", "--explode-depth", "3")
    assert code == 0 and "truncated: 3.08e-03" in out and "cut after 3 extra rolls" in out
    code, out, _ = run(capsys, "dice", "2d6", "--json")
    assert json.loads(out)["truncated_exact"] == "0"


def test_json_errors_are_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "dice", "2d6+)", "--json")
    assert code == 2 and err == ""
    doc = json.loads(out)
    assert doc["column"] == 5 and doc["error"].startswith("unexpected ')' at column 5")
    code, out, _ = run(capsys, "dice", "1000000d1000000", "--json")
    assert code == 2 and json.loads(out)["error"].startswith("too many dice")
    code, out, _ = run(capsys, "dice", "d6", "--roll", "2", "--seed", "-1", "--json")
    assert code == 2 and "--seed" in json.loads(out)["error"]


def test_long_tables_are_trimmed_around_the_likeliest_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "dice", "20d10", "--max-rows", "5")
    assert code == 0 and " 110 " in out and " 20 " not in out
    assert "outcomes outside this range" in out
    code, out, _ = run(capsys, "dice", "20d10", "--json")
    assert len(json.loads(out)["outcomes"]) == 181


def test_rolls_are_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    _, a, _ = run(capsys, "dice", "d20", "--roll", "5", "--seed", "4", "--json")
    _, b, _ = run(capsys, "dice", "d20", "--roll", "5", "--seed", "4", "--json")
    rolls = json.loads(a)["rolls"]
    assert rolls == json.loads(b)["rolls"] and len(rolls) == 5
    assert all(1 <= r <= 20 for r in rolls)
    code, out, _ = run(capsys, "dice", "d20", "--roll", "3", "--seed", "4")
    assert code == 0 and "rolled:" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["2d6+)"], "error: unexpected ')' at column 5 in '2d6+)'"),
        (["1000000d1000000"], "error: too many dice: 1000000"),
        (["150d1000kh2"], "error: '150d1000kh2' is too large to compute exactly"),
        (["10000d10"], "error: '10000d10' is too large to hold exactly"),
        (["d6", "--roll", "-1"], "error: --roll needs a count of 0 or more"),
        (["d6", "--roll", "2", "--seed", "-1"], "error: --seed needs a whole number of 0 or more"),
        (["hello"], "error: unknown word 'hello' at column 1"),
        (["2d6>=8"], "error: 2d6>=8 (column 4 in '2d6>=8') counts the dice showing 8 or more"),
        (["6d6>4+2"], "error: ambiguous '>4' after '6d6': write (6d6>4)+2"),
        (["*".join(["999999999"] * 35)], "error: '999999999 * "),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "dice", *args)
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1
    assert "Traceback" not in err


def test_demo_tours_the_games_dice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--dice")
    assert code == 0
    for text in ("2D6", "D10 pools", "21/50", "Percentile", "d20", "4d6kh3"):
        assert text in out


def test_the_installed_command_line_in_a_subprocess() -> None:
    script = "import sys; from tactica.cli import main; sys.exit(main(sys.argv[1:]))"
    ok = subprocess.run(
        [sys.executable, "-c", script, "dice", "2d6", "--json"],
        capture_output=True,
        text=True,
        timeout=600,  # a safety net against a hang, not a measure of speed
        check=False,
    )
    assert ok.returncode == 0
    assert any(o["p_exact"] == "1/6" for o in json.loads(ok.stdout)["outcomes"])
    bad = subprocess.run(
        [sys.executable, "-c", script, "dice", "1000000d1000000"],
        capture_output=True,
        text=True,
        timeout=600,  # a safety net against a hang, not a measure of speed
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: too many dice") and "Traceback" not in bad.stderr
