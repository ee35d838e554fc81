"""Every game's example played in ``tactica play`` for six rounds by a game master who types
only words the lists show: each action by the words of its entry (a whole line's text, a
group's head and the entry's label, or a menu line's cost and the entry's label), each
decision by the option's words. Every typed line must take the very action (or option) it was
read from: a line that matches nothing, or more than one, fails the test."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tactica.engine.events import RoundStarted
from tactica.engine.scenario import load_scenario
from tactica.play import PlaySession
from tactica.play.controller import ActionRequest, DecisionRequest, RollRequest

EXAMPLES = Path(__file__).parents[2] / "examples"
GAMES = ["nebulia/firefight.yaml", "skirmishers/street-fight.yaml",
         "last-odyssey/goblins.yaml", "unhex/nightclub-fight.yaml", "arc/warehouse.yaml"]
ROUNDS = 6
#: A bound on the prompts answered (a safety net: each game needs far fewer).
MOST_PROMPTS = 1500

_ENTRY = re.compile(r"\[(\d+)\] (.*?)(?=\s{2,}\[\d+\]|$)")


def entries(lines: list[str]) -> dict[int, str]:
    """What a game master would type for each numbered entry the lines show."""
    out: dict[int, str] = {}
    head = title = ""
    for raw in lines:
        line = raw.rstrip()
        body = line.strip()
        if not body or body.startswith(("type ", "'", "how to", "an action", "(degrees")):
            continue
        first = body.find("[")
        if first == 0 and line.startswith("  [") and not line.startswith("    "):
            # one action a line: its whole text (a friend's mark is shown, and typed)
            m = re.match(r"\[(\d+)\] (.*)$", body)
            if m:
                out[int(m.group(1))] = m.group(2)
            head = ""
            continue
        if first == -1:  # a menu's group title ("W moves to (nearest first, ...):")
            if body.endswith(":"):
                title = re.sub(r"\s*\([^)]*\)$", "", body[:-1])
            continue
        prefix = body[:first].strip()
        if prefix.endswith(":"):
            prefix = prefix[:-1]
            if line.startswith("    "):  # a menu line: the group's title, the cost
                head = f"{title} {prefix}"
            else:  # a group: its head without the count
                head = re.sub(r"\s*\(\d+\)$", "", prefix)
        lead = head  # (a continued line: the group's or menu line's above)
        for m in _ENTRY.finditer(body[first:]):
            label = m.group(2).strip()
            out[int(m.group(1))] = f"{lead} {label}".strip() if lead else label
    return out


class TypingMaster:
    """Answers every prompt of a session by words it was shown, and checks each took."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.shown: list[str] = []
        self.session: PlaySession | None = None
        self.expected: tuple[int, Any] | None = None  # (request key, action or option)
        self.prompts = 0
        self.typed: list[str] = []

    def say(self, text: str) -> None:
        self.shown.extend(text.split("\n"))

    def _check_last(self) -> None:
        """The line typed before took what it was read from."""
        assert self.session is not None
        ctl = self.session.controller
        if self.expected is None:
            return
        key, wanted = self.expected
        self.expected = None
        req = ctl.open_request
        assert req is None or req.key != key, (
            f"{self.typed[-1]!r} did not take one action; the session said: "
            f"{self.shown[-4:]}")
        taken = ctl.battle.log + ctl._open  # the last action taken, in the step or closed
        from tactica.engine.events import ActionTaken
        actions = [r.action for r in taken if isinstance(r, ActionTaken)]
        if not isinstance(wanted, tuple):
            assert actions and actions[-1] == wanted, (self.typed[-1], actions[-1:], wanted)

    def ask(self, prompt: str) -> str:
        assert self.session is not None
        self._check_last()
        self.prompts += 1
        ctl = self.session.controller
        rounds = sum(1 for e in ctl.battle.log if isinstance(e, RoundStarted))
        if rounds > ROUNDS or self.prompts > MOST_PROMPTS:
            raise EOFError
        req = ctl.open_request
        shown, self.shown = self.shown, []
        if isinstance(req, RollRequest):
            return ""
        if isinstance(req, DecisionRequest):
            numbers = entries(shown)
            if not numbers:  # a number in a range
                m = re.search(r"a number from (\d+) to (\d+)", " ".join(shown))
                assert m, shown
                return m.group(1)
            n = int(self.rng.choice(sorted(numbers)))
            self.expected = (req.key, ("option", n))
            return self._type(numbers[n])
        assert isinstance(req, ActionRequest), req
        numbers = entries(shown)
        if len(numbers) < len(req.texts) and "actions" not in self.typed[-1:]:
            return self._type("actions")  # a summary: the whole list first
        assert numbers, shown
        ends = [n for n, t in numbers.items() if re.search(r"\bends?\b", t)]
        pool = ends if ends and self.rng.random() < 0.35 else sorted(numbers)
        n = int(self.rng.choice(pool))
        self.expected = (req.key, req.actions[n - 1])
        return self._type(numbers[n])

    def _type(self, text: str) -> str:
        self.typed.append(text)
        return text


@pytest.mark.parametrize("game", GAMES)
def test_six_rounds_typed_from_the_lists(tmp_path: Path, game: str) -> None:
    master = TypingMaster(seed=7)
    session = PlaySession.start(load_scenario(EXAMPLES / game), tmp_path / "fight.jsonl",
                                master, seed=5, ask_dice=False, durable=False)
    master.session = session
    result = session.run()
    battle = session.controller.battle
    rounds = sum(1 for e in battle.log if isinstance(e, RoundStarted))
    assert result.finished or rounds > ROUNDS, (rounds, master.prompts)
    typed = [t for t in master.typed if t != "actions"]
    assert len(typed) >= 10 and not any(t.isdigit() for t in typed)
