"""``tactica sight FILE FROM TO``: can FROM see TO, is TO in cover, and why.

FROM and TO are what the map kind names places by: occupant ids (or ``x,y`` tiles) on a grid,
area names on a zone graph. Options are passed to the battlefield only when given, so a kind
that does not know an option says so (``--policy`` on a zone graph is an error, not ignored).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from tactica.battlefield.base import Battlefield
from tactica.cli.app import app
from tactica.cli.common import print_json
from tactica.cli.map_cmd import battlefield_from_file, write_svg
from tactica.errors import MapError
from tactica.maps import to_svg
from tactica.scenario import scenario_from_mapping
from tactica.validation import load_yaml

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


def _battlefield_and_defaults(file: Path) -> tuple[Battlefield, dict[str, str]]:
    data = load_yaml(file, error=MapError)
    if not (isinstance(data, Mapping) and "game" in data and "map" in data):
        return battlefield_from_file(file), {}
    scenario = scenario_from_mapping(data, source=str(file), base_dir=file.parent)
    rs: Any = scenario.ruleset
    state = scenario.new_state()
    battlefield = rs.battlefield_of(state) if hasattr(rs, "battlefield_of") else scenario.battlefield
    defaults = dict(rs.sight_defaults(scenario.rulings)) if hasattr(rs, "sight_defaults") else {}
    return battlefield, defaults


@app.command("sight")
def sight_command(
    file: Annotated[Path, typer.Argument(help="A map file, or a scenario file with a map.")],
    source: Annotated[str, typer.Argument(metavar="FROM", help="Who looks (id or place).")],
    target: Annotated[str, typer.Argument(metavar="TO", help="Who is looked at.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    policy: Annotated[
        str | None,
        typer.Option("--policy", help="Grid contact policy: inset, touch or interior (NEB-4)."),
    ] = None,
    metric: Annotated[
        str | None,
        typer.Option(
            "--metric", help="Grid distance for cover: chebyshev, manhattan, euclidean (NEB-3)."
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", help="Any other option of the map kind: KEY=VALUE (repeatable)."
        ),
    ] = None,
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Also write an SVG picture with the evidence.")
    ] = None,
) -> None:
    """Sight and cover between two places, with the reasons (every line, every blocker).

    On a scenario file the units stand where the scenario puts them and the scenario's
    rulings give the defaults; options given here override them."""
    options = parse_options(option, policy=policy, metric=metric)
    battlefield, defaults = _battlefield_and_defaults(file)
    report = battlefield.sight_report(source, target, **{**defaults, **options})
    if json_out:
        print_json(report.to_dict())
    else:
        typer.echo(report.explain())
    if svg is not None:
        write_svg(svg, to_svg(battlefield, sight=report))
