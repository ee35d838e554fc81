"""Last Odyssey matchups: two characters face to face, each in its side's front row.

The rows battlefield has no distance and no cover: who reaches whom is a matter of rows, and
both stand in front, where every attack and ability reaches. A matchup therefore ignores
``range`` and ``cover`` and says so. A profile is an enemy of the SRD or a player character of
the packs (``cop``, ``rook``). Two squads (``tactica versus``) stand in their sides' front
rows too; a range is refused.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import Matchup, MatchupProfile, squad_size
from tactica.engine.rulings import Rulings
from tactica.rulesets.last_odyssey.content import load_packs

__all__ = ["matchup", "matchup_profiles", "squad_matchup"]


def matchup_profiles(pack_files: Sequence[Path]) -> tuple[str, ...]:
    """Every enemy and player character of the built-in packs and of ``pack_files``."""
    return tuple(load_packs(tuple(pack_files)).templates)


def _unit(profile: MatchupProfile, pack_files: Sequence[Path]) -> dict[str, Any]:
    if isinstance(profile, str):
        templates = load_packs(tuple(pack_files)).templates
        template = templates.get(profile)
        if template is None:
            raise TacticaError(f"unknown profile {profile!r} (known: {', '.join(templates)})")
        return {"character" if template.player else "enemy": profile}
    if not isinstance(profile, Mapping):
        raise TacticaError(f"a matchup profile is a name or a unit's mapping, got {profile!r}")
    return dict(profile)


def matchup(profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
            cover: int | None, rulings: Rulings, pack_files: Sequence[Path],
            game: str) -> Matchup:
    """The scenario of one character facing another, both in front (see the docstring)."""
    notes = ["both in their side's front row"]
    if range is not None:
        notes.append("range has no meaning on rows: ignored")
    if cover:
        notes.append("rows have no cover: ignored")
    data: dict[str, Any] = {
        "game": game,
        "name": "matchup face to face",
        "rulings": dict(rulings),
        "map": {"kind": "rows", "sides": {"attackers": {"front": ["A"]},
                                          "targets": {"front": ["T"]}}},
        "units": {"A": _unit(profiles[0], pack_files),
                  "T": _unit(profiles[1], pack_files)},
    }
    if pack_files:
        data["content"] = [str(Path(p).resolve()) for p in pack_files]
    return Matchup(data, "A", "T", None, None, tuple(notes))


#: Characters of one squad at most (ids: red A-M, blue N-Z; a battle holds 30 at most).
MAX_SQUAD = 13
_LETTERS = ("ABCDEFGHIJKLM", "NOPQRSTUVWXYZ")


def squad_matchup(squads: Mapping[str, Sequence[MatchupProfile]], *, range: int | None,
                  rulings: Rulings, pack_files: Sequence[Path], game: str,
                  max_rounds: int = 20) -> tuple[dict[str, Any], None, tuple[str, ...]]:
    """Two squads on the rows battlefield, every character in its side's front row (where
    every attack and ability reaches). Rows have no distance, so a ``range`` is refused;
    neither side has the upper hand (no ``first_strike``): initiative orders the turns."""
    if range is not None:
        raise TacticaError(f"--range: Last Odyssey has no range (who reaches whom is a matter "
                           f"of front and back rows): leave --range out, got {range}")
    squad_size(squads, MAX_SQUAD, "characters")
    units: dict[str, Any] = {}
    rows: dict[str, Any] = {}
    for k, (side, members) in enumerate(squads.items()):
        if not members:
            raise TacticaError(f"squad {side!r}: give at least one character")
        ids = [_LETTERS[k][i] for i in builtins.range(len(members))]
        rows[side] = {"front": ids}
        for uid, profile in zip(ids, members, strict=True):
            units[uid] = _unit(profile, pack_files)
    data: dict[str, Any] = {
        "game": game,
        "name": "squads face to face",
        "rulings": dict(rulings),
        "max_rounds": max_rounds,
        "map": {"kind": "rows", "sides": rows},
        "units": units,
    }
    if pack_files:
        data["content"] = [str(Path(p).resolve()) for p in pack_files]
    notes = ("rows: every character in its side's front row (rows have no range); neither "
             f"side has the upper hand, initiative orders the turns, the second run lists the "
             f"other squad first; {max_rounds} rounds at most",)
    return data, None, notes
