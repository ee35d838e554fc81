"""The nine statuses, the status thresholds by element, and the bonus track."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lod_builders import Dice, act, battle, enemy, make, next_turn, of, to_turn

from tactica.engine.battle import Battle
from tactica.rulesets.last_odyssey.records import (
    AbilityUsed,
    AttackResolved,
    CoinCalled,
    Damaged,
    Downed,
    Healed,
    Move,
    Retargeted,
    StatusesCured,
    StatusGained,
    TrackMoved,
    UseAbility,
    UseItem,
)
from tactica.rulesets.last_odyssey.state import stat
from tactica.rulesets.last_odyssey.targeting import legal_actions

pytestmark = pytest.mark.both_engines


def fight(tmp: Path, a: dict, t: dict, *, a_unit: dict | None = None,
          t_unit: dict | None = None, rulings: dict | None = None,
          more: dict | None = None) -> Battle:
    """A (left) against T (right); ``more`` adds allies of A: {id: template}."""
    enemies = {"a": a, "t": t, **{k.lower(): v for k, v in (more or {}).items()}}
    units: dict[str, Any] = {"A": {"enemy": "a", **(a_unit or {})},
                             "T": {"enemy": "t", **(t_unit or {})}}
    units.update({k: {"enemy": k.lower()} for k in more or {}})
    left = ", ".join(["A", *(more or {})])
    sc = make(tmp, units, {"left": left, "right": "T"}, pack={"enemies": enemies},
              rulings=rulings)
    return to_turn(battle(sc), "A")


HEALER = enemy(init=9, mp=40, abilities=("fists", "medicine", "discipline", "crowd-control"))


@pytest.mark.reference_only  # the kernel refuses: the state was changed outside the battle's steps
def test_burned_cannot_be_healed_or_buffed_but_can_be_debuffed(tmp_path: Path) -> None:
    b = fight(tmp_path, HEALER, enemy(), more={"Ally": enemy(hp=20)})
    b.state.fighters["Ally"].hp = 5
    b.state.fighters["Ally"].statuses = frozenset({"burned"})
    assert not of(act(b, UseAbility("A", "medicine", ("Ally",))), Healed)
    assert not of(act(b, UseAbility("A", "discipline", ("Ally",))), TrackMoved)
    b = next_turn(b, "A")
    b.state.fighters["T"].statuses = frozenset({"burned"})
    assert of(act(b, UseAbility("A", "crowd-control", ("T",))), TrackMoved) == [
        TrackMoved("T", "patk", -1, -1)]


@pytest.mark.reference_only  # the kernel refuses: the state was changed outside the battle's steps
def test_healing_is_capped_at_max_hp(tmp_path: Path) -> None:
    b = fight(tmp_path, HEALER, enemy(), more={"Ally": enemy(hp=20)})
    b.state.fighters["Ally"].hp = 16
    assert of(act(b, UseAbility("A", "medicine", ("Ally",))), Healed) == [
        Healed("Ally", 4, 20)]


CONFUSED = enemy(init=9, patk=2, pacc=10, abilities=("fists",))


def test_confused_wins_the_coin_call(tmp_path: Path) -> None:
    b = fight(tmp_path, CONFUSED, enemy(hp=50), a_unit={"statuses": ["confused"]},
              more={"Ally": enemy(hp=50)})
    events = act(b, UseAbility("A", "fists", ("T",)), 1, 5)
    assert of(events, CoinCalled) == [CoinCalled("A", True)]
    assert of(events, AttackResolved)[0].target == "T"


def test_confused_loses_and_the_other_side_picks(tmp_path: Path) -> None:
    b = fight(tmp_path, CONFUSED, enemy(hp=50), a_unit={"statuses": ["confused"]},
              more={"Ally": enemy(hp=50)})
    # Fists are melee: the other side may pick anyone in a front row but the user.
    events = act(b, UseAbility("A", "fists", ("T",)), 0, 5, choices=("Ally",))
    assert of(events, CoinCalled) == [CoinCalled("A", False)]
    assert of(events, Retargeted) == [Retargeted("A", "right", "Ally")]
    assert of(events, AttackResolved)[0].target == "Ally"


def test_confused_retarget_choices_follow_lod_12(tmp_path: Path) -> None:
    from tactica.engine.chance import Decide

    seen: list[tuple[Any, ...]] = []

    class Spy:
        def choose(self, decision: Decide[Any], state: Any, rng: Any) -> Any:
            seen.append(decision.options)
            return decision.options[0]

    for ruling, expected in (("others", {"T", "Ally"}), ("anyone", {"T", "Ally", "A"})):
        (tmp_path / ruling).mkdir()
        b = fight(tmp_path / ruling, CONFUSED, enemy(hp=50), a_unit={"statuses": ["confused"]},
                  more={"Ally": enemy(hp=50)}, rulings={"LOD-12": ruling})
        b.apply(UseAbility("A", "fists", ("T",)), dice=Dice(0, 5),
                policies={s: Spy() for s in b.state.sides})
        assert set(seen[-1]) == expected


def test_confused_multi_target_and_self_abilities_are_not_retargeted(tmp_path: Path) -> None:
    b = fight(tmp_path, enemy(init=9, mp=40, abilities=("cleave", "reload")), enemy(hp=50),
              a_unit={"statuses": ["confused"]})
    events = act(b, UseAbility("A", "cleave", ("T",)), 5)
    assert not of(events, CoinCalled)
    assert not of(act(b, UseAbility("A", "reload", ("A",))), CoinCalled)


def test_petrified_cannot_move_and_has_half_base_evasion(tmp_path: Path) -> None:
    b = fight(tmp_path, enemy(init=9, eva=7, abilities=("fists", "discipline")), enemy(),
              a_unit={"statuses": ["petrified"]})
    a = b.state.fighters["A"]
    assert not any(isinstance(x, Move) for x in legal_actions(b.state, "A"))
    assert stat(b.state, a, "eva") == 3  # 7 // 2
    a.track = (3, 3, 3, 3, 5, 3, 3, 3, 3)  # Evasion buffed to +3
    assert stat(b.state, a, "eva") == 6  # half the base, then the buff


def test_petrified_side_may_still_be_advanced_on(tmp_path: Path) -> None:
    pack = {"enemies": {"a": enemy(init=9), "t": enemy()}}
    sc = make(tmp_path, {"A": {"enemy": "a"}, "T": {"enemy": "t", "statuses": ["petrified"]}},
              {"left": "A", "right": "/ T"}, pack=pack)
    b = next_turn(to_turn(battle(sc), "A"), "A")  # round 1's effect phase: left advanced
    assert b.state.rows.row_of("T") == "front"


def test_blinded_halves_accuracies_buffs_included(tmp_path: Path) -> None:
    b = fight(tmp_path, enemy(init=9, pacc=5, macc=4, sacc=3), enemy(),
              a_unit={"statuses": ["blinded"]})
    a = b.state.fighters["A"]
    assert [stat(b.state, a, s) for s in ("pacc", "macc", "sacc")] == [2, 2, 1]
    a.track = (3, 3, 3, 3, 3, 3, 5, 3, 3)  # Physical Accuracy +3
    assert stat(b.state, a, "pacc") == 4  # (5 + 3) // 2


def test_frostbitten_no_basic_attack_items_or_restoring(tmp_path: Path) -> None:
    b = fight(tmp_path, enemy(init=9, mp=40, abilities=("fists", "medicine", "crowd-control")),
              enemy(), a_unit={"statuses": ["frostbitten"], "items": ["potion"]})
    actions = legal_actions(b.state, "A")
    names = {x.ability for x in actions if isinstance(x, UseAbility)}
    assert names == {"crowd-control"}
    assert not any(isinstance(x, UseItem) for x in actions)


def test_fatigued_doubles_mp_costs(tmp_path: Path) -> None:
    b = fight(tmp_path, HEALER, enemy(), a_unit={"statuses": ["fatigued"]})
    used = of(act(b, UseAbility("A", "crowd-control", ("T",))), AbilityUsed)[0]
    assert used.mp == 6 and b.state.fighters["A"].mp == 34


def test_fatigued_cannot_afford_what_it_could(tmp_path: Path) -> None:
    b = fight(tmp_path, HEALER, enemy(), a_unit={"statuses": ["fatigued"], "mp": 5})
    names = {x.ability for x in legal_actions(b.state, "A") if isinstance(x, UseAbility)}
    assert "crowd-control" not in names and "fists" in names


@pytest.mark.parametrize(("ruling", "hits_on_1"), [("fail", False), ("one-hits", True)])
def test_paralyzed_physical_rolls_fail(tmp_path: Path, ruling: str, hits_on_1: bool) -> None:
    b = fight(tmp_path, enemy(init=9, pacc=10, macc=10, patk=1, matk=1, mp=40,
                              abilities=("fists", "ghost-hand")),
              enemy(hp=99), a_unit={"statuses": ["paralyzed"]}, rulings={"LOD-11": ruling})
    r = of(act(b, UseAbility("A", "fists", ("T",)), 1), AttackResolved)[0]
    assert r.hit is hits_on_1
    r = of(act(b, UseAbility("A", "fists", ("T",)), 3), AttackResolved)[0]
    assert not r.hit and r.how == "auto-fail"
    b = to_turn(b, "A")
    assert of(act(b, UseAbility("A", "ghost-hand", ("T",)), 3), AttackResolved)[0].hit


def test_silenced_magical_rolls_fail(tmp_path: Path) -> None:
    b = fight(tmp_path, enemy(init=9, pacc=10, macc=10, mp=40, abilities=("fists", "ghost-hand")),
              enemy(hp=99), a_unit={"statuses": ["silenced"]})
    assert not of(act(b, UseAbility("A", "ghost-hand", ("T",)), 2), AttackResolved)[0].hit
    assert of(act(b, UseAbility("A", "fists", ("T",)), 2), AttackResolved)[0].hit


@pytest.mark.parametrize(("hp", "tick"), [(25, 2), (5, 1), (9, 1), (30, 3)])
def test_poison_takes_a_tenth_of_max_hp_each_effect_phase(tmp_path: Path, hp: int,
                                                          tick: int) -> None:
    b = fight(tmp_path, enemy(init=9), enemy(hp=hp, shell=4), t_unit={"statuses": ["poisoned"]})
    b = next_turn(b, "A")  # round 1's effect phase
    poison = [e for e in b.events() if isinstance(e, Damaged) and e.source == "poison"]
    assert poison == [Damaged("T", "poison", 0, tick, 4, hp - tick, False)]


def test_poison_can_down_and_lod_17_sends_it_through_shells(tmp_path: Path) -> None:
    b = fight(tmp_path, enemy(init=9, hp=20), enemy(hp=20), t_unit={"statuses": ["poisoned"],
                                                                    "hp": 1})
    from tactica.rulesets.last_odyssey.records import EndTurn

    act(b, EndTurn("A"))
    while not b.is_over:
        b.advance(dice=Dice()) if not b.legal_actions() else act(b, EndTurn(str(b.state.active)))
    assert b.is_over and any(isinstance(e, Downed) and e.by == "poison" for e in b.events())
    (tmp_path / "s").mkdir()
    b = fight(tmp_path / "s", enemy(init=9), enemy(hp=20, shell=5),
              t_unit={"statuses": ["poisoned"]}, rulings={"LOD-17": "shell-first"})
    b = next_turn(b, "A")
    poison = [e for e in b.events() if isinstance(e, Damaged) and e.source == "poison"]
    assert poison == [Damaged("T", "poison", 2, 0, 3, 20, False)]


@pytest.mark.parametrize(("element", "threshold"), [
    ("wind", "immune"), ("water", 3), ("fire", 5), ("wood", 7), ("ice", "always")])
def test_status_thresholds_by_element_multiplier(tmp_path: Path, element: str,
                                                 threshold: Any) -> None:
    # Tear Gas inflicts Burned (fire): fire vs wind x0.25, water x0.5, fire x1, wood x2, ice x4.
    b = fight(tmp_path, enemy(init=9, sacc=5, mp=40, abilities=("tear-gas",)),
              enemy(element=element))
    from tactica.rulesets.last_odyssey.targeting import target_setup

    s = target_setup(b.state, "A", b.state.ability("tear-gas"), "T")
    assert s.threshold == threshold
    r = of(act(b, UseAbility("A", "tear-gas", ("T",)), 8), AttackResolved)[0]
    # total = 8 - 5 + 0 = 3
    landed = {"immune": False, 3: True, 5: True, 7: True, "always": True}[threshold]
    assert r.hit is landed
    assert of(_last(b), StatusGained) == ([StatusGained("T", "burned")] if landed else [])


def _last(b: Battle) -> list[Any]:
    from tactica.engine.battle import Resolved

    log = b.log
    end = max(i for i, e in enumerate(log) if isinstance(e, Resolved))
    start = max((i for i, e in enumerate(log[:end]) if isinstance(e, Resolved)), default=-1)
    return log[start + 1:end]


def test_unavoidable_and_immune_statuses_ignore_the_die(tmp_path: Path) -> None:
    b = fight(tmp_path, enemy(init=9, sacc=0, mp=40, abilities=("tear-gas",)),
              enemy(element="ice", res=30))
    assert of(act(b, UseAbility("A", "tear-gas", ("T",)), 10), AttackResolved)[0].hit
    (tmp_path / "w").mkdir()
    b = fight(tmp_path / "w", enemy(init=9, sacc=30, mp=40, abilities=("tear-gas",)),
              enemy(element="wind", res=-30))
    assert not of(act(b, UseAbility("A", "tear-gas", ("T",)), 1), AttackResolved)[0].hit


def test_the_bonus_track(tmp_path: Path) -> None:
    b = fight(tmp_path, enemy(init=9, mp=99, abilities=("crowd-control", "discipline")),
              enemy(patk=4))
    values = []
    for _ in range(4):
        b = to_turn(b, "A")
        moved = of(act(b, UseAbility("A", "crowd-control", ("T",))), TrackMoved)
        values.append(moved[0].value if moved else None)
    assert values == [-1, -3, -7, None]  # the bottom of the track holds
    assert stat(b.state, b.state.fighters["T"], "patk") == -3
    ups = []
    for _ in range(4):
        b = to_turn(b, "A")
        moved = of(act(b, UseAbility("A", "discipline", ("A",))), TrackMoved)
        ups.append(moved[0].value if moved else None)
    assert ups == [1, 3, 7, None]


def test_statuses_are_cured_by_an_item(tmp_path: Path) -> None:
    b = fight(tmp_path, enemy(init=9), enemy(),
              a_unit={"statuses": ["poisoned", "blinded"], "items": ["remedy"]})
    events = act(b, UseItem("A", "remedy", "A"))
    assert of(events, StatusesCured) == [StatusesCured("A", ("blinded", "poisoned"))]
    assert b.state.fighters["A"].statuses == frozenset()
    assert b.state.fighters["A"].items == ()
