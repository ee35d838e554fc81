"""The conformance suite also runs over two toy games registered from the test tree."""

from __future__ import annotations

from toy_games import TOY_DUEL, TOY_ROWS

from tactica.errors import TacticaError
from tactica.ruleset import get_ruleset, register

for game in (TOY_ROWS, TOY_DUEL):
    try:
        get_ruleset(game.meta.name)
    except TacticaError:
        register(game)
