"""The rulings of Last Odyssey: every ambiguity of the rules as a named option with a default.

LOD-1 .. LOD-8 come with the rule file; LOD-9 is the rows battlefield's (how long an advance
lasts); LOD-10 onwards were found while implementing, LOD-22 onwards in an audit of readings
the code had taken without saying so. ``docs/rulesets/last-odyssey.md`` has
one line for each.
"""

from __future__ import annotations

from tactica.engine.ruleset import Ruling

__all__ = ["RULINGS"]

RULINGS: tuple[Ruling, ...] = (
    Ruling("LOD-1", "'Attack minus Defense plus the hit die multiplied by modifiers': what is "
           "multiplied?", "base", {
               "base": "base = max(1, attack - defense + die); final = round(base x every "
                       "multiplier)",
               "die-only": "final = max(1, attack - defense + round(die x every multiplier))",
           }),
    Ruling("LOD-2", "Rounding to the nearest integer: ties?", "half-down", {
        "half-down": "halves round down (the SRD's element page: 2.5 becomes 2)",
        "half-up": "halves round up",
        "half-even": "halves round to the even neighbour (banker's rounding)",
    }),
    Ruling("LOD-3", "'Minimum base damage 1' against 'if the damage would be 0 it is still 0'",
           "floor-base", {
               "floor-base": "the base has a floor of 1; the final damage may round to 0 (x0.25)",
           }),
    Ruling("LOD-4", "The automatic hit on a 1", "natural-one", {
        "natural-one": "the natural die face 1, physical and magical attacks only, never status",
    }),
    Ruling("LOD-5", "Physical against Shell doubling", "srd", {
        "srd": "magical against a Shell x2; physical against no Shell x2; the others x1; "
               "stacks with element and ability multipliers",
    }),
    Ruling("LOD-6", "Multi-target attacks", "one-roll", {
        "one-roll": "one hit die; each target's own Evasion or Resistance and Defense",
    }),
    Ruling("LOD-7", "Knock-out attacks", "declared", {
        "declared": "declared before the roll; the hit is decided by the real roll, the damage "
                    "as if the die were 1; a target it downs is knocked out, a Boar Rider it "
                    "takes to 0 HP too when it falls in the Effect phase",
    }),
    Ruling("LOD-8", "Initiative calls (for simulation)", "call-one", {
        "call-one": "every player calls 1; the GM's 2d4 is rolled (a 1 is never exact, and "
                    "is always below the roll: players win ties with enemies)",
        "policy": "each player's side chooses its calls (a decision per player)",
    }),
    Ruling("LOD-9", "How long does an advance last?", "until-moved", {
        "until-moved": "the advanced-on side stands in its front row from then on; its "
                       "members may Move back for 1 AP like anyone",
    }),
    Ruling("LOD-10", "Several Shells at once (one per element): which one takes damage?",
           "newest", {
               "newest": "the Shell gained last is on top: it absorbs damage first and gives "
                         "its element; when it breaks the next newest is on top; a Shell of "
                         "an element already held is refilled (up to the cap) and goes on top",
               "single": "one Shell at a time: a new Shell replaces the old one",
           }),
    Ruling("LOD-11", "Paralyzed or Silenced ('rolls fail automatically') against the natural 1",
           "fail", {
               "fail": "the automatic failure wins: even a 1 misses",
               "one-hits": "a natural 1 still hits",
           }),
    Ruling("LOD-12", "Confused: which actions are retargeted, and to whom?", "others", {
        "others": "single-target basic attacks and abilities aimed at someone else; on a lost "
                  "coin call the other side picks any character the action could legally "
                  "target other than the user",
        "anyone": "as 'others', but the other side may also pick the user itself",
    }),
    Ruling("LOD-13", "Initiative ties the calls do not settle", "listed", {
        "listed": "the order of the units in the scenario file",
    }),
    Ruling("LOD-14", "Faithful: how does the Lieutenant take the attack?", "same-roll", {
        "same-roll": "the attack is resolved again against the Lieutenant with the same hit "
                     "die (its own Evasion, Defense, element and Shell)",
        "same-damage": "the Lieutenant takes the final damage the Captain would have taken "
                       "(through its own Shell)",
    }),
    Ruling("LOD-15", "Free reactions (Revenge, Quick Fingers): what do they cost and roll?",
           "free", {
               "free": "no AP and no MP; Revenge rolls its Cattle Prod, Quick Fingers takes an "
                       "item without a roll",
               "costed": "no AP; Revenge needs and spends Cattle Prod's MP; Quick Fingers "
                         "makes Steal's physical attack roll",
           }),
    Ruling("LOD-16", "Who can ranged and ally abilities target ('any character on the "
           "battlefield')?", "sides", {
               "sides": "ranged (offensive) abilities target the other side, ally (defensive) "
                        "abilities the user's side, the user included",
               "anyone": "both may target any character on the battlefield",
           }),
    Ruling("LOD-17", "Does poison damage go through Shells?", "hp", {
        "hp": "no: poison takes HP directly (it is not an attack)",
        "shell-first": "yes: the Shell absorbs it first, with the shellbreak rule",
    }),
    Ruling("LOD-18", "Enemies whose abilities include no basic attack", "basic-attack", {
        "basic-attack": "every character may take the Basic Attack action (colorless melee "
                        "physical attack); an enemy's named basic attack is its Basic Attack",
        "named-only": "only characters with a (named) basic attack may take it",
    }),
    Ruling("LOD-19", "Abilities whose AP or MP cost the SRD summary leaves out",
           "one-ap-no-mp", {
               "one-ap-no-mp": "1 AP and no MP (Detonate, Steal, Stab, Reload, Discipline, ...)",
           }),
    Ruling("LOD-20", "Which item do Steal and Quick Fingers take?", "thief-chooses", {
        "thief-chooses": "the thief's side chooses among the victim's items",
        "random": "one of the victim's items at random (rolled)",
    }),
    Ruling("LOD-21", "Too Stupid to Die: what does the Boar Rider do at 0 HP before the Effect "
           "phase?", "acts", {
               "acts": "it stays on the field, takes its turns and can be healed; it falls in "
                       "the Effect phase if still at 0 HP",
               "idle": "it stays on the field and can be healed, but skips its turns",
           }),
    Ruling("LOD-22", "Dragonslayer is 'x4 at full HP, else x2': whose full HP?", "target", {
        "target": "the target's: x4 against a target at its full HP",
        "user": "the user's: x4 while the user is at its full HP",
    }),
    Ruling("LOD-23", "Body Armor ('the first physical hit on it deals no damage') against a "
           "physical hit that deals no damage anyway (Steal)", "damaging", {
               "damaging": "only a hit that would deal damage uses the Body Armor up; Steal's "
                           "hit leaves it for the next",
               "any-hit": "any physical hit uses it up, Steal's included (the item is still "
                          "taken)",
           }),
    Ruling("LOD-24", "First Strike comes before initiative: in what order do the free turns "
           "go?", "initiative", {
               "initiative": "highest Initiative statistic first (no calls yet), ties in the "
                             "scenario's order",
               "listed": "the scenario's order",
           }),
)
