"""Progress: counts and the time left on a terminal (one line redrawn), plain lines at a modest rate
elsewhere, nothing with --quiet but warnings."""

from __future__ import annotations

import io
import re

import pytest

from generator.progress import PLAIN_EVERY, Progress, format_duration
from conftest import run_subprocess


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_time_left_is_the_rate_so_far_applied_to_what_remains():
    clock = FakeClock()
    progress = Progress(stream=io.StringIO(), clock=clock, terminal=False)
    task = progress.task("rendering faces", 400, "faces")
    assert task.remaining() is None  # nothing done yet
    clock.now += 0.5
    task.advance(10)
    assert task.remaining() is None  # too early to say
    clock.now += 9.5
    task.update(100)  # 100 faces in 10 s: 300 more take 30 s
    assert task.remaining() == 30.0
    assert "100/400 faces (25%), about 30s left" in task.describe()
    clock.now += 10
    task.update(300)  # the rate changed: 300 in 20 s, 100 more take 6.7 s
    assert abs(task.remaining() - 20 / 300 * 100) < 1e-9
    assert "about 6.7s left" in task.describe()
    task.update(400)
    assert "left" not in task.describe()


def test_durations_read_as_people_say_them():
    assert [format_duration(s) for s in (0.04, 4.26, 42, 65, 3600 + 125)] == ["0.0s", "4.3s", "42s", "1m05s", "1h02m"]


def test_plain_lines_at_a_modest_rate_then_a_final_line():
    clock, stream = FakeClock(), io.StringIO()
    progress = Progress(stream=stream, clock=clock, terminal=False)
    with progress.task("card faces", 1000, "cards") as task:
        for _ in range(1000):
            clock.now += 0.02  # 20 s in all: a line when it starts, every PLAIN_EVERY seconds, and at the end
            task.advance()
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert lines[0].endswith("card faces: 0/1,000 cards (0%)")
    assert len(lines) == 2 + int(20 / PLAIN_EVERY) - 1
    counts = [int(re.search(r"([\d,]+)/1,000", line)[1].replace(",", "")) for line in lines[:-1]]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)
    assert lines[-1].endswith("card faces: 1,000 cards in 20s")


def test_a_terminal_gets_one_line_redrawn_and_messages_above_it():
    clock, stream = FakeClock(), io.StringIO()
    progress = Progress(stream=stream, clock=clock, terminal=True)
    with progress.task("rendering faces", 10, "faces") as task:
        for index in range(10):
            clock.now += 1
            task.advance()
            if index == 4:
                progress.warn("cards.yaml:3: something")
    text = stream.getvalue()
    assert text.count("\n") == 2  # the warning and the final line; the count itself only redraws
    assert "\rwarning: cards.yaml:3: something" in text.replace(" " * 10, "")
    shown = [part.strip() for part in text.split("\r") if "/10 faces" in part]
    assert shown[-2].endswith("9/10 faces (90%), about 1.0s left") and shown[-1].endswith("10/10 faces (100%)")
    assert text.rstrip("\n").endswith("rendering faces: 10 faces in 10s")


def test_quiet_prints_warnings_only():
    clock, stream = FakeClock(), io.StringIO()
    progress = Progress(quiet=True, stream=stream, clock=clock, terminal=True)
    with progress.task("loading", 1, "game(s)") as task:
        clock.now += 5
        task.advance()
        progress.say("wrote a file")
        progress.warn("a problem")
    assert stream.getvalue() == "warning: a problem\n"


def test_a_written_file_says_its_pages_in_the_singular_or_the_plural():
    clock, stream = FakeClock(), io.StringIO()
    progress = Progress(stream=stream, clock=clock, terminal=False)
    progress.wrote("g", "tokens-a-en-a4.pdf", 1)
    progress.wrote("g", "pnp-en-a4.pdf", 64)
    progress.wrote("g", "board-b-en-a4.pdf", 5, "270 x 190 mm is larger than A4")
    lines = [line.split("] ", 1)[1] for line in stream.getvalue().splitlines()]
    assert lines == [
        "g: wrote tokens-a-en-a4.pdf (1 page)",
        "g: wrote pnp-en-a4.pdf (64 pages)",
        "g: wrote board-b-en-a4.pdf (5 pages): 270 x 190 mm is larger than A4",
    ]


@pytest.mark.slow
def test_a_build_into_a_pipe_prints_plain_counts_from_the_start(small_game, tmp_path):
    result = run_subprocess("build", small_game, "--lang", "all", "--paper", "a4", "--out", tmp_path / "out")
    assert result.code == 0, result
    lines = result.err.splitlines()
    assert "\r" not in result.err
    assert re.match(r"\[ *\d+\.\ds\] loading: 0/1 game\(s\) \(0%\)$", lines[0])
    for task, unit in (
        ("small: preparing card faces", "cards"),
        ("rendering faces", "faces"),
        ("small: writing card sheets", "files"),
    ):
        shown = [line for line in lines if f"] {task}: " in line]
        counts = [int(re.search(rf"{task}: ([\d,]+)", line)[1].replace(",", "")) for line in shown]
        assert len(shown) >= 2 and counts == sorted(counts) and counts[0] == 0 < counts[-1], (task, shown)
        assert re.search(rf"{task}: [\d,]+ {unit} in [\d.]+s$", shown[-1]), shown[-1]
    assert lines[-1].startswith("[") and "small: " in lines[-1] and "files in" in lines[-1]


def test_quiet_build_prints_nothing(small_game, tmp_path, cli):
    result = cli("build", small_game, "--lang", "en", "--paper", "a4", "--out", tmp_path / "out", "--quiet")
    assert result.code == 0 and result.err == "", result


def test_a_build_leaves_nothing_frozen(small_game, tmp_path, cli):
    """Builds freeze the objects they load (generator/heap.py); a process that goes on can collect them after."""
    import gc

    from generator.build import BuildOptions, build
    from generator.model import load_game

    build(load_game(small_game), BuildOptions(out=tmp_path / "out", languages="en", papers=("a4",), quiet=True))
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    assert cli("validate", small_game, "--quiet").code == 0
    assert gc.get_freeze_count() == 0 and gc.isenabled()
