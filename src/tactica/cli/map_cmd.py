"""``tactica map FILE [--svg OUT]``: show any map (grid, zone graph, rows, dots) as text or SVG.

The file may be a map file (``kind: ...``) or a scenario (``game:`` and ``map:``), whose map is
used. Everything goes through the :class:`~tactica.battlefield.base.Battlefield` protocol, so
every map kind works the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer

from tactica.battlefield.base import Battlefield
from tactica.cli.app import app
from tactica.engine.errors import MapError, TacticaError
from tactica.engine.maps import map_from_mapping, to_svg
from tactica.engine.ruleset import Capability, sight_hooks
from tactica.engine.scenario import scenario_from_mapping
from tactica.engine.validation import load_yaml
from tactica.presentation.terminal import echo

__all__ = ["battlefield_from_file", "write_svg"]


def battlefield_from_file(path: Path) -> Battlefield:
    """The battlefield of a map file, or of a scenario (its units where it puts them)."""
    data = load_yaml(path, error=MapError)
    if isinstance(data, Mapping) and "game" in data:
        scenario = scenario_from_mapping(data, source=str(path), base_dir=path.parent)
        rs = scenario.ruleset
        if scenario.battlefield is None:
            raise MapError(f"{path}: {rs.meta.title} is played without a map: there is "
                           "nothing to draw")
        if rs.meta.has(Capability.SIGHT):
            now = sight_hooks(rs).battlefield(scenario.new_state())
            if now is not None:
                return now
        return scenario.battlefield
    return map_from_mapping(data, source=str(path))


def write_svg(path: Path, svg: str) -> None:
    """Write an SVG file; a failure becomes one clear error line."""
    try:
        path.write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise TacticaError(f"--svg: cannot write {path}: {exc.strerror or exc}") from None
    print(f"wrote {path}", file=sys.stderr)


@app.command("map")
def map_command(
    file: Annotated[Path, typer.Argument(help="A map file, or a scenario file with a map.")],
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Write an SVG picture here instead.")
    ] = None,
) -> None:
    """Show a map: a text preview, or an SVG picture with --svg."""
    battlefield = battlefield_from_file(file)
    if svg is not None:
        write_svg(svg, to_svg(battlefield))
        return
    text = battlefield.preview()
    sides = getattr(battlefield, "sides", None)
    if sys.stdout.isatty() and isinstance(sides, Mapping) and sides:
        _coloured(text, sides)
        return
    echo(text)


def _coloured(text: str, sides: Mapping[str, str]) -> None:
    """The preview on a terminal: each trooper's letter and side in its side's colour (the
    same colours as ``tactica play``)."""
    from tactica.play.console import RichTerminal

    order = list(dict.fromkeys(sides.values()))
    palette = {side: k for k, side in enumerate(order)}
    palette.update({uid: order.index(side) for uid, side in sides.items()})
    RichTerminal(palette=lambda: palette, session=object()).say(text)
