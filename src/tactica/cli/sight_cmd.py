"""``tactica sight FILE FROM TO``: can FROM see TO, how much cover has TO, and why.

On a scenario FROM and TO are unit ids (or places) on every map kind: the game answers, under
its rulings. On a map file they are what the kind names places by: occupant ids or ``x,y``
tiles on a grid, area names on a zone graph. Options are passed to the battlefield only when
given, so a kind that does not know an option says so (``--policy`` on a zone graph is an
error, not ignored). A game played without a map says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer

from tactica.battlefield.base import Battlefield, SightOption, SightReport
from tactica.cli.app import app
from tactica.cli.common import parse_rulings, print_json
from tactica.cli.map_cmd import battlefield_from_file, write_svg
from tactica.engine.errors import MapError
from tactica.engine.maps import to_svg
from tactica.engine.ruleset import sight_hooks
from tactica.engine.scenario import scenario_from_mapping
from tactica.engine.validation import load_yaml
from tactica.presentation.terminal import echo

__all__ = ["parse_options"]


def parse_options(items: list[str] | None, **named: str | None) -> dict[str, str]:
    """``["key=value", ...]`` plus the named options that were given, as one mapping."""
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise MapError(f"--option: expected KEY=VALUE such as blockers=foes, got {item!r}")
        out[key] = value
    for key, given in named.items():
        if given is None:
            continue
        if key in out and out[key] != given:
            raise MapError(f"--{key} {given!r} contradicts --option {key}={out[key]}")
        out[key] = given
    return out


def _report(file: Path, source: str, target: str,
            options: dict[str, SightOption]) -> tuple[Battlefield | None, SightReport]:
    """The battlefield as it stands and the sight report, from a map file or a scenario."""
    data = load_yaml(file, error=MapError)
    if not (isinstance(data, Mapping) and "game" in data):
        battlefield = battlefield_from_file(file)
        return battlefield, battlefield.sight_report(source, target, **options)
    scenario = scenario_from_mapping(data, source=str(file), base_dir=file.parent)
    hooks = sight_hooks(scenario.ruleset)
    state = scenario.new_state()
    report = hooks.sight_report(state, source, target, **options)
    return hooks.battlefield(state), report


@app.command("sight")
def sight_command(
    file: Annotated[Path, typer.Argument(help="A map file, or a scenario file with a map.")],
    source: Annotated[str, typer.Argument(metavar="FROM", help="Who looks (a unit id or a place).")],
    target: Annotated[str, typer.Argument(metavar="TO", help="Who is looked at.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    policy: Annotated[str | None, typer.Option("--policy", help="Grid contact policy: inset, touch or interior.")] = None,
    metric: Annotated[str | None, typer.Option("--metric", help="Grid distance for the cover range: chebyshev, manhattan, euclidean.")] = None,
    prone: Annotated[list[str] | None, typer.Option("--prone", help="This trooper lies prone (repeatable; maps with poses).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="On a scenario: override a ruling, ID=OPTION (repeatable).")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Any other option of the map kind: KEY=VALUE (repeatable).")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Also write an SVG picture with the evidence.")] = None,
) -> None:
    """Sight and cover between two places or units, with the reasons (every line, every
    blocker).

    On a scenario file the units stand where the scenario puts them and the scenario's
    rulings give the options; options given here override them."""
    options: dict[str, SightOption] = dict(
        parse_options(option, policy=policy, metric=metric,
                      prone=",".join(prone) if prone else None))
    if rulings:
        data = load_yaml(file, error=MapError)
        if not (isinstance(data, Mapping) and "game" in data):
            raise MapError("--rulings: only a scenario file has rulings; give map options "
                           "with --option KEY=VALUE")
        sc = scenario_from_mapping(data, source=str(file), base_dir=file.parent)
        sc = sc.with_rulings(parse_rulings(rulings))
        hooks = sight_hooks(sc.ruleset)
        state = sc.new_state()
        battlefield = hooks.battlefield(state)
        report = hooks.sight_report(state, source, target, **options)
    else:
        battlefield, report = _report(file, source, target, options)
    if json_out:
        out = report.to_dict()
        out.setdefault("range", out.get("distance"))
        print_json(out)
    else:
        echo(report.explain())
    if svg is not None and battlefield is not None:
        write_svg(svg, to_svg(battlefield, sight=report))
