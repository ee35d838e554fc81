"""Variants of a scenario to compare: a ruling's readings, or values of a field of its data.

``--compare ABC-6=die,characteristic`` plays every battle under each reading of ruling ABC-6;
``--compare units.A.defense=2,3`` under each value of a field of the scenario (a dotted path
into its data: mapping keys, or list positions as numbers). Values are read as YAML (``2`` is a
number, ``true`` a truth value). Each variant is validated as a scenario of its own, so a value
the game refuses is reported as the game reports it.

>>> spec = parse_compare("ABC-6=die,characteristic")
>>> spec.key, spec.values
('ABC-6', ('die', 'characteristic'))
>>> parse_compare("units.A.defense=2, 3").values
(2, 3)
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from tactica.engine.errors import ScenarioError, TacticaError
from tactica.engine.scenario import Scenario, scenario_from_mapping

__all__ = ["CompareSpec", "Variant", "comparable_variants", "parse_compare", "variants_of"]

_RULING_ID = re.compile(r"^[A-Za-z][A-Za-z0-9]*-[0-9]+$")


@dataclass(frozen=True)
class CompareSpec:
    """What to vary (a ruling id, or a dotted path into the scenario's data) and the values."""

    key: str
    values: tuple[Any, ...]

    @property
    def is_ruling(self) -> bool:
        """True when ``key`` names a ruling (``ABC-3``) rather than a field."""
        return bool(_RULING_ID.match(self.key))


@dataclass(frozen=True)
class Variant:
    """One variant: its label (``ABC-6=die``) and its scenario."""

    label: str
    scenario: Scenario


def parse_compare(text: str) -> CompareSpec:
    """``KEY=V1,V2[,...]`` into a :class:`CompareSpec` (at least two distinct values)."""
    key, sep, rest = text.partition("=")
    key = key.strip()
    if not sep or not key or not rest.strip():
        raise TacticaError(
            f"--compare: expected RULING=OPTION,OPTION (ABC-6=die,characteristic) or "
            f"PATH=VALUE,VALUE (units.A.defense=2,3), got {text!r}"
        )
    raw = [v.strip() for v in rest.split(",")]
    if any(not v for v in raw):
        raise TacticaError(f"--compare: an empty value in {text!r}")
    if len(raw) < 2:
        raise TacticaError(f"--compare: give at least two values to compare, got {text!r}")
    if len(set(raw)) != len(raw):
        raise TacticaError(f"--compare: a value is given twice in {text!r}")
    spec_is_ruling = bool(_RULING_ID.match(key))
    values: list[Any] = []
    for v in raw:
        if spec_is_ruling:
            values.append(v)
            continue
        try:
            values.append(yaml.safe_load(v))
        except yaml.YAMLError:
            values.append(v)
    return CompareSpec(key, tuple(values))


def _label(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _set_path(data: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    node: Any = data
    walked: list[str] = []
    for part in parts[:-1]:
        walked.append(part)
        node = _child(node, part, ".".join(walked))
    last = parts[-1]
    if isinstance(node, list):
        index = _index(node, last, path)
        node[index] = value
    elif isinstance(node, dict):
        node[last] = value
    else:
        raise TacticaError(f"--compare: {path}: {'.'.join(walked) or 'the scenario'} holds "
                           f"{node!r}, not fields")


def _index(node: list[Any], part: str, where: str) -> int:
    try:
        i = int(part)
    except ValueError:
        raise TacticaError(f"--compare: {where}: expected a position (0 .. {len(node) - 1}) "
                           f"in a list, got {part!r}") from None
    if not 0 <= i < len(node):
        raise TacticaError(f"--compare: {where}: position {i} is outside the list "
                           f"(0 .. {len(node) - 1})")
    return i


def _child(node: Any, part: str, where: str) -> Any:
    if isinstance(node, dict):
        if part not in node:
            known = ", ".join(map(str, node)) or "nothing"
            raise TacticaError(f"--compare: the scenario has no {where} (there: {known})")
        return node[part]
    if isinstance(node, list):
        return node[_index(node, part, where)]
    raise TacticaError(f"--compare: the scenario has no {where}: its parent holds {node!r}")


def variants_of(scenario: Scenario, spec: CompareSpec) -> list[Variant]:
    """The scenario under each value of ``spec``, validated (a TacticaError names the
    ruling, the path or the value that does not fit)."""
    out: list[Variant] = []
    if spec.is_ruling:
        declared = {r.id: r for r in scenario.rulings.declared()}
        if spec.key not in declared:
            raise TacticaError(f"--compare: unknown ruling {spec.key!r} for "
                               f"{scenario.ruleset.meta.title} (rulings: "
                               f"{', '.join(declared)})")
        for value in spec.values:
            label = f"{spec.key}={value}"
            try:
                variant = scenario.with_rulings({spec.key: str(value)}, where="--compare")
            except ScenarioError as exc:
                raise _invalid(label, exc) from None
            out.append(Variant(label, variant))
        return out
    for value in spec.values:
        data = copy.deepcopy(dict(scenario.data))
        _set_path(data, spec.key, value)
        label = f"{spec.key}={_label(value)}"
        try:
            variant = scenario_from_mapping(data, source=scenario.source,
                                            base_dir=scenario.base_dir,
                                            content_folders=scenario.content_folders)
        except ScenarioError as exc:
            raise _invalid(label, exc) from None
        out.append(Variant(label, variant))
    return out


def _invalid(label: str, exc: ScenarioError) -> TacticaError:
    """A variant that does not make a valid scenario, said in one line (its first problem,
    and how many more)."""
    problems = str(exc).splitlines()
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return TacticaError(f"--compare: {label} does not make a valid scenario: "
                        f"{problems[0]}{more}")


def comparable_variants(scenario: Scenario, spec: CompareSpec | str
                        ) -> tuple[CompareSpec, list[Variant]]:
    """``spec`` (parsed if text) and its variants of ``scenario``, refused if one changes the
    battle's sides (a comparison sets each side's figures under one variant beside the
    other's)."""
    if isinstance(spec, str):
        spec = parse_compare(spec)
    variants = variants_of(scenario, spec)
    sides = scenario.ruleset.sides_of(scenario.new_state())
    for v in variants:
        if v.scenario.ruleset.sides_of(v.scenario.new_state()) != sides:
            raise TacticaError(f"--compare: {v.label} changes the sides of the battle; "
                               "only variants with the same sides can be compared")
    return spec, variants


def describe(spec: CompareSpec) -> Mapping[str, Any]:
    """JSON-ready: what was varied and over which values."""
    return {"key": spec.key, "values": list(spec.values),
            "kind": "ruling" if spec.is_ruling else "field"}
