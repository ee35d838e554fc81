"""``tactica report`` of an edited sweep file: every edit is one ``error:`` line (exit code 2),
never a traceback, and a file of millions of rows is refused from its footer, before a row is
read."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from tactica.analysis.sweep import META_KEY  # noqa: E402
from tactica.cli import main  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = str(EXAMPLES / "nebulia" / "duel-cover.yaml")


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sweep") / "sweep.parquet"
    assert main(["sweep", DUEL, "-v", "units.B.defense=1,2", "-n", "6", "-j", "1", "--odds",
                 "-a", "A", "-t", "B", "-o", str(out)]) == 0
    return out


def _edited(sweep: Path, folder: Path, *, meta: Callable[[dict[str, Any]], Any] | None = None,
            raw: bytes | None = None,
            rows: Callable[[list[dict[str, Any]]], Any] | None = None) -> Path:
    table = pq.read_table(str(sweep))
    data = json.loads(table.schema.metadata[META_KEY])
    records = table.to_pylist()
    if meta is not None:
        meta(data)
    if rows is not None:
        rows(records)
    new = pa.Table.from_pylist(records)
    new = new.replace_schema_metadata({META_KEY: raw if raw is not None
                                       else json.dumps(data).encode()})
    path = folder / "edited.parquet"
    pq.write_table(new, str(path))
    return path


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.__setitem__(key, value)


EDITS: dict[str, tuple[dict[str, Any], str]] = {
    "metadata not JSON": ({"raw": b"{not json"}, "is not JSON"),
    "parameters a text": ({"meta": _set("parameters", "x")}, "parameters"),
    "a parameter without path": ({"meta": lambda d: d["parameters"][0].pop("path")},
                                 "parameters.0.path"),
    "battles a text": ({"meta": _set("battles", "abc")}, "battles"),
    "seed too large": ({"meta": _set("seed", 2**70)}, "seed"),
    "a rulings cell not JSON": ({"rows": lambda rs: rs[0].__setitem__("rulings", "{x")},
                                "rulings: expected a JSON mapping"),
    "a parameter's column not its path's": (
        {"meta": lambda d: d["parameters"][0].__setitem__("column", "nowhere")},
        "has the column 'nowhere', not 'units_B_defense'"),
    "a parameter path missing from the columns": (
        {"rows": lambda rs: [r.pop("units_B_defense") for r in rs]},
        "has no column 'units_B_defense'"),
    "a probability as a text": ({"rows": lambda rs: [r.__setitem__("p", "high") for r in rs
                                                     if r["kind"] == "simulation"]}, "row"),
    "a kind unknown": ({"rows": lambda rs: rs[0].__setitem__("kind", "magic")}, "kind"),
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_every_edit_of_a_sweep_file_is_one_error_line(
        name: str, sweep: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit, says = EDITS[name]
    path = _edited(sweep, tmp_path, **edit)
    code = main(["report", str(path), "-o", str(tmp_path / "r.html")])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert says in lines[0], lines[0]
    assert not (tmp_path / "r.html").exists()


def test_the_sweep_as_written_makes_a_report(sweep: Path, tmp_path: Path) -> None:
    assert main(["report", str(sweep), "-o", str(tmp_path / "r.html")]) == 0
    assert "units.B.defense" in (tmp_path / "r.html").read_text()


def test_millions_of_identical_rows_are_refused_before_a_row_is_read(
        sweep: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = pq.read_table(str(sweep)).slice(0, 1)
    path = tmp_path / "many.parquet"
    many = one.take(pa.array(np.zeros(2_000_000, dtype=np.int64)))  # a small file: they repeat
    pq.write_table(many, str(path))
    assert path.stat().st_size < 5 * 1024 * 1024
    tracemalloc.start()
    try:
        code = main(["report", str(path), "-o", str(tmp_path / "r.html")])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    err = capsys.readouterr().err
    assert code == 2 and "2,000,000 rows, more than a sweep writes" in err
    assert peak < 300 * 1024 * 1024
