"""``tactica validate FILE``: check a scenario or map file and report every problem at once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from tactica.cli.app import app
from tactica.cli.common import console
from tactica.engine.errors import ScenarioError
from tactica.engine.maps import map_from_mapping
from tactica.engine.scenario import scenario_from_mapping
from tactica.engine.validation import load_yaml


@app.command()
def validate(
    file: Annotated[Path, typer.Argument(help="A scenario file (or a map file).")],
) -> None:
    """Check a scenario or map file; every problem is listed, each with its field."""
    data = load_yaml(file, error=ScenarioError)
    if isinstance(data, dict) and "game" not in data and "kind" in data:
        bf = map_from_mapping(data, source=str(file))
        console.print(f"{file}: a valid {bf.kind} map")
        return
    sc = scenario_from_mapping(data, source=str(file), base_dir=file.parent)
    changed = sc.rulings.changed()
    rulings = ", ".join(f"{k}: {v}" for k, v in changed.items()) or "all defaults"
    where = f"{sc.battlefield.kind} map" if sc.battlefield is not None else "no map"
    console.print(Text.assemble(f"{file}: valid {sc.ruleset.meta.title} scenario ",
                                (sc.name, "bold"), f" ({where}; rulings: {rulings})"))
