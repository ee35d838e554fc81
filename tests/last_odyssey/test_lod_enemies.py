"""The tier 1 enemies of the SRD: their statistics and every ability they use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lod_builders import act, battle, enemy, make, next_turn, of, to_turn

from tactica.engine.battle import Battle
from tactica.engine.ruleset import ChooseAction
from tactica.rulesets.last_odyssey.content import STATS, builtin_pack
from tactica.rulesets.last_odyssey.records import (
    AbilityUsed,
    AmmoChanged,
    AttackResolved,
    Damaged,
    Downed,
    Healed,
    HeldOn,
    Intercepted,
    ItemStolen,
    ManaChanged,
    StatusGained,
    TrackMoved,
    UseAbility,
)
from tactica.rulesets.last_odyssey.targeting import legal_actions

pytestmark = pytest.mark.both_engines

TABLE = """
cop               normal colorless 10  5 10 4 4 2 2 1 2 4 4 2 2
hover-drone       normal water      2  3 15 5 4 4 0 2 4 0 4 4 4
spider-drone      normal thunder   17  3 10 3 4 2 3 1 0 6 4 0 0
lieutenant        elite  ice       20  5 15 5 4 2 3 1 0 6 4 0 0
captain           elite  thunder   19  6 10 7 6 0 3 0 4 6 6 4 4
goblin-skirmisher normal wood       5  5 10 5 4 2 1 1 4 2 4 4 4
arsonist          normal fire       8  7 15 3 2 4 2 2 2 4 2 2 2
prankster         normal shadow     3  7 10 5 2 2 1 1 6 2 2 6 6
boar-rider        elite  earth     22  3 10 7 8 0 3 0 2 6 8 2 2
shaman            elite  wood       4 11 30 5 2 8 1 4 4 2 2 4 4
"""


@pytest.mark.reference_only  # no step played after the set-up
def test_every_tier_1_enemy_is_transcribed() -> None:
    pack = builtin_pack()
    rows = [line.split() for line in TABLE.strip().splitlines()]
    assert {r[0] for r in rows} == {k for k, t in pack.templates.items() if not t.player}
    for name, rank, element, hp, shell, mp, init, *stats in rows:
        t = pack.templates[name]
        assert (t.rank, t.element, t.hp, t.mp, t.initiative) == (rank, element, int(hp),
                                                                  int(mp), int(init))
        assert t.shell == (element, int(shell))
        assert t.base == tuple(map(int, stats)), name
        assert not t.player and not t.illustrative
    assert builtin_pack().templates["shaman"].left_out == ("Ritual Circle", "Blood Sacrifice")
    assert len(STATS) == 9


def vs(tmp: Path, them: dict[str, str], us: dict[str, Any], layout: dict[str, str],
       pack: dict[str, Any] | None = None, rulings: dict[str, str] | None = None,
       first: str | None = None) -> Battle:
    """SRD enemies ``them`` ({id: template}) against test characters ``us``."""
    units: dict[str, Any] = {k: {"enemy": v} for k, v in them.items()}
    units.update(us)
    sc = make(tmp, units, layout, pack=pack or {"enemies": {"t": enemy(hp=60, init=0)}},
              rulings=rulings)
    return to_turn(battle(sc), first or next(iter(them)))


T = {"T": {"enemy": "t"}}


def test_cop_truncheon_crowd_control_and_body_armor(tmp_path: Path) -> None:
    b = vs(tmp_path, {"Cop": "cop"}, T, {"police": "Cop", "us": "T"})
    hit = of(act(b, UseAbility("Cop", "truncheon", ("T",)), 3), AttackResolved)[0]
    assert hit.hit and (hit.base, hit.damage) == (7, 14)
    events = act(b, UseAbility("Cop", "crowd-control", ("T",)))
    assert of(events, AbilityUsed)[0].mp == 3
    assert of(events, TrackMoved) == [TrackMoved("T", "patk", -1, -1)]
    # Body Armor: the first physical hit on a Cop deals no damage, the next one does.
    (tmp_path / "b").mkdir()
    pack = {"enemies": {"t": enemy(init=9, patk=5, pacc=20, macc=20, matk=1,
                                   abilities=("fists", "ghost-hand"))}}
    b = vs(tmp_path / "b", {"Cop": "cop"}, T, {"police": "Cop", "us": "T"}, pack, first="T")
    magic = of(act(b, UseAbility("T", "ghost-hand", ("Cop",)), 2), AttackResolved)[0]
    assert magic.damage > 0 and magic.note == ""  # magical: not stopped
    first = act(b, UseAbility("T", "fists", ("Cop",)), 2)
    assert of(first, AttackResolved)[0].note == "body-armor" and not of(first, Damaged)
    b = next_turn(b, "T")
    second = act(b, UseAbility("T", "fists", ("Cop",)), 2)
    assert of(second, Damaged)


@pytest.mark.reference_only  # the kernel refuses: the state was changed outside the battle's steps
def test_hover_drone_tear_gas_and_injection(tmp_path: Path) -> None:
    b = vs(tmp_path, {"Drone": "hover-drone", "Cop": "cop"}, T,
           {"police": "Cop / Drone", "us": "T"})
    events = act(b, UseAbility("Drone", "tear-gas", ("T",)), 2)  # 2 - 4 + 0 <= 5
    assert of(events, AbilityUsed)[0].mp == 7
    assert of(events, StatusGained) == [StatusGained("T", "burned")]
    b.state.fighters["Cop"].hp = 3
    assert of(act(b, UseAbility("Drone", "injection", ("Cop",))), Healed) == [
        Healed("Cop", 4, 7)]


def test_spider_drone_autocannon_is_ranged_and_once_a_battle(tmp_path: Path) -> None:
    b = vs(tmp_path, {"Spider": "spider-drone"}, {"T": {"enemy": "t"}, "U": {"enemy": "t"}},
           {"police": "Spider", "us": "T / U"})
    assert UseAbility("Spider", "autocannon", ("U",)) in legal_actions(b.state, "Spider")
    assert UseAbility("Spider", "pincers", ("U",)) not in legal_actions(b.state, "Spider")
    act(b, UseAbility("Spider", "autocannon", ("U",)), 4)
    assert not any(getattr(a, "ability", "") == "autocannon"
                   for a in legal_actions(b.state, "Spider"))
    b = next_turn(b, "Spider")
    assert not any(getattr(a, "ability", "") == "autocannon"
                   for a in legal_actions(b.state, "Spider"))


def test_lieutenant_discipline_and_knock_some_sense(tmp_path: Path) -> None:
    b = vs(tmp_path, {"Lt": "lieutenant", "Cop": "cop"}, T, {"police": "Lt, Cop", "us": "T"})
    assert of(act(b, UseAbility("Lt", "discipline", ("Cop",))), TrackMoved) == [
        TrackMoved("Cop", "res", 1, 1)]
    assert UseAbility("Lt", "knock-some-sense", ("Lt",)) not in legal_actions(b.state, "Lt")
    events = act(b, UseAbility("Lt", "knock-some-sense", ("Cop",)))
    assert of(events, Damaged) == [Damaged("Cop", "Lt", 1, 0, 4, 10, False)]
    assert of(events, ManaChanged) == [ManaChanged("Lt", 5, 15)]


@pytest.mark.parametrize("ruling", ["same-roll", "same-damage"])
def test_faithful_lieutenant_takes_the_blow_that_would_down_the_captain(
        tmp_path: Path, ruling: str) -> None:
    pack = {"enemies": {"t": enemy(init=9, matk=40, macc=30, abilities=("ghost-hand",))}}
    b = vs(tmp_path, {"Captain": "captain", "Lt": "lieutenant"}, T,
           {"police": "Captain, Lt", "us": "T"}, pack, rulings={"LOD-14": ruling}, first="T")
    events = act(b, UseAbility("T", "ghost-hand", ("Captain",)), 2)
    assert of(events, Intercepted) == [Intercepted("Lt", "Captain")]
    assert b.state.fighters["Captain"].hp == 19 and b.state.fighters["Captain"].shell == 6
    assert b.state.fighters["Lt"].downed
    hit = of(events, AttackResolved)[0]
    assert hit.target == "Lt"
    # same-roll: against the Lieutenant's own numbers: Magical Defense 1, shadow against its
    # ice Shell x1, x2 against a Shell. same-damage: what the Captain would have taken:
    # Magical Defense 0, shadow against thunder x2, x2 against a Shell.
    if ruling == "same-roll":
        assert (hit.base, hit.multiplier, hit.damage) == (41, "2", 82)
    else:
        assert (hit.base, hit.multiplier, hit.damage) == (42, "4", 168)


def test_faithful_does_not_take_a_blow_that_would_not_down(tmp_path: Path) -> None:
    pack = {"enemies": {"t": enemy(init=9, patk=1, pacc=30, abilities=("fists",))}}
    b = vs(tmp_path, {"Captain": "captain", "Lt": "lieutenant"}, T,
           {"police": "Captain, Lt", "us": "T"}, pack, first="T")
    events = act(b, UseAbility("T", "fists", ("Captain",)), 2)
    assert not of(events, Intercepted) and of(events, Damaged)[0].unit == "Captain"


def test_captain_pistol_needs_ammo_reload_and_cattle_prod(tmp_path: Path) -> None:
    b = vs(tmp_path, {"Captain": "captain"}, {"T": {"enemy": "t"}, "U": {"enemy": "t"}},
           {"police": "Captain", "us": "T / U"})
    names = {getattr(a, "ability", "") for a in legal_actions(b.state, "Captain")}
    assert "pistol" not in names  # starts with 0 Ammo
    assert of(act(b, UseAbility("Captain", "reload", ("Captain",))), AmmoChanged) == [
        AmmoChanged("Captain", 1)]
    events = act(b, UseAbility("Captain", "pistol", ("U",)), 3)
    assert of(events, AbilityUsed)[0].ammo == 1 and b.state.fighters["Captain"].ammo == 0
    b = next_turn(b, "Captain")
    prod = act(b, UseAbility("Captain", "cattle-prod", ("T",)), 3)
    assert of(prod, AbilityUsed)[0].mp == 3


@pytest.mark.parametrize(("ruling", "mp", "revenge"), [
    ("free", 0, True), ("costed", 10, True), ("costed", 2, False)])
def test_captain_revenge_on_a_melee_miss(tmp_path: Path, ruling: str, mp: int,
                                         revenge: bool) -> None:
    pack = {"enemies": {"t": enemy(init=9, pacc=0, hp=60, abilities=("fists",))}}
    units = {"T": {"enemy": "t"}}
    sc = make(tmp_path, {"Captain": {"enemy": "captain", "mp": max(mp, 1)}, **units},
              {"police": "Captain", "us": "T"}, pack=pack, rulings={"LOD-15": ruling})
    b = to_turn(battle(sc), "T")
    # A miss: 9 - 0 + 4 = 13 > 7; then the Captain's free Cattle Prod rolls a 2.
    dice = (9, 2) if revenge else (9,)
    events = act(b, UseAbility("T", "fists", ("Captain",)), *dice)
    attacks = of(events, AttackResolved)
    assert [a.unit for a in attacks] == (["T", "Captain"] if revenge else ["T"])
    if revenge:
        used = of(events, AbilityUsed)[-1]
        assert used.free and used.mp == (3 if ruling == "costed" else 0)
        assert attacks[1].target == "T" and attacks[1].hit


def test_goblin_poison_arrow(tmp_path: Path) -> None:
    b = vs(tmp_path, {"Goblin": "goblin-skirmisher"}, {"T": {"enemy": "t"}},
           {"goblins": "Goblin", "us": "/ T"})
    events = act(b, UseAbility("Goblin", "poison-arrow", ("T",)), 4)  # 4 - 4 + 0 <= 5
    assert of(events, StatusGained) == [StatusGained("T", "poisoned")]


def test_arsonist_firebomb_tinder_and_detonate(tmp_path: Path) -> None:
    b = vs(tmp_path, {"Arsonist": "arsonist"}, {"T": {"enemy": "t"}, "U": {"enemy": "t"}},
           {"fire": "Arsonist", "us": "T / U"})
    bomb = of(act(b, UseAbility("Arsonist", "firebomb", ("U",)), 3), AttackResolved)[0]
    assert bomb.kind == "magical" and (bomb.base, bomb.multiplier) == (7, "1")
    tinder = act(b, UseAbility("Arsonist", "tinder", ("T",)), 5)  # 5 - 2 + 0 <= 5
    assert of(tinder, StatusGained) == [StatusGained("T", "burned")]
    b = next_turn(b, "Arsonist")
    events = act(b, UseAbility("Arsonist", "detonate", ("T", "U")), 3)
    assert [a.target for a in of(events, AttackResolved)] == ["T", "U"]
    assert of(events, Downed)[-1] == Downed("Arsonist", False, "Arsonist")


@pytest.mark.reference_only  # the kernel refuses: the state was changed outside the battle's steps
def test_prankster_steal_joke_sand_and_quick_fingers(tmp_path: Path) -> None:
    us = {"T": {"enemy": "t", "items": ["potion", "ether"]}}
    pack = {"enemies": {"t": enemy(init=0, hp=60, abilities=("fists",))}}
    b = vs(tmp_path, {"Prankster": "prankster"}, us, {"fairies": "Prankster", "us": "T"}, pack)
    events = act(b, UseAbility("Prankster", "steal", ("T",)), 2, choices=("ether",))
    assert of(events, ItemStolen) == [ItemStolen("Prankster", "T", "ether")]
    assert not of(events, Damaged)
    assert b.state.fighters["T"].items == ("potion",)
    assert of(act(b, UseAbility("Prankster", "practical-joke", ("T",)), 3), StatusGained) == [
        StatusGained("T", "confused")]
    b = next_turn(b, "Prankster")
    assert of(act(b, UseAbility("Prankster", "sand-in-the-eyes", ("T",))), TrackMoved) == [
        TrackMoved("T", "pacc", -1, -1)]
    # Quick Fingers: T misses the Prankster in melee and is stolen from for free (LOD-15).
    b = next_turn(b, "T")
    b.state.fighters["T"].statuses = frozenset()
    events = act(b, UseAbility("T", "fists", ("Prankster",)), 9, choices=("potion",))
    assert of(events, ItemStolen) == [ItemStolen("Prankster", "T", "potion")]


def test_lod_20_random_steal_rolls_for_the_item(tmp_path: Path) -> None:
    us = {"T": {"enemy": "t", "items": ["potion", "ether"]}}
    b = vs(tmp_path, {"Prankster": "prankster"}, us, {"fairies": "Prankster", "us": "T"},
           rulings={"LOD-20": "random"})
    events = act(b, UseAbility("Prankster", "steal", ("T",)), 2, "potion")
    assert of(events, ItemStolen) == [ItemStolen("Prankster", "T", "potion")]


def test_boar_rider_charge_needs_an_empty_front_row(tmp_path: Path) -> None:
    b = vs(tmp_path, {"Boar": "boar-rider"}, {"T": {"enemy": "t"}, "U": {"enemy": "t"}},
           {"fairies": "Boar", "us": "T / U"})
    assert not any(getattr(a, "ability", "") == "charge"
                   for a in legal_actions(b.state, "Boar"))
    (tmp_path / "e").mkdir()
    b = vs(tmp_path / "e", {"Boar": "boar-rider"}, {"U": {"enemy": "t"}},
           {"fairies": "Boar", "us": "/ U"})
    assert UseAbility("Boar", "charge", ("U",)) in legal_actions(b.state, "Boar")
    hit = of(act(b, UseAbility("Boar", "charge", ("U",)), 3), AttackResolved)[0]
    assert hit.kind == "physical" and hit.hit
    assert UseAbility("Boar", "stab", ("U",)) not in legal_actions(b.state, "Boar")


@pytest.mark.parametrize("ruling", ["acts", "idle"])
def test_too_stupid_to_die_falls_only_in_the_effect_phase(tmp_path: Path, ruling: str) -> None:
    pack = {"enemies": {"t": enemy(init=9, patk=60, pacc=30, hp=60, abilities=("fists",))}}
    sc = make(tmp_path, {"T": {"enemy": "t"}, "Boar": {"enemy": "boar-rider"},
                         "Shaman": {"enemy": "shaman"}},
              {"us": "T", "fairies": "Boar / Shaman"}, pack=pack, rulings={"LOD-21": ruling})
    b = to_turn(battle(sc), "T")
    events = act(b, UseAbility("T", "fists", ("Boar",)), 5)
    assert not of(events, Downed) and b.state.fighters["Boar"].hp == 0
    assert b.state.fighters["Boar"].standing
    act(b, UseAbility("T", "fists", ("Boar",)), 5)  # nothing more to lose
    # At 0 HP it takes its turn (acts) or passes it by itself (idle).
    assert b.state.active == "Boar"
    assert isinstance(b.pending, ChooseAction) is (ruling == "acts")
    b = to_turn(b, "Shaman")
    b2 = next_turn(b, "T")  # the effect phase of round 1 passed
    assert b2.state.fighters["Boar"].downed
    # Healed in time, it stays up.
    (tmp_path / "h").mkdir()
    sc = make(tmp_path / "h", {"T": {"enemy": "t"}, "Boar": {"enemy": "boar-rider"},
                               "Shaman": {"enemy": "shaman"}},
              {"us": "T", "fairies": "Boar / Shaman"}, pack=pack, rulings={"LOD-21": ruling})
    b = to_turn(battle(sc), "T")
    act(b, UseAbility("T", "fists", ("Boar",)), 5)
    b = to_turn(b, "Shaman")
    assert of(act(b, UseAbility("Shaman", "medicine", ("Boar",))), Healed) == [
        Healed("Boar", 7, 7)]
    assert not next_turn(b, "T").state.fighters["Boar"].downed


def test_shaman_ghost_hand_is_shadow_magic(tmp_path: Path) -> None:
    pack = {"enemies": {"t": enemy(init=0, hp=60, element="wind")}}
    b = vs(tmp_path, {"Shaman": "shaman"}, T, {"fairies": "Shaman", "us": "T"}, pack)
    hand = of(act(b, UseAbility("Shaman", "ghost-hand", ("T",)), 2), AttackResolved)[0]
    assert hand.kind == "magical" and hand.multiplier == "4"  # shadow vs wind x4
    assert b.state.fighters["Shaman"].mp == 27


@pytest.mark.parametrize(("ruling", "basic"), [("basic-attack", True), ("named-only", False)])
def test_lod_18_enemies_without_a_named_basic_attack(tmp_path: Path, ruling: str,
                                                     basic: bool) -> None:
    b = vs(tmp_path, {"Arsonist": "arsonist"}, T, {"fire": "Arsonist", "us": "T"},
           rulings={"LOD-18": ruling})
    names = {getattr(a, "ability", "") for a in legal_actions(b.state, "Arsonist")}
    assert ("basic-attack" in names) is basic
    # A Cop's basic attack is its Truncheon either way.
    assert "basic-attack" not in b.state.fighters["Arsonist"].abilities or basic


def _rook_vs_boar(tmp_path: Path) -> Battle:
    pack = {"enemies": {"t": enemy(init=0, hp=60)}}
    sc = make(tmp_path, {"Rook": {"character": "rook"}, "Boar": {"enemy": "boar-rider"},
                         "T": {"enemy": "t"}},
              {"party": "Rook", "fairies": "Boar, T"}, pack=pack)
    b = to_turn(battle(sc), "Rook")
    boar = b.state.fighters["Boar"]
    boar.hp, boar.shells = 1, ()
    return b


@pytest.mark.reference_only  # the kernel refuses: the state was changed outside the battle's steps
def test_a_knock_out_blow_that_takes_a_boar_rider_to_0_hp_knocks_it_out(tmp_path: Path) -> None:
    # "If the enemy is downed, they will be temporarily incapacitated instead of killed":
    # Too Stupid to Die delays the fall to the Effect phase, and the fall is a knock-out.
    b = _rook_vs_boar(tmp_path)
    events = act(b, UseAbility("Rook", "basic-attack", ("Boar",), "", True), 1)
    assert of(events, HeldOn) == [HeldOn("Boar", True, "Rook")] and not of(events, Downed)
    fallen = next_turn(b, "Rook")  # the Effect phase of round 1 passed
    boar = fallen.state.fighters["Boar"]
    assert boar.downed and boar.knocked_out
    assert Downed("Boar", True, "") in fallen.events()


@pytest.mark.reference_only  # the kernel refuses: the state was changed outside the battle's steps
def test_a_lethal_blow_on_a_boar_rider_still_kills_it_in_the_effect_phase(
        tmp_path: Path) -> None:
    b = _rook_vs_boar(tmp_path)
    events = act(b, UseAbility("Rook", "basic-attack", ("Boar",)), 1)
    assert of(events, HeldOn) == [HeldOn("Boar", False, "Rook")]
    boar = next_turn(b, "Rook").state.fighters["Boar"]
    assert boar.downed and not boar.knocked_out
