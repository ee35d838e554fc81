"""Arc matchups: two characters of the content packs facing each other, without a map.

A matchup is a map-less scenario: the attacker and the target on two sides, and, when a
``range`` is asked for, the distance between them in metres (a gun out of its range cannot
fire). Arc's rules here have no cover, so ``cover`` is ignored and said so. Two squads
(``tactica versus``) meet the same way: every character of one squad ``range`` metres from
every character of the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import Matchup, MatchupProfile, squad_size
from tactica.engine.rulings import Rulings
from tactica.rulesets.arc.content import MAX_METRES, load_pack

__all__ = ["SQUAD_RANGE", "matchup", "matchup_profiles", "squad_matchup"]


def matchup_profiles(pack_files: Sequence[Path]) -> tuple[str, ...]:
    """Every character of the built-in pack and of ``pack_files``."""
    return tuple(load_pack(tuple(pack_files)).characters)


def _unit(profile: MatchupProfile, side: str, pack_files: Sequence[Path]) -> dict[str, Any]:
    if isinstance(profile, str):
        known = load_pack(tuple(pack_files)).characters
        if profile not in known:
            raise TacticaError(f"unknown profile {profile!r} (known: {', '.join(known)})")
        return {"side": side, "character": profile}
    if not isinstance(profile, Mapping):
        raise TacticaError(f"a matchup profile is a name or a unit's mapping, got {profile!r}")
    return {**{k: v for k, v in profile.items() if k not in ("side", "at")}, "side": side}


def matchup(profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
            cover: int | None, rulings: Rulings, pack_files: Sequence[Path],
            game: str) -> Matchup:
    """The scenario of one character facing another (see the module)."""
    notes = ["no map (ARC-15) and no range bands: a range in metres only decides whether a "
             "gun reaches" + ("; without --range every gun reaches" if range is None else "")]
    if cover:
        notes.append("Arc's gunfights here have no cover: ignored")
    if range is not None and range < 0:
        raise TacticaError(f"range: expected metres of 0 or more, got {range}")
    data: dict[str, Any] = {
        "game": game,
        "name": "matchup face to face",
        "rulings": dict(rulings),
        "units": {"A": _unit(profiles[0], "attackers", pack_files),
                  "T": _unit(profiles[1], "targets", pack_files)},
    }
    if range is not None:
        data["ranges"] = [{"between": ["A", "T"], "metres": range}]
    if pack_files:
        data["content"] = [str(Path(p).resolve()) for p in pack_files]
    return Matchup(data, "A", "T", range, None, tuple(notes))


#: Characters of one squad at most (ids: red A-M, blue N-Z).
MAX_SQUAD = 13
#: The metres between two squads that name no range: the pistol duel's street.
SQUAD_RANGE = 20
_LETTERS = ("ABCDEFGHIJKLM", "NOPQRSTUVWXYZ")


def squad_matchup(squads: Mapping[str, Sequence[MatchupProfile]], *, range: int | None,
                  rulings: Rulings, pack_files: Sequence[Path], game: str,
                  max_rounds: int = 12) -> tuple[dict[str, Any], int, tuple[str, ...]]:
    """Two squads in Arc's map-less fight (ARC-15): every character of one squad ``range``
    metres from every character of the other (default :data:`SQUAD_RANGE`), so a gun whose
    range is shorter cannot fire. Who acts first is Arc's own initiative roll each round
    (ARC-1); the first side of ``squads`` is listed first."""
    metres = SQUAD_RANGE if range is None else range
    if not 1 <= metres <= MAX_METRES:
        raise TacticaError(f"--range: expected 1 to {MAX_METRES} metres, got {metres}")
    squad_size(squads, MAX_SQUAD, "characters")
    units: dict[str, Any] = {}
    ids: list[list[str]] = []
    for k, (side, members) in enumerate(squads.items()):
        if not members:
            raise TacticaError(f"squad {side!r}: give at least one character")
        ids.append([])
        for i, profile in enumerate(members):
            uid = _LETTERS[k][i]
            units[uid] = _unit(profile, side, pack_files)
            ids[-1].append(uid)
    data: dict[str, Any] = {
        "game": game,
        "name": f"squads {metres} metres apart",
        "rulings": dict(rulings),
        "max_rounds": max_rounds,
        "units": units,
        "ranges": [{"between": [a, b], "metres": metres} for a in ids[0] for b in ids[1]],
    }
    if pack_files:
        data["content"] = [str(Path(p).resolve()) for p in pack_files]
    notes = (f"no map (ARC-15): every character the range in metres from every enemy, so only "
             f"a gun's range limit depends on it; initiative (ARC-1) says who acts first each "
             f"round, the second run lists the other squad first; {max_rounds} rounds at most",)
    return data, metres, notes
