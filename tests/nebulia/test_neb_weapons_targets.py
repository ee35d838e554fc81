"""Select weapon and select target: melee needs an adjacent operator, other weapons a visible
one; a weapon with nobody to reach cannot be chosen (NEB-7, NEB-12)."""

from __future__ import annotations

import pytest
from neb_builders import attack_ready, op, rifle

from tactica.engine.battle import ScriptedDice
from tactica.engine.errors import IllegalActionError
from tactica.rulesets.nebulia import geometry
from tactica.rulesets.nebulia.records import Attack, EndActivation

pytestmark = pytest.mark.both_engines

KNIFE = rifle(7, melee=True, name="knife")
GUN = rifle(6, name="rifle")


def attacks(battle: object) -> set[tuple[str, str]]:
    actions = battle.legal_actions()  # type: ignore[attr-defined]
    return {(a.weapon, a.target) for a in actions if isinstance(a, Attack)}


def test_after_moving_the_operator_may_attack_or_end_its_activation() -> None:
    battle = attack_ready("A..B", A=op("red", weapons=[GUN]), B=op("blue"))
    actions = battle.legal_actions()
    assert actions == (Attack("A", "rifle", "B"), EndActivation("A"))
    assert battle.pending.side == "red"  # type: ignore[union-attr]


def test_melee_weapon_needs_an_adjacent_operator() -> None:
    far = attack_ready("A.B", A=op("red", weapons=[KNIFE, GUN]), B=op("blue"))
    assert attacks(far) == {("rifle", "B")}  # the knife reaches nobody: it cannot be chosen
    near = attack_ready("AB.", A=op("red", weapons=[KNIFE, GUN]), B=op("blue"))
    assert attacks(near) == {("knife", "B"), ("rifle", "B")}
    diagonal = attack_ready(
        """
        A..
        .B.
        """,
        A=op("red", weapons=[KNIFE]), B=op("blue"),
    )
    assert attacks(diagonal) == {("knife", "B")}  # 8 neighbours


def test_ranged_weapon_needs_a_visible_operator() -> None:
    walled = attack_ready(
        """
        A.#..
        ..#.B
        """,
        A=op("red", weapons=[GUN]), B=op("blue"),
    )
    assert attacks(walled) == set()
    assert walled.legal_actions() == (EndActivation("A"),)


def test_one_clear_line_is_not_enough_to_see() -> None:
    # NEB-2: the blocker on 1,1 leaves exactly one of the four lines clear.
    battle = attack_ready(
        """
        A....
        .#...
        ....B
        """,
        A=op("red", weapons=[GUN]), B=op("blue"),
    )
    a, b = battle.state.ops["A"], battle.state.ops["B"]
    assert geometry.sight(battle.state, a, b).clear_lines == 1
    assert attacks(battle) == set()


def test_only_weapons_with_a_target_are_offered_per_target() -> None:
    battle = attack_ready(
        """
        AB...C
        """,
        A=op("red", weapons=[KNIFE, GUN]), B=op("blue"), C=op("blue"),
    )
    # C is hidden behind B (operators block); B is adjacent and visible.
    assert attacks(battle) == {("knife", "B"), ("rifle", "B")}


def test_out_of_action_operators_cannot_be_targeted() -> None:
    battle = attack_ready("A..B.C", A=op("red", weapons=[GUN], dice=1),
                          B=op("blue", defense=1), C=op("blue"))
    battle.apply(Attack("A", "rifle", "B"), dice=ScriptedDice([[1], [0]]))
    assert battle.state.ops["B"].out
    assert all(getattr(a, "target", None) != "B" for a in battle.legal_actions())


def test_neb12_enemies_friends_cannot_be_targeted() -> None:
    tiles = "AF.B"
    battle = attack_ready(tiles, rulings={"NEB-12": "enemies"},
                          A=op("red", weapons=[KNIFE, GUN]), F=op("red"), B=op("blue"))
    assert ("knife", "F") not in attacks(battle)
    assert attacks(battle) == set()  # B is hidden behind F, F is a friend


def test_the_attacker_selects_one_other_operator_in_range_friends_included_neb12() -> None:
    """The seed: 'The attacker selects one other operator that is within range' (the
    default, ``any``)."""
    battle = attack_ready("AF.B", A=op("red", weapons=[KNIFE, GUN]), F=op("red"),
                          B=op("blue"))
    assert attacks(battle) == {("knife", "F"), ("rifle", "F")}


def test_melee_ignores_sight_by_default_neb7() -> None:
    tiles = """
    A#.
    #B.
    """
    battle = attack_ready(tiles, A=op("red", weapons=[KNIFE, GUN]), B=op("blue"))
    # Both diagonal neighbours are walls: no line is clear, but the knife only needs adjacency.
    assert attacks(battle) == {("knife", "B")}


def test_melee_needs_sight_with_neb7_adjacent_and_visible() -> None:
    tiles = """
    A#.
    #B.
    """
    battle = attack_ready(tiles, rulings={"NEB-7": "adjacent-and-visible"},
                          A=op("red", weapons=[KNIFE, GUN]), B=op("blue"))
    assert attacks(battle) == set()
    open_battle = attack_ready("AB", rulings={"NEB-7": "adjacent-and-visible"},
                               A=op("red", weapons=[KNIFE]), B=op("blue"))
    assert attacks(open_battle) == {("knife", "B")}


def test_an_attack_that_is_not_legal_is_refused_with_its_description() -> None:
    battle = attack_ready("A.B", A=op("red", weapons=[KNIFE, GUN]), B=op("blue"))
    with pytest.raises(IllegalActionError, match="A attacks B with knife is not a legal action"):
        battle.apply(Attack("A", "knife", "B"), dice=ScriptedDice([]))
    assert battle.legal_actions()  # nothing changed


def test_the_attack_uses_the_chosen_weapon() -> None:
    battle = attack_ready("AB", A=op("red", weapons=[KNIFE, rifle(2, dice=2, name="smg")]),
                          B=op("blue", defense=5))
    events = battle.apply(Attack("A", "smg", "B"), dice=ScriptedDice([[2, 3], [0]]))
    assert events[0].weapon == "smg" and events[0].hits == 1  # 2 <= 2 hits, 3 > 2 misses


@pytest.mark.reference_only  # exact odds, no step played
def test_odds_on_a_friend_under_neb12_enemies_say_it_is_a_friend_not_a_sight_reason() -> None:
    """NEB-12 ``enemies``: "only operators of another side can be targeted". Asking the odds
    of an attack on F, A's friend in plain sight, names F as a friend and the ruling, and
    says nothing of sight lines (F is visible)."""
    from tactica.rulesets.nebulia.odds import attack_odds

    battle = attack_ready("A.F.B", rulings={"NEB-12": "enemies"},
                          A=op("red", weapons=[GUN]), F=op("red"), B=op("blue"))
    with pytest.raises(IllegalActionError) as refused:
        attack_odds(battle.state, Attack("A", "rifle", "F"))
    text = str(refused.value)
    assert "F is a friend" in text and "NEB-12" in text, text
    assert "lines clear" not in text and "visible" not in text, text


@pytest.mark.reference_only  # exact odds, no step played
@pytest.mark.parametrize(("tiles", "rulings", "says"), [
    # adjacent but unseen, melee needing sight (NEB-7): a sight reason, not "not adjacent"
    ("A#\n#B", {"NEB-7": "adjacent-and-visible", "NEB-5": "all"}, "knife needs B visible"),
    # a target out of reach of the knife and unseen by the rifle
    ("A#..B", {}, "knife is melee and B is not adjacent"),
])
def test_odds_refusals_name_the_rule_that_refuses(tiles: str, rulings: dict[str, str],
                                                  says: str) -> None:
    from tactica.rulesets.nebulia.odds import attack_odds

    battle = attack_ready(tiles, rulings=rulings, A=op("red", weapons=[KNIFE, GUN]),
                          B=op("blue"))
    with pytest.raises(IllegalActionError) as refused:
        attack_odds(battle.state, Attack("A", None, "B"))
    assert says in str(refused.value), str(refused.value)


@pytest.mark.reference_only  # exact odds, no step played
def test_odds_of_an_operator_on_itself_say_so() -> None:
    from tactica.rulesets.nebulia.odds import attack_odds

    battle = attack_ready("A..B", A=op("red", weapons=[GUN]), B=op("blue"))
    with pytest.raises(IllegalActionError) as refused:
        attack_odds(battle.state, Attack("A", "rifle", "A"))
    assert "itself" in str(refused.value) and "visible" not in str(refused.value)
