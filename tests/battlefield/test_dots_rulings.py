"""The Skirmishers geometry rulings as named options, mapped onto the dot lattice."""

from __future__ import annotations

from pathlib import Path

import pytest

from tactica.engine.errors import RulingError
from tactica.engine.maps import load_map
from tactica.rulesets.skirmishers.geometry import (
    GEOMETRY_RULINGS,
    blast_options,
    sight_options,
)

EXAMPLES = Path(__file__).parents[2] / "examples" / "skirmishers"


def test_every_geometry_ruling_is_declared_default_first() -> None:
    ids = [r.id for r in GEOMETRY_RULINGS]
    assert ids == ["SKI-4", "SKI-8", "SKI-10", "SKI-11", "SKI-12", "SKI-13", "SKI-14",
                   "SKI-15", "SKI-16", "SKI-21", "SKI-23", "SKI-34", "SKI-35", "SKI-37"]
    for r in GEOMETRY_RULINGS:
        assert next(iter(r.options)) == r.default


def test_defaults_and_alternatives_map_onto_lattice_options() -> None:
    assert sight_options({}) == {"intervening": "cover", "range_steps": "lattice",
                                 "range_levels": "add", "tangent": "clear",
                                 "prone_low": "prone", "floors": "block"}
    other = sight_options({"SKI-4": "block", "SKI-10": "walkable", "SKI-11": "steps-only",
                           "SKI-12": "tangent", "SKI-14": "literal",
                           "SKI-15": "floors-ignored", "SKI-3": "as-written"})
    assert other == {"intervening": "block", "range_steps": "walk", "range_levels": "ignore",
                     "tangent": "counts", "prone_low": "firer", "floors": "ignore"}
    assert blast_options({}) == {"floors": "pass", "tangent": "clear"}


def test_the_options_work_on_a_lattice() -> None:
    lat = load_map(EXAMPLES / "lane-trooper.yaml")
    assert lat.sight_report("A", "B", **sight_options({})).cover == 1
    blocked = lat.sight_report("A", "B", **sight_options({"SKI-4": "block"}))
    assert blocked.visible is False


def test_unknown_values_are_refused() -> None:
    with pytest.raises(RulingError, match="SKI-12: unknown option 'fuzzy'"):
        sight_options({"SKI-12": "fuzzy"})
    with pytest.raises(RulingError, match="not a Skirmishers ruling"):
        sight_options({"NEB-3": "manhattan"})
