"""The conformance checks of one scenario through the command line, as a new user runs it.

Part of :func:`tactica.testing.check_game`: ``validate``, ``map``, ``sight``, ``odds`` with
each declared option, ``simulate`` under each ruling option, ``play`` to the end and
``play --resume``; what a game does not declare must be refused with one ``error:`` line.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from tactica.engine.policies import default_policy
from tactica.engine.ruleset import Capability, Ruleset
from tactica.engine.scenario import Scenario

__all__ = ["CommandChecks"]


class CommandChecks:
    """The checks of a scenario through the commands (files go to ``workdir``)."""

    game: Ruleset
    workdir: Path

    def scenario(self, path: Path) -> Scenario:
        """The loaded scenario (shared with the other checks)."""
        raise NotImplementedError

    def check_validate(self, path: Path) -> None:
        code, out, err = _cli("validate", path)
        assert code == 0, f"validate failed: {err.strip()}"
        assert "valid" in out and self.game.meta.title in out, f"validate said {out!r}"

    def check_map(self, path: Path) -> None:
        svg = self.workdir / f"{path.stem}.map.svg"
        code, _, err = _cli("map", path, "--svg", svg)
        if self.game.meta.battlefield is None and self.scenario(path).battlefield is None:
            assert "played without a map" in _one_line_error(code, err)
            return
        assert code == 0, f"map --svg failed: {err.strip()}"
        assert "<svg" in svg.read_text(encoding="utf-8"), "map --svg wrote no SVG"
        code, out, err = _cli("map", path)
        assert code == 0 and out.strip(), f"map failed: {err.strip()}"

    def check_sight(self, path: Path) -> None:
        state = self.scenario(path).new_state()
        units = [u for u in self.game.units(state) if u.in_action]
        a = units[0]
        others = [u for u in units if u.side != a.side]
        assert others, "every unit in action is on one side"
        code, out, err = _cli("sight", path, a.id, others[0].id, "--json")
        if not self.game.meta.has(Capability.SIGHT):
            line = _one_line_error(code, err)
            assert self.game.meta.title in line and "no sight" in line, line
            return
        if self.scenario(path).battlefield is None:  # a game whose map is optional, without
            assert "without a map" in _one_line_error(code, err)
            return
        assert code == 0, f"sight failed: {err.strip()}"
        report = json.loads(out)
        assert {"visible", "cover", "range", "reasons"} <= set(report), sorted(report)
        assert isinstance(report["cover"], int) and not isinstance(report["cover"], bool), \
            "sight: cover must be a whole number (a count of cover modifiers)"

    def check_odds(self, path: Path) -> None:
        from tactica.engine.odds import COMMON_KEYS

        meta = self.game.meta
        code, out, err = _cli("odds", path, "--table", "--json")
        if not meta.has(Capability.ODDS):
            assert "has no odds" in _one_line_error(code, err)
            return
        assert code == 0, f"odds --table failed: {err.strip()}"
        rows = json.loads(out)
        assert rows, f"no unit of {path.name} can act on anyone"
        for row in rows:
            missing = set(COMMON_KEYS) - set(row)
            assert not missing, f"odds --table: a row lacks {sorted(missing)}"
            assert 0 <= row["p_out_of_action"] <= 1
        a, t = rows[0]["attacker"], rows[0]["target"]
        code, out, err = _cli("odds", path, "-a", a, "-t", t, "--json")
        assert code == 0, f"odds -a {a} -t {t} failed: {err.strip()}"
        assert set(COMMON_KEYS) <= set(json.loads(out))
        for option in meta.odds_options:
            if option.takes_value and not option.choices:
                continue  # a free value: the game's own tests cover it
            flag = [f"--{option.name}", *([option.choices[0]] if option.takes_value else [])]
            code, out, err = _cli("odds", path, "--table", "--json", *flag)
            assert code == 0, f"odds --table {' '.join(flag)} failed: {err.strip()}"
        line = _one_line_error(*_cli("odds", path, "-a", a, "-t", t, "--no-such-option")[::2])
        assert "--no-such-option" in line and meta.title in line, line

    def check_simulate(self, path: Path) -> None:
        code, out, err = _cli("simulate", path, "-n", "2", "--seed", "5", "-j", "1", "--json")
        assert code == 0, f"simulate failed: {err.strip()}"
        base = json.loads(out)
        assert base["battles"] == 2
        assert set(base["policies"].values()) == {default_policy(self.game)}, \
            f"the report names the policies {base['policies']}"
        for ruling in self.game.meta.rulings:
            for option in list(ruling.options)[1:]:
                code, out, err = _cli("simulate", path, "-n", "1", "--seed", "5", "-j", "1",
                                      "--json", "--rulings", f"{ruling.id}={option}")
                assert code == 0, f"{ruling.id}={option}: {err.strip()}"
                assert json.loads(out)["rulings"][ruling.id] == option

    def check_play(self, path: Path) -> None:
        sides = self.game.sides_of(self.scenario(path).new_state())
        computer = [arg for side in sides for arg in ("--computer", side)]
        log = self.workdir / f"{path.stem}.fight.jsonl"
        log.unlink(missing_ok=True)
        code, out, err = _cli("play", path, "--log", log, "--auto-dice", "--seed", "9",
                              *computer)
        assert code == 0, f"play failed: {err.strip()}"
        assert "The battle is over" in out, "play by the computer did not reach the end"
        whole = log.read_text(encoding="utf-8").splitlines()
        assert json.loads(whole[-1])["type"] == "battle-ended", "the log does not end the fight"
        cut = self.workdir / f"{path.stem}.cut.jsonl"
        cut.write_text("\n".join(whole[: max(2, len(whole) // 2)]) + "\n", encoding="utf-8")
        code, out, err = _cli("play", "--resume", cut, "--auto-dice")
        assert code == 0, f"play --resume failed: {err.strip()}"
        assert cut.read_text(encoding="utf-8").splitlines() == whole, \
            "the resumed fight wrote another log than the whole one"


# --------------------------------------------------------------------------------------------
# The command line, in this process


@contextlib.contextmanager
def _nobody_at_the_table() -> Iterator[None]:
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        yield
    finally:
        sys.stdin = stdin


def _cli(*args: str | Path) -> tuple[int, str, str]:
    from tactica.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            _nobody_at_the_table():
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def _one_line_error(code: int, err: str) -> str:
    assert code == 2, f"expected exit code 2, got {code}: {err.strip()}"
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, \
        f"expected one 'error:' line, got {err.strip()!r}"
    return lines[0]
