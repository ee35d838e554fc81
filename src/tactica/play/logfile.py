"""The fight's log file: one JSON record a line, each written and flushed to disk as it happens.

Layout (JSON Lines, UTF-8)::

    {"type":"tactica-log","version":1,"game":...,"scenario":...,"digest":...,"rulings":{...},...}
    {"type":"neb.move", ...}        <- the battle's log records, in order (see tactica.battle)
    ...

The first line is the :class:`LogHeader`: which game, which scenario (and a digest of its
content, so a changed file is noticed), the rulings in force, the seed of the virtual dice and
who the computer plays. Every later line is one record of :attr:`tactica.battle.Battle.log`,
written with a single ``write`` and then ``fsync``-ed, so a program killed at any moment leaves
every record it had announced on disk, at most followed by one torn line.

:func:`repair_log` makes such a file fit to continue: it drops a torn last line (or trailing
zero bytes a crash can leave), and the results of a step whose closing marker never reached the
disk. The step's inputs (the action, the rolls and decisions already made) are kept, so resuming
re-runs the step with them and asks only for what is missing.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tactica.battle import Resolved, is_input_record
from tactica.errors import TacticaError
from tactica.events import BattleEnded, dumps, from_json

__all__ = [
    "LOG_FORMAT",
    "LOG_VERSION",
    "LogContents",
    "LogHeader",
    "LogWriter",
    "create_log",
    "digest_of",
    "read_log",
    "repair_log",
]

LOG_FORMAT = "tactica-log"
LOG_VERSION = 1


def digest_of(data: Mapping[str, Any]) -> str:
    """A short, stable digest of a scenario's parsed content (comments and layout ignored)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str,
                      ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class LogHeader:
    """The first line of a log: what the fight is, so that it can be rebuilt and continued."""

    game: str
    scenario: str
    digest: str
    rulings: Mapping[str, str]
    seed: int
    computer: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The header as a JSON mapping (format and version first)."""
        return {
            "type": LOG_FORMAT,
            "version": LOG_VERSION,
            "game": self.game,
            "scenario": self.scenario,
            "digest": self.digest,
            "rulings": dict(self.rulings),
            "seed": self.seed,
            "computer": dict(self.computer),
        }

    @classmethod
    def from_json(cls, data: Any, *, where: str) -> LogHeader:
        """Read a header; anything else raises a TacticaError naming ``where``."""
        if not isinstance(data, Mapping) or data.get("type") != LOG_FORMAT:
            raise TacticaError(f"{where}: not a tactica log (its first line is {data!r:.80})")
        if data.get("version") != LOG_VERSION:
            raise TacticaError(
                f"{where}: log version {data.get('version')!r} is not supported "
                f"(this tactica reads version {LOG_VERSION})"
            )
        try:
            rulings = {str(k): str(v) for k, v in dict(data["rulings"]).items()}
            computer = {str(k): str(v) for k, v in dict(data.get("computer") or {}).items()}
            seed = data["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
                raise TypeError(f"seed {seed!r}")
            return cls(str(data["game"]), str(data["scenario"]), str(data["digest"]), rulings,
                       seed, computer)
        except (KeyError, TypeError, ValueError) as exc:
            raise TacticaError(f"{where}: the log's header is damaged ({exc})") from None


@dataclass(frozen=True)
class LogContents:
    """What a log file holds: its header (``None`` if not even that was written), its records,
    and where the complete lines end (``ends[i]`` is the byte offset after record ``i``)."""

    header: LogHeader | None
    records: tuple[Any, ...]
    header_end: int
    ends: tuple[int, ...]
    torn: int

    @property
    def size(self) -> int:
        """Bytes of complete lines."""
        return self.ends[-1] if self.ends else self.header_end


class LogWriter:
    """Appends records to a log file, each as one line, flushed to the disk before returning.

    ``durable=False`` skips the ``fsync`` (the line still reaches the operating system at once,
    which survives the program being killed but not the machine losing power).
    """

    def __init__(self, path: str | Path, *, durable: bool = True):
        self.path = Path(path)
        self.durable = durable
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND)

    def write_line(self, line: str) -> None:
        """Write one line (without its newline) and make it durable."""
        if self._fd is None:
            raise TacticaError(f"{self.path}: the log is closed")
        data = (line + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        if self.durable:
            os.fsync(self._fd)

    def append(self, record: Any) -> None:
        """Write one battle record (a listener for :class:`tactica.battle.Battle`)."""
        self.write_line(dumps(record))

    def close(self) -> None:
        """Close the file (further appends raise)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _sync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent if str(path.parent) else Path("."), os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def create_log(path: str | Path, header: LogHeader, *, durable: bool = True,
               replace_empty: bool = False) -> LogWriter:
    """Create a new log holding ``header``; an existing file is never overwritten, except a file
    holding no complete line when ``replace_empty`` is set (a header torn by a crash)."""
    p = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    if replace_empty and p.is_file() and b"\n" not in p.read_bytes():
        flags = os.O_WRONLY | os.O_TRUNC
    try:
        fd = os.open(p, flags, 0o644)
    except FileExistsError:
        raise TacticaError(
            f"{p}: a log of another fight is already there; continue it with --resume "
            "or choose another file with --log"
        ) from None
    except OSError as exc:
        raise TacticaError(f"{p}: cannot create the log ({exc.strerror})") from None
    os.close(fd)
    writer = LogWriter(p, durable=durable)
    writer.write_line(json.dumps(header.to_json(), separators=(",", ":"), ensure_ascii=False))
    if durable:
        _sync_dir(p)
    return writer


def read_log(path: str | Path) -> LogContents:
    """Read a log file; a torn last line is left out, a damaged line elsewhere is an error.

    The header is read first and its game's records are registered (through the ruleset
    registry) before the records are parsed.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise TacticaError(f"{p}: no such log; start the fight without --resume") from None
    except OSError as exc:
        raise TacticaError(f"{p}: cannot read the log ({exc.strerror})") from None
    last_newline = data.rfind(b"\n")
    complete = data[: last_newline + 1]
    torn = len(data) - len(complete)
    lines = complete.split(b"\n")[:-1]
    if not lines:
        return LogContents(None, (), 0, (), torn)
    header = LogHeader.from_json(_parse_line(lines[0], p, 1), where=str(p))
    from tactica.ruleset import get_ruleset

    get_ruleset(header.game, where=f"{p}: game")  # registers the game's records
    offset = len(lines[0]) + 1
    header_end = offset
    records: list[Any] = []
    ends: list[int] = []
    for number, line in enumerate(lines[1:], start=2):
        offset += len(line) + 1
        item = _parse_line(line, p, number)
        try:
            records.append(from_json(item))
        except TacticaError as exc:
            raise TacticaError(f"{p}:{number}: {exc}") from None
        ends.append(offset)
    return LogContents(header, tuple(records), header_end, tuple(ends), torn)


def _parse_line(line: bytes, path: Path, number: int) -> Any:
    try:
        return json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        shown = line[:60].decode("utf-8", "replace")
        raise TacticaError(f"{path}:{number}: damaged line {shown!r}") from None


def _kept(records: tuple[Any, ...]) -> int:
    """How many records to keep: drop the results of a step that was never closed."""
    last_closed = -1
    for i, rec in enumerate(records):
        if isinstance(rec, (Resolved, BattleEnded)):
            last_closed = i
    keep = len(records)
    while keep > last_closed + 1 and not is_input_record(records[keep - 1]):
        keep -= 1
    return keep


def repair_log(path: str | Path, *, durable: bool = True) -> LogContents:
    """Read a log and cut it back to what can be continued: no torn line, and no results of a
    step without its closing marker (they are re-derived from the step's recorded inputs)."""
    contents = read_log(path)
    keep = _kept(contents.records)
    repaired = LogContents(contents.header, contents.records[:keep], contents.header_end,
                           contents.ends[:keep], 0)
    if repaired.size != contents.size + contents.torn:
        with open(path, "r+b") as f:
            f.truncate(repaired.size)
            f.flush()
            if durable:
                os.fsync(f.fileno())
    return repaired
