"""Every ruling of Skirmishers is a named option with a default, documented, and in force."""

from __future__ import annotations

from pathlib import Path

from tactica.engine.ruleset import get_ruleset
from tactica.engine.rulings import Rulings
from tactica.rulesets.skirmishers import RULINGS, SKIRMISHERS
from tactica.rulesets.skirmishers.geometry import GEOMETRY_RULINGS

DOC = Path(__file__).parents[2] / "docs" / "rulesets" / "skirmishers.md"


def test_every_ruling_of_the_rule_file_and_the_new_ones_are_declared_in_order() -> None:
    ids = [r.id for r in RULINGS]
    assert ids == [f"SKI-{n}" for n in range(1, 43)]
    assert all(g in RULINGS for g in GEOMETRY_RULINGS)
    for ruling in RULINGS:
        assert next(iter(ruling.options)) == ruling.default
    assert get_ruleset("skirmishers") is SKIRMISHERS and get_ruleset("ski") is SKIRMISHERS
    assert SKIRMISHERS.meta.rulings == RULINGS and SKIRMISHERS.meta.battlefield == "dots"


def test_every_ruling_and_option_is_in_the_games_guide() -> None:
    text = DOC.read_text()
    for ruling in RULINGS:
        assert f"| {ruling.id} |" in text, ruling.id
        for option in ruling.options:
            assert f"`{option}`" in text, (ruling.id, option)


def test_the_geometry_rulings_reach_the_lattice() -> None:
    rulings = Rulings(RULINGS, {"SKI-12": "tangent", "SKI-4": "block"})
    opts = SKIRMISHERS.sight_options(rulings)
    assert opts["tangent"] == "counts" and opts["intervening"] == "block"
