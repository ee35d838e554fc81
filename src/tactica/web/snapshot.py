"""The fight as JSON for the web page: what the page shows, built from the controller alone.

A snapshot is everything a browser tab needs to draw the fight: the game and the log, the units
by side (with their colours), whose turn it is and the open question (actions grouped by unit
and kind, a roll with its dice in words, a decision's options, or the end), the last notes and
events. The map is fetched apart as SVG (``/api/map.svg``), sight and odds on request.
"""

from __future__ import annotations

from typing import Any

from tactica.engine.errors import TacticaError
from tactica.engine.odds import OddsReport
from tactica.engine.ruleset import Capability, odds_hooks
from tactica.play.answer import answer_example, chances_line, dice_words
from tactica.play.controller import (
    ActionRequest,
    DecisionRequest,
    FightController,
    Over,
    Request,
    RollRequest,
)
from tactica.play.queries import has_map, no_map_sentence, odds_of
from tactica.play.words import group_actions, number_name, odds_lines, shown_value, winner_line
from tactica.presentation.render.svg import side_colour

__all__ = ["odds_between", "request_json", "snapshot"]

#: Notes sent to a page (the newest).
FEED_SHOWN = 200


def request_json(ctl: FightController, req: Request) -> dict[str, Any]:
    """The open question, for the page."""
    if isinstance(req, ActionRequest):
        units = [u.id for u in ctl.battle.ruleset.units(ctl.battle.state)]
        return {"kind": "action", "key": req.key, "side": req.side, "prompt": req.prompt,
                "texts": list(req.texts), "aimable": list(req.aimable),
                "groups": [g.to_json() for g in group_actions(req.texts, units)]}
    if isinstance(req, RollRequest):
        roll = req.roll
        return {"kind": "roll", "key": req.key, "label": req.label,
                "dice": dice_words(roll), "hint": roll.hint, "chances": chances_line(roll),
                "example": answer_example(roll),
                "physical": bool(roll.dice) and roll.read is not None}
    if isinstance(req, DecisionRequest):
        return {"kind": "decision", "key": req.key, "side": req.side,
                "label": req.decision.label, "options": list(req.texts)}
    assert isinstance(req, Over)
    return {"kind": "over", "key": req.key, "winner": req.winner, "reason": req.reason,
            "text": f"The battle is over. {winner_line(req.winner, req.reason)}."}


def snapshot(ctl: FightController) -> dict[str, Any]:
    """Everything a page shows, as JSON."""
    req = ctl.advance()
    rs, state = ctl.battle.ruleset, ctl.battle.state
    sides = list(rs.sides_of(state))
    units = rs.units(state)
    return {
        "version": ctl.version,
        "title": ctl.scenario.name,
        "game": rs.meta.title,
        "log": str(ctl.log_path),
        "seed": ctl.header.seed,
        "rulings": dict(ctl.scenario.rulings.changed()),
        "computer": dict(ctl.computer),
        "ask_dice": ctl.ask_dice,
        "has_map": has_map(ctl.battle),
        "no_map": "" if has_map(ctl.battle) else no_map_sentence(ctl.battle),
        "has_odds": rs.meta.has(Capability.ODDS),
        "sides": [{"name": s, "colour": side_colour(i),
                   "computer": ctl.computer.get(s)} for i, s in enumerate(sides)],
        "units": [{"id": u.id, "side": u.side, "in_action": u.in_action, "place": u.place,
                   "colour": side_colour(sides.index(u.side)) if u.side in sides else "#5b6f8a",
                   "details": {k: shown_value(v) for k, v in u.details.items()}}
                  for u in units],
        "request": request_json(ctl, req),
        "feed": [n.to_json() for n in ctl.feed[-FEED_SHOWN:]],
        "steps": ctl.steps,
    }


def _report_json(report: OddsReport, desc: str) -> dict[str, Any]:
    return {"action": desc, "lines": odds_lines(report, desc),
            "numbers": {number_name(k): float(v) for k, v in report.numbers.items()},
            "exact": {number_name(k): f"{v.numerator}/{v.denominator}"
                      for k, v in report.numbers.items()},
            "why": {number_name(k): v for k, v in report.why.items()}}


def odds_between(ctl: FightController, source: str, target: str) -> list[dict[str, Any]]:
    """The exact odds of every action of ``source`` on ``target`` now (each means: a weapon,
    an ability), or of the open actions that name both."""
    rs, state = ctl.battle.ruleset, ctl.battle.state
    out: list[dict[str, Any]] = []
    if rs.meta.has(Capability.ODDS):
        hooks = odds_hooks(rs)
        try:
            choices = hooks.odds_choices(state, source)
        except TacticaError:
            choices = ()
        for choice in choices:
            if target in choice.targets:
                try:
                    report = hooks.odds(state, choice.action)
                except TacticaError:
                    continue
                out.append(_report_json(report, ctl.describe(choice.action)))
        if out:
            return out
    req = ctl.open_request
    if isinstance(req, ActionRequest):
        for action, text in zip(req.actions, req.texts, strict=True):
            words = text.split()
            if source in words and target in words:
                out.append(_report_json(odds_of(ctl.battle, action), text))
    return out
