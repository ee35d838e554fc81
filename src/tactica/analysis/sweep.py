"""Sweeps: vary one or two parameters over values, run exact odds or simulations at each point,
and keep every result with its parameters in a Parquet file that DuckDB queries.

A parameter is a path into the scenario's data, validated at each point as a scenario file:

* ``rulings.ID`` (a ruling's option), ``units.ID.FIELD`` (a unit's field), any other field of
  the scenario (``max_rounds``);
* ``content.SECTION.NAME.FIELD`` (a content pack's entry, e.g. ``content.weapons.smg.accuracy``):
  the pack file holding ``SECTION.NAME`` (the scenario's own packs first, then the game's
  built-in ones) is copied with the field changed and added after the others, so it wins;
* in a matchup sweep (a game and two profiles instead of a scenario), also ``range`` and
  ``cover`` (set through the game's own geometry) and ``attacker.FIELD`` / ``target.FIELD``.

Rows are tidy: one per point for odds, one per point and side for simulations, the parameters
in columns named like the paths with ``_`` for every other character (``rulings.ABC-3`` is
``rulings_ABC_3``).
"""

from __future__ import annotations

import copy
import json
import math
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tactica.analysis.matrix import parse_numbers
from tactica.analysis.sim.play import DEFAULT_MAX_STEPS
from tactica.analysis.simulate import wilson
from tactica.engine.errors import IllegalActionError, TacticaError
from tactica.engine.limits import MAX_SWEEP_POINTS
from tactica.engine.ruleset import OddsValue, Ruleset, builtin_packs, matchup_hooks, odds_hooks
from tactica.engine.rulings import Rulings
from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.engine.validation import load_yaml
from tactica.presentation.tables import Column, Table, require

__all__ = ["Parameter", "SweepSpec", "column_name", "parse_vary", "query", "read_meta",
           "run_sweep", "write_parquet"]

MATCHUP_PARAMS = ("range", "cover")
#: The key of the sweep's description in its Parquet file's metadata.
META_KEY = b"tactica.analysis.sweep"
_META_KEY = META_KEY


def column_name(path: str) -> str:
    """The Parquet column of a parameter: ``rulings.ABC-3`` is ``rulings_ABC_3``.

    >>> column_name("units.B.armor")
    'units_B_armor'
    """
    return re.sub(r"[^A-Za-z0-9]", "_", path)


@dataclass(frozen=True)
class Parameter:
    """A path into the scenario and the values it takes."""

    path: str
    values: tuple[Any, ...]

    @property
    def column(self) -> str:
        """Its column in the results."""
        return column_name(self.path)


def _value(text: str) -> Any:
    try:
        loaded = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError, RecursionError):  # a number of 5,000 digits, ...
        return text  # a text then: the scenario's own check says what is wrong with it
    return loaded if isinstance(loaded, int | float | str | bool) else text


def parse_vary(text: str) -> Parameter:
    """``PATH=V1,V2,...`` or ``PATH=LOW-HIGH`` (whole numbers) as a :class:`Parameter`."""
    path, sep, values = text.partition("=")
    path, values = path.strip(), values.strip()
    if not sep or not path or not values:
        raise TacticaError(f"--vary: expected PATH=V1,V2,... such as rulings.ABC-3=one,two "
                           f"or units.B.armor=2-6, got {text!r}")
    if re.fullmatch(r"[\d,\-/ ]+", values) and re.search(r"\d-\d", values):
        found: tuple[Any, ...] = tuple(parse_numbers(values, what=f"--vary {path}"))
    else:
        found = tuple(_value(v.strip()) for v in values.split(",") if v.strip())
    return Parameter(path, found)


@dataclass(frozen=True)
class SweepSpec:
    """What a sweep varies and runs.

    ``scenario`` is the base (or ``None`` with ``game`` and ``profiles`` for a matchup sweep);
    ``battles > 0`` runs simulations at each point, ``odds`` the exact odds of ``attacker`` on
    ``target`` (ids; a matchup's own by default) with ``means``.
    """

    parameters: tuple[Parameter, ...]
    scenario: Scenario | None = None
    game: Ruleset | None = None
    profiles: tuple[str, str] | None = None
    content: tuple[Path, ...] = ()
    rulings: Mapping[str, str] = field(default_factory=dict)
    odds: bool = False
    attacker: str | None = None
    target: str | None = None
    means: str | None = None
    options: Mapping[str, OddsValue] = field(default_factory=dict)
    battles: int = 0
    seed: int = 1
    workers: int | None = 1
    executor: str | None = None
    policies: str | None = None  # None: the game's default policy
    range: int | None = None
    cover: int | None = None

    def describe(self) -> dict[str, Any]:
        """JSON-ready: what the sweep did (stored in the Parquet file's metadata)."""
        ruleset = self.scenario.ruleset if self.scenario else self.game
        return {
            "source": self.scenario.source if self.scenario else None,
            "game": ruleset.meta.name if ruleset is not None else None,
            "profiles": list(self.profiles) if self.profiles else None,
            "parameters": [{"path": p.path, "column": p.column, "values": list(p.values)}
                           for p in self.parameters],
            "odds": self.odds, "battles": self.battles, "seed": self.seed,
            "attacker": self.attacker, "target": self.target, "means": self.means,
        }


def _points(params: Sequence[Parameter]) -> Iterator[dict[str, Any]]:
    if not params:
        yield {}
        return
    head, *rest = params
    for v in head.values:
        for tail in _points(rest):
            yield {head.path: v, **tail}


def _set(data: dict[str, Any], keys: Sequence[str], value: Any, *, path: str,
         must_exist: int) -> None:
    """Set ``data[k0][k1]...`` to ``value``; the first ``must_exist`` keys must be there."""
    here: Any = data
    for i, key in enumerate(keys[:-1]):
        if not isinstance(here, dict):
            raise TacticaError(f"--vary {path}: {'.'.join(keys[:i])} is not a mapping")
        if key not in here:
            if i < must_exist:
                known = ", ".join(map(str, here)) or "none"
                raise TacticaError(f"--vary {path}: no {'.'.join(keys[:i + 1])} in the "
                                   f"scenario (there: {known})")
            here[key] = {}
        here = here[key]
    if not isinstance(here, dict):
        raise TacticaError(f"--vary {path}: {'.'.join(keys[:-1])} is not a mapping")
    here[keys[-1]] = value


def _pack_holding(packs: Sequence[Path], keys: Sequence[str], path: str) -> tuple[Path, Any]:
    for pack in reversed(packs):
        try:
            doc = load_yaml(pack)
        except TacticaError:
            continue
        here = doc
        for key in keys:
            here = here.get(key) if isinstance(here, dict) else None
        if isinstance(here, dict):
            return pack, doc
    names = ", ".join(p.name for p in packs) or "none"
    raise TacticaError(f"--vary {path}: no content pack has {'.'.join(keys)} "
                       f"(packs: {names})")


class _Builder:
    """Builds the scenario of each point; content changes go to files in ``folder``."""

    def __init__(self, spec: SweepSpec, folder: Path) -> None:
        self.spec = spec
        self.folder = folder
        base = spec.scenario
        self.ruleset = base.ruleset if base is not None else spec.game
        if self.ruleset is None:
            raise TacticaError("a sweep needs a scenario, or a game with two profiles")
        own = base.data.get("content") if base is not None else None
        self.content = [*(Path(base.base_dir) / str(p) for p in own or [])] if base else []
        self.content += list(spec.content)
        self.count = 0

    def _pack(self, path: str, value: Any) -> Path:
        keys = path.split(".")[1:]
        if len(keys) < 3:
            raise TacticaError(f"--vary {path}: expected content.SECTION.NAME.FIELD such as "
                               "content.weapons.rifle.accuracy")
        assert self.ruleset is not None
        pack, doc = _pack_holding([*builtin_packs(self.ruleset), *self.content], keys[:-1], path)
        _set(doc, keys, value, path=path, must_exist=len(keys) - 1)
        self.count += 1
        out = self.folder / f"{self.count}-{pack.name}"
        out.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        return out

    def scenario(self, point: Mapping[str, Any]) -> tuple[Scenario, str | None, str | None]:
        """The point's scenario, and the default attacker and target ids."""
        spec = self.spec
        extra = [self._pack(p, v) for p, v in point.items() if p.split(".")[0] == "content"]
        attacker, target = spec.attacker, spec.target
        if spec.scenario is not None:
            for p in point:
                if p in MATCHUP_PARAMS or p.split(".")[0] in ("attacker", "target"):
                    raise TacticaError(f"--vary {p}: only a matchup sweep (a game and "
                                       "--profiles) has range, cover, attacker and target")
            data = copy.deepcopy(dict(spec.scenario.data))
            if extra:
                data["content"] = [*(str(p) for p in self.content), *map(str, extra)]
            base_dir = spec.scenario.base_dir
            source = spec.scenario.source
        else:
            assert self.ruleset is not None and spec.profiles is not None
            hooks = matchup_hooks(self.ruleset)
            chosen = {**spec.rulings, **{p.split(".", 1)[1]: str(v) for p, v in point.items()
                                         if p.startswith("rulings.")}}
            m = hooks.matchup(spec.profiles, range=point.get("range", spec.range),
                              cover=point.get("cover", spec.cover),
                              rulings=Rulings(self.ruleset.meta.rulings, chosen,
                                              where="--vary"),
                              content=[*self.content, *extra])
            data = copy.deepcopy(dict(m.scenario))
            attacker, target = attacker or m.attacker, target or m.target
            aliases = {"attacker": m.attacker, "target": m.target}
            point = {(f"units.{aliases[p.split('.')[0]]}.{p.split('.', 1)[1]}"
                      if p.split(".")[0] in aliases else p): v for p, v in point.items()}
            base_dir, source = Path.cwd(), "matchup"
        for p, v in point.items():
            keys = p.split(".")
            if keys[0] in ("content", *MATCHUP_PARAMS):
                continue
            value = str(v) if keys[0] == "rulings" else v
            _set(data, keys, value, path=p, must_exist=2 if keys[0] == "units" else 0)
        label = ", ".join(f"{k}={v}" for k, v in point.items())
        sc = scenario_from_mapping(data, source=f"{source} [{label}]" if label else source,
                                   base_dir=base_dir, content_folders=(self.folder,))
        return sc, attacker, target


def _odds_row(sc: Scenario, attacker: str | None, target: str | None,
              spec: SweepSpec) -> dict[str, Any]:
    if attacker is None or target is None:
        raise TacticaError("--odds: give --attacker and --target (unit ids of the scenario)")
    hooks = odds_hooks(sc.ruleset)
    state = sc.new_state()
    try:
        action = hooks.odds_action(state, attacker, (target,), spec.means)
        report = hooks.odds(state, action, **spec.options)
    except IllegalActionError as exc:
        return {"attacker": attacker, "target": target, "means": spec.means, "note": str(exc)}
    row: dict[str, Any] = {"attacker": attacker, "target": target,
                           "means": report.extra.get("weapon", spec.means), "note": ""}
    for name in ("p_hit", "expected_damage", "p_out_of_action"):
        v = report.numbers.get(name)
        row[name] = None if v is None else float(v)
        row[f"{name}_exact"] = None if v is None else str(v)
    return row


def _simulate_group(scenarios: Sequence[Scenario], spec: SweepSpec, labels: Sequence[str]
                    ) -> list[list[dict[str, Any]]]:
    """The simulation rows of points that differ only in the first parameter, played as the
    variants of one paired run (the same seeded battles): each point's win rates with their
    Wilson intervals and, against the group's first point, the paired difference of each
    rate (:mod:`tactica.analysis.paired`), the battles that ended differently and, when the first
    parameter is a ruling, the battles that consulted it."""
    from tactica.analysis.paired import paired_difference
    from tactica.analysis.simulate import _policies_for, _run

    first = spec.parameters[0].path
    ruling = first.split(".", 1)[1] if first.startswith("rulings.") else None
    sides = scenarios[0].ruleset.sides_of(scenarios[0].new_state())
    for sc, label in zip(scenarios, labels, strict=True):
        if sc.ruleset.sides_of(sc.new_state()) != sides:
            raise TacticaError(f"--vary: {label} changes the sides of the battle; only "
                               "points with the same sides can be paired")
    policies = _policies_for(scenarios[0], spec.policies)
    run = _run(scenarios, policies, battles=spec.battles, seed=spec.seed,
               workers=spec.workers, progress=None, precision=None, max_battles=spec.battles,
               executor=spec.executor or "process", scheduler=None,
               max_steps=DEFAULT_MAX_STEPS, consulted=ruling is not None,
               rulings=[ruling] * len(scenarios))
    if run.interrupted:  # Ctrl-C: the sweep stops, not only this group's run
        raise KeyboardInterrupt
    out: list[list[dict[str, Any]]] = []
    for v, tally in enumerate(run.tallies):
        n = tally.battles
        rows = []
        for side in (*sides, None):
            outcome = side if side is not None else "draw"
            wins = tally.draws if side is None else tally.wins[side]
            p = wins / n if n else 0.0
            low, high = wilson(wins, n)
            row: dict[str, Any] = {
                "side": outcome, "battles": n, "seed": spec.seed, "wins": wins, "p": p,
                "low": min(low, p), "high": max(high, p),
                "rounds_mean": tally.rounds_sum / n if n else math.nan,
                "paired_against": None, "paired_diff": None, "paired_low": None,
                "paired_high": None, "paired_verdict": None, "changed": None,
                "consulted": None}
            if v > 0 and run.paired is not None:
                pt = run.paired
                d = paired_difference(pt.sums[v - 1][outcome], pt.squares[v - 1][outcome],
                                      pt.battles)
                row.update({"paired_against": labels[0], "paired_diff": d.difference,
                            "paired_low": d.low if math.isfinite(d.low) else None,
                            "paired_high": d.high if math.isfinite(d.high) else None,
                            "paired_verdict": d.verdict, "changed": pt.changed[v - 1],
                            "consulted": pt.consulted[v - 1] if ruling else None})
            rows.append(row)
        out.append(rows)
    return out


@contextmanager
def _folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="tactica-sweep-") as name:
        yield Path(name)


def run_sweep(spec: SweepSpec, *,
              progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Every point's rows (see the module's docstring); every point is validated first."""
    if not spec.parameters:
        raise TacticaError("--vary: give one or two parameters to sweep")
    if len(spec.parameters) > 2:
        raise TacticaError(f"--vary: at most two parameters, got {len(spec.parameters)}")
    if not spec.odds and spec.battles < 1:
        raise TacticaError("give --battles N (simulations) or --odds (exact odds)")
    size = math.prod(len(p.values) for p in spec.parameters)
    if size > MAX_SWEEP_POINTS:
        raise TacticaError(f"--vary: {' x '.join(str(len(p.values)) for p in spec.parameters)}"
                           f" values make {size:,} points, more than {MAX_SWEEP_POINTS:,} "
                           "(see docs/limits.md)")
    points = list(_points(spec.parameters))
    rows: list[dict[str, Any]] = []
    with _folder() as folder:
        builder = _Builder(spec, folder)
        built = [(point, *builder.scenario(point)) for point in points]
        sims: dict[int, list[dict[str, Any]]] = {}
        if spec.battles > 0:  # points that differ only in the first parameter, paired
            head = spec.parameters[0].path
            groups: dict[tuple[Any, ...], list[int]] = {}
            for i, (point, *_) in enumerate(built):
                key = tuple(repr(v) for k, v in point.items() if k != head)
                groups.setdefault(key, []).append(i)
            for members in groups.values():
                labels = [f"{head}={built[i][0][head]}" for i in members]
                for i, got in zip(members, _simulate_group([built[i][1] for i in members],
                                                           spec, labels), strict=True):
                    sims[i] = got
                if progress:  # the points of a group are played together
                    progress(len(sims), len(built))
        for i, (point, sc, attacker, target) in enumerate(built):
            base = {column_name(p): v for p, v in point.items()}
            base["scenario"] = sc.name
            base["rulings"] = json.dumps(dict(sc.rulings), sort_keys=True)
            if spec.odds:
                rows.append({**base, "kind": "odds", **_odds_row(sc, attacker, target, spec)})
            if spec.battles > 0:
                rows += [{**base, "kind": "simulation", **r} for r in sims[i]]
            if progress and not sims:
                progress(i + 1, len(built))
    return rows


def write_parquet(rows: Sequence[Mapping[str, Any]], path: Path, spec: SweepSpec) -> None:
    """The rows as a Parquet file, the sweep's description in its metadata."""
    pa = require("pyarrow", "designer")
    pq = require("pyarrow.parquet", "designer")
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    table = pa.Table.from_pylist([{c: row.get(c) for c in columns} for row in rows])
    table = table.replace_schema_metadata({_META_KEY: json.dumps(spec.describe()).encode()})
    try:
        pq.write_table(table, str(path))
    except OSError as exc:
        raise TacticaError(f"--output: cannot write {path}: {exc}") from None


def read_meta(path: Path) -> dict[str, Any]:
    """The description a sweep stored in its Parquet file (``{}`` if none)."""
    pq = require("pyarrow.parquet", "designer")
    try:
        meta = pq.read_schema(str(path)).metadata or {}
    except (OSError, ValueError) as exc:
        raise TacticaError(f"{path}: not a readable Parquet file ({exc})") from None
    raw = meta.get(_META_KEY)
    if not raw:
        return {}
    from tactica.analysis.sweep_file import sweep_meta

    return sweep_meta(path, raw).model_dump()


def query(path: Path, sql: str) -> Table:
    """Run ``sql`` with DuckDB over the sweep at ``path`` (the table is called ``sweep``)."""
    duckdb = require("duckdb", "designer")
    if not path.is_file():
        raise TacticaError(f"{path}: no such file")
    con = duckdb.connect()
    try:
        quoted = str(path).replace("'", "''")
        con.execute(f"CREATE VIEW sweep AS SELECT * FROM read_parquet('{quoted}')")
        cur = con.execute(sql)
        names = [d[0] for d in cur.description or []]
        types = [str(d[1]) for d in cur.description or []]
        data = cur.fetchall()
    except duckdb.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise TacticaError(f"--query: {first}") from None
    finally:
        con.close()
    numeric = ("DOUBLE", "FLOAT", "DECIMAL", "REAL")
    cols = [Column(n, "num" if t.upper().startswith(numeric) else "int"
                   if "INT" in t.upper() else "text") for n, t in zip(names, types, strict=True)]
    return Table(f"{path.name}: query", cols, [list(r) for r in data])
