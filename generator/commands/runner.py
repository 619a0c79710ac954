"""Running a `pnpgen` command line in this process: the parser of every command, errors as messages.

`pnpgen` (generator/cli.py) calls run_here when no resident server takes the command; a server
(generator/daemon.py) calls it in the fork that runs each command, after warm_up.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import TYPE_CHECKING

from generator import __version__
from generator.commands import NAMES

if TYPE_CHECKING:
    import argparse

    from generator.commands.parsing import CommandParser


def parser() -> CommandParser:
    """The command line parser, with every command's options (built once: a server's forks reuse it)."""
    return _parser(NAMES)


def parser_for(argv: list[str]) -> argparse.ArgumentParser:
    """The parser for argv: when it starts with a command, one that knows that command only, so that
    running it imports its own module, not every command's; otherwise (no command, --help, --version, a
    mistyped command) the whole parser. A command's own options, help and errors are the same in both."""
    if argv and argv[0] in NAMES and _parser.cache_info().currsize == 0:
        return _parser((argv[0],))
    return parser()


@functools.lru_cache(maxsize=2)
def _parser(commands: tuple[str, ...]) -> CommandParser:
    import importlib

    from generator.commands.parsing import CommandParser

    root = CommandParser(
        prog="pnpgen", description="Print-and-play component generator: YAML card databases to print-ready PDFs."
    )
    root.add_argument("--version", action="version", version=f"pnpgen {__version__}")
    subparsers = root.add_subparsers(dest="command", metavar="COMMAND")
    for name in commands:
        importlib.import_module(f"generator.commands.{name}").register(subparsers)
    return root


def run_here(argv: list[str]) -> int:
    import logging

    from generator import heap, interrupts, processes
    from generator.errors import InputError, capped

    with heap.long_lived():  # the modules the parser imports live as long as the command: no collection walks them
        args = parser_for(argv).parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return 2
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    weasy_patches = sys.modules.get("generator.render.weasy.patches")
    if weasy_patches is not None:  # loaded before this command (a resident server's): warn this command's caller
        weasy_patches.warn_again()
    try:
        with interrupts.recorded():
            code = args.run(args)
            interrupts.raise_if_pending()
        return code
    except InputError as error:
        for problem in capped(error.problems):
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
        processes.stop_fork_server()
        heap.thaw()  # what a command froze (generator/heap.py) is collectable again in a process that goes on


def render_sample_page() -> None:
    """Lay out and write a page of Japanese and English text, bold, serif and hyphenated: fontconfig, the fonts,
    the hyphenation dictionary and the PDF writer are loaded and in use afterwards."""
    from generator.render import fonts, weasy

    weasyprint = weasy.load()
    sample = (
        f'<html lang="en"><head><style>{fonts.font_face_css()}</style></head>'
        '<body style="font-family: Noto Sans CJK JP; hyphens: auto">'
        '<p>Draw one card, then hyphenation.</p><p lang="ja">カードを1枚引く。</p>'
        '<p style="width: 3em">Hyphenation</p>'  # a word too long for its line: the dictionary is loaded
        '<p style="font-weight: bold">報酬</p><p style="font-family: Noto Serif CJK JP">明朝</p></body></html>'
    )
    weasy.SharedFonts(weasyprint.HTML(string=sample)).render().write_pdf()  # the forks' fonts, opened here


def warm_up() -> None:
    """Import every command and WeasyPrint, compile pnpgen's own templates, and lay out Japanese and English
    text once, so that fontconfig, the fonts and the hyphenation dictionary are loaded before the first
    request forks."""
    import gc

    from generator import heap
    from generator.render import batches, memo, templating

    parser()
    memo.code_fingerprint()  # pnpgen's code as the face keys know it: the server's own (see daemon.fingerprint)
    batches.renderer_fingerprint()  # and WeasyPrint's version, read from its metadata (a few ms), and the fonts
    templating.compile_builtin()
    render_sample_page()
    gc.collect()
    heap.freeze()  # children share these pages instead of copying them when the collector visits them
