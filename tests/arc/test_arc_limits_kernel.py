"""Arc's kernel at its fixed limits (``_kernel.LIMITS``, read from the compiled module): at a
limit the kernel plays the reference's battles, one past it the reference plays and the
engine line names the limit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.rulesets.arc import kernel
from tactica.testing import kernels as kt

RIFLE = {"name": "rifle", "damage": "3d6", "type": "ballistic", "spread": 4, "rof": 3,
         "accuracy": [0, 0]}


def _limits() -> dict[str, int]:
    limits: dict[str, int] = kt.built_kernel(kernel).LIMITS
    return limits


def _scenario(data: dict[str, Any]) -> Scenario:
    return scenario_from_mapping(data, source="limits.yaml", base_dir=Path("."))


def _crowd(characters: int) -> dict[str, Any]:
    """``characters`` riflemen of two sides, no map (everyone reaches everyone), one round."""
    return {
        "game": "arc", "name": f"{characters} characters", "max_rounds": 1,
        "units": {f"U{k}": {"side": "red" if k % 2 == 0 else "blue",
                            "skills": {"guns": 14, "evade": 12}, "health": 16,
                            "weapons": [RIFLE]}
                  for k in range(characters)},
    }


def test_the_characters_limit() -> None:
    most = _limits()["characters"]
    kt.assert_at_and_past_limit(
        _scenario(_crowd(most)), _scenario(_crowd(most + 1)),
        f"{most + 1} characters on 2 sides (the kernel plays up to {most} on "
        f"{_limits()['sides']})", {"red": "greedy", "blue": "random"}, battles=1)


def _armed(weapons: int) -> dict[str, Any]:
    data = _crowd(2)
    data["units"]["U0"]["weapons"] = [{**RIFLE, "name": f"rifle {k}"} for k in range(weapons)]
    return data


def test_the_weapons_limit() -> None:
    most = _limits()["weapons"]
    kt.assert_at_and_past_limit(
        _scenario(_armed(most)), _scenario(_armed(most + 1)),
        f"U0 carries more than {most} weapons, {_limits()['armor']} armor dice or "
        f"{_limits()['items']} kinds of item", {"red": "greedy", "blue": "random"})


def _sides(sides: int) -> dict[str, Any]:
    data = _crowd(sides)
    data["units"] = {uid: {**unit, "side": f"s{k}"}
                     for k, (uid, unit) in enumerate(data["units"].items())}
    return data


def test_the_sides_limit() -> None:
    most = _limits()["sides"]
    kt.assert_at_and_past_limit(
        _scenario(_sides(most)), _scenario(_sides(most + 1)),
        f"{most + 1} characters on {most + 1} sides (the kernel plays up to "
        f"{_limits()['characters']} on {most})", {f"s{k}": "greedy" for k in range(most + 1)},
        battles=1)


#: Shipped armor, by its dice: two pieces of two dice and one of one.
_ARMOR = {"plate-carrier": 2, "riot-suit": 2, "armored-jacket": 1}


def _worn(dice: int) -> dict[str, Any]:
    """U0 wears shipped armor of ``dice`` dice in all (the fewest pieces that make it)."""
    data = _crowd(2)
    worn, left = [], dice
    for piece, n in _ARMOR.items():
        if n <= left:
            worn.append(piece)
            left -= n
    assert left == 0, dice
    data["units"]["U0"]["armor"] = worn
    return data


def test_the_armor_dice_limit() -> None:
    most = _limits()["armor"]
    kt.assert_at_and_past_limit(
        _scenario(_worn(most)), _scenario(_worn(most + 1)),
        f"U0 carries more than {_limits()['weapons']} weapons, {most} armor dice or "
        f"{_limits()['items']} kinds of item", {"red": "greedy", "blue": "random"})


def _stocked(folder: Path, kinds: int) -> Scenario:
    """U0 carries one of each of ``kinds`` kinds of medhypo (a pack of its own)."""
    import yaml

    pack = {"items": {f"hypo-{k}": {"name": f"Hypo {k}", "cost": [2, 1], "heal": "2d4"}
                      for k in range(kinds)}}
    (folder / "hypos.yaml").write_text(yaml.safe_dump(pack))
    data = _crowd(2)
    data["content"] = ["hypos.yaml"]
    data["units"]["U0"]["items"] = {f"hypo-{k}": 1 for k in range(kinds)}
    return scenario_from_mapping(data, source=str(folder / "s.yaml"), base_dir=folder)


def test_the_kinds_of_item_limit(tmp_path: Path) -> None:
    most = _limits()["items"]
    kt.assert_at_and_past_limit(
        _stocked(tmp_path, most), _stocked(tmp_path, most + 1),
        f"U0 carries more than {_limits()['weapons']} weapons, {_limits()['armor']} armor "
        f"dice or {most} kinds of item", {"red": "greedy", "blue": "random"})


def _rapid(rof: int) -> dict[str, Any]:
    """U0's rifle fires ``rof`` shots an attack (as many hits at most), of 1d4 each."""
    data = _crowd(2)
    data["units"]["U0"]["weapons"] = [{**RIFLE, "rof": rof, "damage": "1d4"}]
    return data


def test_the_hits_limit() -> None:
    most = _limits()["hits"]
    kt.assert_at_and_past_limit(_scenario(_rapid(most)), _scenario(_rapid(most + 1)),
                                f"the rifle's rate of fire (the kernel plays up to {most})",
                                {"red": "greedy", "blue": "random"}, battles=1)
