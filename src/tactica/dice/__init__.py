"""Exact dice: finite distributions, the games' dice and pool mechanics, dice expressions.

>>> from tactica.dice import evaluate, two_d6
>>> evaluate("2d6") == two_d6()
True
>>> evaluate("2d6+1 >= 8").p(1)
Fraction(7, 12)
>>> evaluate("6d6cs>=5").p(2)
Fraction(80, 243)
"""

from __future__ import annotations

from tactica.dice.bigsum import power_sum
from tactica.dice.dist import Dist
from tactica.dice.expr import (
    DEFAULT_DIALECT,
    DIALECTS,
    EXPLODE_DEPTH,
    Compare,
    Cost,
    DiceSyntaxError,
    Expr,
    Notes,
    estimate_cost,
    evaluate,
    notes,
    parse,
    roll,
    truncation,
)
from tactica.dice.hand import PhysicalDice, physical_dice
from tactica.dice.mechanics import (
    STEP_SIZES,
    bernoulli,
    binomial,
    count_successes,
    d10_faces,
    d10_success_chance,
    d10_target_successes,
    d20,
    d100,
    dice,
    die,
    keep_highest,
    keep_lowest,
    keep_scored,
    opposed,
    percentile_pair,
    random_rolls,
    read_percentile,
    step_die,
    step_down,
    thin,
    two_d6,
)
from tactica.dice.sampling import uniform_below

__all__ = [
    "DEFAULT_DIALECT",
    "DIALECTS",
    "EXPLODE_DEPTH",
    "STEP_SIZES",
    "Compare",
    "Cost",
    "DiceSyntaxError",
    "Dist",
    "Expr",
    "Notes",
    "PhysicalDice",
    "bernoulli",
    "binomial",
    "count_successes",
    "d10_faces",
    "d10_success_chance",
    "d10_target_successes",
    "d20",
    "d100",
    "dice",
    "die",
    "estimate_cost",
    "evaluate",
    "keep_highest",
    "keep_lowest",
    "keep_scored",
    "notes",
    "opposed",
    "parse",
    "percentile_pair",
    "physical_dice",
    "power_sum",
    "random_rolls",
    "read_percentile",
    "roll",
    "step_die",
    "step_down",
    "thin",
    "truncation",
    "two_d6",
    "uniform_below",
]
