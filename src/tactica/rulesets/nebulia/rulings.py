"""The rulings of Nebulia Operations: each question the combat chapter leaves open, with its
default and the alternatives (see ``docs/rulesets/nebulia-operations.md``)."""

from __future__ import annotations

from tactica.engine.rulings import Ruling

__all__ = ["RULINGS"]

RULINGS = (
    Ruling("NEB-1", "What are the D10's faces?", "zero-to-nine", {
        "zero-to-nine": "faces 0-9: 0 always fails, 1 always succeeds, else face <= value",
        "one-to-ten": "faces 1-10 with the 10 read as 0 (same odds, different display)",
    }),
    Ruling("NEB-2", "0 or 1 clear lines?", "not-visible", {
        "not-visible": "fewer than two clear lines: not visible",
    }),
    Ruling("NEB-3", "How is '3 tiles or less' measured?", "chebyshev", {
        "chebyshev": "a diagonal step counts 1",
        "manhattan": "a diagonal step counts 2",
        "euclidean": "straight-line distance between tile centres",
    }),
    Ruling("NEB-4", "A sight line along a tile edge or through a corner: blocked?", "inset", {
        "inset": "corners inset an infinitesimal toward their tile's centre; a line through "
                 "the point between two diagonal blockers is blocked",
        "touch": "any contact with a blocker blocks",
        "interior": "only entering a blocker's interior blocks",
    }),
    Ruling("NEB-5", "Which tiles can block?", "all", {
        "all": "blocking terrain and every other operator, friend or foe",
        "foes": "blocking terrain and the attacker's foes only",
    }),
    Ruling("NEB-6", "Cover's -1: on the die or on the characteristic?", "die", {
        "die": "on the die result (helps the defender); the automatic 1 and 0 read the "
               "natural face",
        "characteristic": "on the armor characteristic",
    }),
    Ruling("NEB-7", "Does melee need visibility?", "adjacent", {
        "adjacent": "adjacency only (8 neighbours)",
        "adjacent-and-visible": "adjacency and at least two clear lines",
    }),
    Ruling("NEB-8", "What happens at defense 0?", "removed", {
        "removed": "the operator is out of action and removed from the map",
    }),
    Ruling("NEB-9", "Turn structure (not in the seed)", "alternate", {
        "alternate": "rounds; sides alternate activating one ready operator (move, then at "
                     "most one attack); a side with no ready operator passes",
        "igougo": "each side activates all its operators, then the next side",
    }),
    Ruling("NEB-10", "Weapons and profiles (not in the seed)", "illustrative", {
        "illustrative": "tactica's illustrative content pack, labelled as examples",
    }),
    Ruling("NEB-11", "Who activates first in a round (not in the seed)?", "alternate", {
        "alternate": "the scenario's first side in round 1, then the next side each round",
        "random": "a random side each round (rolled)",
        "fixed": "the scenario's first side every round",
    }),
    Ruling("NEB-12", "May an operator target a friend?", "any", {
        "any": "any other operator within range, friends included (the seed: 'The attacker "
               "selects one other operator that is within range')",
        "enemies": "only operators of another side can be targeted",
    }),
    Ruling("NEB-13", "May a diagonal step pass between two blocked tiles (not in the seed)?",
           "no-squeeze", {
        "no-squeeze": "not between two blocked tiles; past one blocked corner is fine",
        "free": "any diagonal step to an open tile",
        "no-corner-cutting": "a diagonal step needs both orthogonal neighbours open",
    }),
)


#: The rulings every battle consults from its setup (:mod:`tactica.engine.consulted`): sight and
#: cover (NEB-3, NEB-4, NEB-5), movement (NEB-13), the round (NEB-9, NEB-11), targets (NEB-12,
#: NEB-7) and the dice of attacks (NEB-1, NEB-6) decide something in practically every battle,
#: and the greedy policy weighs them all from its first move. Counting them once at the start
#: keeps the count exact for the compiled kernel, which reports the same set.
SETUP_CONSULTED = ("NEB-1", "NEB-3", "NEB-4", "NEB-5", "NEB-6", "NEB-7", "NEB-9", "NEB-11",
                   "NEB-12", "NEB-13")
