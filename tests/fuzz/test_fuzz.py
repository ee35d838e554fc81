"""Fuzzing, bounded for CI time: scenario files of every game, the dice language, fight logs
and the lines typed at ``play`` never crash (only a clean TacticaError refuses an input).

Hypothesis draws both seeds of the mutator (changed example scenarios, changed real logs, the
game master's words) and raw text. The long run, ``make fuzz``, tries 100,000 inputs with a
time and memory limit each (``tests/fuzz/long_run.py``).
"""

from __future__ import annotations

import json
import random

import fuzz_cli_inputs as ft_cli
import fuzz_targets as ft
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactica.engine.errors import TacticaError


def bounded(examples: int) -> settings:
    """Settings of a fuzz test: ``examples`` inputs, the same ones every run, no deadline
    (the shared CI machine is slow at times; the long run bounds the time of each input)."""
    return settings(max_examples=examples, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def _bounded(kind: str, value: object) -> str:
    """Run one input: only a TacticaError refuses it. Its time is not measured here (a shared
    machine may be slow at any moment): the inputs' work is bounded by the limits, and the
    long run (``make fuzz``) stops and reports any input that hangs."""
    return ft.run_input(kind, value)


@bounded(120)
@given(st.sampled_from(["scenario", "map", "dice", "log", "play"]), st.integers(0, 2**32))
def test_mutated_inputs_of_every_kind(kind: str, seed: int) -> None:
    _bounded(kind, ft.make_input(kind, seed))


@bounded(60)
@given(st.sampled_from(ft.GAMES), st.integers(0, 2**32))
def test_mutated_scenarios_and_maps_of_every_game(game: str, seed: int) -> None:
    """Every game's scenarios and maps, changed (huge extents, hostile names among the
    changes): a clean refusal or a battle, never a crash."""
    mine = [(n, t) for n, t in ft.seeds().scenarios if n.startswith(game + "/")]
    maps = [(n, t) for n, t in ft.seeds().maps if n.startswith(game + "/")]
    m = ft.Mutator(random.Random(seed))
    _bounded("scenario", ft.mutated_yaml(m, *m.rng.choice(mine)))
    if maps:
        _bounded("map", ft.mutated_yaml(m, *m.rng.choice(maps)))


def test_the_seeds_hold_all_five_games() -> None:
    s = ft.seeds()
    for game in ft.GAMES:
        assert any(n.startswith(game + "/") for n, _ in s.scenarios), game
        assert any(n.startswith(game + "/") for n, _ in s.maps), game
        assert dict(s.logs)[game], game


_YAML_BITS = st.sampled_from(["game: ", "unhex", "last-odyssey", "nebulia-operations", "map:",
                              " kind: ", "grid", "zones", "rows", "tiles: ", "units:",
                              "\n  A: ", "{side: red, profile: trooper}", "[", "]", "{", "}",
                              "&a ", "*a", "- ", ": ", "\n", "  ", "9" * 30, "-1", "'",
                              "content: [", "/dev/zero", "max_rounds: ", "at: [", "0, 0]"])


@bounded(80)
@given(st.lists(_YAML_BITS, max_size=40).map("".join))
def test_scenario_text_built_from_pieces(text: str) -> None:
    _bounded("scenario", text)


@bounded(60)
@given(st.text(max_size=300))
def test_any_scenario_text(text: str) -> None:
    _bounded("scenario", text)


@bounded(150)
@given(st.text(alphabet="0123456789d+-*x()khl<>=% ", max_size=30))
def test_dice_text(text: str) -> None:
    _bounded("dice", text)


_RECORD = st.fixed_dictionaries({"type": st.sampled_from(
    ["resolved", "action", "rolled", "decided", "battle-ended", "neb.round-started",
     "neb.attacked", "neb.damaged", "neb.moved", "tactica-log", "nope"])},
    optional={"label": st.text(max_size=8), "value": st.integers(-5, 20),
              "faces": st.lists(st.integers(-2, 12), max_size=3), "unit": st.text(max_size=3),
              "amount": st.one_of(st.integers(-3, 5), st.text(max_size=2)),
              "round": st.integers(0, 3), "first": st.sampled_from(["red", "blue", "x"])})


@bounded(60)
@given(st.lists(_RECORD, max_size=8), st.integers(1, 60), st.binary(max_size=20))
def test_logs_with_made_up_records(records: list[dict[str, object]], keep: int,
                                   tail: bytes) -> None:
    head = ft.seeds().log_lines[:keep]
    lines = [*head, *(json.dumps(r) for r in records)]
    _bounded("log", ("\n".join(lines) + "\n").encode() + tail)


@bounded(40)
@given(st.binary(max_size=400))
def test_any_log_bytes(data: bytes) -> None:
    _bounded("log", data)


@bounded(40)
@given(st.sampled_from([f"{game}/{file}" for game, file in ft.PLAYED.items()]),
       st.lists(st.text(max_size=15), max_size=20))
def test_any_lines_typed_at_play(scenario: str, lines: list[str]) -> None:
    _bounded("play", (scenario, lines))


def test_digits_that_are_not_0_to_9_are_not_numbers_at_play() -> None:
    """``str.isdigit`` accepts ``²`` and 5,000 nines, which ``int`` refuses: found by the fuzzer
    (a crash at the first prompt of every game)."""
    typed = ["²", "9" * 5000, "odds ²", "odds " + "9" * 5000, "history ³", "1" + "٣", "quit"]
    for game, file in ft.PLAYED.items():
        assert ft.run_play(f"{game}/{file}", typed) in ("stopped", "finished"), game


@bounded(30)
@given(st.integers(0, 2**32))
def test_mutated_command_line_options(seed: int) -> None:
    """Hostile option values (numbers of 30 digits, 1e26, ranges of a billion, markup) on
    every long command: a clean exit, or one ``error:`` line (tests/fuzz/fuzz_cli_inputs.py)."""
    _bounded("options", ft.make_input("options", seed))


@bounded(15)
@given(st.integers(0, 2**32))
def test_mutated_sweep_files(seed: int) -> None:
    _bounded("sweep-file", ft.make_input("sweep-file", seed))


def test_a_sweep_file_whose_later_point_lost_its_paired_difference_is_refused() -> None:
    """Found by the fuzzer (sweep-file:252): the plot of paired differences read None."""
    assert ft.run_input("sweep-file", ft.make_input("sweep-file", 252)) == "error"


@pytest.mark.parametrize("argv", [
    ["sweep", ft_cli.EXAMPLES_DUEL_COVER, "--odds", "-a", "A", "-t", "B", "-v",
     "units.B.defense=" + "1" * 5000],
    ["matrix", "x" * 300, "--range", "1"],
    ["matrix", "é" * 200],
    ["sweep", "x" * 300, "-v", "range=1-3", "--odds"],
    ["report", "x" * 300],
])
def test_what_the_long_run_found_in_options_is_one_error_line(argv: list[str]) -> None:
    """Found by ``make fuzz``'s options kind: a swept value of 5,000 digits (int() refused
    it), a GAME or file too long for a file name (``is_file`` raised)."""
    with pytest.raises(TacticaError, match=r"^error: "):
        ft_cli.run_options(argv)


def test_what_the_long_run_found_in_sweep_files_is_refused() -> None:
    """Found by ``make fuzz``'s sweep-file kind (sweep-file:17962): a parameter's column
    that is not the one its path gives (a KeyError in the report's tables)."""
    assert ft.run_input("sweep-file", ft.make_input("sweep-file", 17962)) == "error"


def test_a_sweep_file_whose_simulation_rows_lost_their_seed_is_refused() -> None:
    """Found by ``make fuzz``'s sweep-file kind (sweep-file:53037): the seed column removed
    from the simulation rows (a KeyError in the report's tables)."""
    assert ft.run_input("sweep-file", ft.make_input("sweep-file", 53037)) == "error"


def test_a_sweep_file_pyarrow_cannot_write_is_no_input() -> None:
    """Found by ``make fuzz`` (sweep-file:53405): a row changed into an empty mapping is a
    column Parquet cannot hold; the fuzzer has no file to give ``report``, and says so."""
    assert ft.run_input("sweep-file", ft.make_input("sweep-file", 53405)) == "not writable"
