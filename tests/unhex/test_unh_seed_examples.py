"""Every worked example of the Unhex seed, played through the ruleset on the nightclub map:
range, cover, line of sight and initiative."""

from __future__ import annotations

import pytest
from unh_builders import act, advance, battle, npc, of, pc, ready

from tactica.rulesets.unhex.legal import attacks, interceptions, moves, reactions_to_attack
from tactica.rulesets.unhex.records import (
    Attack,
    InitiativeRolled,
    InitiativeWon,
    Move,
    Reaction,
    TeamOrder,
    Wounded,
)
from tactica.rulesets.unhex.state import UnhexState

pytestmark = pytest.mark.both_engines

ARMS = ["knife", "pistol", "shotgun"]


def _targets(state: UnhexState, uid: str) -> set[tuple[str, str]]:
    return {(a.weapon, a.target) for a in attacks(state, state.chars[uid])}


def _armed(at: str) -> dict[str, object]:
    return pc(at, items=ARMS, hold=["knife", "pistol"])


# -- range --------------------------------------------------------------------------------------


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_range_entrance_to_dance_floor_is_one() -> None:
    b = ready({"A": _armed("Entrance"), "B": npc("Dance Floor")})
    assert b.state.view.look("Entrance", "Dance Floor").distance == 1
    # One-handed ranged (0-1) reaches; melee (0) does not.
    assert _targets(b.state, "A") == {("pistol", "B")}


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_range_entrance_to_catwalk_is_two() -> None:
    b = ready({"A": _armed("Entrance"), "B": npc("Catwalk")})
    assert b.state.view.look("Entrance", "Catwalk").distance == 2
    assert _targets(b.state, "A") == set()
    b = ready({"A": pc("Entrance", items=["shotgun"]), "B": npc("Catwalk")})
    assert _targets(b.state, "A") == {("shotgun", "B")}  # two-handed: 1 or more, in sight


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_range_to_someone_moving_between_catwalk_and_dance_floor_is_one() -> None:
    b = ready({"A": _armed("Entrance"), "B": npc("Catwalk")})
    assert b.state.view.look("Entrance", ("Catwalk", "Dance Floor")).distance == 1
    # Nobody moves along the dashed line, so the same rule with a real move: someone moving
    # from the DJ Booth onto the Dance Floor is at range 1 from the Entrance, and a pistol
    # there can intercept.
    b = ready({"A": _armed("Entrance"), "B": npc("DJ Booth")}, order=("npcs", "pcs"))
    assert b.state.view.look("Entrance", ("DJ Booth", "Dance Floor")).distance == 1
    found = interceptions(b.state, b.state.chars["B"], "Dance Floor")
    assert [(c.id, opts) for c, opts in found] == [
        ("A", (Reaction("none"), Reaction("intercept", "pistol")))]


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_two_handed_ranged_never_at_range_zero() -> None:
    b = ready({"A": pc("Bar", items=["shotgun"]), "B": npc("Bar")})
    assert _targets(b.state, "A") == set()


# -- cover --------------------------------------------------------------------------------------


def _cover_case(attacker_at: str, target_at: str) -> tuple[bool, tuple[Reaction, ...]]:
    b = ready({"A": pc(attacker_at, items=["shotgun"]), "B": npc(target_at, items=["knife"])})
    s = b.state
    look = s.view.look(attacker_at, target_at)
    options = reactions_to_attack(s, s.chars["A"], s.chars["B"], s.item("shotgun"), look)
    return look.cover, options


@pytest.mark.reference_only  # no step played after the set-up
def test_in_the_bar_against_a_shot_from_the_dance_floor_cover() -> None:
    cover, options = _cover_case("Dance Floor", "Bar")
    assert cover and Reaction("defend") in options  # defending a ranged attack needs cover


@pytest.mark.reference_only  # no step played after the set-up
def test_in_the_bar_from_the_catwalk_no_cover() -> None:
    cover, options = _cover_case("Catwalk", "Bar")
    assert not cover and Reaction("defend") not in options


@pytest.mark.reference_only  # no step played after the set-up
def test_on_the_dance_floor_from_the_bar_no_cover() -> None:
    assert not _cover_case("Bar", "Dance Floor")[0]


@pytest.mark.reference_only  # no step played after the set-up
def test_in_the_bar_from_the_dj_booth_cover() -> None:
    assert _cover_case("DJ Booth", "Bar")[0]


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_cover_lets_the_target_choose_the_damage_die() -> None:
    b = ready({"A": pc("Dance Floor", items=["shotgun"]), "B": npc("Bar")})
    # 29: the target picks 2 damage to the head (9) over 9 damage to the right leg (2).
    events = act(b, Attack("A", "shotgun", "B"), rolls=[(2, 9)],
                 decisions={"npcs": [Reaction("none"), lambda o: o.damage == 2]})
    [w] = of(events, Wounded)
    assert (w.amount, w.location, w.assigned_by) == (2, "head", "B")
    b = ready({"A": pc("Catwalk", items=["shotgun"]), "B": npc("Bar")})
    events = act(b, Attack("A", "shotgun", "B"), rolls=[(2, 9)],
                 decisions={"npcs": [Reaction("none")], "pcs": [lambda o: o.damage == 9]})
    [w] = of(events, Wounded)
    assert (w.amount, w.location, w.assigned_by) == (9, "right leg", "A")


# -- line of sight ------------------------------------------------------------------------------


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_alley_sees_kitchen_not_bar() -> None:
    b = ready({"A": pc("Alley", items=["shotgun"]), "K": npc("Kitchen"), "B": npc("Bar")})
    assert _targets(b.state, "A") == {("shotgun", "K")}


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_pool_tables_sees_bar_not_kitchen() -> None:
    b = ready({"A": pc("Pool Tables", items=["shotgun"]), "K": npc("Kitchen"),
               "B": npc("Bar")})
    assert _targets(b.state, "A") == {("shotgun", "B")}


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_dj_booth_sees_dj_booth() -> None:
    b = ready({"A": pc("DJ Booth", items=["pistol"]), "B": npc("DJ Booth")})
    assert _targets(b.state, "A") == {("pistol", "B")}


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_catwalk_and_dance_floor_see_each_other_but_no_one_moves_between_them() -> None:
    b = ready({"A": pc("Catwalk", items=["shotgun"]), "B": npc("Dance Floor",
                                                               items=["shotgun"])})
    assert _targets(b.state, "A") == {("shotgun", "B")}
    assert _targets(b.state, "B") == {("shotgun", "A")}
    assert [m.to for m in moves(b.state, b.state.chars["A"])] == ["DJ Booth"]
    assert Move("B", "Catwalk") not in moves(b.state, b.state.chars["B"])


# -- initiative ---------------------------------------------------------------------------------


def test_initiative_pcs_at_40_roll_34_npcs_at_25_roll_62_the_pcs_choose_the_order() -> None:
    units = {"Ash": pc("Entrance", level=40, max_level=50), "Bo": pc("Entrance", level=30),
             "Cy": npc("Bar", level=25), "Di": npc("Bar", level=10)}
    b = battle(units)
    events = advance(b, rolls=[(3, 4), (6, 2)], decisions={"pcs": [("npcs", "pcs")]})
    rolled = of(events, InitiativeRolled)
    assert [(r.unit, r.roll, r.success) for r in rolled] == [("Ash", 34, True),
                                                             ("Cy", 62, False)]
    assert of(events, InitiativeWon)[0].side == "pcs"
    # The winners let the NPCs go first, to react to their attempts at retreating.
    assert of(events, TeamOrder) == [TeamOrder(("npcs", "pcs"))]
    assert b.pending.side == "npcs"  # type: ignore[union-attr]
