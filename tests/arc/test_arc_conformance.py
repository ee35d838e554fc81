"""Arc conforms: every example scenario through the core and every command
(:func:`tactica.testing.check_game`, the sweep any game runs)."""

from __future__ import annotations

from pathlib import Path

from tactica.engine.ruleset import get_ruleset
from tactica.testing import check_game


def test_arc_passes_the_conformance_sweep(tmp_path: Path) -> None:
    report = check_game(get_ruleset("arc"), workdir=tmp_path)
    assert report.scenarios and "play and resume: " + report.scenarios[0].name in report.passed
