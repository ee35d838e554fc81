"""The compiled simulation kernel plays the reference's Last Odyssey battles, battle for battle.

Every example scenario x both policies x every option of every ruling the kernel covers (each
option on its own, and a few mixes of all of them) x seeds: the kernel's BattleResult equals
the reference's (:func:`tactica.analysis.sim.play.play_battle`), and so does the set of rulings
the battle consulted (``play_consulted``'s bit mask against ``play_battle(consulted=True)``).
Generated scenarios add what the examples never reach (statuses, Shells and items set up
front, three sides, a pack's own abilities). A battle the kernel does not cover is played by
the reference and counted as such.
``make test`` fails when the kernel was not built, unless ``TACTICA_KERNELS_OPTIONAL=1`` says
that is expected (a machine without a C compiler).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tactica.analysis.sim.kernels import prepared_kernel, simulated_battle
from tactica.analysis.simulate import play_battle, simulate
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.rulesets.last_odyssey import kernel
from tactica.rulesets.last_odyssey.rulings import RULINGS
from tactica.testing import kernels as kt

LOD = get_ruleset("last-odyssey")
SCENARIOS = {p.stem: p for p in example_scenarios(LOD)}
#: Seeds per battle setting: the duel is short, the party's battles longer.
BATTLES = {"cop-vs-goblin": 8, "goblins": 3, "police": 3}
MIXES = 3


def test_the_kernel_is_built() -> None:
    kt.require_built("tactica.rulesets.last_odyssey._kernel")


def _module() -> Any:
    return kt.built_kernel(kernel)


def test_the_kernel_covers_every_declared_ruling_option() -> None:
    kt.assert_covers_declared_rulings(RULINGS, kernel.COVERED_RULINGS)


VARIANTS = kt.ruling_variants(RULINGS, seed=29, mixes=MIXES)


def _scenario(name: str, variant: str) -> Scenario:
    return kt.with_rulings(load_scenario(SCENARIOS[name]), VARIANTS[variant])


def _same(sc: Scenario, policies: dict[str, str], seed: int, index: int,
          max_steps: int = 20_000) -> None:
    """The kernel's battle is the reference's, and it consulted the same rulings."""
    kt.assert_same_battle(sc, prepared_kernel(sc), policies, seed, index, max_steps)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_kernel_plays_the_reference_battles(name: str, variant: str) -> None:
    _module()
    sc = _scenario(name, variant)
    sides = sc.ruleset.sides_of(sc.new_state())
    seed = 2000 + len(variant)
    for policy in ("greedy", "random"):
        for index in range(BATTLES[name]):
            _same(sc, dict.fromkeys(sides, policy), seed, index)
    _same(sc, {sides[0]: "greedy", sides[1]: "random"}, seed, 0)
    _same(sc, {sides[0]: "random", sides[1]: "greedy"}, seed, 1)


@pytest.mark.parametrize("max_steps", [1, 2, 3, 7, 20])
def test_a_battle_stopped_at_the_step_budget_is_the_same(max_steps: int) -> None:
    _module()
    sc = load_scenario(SCENARIOS["police"])
    for policy in ("greedy", "random"):
        _same(sc, dict.fromkeys(("party", "police"), policy), 5, 1, max_steps)


def test_consulted_rulings_come_from_the_kernel_and_match_the_reference() -> None:
    _module()
    got = kt.assert_consulted_by_kernel(_scenario("goblins", "defaults"),
                                        {"party": "greedy", "goblins": "random"}, 4, 2)
    # every attack reads the hit die's rulings; no side strikes first here (LOD-24), and
    # LOD-13 has one reading only
    assert {"LOD-1", "LOD-2", "LOD-8", "LOD-16", "LOD-18"} <= got.consulted
    assert "LOD-13" not in got.consulted and "LOD-24" not in got.consulted


def test_a_ruling_no_battle_reads_is_counted_so_on_the_kernel() -> None:
    from tactica.analysis.simulate import compare

    _module()
    sc = load_scenario(SCENARIOS["cop-vs-goblin"])  # nobody strikes first
    report = compare(sc, "LOD-24=initiative,listed", battles=12, seed=1, workers=1)
    assert report.consulted(1) == 0
    assert report.to_dict()["engine"] == {"kernel": 24, "reference": 0, "reasons": {}}
    read = compare(sc, "LOD-1=base,die-only", battles=12, seed=1, workers=1)
    assert read.consulted(1) == 12


def test_effects_are_the_same_with_and_without_the_kernel() -> None:
    from tactica.analysis.effects import effects

    _module()
    sc = load_scenario(SCENARIOS["cop-vs-goblin"])
    _, engine_on, engine_off = kt.assert_same_without_kernels(
        lambda: effects(sc, battles=6, seed=2, workers=1).to_dict())
    assert engine_on["reference"] == 0 and engine_off["kernel"] == 0
    assert engine_on["kernel"] == engine_off["reference"] > 0


def test_a_kernel_that_cannot_say_what_it_consulted_leaves_the_battle_to_the_reference() -> None:
    _module()
    kt.assert_reference_when_not_consulting(_scenario("cop-vs-goblin", "defaults"),
                                            {"police": "greedy", "goblins": "greedy"}, 4, 2)


def test_a_draw_at_the_round_limit_is_the_same() -> None:
    _module()
    sc = load_scenario(SCENARIOS["goblins"])
    data = dict(sc.data)
    data["max_rounds"] = 1
    short = scenario_from_mapping(data, source="short.yaml", base_dir=sc.base_dir)
    prepared = prepared_kernel(short)
    policies = {"party": "greedy", "goblins": "greedy"}
    results = [kt.assert_same_battle(short, prepared, policies, 2, i) for i in range(4)]
    assert any(r.winner is None and r.finished for r in results)


# -- beyond the examples: generated battles --------------------------------------------------

_PACK = """
abilities:
  stun: {name: Stun, type: ranged, mp: 2, attack: status, status: paralyzed}
  hush: {name: Hush, type: ranged, mp: 2, attack: status, status: silenced}
  chill: {name: Chill, type: melee, attack: status, status: frostbitten}
  tire: {name: Tire, type: ranged, attack: status, status: fatigued}
  stone: {name: Stone, type: ranged, mp: 1, attack: status, status: petrified}
  mend-and-sting: {name: Mend and Sting, type: ally, heal: 3, hurt: 2, buff: eva, debuff: eva}
  flare: {name: Flare, type: multi, reach: ranged, area: all-enemies, attack: magical,
          elements: [fire, light], multiplier: 0.5}
  big-hit: {name: Big Hit, type: melee, ap: 3, attack: physical, multiplier: 3,
            full_hp_multiplier: 5}
  refresh: {name: Refresh, type: self, restore_mp: 4, shell: 3, element: water, cure: [burned]}
  guard-ward: {name: Guard Ward, type: passive, passive: faithful, protects: Shaman}
enemies:
  hexer:
    {name: Hexer, kind: fairy, rank: normal, element: light, hp: 9, shell: 4, mp: 12,
     init: 6, patk: 3, matk: 5, pdef: 1, mdef: 2, eva: 3, res: 3, pacc: 3, macc: 5, sacc: 6,
     ammo: 1, abilities: [stun, hush, chill, tire, stone, flare, refresh, pistol, reload]}
  brute:
    {name: Brute, kind: fairy, rank: elite, element: earth, hp: 16, shell: 0, mp: 6,
     init: 2, patk: 6, matk: 0, pdef: 3, mdef: 0, eva: 1, res: 1, pacc: 5, macc: 0, sacc: 1,
     tier: 6, abilities: [big-hit, mend-and-sting, guard-ward, quick-fingers, steal]}
"""

_TEMPLATES = ["cop", "hover-drone", "spider-drone", "lieutenant", "captain",
              "goblin-skirmisher", "arsonist", "prankster", "boar-rider", "shaman",
              "hexer", "brute"]
_CHARACTERS = ["rook", "vesper", "lark", "moss"]
_STATUSES = ["burned", "confused", "petrified", "blinded", "frostbitten", "fatigued",
             "paralyzed", "silenced", "poisoned"]


def _generated(k: int, folder: Path) -> Scenario:
    """A seeded random battle: two or three sides of enemies and characters (ids with
    quotes and spaces), some hurt, with statuses, Shells, items and steps on the bonus track
    set up front, a pack's own abilities, and random rulings."""
    pick = random.Random(500 + k)
    (folder / "pack.yaml").write_text(_PACK)
    sides = ["party", "foes", "third"][: pick.choice((2, 2, 3))]
    rows: dict[str, dict[str, list[str]]] = {s: {"front": [], "back": []} for s in sides}
    units: dict[str, Any] = {}
    count = pick.randint(len(sides) + 1, 9)
    for i in range(count):
        side = sides[i % len(sides)]
        uid = pick.choice(["Ann", "O'Neil", "Bo \"B\"", "Cy", "Di"]) + f" {i}"
        unit: dict[str, Any] = ({"character": pick.choice(_CHARACTERS)}
                                if side == "party" or pick.random() < 0.15
                                else {"enemy": pick.choice(_TEMPLATES)})
        if pick.random() < 0.3:
            unit["statuses"] = pick.sample(_STATUSES, pick.randint(1, 2))
        if pick.random() < 0.2:
            unit["hp"] = pick.randint(1, 6)
        if pick.random() < 0.2:
            unit["mp"] = pick.randint(0, 8)
        if pick.random() < 0.2:
            unit["shells"] = {pick.choice(["fire", "water", "colorless"]): pick.randint(1, 6)}
        if pick.random() < 0.2:
            unit["track"] = {pick.choice(["patk", "eva", "pacc", "res"]): pick.randint(-2, 2)}
        if pick.random() < 0.2:
            unit["items"] = pick.sample(["potion", "ether", "remedy", "potion"],
                                        pick.randint(0, 3))
        if pick.random() < 0.1:
            unit["ammo"] = pick.randint(0, 2)
        units[uid] = unit
        rows[side][pick.choice(["front", "front", "back"])].append(uid)
    data = {
        "game": "last-odyssey", "name": f"generated {k}",
        "max_rounds": pick.randint(2, 12),
        "rulings": {r.id: pick.choice(sorted(r.options)) for r in RULINGS},
        "map": {"kind": "rows", "sides": rows},
        "units": units,
        "content": ["pack.yaml"],
    }
    if pick.random() < 0.4:
        data["first_strike"] = pick.choice(sides)
    return scenario_from_mapping(data, source=f"generated-{k}.yaml", base_dir=folder)


@pytest.mark.parametrize("k", range(16))
def test_the_kernel_plays_generated_battles_as_the_reference(k: int, tmp_path: Path) -> None:
    _module()
    sc = _generated(k, tmp_path)
    sides = sc.ruleset.sides_of(sc.new_state())
    for policy in ("greedy", "random"):
        for index in range(3):
            _same(sc, dict.fromkeys(sides, policy), k, index)


# -- what the kernel does not cover is played by the reference, and counted ------------------

_REACTION_PACK = """
abilities:
  riposte: {name: Riposte, type: reaction, trigger: missed-in-melee, reaction: knife}
  spikes: {name: Spikes, type: reaction, trigger: hit-in-melee, reaction: prick}
  prick: {name: Prick, type: self, hurt: 2}
  thorns: {name: Thorns, type: reaction, trigger: attacked-in-melee, reaction: cattle-prod}
  grudge: {name: Revenge, type: reaction, trigger: hit-in-melee, reaction: fists}
  second-wind: {name: Second Wind, type: reaction, trigger: hit-in-melee, reaction: recover}
  recover: {name: Recover, type: self, mp: 2, restore_mp: 3, once_per_battle: true}
enemies:
  fencer:
    {name: Fencer, kind: human, rank: normal, element: wind, hp: 14, shell: 0, mp: 0, init: 4,
     patk: 3, matk: 0, pdef: 1, mdef: 1, eva: 3, res: 1, pacc: 4, macc: 0, sacc: 0,
     abilities: [knife, riposte, spikes]}
  hedgehog:
    {name: Hedgehog, kind: beast, rank: normal, element: earth, hp: 16, shell: 0, mp: 9,
     init: 2, patk: 2, matk: 1, pdef: 2, mdef: 1, eva: 2, res: 1, pacc: 3, macc: 1, sacc: 0,
     abilities: [fists, thorns, revenge, second-wind, grudge]}
  pickpocket:
    {name: Pickpocket, kind: human, rank: normal, element: shadow, hp: 10, shell: 0, mp: 4,
     init: 6, patk: 2, matk: 0, pdef: 1, mdef: 1, eva: 4, res: 1, pacc: 4, macc: 0, sacc: 0,
     abilities: [knife, steal, quick-fingers, riposte, thorns]}
"""


def _with_reaction(folder: Path, rows: dict[str, Any] | None = None,
                   units: dict[str, Any] | None = None) -> Scenario:
    (folder / "fencers.yaml").write_text(_REACTION_PACK)
    data = {
        "game": "last-odyssey", "name": "Fencers", "content": ["fencers.yaml"],
        "map": {"kind": "rows", "sides": rows or {"a": {"front": ["Cop"]},
                                                  "b": {"front": ["F"]}}},
        "units": units or {"Cop": {"enemy": "cop"}, "F": {"enemy": "fencer"}},
    }
    return scenario_from_mapping(data, source="fencers.yaml", base_dir=folder)


def _melee(folder: Path) -> Scenario:
    """Two sides that meet in melee, each with declared reactions (every trigger, a reaction
    that attacks, one that hurts the attacker, one that costs MP once per battle, one named
    as Revenge's die is), beside Revenge and Quick Fingers."""
    return _with_reaction(folder, {
        "a": {"front": ["Fen", "Hog"], "back": ["Cop"]},
        "b": {"front": ["Pick", "Hog2", "Fen2"]},
    }, {"Fen": {"enemy": "fencer"}, "Hog": {"enemy": "hedgehog"}, "Cop": {"enemy": "cop"},
        "Pick": {"enemy": "pickpocket"}, "Hog2": {"enemy": "hedgehog"},
        "Fen2": {"enemy": "fencer"}})


@pytest.mark.parametrize("option", ["free", "costed"])
def test_the_kernel_plays_declared_reactions_as_the_reference(tmp_path: Path,
                                                              option: str) -> None:
    _module()
    for sc in (_with_reaction(tmp_path), _melee(tmp_path)):
        sc = sc.with_rulings({"LOD-15": option})
        assert not isinstance(prepared_kernel(sc), NotCovered)
        sides = sc.ruleset.sides_of(sc.new_state())
        for policy in ("greedy", "random"):
            for index in range(6):
                _same(sc, dict.fromkeys(sides, policy), 15, index)
        _same(sc, {sides[0]: "greedy", sides[1]: "random"}, 15, 0)


def test_declared_reactions_are_played_by_the_kernel_and_counted(tmp_path: Path) -> None:
    _module()
    sc = _melee(tmp_path)
    report = simulate(sc, battles=3, seed=1, workers=1, policies="random")
    assert report.to_dict()["engine"] == {"kernel": 3, "reference": 0, "reasons": {}}
    got = kt.assert_consulted_by_kernel(sc, {"a": "random", "b": "random"}, 1, 0)
    assert "LOD-15" in got.consulted


def test_a_reaction_that_uses_a_reaction_falls_back(tmp_path: Path) -> None:
    _module()
    (tmp_path / "loop.yaml").write_text(_REACTION_PACK.replace(
        "reaction: prick}", "reaction: riposte}"))
    data = {"game": "last-odyssey", "name": "Loop", "content": ["loop.yaml"],
            "map": {"kind": "rows", "sides": {"a": {"front": ["Cop"]}, "b": {"front": ["F"]}}},
            "units": {"Cop": {"enemy": "cop"}, "F": {"enemy": "fencer"}}}
    sc = scenario_from_mapping(data, source="loop.yaml", base_dir=tmp_path)
    prepared = prepared_kernel(sc)
    assert isinstance(prepared, NotCovered) and "Spikes" in prepared.reason
    result, engine = simulated_battle(sc, {"a": "random", "b": "random"}, 1, 0, 20_000)
    assert not engine.is_kernel
    assert result == play_battle(sc, {"a": "random", "b": "random"}, 1, 0)
    report = simulate(sc, battles=3, seed=1, workers=1, policies="random")
    assert report.to_dict()["engine"] == {"kernel": 0, "reference": 3,
                                          "reasons": {prepared.reason: 3}}
    assert "Spikes" in report.engine_line()


def test_a_policy_the_kernel_does_not_play_falls_back() -> None:
    _module()
    sc = load_scenario(SCENARIOS["cop-vs-goblin"])
    prepared = prepared_kernel(sc)
    assert not isinstance(prepared, NotCovered)
    policies = {"police": "first-option", "goblins": "greedy"}
    assert isinstance(prepared.play(policies, 1, 0, 100), NotCovered)
    result, engine = simulated_battle(sc, policies, 1, 0, 20_000)
    assert not engine.is_kernel and "first-option" in (engine.reason or "")
    assert result == play_battle(sc, policies, 1, 0)


def test_a_ruling_option_the_kernel_does_not_know_falls_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _module()
    monkeypatch.setitem(kernel.COVERED_RULINGS, "LOD-15", ("free",))  # type: ignore[index]
    sc = _scenario("police", "LOD-15=costed")
    assert prepared_kernel(sc) == NotCovered("LOD-15=costed")
    kt.assert_reference_played(simulate(sc, battles=2, seed=3, workers=1), 2, "LOD-15=costed")


def test_without_the_extension_the_reference_plays_and_says_why() -> None:
    kt.assert_reference_without_extension(
        kernel, _scenario("cop-vs-goblin", "defaults"),
        lambda sc: simulate(sc, battles=3, seed=3, workers=1), 3)


def test_tactica_kernels_0_forces_the_reference_with_the_same_numbers() -> None:
    _module()
    sc = _scenario("cop-vs-goblin", "defaults")
    _, on, off = kt.assert_same_without_kernels(
        lambda: simulate(sc, battles=20, seed=4, workers=1).to_dict())
    assert on == {"kernel": 20, "reference": 0, "reasons": {}}
    assert off == {"kernel": 0, "reference": 20, "reasons": {"TACTICA_KERNELS=0": 20}}


def test_the_same_json_with_and_without_kernels_on_two_workers(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from tactica.cli import main

    _module()
    argv = ["simulate", str(SCENARIOS["police"]), "-n", "6", "--seed", "9", "--policy",
            "random", "--json"]

    def run(*extra: str) -> dict[str, Any]:
        assert main([*argv, *extra]) == 0
        found: dict[str, Any] = json.loads(capsys.readouterr().out)
        return found

    monkeypatch.setenv("TACTICA_KERNELS", "0")
    reference = run("-j", "1")
    monkeypatch.setenv("TACTICA_KERNELS", "1")  # every battle, however short the run
    two = run("-j", "2")
    assert reference.pop("engine") == {"kernel": 0, "reference": 6,
                                        "reasons": {"TACTICA_KERNELS=0": 6}}
    assert two.pop("engine") == {"kernel": 6, "reference": 0, "reasons": {}}
    assert two == reference


# -- the hit die, face by face ---------------------------------------------------------------

_HIT_RULINGS = [(one, two, eleven, twentythree)
                for one in ("base", "die-only") for two in ("half-down", "half-up", "half-even")
                for eleven in ("fail", "one-hits") for twentythree in ("damaging", "any-hit")]


@pytest.mark.parametrize(("lod1", "lod2", "lod11", "lod23"), _HIT_RULINGS)
def test_the_kernels_hit_die_is_the_references_face_by_face(lod1: str, lod2: str, lod11: str,
                                                             lod23: str) -> None:
    from fractions import Fraction

    from tactica.rulesets.last_odyssey.hitdie import TargetSetup, outcome

    _module()
    sc = load_scenario(SCENARIOS["cop-vs-goblin"]).with_rulings(
        {"LOD-1": lod1, "LOD-2": lod2, "LOD-11": lod11, "LOD-23": lod23})
    prepared = prepared_kernel(sc)
    assert isinstance(prepared, kernel.LastOdysseyKernel)
    pick = random.Random(f"{lod1}{lod2}{lod11}{lod23}")
    multipliers = [Fraction(n, d) for n in (1, 2, 3, 4, 5, 8, 16) for d in (1, 2, 4, 8)]
    for _ in range(120):
        kind = pick.choice(["physical", "magical", "status"])
        threshold: int | str = pick.randint(2, 9)
        code = threshold
        if kind == "status" and pick.random() < 0.3:
            threshold = pick.choice(["immune", "always"])
            code = -100000 if threshold == "immune" else 100000
        m = pick.choice(multipliers)
        setup = TargetSetup(
            kind, accuracy=pick.randint(-3, 9), evasion=pick.randint(-3, 9),
            threshold=threshold, attack=pick.randint(0, 12), defense=pick.randint(0, 12),
            multiplier=m, knockout=pick.random() < 0.2, damage=pick.random() < 0.9,
            shell=pick.choice([0, 0, pick.randint(1, 12)]), hp=pick.randint(0, 20),
            body_armor=pick.random() < 0.3, armor_any_hit=lod23 == "any-hit",
            auto_fail=pick.random() < 0.2, one_beats_fail=lod11 == "one-hits",
            multiply=lod1, rounding=lod2)
        row = (("physical", "magical", "status").index(kind), setup.accuracy, setup.evasion,
               code, setup.attack, setup.defense, m.numerator, m.denominator,
               int(setup.knockout), int(setup.damage), setup.shell, setup.hp,
               int(setup.body_armor), int(setup.auto_fail))
        for face in range(1, 11):
            o = outcome(setup, face)
            want = (o.hit, o.damage, o.to_shell, o.to_hp, o.shell, o.hp, o.broken, o.downed,
                    o.blocked)
            assert prepared.engine.outcome(row, face) == want, (setup, face)


# -- seeds chosen to reach the rarer branches of each ruling option ----------------------------

def _has(kind: str, **fields: Any) -> Any:
    def found(battle: Any) -> bool:
        return any(type(e).__name__ == kind and all(getattr(e, k) == v for k, v in fields.items())
                   for e in battle.log)
    return found


def _passes(battle: Any) -> bool:
    """A turn ended without its character's End Turn action (LOD-21 idle)."""
    last = None
    for e in battle.log:
        name = type(e).__name__
        if name == "ActionTaken":
            last = e.action
        elif name == "TurnEnded" and not (type(last).__name__ == "EndTurn"
                                          and last.unit == e.unit):
            return True
        elif name == "Resolved":
            last = None
    return False


def _one_beats_the_failure(battle: Any) -> bool:
    """The Paralyzed Cop or the Silenced Drone hits anyway (a natural 1, LOD-11 one-hits)."""
    return any(type(e).__name__ == "AttackResolved" and e.unit in ("Cop 1", "Drone")
               and e.hit and e.kind != "status" for e in battle.log)


def _retargeted_to_self(battle: Any) -> bool:
    return any(type(e).__name__ == "Retargeted" and e.target == e.unit for e in battle.log)


_THIEVES = {
    "game": "last-odyssey", "name": "Thieves and cops", "max_rounds": 6,
    "map": {"kind": "rows", "sides": {
        "police": {"front": ["Cop 1", "Cop 2"], "back": ["Drone"]},
        "fairies": {"front": ["Prankster", "Boar Rider"], "back": ["Arsonist"]}}},
    "units": {"Cop 1": {"enemy": "cop", "statuses": ["paralyzed"]}, "Cop 2": {"enemy": "cop"},
              "Drone": {"enemy": "hover-drone", "statuses": ["silenced"]},
              "Prankster": {"enemy": "prankster"},
              "Boar Rider": {"enemy": "boar-rider", "hp": 3}, "Arsonist": {"enemy": "arsonist"}},
}

#: (scenario, ruling, option, policy, battle of seed 7, what the reference's battle shows).
_BRANCHES = [
    ("police", "LOD-14", "same-damage", "random", 3, _has("Intercepted")),
    ("police", "LOD-14", "same-damage", "greedy", 35, _has("Intercepted")),
    ("police", "LOD-14", "same-roll", "random", 3, _has("Intercepted")),
    ("police", "LOD-15", "costed", "random", 0, _has("Rolled", label="hit die (Revenge)")),
    ("police", "LOD-15", "free", "greedy", 0, _has("Rolled", label="hit die (Revenge)")),
    ("goblins", "LOD-15", "costed", "random", 18,
     _has("Rolled", label="hit die (Quick Fingers)")),
    ("goblins", "LOD-15", "costed", "greedy", 9, _has("Rolled", label="hit die (Quick Fingers)")),
    ("goblins", "LOD-15", "free", "random", 13, _has("ItemStolen")),
    ("goblins", "LOD-12", "anyone", "random", 7, _retargeted_to_self),
    ("goblins", "LOD-12", "anyone", "greedy", 9, _retargeted_to_self),
    ("goblins", "LOD-12", "others", "random", 5, _has("Retargeted")),
    ("goblins", "LOD-12", "others", "greedy", 9, _has("Retargeted")),
    ("goblins", "LOD-21", "idle", "random", 3, _passes),
    ("goblins", "LOD-21", "idle", "greedy", 0, _passes),
    ("goblins", "LOD-20", "random", "random", 13, _has("Rolled", label="stolen item")),
    ("goblins", "LOD-20", "random", "greedy", 9, _has("Rolled", label="stolen item")),
    ("thieves", "LOD-23", "any-hit", "random", 8,
     _has("AttackResolved", ability="steal", note="body-armor")),
    ("thieves", "LOD-23", "any-hit", "greedy", 9,
     _has("AttackResolved", ability="steal", note="body-armor")),
    ("thieves", "LOD-11", "one-hits", "random", 5, _one_beats_the_failure),
    ("thieves", "LOD-11", "fail", "random", 16, _has("AttackResolved", how="auto-fail", die=1)),
    ("thieves", "LOD-11", "fail", "greedy", 9, _has("AttackResolved", how="auto-fail", die=1)),
]


@pytest.mark.parametrize(("name", "ruling", "option", "policy", "index", "shows"), _BRANCHES)
def test_the_kernel_plays_the_rarer_branches_as_the_reference(
        name: str, ruling: str, option: str, policy: str, index: int, shows: Any) -> None:
    from tactica.analysis.sim.play import logged_battle

    _module()
    base = (scenario_from_mapping(_THIEVES, source="thieves.yaml", base_dir=Path("."))
            if name == "thieves" else load_scenario(SCENARIOS[name]))
    sc = base.with_rulings({ruling: option})
    sides = sc.ruleset.sides_of(sc.new_state())
    policies = dict.fromkeys(sides, policy)
    assert shows(logged_battle(sc, policies, 7, index)), "the battle no longer reaches it"
    _same(sc, policies, 7, index)


def test_a_character_id_too_long_for_the_dice_keys_falls_back() -> None:
    name = "X" * 950
    data = {"game": "last-odyssey", "name": "long",
            "map": {"kind": "rows", "sides": {"a": {"front": [name]}, "b": {"front": ["G"]}}},
            "units": {name: {"enemy": "cop"}, "G": {"enemy": "goblin-skirmisher"}}}
    sc = scenario_from_mapping(data, source="long.yaml", base_dir=Path("."))
    prepared = prepared_kernel(sc)
    assert isinstance(prepared, NotCovered)
    assert "too long" in prepared.reason or prepared.reason == kernel.NOT_BUILT
    result, engine = simulated_battle(sc, {"a": "greedy", "b": "greedy"}, 1, 0, 20_000)
    assert not engine.is_kernel
    assert result == play_battle(sc, {"a": "greedy", "b": "greedy"}, 1, 0)
