"""Every ruling of Skirmishers: the geometry ones (:mod:`.geometry`) and the rules' own.

SKI-1 .. SKI-23 are those of ``rules/skirmishers.md``; SKI-24 onwards are ambiguities found
while implementing the game (each documented in ``docs/rulesets/skirmishers.md``). A ruling
with a single option records a decision the rules leave open without offering a second
reading worth simulating. Each ruling's default is its first option.

>>> [r.id for r in RULINGS][:4]
['SKI-1', 'SKI-2', 'SKI-3', 'SKI-4']
>>> by_id("SKI-18").default
'each-dot'
"""

from __future__ import annotations

from typing import Final

from tactica.engine.rulings import Ruling
from tactica.rulesets.skirmishers.geometry import GEOMETRY_RULINGS

__all__ = ["GAME_RULINGS", "RULINGS", "by_id"]

#: The rulings about the rules rather than the map, in id order.
GAME_RULINGS: Final[tuple[Ruling, ...]] = (
    Ruling("SKI-1", "The 2D6 start cell on a 10-cell card (11 and 12 have no cell)",
           "first-unmarked", {
               "first-unmarked": "start at the first cell not fully crossed out at or right of "
                                 "min(roll, 10)",
           }),
    Ruling("SKI-2", "Damage that runs past cell 1", "zero-then-dead", {
        "zero-then-dead": "crossing cell 1 or cell 0 leaves the trooper at 0 HP, out of "
                          "action; a lethal point running past cell 0 makes it DEAD "
                          "(bludgeoning: SKI-40)",
    }),
    Ruling("SKI-3", "'If this new AP value meets or exceeds the AP already spent, the trooper "
                    "falls prone' reads inverted", "spent-exceeds", {
        "spent-exceeds": "it falls prone and acts no more this turn when the AP it already "
                         "spent meets or exceeds its new maximum",
        "as-written": "it falls prone and acts no more when the new maximum meets or exceeds "
                      "the AP already spent",
    }),
    Ruling("SKI-5", "Explosive target number when thrown prone (AP doubles)", "paid", {
        "paid": "the AP actually paid (doubled)",
        "before-doubling": "the AP before doubling",
    }),
    Ruling("SKI-6", "Scatter distance", "one-dot", {
        "one-dot": "1 dot in the rolled direction (1D6: 1 east, then clockwise)",
        "d6-dots": "1D6 dots in the rolled direction (a second 1D6)",
    }),
    Ruling("SKI-7", "Beyond long range", "no-attack", {
        "no-attack": "no attack: the firer may not shoot",
    }),
    Ruling("SKI-9", "Power armor, crew weapons, vehicles, launchers, incendiary and smoke "
                    "grenades", "out-of-scope", {
        "out-of-scope": "not modelled until asked for",
    }),
    Ruling("SKI-17", "Morale (optional rule): when it is checked and what failing does",
           "no-arcs-or-explosives", {
               "no-arcs-or-explosives": "checked at the start of the squad's turn once the "
                                        "threshold is reached; failed: its troopers may not "
                                        "establish firing arcs or throw explosives that turn",
               "retreat": "checked then; failed: the squad retreats (leaves the battle, its "
                          "troopers survive)",
           }),
    Ruling("SKI-18", "Firing arc triggers", "each-dot", {
        "each-dot": "one shot per firer per target per dot entered (and per activation or "
                    "standing up); changing level on the same dot triggers again",
        "arc-entry": "one shot per firer when the target enters its arc (or activates or "
                     "stands up in it); moving on inside the same arc does not trigger again",
    }),
    Ruling("SKI-19", "Fists' bludgeoning with an odd maximum AP", "down", {
        "down": "half the current maximum AP, rounded down",
        "up": "half the current maximum AP, rounded up",
    }),
    Ruling("SKI-20", "Where bludgeoning starts when every lethal point was absorbed by body "
                     "armor", "armor-up-ignores", {
        "armor-up-ignores": "armor still up after the lethal damage: all bludgeoning ignored; "
                            "armor just destroyed by this hit: bludgeoning starts at the start "
                            "cell",
    }),
    Ruling("SKI-22", "Each trooper caught in a blast", "own-roll", {
        "own-roll": "each gets its own 2D6 start-cell roll",
        "one-roll": "one start-cell roll for the whole explosion",
    }),
    # -- found while implementing the game ---------------------------------------------------
    Ruling("SKI-24", "Bludgeoning that reaches a fully crossed cell", "skip", {
        "skip": "skipped like lethal damage: the point marks the next cell not fully crossed",
        "lost": "the point is spent on the crossed cell and lost",
    }),
    Ruling("SKI-25", "Body armor's AP change once all its cells are crossed out", "stays", {
        "stays": "the armor is still worn: its AP change stays",
        "lifted": "destroyed armor no longer changes the AP values",
    }),
    Ruling("SKI-26", "'A random side starts': once, or every round?", "once", {
        "once": "a random side starts the battle; then the sides alternate",
        "each-round": "a random side starts each round (a side may take two turns running)",
    }),
    Ruling("SKI-27", "How many combat actions may a trooper take after moving?", "several", {
        "several": "several, while its AP last (at most one firing arc per turn)",
        "one": "one combat action, then its activation ends",
    }),
    Ruling("SKI-28", "A firearm 'used as a club'", "club", {
        "club": "it strikes as the Club of the melee table (1X + 4\\)",
    }),
    Ruling("SKI-29", "When an explosive's target number is settled", "throw", {
        "throw": "when it is thrown (range, cover, the thrower's pose and card then)",
        "resolution": "when it is resolved at the end of the turn (the AP paid at the throw; "
                      "cover, pose and card as they are then)",
    }),
    Ruling("SKI-30", "Advanced body armor (optional rule): which contiguous cells it protects",
           "middle", {
               "middle": "the cells around 7, the likeliest start cell (basic 7-6, standard "
                         "8-5, heavy 9-4)",
               "top": "the cells from 10 down (basic 10-9, standard 10-7, heavy 10-5)",
           }),
    Ruling("SKI-31", "Troopers out of action (0 HP or DEAD)", "lie", {
        "lie": "they lie prone on their dot: it stays occupied, they give cover to prone "
               "firers only, and their equipment may be taken",
        "removed": "they are removed from the map",
    }),
    Ruling("SKI-32", "Morale (optional rule): which troopers count as dead", "dead", {
        "dead": "only troopers marked DEAD",
        "out": "every trooper out of action (0 HP or DEAD)",
    }),
    Ruling("SKI-33", "An explosive that scatters off the map", "lost", {
        "lost": "it is lost: no blast",
        "stays": "it does not scatter: the blast is centred where SKI-41 leaves a blocked "
                 "scatter (the targeted dot by default)",
    }),
    Ruling("SKI-36", "Movement fire (optional rule) and the 8 AP movement cap", "counts", {
        "counts": "its 2 AP count toward the 8 AP spent on movement",
        "apart": "its 2 AP do not count toward the cap",
    }),
    Ruling("SKI-38", "Does a prone thrower's -1 apply to an explosive (its AP already "
                     "doubled)?", "no", {
        "no": "no: the doubled AP is the price of lying down (the rule file's example: 8 AP, "
              "target number 8)",
        "minus-one": "yes: -1 like any prone firer",
    }),
    Ruling("SKI-39", "A miss thrown through an upper window scatters from the dot before the "
                     "window, which has no floor at that level", "falls", {
        "falls": "it falls to the highest level below with a floor there (the ground at "
                 "worst) and scatters from that dot",
    }),
    Ruling("SKI-40", "Bludgeoning that runs past cell 0 (no HP cell is left to mark partly)",
           "lost", {
               "lost": "the points past cell 0 are lost: partial marks do not lower HP, so "
                       "bludgeoning takes a trooper out of action only by fully crossing "
                       "cell 1 or cell 0, and never kills",
               "dead": "a point past cell 0 makes the trooper DEAD, as a lethal point does",
           }),
    Ruling("SKI-41", "A miss thrown through a window, whose scatter from the dot before the "
                     "window meets an impassable obstacle", "targeted-dot", {
        "targeted-dot": "the explosive does not scatter and the centre of the explosion stays "
                        "on the targeted dot (the seed's words)",
        "before-window": "it does not scatter and goes off on the dot before the window it "
                         "scattered from",
    }),
    Ruling("SKI-42", "Morale (optional rule): the leader's leadership applies 'while the "
                     "leader lives'", "lives", {
        "lives": "while the leader is not DEAD: a leader at 0 HP, out of action, still counts",
        "fights": "only while the leader is in action (above 0 HP)",
    }),
)


def _number(ruling: Ruling) -> int:
    return int(ruling.id.split("-")[1])


#: Every ruling of the game, in id order (the geometry ones included).
RULINGS: Final[tuple[Ruling, ...]] = tuple(
    sorted((*GEOMETRY_RULINGS, *GAME_RULINGS), key=_number)
)

_BY_ID: Final = {r.id: r for r in RULINGS}


def by_id(ruling_id: str) -> Ruling:
    """The ruling with this id (KeyError if there is none)."""
    return _BY_ID[ruling_id]
