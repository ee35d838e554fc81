"""Arc matchups: two characters of the content packs facing each other, without a map.

A matchup is a map-less scenario: the attacker and the target on two sides, and, when a
``range`` is asked for, the distance between them in metres (a gun out of its range cannot
fire). Arc's rules here have no cover, so ``cover`` is ignored and said so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import Matchup, MatchupProfile
from tactica.engine.rulings import Rulings
from tactica.rulesets.arc.content import load_pack

__all__ = ["matchup", "matchup_profiles"]


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
    notes = ["no map: range in metres, given between the two"]
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
