"""A sweep's Parquet file read back, checked before anything is built from it.

``tactica sweep -o FILE.parquet`` stores its rows and, in the file's metadata, the description
of the sweep (:meth:`tactica.analysis.sweep.SweepSpec.describe`). A file may have been edited
or damaged since, so :func:`read_sweep` checks it as a scenario file is checked: the
description against :class:`SweepMeta` (the model of what ``describe`` writes), the number of
rows (from the file's footer, before a row is read) against :data:`MAX_SWEEP_ROWS`, every row
against :class:`OddsRow` or :class:`SimulationRow`, each parameter's column and each row's
``rulings``; anything wrong is one :class:`~tactica.engine.errors.TacticaError` naming the file
and what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from tactica.engine.errors import TacticaError
from tactica.engine.limits import MAX_SEED, MAX_SWEEP_POINTS
from tactica.presentation.tables import require

__all__ = ["MAX_SWEEP_ROWS", "OddsRow", "ParameterMeta", "SimulationRow", "SweepMeta",
           "read_sweep", "sweep_meta"]

#: The most rows a sweep file may hold: a sweep's most points, each with an odds row and a
#: simulation row for each of up to 18 sides and the draws.
MAX_SWEEP_ROWS = MAX_SWEEP_POINTS * 20
#: The largest metadata a sweep file's description may take.
MAX_META_BYTES = 1024 * 1024

_Text = Field(max_length=1000)
_Value = StrictInt | float | str | StrictBool


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ParameterMeta(_Model):
    """One swept parameter: its path, its column and its values."""

    path: str = Field(min_length=1, max_length=200)
    column: str = Field(min_length=1, max_length=200)
    values: list[_Value] = Field(min_length=1, max_length=MAX_SWEEP_POINTS)


class SweepMeta(_Model):
    """What a sweep stores in its file's metadata (:meth:`SweepSpec.describe`)."""

    source: str | None = _Text
    game: str | None = _Text
    profiles: list[str] | None = Field(default=None, min_length=2, max_length=2)
    parameters: list[ParameterMeta] = Field(min_length=1, max_length=2)
    odds: StrictBool = False
    battles: StrictInt = Field(default=0, ge=0, le=10_000_000)
    seed: StrictInt = Field(default=1, ge=0, le=MAX_SEED)
    attacker: str | None = _Text
    target: str | None = _Text
    means: str | None = _Text


class _Row(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)

    scenario: str | None = None
    rulings: str | None = None


class OddsRow(_Row):
    """A point's exact odds."""

    kind: Literal["odds"]
    attacker: str | None = None
    target: str | None = None
    means: str | None = None
    p_hit: float | None = Field(default=None, ge=0, le=1)
    expected_damage: float | None = None
    p_out_of_action: float | None = Field(default=None, ge=0, le=1)
    note: str | None = None


class SimulationRow(_Row):
    """A point's simulated outcome for one side (or the draws)."""

    kind: Literal["simulation"]
    side: str
    seed: StrictInt = Field(ge=0, le=MAX_SEED)
    battles: StrictInt = Field(ge=0)
    wins: StrictInt = Field(ge=0)
    p: float = Field(ge=0, le=1)
    low: float = Field(ge=0, le=1)
    high: float = Field(ge=0, le=1)
    rounds_mean: float | None = None
    paired_against: str | None = None
    paired_diff: float | None = None
    paired_low: float | None = None
    paired_high: float | None = None
    paired_verdict: str | None = None
    changed: StrictInt | None = None
    consulted: StrictInt | None = None


def _problem(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "the value"
    return f"{where}: {err['msg']}"


def sweep_meta(path: Path, raw: bytes | None) -> SweepMeta:
    """The sweep description of ``path`` from its metadata's bytes, checked."""
    if not raw:
        raise TacticaError(f"{path}: not a tactica sweep (no sweep description in its "
                           "metadata)")
    if len(raw) > MAX_META_BYTES:
        raise TacticaError(f"{path}: the sweep description in its metadata is larger than "
                           f"{MAX_META_BYTES} bytes")
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise TacticaError(f"{path}: the sweep description in its metadata is not JSON") \
            from None
    if not isinstance(data, dict):
        raise TacticaError(f"{path}: the sweep description in its metadata is not a mapping")
    try:
        return SweepMeta.model_validate(data)
    except ValidationError as exc:
        raise TacticaError(f"{path}: the sweep description in its metadata is wrong: "
                           f"{_problem(exc)}") from None


def read_sweep(path: Path) -> tuple[SweepMeta, list[dict[str, Any]]]:
    """The description and the rows of the sweep in ``path``, every part checked."""
    pq = require("pyarrow.parquet", "designer")
    try:
        file = pq.ParquetFile(str(path))
        schema = file.schema_arrow
        count = file.metadata.num_rows
    except (OSError, ValueError) as exc:
        first = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise TacticaError(f"{path}: not a readable Parquet file ({first})") from None
    from tactica.analysis.sweep import META_KEY

    meta = sweep_meta(path, (schema.metadata or {}).get(META_KEY))
    if count > MAX_SWEEP_ROWS:
        raise TacticaError(f"{path}: {count:,} rows, more than a sweep writes (at most "
                           f"{MAX_SWEEP_ROWS:,}: see docs/limits.md)")
    columns = set(schema.names)
    from tactica.analysis.sweep import column_name

    for p in meta.parameters:
        if p.column != column_name(p.path):
            raise TacticaError(f"{path}: the parameter {p.path[:60]!r} has the column "
                               f"{p.column[:60]!r}, not {column_name(p.path)[:60]!r} as a "
                               "sweep writes it")
        if p.column not in columns:
            raise TacticaError(f"{path}: the parameter {p.path[:60]!r} has no column "
                               f"{p.column[:60]!r} in the file")
    try:
        rows: list[dict[str, Any]] = file.read().to_pylist()
    except (OSError, ValueError) as exc:
        first = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise TacticaError(f"{path}: not a readable Parquet file ({first})") from None
    for number, row in enumerate(rows, start=1):
        kinds: dict[Any, type[_Row]] = {"odds": OddsRow, "simulation": SimulationRow}
        model = kinds.get(row.get("kind"))
        if model is None:
            raise TacticaError(f"{path}: row {number}: kind: expected 'odds' or 'simulation'")
        try:
            checked = model.model_validate(row)
        except ValidationError as exc:
            raise TacticaError(f"{path}: row {number}: {_problem(exc)}") from None
        # A column left out reads as the model's default (None), never as a missing key.
        row.update({k: v for k, v in checked.model_dump().items() if k not in row})
        for p in meta.parameters:
            value = row.get(p.column)
            if value is not None and not isinstance(value, int | float | str | bool):
                raise TacticaError(f"{path}: row {number}: {p.column[:60]}: expected a "
                                   "number, a text or a yes/no")
        if row.get("rulings") is not None:
            try:
                rulings = json.loads(row["rulings"])
            except (ValueError, RecursionError):
                rulings = None
            if not isinstance(rulings, dict) or not all(
                    isinstance(k, str) and isinstance(v, str) for k, v in rulings.items()):
                raise TacticaError(f"{path}: row {number}: rulings: expected a JSON mapping "
                                   "of ruling ids to options")
    _check_pairs(path, meta, rows)
    return meta, rows


def _check_pairs(path: Path, meta: SweepMeta, rows: list[dict[str, Any]]) -> None:
    """Each simulation row but the first of its group (the same side and other parameters)
    holds its paired difference from that first one: a sweep writes them so."""
    rest = [p.column for p in meta.parameters[1:]]
    seen: set[tuple[Any, ...]] = set()
    for number, row in enumerate(rows, start=1):
        if row.get("kind") != "simulation":
            continue
        key = (row.get("side"), *(repr(row.get(c)) for c in rest))
        if key in seen and row.get("paired_diff") is None:
            raise TacticaError(f"{path}: row {number}: paired_diff: a point after the first "
                               "of its group holds its paired difference")
        seen.add(key)
