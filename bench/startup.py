"""What starting a one-shot pnpgen command costs, in several checkouts side by side.

    python bench/startup.py [--runs N] CHECKOUT [CHECKOUT ...]

Each CHECKOUT is a folder of pnpgen with its own .venv (`make setup` there; a plain copy of another commit:
`git archive COMMIT | tar -x -C DIR`). For each command below, the checkouts take turns N times (21), so that a
busy spell slows each of them alike; prints the median wall and CPU milliseconds of each. The CPU is the
command's own and that of every process it waited for (its fork server and render workers), not the server's:
of a served command it is what its small client costs. Without a server: `pnpgen --help`, `list`, `validate
ikkin` and `build ikkin` with nothing to do (the kit built once before into a temporary folder); then `list`,
`validate` and `build` again through a server of each checkout's own, started first, in a private runtime folder
that is removed afterwards with its servers. On a shared machine, trust the CPU column and ratios over the wall
times.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

COMMANDS = [  # (name, arguments, whether through the server)
    ("--help", ["--help"], False),
    ("list", ["list"], False),
    ("validate ikkin", ["validate", "ikkin", "--quiet"], False),
    ("build ikkin (nothing to do)", ["build", "ikkin", "--lang", "en", "--paper", "a4", "--quiet"], False),
    ("served list", ["list"], True),
    ("served validate ikkin", ["validate", "ikkin", "--quiet"], True),
    ("served build ikkin (nothing to do)", ["build", "ikkin", "--lang", "en", "--paper", "a4", "--quiet"], True),
]


def run(checkout: Path, args: list[str], served: bool, work: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one command; a build writes into the checkout's own folder in work."""
    if args[0] == "build":
        args = [*args, "--out", str(work / "out" / checkout.name)]
    env = {**os.environ, "PNPGEN_DAEMON": "1" if served else "0", "XDG_RUNTIME_DIR": str(work / "runtime")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([checkout / ".venv" / "bin" / "pnpgen", *args], cwd=checkout, env=env, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 and args[0] != "daemon":
        raise SystemExit(f"{checkout}: pnpgen {' '.join(args)} failed:\n{done.stderr.decode(errors='replace')}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path, metavar="CHECKOUT", help="a folder of pnpgen with a .venv")
    parser.add_argument("--runs", type=int, default=21, help="turns of each command in each checkout (median)")
    args = parser.parse_args()
    checkouts = [checkout.resolve() for checkout in args.checkouts]
    if len({checkout.name for checkout in checkouts}) < len(checkouts):
        parser.error("give checkouts of different folder names (their builds are written under those names)")
    work = Path(tempfile.mkdtemp(prefix="pnpgen-startup-"))  # only this user's: the servers' runtime folder too
    (work / "runtime").mkdir(mode=0o700)
    times: dict[tuple[str, Path], list[tuple[float, float]]] = {}
    try:
        for checkout in checkouts:  # each server started, the kit built and its files in the system's cache
            run(checkout, ["daemon", "start"], True, work)
            for _, argv, served in COMMANDS:
                run(checkout, argv, served, work)
        for turn in range(args.runs):
            for name, argv, served in COMMANDS:
                for checkout in checkouts if turn % 2 == 0 else checkouts[::-1]:
                    times.setdefault((name, checkout), []).append(run(checkout, argv, served, work))
    finally:
        for checkout in checkouts:
            run(checkout, ["daemon", "stop"], True, work)  # the servers of the private runtime folder only
        shutil.rmtree(work, ignore_errors=True)
    print(f"medians of {args.runs} turns; 1-minute load average {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    print("| command | " + " | ".join(f"{checkout.name}: wall ms | CPU ms" for checkout in checkouts) + " |")
    print("|---|" + "---|---|" * len(checkouts))
    for name, _, _ in COMMANDS:
        cells = [
            f"{statistics.median(w for w, _ in runs) * 1000:.1f} | {statistics.median(c for _, c in runs) * 1000:.1f}"
            for runs in (times[name, checkout] for checkout in checkouts)
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
