"""The `pnpgen` command."""

from __future__ import annotations

import atexit
import os
import sys

from generator import commands, daemon  # only these on the way to a server: it has the rest loaded


def main(argv: list[str] | None = None) -> int:
    """`pnpgen ARGS`: in a resident server when one is ready (see generator.daemon), else here.

    Run as the program (no argv given: not a test's or a script's call), a command that renders first starts
    the process its render workers are forked from, before it imports anything heavy (see generator.processes),
    and the process leaves without tearing its heap down when the command is done (see leave)."""
    program = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if daemon.wanted(argv, commands.RESIDENT):
        try:
            code = daemon.run_remote(argv)
        except daemon.ServerLost as lost:
            print(f"error: {lost}; run the command again (PNPGEN_DAEMON=0 runs it without a server)", file=sys.stderr)
            return 1
        if code is not None:
            return code
        code = _run_here(program, argv)
        daemon.start_in_background()
    else:
        code = _run_here(program, argv)
    if program:
        leave(code)
    return code


def _run_here(program: bool, argv: list[str]) -> int:
    start_workers_early(program, argv)
    from generator.commands import runner  # not before a server is asked: it has this loaded

    return runner.run_here(argv)


def start_workers_early(program: bool, argv: list[str]) -> None:
    if program and argv and argv[0] in commands.RENDERING and "-h" not in argv and "--help" not in argv:
        from generator import processes  # not before a server is asked: it imports signal

        processes.start_fork_server()


def leave(code: int) -> None:
    """End the process when Python has run its exit handlers (atexit's, threading's) and flushed the output,
    without the teardown that follows: the objects of the command (the game, WeasyPrint's modules) are not
    freed one by one and collected, as Python does on exit (0.04 s of a cold build); the system takes the memory
    back at once. The caller returns `code` and Python exits as usual, until the handler below."""
    global _leaving_with
    _leaving_with = code


_leaving_with: int | None = None  # set by leave(): the code this process ends with, at its last exit handler


def _end_before_teardown() -> None:
    if _leaving_with is None:  # not run as the program (a test, a script): Python ends as it would
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (output piped into `head`): nothing more to say
            pass
    os._exit(_leaving_with)


# atexit runs its handlers in the reverse order of registration. This one is registered as pnpgen's entry point
# is imported, before anything that registers one (logging, multiprocessing, WeasyPrint): it runs last.
atexit.register(_end_before_teardown)
