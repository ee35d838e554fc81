"""``tactica serve SCENARIO|--resume LOG``: the game master's assistant as a local web page.

The page plays the same fight as ``tactica play``, through the same controller and the same
log (saved after every event, one writer at a time): a fight started in the terminal continues
in the browser and back. The server listens on 127.0.0.1 unless ``--host`` names another
address; a non-local address is only ever used when given so.

The address is bound first: a busy port or an address this machine does not have is one
``error:`` line (exit 2) and no log is created. The server answers its owner only
(:mod:`tactica.web.guard`): the URL it prints carries this launch's token, and requests must
name it by one of its own names (the address it listens on, ``localhost``, ``127.0.0.1`` and
every ``--allow-host``, with the port).
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated

import typer

from tactica.cli.app import app
from tactica.cli.common import console
from tactica.cli.play_cmd import open_fight
from tactica.engine.errors import TacticaError

__all__ = ["check_host", "host_names", "serve"]

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


def host_names(host: str, port: int, extra: list[str]) -> list[str]:
    """The Host headers the server answers to: ``host``, ``localhost``, ``127.0.0.1`` and the
    ``extra`` names, each with the port (and without it on port 80, as browsers send it)."""
    names: list[str] = []
    for name in [host, "localhost", LOCAL, *extra]:
        shown = f"[{name}]" if ":" in name and not name.startswith("[") else name
        for item in ([f"{shown}:{port}", shown] if port == 80 else [f"{shown}:{port}"]):
            if item.lower() not in names:
                names.append(item.lower())
    return names


def _check_name(name: str) -> str:
    if not name or len(name) > 253 or not all(c.isalnum() or c in ".-:[]" for c in name):
        raise TacticaError(f"--allow-host: expected a host name or an IP address, got "
                           f"{name[:80]!r}")
    return name


@app.command()
def serve(
    scenario: Annotated[Path | None, typer.Argument(help="A scenario file (with --resume: only if the log's own cannot be found).")] = None,
    log: Annotated[Path | None, typer.Option("--log", "-l", help="Where to log a new fight (default: SCENARIO's name + .log.jsonl, here).")] = None,
    resume: Annotated[Path | None, typer.Option("--resume", metavar="LOG", help="Continue the fight in LOG where it stopped.")] = None,
    computer: Annotated[list[str] | None, typer.Option("--computer", "-c", help="The computer plays SIDE (greedy), or SIDE=POLICY (repeatable).")] = None,
    auto_dice: Annotated[bool, typer.Option("--auto-dice", help="Roll every die virtually instead of asking.")] = False,
    seed: Annotated[int | None, typer.Option("--seed", "-s", min=0, help="Seed of the virtual dice and the computer's choices (recorded in the log).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable; not with --resume).")] = None,
    accept_old_log: Annotated[bool, typer.Option("--accept-old-log", help="Continue a version 1 log (tactica 0.2.0 and earlier), whose header has no check.")] = False,
    host: Annotated[str, typer.Option("--host", help="The address to listen on: 127.0.0.1 (default) is this machine only; 0.0.0.0 lets the whole network in.")] = LOCAL,
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help="The port (0: any free one; the URL printed shows it).")] = 8000,
    allow_host: Annotated[list[str] | None, typer.Option("--allow-host", metavar="NAME", help="Another name the page may be opened by (this machine's name or address on the network; repeatable).")] = None,
) -> None:
    """Run a fight in the browser: the map, the units, sight and odds by clicking two units,
    actions and dice by clicking (or typing the dice rolled); saved after every event, so
    --resume LOG continues it here or in tactica play. Open the URL it prints: its token lets
    only you in."""
    local = check_host(host)
    extra = [_check_name(n) for n in allow_host or []]
    try:
        import uvicorn  # noqa: F401

        from tactica.web.app import create_app
        from tactica.web.guard import new_token, owner_check
        from tactica.web.listen import listen, run
    except ImportError as exc:
        raise TacticaError(f"tactica serve needs the web extra ({exc.name} is missing): "
                           "pip install 'tactica[web]'") from None
    sock = listen(host, port)  # before the log: a busy port leaves nothing behind
    try:
        controller = open_fight(scenario, log=log, resume=resume, computer=computer,
                                auto_dice=auto_dice, seed=seed, rulings=rulings,
                                command="serve", accept_old_log=accept_old_log)
    except BaseException:
        sock.close()
        raise
    port = int(sock.getsockname()[1])
    token = new_token()
    web = create_app(controller, token=token, allowed_hosts=host_names(host, port, extra))
    unspecified = ipaddress.ip_address("127.0.0.1" if host == "localhost" else host
                                       ).is_unspecified
    shown = LOCAL if unspecified else (f"[{host}]" if ":" in host else host)

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)

    say(f"{controller.scenario.name}: log {controller.log_path} (Ctrl-C stops, --resume "
        "continues); open")
    say(f"http://{shown}:{port}/?token={token}")
    if not local:
        say(f"warning: listening on {host}: anyone who reaches this machine and has the URL's "
            "token can play this fight; to open it from another machine, start it with "
            "--allow-host and the name or address that machine uses")
    try:
        run(web, sock, owner=owner_check(token))
    finally:
        web.state.fight.closed = True
        web.state.fight.controller.close()
        sock.close()
