"""Skirmishers matchups: two regular troopers on one row of dots, cover built from low walls.

A profile is a firearm of the content packs, the trooper's primary weapon, optionally with a
body armor after a slash (``rifle``, ``smg/standard``); or a scenario's unit entry. As targets,
``trooper``, ``trooper/basic``... are the distinct troopers a shot meets (the weapon a target
carries changes nothing): a matrix's default targets. The two
troopers stand on one row of the lattice ``range`` dots apart (SKI-10's steps; default: 1), the
attacker on the left. ``cover`` is the number of +1 cover modifiers the target gets, each a low
wall across the line of fire, the first beside the target, the next one dot nearer, and so on:
the sides of the firer's own cell never count (SKI-13), so at a short range fewer walls fit
than asked, and the matchup says how many took effect.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import Matchup, MatchupProfile, squad_size
from tactica.engine.rulings import Rulings
from tactica.rulesets.skirmishers.content import PACKS

__all__ = ["TARGET", "matchup", "matchup_profiles", "matchup_targets", "squad_matchup"]

#: The widest matchup row, in dots (the lattice's bounds allow more; a matrix needs no more).
MAX_RANGE = 90


#: The profile of a target: a regular trooper (``trooper/standard``: in standard armor).
TARGET = "trooper"


def matchup_profiles(pack_files: Sequence[Path]) -> tuple[str, ...]:
    """Every firearm of the packs (a regular trooper carrying it, no armor)."""
    return tuple(PACKS.load(tuple(pack_files)).weapons)


def matchup_targets(pack_files: Sequence[Path]) -> tuple[str, ...]:
    """The distinct targets: a regular trooper without armor and in each body armor of the
    packs (what a shot meets; the weapon a target carries does not change it)."""
    pack = PACKS.load(tuple(pack_files))
    return (TARGET, *(f"{TARGET}/{a}" for a, kind in pack.armor.items() if kind.cells))


def _unit(profile: MatchupProfile, side: str, col: int,
          pack_files: Sequence[Path]) -> dict[str, Any]:
    if isinstance(profile, str):
        pack = PACKS.load(tuple(pack_files))
        weapon, _, armor = profile.partition("/")
        if weapon == TARGET:  # a target: a regular trooper, the weapon does not matter
            weapon = "rifle" if "rifle" in pack.weapons else next(iter(pack.weapons))
        if weapon not in pack.weapons:
            raise TacticaError(f"unknown profile {profile!r}: a firearm, optionally /ARMOR "
                               f"(firearms: {', '.join(pack.weapons)}; armor: "
                               f"{', '.join(pack.armor)})")
        unit: dict[str, Any] = {"primary": weapon}
        if armor:
            if armor not in pack.armor:
                raise TacticaError(f"profile {profile!r}: unknown armor {armor!r} "
                                   f"(armor: {', '.join(pack.armor)})")
            unit["armor"] = armor
    elif isinstance(profile, Mapping):
        unit = {k: v for k, v in profile.items() if k not in ("side", "at", "level", "arc")}
    else:
        raise TacticaError(f"a matchup profile is a name or a unit's mapping, got {profile!r}")
    return {**unit, "side": side, "at": [col, 1]}


def matchup(profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
            cover: int | None, rulings: Rulings, pack_files: Sequence[Path],
            game: str) -> Matchup:
    """The scenario of one trooper facing another (see the module)."""
    steps = 1 if range is None else range
    walls = cover or 0
    if not 1 <= steps <= MAX_RANGE:
        raise TacticaError(f"range: expected 1 to {MAX_RANGE} dots, got {steps}")
    if walls < 0:
        raise TacticaError(f"cover: expected 0 or more cover modifiers, got {walls}")
    notes = [f"one row of dots, {steps} apart, both standing"]
    if walls > steps - 1:
        notes.append(f"cover {walls} asked at range {steps}: a wall beside the firer gives no "
                     f"cover (SKI-13), so only {steps - 1} fit(s)")
        walls = steps - 1
    if walls:
        notes.append(f"{walls} low wall(s) across the line, nearest the target")
    width = steps + 3
    row = " ".join("." for _ in builtins.range(width))
    data: dict[str, Any] = {
        "game": game,
        "name": "matchup on one row",
        "rulings": dict(rulings),
        "map": {"kind": "dots", "name": "matchup row",
                "levels": {"ground": "\n".join((row, " " + row, row)) + "\n"},
                "features": [{"between": [[1 + steps - i - 1, 1], [1 + steps - i, 1]],
                              "kind": "low-wall"} for i in builtins.range(walls)]},
        "units": {"A": _unit(profiles[0], "attackers", 1, pack_files),
                  "T": _unit(profiles[1], "targets", 1 + steps, pack_files)},
        "first": "attackers",
    }
    if pack_files:
        data["content"] = [str(Path(p).resolve()) for p in pack_files]
    return Matchup(data, "A", "T", steps, walls, tuple(notes))



#: Troopers of one squad at most (a trooper's id is one letter: red A-M, blue N-Z).
MAX_SQUAD = 13
#: Free dots behind each squad and beside the outermost troopers (room to move and take cover).
MARGIN = 3


def squad_matchup(squads: Mapping[str, Sequence[MatchupProfile]], *, range: int | None,
                  rulings: Rulings, pack_files: Sequence[Path], game: str,
                  max_rounds: int = 8) -> tuple[dict[str, Any], int, tuple[str, ...]]:
    """Two squads on an open field, face to face ``range`` dots apart, the first side of
    ``squads`` on the left and moving first.

    Each squad stands in a line across the field, one trooper on every other row (so every
    trooper has a dot free between it and the next), each facing its opposite number exactly
    ``range`` dots away (SKI-10's steps); the field leaves :data:`MARGIN` dots behind each
    squad and beside its ends. Returns the scenario, the range and notes for people."""
    steps = 10 if range is None else range
    if not 1 <= steps <= MAX_RANGE:
        raise TacticaError(f"--range: expected 1 to {MAX_RANGE} dots, got {steps}")
    size = squad_size(squads, MAX_SQUAD, "troopers")
    width = steps + 1 + 2 * MARGIN
    height = 2 * size - 1 + 2 * MARGIN
    rows = [(" " if r % 2 else "") + " ".join("." for _ in builtins.range(width))
            for r in builtins.range(height)]
    units: dict[str, Any] = {}
    letters = ("ABCDEFGHIJKLM", "NOPQRSTUVWXYZ")
    for k, (side, members) in enumerate(squads.items()):
        col = MARGIN if k == 0 else MARGIN + steps
        if not members:
            raise TacticaError(f"squad {side!r}: give at least one trooper")
        for i, profile in enumerate(members):
            units[letters[k][i]] = {**_unit(profile, side, col, pack_files),
                                    "at": [col, MARGIN + 2 * i]}
    first = next(iter(squads))
    data: dict[str, Any] = {
        "game": game,
        "name": f"squads {steps} dots apart",
        "rulings": dict(rulings),
        "max_rounds": max_rounds,
        "map": {"kind": "dots", "name": "open field",
                "levels": {"ground": "\n".join(rows) + "\n"}},
        "units": units,
        "sides": list(squads),
        "first": first,
    }
    if pack_files:
        data["content"] = [str(Path(p).resolve()) for p in pack_files]
    notes = (f"an open field: each squad in a line across it, a dot free between troopers, "
             f"each facing its opposite {steps} dots away (SKI-10 steps); {max_rounds} rounds "
             "at most",)
    return data, steps, notes
