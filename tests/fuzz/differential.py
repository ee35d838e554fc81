"""Differential fuzzing of the compiled kernels: random valid scenarios of the five games,
each battle played by the kernel and by the reference, compared field by field.

:func:`random_scenario` draws a scenario of a game from a seed: a map of random size and
content (up to and a little past the kernel's limits), random units of the game's content
pack, every ruling drawn from *all* its declared options, a random round limit. It is checked
by the game's own validation (a draw it refuses is drawn again, and counted), so every
scenario is one ``validate`` accepts. :func:`check` plays its battles with random policies
(greedy or random per side) and compares them with
:func:`tactica.testing.kernels.assert_same_battle`; a scenario the kernel does not cover is
counted with the reason. :func:`shrink` reduces a mismatch to a minimal scenario that still
mismatches: fewer units, a smaller map, rulings back to their defaults, fewer rounds.

``make test`` plays a few hundred battles of it (``test_differential.py``); ``make fuzz`` plays
thousands per game (``long_run.py --differential``), also on an AddressSanitizer build of the
kernels where the compiler has one.
"""

from __future__ import annotations

import copy
import itertools
import random
import string
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from tactica.analysis.sim.kernels import prepared_kernel
from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import NotCovered, get_ruleset
from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.testing.kernels import assert_same_battle

__all__ = ["GAMES", "Outcome", "Tally", "check", "random_scenario", "run", "shrink"]

GAMES = ("nebulia-operations", "skirmishers", "last-odyssey", "unhex", "arc")
#: The step budget of one battle (no drawn scenario comes near it).
MAX_STEPS = 20_000
_LABELS = string.ascii_uppercase + string.ascii_lowercase
_Mapping = dict[str, Any]


# --------------------------------------------------------------------------------------------
# Drawing scenarios


def _rulings(game: str, r: random.Random) -> dict[str, str]:
    """About half the rulings switched, each to any of its declared options."""
    chosen = {}
    for ruling in get_ruleset(game).meta.rulings:
        if r.random() < 0.5:
            chosen[ruling.id] = r.choice(list(ruling.options))
    return chosen


def _grid(r: random.Random, w: int, h: int, walls: float, units: list[str]
          ) -> tuple[str, list[tuple[int, int]]]:
    """A grid's tiles text: ``walls`` of the tiles blocked, the units on distinct open tiles."""
    cells = [["#" if r.random() < walls else "." for _ in range(w)] for _ in range(h)]
    free = [(x, y) for y in range(h) for x in range(w)]
    r.shuffle(free)
    spots = free[:len(units)]
    for (x, y), label in zip(spots, units, strict=True):
        cells[y][x] = label
    return "\n".join("".join(row) for row in cells) + "\n", spots


def _sides(r: random.Random, n_units: int, most: int = 3) -> list[str]:
    """A side for each of ``n_units`` units: at least two sides, each with a unit."""
    sides = ["red", "blue", "green", "gold"][:r.randint(2, min(most, n_units))]
    out = list(sides) + [r.choice(sides) for _ in range(n_units - len(sides))]
    r.shuffle(out)
    return out


def _nebulia(r: random.Random) -> _Mapping:
    big = r.random() < 0.08
    w, h = (r.randint(30, 40), r.randint(26, 32)) if big else (r.randint(2, 16),
                                                                 r.randint(2, 12))
    n = r.randint(2, min(8, w * h))
    labels = list(_LABELS[:n])
    tiles, _ = _grid(r, w, h, r.choice([0.0, 0.1, 0.25]), labels)
    sides = _sides(r, n, 3)
    weapons = ["knife", "shock-maul", "pistol", "rifle", "carbine", "smg", "marksman"]
    units: dict[str, Any] = {}
    for label, side in zip(labels, sides, strict=True):
        if r.random() < 0.6:
            units[label] = {"side": side, "profile": r.choice(
                ["trooper", "scout", "breacher", "sniper", "medic"])}
        else:
            units[label] = {"side": side, "defense": r.randint(1, 3),
                            "armor": r.randint(0, 9), "move": r.randint(1, 4),
                            "weapons": r.sample(weapons, r.randint(1, 2))}
    return {"game": "nebulia-operations", "name": "drawn", "max_rounds": r.randint(1, 12),
            "rulings": _rulings("nebulia-operations", r),
            "map": {"kind": "grid", "tiles": tiles}, "units": units}


def _dots(r: random.Random, cols: int, rows: int, labels: list[str]
          ) -> tuple[str, list[tuple[int, int]]]:
    """A dots level's text (odd rows shifted), the units on distinct dots."""
    spots = r.sample([(c, q) for q in range(rows) for c in range(cols)], len(labels))
    at = dict(zip(spots, labels, strict=True))
    lines = []
    for q in range(rows):
        row = " ".join(at.get((c, q), ".") for c in range(cols))
        lines.append((" " if q % 2 else "") + row)
    return "\n".join(lines) + "\n", spots


def _neighbour(r: random.Random, c: int, q: int, cols: int, rows: int) -> tuple[int, int]:
    """A neighbouring dot of (column, row) on the lattice of shifted odd rows, on the map
    when it can be."""
    shift = 0 if q % 2 == 0 else 1
    near = [(c - 1, q), (c + 1, q), (c - 1 + shift, q - 1), (c + shift, q - 1),
            (c - 1 + shift, q + 1), (c + shift, q + 1)]
    inside = [(x, y) for x, y in near if 0 <= x < cols and 0 <= y < rows]
    return r.choice(inside or near)


def _skirmishers(r: random.Random) -> _Mapping:
    cols, rows = r.randint(3, 16), r.randint(2, 10)
    n = r.randint(2, min(6, cols * rows))
    labels = list(_LABELS[:n])
    ground, _ = _dots(r, cols, rows, labels)
    sides = _sides(r, n, 3)
    kinds = ["low-wall", "high-wall", "fence", "vegetation", "wall"]
    features = []
    for _ in range(r.choice([0, 0, 2, 6, 12])):
        c, q = r.randrange(cols), r.randrange(rows)
        features.append({"between": [[c, q], list(_neighbour(r, c, q, cols, rows))],
                         "kind": r.choice(kinds)})
    dots_map: dict[str, Any] = {"kind": "dots", "levels": {"ground": ground},
                                "features": features}
    if r.random() < 0.25 and cols >= 4 and rows >= 3:
        c0, q0 = r.randrange(cols - 2), r.randrange(rows - 2)
        c1, q1 = r.randint(c0 + 1, cols - 1), r.randint(q0 + 1, rows - 1)
        floors = r.randint(1, 3)
        building: dict[str, Any] = {"name": "House", "from": [c0, q0], "to": [c1, q1],
                                    "floors": floors}
        if floors > 1:
            building["stairs"] = [[r.randint(c0, c1), r.randint(q0, q1)]
                                  for _ in range(r.randint(1, 3))]
            for k in range(1, floors):
                dots_map["levels"][f"floor{k}"] = None
        dots_map["buildings"] = [building]
    firearms = ["smg", "rifle", "laser-smg", "laser-rifle", "gyrojet-rifle", "pistol",
                "auto-pistol", "laser-pistol"]
    melee = ["knife", "blackjack", "club", "stun-baton", "sword", "vibroblade"]
    units: dict[str, Any] = {}
    for label, side in zip(labels, sides, strict=True):
        unit: dict[str, Any] = {"side": side, "primary": r.choice(firearms)}
        if r.random() < 0.3:
            unit["secondary"] = r.choice(firearms)
        if r.random() < 0.3:
            unit["melee"] = r.sample(melee, r.randint(1, 2))
        if r.random() < 0.2:
            unit["grenades"] = r.randint(0, 3)
        unit["armor"] = r.choice(["none", "none", "basic", "standard", "heavy"])
        unit["experience"] = r.choice(["green", "regular", "veteran", "elite"])
        if r.random() < 0.15:
            unit["prone"] = True
        units[label] = unit
    optional = [o for o in ("experience", "advanced-armor", "morale", "movement-fire")
                if r.random() < (0.4 if o == "experience" else 0.05)]
    return {"game": "skirmishers", "name": "drawn", "max_rounds": r.randint(1, 6),
            "rulings": _rulings("skirmishers", r), "optional": optional,
            "map": dots_map, "units": units}


def _last_odyssey(r: random.Random) -> _Mapping:
    enemies = ["cop", "hover-drone", "spider-drone", "lieutenant", "captain",
               "goblin-skirmisher", "arsonist", "prankster", "boar-rider", "shaman"]
    sides: dict[str, Any] = {}
    units: dict[str, Any] = {}
    k = 0
    for side in ("police", "goblins", "drones")[:r.choice([2, 2, 3])]:
        rows: dict[str, list[str]] = {"front": [], "back": []}
        for _ in range(r.randint(1, 4)):
            name = f"U{k}"
            k += 1
            units[name] = ({"character": r.choice(["rook", "vesper", "lark", "moss"])}
                           if r.random() < 0.3 else {"enemy": r.choice(enemies)})
            rows["front" if r.random() < 0.6 else "back"].append(name)
        if not rows["front"]:
            rows["front"], rows["back"] = rows["back"], []
        sides[side] = {key: v for key, v in rows.items() if v}
    data: _Mapping = {"game": "last-odyssey", "name": "drawn", "max_rounds": r.randint(1, 20),
                      "rulings": _rulings("last-odyssey", r),
                      "map": {"kind": "rows", "sides": sides}, "units": units}
    if r.random() < 0.3:
        data["first_strike"] = r.choice(list(sides))
    return data


_UNHEX_AREAS = ["Catwalk", "DJ Booth", "Dance Floor", "Bar", "Pool Tables", "Entrance",
                "Kitchen", "Alley"]
_UNHEX_LINKS = [("Catwalk", "DJ Booth"), ("DJ Booth", "Dance Floor"), ("Dance Floor", "Bar"),
                ("Dance Floor", "Pool Tables"), ("Dance Floor", "Entrance"),
                ("Pool Tables", "Entrance"), ("Bar", "Kitchen"), ("Kitchen", "Alley"),
                ("Catwalk", "Dance Floor"), ("Catwalk", "Bar")]


def _unhex(r: random.Random) -> _Mapping:
    areas = _UNHEX_AREAS[:r.randint(2, len(_UNHEX_AREAS))]
    connections = []
    for a, b in _UNHEX_LINKS:
        if a in areas and b in areas and r.random() < 0.85:
            link: dict[str, Any] = {"between": [a, b]}
            roll = r.random()
            if roll < 0.3:
                link["cover"] = [r.choice([a, b])]
            elif roll < 0.4:
                link["type"] = "dashed"
            connections.append(link)
    for a, b in itertools.pairwise(areas):  # every area reachable
        if not any(set(c["between"]) == {a, b} for c in connections):
            connections.append({"between": [a, b]})
    n = r.randint(2, 8)
    sides = _sides(r, n, 3)
    profiles = ["brawler", "gunman", "shooter", "medic", "bouncer"]
    units: dict[str, Any] = {}
    for i, side in enumerate(sides):
        unit: dict[str, Any] = {"side": side, "at": r.choice(areas),
                                "profile": r.choice(profiles)}
        if r.random() < 0.4:
            top = r.randint(20, 60)
            unit["max_level"] = top
            unit["level"] = r.randint(max(1, top - 20), top)
        if r.random() < 0.2:
            unit["good"] = [r.choice(["initiative", "attack"])]
        units[f"U{i}"] = unit
    data: _Mapping = {"game": "unhex", "name": "drawn", "max_rounds": r.randint(1, 30),
                      "rulings": _rulings("unhex", r),
                      "map": {"kind": "zones", "areas": areas, "connections": connections},
                      "units": units}
    if r.random() < 0.7:
        data["pcs"] = [sides[0]]
    if r.random() < 0.5:
        data["exits"] = r.sample(areas, r.randint(1, min(2, len(areas))))
    return data


def _arc(r: random.Random) -> _Mapping:
    characters = ["francis", "jane", "bobby", "sam", "rex", "ivy", "dee"]
    n = r.randint(2, 6)
    sides = _sides(r, n, 3)
    labels = list(_LABELS[:n])
    units: dict[str, Any] = {}
    for label, side in zip(labels, sides, strict=True):
        if r.random() < 0.75:
            units[label] = {"side": side, "character": r.choice(characters)}
            continue
        dice = f"{r.randint(1, 4)}d{r.choice([4, 6, 8, 10])}"
        unit: dict[str, Any] = {
            "side": side, "skills": {"guns": r.randint(8, 18), "evade": r.randint(6, 16)},
            "health": r.randint(4, 24),
            "weapons": [{"name": "gun", "damage": dice, "type": "ballistic",
                         "spread": r.randint(1, 5), "rof": r.randint(1, 4),
                         "accuracy": [r.randint(-2, 1), r.randint(0, 2)]}]}
        if r.random() < 0.5:
            unit["armor"] = [{"die": f"d{r.choice([4, 6, 8])}", "against": ["ballistic"]}]
        units[label] = unit
    data: _Mapping = {"game": "arc", "name": "drawn", "max_rounds": r.randint(1, 12),
                      "rulings": _rulings("arc", r), "units": units}
    if r.random() < 0.5:
        big = r.random() < 0.08
        w, h = (r.randint(33, 40), r.randint(30, 32)) if big else (r.randint(3, 16),
                                                                     r.randint(3, 10))
        tiles, _ = _grid(r, w, h, r.choice([0.0, 0.1, 0.2]), labels)
        data["map"] = {"kind": "grid", "tiles": tiles}
        if r.random() < 0.5:
            data["rough"] = [f"{r.randrange(w)},{r.randrange(h)}" for _ in range(r.randint(1, 6))]
    else:
        data["ranges"] = [{"between": [a, b], "metres": r.choice([1, 2, 5, 10, 20, 50, 120])}
                          for i, a in enumerate(labels) for b in labels[i + 1:]
                          if r.random() < 0.7]
    return data


DRAWS: dict[str, Callable[[random.Random], _Mapping]] = {
    "nebulia-operations": _nebulia, "skirmishers": _skirmishers,
    "last-odyssey": _last_odyssey, "unhex": _unhex, "arc": _arc}


def load(data: _Mapping) -> Scenario:
    """The scenario of ``data`` (raises :class:`TacticaError` when validation refuses it)."""
    return scenario_from_mapping(copy.deepcopy(data), source="<drawn>")


def _sides_of(data: _Mapping) -> list[str]:
    """The sides of a drawn scenario, in a fixed order."""
    if (data.get("map") or {}).get("kind") == "rows":
        return [s for s, rows in data["map"]["sides"].items() if any(rows.values())]
    return sorted({str(u["side"]) for u in data["units"].values()})


def random_scenario(game: str, seed: int, *, tries: int = 50
                    ) -> tuple[_Mapping, dict[str, str], int]:
    """A valid scenario of ``game`` drawn from ``seed``: its mapping, the policy of each side
    and how many draws validation refused before it."""
    r = random.Random(f"{game}|{seed}")
    for refused in range(tries):
        data = DRAWS[game](r)
        try:
            sc = load(data)
        except TacticaError:
            continue
        del sc
        policies = {side: r.choice(["greedy", "random"]) for side in _sides_of(data)}
        return data, policies, refused
    raise RuntimeError(f"{game}: no valid scenario in {tries} draws from seed {seed}")


# --------------------------------------------------------------------------------------------
# Comparing, and shrinking what differs


@dataclass(frozen=True)
class Outcome:
    """What one scenario gave: ``"same"`` (every battle equal), ``"uncovered"`` (the kernel
    refused it, ``detail`` says why), ``"refused"`` (validation refused it) or ``"mismatch"``
    (``detail`` is the first difference)."""

    kind: str
    detail: str = ""
    battles: int = 0


def check(data: _Mapping, policies: dict[str, str], *, seed: int = 1, battles: int = 2
          ) -> Outcome:
    """Play ``battles`` battles of the scenario ``data`` with the kernel and the reference and
    compare them."""
    try:
        sc = load(data)
    except TacticaError as exc:
        return Outcome("refused", str(exc)[:200])
    policies = {side: policies.get(side, "greedy") for side in _sides_of(data)}
    prepared = prepared_kernel(sc)
    if isinstance(prepared, NotCovered):
        return Outcome("uncovered", prepared.reason)
    for index in range(battles):
        try:
            assert_same_battle(sc, prepared, policies, seed, index, MAX_STEPS)
        except AssertionError as exc:
            return Outcome("mismatch", str(exc)[:500], index)
        except Exception as exc:  # a kernel that raises is as wrong as one that differs
            return Outcome("mismatch", f"{type(exc).__name__}: {str(exc)[:300]}", index)
    return Outcome("same", battles=battles)


def _without_unit(data: _Mapping, uid: str) -> _Mapping:
    out = copy.deepcopy(data)
    del out["units"][uid]
    m = out.get("map") or {}
    if m.get("kind") == "grid":
        m["tiles"] = m["tiles"].replace(uid, ".")
    elif m.get("kind") == "dots":
        m["levels"] = {k: (v.replace(uid, ".") if isinstance(v, str) else v)
                       for k, v in m["levels"].items()}
    elif m.get("kind") == "rows":
        for rows in m["sides"].values():
            for key in list(rows):
                rows[key] = [u for u in rows[key] if u != uid]
    if "ranges" in out:
        out["ranges"] = [x for x in out["ranges"] if uid not in x["between"]]
    return out


def _smaller_maps(data: _Mapping) -> Iterator[_Mapping]:
    m = data.get("map") or {}
    if m.get("kind") == "grid":
        rows = m["tiles"].rstrip("\n").split("\n")
        empty = {".", "#"}
        cuts = []
        if len(rows) > 1 and set(rows[-1]) <= empty:
            cuts.append(rows[:-1])
        if len(rows[0]) > 1 and all(row[-1] in empty for row in rows):
            cuts.append([row[:-1] for row in rows])
        for cut in cuts:
            out = copy.deepcopy(data)
            out["map"]["tiles"] = "\n".join(cut) + "\n"
            yield out
        if "#" in m["tiles"]:
            out = copy.deepcopy(data)
            out["map"]["tiles"] = m["tiles"].replace("#", ".")
            yield out
    elif m.get("kind") == "dots":
        for key in ("features", "buildings", "walls"):
            if m.get(key):
                out = copy.deepcopy(data)
                del out["map"][key]
                yield out
        ground = m["levels"]["ground"].rstrip("\n").split("\n")
        if len(ground) > 1 and set(ground[-1].split()) <= {"."}:
            out = copy.deepcopy(data)
            out["map"]["levels"]["ground"] = "\n".join(ground[:-1]) + "\n"
            yield out


def _candidates(data: _Mapping) -> Iterator[_Mapping]:
    """Smaller scenarios than ``data``, the likeliest to help first."""
    for uid in list(data["units"]):
        yield _without_unit(data, uid)
    if data.get("rulings"):
        out = copy.deepcopy(data)
        out["rulings"] = {}
        yield out
        for rid in list(data["rulings"]):
            out = copy.deepcopy(data)
            del out["rulings"][rid]
            yield out
    yield from _smaller_maps(data)
    for key in ("optional", "rough", "exits"):
        if data.get(key):
            out = copy.deepcopy(data)
            del out[key]
            yield out
    rounds = int(data.get("max_rounds") or 0)
    if rounds > 1:
        out = copy.deepcopy(data)
        out["max_rounds"] = rounds // 2
        yield out


def shrink(data: _Mapping, policies: dict[str, str], *, seed: int = 1, battles: int = 2,
           budget: int = 400) -> tuple[_Mapping, Outcome]:
    """The smallest scenario found below ``data`` that still mismatches (drop units, shrink
    the map, reset rulings to their defaults, fewer rounds, while it still mismatches), and
    its outcome; at most ``budget`` candidates are played."""
    best, outcome = data, check(data, policies, seed=seed, battles=battles)
    tried = 0
    improved = True
    while improved and tried < budget:
        improved = False
        for candidate in _candidates(best):
            tried += 1
            got = check(candidate, policies, seed=seed, battles=battles)
            if got.kind == "mismatch":
                best, outcome, improved = candidate, got, True
                break
            if tried >= budget:
                break
    return best, outcome


# --------------------------------------------------------------------------------------------
# Many scenarios


@dataclass
class Tally:
    """What a run saw of one game."""

    scenarios: int = 0
    refused_draws: int = 0
    covered: int = 0
    battles: int = 0
    uncovered: Counter[str] = field(default_factory=Counter)
    mismatches: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {"scenarios": self.scenarios, "covered": self.covered,
                "uncovered": self.scenarios - self.covered, "battles_compared": self.battles,
                "mismatches": len(self.mismatches), "refused_draws": self.refused_draws,
                "uncovered_reasons": dict(self.uncovered.most_common(12)),
                "mismatch_details": self.mismatches[:20]}


def _reason_kind(reason: str) -> str:
    """A not-covered reason without its numbers and names, to count reasons by kind."""
    return "".join("#" if ch.isdigit() else ch for ch in reason)[:80]


def run(game: str, seeds: range, *, battles: int = 2, shrink_budget: int = 400,
        on_mismatch: Callable[[dict[str, Any]], None] | None = None) -> Tally:
    """Draw and compare one scenario per seed of ``seeds``; a mismatch is shrunk."""
    tally = Tally()
    for seed in seeds:
        data, policies, refused = random_scenario(game, seed)
        tally.scenarios += 1
        tally.refused_draws += refused
        got = check(data, policies, seed=seed, battles=battles)
        if got.kind == "uncovered":
            tally.uncovered[_reason_kind(got.detail)] += 1
            continue
        tally.covered += 1
        tally.battles += got.battles if got.kind == "same" else got.battles + 1
        if got.kind == "mismatch":
            small, outcome = shrink(data, policies, seed=seed, battles=battles,
                                    budget=shrink_budget)
            entry = {"game": game, "seed": seed, "policies": policies,
                     "detail": outcome.detail, "scenario": yaml.safe_dump(small)}
            tally.mismatches.append(entry)
            if on_mismatch is not None:
                on_mismatch(entry)
    return tally
