"""The `pnpgen` command."""

from __future__ import annotations

import sys

from generator import daemon  # only this on the way to a server: it has the rest loaded


def main(argv: list[str] | None = None) -> int:
    """`pnpgen ARGS`: in a resident server when one is ready (see generator.daemon), else here."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if daemon.wanted(argv):
        try:
            code = daemon.run_remote(argv)
        except daemon.ServerLost as lost:
            print(f"error: {lost}; run the command again (PNPGEN_DAEMON=0 runs it without a server)", file=sys.stderr)
            return 1
        if code is not None:
            return code
        code = _run_here(argv)
        daemon.start_in_background()
        return code
    return _run_here(argv)


def _run_here(argv: list[str]) -> int:
    from generator.commands import runner  # not before a server is asked: it has this loaded

    return runner.run_here(argv)
