"""Two more kinds of fuzz inputs: command-line options and sweep Parquet files.

* ``options``: a command of ``tactica`` (simulate, effects, versus, matrix, sweep, odds, dice,
  report, validate) on an example scenario or game, with options whose values are hostile
  (numbers of 30 digits, ``1e26``, ``nan``, ranges of a billion, negative counts, markup,
  control characters, empty). The command must end with a clean exit code: 2 with one
  ``error:`` line and no traceback for a refused value, never an exception. Values are drawn so
  that an accepted run is small (a few battles, one process): a hang is a real one.
* ``sweep-file``: a sweep's Parquet file (made once per process by ``tactica sweep``) with its
  description or its rows changed (fields removed, values of the wrong kind, huge numbers,
  rows repeated, columns dropped); ``tactica report`` of it must refuse it cleanly or make the
  page.

Each kind has its own input maker and target function; :mod:`fuzz_targets` registers them.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tactica.engine.errors import TacticaError

if TYPE_CHECKING:  # fuzz_targets imports this module (it registers its kinds)
    from fuzz_targets import Mutator

__all__ = ["MAKERS", "TARGETS", "run_options", "run_sweep_file", "sweep_seed"]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLES_DUEL_COVER = str(EXAMPLES / "nebulia" / "duel-cover.yaml")
SCENARIOS = ("nebulia/duel.yaml", "nebulia/duel-cover.yaml", "last-odyssey/cop-vs-goblin.yaml",
             "arc/pistol-duel.yaml", "unhex/nightclub-fight.yaml", "skirmishers/shot.yaml")
GAME_OF = {"nebulia": "nebulia-operations", "last-odyssey": "last-odyssey", "arc": "arc",
           "unhex": "unhex", "skirmishers": "skirmishers"}

#: Counts: refused ones, and small accepted ones (an accepted run stays short).
COUNTS = ("0", "-1", "1", "2", "3", "1000000000", "10000001", "99999999999999999999999999",
          "9223372036854775808", "1e26", "nan", "inf", "-inf", "abc", "", "2.5", "0x10",
          "\u0662", "1_000")
#: Lists of numbers (ranges, covers, swept values): small or refused.
LISTS = ("1", "1-3", "0-2/1", "0-1000000000/1", "1-100000000", "99999999999999999999999999",
         "5-1", "1-3/0", "-1", "1,2,3", "", ",", "1-", "-", "a-b", "1-1001", "0-999999/1",
         "1" * 5000, "0-10/99999999999999999999")
#: Floats (--precision): the narrowest refused, the widest refused, junk.
FLOATS = ("1e-160", "0", "-0.1", "0.5", "nan", "inf", "1e308", "0.0001", "abc", "")
SEEDS = ("0", "1", "18446744073709551615", "18446744073709551616", "-1",
         "999999999999999999999999999", "x")


def _hostile(r: random.Random) -> str:
    from fuzz_targets import HOSTILE_NAMES

    return str(r.choice(HOSTILE_NAMES))


def _options_input(m: Mutator) -> list[str]:
    r = m.rng
    scenario = r.choice(SCENARIOS)
    m.game = GAME_OF[scenario.split("/")[0]]
    path = str(EXAMPLES / scenario)
    # (report draws its plots with matplotlib, a worker's memory: its files are the
    # sweep-file kind's, its numbers simulate's)
    command = r.choice(("simulate", "simulate", "effects", "versus", "matrix", "sweep",
                        "odds", "dice", "validate"))
    def pick(choices: tuple[str, ...], normal: str = "2") -> str:
        """A hostile value 2 times in 5, else an ordinary small one."""
        return r.choice(choices) if r.random() < 0.4 else normal

    argv: list[str]
    if command == "simulate":
        argv = ["simulate", path, "-j", "1", "-n", pick(COUNTS)]
        if r.random() < 0.3:
            argv = ["simulate", path, "-j", "1", "--precision", pick(FLOATS, "0.2"),
                    "--max-battles", pick(COUNTS)]
        if r.random() < 0.3:
            argv += ["--max-steps", pick(COUNTS)]
        if r.random() < 0.3:
            argv += ["--compare", r.choice(("NEB-6=die,characteristic", "x=1,2", _hostile(r),
                                            "units.A.defense=1-1000000000"))]
    elif command == "effects":
        argv = ["effects", path, "-j", "1", "-n", pick(COUNTS[:3] + COUNTS[5:]),
                "--max-steps", pick(COUNTS)]
    elif command == "versus":
        argv = ["versus", "nebulia", "--red", pick(("2xtrooper", _hostile(r),
                                                     "99999999999999xtrooper"), "trooper"),
                "--blue", "scout", "-j", "1", "-n", pick(COUNTS[:4] + COUNTS[5:]),
                "--range", pick(LISTS, "1-3")]
    elif command == "matrix":
        argv = ["matrix", pick(("arc", "unhex", _hostile(r)), "nebulia"), "--range",
                pick(LISTS, "1-3"), "--cover", pick(LISTS, "0")]
    elif command == "sweep":
        argv = ["sweep", str(EXAMPLES / "nebulia" / "duel-cover.yaml"), "--odds", "-a", "A",
                "-t", "B", "-v", "units.B.defense=" + pick(LISTS, "1-3")]
        if r.random() < 0.5:
            argv += ["-v", "units.B.armor=" + pick(LISTS, "1-3")]
    elif command == "odds":
        argv = ["odds", path, "--table", "--decimals", pick(COUNTS)]
    elif command == "dice":
        argv = ["dice", pick(("1d6+" * 300 + "x", _hostile(r), "99999999999999d6"), "2d6"),
                "--seed", pick(SEEDS, "1"), "--decimals", pick(COUNTS)]
    elif command == "report":
        argv = ["report", path, "-n", pick(COUNTS[:4] + COUNTS[5:]), "-j", "1", "--seed",
                pick(SEEDS, "1"), "-o", str(_scratch() / "report.html")]
    else:
        argv = ["validate", path]
    if r.random() < 0.2:  # an option the command does not know, or a value in its place
        argv.insert(r.randrange(2, len(argv) + 1), r.choice(("--bogus", "-n", "--seed",
                                                             _hostile(r), "--")))
    if r.random() < 0.1:
        argv += ["--seed", pick(SEEDS, "1")]
    return argv


@cache
def _scratch() -> Path:
    return Path(tempfile.mkdtemp(prefix="tactica-fuzz-cli-"))


def run_options(argv: list[str]) -> str:
    """``tactica ARGV`` in this process: an exception escaping it is a crash; a refusal must
    be one ``error:`` line (exit code 2) without a traceback."""
    from tactica.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    text = err.getvalue()
    if "Traceback" in text:
        raise AssertionError(f"a traceback: {text[-300:]}")
    if code == 2:
        first = text.strip().splitlines()[0] if text.strip() else ""
        if not first.startswith("error: ") or len(first) > 400:
            raise AssertionError(f"a refusal that is not one error: line: {text[:300]!r}")
        raise TacticaError(first)  # a clean refusal
    if code not in (0, 1):
        raise AssertionError(f"exit code {code}: {text[:300]!r}")
    return f"exit {code}"


# --------------------------------------------------------------------------------------------
# Sweep files


@cache
def sweep_seed() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The description and rows of a real sweep (odds and simulations), made once."""
    import pyarrow.parquet as pq

    from tactica.analysis.sweep import META_KEY
    from tactica.cli import main

    path = _scratch() / "seed.parquet"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["sweep", str(EXAMPLES / "nebulia" / "duel-cover.yaml"), "-v",
                     "units.B.defense=1,2", "-n", "4", "-j", "1", "--odds", "-a", "A", "-t",
                     "B", "-o", str(path)])
    assert code == 0, "the seed sweep could not be made"
    table = pq.read_table(str(path))
    return json.loads(table.schema.metadata[META_KEY]), table.to_pylist()


def _sweep_file_input(m: Mutator) -> tuple[bytes | None, list[dict[str, Any]], int]:
    r = m.rng
    m.game = "sweep-file"
    meta, rows = copy.deepcopy(sweep_seed())
    raw: bytes | None = None
    roll = r.random()
    if roll < 0.4:
        meta = m.data(meta, r.randint(1, 3))
    elif roll < 0.5:
        raw = r.choice((b"{not json", b"[]", b"null", b'"x"', b"", b"\xff\xfe",
                        json.dumps(meta).encode()[: r.randint(0, 40)]))
    if r.random() < 0.5 and rows:
        for _ in range(r.randint(1, 3)):
            row = r.choice(rows)
            key = r.choice(sorted(row))
            if r.random() < 0.2:
                row.pop(key)
            else:
                row[key] = m.value(row[key])
    repeat = r.choice((1, 1, 1, 2, 1000, 30_000))
    return raw if raw is not None else _dumps(meta), rows, repeat


def _dumps(meta: Any) -> bytes:
    try:
        return json.dumps(meta).encode()
    except (TypeError, ValueError, RecursionError):
        return b"{}"


def run_sweep_file(value: tuple[bytes | None, list[dict[str, Any]], int]) -> str:
    """Write the changed sweep file and make its report (without plots)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from tactica.analysis.report import sweep_report
    from tactica.analysis.sweep import META_KEY

    raw, rows, repeat = value
    try:
        table = pa.Table.from_pylist(rows)
    except (pa.ArrowException, TypeError, ValueError, OverflowError, RecursionError):
        return "not writable"  # pyarrow itself refuses the rows: no file to read
    if repeat > 1 and table.num_rows:
        table = table.take(pa.array([i % table.num_rows for i in range(min(
            repeat * table.num_rows, 25_000))]))  # past the bound, in little memory
    table = table.replace_schema_metadata({META_KEY: raw or b""})
    path = _scratch() / "edited.parquet"
    try:
        pq.write_table(table, str(path))
    except pa.ArrowException:  # a column pyarrow cannot write (an empty struct): no file
        return "not writable"
    sweep_report(path, plots=False)
    return "report"


MAKERS = {"options": _options_input, "sweep-file": _sweep_file_input}
TARGETS = {"options": run_options, "sweep-file": run_sweep_file}
