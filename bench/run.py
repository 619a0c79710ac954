"""`make bench`: pnpgen against protograf and a ReportLab floor on the same deck, in one run.

Measures (wall seconds, median of 3, and the peak memory of the whole process tree):
  cold        the 300-card benchmark deck (100 distinct x 3), A4 with crop marks, nothing built before and no
              pnpgen server running (PNPGEN_DAEMON=0)
  warm        the same after one card's text changed (face cache kept), with the pnpgen server that the
              previous build leaves running (see generator/daemon.py); its memory counts in the peak
  warm_alone  the same without a server: a whole new process
  protograf   the same deck made by protograf (installed in bench/.venv-protograf)
  reportlab   the same deck drawn by a minimal ReportLab program (the floor)
  kits_cold   every seed kit, empty cache, no server;  kits_warm: again with nothing changed, with the server
              (kits_warm_alone: without)
Prints a table with the ratios and writes output/bench.json.
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from deck import write_csv, write_pnpgen_game  # noqa: E402

PYTHON = sys.executable
PEER_VENV = HERE / ".venv-protograf"
RUNS = 3


def tree_memory_mb(pid: int) -> tuple[float, float]:
    """Memory of a process and all its descendants, in MB: the sum of their proportional set sizes (PSS),
    so pages that forked workers share with their parent count once; and the anonymous part of it (heap),
    which leaves out file pages such as the memory-mapped CJK fonts (page cache the system can drop)."""
    total = anon = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                    elif line.startswith("Pss_Anon:"):
                        anon += int(line.split()[1])
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    stack += [int(c) for c in children.read().split()]
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
    return total / 1024, anon / 1024


def server_pids(env: dict) -> list[int]:
    """The pnpgen servers of this benchmark's private runtime folder (their memory counts as ours)."""
    status = subprocess.run([PYTHON, "-m", "generator", "daemon", "status"], env={**os.environ, **env},
                            capture_output=True, text=True).stdout
    return [int(line.split()[1]) for line in status.splitlines() if line.startswith("pid ")]


def timed(command: list[str], env: dict | None = None) -> tuple[float, float, float]:
    """Wall seconds, peak tree memory and peak anonymous memory (MB, sampled every 20 ms) of one command,
    with the pnpgen server's process tree added when one is running."""
    servers = server_pids(env) if env and env.get("PNPGEN_DAEMON") == "1" else []
    peak = [0.0, 0.0]
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    done = threading.Event()

    def sample():
        while not done.is_set():
            total = anon = 0.0
            for pid in [process.pid, *servers]:
                tree_total, tree_anon = tree_memory_mb(pid)
                total, anon = total + tree_total, anon + tree_anon
            peak[0], peak[1] = max(peak[0], total), max(peak[1], anon)
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = process.communicate()
    elapsed = time.perf_counter() - start
    done.set()
    sampler.join()
    if process.returncode:
        raise SystemExit(f"failed: {' '.join(command)}\n{err.decode()}")
    return elapsed, peak[0], peak[1]


def median_of(label: str, prepare, command_for, env: dict | None = None) -> tuple[float, float, float]:
    times, peaks, anons = [], [], []
    for run in range(RUNS):
        prepare(run)
        elapsed, peak, anon = timed(command_for(run), env)
        times.append(elapsed)
        peaks.append(peak)
        anons.append(anon)
        print(f"  {label} run {run + 1}: {elapsed:.2f} s, {peak:.0f} MB ({anon:.0f} MB anonymous)",
              file=sys.stderr, flush=True)
    return statistics.median(times), max(peaks), max(anons)


def ensure_protograf() -> Path:
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        print("installing protograf into bench/.venv-protograf ...", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "protograf"], check=True)
    return python


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="pnpgen-bench-"))
    out = work / "out"
    pnpgen = [PYTHON, "-m", "generator", "build", "--paper", "a4", "--out", str(out), "-q"]
    runtime = Path(tempfile.mkdtemp(prefix="pnb"))  # a private folder: only this run's server is measured
    alone = {"PNPGEN_DAEMON": "0", "XDG_RUNTIME_DIR": str(runtime)}
    served = {"PNPGEN_DAEMON": "1", "XDG_RUNTIME_DIR": str(runtime)}
    results = {}
    try:
        game = write_pnpgen_game(work)
        print("benchmark deck: 300 cards (100 distinct x 3), A4, crop marks", file=sys.stderr)
        results["cold"] = median_of("pnpgen cold", lambda run: shutil.rmtree(out, ignore_errors=True),
                                    lambda run: pnpgen + [str(game)], alone)
        start_server(served)
        # warm: each run changes the first card's text to something new, then rebuilds with the cache
        results["warm"] = median_of("pnpgen warm (one card edited, server running)",
                                    lambda run: write_pnpgen_game(work, edit=f"Edited text, version {run}."),
                                    lambda run: pnpgen + [str(game)], served)
        results["warm_alone"] = median_of("pnpgen warm (one card edited, no server)",
                                          lambda run: write_pnpgen_game(work, edit=f"Edited again, version {run}."),
                                          lambda run: pnpgen + [str(game)], alone)
        floor_pdf = work / "floor.pdf"
        results["reportlab"] = median_of("ReportLab floor", lambda run: None,
                                         lambda run: [PYTHON, str(HERE / "reportlab_floor.py"), str(floor_pdf)])
        peer = ensure_protograf()
        csv_file = write_csv(work / "deck.csv")
        results["protograf"] = median_of("protograf", lambda run: None,
                                         lambda run: [str(peer), str(HERE / "protograf_deck.py")],
                                         env={"BENCH_CSV": str(csv_file), "BENCH_OUT": str(work / "protograf.pdf")})
        kits = [PYTHON, "-m", "generator", "build", "--out", str(work / "kits"), "-q"]
        results["kits_cold"] = median_of("seed kits cold",
                                         lambda run: shutil.rmtree(work / "kits", ignore_errors=True),
                                         lambda run: kits, alone)
        results["kits_warm"] = median_of("seed kits warm (nothing changed, server running)", lambda run: None,
                                         lambda run: kits, served)
        results["kits_warm_alone"] = median_of("seed kits warm (nothing changed, no server)", lambda run: None,
                                               lambda run: kits, alone)
    finally:
        subprocess.run([PYTHON, "-m", "generator", "daemon", "stop"], env={**os.environ, **served},
                       capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(runtime, ignore_errors=True)
    report(results)
    return 0


def start_server(env: dict) -> None:
    """The server a first build leaves behind, started explicitly so that every warm run finds it ready."""
    subprocess.run([PYTHON, "-m", "generator", "daemon", "start"], env={**os.environ, **env}, check=True,
                   stdout=subprocess.DEVNULL)


def report(results: dict) -> None:
    seconds = {k: v[0] for k, v in results.items()}
    ours = [v for k, v in results.items() if k not in ("protograf", "reportlab")]
    peak, peak_anon = max(v[1] for v in ours), max(v[2] for v in ours)
    ratios = {
        "cold / protograf": (seconds["cold"] / seconds["protograf"], 0.5),
        "cold / reportlab floor": (seconds["cold"] / seconds["reportlab"], 2.0),
        "warm / cold": (seconds["warm"] / seconds["cold"], 0.15),
    }
    print("\n| measure | seconds (median of 3) | peak MB (PSS) | of it anonymous |\n|---|---|---|---|")
    for key, (value, mb, anon) in results.items():
        print(f"| {key} | {value:.2f} | {mb:.0f} | {anon:.0f} |")
    print("\n| ratio | value | target | met |\n|---|---|---|---|")
    for name, (value, target) in ratios.items():
        print(f"| {name} | {value:.2f} | <= {target} | {'yes' if value <= target else 'NO'} |")
    print(f"| (warm without a server) / cold | {seconds['warm_alone'] / seconds['cold']:.2f} | | |")
    absolute = {"warm under 1 s": seconds["warm"] < 1.0, "kits warm under 2 s": seconds["kits_warm"] < 2.0,
                "peak under 500 MB": peak < 500}
    for name, met in absolute.items():
        print(f"| {name} | | | {'yes' if met else 'NO'} |")
    data = {"cold_s": seconds["cold"], "warm_s": seconds["warm"], "protograf_s": seconds["protograf"],
            "reportlab_s": seconds["reportlab"], "kits_cold_s": seconds["kits_cold"],
            "kits_warm_s": seconds["kits_warm"], "peak_mb": round(peak, 1),
            "warm_alone_s": seconds["warm_alone"], "kits_warm_alone_s": seconds["kits_warm_alone"],
            "peak_anon_mb": round(peak_anon, 1),
            "ratios": {k: round(v[0], 3) for k, v in ratios.items()}, "cores": os.cpu_count(),
            "date": time.strftime("%Y-%m-%d %H:%M")}
    path = ROOT / "output" / "bench.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")
    print(f"\nwrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
