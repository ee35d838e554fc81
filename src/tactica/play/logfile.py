"""The fight's log file: one JSON record a line, each written and flushed to disk as it happens.

Layout (JSON Lines, UTF-8)::

    {"type":"tactica-log","version":1,"game":...,"scenario":...,"digest":...,"rulings":{...},...}
    {"type":"abc.move", ...}        <- the battle's log records, in order (see
    tactica.engine.battle) ...

The first line is the :class:`LogHeader`: which game, which scenario (and a digest of its
content, so a changed file is noticed), the rulings in force, the seed of the virtual dice and
who the computer plays, closed by ``check``: a digest of all those fields. Reading a log
recomputes it, so a header edited by hand (a ruling, the seed, the game, the digest, the
scenario's path, the computer's sides) is refused at line 1 instead of continuing the fight
under rules it did not start with. The check is a plain digest, not a signature: it catches
edits and damage, not someone who recomputes it on purpose. Version 1 logs (tactica 0.2.0 and
earlier) carry no check; they are still read, and :attr:`LogHeader.checked` says so. Every
later line is one record of :attr:`tactica.engine.battle.Battle.log`,
written with a single ``write`` and then ``fsync``-ed, so a program killed at any moment leaves
every record it had announced on disk, at most followed by one torn line.

:func:`repair_log` makes such a file fit to continue: it drops a torn last line (or trailing
zero bytes a crash can leave), and the results of a step whose closing marker never reached the
disk. The step's inputs (the action, the rolls and decisions already made) are kept, so resuming
re-runs the step with them and asks only for what is missing.

One writer per log: :class:`LogWriter` holds an operating system lock on the file (``flock``)
from the moment it opens it until it is closed (or the program ends, however it ends), and a
second writer is refused. A file that does not start as a tactica log header is never changed.
A write that fails (disk full, file too large, a read-only disk) is undone, so the file keeps
every complete record it had, and reported as a :class:`~tactica.engine.errors.TacticaError`.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tactica.engine.battle import Resolved, is_input_record
from tactica.engine.errors import TacticaError
from tactica.engine.events import BattleEnded, LogRecord, dumps, from_json, record
from tactica.engine.limits import MAX_LOG_BYTES, MAX_SEED
from tactica.engine.limits import MAX_LOG_LINE_BYTES as MAX_LINE_BYTES

if sys.platform != "win32":  # POSIX; on Windows a log is not locked
    import fcntl

__all__ = [
    "LOG_FORMAT",
    "LOG_VERSION",
    "DiceMode",
    "LogContents",
    "LogHeader",
    "LogWriter",
    "create_log",
    "digest_of",
    "is_log_start",
    "lock",
    "read_bytes_bounded",
    "read_log",
    "repair_log",
]

LOG_FORMAT = "tactica-log"
#: The version written: 2 closes the header with its ``check``, 3 carries the fight's own
#: files (its scenario and content packs: ``files``).
LOG_VERSION = 3
#: The versions read (1: a header without a check; 2: without the files).
READ_VERSIONS = (1, 2, 3)
#: Every field a header may hold.
HEADER_FIELDS = frozenset({"type", "version", "game", "scenario", "digest", "rulings", "seed",
                           "computer", "files", "check"})
#: How every header line starts (the writer puts the format first, without spaces).
HEADER_START = b'{"type":"' + LOG_FORMAT.encode() + b'"'


@record("table.dice")
class DiceMode(LogRecord):
    """The table chose who rolls from here on: ``ask`` (dice typed by hand) or ``auto``
    (tactica rolls). Not a record of the battle: a resumed fight keeps the choice, and the
    battle's replay never sees it."""

    mode: str

    def __post_init__(self) -> None:
        if self.mode not in ("ask", "auto"):
            raise ValueError(f"dice mode {self.mode!r} (expected ask or auto)")


def is_log_start(data: bytes) -> bool:
    """True if ``data`` (a file's content without a complete line) can be the beginning of a
    tactica log: empty, zero bytes a crash left, or a prefix of a header line."""
    head = data.rstrip(b"\x00")
    if not head.strip(b"\x00"):
        return True
    if b"\x00" in head:
        return False
    n = min(len(head), len(HEADER_START))
    return head[:n] == HEADER_START[:n]


def _not_a_log_file(path: Path) -> TacticaError | None:
    """The error for a log path that names a folder or a link leading nowhere, else None."""
    if path.is_dir():
        return TacticaError(f"{path}: is a folder; name the log's file (for example "
                            f"{path / 'fight.log.jsonl'})")
    if path.is_symlink() and not path.exists():
        try:
            target = os.readlink(path)
        except OSError:  # pragma: no cover - gone meanwhile
            target = "?"
        return TacticaError(f"{path}: a link to {target[:120]!r}, which leads nowhere; name "
                            "the log's own file, not a broken link")
    return None


def _io_error(path: Path, what: str, exc: OSError) -> TacticaError:
    reason = exc.strerror or str(exc)
    hint = {
        errno.ENOSPC: "free some space on the disk",
        errno.EDQUOT: "free some space (the disk quota is full)",
        errno.EFBIG: "the file has reached the largest size allowed",
        errno.EROFS: "the disk is read-only: copy the log to a writable place",
        errno.EACCES: "check the file's permissions",
        errno.EPERM: "check the file's permissions",
    }.get(exc.errno or 0, "")
    return TacticaError(f"{path}: cannot {what} ({reason})" + (f"; {hint}" if hint else ""))


def digest_of(data: Mapping[str, Any]) -> str:
    """A short, stable digest of a scenario's parsed content (comments and layout ignored)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str,
                      ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class LogHeader:
    """The first line of a log: what the fight is, so that it can be rebuilt and continued.

    ``version`` is the log format's (:data:`LOG_VERSION` for a new log); from version 2 the
    line ends with a ``check`` over every other field (see :meth:`check`)."""

    game: str
    scenario: str
    digest: str
    rulings: Mapping[str, str]
    seed: int
    computer: Mapping[str, str] = field(default_factory=dict)
    version: int = LOG_VERSION
    #: The fight's own files (version 3 on): ``{"scenario": its content as parsed, "packs":
    #: {name: text}}`` with every content pack of the scenario's folder, so that the log
    #: resumes anywhere; ``None`` when the log does not carry them.
    files: Mapping[str, Any] | None = None

    @property
    def checked(self) -> bool:
        """True if the header carries a check (version 2 on); a version 1 header is taken as
        written."""
        return self.version >= 2

    def _fields(self) -> dict[str, Any]:
        return {
            "type": LOG_FORMAT,
            "version": self.version,
            "game": self.game,
            "scenario": self.scenario,
            "digest": self.digest,
            "rulings": dict(self.rulings),
            "seed": self.seed,
            "computer": dict(self.computer),
            **({"files": self.files} if self.version >= 3 else {}),
        }

    def check(self) -> str:
        """The digest of every field of the header (what its ``check`` must be)."""
        return digest_of(self._fields())

    def to_json(self) -> dict[str, Any]:
        """The header as a JSON mapping (format and version first, its check last)."""
        out = self._fields()
        if self.checked:
            out["check"] = self.check()
        return out

    @classmethod
    def from_json(cls, data: Any, *, where: str) -> LogHeader:
        """Read a header; anything else, and a header whose check does not match its fields,
        raises a TacticaError naming ``where`` (the log file; the header is its line 1)."""
        if not isinstance(data, Mapping) or data.get("type") != LOG_FORMAT:
            raise TacticaError(f"{where}: not a tactica log (its first line is {data!r:.80})")
        version = data.get("version")
        if version not in READ_VERSIONS or isinstance(version, bool):
            raise TacticaError(
                f"{where}:1: log version {version!r} is not supported "
                f"(this tactica reads versions {', '.join(map(str, READ_VERSIONS))})"
            )
        try:
            rulings = {str(k): str(v) for k, v in dict(data["rulings"]).items()}
            computer = {str(k): str(v) for k, v in dict(data.get("computer") or {}).items()}
            seed = data["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
                raise TypeError(f"seed {str(seed)[:30]!r}: expected a whole number from 0 to "
                                "2^64 - 1")
            files = data.get("files") if version >= 3 else None
            if files is not None and not _files_ok(files):
                raise TypeError("files")
            header = cls(str(data["game"]), str(data["scenario"]), str(data["digest"]),
                         rulings, seed, computer, version=int(version), files=files)
        except (KeyError, TypeError, ValueError) as exc:
            raise TacticaError(f"{where}:1: the log's header is damaged ({exc})") from None
        if not header.checked:
            if "check" in data:  # a checked header relabelled as version 1
                raise TacticaError(f"{where}:1: the log's header was edited (a version 1 "
                                   "header carries no check)")
            return header
        unknown = sorted(str(k) for k in data if k not in HEADER_FIELDS)
        if unknown:
            raise TacticaError(f"{where}:1: the log's header has a field tactica does not "
                               f"write ({', '.join(unknown)[:80]}): it was edited")
        if header._fields() != {k: v for k, v in data.items() if k != "check"}:
            raise TacticaError(f"{where}:1: the log's header is damaged (a field of the wrong "
                               "kind): it was edited")
        written, wanted = data.get("check"), header.check()
        if written != wanted:
            raise TacticaError(
                f"{where}:1: the log's header was edited after the fight started (its check "
                f"{str(written)[:20]!r} does not match its fields, which give {wanted!r}); "
                "game, scenario, digest, rulings, seed and computer cannot change in a "
                "fight: put the header back, or start a new fight (tactica play SCENARIO "
                "--rulings ID=OPTION --seed N)"
            )
        return header


def _files_ok(files: Any) -> bool:
    """True if ``files`` has the shape a header's ``files`` has."""
    if not isinstance(files, Mapping) or set(files) != {"scenario", "packs"}:
        return False
    packs = files["packs"]
    return isinstance(files["scenario"], Mapping) and isinstance(packs, Mapping) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in packs.items())


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

    The writer locks the file for as long as it is open: a second writer (another ``tactica
    play --resume`` of the same log) is refused with a TacticaError. ``durable=False`` skips
    the ``fsync`` (the line still reaches the operating system at once, which survives the
    program being killed but not the machine losing power).

    A write that fails is undone (the file is cut back to its size before the line) and
    raised as a TacticaError naming the reason; the writer is closed then.
    """

    def __init__(self, path: str | Path, *, durable: bool = True, fd: int | None = None,
                 command: str = "play"):
        self.path = Path(path)
        self.durable = durable
        #: The command that writes the log (``play``, ``serve``), named in the hints.
        self.command = command
        if fd is None:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_APPEND)
            except OSError as exc:
                special = _not_a_log_file(self.path)
                if special is not None:
                    raise special from None
                if isinstance(exc, FileNotFoundError):
                    raise TacticaError(f"{self.path}: no such log") from None
                raise _io_error(self.path, "open the log to write in it", exc) from None
            try:
                lock(fd, self.path)
            except TacticaError:
                os.close(fd)
                raise
        self._fd: int | None = fd

    def write_line(self, line: str) -> None:
        """Write one line (without its newline) and make it durable; a failure leaves the
        file as it was and raises a TacticaError."""
        if self._fd is None:
            raise TacticaError(f"{self.path}: the log is closed")
        data = (line + "\n").encode("utf-8")
        fd = self._fd
        try:
            before = os.fstat(fd).st_size
        except OSError as exc:
            raise _io_error(self.path, "save to the log", exc) from None
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            if self.durable:
                os.fsync(fd)
        except OSError as exc:
            # Undo the part of the line that was written (a torn line that stays is repaired on
            # resume anyway).
            with contextlib.suppress(OSError):
                os.ftruncate(fd, before)
            self.close()
            err = _io_error(self.path, "save to the log", exc)
            raise TacticaError(f"{err}; everything saved before is intact: continue with "
                               f"tactica {self.command} --resume {self.path}") from None

    def truncate(self, size: int) -> None:
        """Cut the file back to ``size`` bytes (repairing a torn line) and make it durable."""
        if self._fd is None:
            raise TacticaError(f"{self.path}: the log is closed")
        os.ftruncate(self._fd, size)
        if self.durable:
            os.fsync(self._fd)

    def append(self, record: Any) -> None:
        """Write one battle record (a listener for :class:`tactica.engine.battle.Battle`)."""
        self.write_line(dumps(record))

    def close(self) -> None:
        """Close the file and release its lock (further appends raise)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @property
    def closed(self) -> bool:
        """True once closed."""
        return self._fd is None

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def lock(fd: int, path: Path) -> None:
    """Take the log's lock on ``fd`` (held until the file is closed, or the program ends), or
    raise a TacticaError saying that another session writes the log."""
    if sys.platform == "win32":  # pragma: no cover
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise TacticaError(
            f"{path}: another tactica session is writing this log; only one may write a log "
            "at a time: stop the other one first (or continue the fight there)"
        ) from None
    except OSError as exc:  # pragma: no cover - a file system without locks
        if exc.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
            raise _io_error(path, "lock the log", exc) from None


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
               replace_empty: bool = False, command: str = "play") -> LogWriter:
    """Create a new log holding ``header``; an existing file is never overwritten, except,
    with ``replace_empty``, a file that holds no complete line and is the beginning of a log
    (a header torn by a crash: see :func:`is_log_start`). The returned writer holds the lock."""
    p = Path(path)
    fd: int | None = None
    try:
        if replace_empty and p.is_file():
            fd = os.open(p, os.O_RDWR | os.O_APPEND)
            lock(fd, p)
            data = _read_fd(fd, p)
            if b"\n" in data or not is_log_start(data):
                raise TacticaError(f"{p}: not the beginning of a tactica log; nothing was "
                                   "changed (choose another file with --log)")
            os.ftruncate(fd, 0)
        else:
            fd = os.open(p, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o644)
            lock(fd, p)
    except FileExistsError:
        special = _not_a_log_file(p)
        if special is not None:
            raise special from None
        raise TacticaError(
            f"{p}: a file is already there; continue it with --resume if it is the log of a "
            "fight, or choose another file with --log"
        ) from None
    except TacticaError:
        if fd is not None:
            os.close(fd)
        raise
    except OSError as exc:
        if fd is not None:
            os.close(fd)
        raise (_not_a_log_file(p) or _io_error(p, "create the log", exc)) from None
    writer = LogWriter(p, durable=durable, fd=fd, command=command)
    writer.write_line(json.dumps(header.to_json(), separators=(",", ":"), ensure_ascii=False))
    if durable:
        _sync_dir(p)
    return writer


def _read_fd(fd: int, path: Path) -> bytes:
    """The whole content of an open regular file of bounded size."""
    try:
        size = os.fstat(fd).st_size
        if size > MAX_LOG_BYTES:
            raise TacticaError(f"{path}: {size} bytes, more than a log may hold "
                               f"({MAX_LOG_BYTES})")
        return os.pread(fd, size + 1, 0)
    except OSError as exc:
        raise _io_error(path, "read the log", exc) from None


def read_bytes_bounded(path: Path, *, limit: int, what: str = "log") -> bytes:
    """The content of a regular file of at most ``limit`` bytes; anything else (a device, a
    pipe, a folder, a larger file) is a TacticaError that quotes nothing of the file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise TacticaError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise TacticaError(f"{path}: is a folder, expected a {what} file") from None
    except OSError as exc:
        raise _io_error(path, f"read the {what}", exc) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise TacticaError(f"{path}: not a regular file (a device, pipe or folder); "
                               f"expected a {what} file")
        if st.st_size > limit:
            raise TacticaError(f"{path}: {st.st_size} bytes, more than a {what} may hold "
                               f"({limit})")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise TacticaError(f"{path}: more than a {what} may hold ({limit} bytes)")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise _io_error(path, f"read the {what}", exc) from None
    finally:
        os.close(fd)


def read_log(path: str | Path) -> LogContents:
    """Read a log file; a torn last line is left out, a damaged line elsewhere is an error.

    The header is read first and its game's records are registered (through the ruleset
    registry) before the records are parsed.
    """
    p = Path(path)
    try:
        data = read_bytes_bounded(p, limit=MAX_LOG_BYTES)
    except TacticaError as exc:
        if "no such log" in str(exc):
            raise TacticaError(f"{p}: no such log; start the fight without --resume") from None
        raise
    last_newline = data.rfind(b"\n")
    complete = data[: last_newline + 1]
    torn = len(data) - len(complete)
    lines = complete.split(b"\n")[:-1]
    if not lines:
        return LogContents(None, (), 0, (), torn)
    try:
        first = _parse_line(lines[0], p, 1)
    except TacticaError:
        shown = lines[0][:60].decode("utf-8", "replace")
        raise TacticaError(f"{p}: not a tactica log (its first line is {shown!r})") from None
    header = LogHeader.from_json(first, where=str(p))
    from tactica.engine.ruleset import get_ruleset

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
            raise TacticaError(f"{p}:{number}: {_short(str(exc))}") from None
        except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
            raise TacticaError(f"{p}:{number}: damaged record "
                               f"({type(exc).__name__}: {_short(str(exc))})") from None
        ends.append(offset)
    return LogContents(header, tuple(records), header_end, tuple(ends), torn)


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _parse_line(line: bytes, path: Path, number: int) -> Any:
    shown = line[:60].decode("utf-8", "replace")
    if len(line) > MAX_LINE_BYTES:
        raise TacticaError(f"{path}:{number}: a line of {len(line)} bytes, longer than any "
                           f"record ({MAX_LINE_BYTES}): {shown!r}...")
    try:
        return json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        # ValueError covers bad JSON and numbers too long to read; RecursionError, nesting.
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


def repair_log(path: str | Path, *, durable: bool = True,
               writer: LogWriter | None = None) -> LogContents:
    """Read a log and cut it back to what can be continued: no torn line, and no results of a
    step without its closing marker (they are re-derived from the step's recorded inputs).

    A file that is not a tactica log (not even the beginning of one) is refused unchanged.
    With ``writer`` (which holds the lock) the file is cut through it.
    """
    p = Path(path)
    contents = read_log(p)
    if contents.header is None and contents.torn:
        data = read_bytes_bounded(p, limit=MAX_LOG_BYTES)
        if not is_log_start(data):
            shown = data[:40].decode("utf-8", "replace")
            raise TacticaError(f"{p}: not a tactica log (it starts with {shown!r}); nothing "
                               "was changed")
    keep = _kept(contents.records)
    repaired = LogContents(contents.header, contents.records[:keep], contents.header_end,
                           contents.ends[:keep], 0)
    if repaired.size != contents.size + contents.torn:
        try:
            if writer is not None:
                writer.truncate(repaired.size)
            else:
                with open(p, "r+b") as f:
                    f.truncate(repaired.size)
                    f.flush()
                    if durable:
                        os.fsync(f.fileno())
        except OSError as exc:
            raise _io_error(p, "repair the log's last line", exc) from None
    return repaired
