"""The `pnpgen` command."""
from __future__ import annotations

import functools
import os
import sys

from generator import __version__, daemon  # only these on the way to a server: it has the rest loaded

COMMANDS = ["build", "validate", "components", "list", "new", "i18n", "export", "rules", "serve", "watch", "table",
            "schema", "daemon"]


@functools.lru_cache(maxsize=1)
def parser() -> "argparse.ArgumentParser":
    """The command line parser, with every command's options (built once: a server's forks reuse it)."""
    import argparse
    import importlib

    root = argparse.ArgumentParser(
        prog="pnpgen", description="Print-and-play component generator: YAML card databases to print-ready PDFs.")
    root.add_argument("--version", action="version", version=f"pnpgen {__version__}")
    subparsers = root.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"generator.commands.{name}").register(subparsers)
    return root


def main(argv: list[str] | None = None) -> int:
    """`pnpgen ARGS`: in a resident server when one is ready (see generator.daemon), else here."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if daemon.wanted(argv):
        try:
            code = daemon.run_remote(argv)
        except daemon.ServerLost as lost:
            print(f"error: {lost}; run the command again (PNPGEN_DAEMON=0 runs it without a server)",
                  file=sys.stderr)
            return 1
        if code is not None:
            return code
        code = run_here(argv)
        daemon.start_in_background()
        return code
    return run_here(argv)


def run_here(argv: list[str]) -> int:
    import logging

    from generator import interrupts
    from generator.errors import InputError

    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return 2
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    try:
        with interrupts.recorded():
            code = args.run(args)
            interrupts.raise_if_pending()
        return code
    except InputError as error:
        for problem in error.problems:
            print(f"error: {problem}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        pipeline = sys.modules.get("generator.render.pipeline")
        if pipeline is not None:
            pipeline.close_pool()
