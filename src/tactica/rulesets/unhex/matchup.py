"""Unhex matchups: two characters on a chain of areas at a chosen range, the target in cover.

Range in Unhex counts connections between areas, so a matchup at range ``n`` is a line of
``n + 1`` areas joined by solid connections, the attacker in the first and the target in the
last (range 0: both in one area). Cover is the map's own mark: level 1 puts a cover mark at
the target's end of the last connection, so a shortest path ends with a mark at its area.
Two squads (``tactica versus``) stand at the two ends of such a line, without cover marks.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import Matchup, MatchupProfile, squad_size
from tactica.engine.rulings import Rulings
from tactica.rulesets.unhex import content

__all__ = ["DEFAULT_RANGE", "MATRIX_RANGES", "SQUAD_RANGE", "matchup", "matchup_profiles",
           "matchup_targets", "squad_matchup"]

#: The range of a matchup that names none: the next area, where every ranged weapon works.
DEFAULT_RANGE = 1
_PLACEMENT = ("side", "at")


def matchup_profiles(pack_files: Sequence[Path]) -> tuple[str, ...]:
    """The character profiles of the built-in pack and of ``pack_files``."""
    return tuple(content.PACKS.load(list(pack_files)).profiles)


#: The ranges of a matrix that names none: one area (melee weapons reach) and the next.
MATRIX_RANGES = (0, 1)


def matchup_targets(pack_files: Sequence[Path]) -> tuple[str, ...]:
    """The distinct targets: the first profile of each level (what an attack meets: damage
    comes from the dice alone, and a target's level decides its defending roll)."""
    seen: dict[int, str] = {}
    for name, profile in content.PACKS.load(list(pack_files)).profiles.items():
        seen.setdefault(profile.level, name)
    return tuple(seen.values())


def _unit(profile: MatchupProfile, side: str, at: str, known: Sequence[str]) -> dict[str, Any]:
    if isinstance(profile, str):
        if profile not in known:
            raise TacticaError(f"unknown profile {profile!r} (known: {', '.join(known)})")
        return {"side": side, "at": at, "profile": profile}
    if not isinstance(profile, Mapping):
        raise TacticaError(f"a matchup profile is a name or a unit's mapping, got {profile!r}")
    return {**{k: v for k, v in profile.items() if k not in _PLACEMENT}, "side": side, "at": at}


def matchup(profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
            cover: int | None, rulings: Rulings, pack_files: Sequence[Path],
            game: str) -> Matchup:
    """The scenario of one character facing another (see the module's docstring)."""
    distance = DEFAULT_RANGE if range is None else range
    level = 0 if cover is None else cover
    if distance < 0:
        raise TacticaError(f"range: expected 0 (one area) or more connections, got {distance}")
    if level not in (0, 1):
        raise TacticaError(f"cover: Unhex has cover 0 (none) or 1 (a cover mark at the "
                           f"target's end of the connection), got {level}")
    notes = [f"range {distance} (areas apart)"]
    if level and distance == 0:
        notes.append("no cover within one area (no connection to mark): cover 0")
        level = 0
    areas = [f"Area {i}" for i in itertools.islice(itertools.count(), distance + 1)]
    connections: list[dict[str, Any]] = [{"between": [a, b]}
                                           for a, b in itertools.pairwise(areas)]
    if level:
        connections[-1]["cover"] = [areas[-1]]
        notes.append(f"cover: a cover mark at {areas[-1]}'s end of the last connection")
    known = matchup_profiles(pack_files)
    data: dict[str, Any] = {
        "game": game,
        "name": f"matchup at range {distance}" + (" in cover" if level else ""),
        "rulings": dict(rulings),
        "map": {"kind": "zones", "areas": areas, "connections": connections,
                "layout": {a: [float(i), 0.0] for i, a in enumerate(areas)}},
        "units": {"A": _unit(profiles[0], "attackers", areas[0], known),
                  "T": _unit(profiles[1], "targets", areas[-1], known)},
        "sides": ["attackers", "targets"],
    }
    if pack_files:
        data["content"] = [str(Path(p).resolve()) for p in pack_files]
    return Matchup(data, "A", "T", distance, level, tuple(notes))


#: Connections between two squads that name no range: one area between them to cross.
SQUAD_RANGE = 2
#: The longest chain of areas a squad matchup builds.
MAX_SQUAD_RANGE = 20
#: Characters of one squad at most (ids: red A-M, blue N-Z).
MAX_SQUAD = 13
_LETTERS = ("ABCDEFGHIJKLM", "NOPQRSTUVWXYZ")


def squad_matchup(squads: Mapping[str, Sequence[MatchupProfile]], *, range: int | None,
                  rulings: Rulings, pack_files: Sequence[Path], game: str,
                  max_rounds: int = 20) -> tuple[dict[str, Any], int, tuple[str, ...]]:
    """Two squads at the two ends of a chain of ``range + 1`` areas joined by solid
    connections without cover marks (range in Unhex counts connections; 0: one area), the
    first side of ``squads`` in the first area. Neither squad is the players' (no ``pcs``),
    so both follow the same rules; the initiative roll of each round says which team acts
    first, as the game does."""
    distance = SQUAD_RANGE if range is None else range
    if not 0 <= distance <= MAX_SQUAD_RANGE:
        raise TacticaError(f"--range: expected 0 (one area) to {MAX_SQUAD_RANGE} connections, "
                           f"got {distance}")
    squad_size(squads, MAX_SQUAD, "characters")
    areas = [f"Area {i}" for i in itertools.islice(itertools.count(), distance + 1)]
    known = matchup_profiles(pack_files)
    units: dict[str, Any] = {}
    for k, (side, members) in enumerate(squads.items()):
        if not members:
            raise TacticaError(f"squad {side!r}: give at least one character")
        where = areas[0] if k == 0 else areas[-1]
        for i, profile in enumerate(members):
            units[_LETTERS[k][i]] = _unit(profile, side, where, known)
    data: dict[str, Any] = {
        "game": game,
        "name": f"squads {distance} areas apart",
        "rulings": dict(rulings),
        "max_rounds": max_rounds,
        "map": {"kind": "zones", "areas": areas,
                "connections": [{"between": [a, b]} for a, b in itertools.pairwise(areas)],
                "layout": {a: [float(i), 0.0] for i, a in enumerate(areas)}},
        "units": units,
        "sides": list(squads),
    }
    if pack_files:
        data["content"] = [str(Path(p).resolve()) for p in pack_files]
    notes = ("a line of areas joined by solid connections, without cover marks, a squad at "
             "each end, the range in connections apart (0: both in one area); neither squad "
             "counts as the players'; the initiative roll says which team acts first each "
             f"round, the second run lists the other squad first; {max_rounds} rounds at most",)
    return data, distance, notes
