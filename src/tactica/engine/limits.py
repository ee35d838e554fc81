"""The bounds tactica puts on what it reads, in one place (documented in ``docs/limits.md``).

Every file tactica reads (scenarios, maps, content packs, fight logs) and every number in them
is bounded before anything else looks at it, so that a hostile or mistaken input gets one
clear error instead of a traceback, a hang or all the machine's memory.
"""

from __future__ import annotations

__all__ = [
    "CONTENT_PATH_ENV",
    "MAX_AREAS",
    "MAX_BUILDINGS",
    "MAX_CONNECTIONS",
    "MAX_DOTS_SIDE",
    "MAX_ERROR_LINES",
    "MAX_ERROR_LINE_CHARS",
    "MAX_GRID_SIDE",
    "MAX_INT",
    "MAX_INT_DIGITS",
    "MAX_LEVELS",
    "MAX_LISTED_NUMBERS",
    "MAX_LOG_BYTES",
    "MAX_LOG_LINE_BYTES",
    "MAX_MAP_FEATURES",
    "MAX_MATRIX_MATCHUPS",
    "MAX_NUMBER",
    "MAX_ODDS_TABLE",
    "MAX_QUOTE_CHARS",
    "MAX_ROUNDS",
    "MAX_SEED",
    "MAX_STEPS",
    "MAX_SWEEP_POINTS",
    "MAX_UNITS",
    "MAX_VERSUS_RANGES",
    "MAX_WALLS",
    "MAX_WORKERS",
    "MAX_YAML_BYTES",
    "MAX_YAML_DEPTH",
    "MAX_YAML_NODES",
    "MIN_PRECISION",
]

#: The largest YAML file read (scenario, map or content pack): a 1000 x 1000 grid fits.
MAX_YAML_BYTES = 2 * 1024 * 1024
#: The deepest nesting of lists and mappings in a YAML file (real files need fewer than 10).
MAX_YAML_DEPTH = 50
#: The most values (scalars, lists and mappings) a YAML document may hold, counting every
#: value an alias repeats: a "billion laughs" document is refused before it is expanded.
MAX_YAML_NODES = 100_000
#: The most digits of a whole number in a YAML file (a 64-bit seed has 20).
MAX_INT_DIGITS = 20
#: The largest whole number in a game's field unless the game allows less (and most do).
MAX_INT = 1_000_000
#: The largest seed (numpy's generators take any 64-bit seed).
MAX_SEED = 2**64 - 1
#: The most rounds a scenario may ask for (``max_rounds``).
MAX_ROUNDS = 1000
#: The most units (characters, operators) a scenario may hold (each game may allow fewer).
MAX_UNITS = 100
#: The most tiles along either side of a tile grid map (each game may allow fewer).
MAX_GRID_SIDE = 100
#: The most areas, and connections, of a zone map (each game may allow fewer).
MAX_AREAS = 200
MAX_CONNECTIONS = 1000
#: The most dots along either side of a dot lattice map (``kind: dots``): 100 columns by 100
#: rows; every coordinate of the map's features must be on it.
MAX_DOTS_SIDE = 100
#: The most levels (floors) of a dot lattice map, a building's ``floors`` included.
MAX_LEVELS = 10
#: The most entries of a dot lattice map's lists: ``walls``, ``buildings``, and ``features``
#: (the sides that carry one, ``stairs`` and a building's openings too).
MAX_WALLS = 500
MAX_BUILDINGS = 100
MAX_MAP_FEATURES = 2000

#: The most attacks ``tactica odds --table`` works out (each an exact distribution); more is
#: an error saying how to narrow the table (``--attacker``, ``--target``).
MAX_ODDS_TABLE = 500

#: Numbers typed on the command line, bounded before anything is built from them.
#: A list of numbers (``--range 1-20``, ``--cover 0,1``, ``--vary PATH=LOW-HIGH``): its count is
#: worked out from the text first, and each number is at most ``MAX_NUMBER``.
MAX_LISTED_NUMBERS = 1000
MAX_NUMBER = 1_000_000
#: The most matchups (attacker and target profiles, ranges and covers) ``tactica matrix``
#: works out, each a set of exact distributions.
MAX_MATRIX_MATCHUPS = 1000
#: The most ranges of ``tactica versus`` (each a pair of whole simulations).
MAX_VERSUS_RANGES = 100
#: The most points of a sweep (one or two parameters' values multiplied).
MAX_SWEEP_POINTS = 1000
#: The most steps of one simulated battle (``--max-steps``).
MAX_STEPS = 1_000_000
#: The most local worker processes (``--workers``).
MAX_WORKERS = 256
#: The narrowest half width a simulation may be asked to reach (``--precision``): about
#: 4,000,000 battles at a rate of one half.
MIN_PRECISION = 0.0005

#: The largest fight log read; a fight of many thousands of steps is far smaller.
MAX_LOG_BYTES = 256 * 1024 * 1024
#: The longest line (one record) of a fight log.
MAX_LOG_LINE_BYTES = 1024 * 1024

#: How much of a bad value an error quotes.
MAX_QUOTE_CHARS = 60
#: How many problems an error lists (the rest are counted); see tactica.engine.errors.
MAX_ERROR_LINES = 30
#: How long one line of an error may be.
MAX_ERROR_LINE_CHARS = 400

#: The environment variable listing more folders (separated as in PATH) that a scenario's
#: ``content:`` packs may come from; by default only the scenario's own folder (and below)
#: and tactica's built-in packs.
CONTENT_PATH_ENV = "TACTICA_CONTENT_PATH"
