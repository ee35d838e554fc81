"""``tactica serve SCENARIO|--resume LOG``: the game master's assistant as a local web page.

The page plays the same fight as ``tactica play``, through the same controller and the same
log (saved after every event, one writer at a time): a fight started in the terminal continues
in the browser and back. The server listens on 127.0.0.1 unless ``--host`` names another
address; a non-local address is only ever used when given so.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated

import typer

from tactica.cli.app import app
from tactica.cli.common import console
from tactica.cli.play_cmd import open_fight
from tactica.errors import TacticaError

__all__ = ["check_host", "serve"]

LOCAL = "127.0.0.1"


def check_host(host: str) -> bool:
    """True if ``host`` is a loopback address; a TacticaError if it is not an IP address
    (or ``localhost``): a name could resolve anywhere."""
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        raise TacticaError(f"--host: expected an IP address such as 127.0.0.1 (this machine "
                           f"only) or 0.0.0.0 (every network), got {host!r}") from None
    return address.is_loopback


@app.command()
def serve(
    scenario: Annotated[Path | None, typer.Argument(help="A scenario file (with --resume: only if the log's own cannot be found).")] = None,
    log: Annotated[Path | None, typer.Option("--log", "-l", help="Where to log a new fight (default: SCENARIO's name + .log.jsonl, here).")] = None,
    resume: Annotated[Path | None, typer.Option("--resume", metavar="LOG", help="Continue the fight in LOG where it stopped.")] = None,
    computer: Annotated[list[str] | None, typer.Option("--computer", "-c", help="The computer plays SIDE (greedy), or SIDE=POLICY (repeatable).")] = None,
    auto_dice: Annotated[bool, typer.Option("--auto-dice", help="Roll every die virtually instead of asking.")] = False,
    seed: Annotated[int | None, typer.Option("--seed", "-s", min=0, help="Seed of the virtual dice and the computer's choices (recorded in the log).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable; not with --resume).")] = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on: 127.0.0.1 (default) is this machine only; 0.0.0.0 lets the whole network in.")] = LOCAL,
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help="The port (0: any free one).")] = 8000,
) -> None:
    """Run a fight in the browser: the map, the units, sight and odds by clicking two units,
    actions and dice by clicking (or typing the dice rolled); saved after every event, so
    --resume LOG continues it here or in tactica play."""
    local = check_host(host)
    try:
        import uvicorn

        from tactica.web.app import create_app
    except ImportError as exc:
        raise TacticaError(f"tactica serve needs the web extra ({exc.name} is missing): "
                           "pip install 'tactica[web]'") from None
    controller = open_fight(scenario, log=log, resume=resume, computer=computer,
                            auto_dice=auto_dice, seed=seed, rulings=rulings)
    allowed = ["127.0.0.1", "localhost", "[::1]", "::1"] if local else None
    web = create_app(controller, allowed_hosts=allowed)
    shown = f"[{host}]" if ":" in host else host
    console.print(f"{controller.scenario.name}: http://{shown}:{port}/ (log "
                  f"{controller.log_path}; Ctrl-C stops, --resume continues)",
                  markup=False, highlight=False)
    if not local:
        console.print(f"warning: listening on {host}: anyone who reaches this machine can "
                      "play this fight", markup=False, highlight=False)
    try:
        uvicorn.run(web, host=host, port=port, log_level="warning",
                    timeout_graceful_shutdown=2)
    finally:
        web.state.fight.closed = True
        controller.close()
