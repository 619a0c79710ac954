"""The `pnpgen` command."""
from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

from generator import __version__
from generator.errors import InputError

COMMANDS = ["build", "validate", "components", "list", "new", "i18n", "export", "rules", "serve", "watch"]


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="pnpgen", description="Print-and-play component generator: YAML card databases to print-ready PDFs.")
    root.add_argument("--version", action="version", version=f"pnpgen {__version__}")
    subparsers = root.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"generator.commands.{name}").register(subparsers)
    return root


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return 2
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    try:
        return args.run(args)
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
