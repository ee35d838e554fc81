"""Fuzzing, bounded for CI time: scenario files of every game, the dice language, fight logs
and the lines typed at ``play`` never crash (only a clean TacticaError refuses an input).

Hypothesis draws both seeds of the mutator (changed example scenarios, changed real logs, the
game master's words) and raw text. The long run, ``make fuzz``, tries 100,000 inputs with a
time and memory limit each (``tests/fuzz/long_run.py``).
"""

from __future__ import annotations

import json

import fuzz_targets as ft
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


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
@given(st.sampled_from(["scenario", "dice", "log", "play"]), st.integers(0, 2**32))
def test_mutated_inputs_of_every_kind(kind: str, seed: int) -> None:
    _bounded(kind, ft.make_input(kind, seed))


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
@given(st.sampled_from(["duel.yaml", "cop-vs-goblin.yaml", "nightclub-fight.yaml"]),
       st.lists(st.text(max_size=15), max_size=20))
def test_any_lines_typed_at_play(scenario: str, lines: list[str]) -> None:
    _bounded("play", (scenario, lines))
