"""Nebulia Operations' kernel at its fixed limits (``_kernel.LIMITS``, read from the compiled
module): at a limit the kernel plays the reference's battles, one past it the reference plays
and the engine line names the limit; the scenario bounds keep the map within the arrays."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.rulesets.nebulia import kernel
from tactica.testing import kernels as kt

POLICIES = {"red": "greedy", "blue": "random"}
RIFLE = {"name": "rifle", "range": "ranged", "accuracy": 6, "dice": 1, "damage": 1}


def _limits() -> dict[str, int]:
    limits: dict[str, int] = kt.built_kernel(kernel).LIMITS
    return limits


def _scenario(data: dict[str, Any]) -> Scenario:
    return scenario_from_mapping(data, source="limits.yaml", base_dir=Path("."))


def _crowd(operators: int) -> dict[str, Any]:
    """``operators`` operators in two lines across a 20 x 6 grid, two rounds."""
    ids = (string.ascii_uppercase + string.ascii_lowercase + string.digits)[:operators]
    rows = [["."] * 20 for _ in range(6)]
    for k, uid in enumerate(ids):
        rows[(k % 2) * 5 + (k // 40)][(k // 2) % 20] = uid
    return {
        "game": "nebulia-operations", "name": f"{operators} operators", "max_rounds": 2,
        "map": {"kind": "grid", "tiles": "\n".join("".join(r) for r in rows) + "\n"},
        "units": {uid: {"side": "red" if k % 2 == 0 else "blue", "defense": 2, "armor": 3,
                        "move": 3, "weapons": [RIFLE]}
                  for k, uid in enumerate(ids)},
    }


def test_the_operators_limit() -> None:
    most = _limits()["operators"]
    kt.assert_at_and_past_limit(
        _scenario(_crowd(most)), _scenario(_crowd(most + 1)),
        f"{most + 1} operators on 2 sides (the kernel plays up to {most} on "
        f"{_limits()['sides']})", POLICIES, battles=1)


def _armoury(weapons: int) -> dict[str, Any]:
    data = _crowd(2)
    data["units"]["A"]["weapons"] = [{**RIFLE, "name": f"rifle {k}"} for k in range(weapons)]
    return data


def test_the_weapons_limit() -> None:
    most = _limits()["weapons"]
    kt.assert_at_and_past_limit(_scenario(_armoury(most)), _scenario(_armoury(most + 1)),
                                f"an operator with more than {most} weapons", POLICIES)


def test_the_scenario_bounds_keep_the_map_within_the_kernel() -> None:
    from tactica.rulesets.nebulia.kernel import MAX_TILES

    assert _limits()["tiles"] >= MAX_TILES


def _pool(dice: int) -> dict[str, Any]:
    data = _crowd(2)
    data["max_rounds"] = 4
    data["units"]["A"]["weapons"] = [{**RIFLE, "dice": dice}]
    data["units"]["B"]["weapons"] = [{**RIFLE, "dice": dice, "accuracy": 3}]
    return data


def test_a_pool_whose_total_needs_more_than_64_bits_plays_on_the_kernel() -> None:
    from tactica.analysis.sim.kernels import prepared_kernel
    from tactica.engine.kernels import TWO64
    from tactica.rulesets.nebulia import rules

    sc = _scenario(_pool(20))
    assert any(rules._pool_dist(20, target, 0).total >= TWO64 for target in range(1, 11))
    tables = kernel._tables(sc.new_state(), sc.max_rounds)
    to_hit = {w["tohit_pool"] for o in tables["ops"] for w in o["weapons"]}
    assert to_hit & set(tables["wide"])  # a to-hit roll past 64 bits
    prepared = prepared_kernel(sc)
    assert not isinstance(prepared, kt.NotCovered), prepared.reason
    for policies in (POLICIES, {"red": "random", "blue": "random"}):
        for index in range(4):
            kt.assert_same_battle(sc, prepared, policies, 3, index)


def test_the_legal_actions_never_pass_the_arrays_the_kernel_sizes(monkeypatch: Any) -> None:
    """The kernel sizes its legal-action arrays when prepared: every tile for each operator's
    move, every weapon against every operator, and End: no choice of the reference has
    more."""
    from tactica.analysis.simulate import play_battle
    from tactica.engine.ruleset import example_scenarios, get_ruleset
    from tactica.engine.scenario import load_scenario
    from tactica.rulesets.nebulia import rules

    most = [0]
    choose = rules.ChooseAction

    def counted(side: str, actions: tuple[Any, ...], prompt: str) -> Any:
        most[0] = max(most[0], len(actions))
        return choose(side, actions, prompt)

    monkeypatch.setattr(rules, "ChooseAction", counted)
    scenarios = [load_scenario(p) for p in example_scenarios(get_ruleset("nebulia-operations"))]
    for sc in [*scenarios, _scenario(_crowd(_limits()["operators"]))]:
        state = sc.new_state()
        ops = list(state.ops.values())
        size = (len(ops) * state.grid.width * state.grid.height
                + sum(len(o.weapons) for o in ops) * len(ops) + 2)
        for policy in ("greedy", "random"):
            most[0] = 0
            play_battle(sc, dict.fromkeys(state.sides, policy), 1, 0)
            assert 0 < most[0] <= size, (sc.name, most[0], size)


def _sides(sides: int) -> dict[str, Any]:
    """One operator per side, ``sides`` sides, along the top and bottom rows."""
    data = _crowd(sides)
    data["units"] = {uid: {**unit, "side": f"s{k}"}
                     for k, (uid, unit) in enumerate(data["units"].items())}
    return data


def test_the_sides_limit() -> None:
    most = _limits()["sides"]
    policies = {f"s{k}": "greedy" for k in range(most + 1)}
    kt.assert_at_and_past_limit(
        _scenario(_sides(most)), _scenario(_sides(most + 1)),
        f"{most + 1} operators on {most + 1} sides (the kernel plays up to "
        f"{_limits()['operators']} on {most})", policies, battles=1)


def test_no_pool_has_more_outcomes_than_the_kernel_holds() -> None:
    """A pool of n dice has at most n + 1 outcomes (0 to n successes); the scenario bounds
    allow pools of at most so many dice."""
    from tactica.rulesets.nebulia.content import WeaponModel
    from tactica.rulesets.nebulia.rules import _pool_dist

    dice = WeaponModel.model_fields["dice"]
    most = next(m.le for m in dice.metadata if hasattr(m, "le"))
    assert len(_pool_dist(most, 10, 0).outcomes) <= most + 1 <= _limits()["outcomes"]
