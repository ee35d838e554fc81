"""Every ruling of Arc is a named option with its default first, and the game's guide lists
each with every option."""

from __future__ import annotations

import re
from pathlib import Path

from tactica.rulesets.arc import ARC
from tactica.rulesets.arc.rulings import RULINGS

DOC = Path(__file__).parents[2] / "docs" / "rulesets" / "arc.md"


def test_the_rulings_are_declared_in_order_with_the_default_first() -> None:
    assert [r.id for r in RULINGS] == [f"ARC-{n}" for n in range(1, 34)]
    for ruling in RULINGS:
        assert next(iter(ruling.options)) == ruling.default, ruling.id
    assert ARC.meta.rulings == RULINGS


def test_every_ruling_and_option_is_in_the_guides_table_default_first() -> None:
    text = DOC.read_text(encoding="utf-8")
    for ruling in RULINGS:
        row = next((line for line in text.splitlines() if line.startswith(f"| {ruling.id} |")),
                   None)
        assert row is not None, ruling.id
        named = re.findall(r"`([a-z0-9-]+)`", row.split("|")[3])
        assert named and named[0] == ruling.default, ruling.id
        for option in ruling.options:
            assert option in named, (ruling.id, option)


def test_the_defaults_that_follow_the_seeds_wording() -> None:
    defaults = {r.id: r.default for r in RULINGS}
    assert defaults["ARC-1"] == "seed"            # "ascending DoS/failures descending DoS"
    assert defaults["ARC-24"] == "end-of-round"   # step 6, once all combatants have acted
    assert defaults["ARC-25"] == "total"          # the source's only worked example
