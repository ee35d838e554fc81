"""Numbers typed on the command line are bounded before anything is built from them: one
``error:`` line, exit code 2, and little memory (docs/limits.md, "Numbers typed on the command
line")."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from tactica.analysis.matrix import parse_numbers
from tactica.cli import main
from tactica.engine.errors import TacticaError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DUEL = str(EXAMPLES / "nebulia" / "duel-cover.yaml")

#: Each refused input, and a piece of its error line.
REFUSED: list[tuple[list[str], str]] = [
    (["matrix", "nebulia", "--range", "0-1000000000/1"], "--range: numbers of at most"),
    (["matrix", "nebulia", "--range", "1-100000000"], "--range: numbers of at most"),
    (["matrix", "nebulia", "--range", "0-999999/1"], "--range: at most 1,000 numbers"),
    (["matrix", "arc", "--range", "1-1000"], "49,000 matchups, more than 1,000"),
    (["matrix", "nebulia", "--cover", "0-1000000"], "--cover: at most 1,000 numbers"),
    (["versus", "nebulia", "--red", "trooper", "--blue", "scout", "--range",
      "99999999999999999999999999"], "--range: numbers of at most"),
    (["versus", "nebulia", "--red", "trooper", "--blue", "scout", "--range",
      "1-1000000000"], "--range: numbers of at most"),
    (["versus", "nebulia", "--red", "trooper", "--blue", "scout", "--range", "1-200"],
     "--range: at most 100 ranges"),
    (["sweep", DUEL, "--odds", "-a", "A", "-t", "B", "-v", "units.B.defense=1-1000000000"],
     "--vary units.B.defense: numbers of at most"),
    (["sweep", DUEL, "--odds", "-a", "A", "-t", "B", "-v", "units.B.defense=1-100", "-v",
      "units.B.armor=0-99"], "10,000 points, more than 1,000"),
    (["simulate", DUEL, "--max-steps", "9223372036854775808"], "--max-steps: expected 1 to"),
    (["effects", DUEL, "--max-steps", "1e26"], "'--max-steps'"),
    (["effects", DUEL, "--max-steps", "99999999999999999999"], "--max-steps: expected 1 to"),
    (["simulate", DUEL, "--precision", "1e-160", "--max-battles", "10000000"],
     "--precision: expected a half width from"),
    (["simulate", DUEL, "--battles", "1000000000"], "'--battles'"),
    (["simulate", DUEL, "--decimals", "99"], "'--decimals'"),
    (["simulate", DUEL, "-n", "10", "-j", "100000"], "--workers: expected 1 to 256"),
    (["simulate", DUEL, "-n", "10", "--seed", "999999999999999999999999999"],
     "--seed: expected a whole number from 0 to 2^64 - 1"),
    (["versus", "nebulia", "--red", "trooper", "--blue", "scout", "--seed", "1" * 30],
     "--seed"),
    (["simulate", DUEL, "--bogus"], "No such option: --bogus"),
    (["validate", DUEL, "x" * 500], "unexpected extra argument"),  # found by make fuzz
]


@pytest.mark.parametrize(("argv", "says"), REFUSED, ids=[" ".join(a[:1] + a[-2:])
                                                          for a, _ in REFUSED])
def test_a_number_out_of_bounds_is_one_error_line_before_anything_is_built(
        argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    tracemalloc.start()
    try:
        code = main(argv)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert len(lines[0]) <= 400
    assert says in lines[0], lines[0]
    assert "Traceback" not in err and "╭" not in err
    assert peak < 300 * 1024 * 1024, f"{peak / 2**20:.0f} MB"


def test_parse_numbers_counts_before_it_builds() -> None:
    assert parse_numbers("1-20/5,3", what="--range") == [1, 6, 11, 16, 3]
    assert len(parse_numbers("1-1000", what="--range")) == 1000
    with pytest.raises(TacticaError, match="at most 1,000 numbers"):
        parse_numbers("1-1000,2000", what="--range")
    with pytest.raises(TacticaError, match="at most 1,000,000"):
        parse_numbers("5-1000001", what="--range")
    with pytest.raises(TacticaError, match="at most 1,000,000"):
        parse_numbers("9" * 5000, what="--range")
