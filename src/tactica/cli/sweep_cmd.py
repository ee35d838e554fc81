"""``tactica sweep``: vary one or two parameters, run exact odds or simulations at each point,
store the results as Parquet; ``tactica sweep --query SQL FILE`` reads them with DuckDB."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tactica.analysis.sweep import SweepSpec, parse_vary, query, run_sweep, write_parquet
from tactica.analysis.sweep_views import sweep_tables
from tactica.cli.app import app
from tactica.cli.common import err_console, parse_rulings, print_json
from tactica.cli.odds_cmd import parse_game_options
from tactica.cli.output import (
    CsvOpt,
    DecimalsOpt,
    ExactOpt,
    MarkdownOpt,
    PlotOpt,
    save_plot,
    show_tables,
)
from tactica.cli.progress import progress_shown
from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import get_ruleset
from tactica.engine.scenario import load_scenario
from tactica.presentation.tables import NumberFormat


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def sweep(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(metavar="SCENARIO|GAME|FILE.parquet", help="A scenario file, a game (with --profiles), or with --query a sweep's Parquet file.")],
    vary: Annotated[list[str] | None, typer.Option("--vary", "-v", help="PATH=V1,V2,... or PATH=LOW-HIGH: rulings.ID, units.ID.FIELD, content.weapons.NAME.FIELD, range, cover (one or two).")] = None,
    profiles: Annotated[str | None, typer.Option("--profiles", help="A matchup instead of a scenario: ATTACKER,TARGET profiles of the game.")] = None,
    range_: Annotated[int | None, typer.Option("--range", min=0, help="A matchup's range when it is not swept.")] = None,
    cover: Annotated[int | None, typer.Option("--cover", min=0, help="A matchup's cover when it is not swept.")] = None,
    odds: Annotated[bool, typer.Option("--odds", help="Exact odds of --attacker on --target at each point.")] = False,
    attacker: Annotated[str | None, typer.Option("--attacker", "-a", help="Acting unit id (--odds).")] = None,
    target: Annotated[str | None, typer.Option("--target", "-t", help="Target unit id (--odds).")] = None,
    weapon: Annotated[str | None, typer.Option("--weapon", "-w", help="Weapon or ability (--odds; default: the game's choice).")] = None,
    battles: Annotated[int, typer.Option("--battles", "-n", min=0, max=10_000_000, help="Simulated battles at each point (0: none).")] = 0,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of every point's battles (the same battles at each point).")] = 1,
    workers: Annotated[int | None, typer.Option("--workers", "-j", min=1, help="Processes per simulation (default: 1).")] = 1,
    executor: Annotated[str | None, typer.Option("--executor", help="Simulation executor, where tactica has them (process, dask).")] = None,
    content: Annotated[list[Path] | None, typer.Option("--content", help="More content packs (repeatable).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable).")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the results as Parquet to FILE.")] = None,
    sql: Annotated[str | None, typer.Option("--query", "-q", help="Run SQL over a sweep's Parquet file (the table is called sweep).")] = None,
    paired_plot: Annotated[Path | None, typer.Option("--paired-plot", metavar="FILE", help="Draw each point's difference from the first value (same seeds) to FILE.png|svg.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
    decimals: DecimalsOpt = 1,
    exact: ExactOpt = False,
    plot: PlotOpt = None,
    value: Annotated[str | None, typer.Option("--value", help="What --plot draws: win_rate (simulations, every side; the default) or p_out_of_action, expected_damage, p_hit (odds).")] = None,
) -> None:
    """Vary one or two parameters over values; exact odds (--odds) or simulations (--battles)
    at each point, every result with its parameters in a Parquet file DuckDB can query."""
    fmt = NumberFormat(precision=decimals, exact=exact)
    if exact and battles and not odds and sql is None and profiles is None:
        from tactica.cli.simulate_cmd import EXACT_REFUSED

        raise TacticaError(EXACT_REFUSED)
    if sql is not None:
        table = query(Path(source), sql)
        show_tables([table], fmt, csv=csv, markdown=markdown, quiet=json_out)
        if json_out:
            print_json(table.records())
        return
    spec_args: dict[str, Any] = {}
    if profiles is not None:
        pair = [p.strip() for p in profiles.split(",") if p.strip()]
        if len(pair) != 2:
            raise TacticaError(f"--profiles: expected ATTACKER,TARGET, got {profiles!r}")
        ruleset = get_ruleset(source, where="GAME")
        spec_args.update(game=ruleset, profiles=(pair[0], pair[1]), range=range_, cover=cover)
        options = parse_game_options(ruleset.meta, ctx.args)
        odds = odds or battles == 0
    else:
        try:
            is_file = Path(source).is_file()
        except (OSError, ValueError):  # a name too long for a path, a NUL
            is_file = False
        if not is_file:
            raise TacticaError(f"{source}: no such scenario file (for a matchup sweep give a "
                               "game and --profiles ATTACKER,TARGET)")
        sc = load_scenario(Path(source))
        if rulings:
            sc = sc.with_rulings(parse_rulings(rulings))
        spec_args.update(scenario=sc)
        options = parse_game_options(sc.ruleset.meta, ctx.args)
    spec = SweepSpec(tuple(parse_vary(v) for v in vary or []),
                     content=tuple(p.resolve() for p in content or []),
                     rulings=parse_rulings(rulings), odds=odds, attacker=attacker,
                     target=target, means=weapon, options=options, battles=battles, seed=seed,
                     workers=workers, executor=executor, **spec_args)
    with progress_shown("sweep", unit="points") as progress:
        rows = run_sweep(spec, progress=progress)
    if output is not None:
        write_parquet(rows, output, spec)
        err_console.print(f"{len(rows)} rows written to {output}")
    show_tables(sweep_tables(rows, spec), fmt, csv=csv, markdown=markdown, quiet=json_out)
    if json_out:
        print_json(rows)
    if plot is not None:
        from tactica.analysis.sweep_views import plot_sweep

        save_plot(plot_sweep(rows, spec, value=value, decimals=decimals), plot)
    if paired_plot is not None:
        from tactica.analysis.sweep_views import plot_paired

        save_plot(plot_paired(rows, spec), paired_plot)
