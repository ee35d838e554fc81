"""U+061C (the Arabic letter mark) and the line and paragraph separators U+2028 and U+2029 never
reach the terminal, and are escaped in --json; an error line is at most 400 characters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tactica.cli import main
from tactica.cli.common import print_json
from tactica.presentation.clean import clean_text

SEPARATORS = "\u061c\u2028\u2029"


def test_clean_text_removes_the_letter_mark_and_the_separators() -> None:
    assert clean_text(f"red{SEPARATORS}side") == "redside"
    assert clean_text("a\u2028b", newlines=False) == "ab"


def test_json_escapes_them_and_keeps_the_data(capsys: pytest.CaptureFixture[str]) -> None:
    print_json({"name": f"x{SEPARATORS}y"})
    out = capsys.readouterr().out
    assert not any(c in out for c in SEPARATORS)
    assert "\\u061c\\u2028\\u2029" in out
    assert json.loads(out) == {"name": f"x{SEPARATORS}y"}


def test_a_scenario_name_with_them_prints_without_them(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    source = (Path(__file__).resolve().parents[1] / "examples" / "nebulia" / "duel.yaml"
              ).read_text()
    scenario = tmp_path / "s.yaml"
    named = source.replace("name: Duel in the open",
                           'name: "Duel\\u061c\\u2028\\u2029x"', 1)  # YAML's escapes
    assert named != source
    scenario.write_text(named, encoding="utf-8")
    assert main(["simulate", str(scenario), "-n", "4", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "Duelx" in out and not any(c in out for c in SEPARATORS)


@pytest.mark.parametrize("expression", ["1d6+" * 240 + "x", "x" * 999, "1d6 " * 240,
                                        "1d6+" * 200 + "1d6kh99999999999999999999"])
def test_a_dice_error_line_is_at_most_400_characters(
        expression: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", expression]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ")
    assert all(len(line) <= 400 for line in err.splitlines()), [len(x) for x in err.splitlines()]
