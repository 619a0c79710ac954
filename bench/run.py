"""`make bench`: pnpgen against a WeasyPrint floor, protograf and a ReportLab anchor, and on a large game.

    python bench/run.py [--only small,kits,large,art,rules] [--cards N] [--runs N]

Measures (wall seconds and CPU seconds, medians of --runs (3), and the peak memory of the whole process tree):
  small       the 300-card benchmark deck (100 distinct faces x 3), A4 with crop marks:
    cold        pnpgen with nothing built before and no server running (PNPGEN_DAEMON=0): imposition,
                marks and labels included
    weasyprint  the same 100 faces laid out by the smallest WeasyPrint program (bench/weasyprint_floor.py):
                the floor pnpgen's cold build is held to
    reportlab   the deck drawn by a minimal ReportLab program in the same font (the physical anchor: no
                layout engine; no target)
    protograf   the deck made by protograf (installed in bench/.venv-protograf)
    warm        the same after one card's text changed (face cache kept), with the pnpgen server that the
                previous build leaves running (see generator/daemon.py); its memory counts in the peak
    warm_alone  the same without a server: a whole new process
  kits        every seed kit: kits_cold (empty cache, no server), kits_warm (nothing changed, with the server),
              kits_warm_alone (without)
  large       a generated game of --cards (20,000) distinct cards in Japanese and English on A4 and Letter
              (bench/large_game.py, written into the temporary folder, never stored): large_cold once (no
              server, empty cache), then large_warm --runs times, each after one card's English text changed
              (with the server, as warm); large_peak_mb is the peak of both. Right after large_cold the small deck is
              built cold again (cold_after_large, as many runs as cold): the large game's per-face cost is
              compared with the mean of the deck's before and after, so that a machine whose speed drifts
              during the long run weighs on both sides alike
  art         the benchmark deck with a distinct 2,000 x 2,800 px JPEG over each card's face and bleed
              (bench/art.py): art_cold beside art_plain_cold (the deck without them) and art_floor (one Python
              process opening each picture with Pillow and resizing it to its printed size at 350 dpi,
              bench/art_floor.py), in turns; then art_warm after one card's text changed (with the server).
              art_pdf_mb is the card sheets' file, art_pictures_mb the pictures downsampled as pnpgen embeds them
  rules       a one-word edit of Greed Inc's rule sheet (bench/rules_edit.py): rules_cold_s (all six editions,
              empty cache, no server), then in `pnpgen serve` English and Japanese edits in turns, a new word each:
              rules_edit_block_s (the block alone at its column width), rules_edit_first_s (the edited language's
              A4 edition), rules_edit_all_s (every edition printing it); rules_build_edit_s (`pnpgen rules` after
              such an edit, with the pnpgen server)
The cold runs of the small deck, the floors and protograf take turns, so that a busy machine slows them alike.
Prints every measure, the ratios with their targets, and writes output/bench.json (a run of some parts with
--only writes output/bench-PART[+PART].json instead, leaving the full run's figures in place).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
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
from art import downsampled_bytes, write_art_game  # noqa: E402
from deck import DISTINCT, write_csv, write_pnpgen_game  # noqa: E402
from large_game import CARDS, write_large_game  # noqa: E402
from rules_edit import copy_game, edited, measure_serve  # noqa: E402

PYTHON = sys.executable
PEER_VENV = HERE / ".venv-protograf"
PARTS = ("small", "kits", "large", "art", "rules")
LARGE_LANGUAGES = 2  # ja and en: every card a front of its own in each, one back per language


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
    status = subprocess.run(
        [PYTHON, "-m", "generator", "daemon", "status"], env={**os.environ, **env}, capture_output=True, text=True
    ).stdout
    return [int(line.split()[1]) for line in status.splitlines() if line.startswith("pid ")]


SAMPLE_SECONDS = 0.02  # between two samples of the memory of a command's processes, at least
SAMPLER_SHARE = 0.05  # of one core, at most, that sampling takes: the kernel walks every page of a process
# to sum its PSS (5.6 ms for a 400 MB process here), so a large game's process tree sampled every 20 ms took a
# third of a core from the build it measured (and more from pnpgen's three processes than from a floor's one)


def timed(command: list[str], env: dict | None = None) -> tuple[float, float, float, float]:
    """Wall seconds, peak tree memory and peak anonymous memory (MB, sampled every 20 ms, less often when a
    sample costs more than SAMPLER_SHARE of a core) of one command,
    with the pnpgen server's process tree added when one is running, and the CPU seconds (user and system)
    of the command and every process it waited for (not a server's: it is not the command's child)."""
    servers = server_pids(env) if env and env.get("PNPGEN_DAEMON") == "1" else []
    peak = [0.0, 0.0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    done = threading.Event()

    def sample():
        while not done.is_set():
            spent = time.thread_time()
            total = anon = 0.0
            for pid in [process.pid, *servers]:
                tree_total, tree_anon = tree_memory_mb(pid)
                total, anon = total + tree_total, anon + tree_anon
            peak[0], peak[1] = max(peak[0], total), max(peak[1], anon)
            spent = time.thread_time() - spent
            done.wait(max(SAMPLE_SECONDS, spent * (1 - SAMPLER_SHARE) / SAMPLER_SHARE))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = process.communicate()
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    done.set()
    sampler.join()
    if process.returncode:
        raise SystemExit(f"failed: {' '.join(command)}\n{err.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, peak[0], peak[1], cpu


class Series:
    """The runs of one measure: the median of their wall times, the highest of their peaks."""

    def __init__(self, label: str):
        self.label = label
        self.runs: list[tuple[float, float, float, float]] = []

    def add(self, elapsed: float, peak: float, anon: float, cpu: float) -> None:
        self.runs.append((elapsed, peak, anon, cpu))
        print(
            f"  {self.label} run {len(self.runs)}: {elapsed:.2f} s ({cpu:.2f} s CPU), {peak:.0f} MB "
            f"({anon:.0f} MB anonymous)",
            file=sys.stderr,
            flush=True,
        )

    @property
    def seconds(self) -> float:
        return statistics.median(run[0] for run in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(run[3] for run in self.runs)

    @property
    def peak(self) -> float:
        return max(run[1] for run in self.runs)

    @property
    def anon(self) -> float:
        return max(run[2] for run in self.runs)


def measure(results: dict[str, Series], key: str, label: str, command: list[str], env: dict | None = None) -> None:
    results.setdefault(key, Series(label)).add(*timed([str(part) for part in command], env))


def ensure_protograf() -> Path:
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        print("installing protograf into bench/.venv-protograf ...", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "protograf"], check=True)
    return python


def compile_bytecode() -> None:
    """pnpgen's modules compiled once, as an installed package is: with PYTHONDONTWRITEBYTECODE set, an editable
    checkout would otherwise compile every module from source at every start (WeasyPrint, protograf and
    ReportLab come compiled from their wheels)."""
    compileall.compile_dir(ROOT / "generator", quiet=1)


def parts_of(text: str) -> list[str]:
    parts = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [part for part in parts if part not in PARTS]
    if unknown or not parts:
        raise argparse.ArgumentTypeError(f"choose among {', '.join(PARTS)}, separated by commas")
    return [part for part in PARTS if part in parts]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        type=parts_of,
        default=list(PARTS),
        metavar="PART[,PART]",
        help=f"measure these parts only ({', '.join(PARTS)}; writes output/bench-PART.json)",
    )
    parser.add_argument("--cards", type=int, default=CARDS, help=f"cards of the large game (default {CARDS})")
    parser.add_argument(
        "--runs", type=int, default=3, help="runs of each small-deck, kits and large-edit measure (median)"
    )
    args = parser.parse_args(argv)
    parts = args.only
    compile_bytecode()
    work = Path(tempfile.mkdtemp(prefix="pnpgen-bench-"))
    runtime = Path(tempfile.mkdtemp(prefix="pnb"))  # a private folder: only this run's server is measured
    alone = {"PNPGEN_DAEMON": "0", "XDG_RUNTIME_DIR": str(runtime)}
    served = {"PNPGEN_DAEMON": "1", "XDG_RUNTIME_DIR": str(runtime)}
    results: dict[str, Series] = {}
    art_bytes: dict[str, int] = {}  # the art deck's PDF and its downsampled pictures, in bytes
    load = [os.getloadavg()[0]]
    try:
        if "small" in parts:
            measure_small(work, alone, served, args.runs, results)
        if "kits" in parts:
            measure_kits(work, alone, served, args.runs, results)
        if "large" in parts:
            measure_large(work, alone, served, args.cards, args.runs, results)
        if "art" in parts:
            art_bytes.update(measure_art(work, alone, served, args.runs, results))
        if "rules" in parts:
            measure_rules(work, alone, served, args.runs, results)
    finally:
        subprocess.run([PYTHON, "-m", "generator", "daemon", "stop"], env={**os.environ, **served}, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(runtime, ignore_errors=True)
    load.append(os.getloadavg()[0])
    report(results, parts, args, load, art_bytes)
    return 0


def small_build(work: Path) -> list:
    """The command that builds the benchmark deck into work/out."""
    return [PYTHON, "-m", "generator", "build", "--paper", "a4", "--out", work / "out", "-q"]


def measure_small_cold(work: Path, alone: dict, results: dict[str, Series], key: str, label: str) -> None:
    """One cold build of the benchmark deck as written (unedited), nothing built before, no server."""
    game = write_pnpgen_game(work)
    shutil.rmtree(work / "out", ignore_errors=True)
    measure(results, key, label, small_build(work) + [game], alone)


def measure_small(work: Path, alone: dict, served: dict, runs: int, results: dict[str, Series]) -> None:
    pnpgen = small_build(work)
    game = write_pnpgen_game(work)
    csv_file = write_csv(work / "deck.csv")
    peer = ensure_protograf()
    fonts = work / "fonts"
    subprocess.run([PYTHON, HERE / "reportlab_floor.py", "--prepare", fonts], check=True)
    print(f"benchmark deck: 300 cards ({DISTINCT} distinct x 3), A4, crop marks", file=sys.stderr)
    for _ in range(runs):  # in turns: a busy spell slows each of them once
        measure_small_cold(work, alone, results, "cold", "pnpgen cold")
        measure(results, "weasyprint", "WeasyPrint floor", [PYTHON, HERE / "weasyprint_floor.py", work / "w.pdf"])
        measure(results, "reportlab", "ReportLab anchor", [PYTHON, HERE / "reportlab_floor.py", work / "r.pdf", fonts])
        measure(
            results,
            "protograf",
            "protograf",
            [peer, HERE / "protograf_deck.py"],
            {"BENCH_CSV": str(csv_file), "BENCH_OUT": str(work / "protograf.pdf")},
        )
    start_server(served)
    for run in range(runs):  # each run changes the first card's text to something new, then rebuilds
        write_pnpgen_game(work, edit=f"Edited text, version {run}.")
        measure(results, "warm", "pnpgen warm (one card edited, server running)", pnpgen + [game], served)
    for run in range(runs):
        write_pnpgen_game(work, edit=f"Edited again, version {run}.")
        measure(results, "warm_alone", "pnpgen warm (one card edited, no server)", pnpgen + [game], alone)


def measure_rules(work: Path, alone: dict, served: dict, runs: int, results: dict[str, Series]) -> None:
    """Greed Inc's rule sheet: cold, then one-word edits in `pnpgen serve` and with `pnpgen rules` (rules_edit.py)."""
    rules = [PYTHON, "-m", "generator", "rules", "-q", "--out"]
    for _ in range(runs):
        game = copy_game(work)
        shutil.rmtree(work / "rules-cold", ignore_errors=True)
        cold = rules + [work / "rules-cold", game]
        measure(results, "rules_cold", "pnpgen rules, six editions, empty cache, no server", cold, alone)
    game = copy_game(work)

    def add(key: str, label: str, seconds: float) -> None:
        results.setdefault(key, Series(label)).add(seconds, 0.0, 0.0, 0.0)

    measure_serve(game, work / "rules-served", runs, add)
    start_server(served)
    out = work / "rules-built"
    subprocess.run(rules + [out, game], env={**os.environ, **served}, check=True)
    rules_file = game / "rules.yaml"
    for run in range(runs):
        lang = ("en", "ja")[run % 2]
        rules_file.write_text(edited(rules_file.read_text(encoding="utf-8"), lang, run + runs), encoding="utf-8")
        measure(results, "rules_build_edit", "pnpgen rules after a one-word edit (server)", rules + [out, game], served)


def measure_art(work: Path, alone: dict, served: dict, runs: int, results: dict[str, Series]) -> dict[str, int]:
    """The benchmark deck with a 2,000 x 2,800 px picture on each distinct card (bench/art.py), cold, beside the
    deck without pictures cold and the pictures' floor (bench/art_floor.py), in turns; then one card edited (with
    the server). Every run has its own user cache (XDG_CACHE_HOME), emptied of pictures made before a cold build.
    Returns the bytes of the PDF and of the pictures downsampled."""
    cache = work / "art-cache"
    alone, served = {**alone, "XDG_CACHE_HOME": str(cache)}, {**served, "XDG_CACHE_HOME": str(cache)}
    plain_folder, art_folder = work / "plain", work / "art"
    plain, art = write_pnpgen_game(plain_folder), write_art_game(art_folder)
    build = [PYTHON, "-m", "generator", "build", "--paper", "a4", "-q", "--out"]
    subprocess.run(build + [work / "art-warmup", plain], env={**os.environ, **alone}, check=True)  # the cache's rest
    print(f"art deck: {DISTINCT} distinct 2000 x 2800 px JPEG pictures x 3 copies, A4", file=sys.stderr)
    for _ in range(runs):
        shutil.rmtree(work / "plain-out", ignore_errors=True)
        measure(
            results,
            "art_plain_cold",
            "pnpgen cold, the deck without pictures",
            build + [work / "plain-out", plain],
            alone,
        )
        shutil.rmtree(work / "art-out", ignore_errors=True)
        shutil.rmtree(cache / "pnpgen" / "pictures", ignore_errors=True)
        measure(results, "art_cold", "pnpgen cold, the deck with pictures", build + [work / "art-out", art], alone)
        measure(results, "art_floor", "pictures' floor (open and resize)", [PYTHON, HERE / "art_floor.py", art / "art"])
    pdf = next((work / "art-out").rglob("cards-*.pdf"))
    sizes = {"pdf": pdf.stat().st_size, "pictures": downsampled_bytes(art / "art")}
    start_server(served)
    for run in range(runs):
        write_art_game(art_folder, edit=f"Edited text, version {run}.")
        measure(
            results,
            "art_warm",
            "pnpgen with pictures, one card edited (server)",
            build + [work / "art-out", art],
            served,
        )
    return sizes


def measure_kits(work: Path, alone: dict, served: dict, runs: int, results: dict[str, Series]) -> None:
    kits = [PYTHON, "-m", "generator", "build", "--out", work / "kits", "-q"]
    for _ in range(runs):
        shutil.rmtree(work / "kits", ignore_errors=True)
        measure(results, "kits_cold", "seed kits cold", kits, alone)
    start_server(served)
    for _ in range(runs):
        measure(results, "kits_warm", "seed kits warm (nothing changed, server running)", kits, served)
    for _ in range(runs):
        measure(results, "kits_warm_alone", "seed kits warm (nothing changed, no server)", kits, alone)


def measure_large(work: Path, alone: dict, served: dict, cards: int, runs: int, results: dict[str, Series]) -> None:
    """The large game built once cold, then `runs` times after one card's English text changed, with the
    server."""
    folder = work / "large"
    build = [PYTHON, "-m", "generator", "build", "--out", work / "large-out", "-q"]
    game = write_large_game(folder, cards)
    print(
        f"large game: {cards} cards, ja and en, A4 and Letter ({large_faces(cards)} distinct faces)",
        file=sys.stderr,
        flush=True,
    )
    measure(results, "large_cold", "large game cold", build + [game], alone)
    if "cold" in results:  # the per-face baseline again, in the conditions the large game just had
        for _ in range(len(results["cold"].runs)):
            measure_small_cold(work, alone, results, "cold_after_large", "pnpgen cold, again after the large game")
    start_server(served)
    for run in range(runs):  # each run gives one card a new text; the median, as for the deck's edits
        write_large_game(folder, cards, edit=f"One card's text, edited for the benchmark ({run + 1}).")
        measure(results, "large_warm", "large game, one card edited (server running)", build + [game], served)


def large_faces(cards: int) -> int:
    """The distinct faces of the large game: each card's front in each language, and one back per language."""
    return LARGE_LANGUAGES * (cards + 1)


def start_server(env: dict) -> None:
    """The server a first build leaves behind, started explicitly so that every warm run finds it ready."""
    subprocess.run(
        [PYTHON, "-m", "generator", "daemon", "start"], env={**os.environ, **env}, check=True, stdout=subprocess.DEVNULL
    )


def targets(
    results: dict[str, Series], cards: int, art_bytes: dict[str, int] | None = None
) -> list[tuple[str, str, str, bool | None]]:
    """(what, value, target, met) for every ratio and limit the measured parts allow; met is None for a
    figure shown without a target."""
    s = {key: series.seconds for key, series in results.items()}
    rows: list[tuple[str, str, str, bool | None]] = []

    def at_most(name: str, value: float, limit: float, unit: str = "", strictly: bool = False) -> None:
        met = value < limit if strictly else value <= limit
        rows.append((name, f"{value:.2f}{unit}", f"{'<' if strictly else '<='} {limit:g}{unit}", met))

    if "cold" in s:
        at_most("small cold / WeasyPrint floor", s["cold"] / s["weasyprint"], 0.8)
        rows.append(
            (
                "the same in CPU time (both cores counted)",
                (
                    f"{results['cold'].cpu / results['weasyprint'].cpu:.2f} ({results['cold'].cpu:.2f} / "
                    f"{results['weasyprint'].cpu:.2f} s)"
                ),
                "none: what a busy machine sees",
                None,
            )
        )
        at_most("small cold / protograf", s["cold"] / s["protograf"], 0.35)
        rows.append(("small cold / ReportLab anchor", f"{s['cold'] / s['reportlab']:.2f}", "none (the anchor)", None))
        at_most("warm (server) / cold", s["warm"] / s["cold"], 0.15)
        at_most("warm (server)", s["warm"], 1.0, " s", strictly=True)
        rows.append(("warm without a server / cold", f"{s['warm_alone'] / s['cold']:.2f}", "none", None))
    if "art_cold" in s:
        added = s["art_cold"] - s["art_plain_cold"]
        at_most("pictures added to a cold build / their floor", added / s["art_floor"], 1.0)
        at_most("with pictures: one-card edit (server) / cold", s["art_warm"] / s["art_cold"], 0.15)
        if art_bytes:
            at_most("with pictures: PDF / the downsampled pictures", art_bytes["pdf"] / art_bytes["pictures"], 1.2)
    if "kits_warm" in s:
        at_most("kits warm (server)", s["kits_warm"], 2.0, " s", strictly=True)
    ours = [
        results[key]
        for key in ("cold", "warm", "warm_alone", "kits_cold", "kits_warm", "kits_warm_alone")
        if key in results
    ]
    if ours:
        at_most("peak, benchmark deck and kits", max(series.peak for series in ours), 500, " MB", strictly=True)
    if "large_cold" in s:
        per_face = s["large_cold"] / large_faces(cards) * 1000
        if "cold" in s:
            # the deck's cold builds before the kits and right after the large game: their mean
            each = [s[key] / DISTINCT * 1000 for key in ("cold", "cold_after_large") if key in s]
            small = statistics.mean(each)
            rows.append(
                (
                    "large per-face cold / small per-face cold (mean of before and after)",
                    (
                        f"{per_face / small:.2f} ({per_face:.1f} / {small:.1f} ms; small "
                        + " and ".join(f"{ms:.1f}" for ms in each)
                        + " ms)"
                    ),
                    "<= 1.2",
                    per_face / small <= 1.2,
                )
            )
        else:
            rows.append(("large per-face cold", f"{per_face:.1f} ms", "<= 1.2 x small (run small too)", None))
        at_most("large one-card edit (server)", s["large_warm"], 5.0, " s")
        at_most("large peak", max(results["large_cold"].peak, results["large_warm"].peak), 1024, " MB", strictly=True)
    if "rules_edit_all" in s:
        at_most("rules edit: the block alone (serve)", s["rules_edit_block"], 1.0, " s")
        at_most("rules edit: the edited edition on screen (serve)", s["rules_edit_first"], 5.0, " s")
        at_most("rules edit: every edition printing it (serve)", s["rules_edit_all"], 10.0, " s")
    if "rules_build_edit" in s:
        at_most("rules edit: pnpgen rules (server)", s["rules_build_edit"], 10.0, " s")
    return rows


def report(results: dict[str, Series], parts: list[str], args, load: list[float], art_bytes: dict[str, int]) -> None:
    print(
        f"\n| measure | seconds (median of {args.runs}) | CPU seconds | peak MB (PSS) | of it anonymous |\n"
        "|---|---|---|---|---|"
    )
    for series in results.values():
        print(f"| {series.label} | {series.seconds:.2f} | {series.cpu:.2f} | {series.peak:.0f} | {series.anon:.0f} |")
    rows = targets(results, args.cards, art_bytes)
    print("\n| ratio or limit | value | target | met |\n|---|---|---|---|")
    for name, value, target, met in rows:
        print(f"| {name} | {value} | {target} | {'' if met is None else 'yes' if met else 'NO'} |")
    print(f"\n1-minute load average: {load[0]:.1f} at the start, {load[1]:.1f} at the end ({os.cpu_count()} cores)")
    s = {key: series.seconds for key, series in results.items()}
    names = {
        "cold": "cold_s",
        "cold_after_large": "cold_after_large_s",
        "warm": "warm_s",
        "warm_alone": "warm_alone_s",
        "protograf": "protograf_s",
        "reportlab": "reportlab_s",
        "weasyprint": "weasyprint_floor_s",
        "kits_cold": "kits_cold_s",
        "kits_warm": "kits_warm_s",
        "kits_warm_alone": "kits_warm_alone_s",
        "large_cold": "large_cold_s",
        "large_warm": "large_warm_s",
        "art_plain_cold": "art_plain_cold_s",
        "art_cold": "art_cold_s",
        "art_floor": "art_floor_s",
        "art_warm": "art_warm_s",
        "rules_cold": "rules_cold_s",
        "rules_edit_block": "rules_edit_block_s",
        "rules_edit_first": "rules_edit_first_s",
        "rules_edit_all": "rules_edit_all_s",
        "rules_build_edit": "rules_build_edit_s",
    }
    data: dict = {names[key]: round(value, 3) for key, value in s.items()}
    data["cpu_s"] = {names[key]: round(series.cpu, 3) for key, series in results.items()}
    ours = [
        results[key]
        for key in ("cold", "warm", "warm_alone", "kits_cold", "kits_warm", "kits_warm_alone")
        if key in results
    ]
    if ours:
        data["peak_mb"] = round(max(series.peak for series in ours), 1)
        data["peak_anon_mb"] = round(max(series.anon for series in ours), 1)
    if art_bytes:
        data.update(art_pdf_mb=round(art_bytes["pdf"] / 1e6, 2), art_pictures_mb=round(art_bytes["pictures"] / 1e6, 2))
    if "large_cold" in results:
        data.update(
            large_cards=args.cards,
            large_faces=large_faces(args.cards),
            large_peak_mb=round(max(results["large_cold"].peak, results["large_warm"].peak), 1),
        )
    data.update(
        targets=[{"what": name, "value": value, "target": target, "met": met} for name, value, target, met in rows],
        runs=args.runs,
        parts=parts,
        load=load,
        cores=os.cpu_count(),
        date=time.strftime("%Y-%m-%d %H:%M"),
    )
    path = ROOT / "output" / ("bench.json" if len(parts) == len(PARTS) else f"bench-{'+'.join(parts)}.json")
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
