"""Last Odyssey's kernel at its fixed limits (``_kernel.LIMITS``, read from the compiled
module): at a limit the kernel plays the reference's battles, one past it the reference plays
and the engine line names the limit; the scenario bounds keep characters within the arrays."""

from __future__ import annotations

from pathlib import Path

import pytest

from tactica.cli import main
from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.rulesets import last_odyssey
from tactica.rulesets.last_odyssey import MAX_CHARACTERS, kernel
from tactica.testing import kernels as kt

PACK = Path(last_odyssey.__file__).parent / "content.yaml"
POLICIES = {"police": "greedy", "goblins": "random"}


def _limits() -> dict[str, int]:
    limits: dict[str, int] = kt.built_kernel(kernel).LIMITS
    return limits


def _cop_and_goblin(folder: Path, roll: tuple[int, int], name: str) -> Scenario:
    """The shipped pack but for the GM's initiative roll of ``roll`` (dice, sides): a Cop in
    front against a Goblin Skirmisher in front."""
    text = PACK.read_text()
    assert "initiative_roll: [2, 4]" in text
    (folder / f"{name}.yaml").write_text(
        text.replace("initiative_roll: [2, 4]", f"initiative_roll: [{roll[0]}, {roll[1]}]"))
    data = {"game": "last-odyssey", "name": name, "content": [f"{name}.yaml"],
            "map": {"kind": "rows", "sides": {"police": {"front": ["Cop"]},
                                              "goblins": {"front": ["Goblin"]}}},
            "units": {"Cop": {"enemy": "cop"}, "Goblin": {"enemy": "goblin-skirmisher"}}}
    return scenario_from_mapping(data, source=f"{name}-scenario.yaml", base_dir=folder)


def _totals(roll: tuple[int, int]) -> int:
    dice, sides = roll
    return dice * (sides - 1) + 1


def test_the_initiative_roll_limit(tmp_path: Path) -> None:
    most = _limits()["outcomes"]
    # the rolls the packs allow (at most 10 dice of 20 sides) with the most totals the kernel
    # holds, and with the fewest past it
    rolls = [(n, s) for n in range(1, 11) for s in range(2, 21)]
    at = max((r for r in rolls if _totals(r) <= most), key=_totals)
    past = min((r for r in rolls if _totals(r) > most), key=_totals)
    kt.assert_at_and_past_limit(
        _cop_and_goblin(tmp_path, at, "at"), _cop_and_goblin(tmp_path, past, "past"),
        f"a GM initiative roll of more than {most} totals ({_totals(past)})", POLICIES)


def test_a_7d20_initiative_roll_is_simulated_by_the_reference_with_the_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _cop_and_goblin(tmp_path, (7, 20), "pack")
    (tmp_path / "scenario.yaml").write_text(
        "game: last-odyssey\nname: 7d20\ncontent: [pack.yaml]\nmap:\n  kind: rows\n"
        "  sides:\n    police: {front: [Cop]}\n    goblins: {front: [Goblin]}\n"
        "units:\n  Cop: {enemy: cop}\n  Goblin: {enemy: goblin-skirmisher}\n")
    assert main(["validate", str(tmp_path / "scenario.yaml")]) == 0
    assert main(["simulate", str(tmp_path / "scenario.yaml"), "-n", "3", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert ("engine: the reference played every battle (a GM initiative roll of more than "
            f"{_limits()['outcomes']} totals (134))") in out


def test_the_scenario_bounds_keep_characters_within_the_kernel() -> None:
    limits = _limits()
    assert limits["characters"] >= MAX_CHARACTERS
    # the turn queue holds every character and each one's held turn
    assert 2 * limits["characters"] <= limits["queue"]


def test_the_legal_actions_never_pass_the_bound_the_kernel_is_sized_by(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel holds ``max_options`` legal actions (kernel._options_bound, checked against
    LIMITS["actions"] when prepared): no turn of the reference has more."""
    from tactica.analysis.simulate import play_battle
    from tactica.engine.ruleset import example_scenarios, get_ruleset
    from tactica.engine.scenario import load_scenario
    from tactica.rulesets.last_odyssey import flow

    most = [0]
    legal = flow.legal_actions

    def counted(state: object, unit: str) -> tuple[object, ...]:
        found = legal(state, unit)  # type: ignore[arg-type]
        most[0] = max(most[0], len(found))
        return found

    monkeypatch.setattr(flow, "legal_actions", counted)
    for path in example_scenarios(get_ruleset("last-odyssey")):
        sc = load_scenario(path)
        state = sc.new_state()
        fighters = list(state.fighters.values())
        bound = max(kernel._options_bound(state.pack, f, len(fighters)) for f in fighters)
        assert bound <= _limits()["actions"]
        sides = sc.ruleset.sides_of(state)
        for policy in ("greedy", "random"):
            most[0] = 0
            play_battle(sc, dict.fromkeys(sides, policy), 1, 0)
            assert 0 < most[0] <= bound, (path.stem, most[0], bound)


def test_the_pack_bounds_keep_the_bonus_track_within_the_kernel() -> None:
    from tactica.rulesets.last_odyssey.packfile import FiguresModel

    track = FiguresModel.model_fields["bonus_track"]
    most = next(m.max_length for m in track.metadata if hasattr(m, "max_length"))
    assert most <= _limits()["track"]
