"""The matchup hooks of every game, and matchup matrices: exact, through each game's geometry."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tactica.analysis.matrix import matchup_matrix, parse_numbers
from tactica.engine.errors import CapabilityError, TacticaError
from tactica.engine.ruleset import Capability, get_ruleset, matchup_hooks, rulesets
from tactica.engine.rulings import Rulings
from tactica.engine.scenario import load_scenario, scenario_from_mapping
from tactica.rulesets.nebulia import damage_dist_for, geometry
from tactica.rulesets.nebulia.content import builtin_pack

WITH_MATCHUPS = [rs for rs in rulesets() if rs.meta.has(Capability.MATCHUP)]


@pytest.mark.parametrize("game", WITH_MATCHUPS, ids=lambda rs: rs.meta.name)
def test_every_matchup_game_lists_profiles_and_builds_a_valid_scenario(game: object) -> None:
    rs = get_ruleset(game.meta.name)  # type: ignore[attr-defined]
    hooks = matchup_hooks(rs)
    names = hooks.profiles([])
    assert len(names) >= 2
    m = hooks.matchup((names[0], names[1]), range=None, cover=None,
                      rulings=Rulings(rs.meta.rulings, {}), content=[])
    sc = scenario_from_mapping(m.scenario, source="matchup")
    ids = [u.id for u in rs.units(sc.new_state())]
    assert m.attacker in ids and m.target in ids and m.attacker != m.target
    with pytest.raises(TacticaError, match="unknown profile 'nobody'"):
        hooks.matchup(("nobody", names[1]), range=None, cover=None,
                      rulings=Rulings(rs.meta.rulings, {}), content=[])


def test_a_game_without_matchups_says_so() -> None:
    from tactica.engine.ruleset import RulesetMeta

    class Plain:
        meta = RulesetMeta(name="plain", title="Plain", battlefield=None, rulings=())

    with pytest.raises(CapabilityError, match="Plain has no matchups"):
        matchup_hooks(Plain())  # type: ignore[arg-type]


def _neb_matchup(distance: int, cover: int, **rulings: str) -> tuple[int, bool]:
    rs = get_ruleset("nebulia")
    m = matchup_hooks(rs).matchup(("trooper", "trooper"), range=distance, cover=cover,
                                  rulings=Rulings(rs.meta.rulings, rulings), content=[])
    state = scenario_from_mapping(m.scenario, source="m").new_state()
    a, t = state.ops[m.attacker], state.ops[m.target]
    seen = geometry.sight(state, a, t)
    assert round(seen.distance) == distance
    return seen.clear_lines, geometry.fast_sight(state, a.pos, t.pos, a.side)[1]


@pytest.mark.parametrize("distance", [1, 3, 4, 9, 20])
@pytest.mark.parametrize("metric", ["chebyshev", "manhattan", "euclidean"])
@pytest.mark.parametrize("policy", ["inset", "touch", "interior"])
def test_nebulia_cover_is_three_clear_lines_and_counts_beyond_three_tiles(
        distance: int, metric: str, policy: str) -> None:
    assert _neb_matchup(distance, 0, **{"NEB-3": metric, "NEB-4": policy}) == (4, False)
    lines, cover = _neb_matchup(distance, 1, **{"NEB-3": metric, "NEB-4": policy})
    assert cover == (distance > 3)
    # Within 3 tiles cover never counts, and there a single tile may not block just one line.
    assert lines == 3 or (distance <= 3 and lines == 4)


def test_nebulia_refuses_what_it_cannot_set_up() -> None:
    rs = get_ruleset("nebulia")
    hooks = matchup_hooks(rs)
    rulings = Rulings(rs.meta.rulings, {})
    with pytest.raises(TacticaError, match=r"cover 0 .* or 1"):
        hooks.matchup(("trooper", "scout"), range=5, cover=2, rulings=rulings, content=[])
    with pytest.raises(TacticaError, match="at least 1 tile"):
        hooks.matchup(("trooper", "scout"), range=0, cover=0, rulings=rulings, content=[])


def test_the_smg_against_the_rifle_is_exact_at_every_range_in_and_out_of_cover() -> None:
    m = matchup_matrix("nebulia", ["breacher", "trooper"], ["trooper"],
                       ranges=parse_numbers("1-20", what="--range"), covers=[0, 1],
                       means=["smg", "rifle"])
    assert len(m.cells) == 2 * 20 * 2
    pack = builtin_pack()
    rulings = Rulings(get_ruleset("nebulia").meta.rulings, {})
    armor = pack.profiles["trooper"].armor
    for c in m.cells:
        in_cover = bool(c.cover) and c.range is not None and c.range > 3
        assert c.in_cover is in_cover
        expected = damage_dist_for(pack.weapons[c.means], armor, in_cover, rulings)
        assert c.expected_damage == expected.mean()
        assert isinstance(c.p_out_of_action, Fraction)
    smg = {(c.range, c.cover): c.expected_damage for c in m.cells if c.means == "smg"}
    rifle = {(c.range, c.cover): c.expected_damage for c in m.cells if c.means == "rifle"}
    assert all(smg[k] > rifle[k] for k in smg)  # the SMG out-damages the rifle everywhere
    assert any("did not count at range 1, 2, 3" in n for n in m.notes)


def test_a_melee_weapon_out_of_reach_gets_a_reason_not_a_number() -> None:
    m = matchup_matrix("nebulia", ["trooper"], ["scout"], ranges=[1, 5])
    knife = {c.range: c for c in m.cells if c.means == "knife"}
    assert knife[1].p_out_of_action is not None
    assert knife[5].p_out_of_action is None and "not adjacent" in knife[5].note


def test_unhex_cover_is_a_mark_at_the_targets_end_and_range_counts_areas() -> None:
    m = matchup_matrix("unhex", ["shooter"], ["gunman"], ranges=[0, 1, 3], covers=[0, 1])
    shotgun = {(c.range, c.cover): c for c in m.cells if c.means == "shotgun"}
    assert shotgun[(1, 1)].in_cover is True and shotgun[(1, 0)].in_cover is False
    assert shotgun[(0, 0)].p_hit is None  # a two-handed ranged weapon never works at range 0
    assert (0, 1) not in shotgun  # no cover within one area: the same cell as in the open


def test_last_odyssey_ignores_range_and_cover_and_says_so() -> None:
    m = matchup_matrix("last-odyssey", ["cop"], ["goblin-skirmisher"], ranges=[1, 5, 10],
                       covers=[0, 1])
    assert {c.range for c in m.cells} == {None} and {c.cover for c in m.cells} == {None}
    assert len({c.means for c in m.cells}) == len(m.cells)  # computed once, not six times
    assert any("range has no meaning" in n for n in m.notes)


def test_a_scenarios_units_are_profiles_with_their_own_statistics() -> None:
    from tactica.api import example

    sc = load_scenario(example("duel"))
    m = matchup_matrix(sc, ["A"], ["B"], ranges=[5])
    (cell,) = m.cells
    assert cell.attacker == "A" and cell.target == "B" and cell.means == "rifle"
    assert cell.p_out_of_action == Fraction(21, 50)  # the duel's own answer, moved to range 5


def test_parse_numbers() -> None:
    assert parse_numbers("1-3,7,0-20/10", what="x") == [1, 2, 3, 7, 0, 10, 20]
    for bad in ("a", "3-1", "-2", "1-4/0"):
        with pytest.raises(TacticaError):
            parse_numbers(bad, what="--range")
