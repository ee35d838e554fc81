"""Opening a fight's log: a new fight, or one continued from its log after any stop.

Both return a :class:`OpenFight`: the scenario, the battle rebuilt to where the log stops, the
writer that holds the log's lock, and the inputs of a step cut short. The controller
(:mod:`tactica.play.controller`) drives it from there, whatever the front end.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tactica.engine.battle import Battle, ReplayError
from tactica.engine.errors import TacticaError
from tactica.engine.limits import MAX_LOG_LINE_BYTES, MAX_SEED
from tactica.engine.policies import resolve_policy
from tactica.engine.ruleset import Ruleset
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.play.logfile import (
    DiceMode,
    LogHeader,
    LogWriter,
    create_log,
    digest_of,
    repair_log,
)

__all__ = ["OpenFight", "new_fight", "resume_fight", "scenario_digest"]


def scenario_digest(scenario: Scenario) -> str:
    """The digest of everything a fight depends on but its rulings (the log records those
    itself): the scenario's content and the bytes of every content pack its game read for it
    (tactica's own packs too)."""
    return digest_of({"scenario": {k: v for k, v in scenario.data.items() if k != "rulings"},
                      "content": [list(item) for item in scenario.content]})


@dataclass
class OpenFight:
    """A fight whose log is open (``writer`` holds its lock) and ready to continue."""

    scenario: Scenario
    battle: Battle[Any]
    writer: LogWriter
    header: LogHeader
    computer: dict[str, str]
    cut: list[Any] = field(default_factory=list)
    resumed: bool = False
    notes: list[str] = field(default_factory=list)
    #: The table's last choice of dice the log records (``True``: typed by hand), if any.
    ask_dice: bool | None = None


def _new_seed() -> int:
    """A fresh seed from the operating system's entropy (recorded in the log)."""
    return int(np.random.SeedSequence().generate_state(1)[0])


def new_fight(scenario: Scenario, log: Path, *, seed: int | None = None,
              computer: Mapping[str, str | None] | None = None, durable: bool = True,
              replace_empty: bool = False, command: str = "play") -> OpenFight:
    """A new fight logged to ``log`` (which must not exist yet).

    ``seed`` drives the virtual dice and the computer's choices (default: the scenario's
    ``seed``, else a fresh one, recorded in the log); ``computer`` maps the sides the computer
    plays to a policy name (``greedy``, ``random``); ``command`` (``play``, ``serve``) is the
    one the hints name.
    """
    state, header = _header(scenario, log, seed, computer)
    writer = create_log(log, header, durable=durable, replace_empty=replace_empty,
                        command=command)
    battle = Battle(scenario.ruleset, state, listeners=[writer.append])
    return OpenFight(scenario, battle, writer, header, dict(header.computer))


def resume_fight(path: Path, *, scenario: Scenario | None = None,
                 computer: Mapping[str, str | None] | None = None, durable: bool = True,
                 seed: int | None = None, command: str = "play",
                 accept_old_log: bool = False) -> OpenFight:
    """Continue the fight in ``path``.

    The scenario is the log's own copy of the scenario and its content packs (a log of
    version 3 carries them), else the file the log names (relative to the log's folder),
    unless ``scenario`` is given; either way its content, and that of every content pack it
    uses, must be what the fight started with. Every step of the log is re-run from its
    recorded action, rolls and decisions and must give the events recorded; the first record
    that does not follow is refused with its line number. A torn last line and the results of
    a step cut short are dropped from the file; the step is finished from its recorded
    inputs. The rulings, the seed and (unless ``computer`` is given) the computer's sides come
    from the log, whose header is checked first (an edited header is refused at line 1: see
    :class:`~tactica.play.logfile.LogHeader`). The table's choice of dice the log records
    (:class:`~tactica.play.logfile.DiceMode`) is replayed apart and returned. A log that holds
    no complete line (a header torn by a crash) starts the fight anew on ``scenario`` (with
    ``seed``); a file that is not a tactica log is never changed. The writer holds the log's
    lock (a second writer is refused). ``command`` (``play``, ``serve``) is the one the hints
    name. A version 1 log (no check of its header, so its rulings and seed could have been
    edited unseen) is refused unless ``accept_old_log``.
    """
    writer = LogWriter(path, durable=durable, command=command)
    try:
        return _resume(path, writer, scenario=scenario, computer=computer, seed=seed,
                       accept_old_log=accept_old_log)
    except BaseException:
        writer.close()
        raise


def _resume(path: Path, writer: LogWriter, *, scenario: Scenario | None,
            computer: Mapping[str, str | None] | None, seed: int | None,
            accept_old_log: bool = False) -> OpenFight:
    contents = repair_log(path, durable=writer.durable, writer=writer)
    header = contents.header
    if header is not None and not header.checked and not accept_old_log:
        raise TacticaError(
            f"{path}:1: a log of version {header.version} (tactica 0.2.0 and earlier) carries "
            "no check of its header, so its rulings and seed could have been edited unseen "
            "(setting the version to 1 and removing the check is such an edit); if you trust "
            "this file, continue it with --accept-old-log")
    if header is None:
        if scenario is None:
            raise TacticaError(
                f"{path} holds no complete line, not even the scenario's name; start the "
                f"fight anew with: tactica {writer.command} SCENARIO --resume {path}"
            )
        state, header = _header(scenario, path, seed, computer)
        writer.truncate(0)
        writer.write_line(json.dumps(header.to_json(), separators=(",", ":"),
                                     ensure_ascii=False))
        battle = Battle(scenario.ruleset, state, listeners=[writer.append])
        return OpenFight(scenario, battle, writer, header, dict(header.computer),
                         notes=[f"{path} holds no complete line yet: the fight starts anew."])
    if scenario is None:
        scenario = (_scenario_of(header, path, writer.command) if header.files is None
                    else _scenario_from_files(header, path))
    rs = scenario.ruleset
    if header.game != rs.meta.name:
        raise TacticaError(f"{path}: the log is a fight of {header.game!r}, but "
                           f"{scenario.source} is a {rs.meta.name!r} scenario")
    if header.digest != scenario_digest(scenario):
        raise TacticaError(
            f"{path}: the log was written for {header.scenario!r} with other content "
            f"(digest {header.digest}, {scenario.source} and its content packs now have "
            f"{scenario_digest(scenario)}); resume with the scenario and packs as they were"
        )
    if dict(scenario.rulings) != dict(header.rulings):
        scenario = scenario.with_rulings(header.rulings, where=f"{path}: rulings")
    state = scenario.new_state()
    chosen = checked_computer(rs, rs.sides_of(state),
                              header.computer if computer is None else computer)
    # The table's own records (who rolls) are not the battle's: replayed without them.
    modes = [r.mode for r in contents.records if isinstance(r, DiceMode)]
    kept = [i for i, r in enumerate(contents.records) if not isinstance(r, DiceMode)]
    records = [contents.records[i] for i in kept]
    try:
        battle, cut = Battle.replay(rs, state, records, listeners=[writer.append])
    except ReplayError as exc:
        line = (kept[exc.index] + 2 if exc.index is not None and exc.index < len(kept)
                else len(contents.records) + 2 if exc.index is not None else None)
        where = f"{path}:{line}" if line is not None else str(path)
        raise TacticaError(f"{where}: {exc}") from None
    except TacticaError as exc:
        raise TacticaError(f"{path}: {exc}") from None
    notes = [] if header.checked else [
        f"{path} was written by an older tactica (log version {header.version}): its header "
        "carries no check, so its rulings and seed are taken as written."]
    return OpenFight(scenario, battle, writer, header, chosen, cut=list(cut), resumed=True,
                     notes=notes, ask_dice=(modes[-1] == "ask") if modes else None)


def _header(scenario: Scenario, log: Path, seed: int | None,
            computer: Mapping[str, str | None] | None) -> tuple[Any, LogHeader]:
    """A fresh state and the header of a new fight's log."""
    state = scenario.new_state()
    rs = scenario.ruleset
    chosen = checked_computer(rs, rs.sides_of(state), computer or {})
    if seed is None:
        given = scenario.data.get("seed")
        seed = given if isinstance(given, int) and 0 <= given <= MAX_SEED else _new_seed()
    if not 0 <= seed <= MAX_SEED:
        raise TacticaError(f"seed: expected a whole number from 0 to {MAX_SEED}, got {seed!r}")
    header = LogHeader(
        game=rs.meta.name,
        scenario=_scenario_ref(scenario.source, log),
        digest=scenario_digest(scenario),
        rulings=dict(scenario.rulings),
        seed=seed,
        computer=chosen,
        files=files_of(scenario),
    )
    return state, header


def checked_computer(ruleset: Ruleset, sides: Sequence[str],
                     computer: Mapping[str, str | None]) -> dict[str, str]:
    """The computer's sides, each a side of the battle with a policy the game offers
    (``None``: the game's default)."""
    out: dict[str, str] = {}
    for side, name in computer.items():
        if side not in sides:
            raise TacticaError(f"computer: no side {side!r} in this battle "
                               f"(sides: {', '.join(sides)})")
        out[side] = resolve_policy(name, ruleset)  # raises, naming the game's policies
    return out


def _scenario_ref(source: str, log: Path) -> str:
    """The scenario's path as the log records it: relative to the log's folder."""
    try:
        # abspath, not resolve: a scenario reached through a link keeps the path it was given.
        rel = os.path.relpath(os.path.abspath(source), os.path.abspath(log.parent))
    except ValueError:  # another drive
        return Path(os.path.abspath(source)).as_posix()
    return Path(rel).as_posix()


def _scenario_of(header: LogHeader, log: Path, command: str) -> Scenario:
    where = log.parent / header.scenario
    try:
        return load_scenario(where)
    except TacticaError as exc:
        raise TacticaError(
            f"{log}: cannot load the fight's scenario {str(where)!r} ({exc}); "
            f"name it: tactica {command} SCENARIO --resume {log}"
        ) from None


#: The most a log's header holds of the fight's own files (JSON characters): the header is one
#: line, bounded by the largest line a log may hold; a fight whose files are larger is logged
#: without them (and resumes from its scenario's file, as logs of version 2 do).
MAX_FILES_CHARS = MAX_LOG_LINE_BYTES - 64 * 1024
#: The most content packs a log carries.
MAX_FILES_PACKS = 100


def files_of(scenario: Scenario) -> dict[str, Any] | None:
    """The files a fight on ``scenario`` depends on, for its log: the scenario's content (as
    parsed) and the text of each content pack from its folder (tactica's own packs are part
    of tactica; the digest still checks them). ``None`` when they cannot all be carried: a
    pack from outside the scenario's folder, a pack changed since it was read, or more than
    a log's header holds."""
    packs: dict[str, str] = {}
    base = Path(os.path.realpath(scenario.base_dir))
    for name, digest in scenario.content:
        if name.startswith("tactica:"):
            continue
        if not _safe_name(name):
            return None
        try:
            raw = (base / name).read_bytes()
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        if hashlib.sha256(raw).hexdigest() != digest:
            return None
        packs[name] = text
    data = {k: v for k, v in scenario.data.items()}
    files = {"scenario": json.loads(json.dumps(data, default=str, ensure_ascii=False)),
             "packs": packs}
    if len(packs) > MAX_FILES_PACKS or \
            len(json.dumps(files, ensure_ascii=False)) > MAX_FILES_CHARS:
        return None
    return files


def _safe_name(name: str) -> bool:
    """A pack's name as a log carries it: a relative path that stays in its folder."""
    path = Path(name)
    return (bool(name) and not path.is_absolute() and "\\" not in name and "\x00" not in name
            and all(part not in ("", ".", "..") for part in name.split("/")))


#: The folders the fights' own content packs were unpacked into, kept while the program runs
#: (a scenario re-reads its packs when its rulings change).
_UNPACKED: list[tempfile.TemporaryDirectory[str]] = []


def _scenario_from_files(header: LogHeader, log: Path) -> Scenario:
    """The scenario the log carries, with its content packs (unpacked in a folder of their
    own: a scenario reads its packs from its folder)."""
    files = header.files
    assert files is not None
    packs = files["packs"]
    if len(packs) > MAX_FILES_PACKS or not all(_safe_name(n) for n in packs):
        raise TacticaError(f"{log}:1: the log's header names a content pack outside the "
                           "scenario's folder: it was edited")
    folder = tempfile.TemporaryDirectory(prefix="tactica-fight-")
    _UNPACKED.append(folder)
    base = Path(folder.name)
    for name, text in packs.items():
        where = base / name
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(text, encoding="utf-8")
    try:
        return scenario_from_mapping(dict(files["scenario"]), source=header.scenario,
                                     base_dir=base)
    except TacticaError as exc:
        raise TacticaError(f"{log}: the scenario the log carries cannot be loaded by this "
                           f"tactica ({exc})") from None
