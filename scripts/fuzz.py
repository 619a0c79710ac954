"""Seeded mutations of the three kits, each run through pnpgen: `make fuzz` (or `python scripts/fuzz.py -n 300`).

Each mutation copies a kit, changes one to three things in one of its YAML files (hostile values: aliases that
expand without end, 5,001-digit numbers, list keys, control characters, ids that are paths, colours that are
CSS, huge expressions; or plain damage: a line deleted, duplicated, cut or re-indented) and runs
`pnpgen validate` on it; one in BUILD_EVERY also runs `pnpgen build` into an output folder that holds a complete
earlier build. Every run happens in a fork of this process (pnpgen and WeasyPrint loaded once) with a time and
memory limit. Reported as failures:
- a traceback, or an exit status other than 0, 1 or 2;
- a hang (over --timeout seconds) or a run killed by the memory limit;
- a partial output set: a failed build that changed any file of the previous set, or left a temporary file.
The same seed gives the same mutations. Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["PNPGEN_DAEMON"] = "0"

KITS = ["greed-inc", "ikkin", "mint-rails"]
BUILD_EVERY = 10
MEMORY_LIMIT = 3 << 30


def alias_bomb() -> str:
    lines = ["fuzz_bomb:", "  l0: &l0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"  l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 9) + "]" for n in range(1, 9)]
    return "\n".join(lines) + "\n"


HOSTILE_VALUES = [
    "9" * 5001,
    "!!float x",
    "2001-13-45",
    "x\x01y",
    "x\x85y",
    "a\u2028b",
    "'" + "a" * 200_000 + "'",
    "x/../../../../escaped",
    '"#123456; background-image: url(http://127.0.0.1:9/x.png)"',
    "[a, [b, [c]]]",
    "{a: 1}",
    "*nowhere",
    "&a x",
    "? x",
    ": x",
    "-1",
    "1e999",
    ".nan",
    "null",
    "''",
    "\"='a' * 99999999999\"",
    '"={}"'.format("(" * 500 + "1" + ")" * 500),
    "!!binary x",
    "0x1F",
    '"{{ cycler.__init__.__globals__ }}"',
    "<script>x</script>",
]
HOSTILE_LINES = [
    "? [a, b]\n: 2\n",
    alias_bomb(),
    "checks:\n  - expect: \"len('a' * 99999999999) > 0\"\n",
    "<<: *nowhere\n",
    "%YAML 1.1\n",
    "---\n",
    "\t- tab\n",
]


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """The text with one change, and what the change was."""
    lines = text.splitlines(keepends=True) or ["\n"]
    at = rng.randrange(len(lines))
    kind = rng.choice(["value", "value", "value", "line", "delete", "duplicate", "indent", "cut", "swap"])
    if kind == "value":
        line = lines[at]
        if ":" in line:
            key = line.split(":", 1)[0]
            value = rng.choice(HOSTILE_VALUES)
            lines[at] = f"{key}: {value}\n"
            return "".join(lines), f"line {at + 1}: value -> {value[:40]!r}"
        kind = "line"
    if kind == "line":
        inserted = rng.choice(HOSTILE_LINES)
        indent = " " * (len(lines[at]) - len(lines[at].lstrip(" ")))
        lines.insert(at, "".join(indent + part for part in inserted.splitlines(keepends=True)))
        return "".join(lines), f"line {at + 1}: inserted {inserted[:30]!r}"
    if kind == "delete":
        del lines[at]
    elif kind == "duplicate":
        lines.insert(at, lines[at])
    elif kind == "indent":
        lines[at] = " " * rng.choice([1, 3, 6]) + lines[at]
    elif kind == "swap":
        other = rng.randrange(len(lines))
        lines[at], lines[other] = lines[other], lines[at]
    else:  # cut the file short
        cut = rng.randrange(len(text) + 1)
        return text[:cut], f"cut at character {cut}"
    return "".join(lines), f"line {at + 1}: {kind}"


def run_forked(argv: list[str], timeout: float) -> tuple[str, int | None, str, float]:
    """(outcome, exit code, stderr, peak MB) of `pnpgen ARGV` in a fork with a time and memory limit."""
    log = tempfile.TemporaryFile()  # noqa: SIM115 - written by the forked child; closed when this returns
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)  # the child and its workers: one group to kill on a hang
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        os.dup2(log.fileno(), 2)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), line_buffering=True)
        sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False))
        code = 1
        try:
            from generator.cli import main

            code = main(argv)
        except BaseException:  # noqa: BLE001 - what the fuzzer looks for
            traceback.print_exc()
            code = 99
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code if isinstance(code, int) else 1)
    deadline = time.monotonic() + timeout
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.killpg(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            log.seek(0)
            return "hang", None, log.read().decode(errors="replace"), usage.ru_maxrss / 1024
        time.sleep(0.02)
    log.seek(0)
    err = log.read().decode(errors="replace")
    peak = usage.ru_maxrss / 1024
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}", None, err, peak
    code = os.WEXITSTATUS(status)
    if "Traceback" in err or code not in (0, 1, 2):
        return "traceback", code, err, peak
    return "ok", code, err, peak


def snapshot(folder: Path) -> dict[str, str]:
    return (
        {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}
        if folder.is_dir()
        else {}
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--mutations", type=int, default=300)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--timeout", type=float, default=120, help="seconds a run may take")
    args = parser.parse_args()
    from generator.commands import runner
    from generator.render import weasy

    runner.parser()
    weasy.load()  # loaded once here: every fork starts warm
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="pnpgen-fuzz-"))
    out = work / "out"
    failures, outcomes, peak_mb, builds = [], Counter(), 0.0, 0
    started = time.monotonic()
    try:
        for kit in KITS:  # a complete earlier build of each kit: a failed build must leave it as it is
            outcome, code, err, _ = run_forked(
                [
                    "build",
                    str(ROOT / "cards" / kit),
                    "--lang",
                    "en",
                    "--paper",
                    "a4",
                    "--out",
                    str(out),
                    "--jobs",
                    "1",
                    "-q",
                ],
                600,
            )
            if code != 0:
                print(f"the unmutated {kit} does not build: {err}", file=sys.stderr)
                return 1
        for number in range(1, args.mutations + 1):
            kit = KITS[number % len(KITS)]
            game = work / "game" / kit
            shutil.rmtree(work / "game", ignore_errors=True)
            shutil.copytree(ROOT / "cards" / kit, game)
            files = sorted(game.rglob("*.yaml"))
            target = rng.choice(files)
            text = target.read_text(encoding="utf-8")
            changes = []
            for _ in range(rng.randint(1, 3)):
                text, change = mutate(text, rng)
                changes.append(change)
            target.write_text(text, encoding="utf-8")
            what = f"#{number} {kit}/{target.relative_to(game)}: {'; '.join(changes)}"
            runs = [["validate", str(game)]]
            build = number % BUILD_EVERY == 0
            if build:
                runs.append(
                    ["build", str(game), "--lang", "en", "--paper", "a4", "--out", str(out), "--jobs", "1", "-q"]
                )
            for argv in runs:
                before = snapshot(out / kit)
                outcome, code, err, peak = run_forked(argv, args.timeout)
                peak_mb = max(peak_mb, peak)
                outcomes[(argv[0], code if outcome == "ok" else outcome)] += 1
                if outcome != "ok":
                    failures.append(f"{what}: {argv[0]}: {outcome}\n{err[-2000:]}")
                if argv[0] == "build":
                    builds += 1
                    after = snapshot(out / kit)
                    leftovers = [p.name for p in (out / kit).iterdir() if p.name.endswith(".tmp")]
                    if leftovers or (code != 0 and after != before):
                        failures.append(f"{what}: partial output set (exit {code}; temporary files {leftovers})")
            if number % 25 == 0:
                print(f"{number} mutations, {len(failures)} failures, {time.monotonic() - started:.0f} s", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"\n{args.mutations} mutations (seed {args.seed}), {builds} builds, "
        f"{time.monotonic() - started:.0f} s, largest run {peak_mb:.0f} MB (limit {MEMORY_LIMIT >> 20} MB)"
    )
    for (command, result), count in sorted(outcomes.items(), key=str):
        print(f"  {command}: {'exit ' + str(result) if isinstance(result, int) else result}: {count}")
    for failure in failures:
        print(f"FAILED {failure}", file=sys.stderr)
    print(f"{len(failures)} failure(s): tracebacks, hangs, memory or partial output sets")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
