"""The two toy games of ``toy_games.py`` pass the sweep a sixth game's author runs, and the
sweep names what a faulty game gets wrong."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest
from toy_games import TOY_DUEL, TOY_ROWS, DuelState, ToyDuel, duel_game

from tactica.engine.ruleset import RulesetMeta
from tactica.testing import CHECKS, ConformanceError, check_game


@pytest.mark.parametrize("game", [TOY_ROWS, TOY_DUEL], ids=lambda g: g.meta.name)
def test_the_toy_games_conform(game: Any, tmp_path: Path) -> None:
    report = check_game(game, workdir=tmp_path)
    assert report.game == game.meta.name
    assert {c.partition(":")[0] for c in report.passed} == set(CHECKS)


class SharedCopy(ToyDuel):
    """Forgets to copy the hit points: a copy and its original share them."""

    meta: ClassVar[RulesetMeta] = replace(ToyDuel.meta, name="toy-shared-copy",
                                          title="Toy Shared Copy")

    def copy_state(self, state: DuelState) -> DuelState:
        return replace(state, braced=set(state.braced))


SHARED_COPY = duel_game(SharedCopy(), __name__)


def test_a_state_copy_that_forgets_a_field_is_named(tmp_path: Path) -> None:
    game = SHARED_COPY
    with pytest.raises(ConformanceError) as info:
        check_game(game, scenarios=gunfight_of(game, tmp_path), workdir=tmp_path,
                   checks={"replay", "state copies", "re-resolve"})
    message = str(info.value)
    assert message.startswith("check_game(toy-shared-copy): ")
    assert "1 of 3 checks failed" in message
    assert "state copies: gunfight.yaml: step " in message and "shares a mutable field" in message


class Unfair(ToyDuel):
    """Lists no unit: its battles cannot be counted, shown or asked about."""

    meta: ClassVar[RulesetMeta] = replace(ToyDuel.meta, name="toy-unfair", title="Toy Unfair")

    def units(self, state: DuelState) -> Any:
        return ()  # nobody: the odds table is empty and no sight pair exists


UNFAIR = duel_game(Unfair(), __name__)


def test_every_failing_check_is_reported_with_its_scenario(tmp_path: Path) -> None:
    game = UNFAIR
    with pytest.raises(ConformanceError) as info:
        check_game(game, scenarios=gunfight_of(game, tmp_path), workdir=tmp_path,
                   checks={"start", "map", "sight", "odds"})
    lines = str(info.value).splitlines()
    assert lines[0].startswith("check_game(toy-unfair): ") and "checks failed" in lines[0]
    failed = {line.strip().split(":")[0] for line in lines[1:]}
    assert failed == {"sight", "odds"}
    assert all(": gunfight.yaml: " in line for line in lines[1:] if "sight" in line)


def gunfight_of(game: Any, folder: Path) -> list[Path]:
    """The toy duel's example scenario, as a scenario of ``game``."""
    text = (Path(__file__).parent / "toys" / "gunfight.yaml").read_text()
    path = folder / "gunfight.yaml"
    path.write_text(text.replace("game: toy-duel", f"game: {game.meta.name}"))
    return [path]


def test_an_unknown_check_is_refused() -> None:
    with pytest.raises(ValueError, match=r"no check 'replays' \(the checks: declaration, "):
        check_game(TOY_DUEL, checks={"replays"})
