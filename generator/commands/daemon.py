"""`pnpgen daemon`: the resident server that makes repeated commands start warm (see generator.daemon)."""

from __future__ import annotations

import sys

from generator import daemon
from generator.commands import COMMANDS, runner


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "daemon",
        help="start, stop or show the resident server that makes rebuilds fast",
        description=f"pnpgen {resident_names()} run in a resident server when one is ready: it keeps pnpgen, "
        "WeasyPrint and the fonts loaded and runs each command in a fresh fork, so a rebuild after a small edit "
        "takes a fraction of a second. The first command starts one in the background (not when CI is set); it "
        f"stops after {daemon.IDLE_SECONDS // 60} idle minutes or when pnpgen, WeasyPrint or the fonts change. "
        "PNPGEN_DAEMON=0 turns it off.",
    )
    parser.add_argument(
        "action",
        choices=["start", "stop", "status"],
        help="start one now and wait until it is ready, stop every one, or list them",
    )
    parser.add_argument("--foreground", action="store_true", help="run the server in this process")
    parser.set_defaults(run=run)


def resident_names() -> str:
    """`build, validate, ... and rules`: the commands that run in the server."""
    names = [command.name for command in COMMANDS if command.resident]
    return ", ".join(names[:-1]) + " and " + names[-1]


def run(args) -> int:
    if args.action == "stop":
        print(f"stopped {daemon.stop_all()} pnpgen server(s)")
        return 0
    if args.action == "status":
        return status()
    if not daemon.enabled():
        print("error: PNPGEN_DAEMON=0 turns the server off; unset it to start one", file=sys.stderr)
        return 2
    if args.foreground:
        return daemon.serve(runner.run_here, runner.warm_up)
    server = daemon.spawn()
    if server is None:
        print(
            "error: no server can be started for this pnpgen: a Python started without the current folder and "
            "PYTHONPATH would not find it (pnpgen run from a source folder); install it (`pip install .`, or "
            "`pip install -e .`), or run `pnpgen daemon start --foreground`",
            file=sys.stderr,
        )
        return 1
    if not daemon.wait_until_ready(server):
        why = daemon.failed_start() or "it did not answer within 30 s"
        print(
            f"error: the pnpgen server did not start: {why}; `pnpgen daemon start --foreground` shows why",
            file=sys.stderr,
        )
        return 1
    print(f"pnpgen server ready: {daemon.socket_path()}")
    return 0


def status() -> int:
    current = daemon.socket_path()
    found = daemon.servers()
    for path, pid in found:
        state = "current" if path == current else "stale (pnpgen, WeasyPrint or the fonts changed)"
        print(f"pid {pid}  {path}  {state}")
    if not found:
        print("no pnpgen server running")
    return 0
