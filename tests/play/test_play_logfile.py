"""The fight's log file: one record a line, a torn last line survived, damage reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tactica.rulesets  # noqa: F401  (registers the games' records)
from tactica.engine.battle import Resolved
from tactica.engine.errors import TacticaError
from tactica.engine.events import ActionTaken, BattleEnded, Rolled
from tactica.play.logfile import (
    LogHeader,
    LogWriter,
    create_log,
    digest_of,
    read_log,
    repair_log,
)
from tactica.rulesets.nebulia.records import Attack, Attacked, RoundStarted

HEADER = LogHeader("nebulia-operations", "duel.yaml", "0123456789abcdef", {"NEB-3": "chebyshev"},
                   7, {"blue": "greedy"})
STEP = [
    RoundStarted(1, "red"),
    Resolved(),
    ActionTaken("red", Attack("A", "rifle", "B")),
    Rolled("to hit", 1, (4,)),
    Rolled("armor", 0, (8,)),
    Attacked("A", "rifle", "B", False, 1, 0, 1),
    Resolved(),
]


def write(path: Path, records: list[object]) -> bytes:
    with create_log(path, HEADER, durable=False) as w:
        for r in records:
            w.append(r)
    return path.read_bytes()


def test_header_and_records_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    data = write(path, STEP)
    lines = data.decode().splitlines()
    assert len(lines) == 1 + len(STEP)
    assert json.loads(lines[0])["type"] == "tactica-log"
    assert json.loads(lines[4]) == {"type": "rolled", "label": "to hit", "value": 1, "faces": [4]}
    got = read_log(path)
    assert got.header == HEADER
    assert list(got.records) == STEP
    assert got.torn == 0 and got.size == len(data)


def test_each_record_is_on_disk_before_append_returns(tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    create_log(path, HEADER).close()
    with LogWriter(path) as w:
        w.append(STEP[0])
        assert read_log(path).records == (STEP[0],)  # read by another reader, writer still open
        w.append(STEP[1])
        assert read_log(path).records == tuple(STEP[:2])


def test_an_existing_log_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    data = write(path, STEP)
    with pytest.raises(TacticaError, match=r"fight\.jsonl.*already there.*--resume"):
        create_log(path, HEADER)
    assert path.read_bytes() == data


@pytest.mark.parametrize("tail", [b'{"type":"neb.round-st', b"\x00\x00\x00\x00", b"{"])
def test_a_torn_last_line_is_left_out_and_repaired(tmp_path: Path, tail: bytes) -> None:
    path = tmp_path / "fight.jsonl"
    data = write(path, STEP)
    path.write_bytes(data + tail)
    got = read_log(path)
    assert list(got.records) == STEP and got.torn == len(tail)
    assert path.read_bytes() == data + tail  # reading changes nothing
    repair_log(path, durable=False)
    assert path.read_bytes() == data


def test_results_of_a_step_without_its_marker_are_dropped_inputs_kept(tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    full = write(path, STEP)
    cut = full[: full.rindex(b'{"type":"resolved"}')]  # the attack's result, but no marker
    path.write_bytes(cut)
    repaired = repair_log(path, durable=False)
    assert list(repaired.records) == STEP[:5]  # the action and both rolls survive
    assert path.read_bytes() == cut[: cut.index(b'{"type":"neb.attacked"')]


def test_a_finished_battle_keeps_its_last_records(tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    data = write(path, [*STEP, BattleEnded("red", "blue is out")])
    assert list(repair_log(path, durable=False).records)[-1] == BattleEnded("red", "blue is out")
    assert path.read_bytes() == data


def test_a_damaged_line_in_the_middle_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    lines = write(path, STEP).split(b"\n")
    lines[3] = b'{"type":"action","side":"red",GARBAGE'
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(TacticaError, match=r"fight\.jsonl:4: damaged line .*GARBAGE"):
        read_log(path)
    lines[3] = b'{"type":"no-such-record"}'
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(TacticaError, match=r"fight\.jsonl:4: unknown record type 'no-such-record'"):
        read_log(path)


def test_other_files_and_versions_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"hello": 1}\n')
    with pytest.raises(TacticaError, match=r"notes\.jsonl: not a tactica log"):
        read_log(path)
    path.write_text(json.dumps({**HEADER.to_json(), "version": 99}) + "\n")
    with pytest.raises(TacticaError, match="log version 99 is not supported"):
        read_log(path)
    path.write_text(json.dumps({**HEADER.to_json(), "seed": -1}) + "\n")
    with pytest.raises(TacticaError, match="header is damaged"):
        read_log(path)
    with pytest.raises(TacticaError, match=r"missing\.jsonl: no such log"):
        read_log(tmp_path / "missing.jsonl")


def test_a_file_without_a_complete_line_has_no_header(tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    path.write_bytes(b'{"type":"tactica-log","ver')
    got = repair_log(path, durable=False)
    assert got.header is None and got.records == ()
    assert path.read_bytes() == b""
    create_log(path, HEADER, durable=False, replace_empty=True).close()
    assert read_log(path).header == HEADER


def test_the_digest_ignores_key_order_but_not_content() -> None:
    assert digest_of({"a": 1, "b": [1, 2]}) == digest_of({"b": [1, 2], "a": 1})
    assert digest_of({"a": 1}) != digest_of({"a": 2})
