"""Nebulia Operations matchups: two operators on a small grid at a chosen range and cover.

The attacker stands on the left, the target ``range`` tiles away under NEB-3's metric. For
cover, one blocking tile is placed where exactly three of the four corner-to-corner sight
lines stay clear (searched with the game's own sight geometry, under the NEB-4 contact
policy in force), so the target is visible and, beyond 3 tiles, in cover. Within 3 tiles the
game itself says nobody benefits from cover; the matchup then says so in a note.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.battlefield.grid.metrics import is_within
from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import Matchup, MatchupProfile, squad_size
from tactica.engine.rulings import Rulings
from tactica.rulesets.nebulia import content, geometry

__all__ = ["DEFAULT_RANGE", "matchup", "matchup_profiles", "matchup_targets", "squad_matchup"]

#: The range of a matchup that names none: the nearest at which cover counts.
DEFAULT_RANGE = geometry.COVER_CANCEL + 1
#: Clear sight lines for each cover level the game has (0: in the open, 1: in cover).
CLEAR_LINES = {0: 4, 1: 3}
_PLACEMENT = ("side", "at")

Tile = tuple[int, int]


def matchup_profiles(pack_files: Sequence[Path]) -> tuple[str, ...]:
    """The operator profiles of the built-in pack and of ``pack_files``."""
    return tuple(content.PACKS.load(list(pack_files)).profiles)


def matchup_targets(pack_files: Sequence[Path]) -> tuple[str, ...]:
    """The distinct targets: the first profile of each defense and armor (what an attack
    meets; a target's weapons and move change nothing), for a matrix's default rows."""
    seen: dict[tuple[int, int], str] = {}
    for name, profile in content.PACKS.load(list(pack_files)).profiles.items():
        seen.setdefault((profile.defense, profile.armor), name)
    return tuple(seen.values())


def _offsets(distance: int, metric: str) -> list[Tile]:
    """Target offsets from the attacker at ``distance`` under ``metric`` (rounded)."""
    if metric == "chebyshev":
        return [(distance, dy) for dy in range(min(distance, 2) + 1)]
    if metric == "manhattan":
        return [(distance - dy, dy) for dy in range(min(distance, 2) + 1)]
    # Euclidean: on a straight row no single tile blocks just one line, so beyond the cover
    # range the target may stand one row off (sqrt(r*r + 1) rounds to r).
    return [(distance, 0)] + ([(distance, 1)] if distance > geometry.COVER_CANCEL else [])


def _blocker(source: Tile, target: Tile, width: int, height: int, clear: int,
             rulings: Rulings) -> Tile | None:
    """A tile that leaves exactly ``clear`` of the four lines clear (nearest the target)."""
    tiles = sorted(((x, y) for x in range(width) for y in range(height)
                    if (x, y) not in (source, target)),
                   key=lambda t: (abs(t[0] - target[0]) + abs(t[1] - target[1]), t))
    for tile in tiles:
        got, _ = geometry.sight_through({tile}, source, target, rulings["NEB-4"],
                                        rulings["NEB-3"])
        if got == clear:
            return tile
    return None


def _unit(profile: MatchupProfile, side: str, at: Tile, known: Sequence[str]) -> dict[str, Any]:
    if isinstance(profile, str):
        if profile not in known:
            raise TacticaError(f"unknown profile {profile!r} (known: {', '.join(known)})")
        return {"side": side, "profile": profile, "at": list(at)}
    if not isinstance(profile, Mapping):
        raise TacticaError(f"a matchup profile is a name or a unit's mapping, got {profile!r}")
    kept = {k: v for k, v in profile.items() if k not in _PLACEMENT}
    return {**kept, "side": side, "at": list(at)}


def matchup(profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
            cover: int | None, rulings: Rulings, pack_files: Sequence[Path],
            game: str) -> Matchup:
    """The scenario of one operator facing another (see the module's docstring)."""
    distance = DEFAULT_RANGE if range is None else range
    level = 0 if cover is None else cover
    if distance < 1:
        raise TacticaError(f"range: two operators stand at least 1 tile apart, got {distance}")
    if level not in CLEAR_LINES:
        raise TacticaError(f"cover: Nebulia Operations has cover 0 (in the open) or 1 (2-3 "
                           f"sight lines clear beyond 3 tiles), got {level}")
    metric = rulings["NEB-3"]
    near = distance <= geometry.COVER_CANCEL
    found: tuple[Tile, Tile, int, int, Tile | None] | None = None
    for dx, dy in _offsets(distance, metric):
        width, height = dx + 1, dy + 3
        source, target = (0, 1), (dx, 1 + dy)
        block = None
        if CLEAR_LINES[level] < 4:
            block = _blocker(source, target, width, height, CLEAR_LINES[level], rulings)
            if block is None:
                continue
        found = (source, target, width, height, block)
        break
    if found is None and near:  # cover would not count here anyway: stand in the open
        dx, dy = _offsets(distance, metric)[0]
        found = ((0, 1), (dx, 1 + dy), dx + 1, dy + 3, None)
    if found is None:
        raise TacticaError(f"cover: no single blocking tile gives cover at range {distance} "
                           f"under NEB-3={metric}, NEB-4={rulings['NEB-4']}")
    source, target, width, height, block = found
    rows = [["."] * width for _ in [0] * height]
    if block is not None:
        rows[block[1]][block[0]] = "#"
    known = matchup_profiles(pack_files)
    units = {"A": _unit(profiles[0], "attackers", source, known),
             "T": _unit(profiles[1], "targets", target, known)}
    exact = math.hypot(target[0] - source[0], target[1] - source[1])
    shown = f"{exact:.2f} tiles, " if metric == "euclidean" and exact != distance else ""
    notes = [f"range {distance} ({shown}{metric})"]
    if level and block is not None:
        notes.append(f"cover: a blocking tile at {block[0]},{block[1]} leaves 3 of 4 sight "
                     "lines clear")
    if level and is_within(source, target, geometry.COVER_CANCEL, metric):
        notes.append("within 3 tiles nobody benefits from cover"
                     + ("" if block else " (and no single tile blocks just one line here)"))
    data: dict[str, Any] = {
        "game": game,
        "name": f"matchup at range {distance}" + (" in cover" if level else ""),
        "rulings": dict(rulings),
        "map": {"kind": "grid", "tiles": "\n".join("".join(r) for r in rows)},
        "units": units,
        "sides": ["attackers", "targets"],
    }
    if pack_files:
        data["content"] = [str(Path(p).resolve()) for p in pack_files]
    return Matchup(data, "A", "T", distance, level, tuple(notes))


#: Free tiles behind each squad and beside its ends (room to move and to flank).
SQUAD_MARGIN = 2
#: Operators of one squad at most (ids: red A-M, blue N-Z).
MAX_SQUAD = 13


def squad_matchup(squads: Mapping[str, Sequence[MatchupProfile]], *, range: int | None,
                  rulings: Rulings, pack_files: Sequence[Path], game: str,
                  max_rounds: int = 12) -> tuple[dict[str, Any], int, tuple[str, ...]]:
    """Two squads on an open yard, face to face ``range`` tiles apart along the rows (the
    same distance under every NEB-3 metric), the first side of ``squads`` on the left and
    activating first (NEB-11 says who starts the later rounds). Each squad stands in a
    column, a free tile between operators, each facing its opposite number."""
    distance = DEFAULT_RANGE if range is None else range
    if distance < 1:
        raise TacticaError(f"--range: two squads stand at least 1 tile apart, got {distance}")
    size = squad_size(squads, MAX_SQUAD, "operators")
    width = distance + 1 + 2 * SQUAD_MARGIN
    height = 2 * size - 1 + 2 * SQUAD_MARGIN
    known = matchup_profiles(pack_files)
    units: dict[str, Any] = {}
    letters = ("ABCDEFGHIJKLM", "NOPQRSTUVWXYZ")
    for k, (side, members) in enumerate(squads.items()):
        if not members:
            raise TacticaError(f"squad {side!r}: give at least one operator")
        col = SQUAD_MARGIN if k == 0 else SQUAD_MARGIN + distance
        for i, profile in enumerate(members):
            units[letters[k][i]] = _unit(profile, side, (col, SQUAD_MARGIN + 2 * i), known)
    data: dict[str, Any] = {
        "game": game,
        "name": f"squads {distance} tiles apart",
        "rulings": dict(rulings),
        "max_rounds": max_rounds,
        "map": {"kind": "grid", "tiles": "\n".join("." * width for _ in [0] * height)},
        "units": units,
        "sides": list(squads),
        "first": next(iter(squads)),
    }
    if pack_files:
        data["content"] = [str(Path(p).resolve()) for p in pack_files]
    notes = (f"an open yard: each squad in a column, a free tile between operators, each "
             f"facing its opposite {distance} tiles away; {max_rounds} rounds at most",)
    return data, distance, notes
