"""Content: player characters from attributes and weapons, packs, scenarios, rulings."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from lod_builders import enemy, make

from tactica.engine.errors import ContentError, RulingError, ScenarioError
from tactica.engine.ruleset import get_ruleset
from tactica.rulesets.last_odyssey.content import STATS, builtin_pack, load_packs
from tactica.rulesets.last_odyssey.state import stat


def stats_of(template_id: str) -> dict[str, int]:
    sc = make(None, {"P": {"character": template_id}, "E": {"enemy": "cop"}},
              {"party": "P", "them": "E"})
    state = sc.new_state()
    f = state.fighters["P"]
    out = {s: stat(state, f, s) for s in STATS}
    out.update(hp=f.max_hp, mp=f.max_mp, init=f.template.initiative, shell=f.shell)
    return out


def test_a_character_is_built_from_attributes_weapon_and_job() -> None:
    # Rook: Body 4, Mind 2, Spirit 1; Striker (+2 Physical Attack, +1 Physical Defense);
    # armor 2/1, Evasion 1; a mundane sword (+3/+1, and +1 Physical Attack).
    assert stats_of("rook") == dict(
        init=2 * 2 + 1, hp=4 * 5 + 5, mp=1 * 5 + 5, patk=2 + 3 + 1, matk=1, pdef=2 + 1, mdef=1,
        eva=1, res=0, pacc=2 + 4, macc=1 + 2, sacc=4 + 1, shell=10)


@pytest.mark.parametrize(("kind", "grade", "patk", "matk", "plus"), [
    ("lance", "mundane", 3, 1, "pdef"), ("sword", "rare", 5, 3, "patk"),
    ("bow", "expert", 7, 5, "pacc"), ("gun", "mundane", 2, 2, "macc"),
    ("dagger", "rare", 4, 4, "eva"), ("claw", "expert", 6, 6, "sacc"),
    ("staff", "mundane", 1, 3, "matk"), ("fan", "rare", 3, 5, "mdef"),
    ("scepter", "expert", 5, 7, "res"),
])
def test_the_weapon_table(tmp_path: Path, kind: str, grade: str, patk: int, matk: int,
                          plus: str) -> None:
    pack = {"characters": {"x": {"name": "X", "body": 1, "mind": 1, "spirit": 1,
                                 "weapons": [{"type": kind, "grade": grade}]}}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(pack), encoding="utf-8")
    w = load_packs((tmp_path / "p.yaml",)).templates["x"].weapons[0]
    bonus = dict(zip(STATS, w.bonus, strict=True))
    expected = {s: 0 for s in STATS}
    expected["patk"] += patk
    expected["matk"] += matk
    expected[plus] += 1
    assert bonus == expected


def test_illustrative_content_is_labelled() -> None:
    pack = builtin_pack()
    players = [t for t in pack.templates.values() if t.player]
    assert {t.id for t in players} == {"rook", "vesper", "lark", "moss"}
    assert all(t.illustrative for t in players)
    assert all(not t.illustrative for t in pack.templates.values() if not t.player)
    assert pack.abilities["strike"].illustrative and not pack.abilities["gore"].illustrative
    assert all(i.illustrative for i in pack.items.values())


def test_a_pack_with_a_bad_reference_names_it(tmp_path: Path) -> None:
    bad = {"enemies": {"x": enemy(abilities=("teleport",))},
           "abilities": {"y": {"name": "Y", "type": "ranged", "attack": "status"}}}
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(bad), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_packs((tmp_path / "bad.yaml",))
    text = str(err.value)
    assert "enemies.x.abilities: unknown ability 'teleport'" in text
    assert "abilities.y: a status attack needs 'status'" in text


def test_scenario_problems_are_all_reported(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as err:
        make(tmp_path, {"A": {"enemy": "dragon"}, "B": {"enemy": "cop", "character": "rook"},
                        "C": {"enemy": "cop", "statuses": ["sleepy"], "items": ["elixir"]},
                        "Z": {"enemy": "cop"}},
             {"x": "A, B", "y": "C, Ghost"}, first_strike="nobody", extra_field=1)
    text = str(err.value)
    for piece in ("extra_field: unknown field", "units.A.enemy: unknown enemy 'dragon'",
                  "units.B: give exactly one of 'enemy' or 'character'",
                  "units.C.statuses: unknown status 'sleepy'",
                  "units.C.items: unknown item 'elixir'", "units.Z: not on the map",
                  "'Ghost' has no entry in units", "first_strike: 'nobody' is not a side"):
        assert piece in text, piece


def test_rulings_are_declared_and_switchable(tmp_path: Path) -> None:
    rs = get_ruleset("last-odyssey")
    ids = [r.id for r in rs.meta.rulings]
    assert ids == [f"LOD-{i}" for i in range(1, 25)]
    assert get_ruleset("lod") is rs and rs.meta.battlefield == "rows"
    sc = make(None, {"P": {"character": "rook"}, "E": {"enemy": "cop"}},
              {"party": "P", "them": "E"}, rulings={"LOD-2": "half-up"})
    assert sc.rulings["LOD-2"] == "half-up" and sc.rulings.changed() == {"LOD-2": "half-up"}
    with pytest.raises(ScenarioError, match="LOD-2: unknown option 'sideways'"):
        make(None, {"P": {"character": "rook"}, "E": {"enemy": "cop"}},
             {"party": "P", "them": "E"}, rulings={"LOD-2": "sideways"})
    with pytest.raises(RulingError):
        sc.rulings.with_choices({"LOD-99": "x"})


def test_scenario_overrides(tmp_path: Path) -> None:
    sc = make(None, {"P": {"character": "rook", "hp": 7, "mp": 3, "tier": 6,
                           "items": ["ether", "ether"], "shells": {"fire": 4}},
                     "E": {"enemy": "captain", "ammo": 2}},
              {"party": "P", "them": "E"})
    state = sc.new_state()
    p, e = state.fighters["P"], state.fighters["E"]
    assert (p.hp, p.mp, p.tier, p.items, p.shells) == (7, 3, 6, ("ether", "ether"),
                                                       (("fire", 4),))
    assert e.ammo == 2
