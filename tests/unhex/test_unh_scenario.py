"""Unhex scenarios and content: the nightclub fight, the illustrative pack, every problem of a
bad file at once, and every ruling as a switchable option."""

from __future__ import annotations

from pathlib import Path

import pytest
from unh_builders import CLUB_MAP, NIGHTCLUB_FIGHT, battle, npc, pc, ready, scenario

from tactica.battlefield.zones.graph import ZoneGraph
from tactica.engine.errors import ContentError, ScenarioError
from tactica.engine.scenario import load_scenario, scenario_from_mapping
from tactica.engine.validation import load_yaml
from tactica.rulesets.unhex import RULINGS, UNHEX
from tactica.rulesets.unhex.content import builtin_pack, load_pack
from tactica.rulesets.unhex.legal import attacks

pytestmark = pytest.mark.both_engines


@pytest.mark.reference_only  # no step played after the set-up
def test_the_nightclub_fight_is_pcs_against_npcs_on_the_seeds_map() -> None:
    sc = load_scenario(NIGHTCLUB_FIGHT)
    assert sc.ruleset is UNHEX and sc.battlefield == ZoneGraph.from_mapping(CLUB_MAP)
    state = sc.new_state()
    teams = {c.side for c in state.chars.values()}
    assert teams == {"crew", "club"} and state.pcs == frozenset({"crew"})
    assert [c.id for c in state.chars.values() if c.pc] == ["Rook", "Mara", "Jet"]
    assert {c.area for c in state.chars.values() if c.pc} <= {"Entrance", "Alley"}
    rook = state.chars["Rook"]
    assert (rook.level, rook.body.max_level, rook.right, rook.left) == (55, 60, "shotgun",
                                                                        "shotgun")


@pytest.mark.reference_only  # no step played after the set-up
def test_the_content_pack_is_illustrative_and_has_every_kind_of_item() -> None:
    pack = builtin_pack()
    assert pack.illustrative
    bands = {item.band() for item in pack.items.values()}
    assert bands == {"melee, range 0", "one-handed ranged, range 0-1",
                     "two-handed ranged, range 1 or more", "first-aid",
                     "a shield (its holder picks the damage die, UNH-25)"}
    assert pack.items["first-aid-kit"].kind == "first-aid"


@pytest.mark.reference_only  # no step played after the set-up
def test_every_problem_of_a_scenario_is_reported_at_once() -> None:
    units = {
        "A": {"side": "pcs", "at": "Lobby", "items": ["knife", "laser"], "hold": ["pistol"]},
        "B": {"side": "npcs", "at": "Bar", "level": 40, "max_level": 30},
        "C": {"side": "npcs", "at": "Bar", "items": ["knife", "pistol", "bottle", "machete",
                                                     "revolver", "rifle"]},
        "D": {"side": "npcs", "at": "Bar", "items": ["shotgun", "knife"],
              "hold": ["knife", "shotgun"]},
        "E": {"side": "npcs", "at": "Bar", "profile": "wizard"},
    }
    with pytest.raises(ScenarioError) as err:
        scenario(units, pcs=["heroes"], exits=["Roof"], colour="red")
    text = str(err.value)
    for part in ("colour: unknown field", "units.A.items[1]: unknown item 'laser'",
                 "units.A.hold[0]: 'pistol' is not one of its items",
                 "units.A.at: unknown area 'Lobby'", "units.B.max_level: 30 is below the level 40",
                 "units.C.items: 6 items need slots, only 5",
                 "units.D.hold: 'shotgun' takes both hands", "units.E.profile: unknown profile",
                 "pcs[0]: 'heroes' is not a side", "exits[0]: unknown area 'Roof'"):
        assert part in text, part


@pytest.mark.reference_only  # no step played after the set-up
def test_levels_are_checked() -> None:
    with pytest.raises(ScenarioError, match=r"units.A.level"):
        scenario({"A": pc("Bar", level=100), "B": npc("Bar")})


@pytest.mark.reference_only  # no step played after the set-up
def test_a_bad_content_pack_names_the_item(tmp_path: Path) -> None:
    bad = tmp_path / "pack.yaml"
    bad.write_text("items: {club: {kind: blunt}}\nprofiles: {x: {items: [club, axe]}}\n")
    with pytest.raises(ContentError, match=r"items\.club\.kind"):
        load_pack(bad)
    bad.write_text("items: {club: {kind: melee, hands: 2}}\nprofiles: {x: {items: [axe]}}\n")
    with pytest.raises(ContentError, match=r"profiles.x.items\[0\]: unknown item 'axe'"):
        load_pack(bad)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_scenario_may_add_content(tmp_path: Path) -> None:
    (tmp_path / "pack.yaml").write_text("items: {axe: {kind: melee, hands: 2}}\n")
    data = load_yaml(NIGHTCLUB_FIGHT)
    data["content"] = ["pack.yaml"]
    data["units"]["Vince"]["items"] = ["axe"]
    data["units"]["Vince"]["hold"] = ["axe"]
    sc = scenario_from_mapping(data, source=str(tmp_path / "s.yaml"), base_dir=tmp_path)
    assert sc.new_state().chars["Vince"].right == "axe"


@pytest.mark.reference_only  # no step played after the set-up
def test_unhex_needs_a_zone_map() -> None:
    with pytest.raises(ScenarioError, match="played on a 'zones' map"):
        scenario({"A": pc("Bar"), "B": npc("Bar")}, zones={"kind": "grid", "tiles": "A.B"})


# -- rulings ------------------------------------------------------------------------------------


@pytest.mark.reference_only  # no step played after the set-up
def test_every_ruling_has_a_default_and_unknown_options_are_refused() -> None:
    ids = [r.id for r in RULINGS]
    assert ids == [f"UNH-{i}" for i in range(1, 29)]
    with pytest.raises(ScenarioError, match="UNH-6: unknown option 'best'"):
        scenario({"A": pc("Bar"), "B": npc("Bar")}, rulings={"UNH-6": "best"})


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_sight_rulings_reach_the_zone_map() -> None:
    # UNH-1 no: the Catwalk is 3 from the Entrance without the dashed line; a shotgun still
    # sees and reaches it (two-handed: 1 or more).
    b = ready({"A": pc("Entrance", items=["shotgun"]), "B": npc("Catwalk")},
              rulings={"UNH-1": "no"})
    assert b.state.view.look("Entrance", "Catwalk").distance == 3
    assert attacks(b.state, b.state.chars["A"]) != []


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_unh_2_every_path_must_be_blocked() -> None:
    zones = {"kind": "zones", "areas": ["S", "A", "B", "T"], "connections": [
        {"between": ["S", "A"], "cover": ["A"]}, {"between": ["A", "T"], "cover": ["T"]},
        {"between": ["S", "B"]}, {"between": ["B", "T"]}]}
    units = {"X": pc("S", items=["shotgun"]), "Y": npc("T")}
    # Counted from T (its own mark at T not counted) the path over A is clear: the literal
    # count (UNH-28) keeps this test about UNH-2 alone.
    b = ready(units, zones=zones, rulings={"UNH-28": "literal"})
    assert attacks(b.state, b.state.chars["X"]) == []
    b = ready(units, zones=zones, rulings={"UNH-2": "every", "UNH-28": "literal"})
    assert attacks(b.state, b.state.chars["X"]) != []


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_unh_28_sight_is_symmetric_unless_the_literal_count_is_chosen() -> None:
    # On the nightclub the literal count lets the Kitchen see the Dance Floor but not back.
    units = {"A": pc("Dance Floor", items=["rifle"]), "B": npc("Kitchen")}
    b = ready(units)
    assert b.state.view.look("Dance Floor", "Kitchen").visible
    assert attacks(b.state, b.state.chars["A"]) != []
    b = ready(units, rulings={"UNH-28": "literal"})
    assert not b.state.view.look("Dance Floor", "Kitchen").visible
    assert attacks(b.state, b.state.chars["A"]) == []
    b = ready(units, rulings={"UNH-28": "both"})
    assert not b.state.view.look("Kitchen", "Dance Floor").visible


@pytest.mark.reference_only  # no step played after the set-up
def test_unh_4_later_rules_have_fewer_boxes() -> None:
    b = battle({"A": pc("Bar"), "B": npc("Bar")}, rulings={"UNH-4": "later"})
    assert b.state.chars["A"].body.boxes == (3, 3, 3, 9, 6, 6)


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_unh_21_allows_attacking_the_unconscious() -> None:
    units = {"A": pc("Bar"), "B": npc("Bar"), "C": npc("Bar")}
    for rule, expected in (("no", ["C"]), ("yes", ["B", "C"])):
        b = ready(units, rulings={"UNH-21": rule})
        b.state.chars["B"].body = b.state.chars["B"].body.with_level(0)
        assert [a.target for a in attacks(b.state, b.state.chars["A"])] == expected
