"""Skirmishers' kernel at its fixed limits (``_kernel.LIMITS``, read from the compiled module):
at a limit the kernel plays the reference's battles, one past it the reference plays and the
engine line names the limit; the buffers a battle fills are checked before each write."""

from __future__ import annotations

import dataclasses
import string
from pathlib import Path
from typing import Any

import pytest

from tactica.analysis.simulate import simulate
from tactica.cli import main
from tactica.engine.ruleset import NotCovered
from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.rulesets.skirmishers import kernel
from tactica.testing import kernels as kt

POLICIES = {"red": "greedy", "blue": "random"}


def _limits() -> dict[str, int]:
    limits: dict[str, int] = kt.built_kernel(kernel).LIMITS
    return limits


def _tower(stairs: int, max_rounds: int = 3) -> dict[str, Any]:
    """Two troopers beside a two-floor tower of 13 x 5 dots with ``stairs`` stairs."""
    dots = [[c, r] for r in range(5) for c in range(13)]
    assert stairs <= len(dots)
    return {
        "game": "skirmishers", "name": f"{stairs} stairs", "max_rounds": max_rounds,
        "map": {"kind": "dots", "levels": {"ground": "\n".join([
            ". . . . . . . . . . . . . A",
            " . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . .",
            " . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . .",
            " . . . . . . . . . . . . . B"]) + "\n"},
            "buildings": [{"name": "Tower", "from": [0, 0], "to": [12, 4], "floors": 2,
                           "stairs": dots[:stairs]}]},
        "units": {"A": {"side": "red", "primary": "rifle"},
                  "B": {"side": "blue", "primary": "rifle"}},
    }


def _scenario(data: dict[str, Any]) -> Scenario:
    return scenario_from_mapping(data, source="limits.yaml", base_dir=Path("."))


def test_the_stairs_limit() -> None:
    most = _limits()["stairs"]
    kt.assert_at_and_past_limit(_scenario(_tower(most)), _scenario(_tower(most + 1)),
                                f"more than {most} stairs on the map", POLICIES)


def test_65_stairs_are_simulated_by_the_reference_with_the_reason(
        tmp_path: Path, capsys: Any) -> None:
    import yaml

    path = tmp_path / "stairs.yaml"
    path.write_text(yaml.safe_dump(_tower(65, max_rounds=100)))
    assert main(["simulate", str(path), "-n", "2", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "engine: the reference played every battle (more than 64 stairs on the map)" in out


def _crowd(troopers: int) -> dict[str, Any]:
    """``troopers`` troopers in two rows facing each other across a 20 x 8 field."""
    ids = (string.ascii_uppercase + string.ascii_lowercase + string.digits)[:troopers]
    rows = [["."] * 20 for _ in range(8)]
    for k, uid in enumerate(ids):
        rows[0 if k % 2 == 0 else 7][k // 2] = uid
    text = "\n".join((" " if r % 2 else "") + " ".join(row) for r, row in enumerate(rows))
    return {
        "game": "skirmishers", "name": f"{troopers} troopers", "max_rounds": 1,
        "map": {"kind": "dots", "levels": {"ground": text + "\n"}},
        "units": {uid: {"side": "red" if k % 2 == 0 else "blue", "primary": "rifle"}
                  for k, uid in enumerate(ids)},
    }


def test_the_troopers_limit() -> None:
    most = _limits()["troopers"]
    kt.assert_at_and_past_limit(
        _scenario(_crowd(most)), _scenario(_crowd(most + 1)),
        f"{most + 1} troopers on 2 sides (more than {most} troopers or "
        f"{_limits()['sides']} sides)", POLICIES, battles=1)


def test_a_simulation_past_a_limit_counts_the_reason() -> None:
    most = _limits()["stairs"]
    report = simulate(_scenario(_tower(most + 1)), battles=2, seed=1, workers=1)
    kt.assert_reference_played(report, 2, f"more than {most} stairs on the map")


def _field(cols: int, rows: int) -> dict[str, Any]:
    """Two troopers a side at the corners of a ``cols`` x ``rows`` open field."""
    grid = [["."] * cols for _ in range(rows)]
    grid[0][0], grid[2][1] = "A", "C"
    grid[rows - 1][cols - 1], grid[rows - 3][cols - 2] = "B", "D"
    text = "\n".join((" " if r % 2 else "") + " ".join(row) for r, row in enumerate(grid))
    return {"game": "skirmishers", "name": "field", "max_rounds": 4,
            "map": {"kind": "dots", "levels": {"ground": text + "\n"}},
            "units": {"A": {"side": "red", "primary": "rifle"},
                      "C": {"side": "red", "primary": "smg"},
                      "B": {"side": "blue", "primary": "rifle"},
                      "D": {"side": "blue", "primary": "smg"}}}


def test_preparing_on_a_large_map_builds_no_line_of_sight_ahead() -> None:
    from tactica.battlefield.dots import fast

    kt.built_kernel(kernel)
    sc = _scenario(_field(47, 43))  # a size no other test uses: its sight table is new
    prepared = kernel.prepare(sc)
    assert isinstance(prepared, kernel.SkirmishersKernel)
    tables, _ = kernel._tables(sc.new_state())
    table = tables["sight"]  # the shared table of the map's box (fast._table)
    assert table is fast._table(tables["width"], tables["height"])
    assert table.view is not None and table.view.start.size == 0  # nothing looked along yet
    kt.assert_same_battle(sc, prepared, POLICIES, 1, 0)
    grown = table.view.start.size
    assert 0 < grown < (2 * 47 - 1) * (2 * 43 - 1)  # only the offsets the battle looked along


#: Four troopers at arm's length on a small yard, with grenades: melee attacks and throws.
YARD: dict[str, Any] = {
    "game": "skirmishers", "name": "Yard", "max_rounds": 4,
    "map": {"kind": "dots", "name": "Yard",
            "levels": {"ground": ". . . . . .\n . A B . . .\n. C D . . .\n . . . . . .\n"}},
    "units": {
        "A": {"side": "red", "primary": "pistol", "melee": ["stun-baton"],
              "active": "stun-baton"},
        "B": {"side": "blue", "primary": "pistol", "melee": ["blackjack"],
              "active": "blackjack"},
        "C": {"side": "red", "primary": "smg", "active": "knife"},
        "D": {"side": "blue", "primary": "smg", "melee": ["club"]},
    }}


def _plays(prepared: Any, buffer: str, most: int, policies: dict[str, str], index: int
           ) -> Any:
    prepared.engine.hold(buffer, most)
    try:
        return prepared.play(policies, 1, index, 20_000)
    finally:
        prepared.engine.hold(buffer, _limits()[buffer])


@pytest.mark.parametrize(("buffer", "reason"), [
    ("actions", "more than {} actions to choose from"),
    ("tokens", "more than {} explosives waiting"),
    ("melee", "more than {} melee attacks waiting"),
])
def test_each_buffer_is_checked_before_it_is_written(buffer: str, reason: str) -> None:
    """The fewest entries a battle needs in the buffer: with that many the kernel plays the
    reference's battle; with one fewer the write is refused and the reference plays."""
    sc = _scenario(YARD)
    prepared = kernel.prepare(sc)
    assert isinstance(prepared, kernel.SkirmishersKernel)
    tried = 0
    for policies in ({"red": "greedy", "blue": "greedy"}, {"red": "random", "blue": "random"}):
        for index in range(4):
            want = kt.assert_same_battle(sc, prepared, policies, 1, index, consulted=False)
            low, high = 0, _limits()[buffer]  # plays with high, not with low - 1
            while low < high:
                middle = (low + high) // 2
                if isinstance(_plays(prepared, buffer, middle, policies, index), NotCovered):
                    low = middle + 1
                else:
                    high = middle
            fewest = low
            assert _plays(prepared, buffer, fewest, policies, index) == \
                dataclasses.replace(want, consulted=frozenset())
            if fewest == 0:
                continue
            tried += 1
            found = _plays(prepared, buffer, fewest - 1, policies, index)
            assert isinstance(found, NotCovered)
            assert found.reason == reason.format(fewest - 1)
    assert tried  # some battle filled the buffer


def test_the_sides_limit() -> None:
    most = _limits()["sides"]

    def sides(n: int) -> dict[str, Any]:
        data = _crowd(n)
        data["units"] = {uid: {**unit, "side": f"s{k}"}
                         for k, (uid, unit) in enumerate(data["units"].items())}
        return data

    kt.assert_at_and_past_limit(
        _scenario(sides(most)), _scenario(sides(most + 1)),
        f"{most + 1} troopers on {most + 1} sides (more than {_limits()['troopers']} troopers "
        f"or {most} sides)", {f"s{k}": "greedy" for k in range(most + 1)}, battles=1)


def _storeys(floors: int) -> Scenario:
    """Two troopers a side on the largest open field the scenario bounds allow, with a small
    building of ``floors`` floors in it (each floor is a level of the whole map)."""
    from tactica.rulesets.skirmishers.setup import MAX_DOTS_SIDE

    side = MAX_DOTS_SIDE
    grid = [["."] * side for _ in range(side)]
    grid[0][0], grid[2][1] = "A", "C"
    grid[side - 1][side - 1], grid[side - 3][side - 2] = "B", "D"
    text = "\n".join((" " if r % 2 else "") + " ".join(row) for r, row in enumerate(grid))
    data = {"game": "skirmishers", "name": f"{floors} floors", "max_rounds": 2,
            "map": {"kind": "dots", "levels": {"ground": text + "\n"},
                    "buildings": [{"name": "Tower", "from": [20, 20], "to": [22, 22],
                                   "floors": floors, "stairs": [[20, 20]]}]},
            "units": {"A": {"side": "red", "primary": "rifle"},
                      "C": {"side": "red", "primary": "smg"},
                      "B": {"side": "blue", "primary": "rifle"},
                      "D": {"side": "blue", "primary": "smg"}}}
    return _scenario(data)


def _places(sc: Scenario) -> tuple[int, int]:
    """The padded places of one level of the scenario's map, and its levels."""
    from tactica.battlefield.dots.fast import lattice_arrays

    lattice = sc.new_state().lattice
    return lattice_arrays(lattice).cells, len(lattice.level_names)


def test_the_places_limit() -> None:
    """The largest map has the most places on a level; floors enough pass the kernel's
    places (levels times padded places), one floor fewer is within them."""
    most = _limits()["places"]
    sizes = {f: _places(_storeys(f)) for f in range(2, 11)}
    floors = next(f for f, (cells, levels) in sizes.items() if cells * levels > most)
    levels = sizes[floors][1]
    side = _storeys(floors).new_state().lattice
    kt.assert_at_and_past_limit(
        _storeys(floors - 1), _storeys(floors),
        f"a map of {side.cols} x {side.rows} dots on {levels} levels (more than {most} places "
        "with the padding)", POLICIES, battles=1)


def test_no_level_of_a_map_passes_the_kernel_s_places_of_one_level() -> None:
    cells, _ = _places(_storeys(2))  # the largest map the scenario bounds allow
    assert cells <= _limits()["cells"]


def test_no_explosive_has_more_rings_than_the_kernel_holds() -> None:
    from tactica.rulesets.skirmishers.content import ExplosiveModel

    rings = ExplosiveModel.model_fields["rings"]
    most = next(m.max_length for m in rings.metadata if hasattr(m, "max_length"))
    assert most <= _limits()["rings"]
