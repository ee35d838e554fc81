"""Two toy games registered from the test tree, as a sixth game's author would write them
(``toy_games.py``); ``test_toy_games.py`` runs the conformance sweep over them."""

from __future__ import annotations

from toy_games import TOY_DUEL, TOY_ROWS

from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import get_ruleset, register

for game in (TOY_ROWS, TOY_DUEL):
    try:
        get_ruleset(game.meta.name)
    except TacticaError:
        register(game)
