"""The rulings of Arc: every ambiguity of the rules as a named option with a default.

ARC-1 .. ARC-15 come with the rule file (``rules/arc.md``); ARC-16 onwards were found while
implementing. Where the seed (the combat chapter) speaks, its reading is the default, as for
ARC-4, ARC-5 and ARC-12. ``docs/rulesets/arc.md`` has a paragraph for each.
"""

from __future__ import annotations

from tactica.battlefield.base import SightOption
from tactica.engine.ruleset import Ruling, Rulings

__all__ = ["RULINGS", "sight_options"]

RULINGS: tuple[Ruling, ...] = (
    Ruling("ARC-1", "Initiative order (the source states it three ways)", "seed", {
        "seed": "the seed's wording, 'Characters who succeed take turns in ascending "
                "DoS/failures descending DoS': successes in ascending degree of success, then "
                "failures in descending degree (-0º before -1º); within one degree as in the "
                "initiative chapter's example (successes the higher roll first, failures the "
                "lower roll first: A 6, B 5 succeed; then D 3, C 4, E 7)",
        "roll": "successes first, highest roll first; then failures, lowest roll first (the "
                "initiative chapter's example alone)",
    }),
    Ruling("ARC-2", "Degree rounding", "floor", {
        "floor": "degree = floor(roll / increment); two source examples (Bar +3º at 12º5, "
                 "Jane +3º at 13º5) contradict every single rule and are errata",
        "floor-plus-one": "degree = floor(roll / increment) + 1 (the later text)",
    }),
    Ruling("ARC-3", "A successful attack at 0º", "one-hit", {
        "one-hit": "lands 1 hit",
        "no-hit": "lands no hit",
    }),
    Ruling("ARC-4", "Which armor die drops a step?", "highest", {
        "highest": "the highest remaining die (the seed)",
        "lowest": "the lowest remaining die (the damage chapter)",
    }),
    Ruling("ARC-5", "Does the hit that degrades armor also hurt?", "no", {
        "no": "no: only hits after the last armor die is gone reach health (the seed's "
              "order of attack, steps 4 and 5)",
        "penetrates": "yes: a hit over DT drops a die a step and its whole damage reaches "
                      "health with its wound die (the seed: 'All hits that deal less damage "
                      "than sum of the target's armor deal no damage', so those over it do; "
                      "the damage chapter's 'penetrating hit' adds a wound step)",
    }),
    Ruling("ARC-6", "Evade", "meets", {
        "meets": "1 AP (or 1 speed), declared before the attack roll; the attack misses when "
                 "the Evade succeeds with a degree that meets or beats the attacker's, and "
                 "then the AP is refunded",
        "any-success": "as 'meets', but any successful Evade makes the attack miss",
        "contested": "as 'meets', but decided as a contested check: the higher degree wins, "
                     "with equal increments the higher roll; a full tie goes to the evader",
    }),
    Ruling("ARC-7", "Wound die per hit to health", "by-damage", {
        "by-damage": "by that hit's damage: 1-4 d4, 5-6 d6, 7-8 d8, 9-11 d10, 12+ d12",
        "step": "one step per penetrating hit: the open wound die rises a step (none > d4 > "
                "... > d12, then a new d4)",
    }),
    Ruling("ARC-8", "Death from one attack", "exceeds", {
        "exceeds": "damage after armor greater than maximum health (the seed's 'exceeds')",
        "at-least": "damage after armor at or above maximum health",
    }),
    Ruling("ARC-9", "The natural 1 and 20", "combat", {
        "combat": "a 1 always succeeds; a 20 fails in combat even when the target number is 20 "
                  "or more (outside combat it succeeds then, like Robin Hood's)",
    }),
    Ruling("ARC-10", "Jams", "threat", {
        "threat": "an attack roll at or above the first failure number threatens a jam; a "
                  "second d20 at or above the second number jams the gun (after it fired); "
                  "clearing costs a reload",
    }),
    Ruling("ARC-11", "Guns whose table cells are blank", "labelled", {
        "labelled": "no value is invented as fact: a content pack must give it, labelled as "
                    "tactica's example (the built-in pack lists them per gun)",
    }),
    Ruling("ARC-12", "When are wound dice rolled?", "round", {
        "round": "at the end of the round, after all combatants have acted (the seed)",
        "turn": "at the end of each character's own turn (the damage chapter); an "
                "unconscious character's when its turn comes round",
    }),
    Ruling("ARC-13", "Aiming", "penalty-plus", {
        "penalty-plus": "target modifier = unaimed penalty + 1 per AP aimed, capped at the "
                        "maximum accuracy",
        "remove-first": "the first AP aimed removes the penalty, each further AP adds +1, "
                        "capped at the maximum",
    }),
    Ruling("ARC-14", "AP cost of an attack with rof 1 or more", "one", {
        "one": "1 AP per attack (hits up to rof)",
        "two": "2 AP per attack",
    }),
    Ruling("ARC-15", "Battlefield", "none", {
        "none": "without a map every combatant can reach every other; a scenario may give "
                "ranges per pair in metres (a gun cannot shoot past its range, moves change "
                "them: ARC-33); with "
                "'map: {kind: grid}' the actions chapter's movement on 5-foot squares and "
                "sight on the tile grid",
    }),
    Ruling("ARC-16", "A hit of at least twice the DT (15 against a d6): the seed's sequence "
           "or the source's armor example?", "seed", {
               "seed": "every hit over DT drops one armor die a step and does no damage, "
                       "whatever its size (the seed's order of attack)",
               "massive": "massive damage first: a hit of at least 2 x DT destroys every "
                          "armor die against its type, DT is subtracted and the rest goes to "
                          "health (Bobby's example)",
           }),
    Ruling("ARC-17", "Initiative: equal places", "listed", {
        "listed": "characters that ARC-1 cannot separate keep the order of the scenario file",
    }),
    Ruling("ARC-18", "What does surprise do? (the seed names it, the source says no more)",
           "skip", {
               "skip": "the surprised sides take no turn in round 1 and, unaware of danger, "
                       "cannot evade in it",
               "unaware": "the surprised sides take their turns, but cannot evade in round 1",
           }),
    Ruling("ARC-19", "A reaction paid with speed when no AP is left", "next-round", {
        "next-round": "1 speed is 1 AP fewer in the character's next round (at most its "
                      "speed in debt)",
        "none": "no AP left, no reaction",
    }),
    Ruling("ARC-20", "The d10 after a successful initiative: which checks? (only those that "
           "involve AGI or the attribute swapped in, in any case)", "own-turn", {
        "own-turn": "the checks the character makes during its own first turn (attacks), "
                    "not reactions on other turns",
        "until-turn-ends": "every such check it makes until its first turn ends, reactions "
                           "(Evade) included",
    }),
    Ruling("ARC-21", "A spread written rank•progress (the pistol's 2•1)", "rank", {
        "rank": "the increment of the Guns check is the rank; the progress is kept for "
                "display only",
    }),
    Ruling("ARC-22", "What does one attack use of a gun's capacity?", "rof", {
        "rof": "it fires up to rof rounds (a fractional rof: 1); with fewer rounds left it "
               "fires what is left, and its hits are capped by the rounds fired",
        "one": "one round per attack, whatever the rof",
    }),
    Ruling("ARC-23", "A capacity written as a die (the pistol's 1d12)", "rolled", {
        "rolled": "the die is rolled each time the gun is loaded, the first load when the "
                  "battle starts",
        "maximum": "the die's maximum",
    }),
    Ruling("ARC-24", "When does a character at or under 0 health fall?", "end-of-round", {
        "end-of-round": "at the end of the round, after the wound dice (the seed's step 6: "
                        "'Once all combatants have acted: roll wound dice ... characters at or "
                        "below 0 health fall unconscious, at or below -CON die'); a one-attack "
                        "death (ARC-8) is still at once",
        "at-once": "at once (the damage chapter), except that a character hurt during its own "
                   "turn finishes the turn first",
    }),
    Ruling("ARC-25", "Item costs written 'a + b AP' (a medhypo's 2 + 1)", "total", {
        "total": "a + b AP always, on oneself too (the source's only worked example does "
                 "not let a character treating itself pay a alone)",
        "other": "a AP on oneself, a + b AP on someone else",
    }),
    Ruling("ARC-26", "Wound steps removed by bloodfoam, a medkit or a bandage", "smallest", {
        "smallest": "from the smallest wound die first (a d4 goes, then the next smallest)",
        "largest": "from the largest wound die first",
    }),
    Ruling("ARC-27", "A bandage (the source gives only its failure)", "one-step", {
        "one-step": "6 AP (the source's example: 2 to take it out, 4 to apply it) and a "
                    "Medicine check: success removes one wound step; failure raises the "
                    "smallest wound die below d12 a step (all d12: a new d4)",
    }),
    Ruling("ARC-28", "Movement modes on the grid (the source gives their costs only)",
           "cost-only", {
               "cost-only": "walk 2 AP a square, slow 3, run 2 AP per 2 squares or part, "
                            "sprint 2 AP per 4 squares or part; +1 AP per diagonal step and "
                            "per rough square entered; the whole move is paid when declared; "
                            "the mode has no other effect",
           }),
    Ruling("ARC-29", "Sight on the grid", "one-line", {
        "one-line": "visible when at least one of the four corner-to-corner lines is clear; "
                    "every standing character blocks, cover is not modelled",
        "two-lines": "visible when at least two lines are clear",
    }),
    Ruling("ARC-30", "Overwatch and suppress: what triggers them?", "enter-sight", {
        "enter-sight": "each square an enemy enters (grid only) where the watcher sees it "
                       "within range: overwatch fires once, aimed as committed; suppress "
                       "fires an unaimed attack for each such square, 1 committed AP each; "
                       "setting either ends the watcher's turn and lasts until its next turn",
    }),
    Ruling("ARC-31", "A failed Medicine check (a bandage, bloodfoam, a medkit): what do its "
           "degrees of failure do?", "harm", {
               "harm": "the attempt has no beneficial effect: any failed Medicine check "
                       "raises the patient's wound dice one step per degree of failure, at "
                       "least one (the actions chapter: 'If the check fails, the attempt has "
                       "no beneficial effect', 'each degree of failure ... adds 1 Wound "
                       "step'), and the item does nothing else",
               "signed": "the item's '+ º' takes the signed degree, so a worse failure does "
                         "less: a medkit failing at -2º heals 1d12 - 2 and removes 1d4 - 2 "
                         "wound steps (never below 0), bloodfoam 1d4 - 2 steps; a failed "
                         "bandage raises the wound dice one step per degree of failure, at "
                         "least one",
               "flat": "a failure does nothing but use the item, except that a failed "
                       "bandage raises a wound die one step, whatever the degree",
           }),
    Ruling("ARC-32", "Suppressing fire: when is its attack rolled?", "declared", {
        "declared": "as the actions chapter has it: one unaimed attack roll when the "
                    "suppression is declared (a failure ends the action, the committed AP "
                    "are spent); every attack it triggers uses that roll's degree and is "
                    "unopposed (no Evade), 1 committed AP each",
        "each-shot": "each triggered attack rolls its own unaimed check and the mover may "
                     "evade it",
    }),
    Ruling("ARC-33", "Moving without a map: what does a move change?", "one-pair", {
        "one-pair": "a move toward or away from one character whose distance is given "
                    "changes the metres between those two by the distance covered (walk a "
                    "5-foot square per 2 AP, slow one per 3 AP, run 10 feet per 2 AP, sprint "
                    "20 feet per 2 AP; toward someone, not below 0); every other distance "
                    "stays as it was, for want of a map",
    }),
)


def sight_options(rulings: Rulings) -> dict[str, SightOption]:
    """The grid's sight options: how many clear lines ARC-29 asks; cover is not modelled."""
    return {"min_clear": 2 if rulings["ARC-29"] == "two-lines" else 1, "cover_range": 0}
