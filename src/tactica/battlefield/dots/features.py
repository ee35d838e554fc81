"""What stands between two adjacent dots of a lattice: the kinds of edge features.

A feature lies on the side shared by the cells of two adjacent dots, on one level. Its kind says
what it does to sight, movement and blast:

========== ========= ============ ============== ============= ==================
kind       cover     blocks sight low and solid  movement (AP) blocks blast
========== ========= ============ ============== ============= ==================
low-wall   +1        no           yes            2             prone troopers only
furniture  +1        no           yes            2             prone troopers only
fence      +1        no           yes            2             prone troopers only
vegetation +1        no           no             2             no
window     +1        no           yes            4 (ground)    prone troopers only
door       none      no           no             2             no
high-wall  -         yes          -              impassable    yes
tree       -         yes          -              impassable    yes
wall       -         yes          -              impassable    yes
========== ========= ============ ============== ============= ==================

``wall`` is a building's wall; ``door`` and ``window`` are the openings in it. A window above
the ground level cannot be crossed by movement at all. "Low and solid" obstructions are the
ones that block sight next to a prone trooper and shelter a prone trooper from blast.

>>> FEATURE_KINDS["low-wall"].cover, FEATURE_KINDS["wall"].blocks_sight
(1, True)
>>> feature_kind("light-vegetation").name
'vegetation'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tactica.engine.errors import MapError

__all__ = ["ALIASES", "FEATURE_KINDS", "FeatureKind", "feature_kind"]


@dataclass(frozen=True)
class FeatureKind:
    """One kind of edge feature.

    ``cover``: cover modifiers it gives a target when the line crosses it (0 or 1);
    ``blocks_sight``: an impassable obstacle (also stops blast and movement); ``solid``: a low
    solid obstruction (blocks sight next to a prone trooper, shelters prone troopers from
    blast); ``move_cost``: AP to cross it (None: impassable); ``upper_move``: whether movement
    may cross it above the ground level; ``opening``: a door or window in a building wall.
    """

    name: str
    label: str
    cover: int = 0
    blocks_sight: bool = False
    solid: bool = False
    move_cost: int | None = 1
    upper_move: bool = True
    opening: bool = False

    @property
    def is_obstacle(self) -> bool:
        """Impassable: blocks sight, movement and blast."""
        return self.blocks_sight


#: Every feature kind by name.
FEATURE_KINDS: Final[dict[str, FeatureKind]] = {
    k.name: k
    for k in (
        FeatureKind("low-wall", "low wall", cover=1, solid=True, move_cost=2),
        FeatureKind("furniture", "furniture", cover=1, solid=True, move_cost=2),
        FeatureKind("fence", "fence", cover=1, solid=True, move_cost=2),
        FeatureKind("vegetation", "light vegetation", cover=1, move_cost=2),
        FeatureKind("window", "window", cover=1, solid=True, move_cost=4, upper_move=False,
                    opening=True),
        FeatureKind("door", "door", move_cost=2, opening=True),
        FeatureKind("high-wall", "high wall", blocks_sight=True, move_cost=None),
        FeatureKind("tree", "tree trunk", blocks_sight=True, move_cost=None),
        FeatureKind("wall", "building wall", blocks_sight=True, move_cost=None),
    )
}

#: Other names accepted in map files.
ALIASES: Final = {
    "light-vegetation": "vegetation",
    "tree-trunk": "tree",
    "building-wall": "wall",
    "doorway": "door",
}


def feature_kind(name: object, *, where: str = "kind") -> FeatureKind:
    """The kind called ``name`` (or one of its aliases); MapError naming the known kinds."""
    if isinstance(name, str):
        key = ALIASES.get(name, name)
        if key in FEATURE_KINDS:
            return FEATURE_KINDS[key]
    known = ", ".join(FEATURE_KINDS)
    raise MapError(f"{where}: unknown feature kind {name!r} (known: {known})")
