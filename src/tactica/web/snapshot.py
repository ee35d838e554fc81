"""The fight as JSON for the web page: what the page shows, built from the controller alone.

A snapshot is everything a browser tab needs to draw the fight: the game and the log, the units
by side (with their colours), whose turn it is and the open question (actions grouped by unit
and kind, a roll with its dice in words, a decision's options, or the end), the last notes and
events. The map is fetched apart as SVG (``/api/map.svg``), sight and odds on request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from tactica.engine.errors import TacticaError
from tactica.engine.odds import OddsReport
from tactica.engine.ruleset import Capability, odds_hooks
from tactica.play.answer import answer_example, chances_line, dice_words, success_chance
from tactica.play.controller import (
    ActionRequest,
    DecisionRequest,
    FightController,
    Over,
    Request,
    RollRequest,
)
from tactica.play.queries import (
    has_map,
    no_map_sentence,
    odds_cases,
    odds_of,
    side_colours_of,
    units_shown,
)
from tactica.play.session import number_range
from tactica.play.words import (
    friendly,
    group_actions,
    number_name,
    odds_lines,
    shown_value,
    winner_line,
    without_rule_ids,
)
from tactica.web.links import action_link

__all__ = ["odds_between", "preview", "ranges_of", "request_json", "snapshot", "terrain_of"]

#: Notes sent to a page (the newest).
FEED_SHOWN = 200


def request_json(ctl: FightController, req: Request,
                 marks: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The open question, for the page (``marks``: the game's marks for its actions, when
    already drawn up)."""
    if isinstance(req, ActionRequest):
        statuses = ctl.battle.ruleset.units(ctl.battle.state)
        units = [u.id for u in statuses]
        sides = {u.id: u.side for u in statuses}
        marks = marks_of(ctl, req.actions) if marks is None else marks
        return {"kind": "action", "key": req.key, "side": req.side, "prompt": req.prompt,
                "texts": list(req.texts), "aimable": list(req.aimable),
                "groups": [g.to_json() for g in group_actions(req.texts, units)],
                "links": _aimed_links([action_link(a, sides) for a in req.actions], marks),
                # Actions on a friend where the same is open on an enemy: marked, listed last.
                "friends": [i for i, f in enumerate(friendly(req.actions, req.texts, sides))
                            if f],
                "menu": None if req.menu is None else {
                    "hint": req.menu.hint,
                    "lines": [{"group": g, "sub": sub,
                               "items": [{"index": i.index, "label": i.label} for i in items]}
                              for g, sub, items in req.menu.lines()]}}
    side, during = ctl.acting()
    if isinstance(req, RollRequest):
        roll = req.roll
        chance = success_chance(roll)
        roller = ctl.roller(req)
        return {"kind": "roll", "key": req.key, "label": req.label, "side": side,
                "during": during, "dice": dice_words(roll), "hint": roll.hint,
                # Who physically rolls: not always the acting side (a defence, a reaction).
                "roller": roller.side, "roller_unit": roller.unit,
                "roller_words": roller.words(),
                "chances": chances_line(roll),
                "success": None if chance is None else f"{float(chance):.1%}",
                "success_exact": (None if chance is None
                                  else f"{chance.numerator}/{chance.denominator}"),
                "example": answer_example(roll),
                "physical": bool(roll.dice) and roll.read is not None}
    if isinstance(req, DecisionRequest):
        span = number_range(req.decision.options)
        return {"kind": "decision", "key": req.key, "side": req.side, "during": during,
                "label": req.decision.label, "options": list(req.texts),
                # the roll the decision is about (a re-roll), the last of the step
                "roll": ctl.last_roll(),
                "suggested": _suggested(ctl),
                "range": None if span is None else list(span)}
    assert isinstance(req, Over)
    return {"kind": "over", "key": req.key, "winner": req.winner, "reason": req.reason,
            "text": f"The battle is over. {winner_line(req.winner, req.reason)}."}


def _suggested(ctl: FightController) -> int | None:
    """The option the computer would choose (0-based), or ``None`` if it cannot say."""
    try:
        return ctl.suggestion()
    except (TacticaError, ValueError):
        return None


def snapshot(ctl: FightController) -> dict[str, Any]:
    """Everything a page shows, as JSON."""
    req = ctl.advance()
    rs, _state = ctl.battle.ruleset, ctl.battle.state
    units = units_shown(ctl.battle)
    colours = side_colours_of(ctl.battle)
    marks = marks_of(ctl, req.actions if isinstance(req, ActionRequest) else ())
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
        "sides": [{"name": s, "colour": c, "computer": ctl.computer.get(s)}
                  for s, c in colours.items()],
        "units": [{"id": u.id, "side": u.side, "in_action": u.in_action, "place": u.place,
                   "colour": colours[u.side],
                   "details": {k.replace("_", " "): shown_value(v)
                               for k, v in u.details.items()}}
                  for u in units],
        "ranges": [] if has_map(ctl.battle) else ranges_of(ctl),
        "terrain": terrain_of(ctl) if has_map(ctl.battle) else {},
        "request": request_json(ctl, req, marks),
        "marks": marks,
        "feed": [n.to_json() for n in ctl.feed[-FEED_SHOWN:]],
        "steps": ctl.steps,
    }


def ranges_of(ctl: FightController) -> list[dict[str, str]]:
    """The ranges between the characters of a fight without a map, when the game tells them
    (its text part's optional ``ranges``: ``(a, b, distance in words)``)."""
    ruleset = ctl.battle.ruleset
    hook = ruleset.text.ranges
    if hook is None:
        return []
    try:
        return [{"a": a, "b": b, "range": str(d)} for a, b, d in hook(ctl.battle.state)]
    except TacticaError:
        return []


def marks_of(ctl: FightController, actions: Sequence[Any]) -> dict[str, Any]:
    """What the game draws on the map for the open ``actions`` (its text part's optional
    ``marks``: templates, moves' costs; plain JSON), or nothing."""
    ruleset = ctl.battle.ruleset
    hook = ruleset.text.marks
    if hook is None or not has_map(ctl.battle):
        return {}
    try:
        return hook(ctl.battle.state, actions)
    except TacticaError:
        return {}


def _aimed_links(links: list[dict[str, Any]], marks: Mapping[str, Any]
                 ) -> list[dict[str, Any]]:
    """The links, with the unit an action aims at where the game's marks name it (an arc
    toward an enemy's dot): clicking that unit previews the action."""
    targets = marks.get("targets") or {}
    out = []
    for i, link in enumerate(links):
        unit = targets.get(str(i))
        if unit is not None and link["kind"] == "other":
            link = {**link, "target": unit, "kind": "target"}
        out.append(link)
    return out


def terrain_of(ctl: FightController) -> dict[str, str]:
    """Ground the map does not draw but a move pays for (Arc's rough squares), by place, in
    words, when the game tells it (its text part's optional ``terrain``)."""
    ruleset = ctl.battle.ruleset
    hook = ruleset.text.terrain
    if hook is None:
        return {}
    try:
        return {str(k): str(v) for k, v in hook(ctl.battle.state).items()}
    except TacticaError:
        return {}


#: Outcome distributions shown as bars, the state left after the attack first.
_BARS_FIRST = ("hp", "hp_left", "health_left", "defense_left", "level_lost", "shell_left",
               "armor_left", "damage", "hits", "outcome")
_BARS_MAX = 24


def _bars(report: OddsReport) -> list[dict[str, Any]]:
    """Each outcome distribution of the report as bars (value, exact and decimal chance),
    what is left of the target first (the way Battle for Wesnoth previews an attack)."""
    names = sorted(report.distributions,
                   key=lambda n: (_BARS_FIRST.index(n) if n in _BARS_FIRST else 99, n))
    out = []
    for name in names:
        items = list(report.distributions[name].items())
        if len(items) < 2 or len(items) > _BARS_MAX:
            continue
        who = "attacker" if name.startswith("attacker") else "target"
        shown = name.removeprefix("attacker_") if who == "attacker" else name
        unit = report.attacker if who == "attacker" else report.target
        if who == "target" and " " in shown:  # another unit's outcome (``card B``)
            shown, unit = shown.rsplit(" ", 1)
        out.append({"name": shown.replace("_", " "), "who": who,
                    "unit": unit,
                    "bars": [{"value": str(v), "p": float(p),
                              "exact": f"{Fraction(p).numerator}/{Fraction(p).denominator}"}
                             for v, p in items]})
    return out


#: The chance shown large in a preview: the first of these the report has (the target taken
#: out of the fight, however the game says it).
_HEADLINES = ("p_out_of_action", "p_kill", "p_dead", "p_death", "p_down", "p_knockout",
              "p_damage", "p_hit")


def _headline(report: OddsReport) -> str | None:
    """The name (as the page shows it) of the number a preview shows large, if any."""
    for name in _HEADLINES:
        if name in report.numbers:
            return number_name(name)
    return None


def _report_json(report: OddsReport, desc: str) -> dict[str, Any]:
    return {"action": desc, "attacker": report.attacker, "target": report.target,
            "headline": _headline(report),
            "lines": odds_lines(report, desc),
            "numbers": {number_name(k): float(v) for k, v in report.numbers.items()},
            "exact": {number_name(k): f"{v.numerator}/{v.denominator}"
                      for k, v in report.numbers.items()},
            "why": {number_name(k): v for k, v in report.why.items()},
            "bars": _bars(report),
            # When the attacker's outcome holds (``if B counterattacks with the knife``).
            "attacker_if": str(report.extra.get("attacker_if") or ""),
            "reasons": [without_rule_ids(r) for r in report.reasons]}


def preview(ctl: FightController, key: int, index: int,
            bearing: float | None = None) -> dict[str, Any]:
    """The exact odds of action ``index`` of the open question ``key`` (aimed at ``bearing``
    degrees when given: an aimable action, a firing arc), with its outcome distributions as
    bars: what the page shows before the attack is committed."""
    req = ctl.open_request
    if not isinstance(req, ActionRequest) or req.key != key:
        raise TacticaError("the fight has moved on since that question was asked; answer "
                           "the question now open")
    if not 0 <= index < len(req.actions):
        raise TacticaError(f"there is no action {index + 1} (choose 1 to {len(req.actions)})")
    action = req.actions[index]
    text = req.texts[index]
    if bearing is not None:
        aimed = (req.aiming.aim(action, Fraction(bearing))
                 if req.aiming is not None and index in req.aimable else None)
        if aimed is None:
            raise TacticaError(f"action {index + 1} cannot be aimed at a bearing")
        action, text = aimed, ctl.describe(aimed)
    report = odds_of(ctl.battle, action)
    out = _report_json(report, text)
    out["index"] = index
    if bearing is not None:
        out["bearing"] = bearing
    # The cases the target chooses during the attack (an evasion): their odds beside.
    out["cases"] = [{"case": words, **_report_json(case_report, text)}
                    for words, case_report in odds_cases(ctl.battle, action)]
    # The reasons in the table's words, as play shows them before the dice (no rule ids);
    # a report on several units (a firing arc's every enemy) keeps its own lines after them.
    explained = ctl.explain(action)
    if explained and "targets" in report.extra:
        explained = [*explained, *out["reasons"]]
    out["reasons"] = explained or out["reasons"]
    return out


def odds_between(ctl: FightController, source: str, target: str) -> list[dict[str, Any]]:
    """The exact odds of every action of ``source`` on ``target`` now (each means: a weapon,
    an ability), or of the open actions that name both."""
    rs, state = ctl.battle.ruleset, ctl.battle.state
    out: list[dict[str, Any]] = []
    if rs.meta.has(Capability.ODDS):
        hooks = odds_hooks(rs)
        try:
            choices = hooks.choices(state, source)
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
