"""The rulings of Unhex: every place where the seed and the rulebook leave a choice open.

UNH-1 .. UNH-8 come from the rules folder; UNH-9 and UNH-10 are the zone map's own readings
(doors and X lines, see :mod:`tactica.battlefield.zones.graph`); UNH-11 and later were found while
implementing the whole game, UNH-22 onwards in an audit of readings the code had taken without
saying so and of sentences of the seed it did not model. The first option of each ruling is its
default.
"""

from __future__ import annotations

from tactica.engine.ruleset import Ruling, Rulings

__all__ = ["RULINGS", "SIGHT_RULINGS", "sight_options"]

RULINGS: tuple[Ruling, ...] = (
    Ruling("UNH-1", "Do sight-only connections count toward range?", "yes", {
        "yes": "dashed lines count (Entrance to Catwalk is range 2 only that way)",
        "no": "only lines one can move along count",
    }),
    Ruling("UNH-2", "Line of sight when a shortest path crosses two or more cover marks",
           "any", {
        "any": "blocked if any shortest path crosses 2+ marks not at the attacker's end",
        "every": "blocked only if every shortest path does",
    }),
    Ruling("UNH-3", "Initiative ties ('stays with the team that had it prior round')",
           "holder", {
               "holder": "every tie, equal successes or all failing, stays with the previous "
                         "holder (the PCs in round 1)",
               "pcs-win-equal": "all failing: the previous holder keeps it; equal successes: "
                                "the PCs win, as in any opposed roll",
           }),
    Ruling("UNH-4", "Which damage rules?", "first", {
        "first": "the first filled-in version: 5/5/5/15/10/10 boxes, a location that fills "
                 "lowers level by its box count",
        "later": "the later version: damage lowers level directly; 3/3/3/9/6/6 boxes",
    }),
    Ruling("UNH-5", "The attack roll's target", "current-level", {
        "current-level": "the attacker's current level",
    }),
    Ruling("UNH-6", "Who picks the damage die and the location die, and how (odds and "
           "simulation)", "worst", {
        "worst": "the attacker, or the target in cover, picks what is worst for the other side "
                 "(most level lost, then knockout)",
        "max-damage": "the attacker takes the higher die for damage; a target in cover the lower",
        "random": "either die for damage, half and half",
    }),
    Ruling("UNH-7", "Critical success choice (odds and simulation)", "policy", {
        "policy": "the extra action, unless setting the dice is worth more",
        "extra-action": "always the extra action",
        "set-dice": "always set the dice",
    }),
    Ruling("UNH-8", "Range while a character is moving between two areas", "nearest", {
        "nearest": "the smaller of the two ranges, for range and sight; no cover while moving",
    }),
    Ruling("UNH-9", "Does a closed door block sight?", "block", {
        "block": "a closed door blocks sight and movement",
        "see": "a closed door blocks movement only",
    }),
    Ruling("UNH-10", "What does an X line (a dashed line crossed out) deny?", "veto", {
        "veto": "sight between its two areas, whatever the path",
        "edge": "only itself as a path for sight",
    }),
    Ruling("UNH-11", "Which mark does a wound make?", "slash", {
        "slash": "`\\`: first aid can treat it",
        "x": "`X`: only rest heals it",
    }),
    Ruling("UNH-12", "Where does the rest of a hit go once it has filled its location?",
           "torso", {
        "torso": "to the torso, like any further damage to a full location",
        "lost": "nowhere: a hit never crosses into another location",
    }),
    Ruling("UNH-13", "What does damage to a full torso do?", "escalate", {
        "escalate": "each point makes one torso mark heavier (`\\` to `X`, then `X` to "
                    "permanent), lightest first",
        "lost": "nothing more",
    }),
    Ruling("UNH-14", "Equal successes in an opposed roll between two PCs or two NPCs", "actor", {
        "actor": "the acting side keeps its result: a defence must beat the attack; in "
                 "initiative the previous holder, else the first team listed, wins",
        "reactor": "the reacting side wins: an equal defence makes the attack miss",
    }),
    Ruling("UNH-15", "Who rolls first in an opposed roll (seen by the other before a good "
           "re-roll)?", "actor-first", {
        "actor-first": "the attacker, then the defender; in initiative the previous holder "
                       "decides (PCs in round 1)",
        "reactor-first": "the defender, then the attacker; initiative as in actor-first",
    }),
    Ruling("UNH-16", "Further interceptions of a mover that has already stopped", "at-stop", {
        "at-stop": "they attack the mover where it stopped, if still in range and sight",
        "wasted": "the declared actions are spent for nothing",
    }),
    Ruling("UNH-17", "What makes an intercepted mover stop?", "leg-or-out", {
        "leg-or-out": "a leg filling, or the mover going unconscious",
        "any-hit": "any successful hit",
    }),
    Ruling("UNH-18", "A location that fills again after first aid emptied it", "again", {
        "again": "lowers level again by its box count",
        "once": "lowers level only the first time it fills",
    }),
    Ruling("UNH-19", "Do items in hand use the five item slots?", "all", {
        "all": "every item carried, in hand or not, uses a slot",
        "stowed": "only items not in hand use slots",
    }),
    Ruling("UNH-20", "Initiative with more than two teams: who decides the order?", "winner", {
        "winner": "the winner orders all teams",
        "by-roll": "teams act in order of their rolls: successes from the highest, then "
                   "failures, ties as for the winner",
    }),
    Ruling("UNH-21", "May an unconscious character be attacked?", "no", {
        "no": "only characters still in the fight are targets",
        "yes": "unconscious characters can be attacked too",
    }),
    Ruling("UNH-22", "First aid fails critically: 'turn up to N X marks into permanent ones'",
           "n-or-all", {
               "n-or-all": "N marks, or every X mark if there are fewer ('up to' caps by what "
                           "there is: otherwise a friendly chooser would pick none)",
               "any-up-to-n": "the chooser picks any number from 0 to N",
           }),
    Ruling("UNH-23", "First aid fails critically: who picks the marks that become permanent?",
           "treater", {
               "treater": "the one giving first aid (the rule file: 'your choice')",
               "patient": "the treated character's side (an earlier version of the rule file)",
           }),
    Ruling("UNH-24", "May a mover surrender before an interception's dice?", "no", {
        "no": "no: a mover chose to move, and only the target of an attack surrenders",
        "yes": "yes: once the interceptions are declared, before any die; the interceptions "
               "are not spent and the mover stays where it was, out of the fight",
    }),
    Ruling("UNH-25", "Shields ('a similar effect to cover, but not cover'): against which "
           "attacks?", "any", {
               "any": "a character with a shield in hand picks the damage die of every attack "
                      "on it, melee too (not cover: it never allows a defence against a "
                      "ranged attack and changes no line of sight)",
               "other-areas": "only against attacks from another area, like cover",
           }),
    Ruling("UNH-26", "'Mark off ammo' at the end of combat: how much?", "per-fight", {
        "per-fight": "one mark for each ranged weapon fired in the fight",
        "per-attack": "one mark for each attack made with it (none may be made without ammo "
                      "left)",
    }),
    Ruling("UNH-27", "NPCs wounded in earlier rounds whose initiative roll fails critically "
           "('the GM should have them retreat or surrender')", "break", {
               "break": "the computer's NPCs of that team wounded in an earlier round (a hit "
                        "that did damage, even if first aid has erased its marks since) "
                        "retreat where they can and surrender when next attacked, for the "
                        "round (the seed: 'If the NPCs have been wounded in prior rounds')",
               "wounded-now": "as 'break', but only those with marks on their body when the "
                              "roll is made",
               "fight-on": "they fight on",
           }),
    Ruling("UNH-28", "One-way sight: the count skips the viewer's own marks, so on the "
           "nightclub the Kitchen sees the Dance Floor but not back ('I advise against making "
           "a one-way line of sight')", "either", {
               "either": "sight is symmetric: two areas see each other if the count from "
                         "either end is clear",
               "both": "sight is symmetric: only if the count from both ends is clear",
               "literal": "the count from the viewer's end alone (one-way sight stays)",
           }),
)

#: Rulings that are options of the zone map's sight queries, by option name.
SIGHT_RULINGS: tuple[tuple[str, str], ...] = (
    ("sight_only_range", "UNH-1"),
    ("blocked_if", "UNH-2"),
    ("closed_doors", "UNH-9"),
    ("x_lines", "UNH-10"),
    ("symmetry", "UNH-28"),
)


def sight_options(rulings: Rulings) -> tuple[tuple[str, str], ...]:
    """The zone map's sight options under ``rulings`` (hashable, for caches)."""
    return tuple((name, rulings[rid]) for name, rid in SIGHT_RULINGS)
