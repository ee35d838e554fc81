"""What the fuzzing suite throws inputs at, and how it makes inputs.

Five targets, each a function of one input that must end, quickly, either normally or with a
:class:`~tactica.engine.errors.TacticaError` (the clear ``error: ...`` of the command line); any
other
exception is a crash:

* :func:`run_scenario_text`: a scenario file of any of the five games (YAML text): loaded with
  every bound, validated, its state built, the odds of a few actions, a few random steps;
* :func:`run_map_text`: a map file of any kind (grid, zones, rows, dots): loaded, previewed,
  drawn as SVG, the sight between two of its occupants;
* :func:`run_dice`: the dice language;
* :func:`run_log`: a fight log of any game (bytes), resumed by ``play --resume``;
* :func:`run_play`: the lines a game master types at ``play``, in a fight of any game.

Inputs come from seeds (every game's example scenarios and map files, a real log of each game)
changed by :class:`Mutator`, a seeded random mutator of data and text that also writes huge
extents (coordinates, counts, floors of a billion) and hostile names (markup, terminal escapes,
control characters, very long); the Hypothesis tests draw its seeds, the long run (``make
fuzz``, :mod:`long_run`) draws many and reports per game.
"""

from __future__ import annotations

import atexit
import copy
import json
import random
import shutil
import string
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from tactica.dice import evaluate
from tactica.engine.battle import Battle, SampledDice
from tactica.engine.errors import TacticaError
from tactica.engine.maps import map_from_mapping, to_svg
from tactica.engine.policies import RandomPolicy
from tactica.engine.ruleset import Capability, Finished, example_scenarios, odds_hooks
from tactica.engine.ruleset import rulesets as all_rulesets
from tactica.engine.scenario import load_scenario, scenario_from_mapping
from tactica.engine.validation import parse_yaml
from tactica.play import PlaySession

__all__ = [
    "TARGETS",
    "Mutator",
    "Seeds",
    "make_input",
    "make_labelled",
    "mutated_yaml",
    "run_dice",
    "run_log",
    "run_map_text",
    "run_play",
    "run_scenario_text",
    "seeds",
]

GAMES = ("nebulia-operations", "unhex", "last-odyssey", "skirmishers", "arc")
#: The scenario of each game whose fight makes the seed log and that ``play`` inputs play.
PLAYED = {"nebulia-operations": "duel.yaml", "unhex": "nightclub-fight.yaml",
          "last-odyssey": "cop-vs-goblin.yaml", "skirmishers": "shot.yaml",
          "arc": "pistol-duel.yaml"}


# --------------------------------------------------------------------------------------------
# Seeds


@dataclass(frozen=True)
class Seeds:
    """The material inputs are made from."""

    scenarios: tuple[tuple[str, str], ...]  # (game/file, YAML text) of every example scenario
    maps: tuple[tuple[str, str], ...]  # (game/file, YAML text) of every map, files and inline
    logs: tuple[tuple[str, tuple[str, ...]], ...]  # (game, a whole fight's log) of each game
    folder: Path  # a folder per game holding its examples (a log's scenario is found there)

    @property
    def log_lines(self) -> tuple[str, ...]:
        """The Nebulia Operations log (a duel, both sides played by the computer)."""
        return dict(self.logs)["nebulia-operations"]


@cache
def seeds() -> Seeds:
    """The example scenarios and maps of the five games and a real log of each (built once a
    process)."""
    folder = Path(tempfile.mkdtemp(prefix="tactica-fuzz-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    scenarios: list[tuple[str, str]] = []
    maps: list[tuple[str, str]] = []
    logs: list[tuple[str, tuple[str, ...]]] = []
    for rs in all_rulesets():
        game = rs.meta.name
        if game not in GAMES:
            continue
        here = folder / game
        here.mkdir()
        examples = example_scenarios(rs)
        for path in sorted(examples[0].parent.glob("*.yaml")):
            text = path.read_text(encoding="utf-8")
            shutil.copy(path, here / path.name)
            data = yaml.safe_load(text)
            if path in examples:
                scenarios.append((f"{game}/{path.name}", text))
                if isinstance(data.get("map"), dict):
                    maps.append((f"{game}/{path.name}#map",
                                 yaml.safe_dump(data["map"], sort_keys=False)))
            elif isinstance(data, dict) and "kind" in data:
                maps.append((f"{game}/{path.name}", text))
        log = here / "seed.jsonl"
        sc = load_scenario(here / PLAYED[game])
        sides = sc.ruleset.sides_of(sc.new_state())
        PlaySession.start(sc, log, _Lines([]), seed=3,
                          computer={side: "greedy" for side in sides}, ask_dice=False,
                          durable=False).run()
        logs.append((game, tuple(log.read_text().splitlines())))
    return Seeds(tuple(scenarios), tuple(maps), tuple(logs), folder)


class _Lines:
    """A terminal that answers from given lines, then ends (EOF)."""

    def __init__(self, lines: Sequence[str]):
        self.lines = list(lines)
        self.said = 0

    def ask(self, prompt: str) -> str:
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def say(self, text: str) -> None:
        self.said += len(text)


# --------------------------------------------------------------------------------------------
# Targets


def run_scenario_text(text: str, *, steps: int = 40, seed: int = 0) -> str:
    """Load a scenario from YAML text (in the seeds' folder), take the odds of a few actions
    and play a few random steps."""
    folder = seeds().folder
    data = parse_yaml(text, source="fuzz.yaml")
    sc = scenario_from_mapping(data, source=str(folder / "fuzz.yaml"), base_dir=folder)
    rs = sc.ruleset
    state = sc.new_state()
    if rs.meta.has(Capability.ODDS):
        hooks = odds_hooks(rs)
        for unit in list(rs.units(state))[:3]:
            for choice in hooks.choices(state, unit.id)[:2]:
                hooks.odds(state, choice.action)
    rng = np.random.default_rng(seed)
    battle = Battle(rs, state)
    policies = {side: RandomPolicy(rs) for side in rs.sides_of(state)}
    dice = SampledDice(rng, faces=True)
    for _ in range(steps):
        if isinstance(battle.pending, Finished):
            return "finished"
        battle.step(policies, dice=dice, rng=rng)
    return "played"


def run_map_text(text: str) -> str:
    """Load a map file from YAML text, preview it, draw it, and the sight between two of its
    occupants (drawn too)."""
    data = parse_yaml(text, source="fuzz-map.yaml")
    field = map_from_mapping(data, source="fuzz-map.yaml")
    field.preview()
    to_svg(field)
    who = list(field.occupants)[:2]
    if len(who) == 2:
        report = field.sight_report(who[0], who[1])
        to_svg(field, sight=report)
        return "sight"
    return "drawn"


def run_dice(text: str) -> str:
    """The exact distribution of a dice expression."""
    dist = evaluate(text)
    return f"{len(dist.outcomes)} outcomes"


def run_log(data: bytes, *, scenario_given: bool = False,
            game: str = "nebulia-operations") -> str:
    """Resume the fight of a log file holding ``data`` (the scenario is the one the log names,
    beside it in the game's folder, unless ``scenario_given``)."""
    folder = seeds().folder / game
    fd, name = tempfile.mkstemp(suffix=".jsonl", dir=folder)
    log = Path(name)
    try:
        with open(fd, "wb") as f:
            f.write(data)
        scenario = load_scenario(folder / PLAYED[game]) if scenario_given else None
        PlaySession.resume(log, _Lines(["quit"]), scenario=scenario, durable=False,
                           ask_dice=False, computer={}).run()
    finally:
        log.unlink()
    return "resumed"


def run_play(scenario: str, lines: Sequence[str]) -> str:
    """A game master typing ``lines`` at ``play`` on an example scenario (``game/file``)."""
    folder = seeds().folder
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        sc = load_scenario(folder / scenario)
        session = PlaySession.start(sc, Path(tmp) / "fight.jsonl", _Lines(lines), seed=5,
                                    durable=False)
        result = session.run()
    return "finished" if result.finished else "stopped"


# --------------------------------------------------------------------------------------------
# Making inputs


_WEIRD: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2, 7, 99, 100, 101, 10**6, 10**9, 10**19, -10**19, 0.5, -0.0,
    1e15, "", " ", "x", "A", "0", "1", "-1", "3/2", "abc", "../../etc/passwd", "/dev/zero",
    "/dev/urandom", "/etc/shadow", "..", "é", "\u202e", "\x00", "a" * 300, [], {}, [1],
    {"a": 1}, [[[]]], ["A", "B"], {"kind": "grid"}, {"side": "red"}, {"enemy": "cop"},
    {"profile": "trooper"},
)

#: Names no file should be able to smuggle into an output: markup, terminal escapes, control
#: characters, bidirectional overrides, very long ones.
HOSTILE_NAMES = (
    '"><img src=x onerror=alert(1)>', "<script>alert(1)</script>", "\x1b[2J\x1b[31mred",
    "\x1b]0;title\x07", "a\rb\nc", "\x00\x01\x7f", "\u202eevil", "&amp;&lt;", "${x}{0}%s",
    "x" * 5000, "é" * 300, " ", "-", "A,B", "a|b", "[1, 2]",
)
#: Extents that would take a machine's memory if anything expanded them.
HUGE = (10**9, 10**12, 10**18, -(10**9), 2**63 - 1, 99_999)


def _deep(n: int) -> Any:
    value: Any = []
    for _ in range(n):
        value = [value]
    return value


class Mutator:
    """Seeded mutations of YAML data and text, of log lines and of typed lines."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.game = "any"  # the game of the input made (for reports)

    # -- values ----------------------------------------------------------------------------

    def value(self, near: Any = None) -> Any:
        r = self.rng
        roll = r.random()
        if roll < 0.1:
            return r.choice(HOSTILE_NAMES)
        if roll < 0.2:
            return self.huge(near)
        if roll < 0.55:
            return copy.deepcopy(r.choice(_WEIRD))
        if roll < 0.7 and isinstance(near, int) and not isinstance(near, bool):
            return near + r.choice((-1000, -10, -2, -1, 1, 2, 10, 1000, 10**12))
        if roll < 0.8:
            return "".join(r.choice(string.printable) for _ in range(r.randint(0, 12)))
        if roll < 0.9:
            return _deep(r.choice((3, 30, 49, 51, 60)))
        return [self.value() for _ in range(r.randint(0, 4))]

    def huge(self, near: Any = None) -> Any:
        """A huge extent: a coordinate pair with one huge end, or a huge number."""
        big = self.rng.choice(HUGE)
        if isinstance(near, list) and len(near) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in near):
            out = list(near)
            out[self.rng.randrange(2)] = big
            return out
        if isinstance(near, list) and len(near) == 2 and all(isinstance(v, list) for v in near):
            return [near[0], self.huge(near[1])]
        return big

    def _paths(self, data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        out = [prefix]
        if len(prefix) > 8:
            return out
        if isinstance(data, dict):
            for k, v in data.items():
                out += self._paths(v, (*prefix, k))
        elif isinstance(data, list):
            for i, v in enumerate(data):
                out += self._paths(v, (*prefix, i))
        return out

    def data(self, data: Any, times: int = 1) -> Any:
        """``data`` with ``times`` random changes: a value replaced, a key dropped or added,
        a list item doubled or dropped, a string edited."""
        data = copy.deepcopy(data)
        for _ in range(times):
            paths = self._paths(data)
            path = self.rng.choice(paths)
            if not path:
                continue
            parent = data
            for part in path[:-1]:
                parent = parent[part]
            key = path[-1]
            op = self.rng.random()
            current = parent[key]
            if op < 0.1:
                parent[key] = self.huge(current)
            elif op < 0.17 and isinstance(parent, dict):  # a name (unit, area, level) renamed
                del parent[key]
                parent[self.rng.choice(HOSTILE_NAMES)] = current
            elif op < 0.45:
                parent[key] = self.value(current)
            elif op < 0.6 and isinstance(parent, dict):
                del parent[key]
            elif op < 0.7 and isinstance(parent, dict):
                parent[self.rng.choice(("extra", "units", "map", "content", "u0", "Z", 1,
                                        key + "x" if isinstance(key, str) else 5))] = \
                    self.value()
            elif op < 0.8 and isinstance(parent, list):
                parent.insert(key, copy.deepcopy(current))
            elif op < 0.85 and isinstance(parent, list):
                del parent[key]
            elif isinstance(current, str):
                parent[key] = self.text(current, 1)
            else:
                parent[key] = self.value(current)
        return data

    # -- text ------------------------------------------------------------------------------

    _BITS = ("[", "]", "{", "}", ":", ": ", "- ", "&a ", "*a", "\n", "\t", "#", "'", '"',
             "!!str ", "!!binary ", "<<: ", "? ", "|", ">", "%", "@", "`", ",", "\x00", "\ufeff")

    def text(self, text: str, times: int = 1) -> str:
        """``text`` with ``times`` random edits (insert, delete, replace, cut, repeat)."""
        r = self.rng
        for _ in range(times):
            n = len(text)
            i = r.randint(0, n)
            op = r.random()
            if op < 0.35:
                bit = r.choice(self._BITS) if r.random() < 0.6 else r.choice(string.printable)
                text = text[:i] + bit + text[i:]
            elif op < 0.6 and n:
                j = min(n, i + r.randint(1, 8))
                text = text[:i] + text[j:]
            elif op < 0.75 and n:
                text = text[:i] + r.choice(string.printable) + text[i + 1:]
            elif op < 0.85:
                text = text[:i]
            else:
                j = min(n, i + r.randint(1, 40))
                text = text[:j] + text[i:j] * r.randint(1, 3) + text[j:]
        return text

    # -- logs ------------------------------------------------------------------------------

    def log(self, lines: Sequence[str]) -> bytes:
        """A log with a few lines changed (a JSON value, a line dropped, doubled, swapped,
        cut), or its bytes edited."""
        out = list(lines)
        r = self.rng
        for _ in range(r.randint(1, 3)):
            op = r.random()
            k = r.randrange(len(out)) if out else 0
            if not out:
                break
            if op < 0.4:
                try:
                    record = json.loads(out[k])
                    out[k] = json.dumps(self.data(record), separators=(",", ":"))
                except (ValueError, TypeError, RecursionError):
                    out[k] = self.text(out[k])
            elif op < 0.55:
                del out[k]
            elif op < 0.65:
                out.insert(k, out[k])
            elif op < 0.75 and len(out) > 1:
                j = r.randrange(len(out))
                out[k], out[j] = out[j], out[k]
            elif op < 0.85:
                out = out[: k + 1]
            else:
                out[k] = self.text(out[k], r.randint(1, 3))
        data = ("\n".join(out) + "\n").encode("utf-8", "surrogatepass")
        if r.random() < 0.2:
            data = data[: r.randint(0, len(data))]
        return data

    # -- play ------------------------------------------------------------------------------

    _WORDS = ("1", "2", "3", "4", "9", "0", "-1", "99", "list", "list rifle", "odds 1",
              "odds 99", "odds x", "suggest", "status", "history", "history 3", "history 999",
              "map", "sight A B", "sight A", "sight Bar Kitchen", "sight Cop Goblin",
              "dice auto", "dice ask", "dice", "help", "?", "", "   ", "4 7", "=3", "=x",
              "5", "0 0", "9 9", "1,2", "attack", "move", "end", "Cop", "Goblin", "A", "B",
              "\x00", "é", "q", "sight Francis Jane", "sight A C", "Francis", "Jane", "C",
              "3,4", "3,4@first", "99999,99999", "-1,-1", "1e9", "\x1b[2J", "<b>x</b>")

    def lines(self) -> list[str]:
        r = self.rng
        out = []
        for _ in range(r.randint(1, 30)):
            if r.random() < 0.85:
                out.append(r.choice(self._WORDS))
            else:
                out.append("".join(r.choice(string.printable[:-5])
                                   for _ in range(r.randint(0, 20))))
        if r.random() < 0.5:
            out.append("quit")
        return out


# --------------------------------------------------------------------------------------------
# One input of a kind, made from a seed number


def mutated_yaml(m: Mutator, name: str, text: str) -> str:
    """``text`` (the seed ``name``, game/file) changed: its YAML data or its text."""
    m.game = name.split("/")[0]
    times = 1 if m.rng.random() < 0.6 else m.rng.randint(2, 4)
    if m.rng.random() < 0.3:
        return m.text(text, times)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:  # pragma: no cover - the examples are valid
        return text
    changed = m.data(data, times)
    try:
        return yaml.safe_dump(changed, sort_keys=False, allow_unicode=True)
    except (yaml.YAMLError, RecursionError):
        return text


def _scenario_input(m: Mutator) -> str:
    return mutated_yaml(m, *m.rng.choice(seeds().scenarios))


def _map_input(m: Mutator) -> str:
    return mutated_yaml(m, *m.rng.choice(seeds().maps))


def _dice_term(r: random.Random, depth: int = 0) -> str:
    roll = r.random()
    if roll < 0.3:
        return str(r.randint(-3, 40))
    if roll < 0.55:
        return f"{r.randint(0, 12)}d{r.choice((2, 4, 6, 8, 10, 12, 20, 100, '%', 0, 1))}"
    if roll < 0.65:
        return f"{r.randint(1, 8)}d{r.choice((6, 10))}{r.choice(('kh', 'kl'))}{r.randint(0, 9)}"
    if roll < 0.72:
        return f"{r.randint(1, 6)}d6{r.choice(('>=', '<=', '>', '<'))}{r.randint(0, 30)}"
    if roll < 0.8 or depth > 3:
        return f"d{r.randint(0, 30)}"
    return f"({_dice_expr(r, depth + 1)})"


def _dice_expr(r: random.Random, depth: int = 0) -> str:
    text = _dice_term(r, depth)
    for _ in range(r.randint(0, 3)):
        text += r.choice(("+", "-", " + ", "*", "x")) + _dice_term(r, depth)
    return text


def _dice_input(m: Mutator) -> str:
    text = _dice_expr(m.rng)
    return m.text(text, m.rng.randint(1, 2)) if m.rng.random() < 0.3 else text


def _log_input(m: Mutator) -> tuple[str, bytes]:
    game, lines = m.rng.choice(seeds().logs)
    m.game = game
    return game, m.log(lines)


def _play_input(m: Mutator) -> tuple[str, list[str]]:
    m.game = m.rng.choice(GAMES)
    return f"{m.game}/{PLAYED[m.game]}", m.lines()


def make_labelled(kind: str, seed: int) -> tuple[str, Any]:
    """Input number ``seed`` of ``kind`` (``scenario``, ``map``, ``dice``, ``log``, ``play``)
    and the game it belongs to (``dice`` for a dice expression)."""
    m = Mutator(random.Random(f"{kind}:{seed}"))
    value = _MAKERS[kind](m)
    return ("dice" if kind == "dice" else m.game), value


def make_input(kind: str, seed: int) -> Any:
    """Input number ``seed`` of ``kind`` (``scenario``, ``map``, ``dice``, ``log``, ``play``)."""
    return make_labelled(kind, seed)[1]


def _run_log_input(value: Any) -> str:
    if isinstance(value, tuple):
        return run_log(value[1], game=value[0])
    return run_log(value)


def run_input(kind: str, value: Any) -> str:
    """Run one input of ``kind``; a TacticaError is a clean refusal (returned as ``error``)."""
    try:
        return TARGETS[kind](value)
    except TacticaError:
        return "error"


_MAKERS: dict[str, Callable[[Mutator], Any]] = {
    "scenario": _scenario_input,
    "map": _map_input,
    "dice": _dice_input,
    "log": _log_input,
    "play": _play_input,
}

TARGETS: dict[str, Callable[[Any], str]] = {
    "scenario": run_scenario_text,
    "map": run_map_text,
    "dice": run_dice,
    "log": _run_log_input,
    "play": lambda value: run_play(value[0], value[1]),
}


def _register_cli_inputs() -> None:
    """The kinds of :mod:`fuzz_cli_inputs`: command-line options and sweep files."""
    import fuzz_cli_inputs

    _MAKERS.update(fuzz_cli_inputs.MAKERS)
    TARGETS.update(fuzz_cli_inputs.TARGETS)


_register_cli_inputs()
