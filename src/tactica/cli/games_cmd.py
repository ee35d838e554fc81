"""``tactica games``: every game tactica knows, with its map kind, rulings and examples.

Games are plug-ins (the entry point group ``tactica.rulesets``): a game installed from another
package appears here as the built-in ones do. A plug-in that fails to import or to register is
skipped by every command; this one names it, and why, on standard error.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from tactica.cli.app import app
from tactica.cli.common import console, err_console, print_json
from tactica.cli.output import CsvOpt, MarkdownOpt, show_tables
from tactica.engine.errors import bounded_message
from tactica.engine.maps import map_kinds
from tactica.engine.plugins import broken_plugins
from tactica.engine.policies import policy_names
from tactica.engine.ruleset import Ruleset, example_scenarios, rulesets
from tactica.presentation.tables import Column, NumberFormat
from tactica.presentation.tables import Table as DataTable

__all__ = ["game_summary"]


def _shown_path(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)


def game_summary(ruleset: Ruleset) -> dict[str, Any]:
    """A JSON-ready description of a game: what ``tactica games --json`` prints for it."""
    meta = ruleset.meta
    return {
        "name": meta.name,
        "title": meta.title,
        "aliases": list(meta.aliases),
        "battlefield": meta.battlefield,
        "optional_maps": list(meta.optional_maps),
        "summary": meta.summary,
        "source": meta.source,
        "provides": sorted(c.value for c in meta.provides),
        "policies": list(policy_names(ruleset)),
        "odds_options": [{"name": o.name, "help": o.help, "takes_value": o.takes_value}
                         for o in meta.odds_options],
        "rulings": [{"id": r.id, "question": r.question, "default": r.default,
                     "options": list(r.options)} for r in meta.rulings],
        "examples": [_shown_path(p) for p in example_scenarios(ruleset)],
    }


def ruling_choices(ruling: dict[str, Any]) -> str:
    """The options of a ruling in words, its default first.

    >>> ruling_choices({"default": "die", "options": ["die", "characteristic"]})
    'default [die]; other reading: characteristic'
    >>> ruling_choices({"default": "listed", "options": ["listed"]})
    'default [listed], the only reading so far'
    """
    others = [o for o in ruling["options"] if o != ruling["default"]]
    if not others:
        return f"default [{ruling['default']}], the only reading so far"
    label = "other reading" if len(others) == 1 else "other readings"
    return f"default [{ruling['default']}]; {label}: {' / '.join(others)}"


def games_tables(found: list[dict[str, Any]], *, rulings: bool = False) -> list[DataTable]:
    """The games as a table (and every ruling as another, if asked)."""
    games = DataTable("Games", [Column("game"), Column("title"), Column("map"), Column("rulings",
                  "int"), Column("can"), Column("examples")],
                  [[g["name"], g["title"], g["battlefield"] or "none", len(g["rulings"]),
                    ", ".join(g["provides"]), ", ".join(Path(e).name for e in g["examples"])]
                   for g in found])
    if not rulings:
        return [games]
    table = DataTable("Rulings", [Column("game"), Column("ruling"), Column("question"),
                              Column("default"), Column("other options")],
                  [[g["name"], r["id"], r["question"], r["default"],
                    ", ".join(o for o in r["options"] if o != r["default"])]
                   for g in found for r in g["rulings"]])
    return [games, table]


@app.command()
def games(
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    rulings: Annotated[bool, typer.Option("--rulings", help="List every ruling with its options.")] = False,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
) -> None:
    """Every game tactica knows: its map kind, its rulings and its example scenarios."""
    found = [game_summary(rs) for rs in rulesets()]
    map_kinds()  # so that a broken map kind plug-in is reported too
    for broken in broken_plugins():
        err_console.print(f"warning: {bounded_message(str(broken))}", markup=False,
                          highlight=False)
    if csv is not None or markdown:
        show_tables(games_tables(found, rulings=rulings), NumberFormat(), csv=csv,
                    markdown=markdown, quiet=json_out)
    if json_out:
        print_json(found)
        return
    if markdown:
        return
    body = []
    for g in found:
        where = g["battlefield"] or "none" + (
            f" (or {', '.join(g['optional_maps'])})" if g["optional_maps"] else "")
        ids = [r["id"] for r in g["rulings"]]
        span = f"{ids[0]} .. {ids[-1]} ({len(ids)})" if len(ids) > 2 else ", ".join(ids)
        body.append([f"{g['title']}\n{g['name']}", where, span or "-",
                     ", ".join(g["provides"]) or "-",
                     "\n".join(Path(e).name for e in g["examples"]) or "-"])
    show_tables([DataTable("Games", [Column(c) for c in ("game", "map", "rulings", "can",
                                                         "examples")], body)], NumberFormat())
    if rulings:
        for g in found:
            console.print("\n" + g["title"], style="bold", markup=False, highlight=False)
            for r in g["rulings"]:
                console.print(f"  {r['id']}: {r['question']}\n      {ruling_choices(r)}",
                              markup=False, highlight=False)
    else:
        console.print("'tactica games --rulings' lists every ruling with its options.")
