"""`pnpgen watch`: builds, rebuilds after a change, reports a bad edit with its location and keeps watching."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time

from conftest import ROOT

CARDS = "decks/cards.yaml"


class Watching:
    """`pnpgen watch` in a child process, its output lines read as they come."""

    def __init__(self, *args):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "generator", "watch", *map(str, args)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )  # a process group of its own, as in a terminal
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def until(self, text: str, seconds: float = 120) -> list[str]:
        """The lines up to and including the first that contains text."""
        seen, deadline = [], time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                assert self.process.poll() is None, f"watch ended: {seen}"
                continue
            seen.append(line)
            if text in line:
                return seen
        raise AssertionError(f"no '{text}' in {seen}")

    def stop(self, signum: int, whole_group: bool) -> tuple[int, list[str]]:
        """Signal watch (and its workers too with `whole_group`, as Ctrl+C in a terminal does); its exit status
        and last lines. Every process of its tree must be gone once it has exited."""
        tree = descendants(self.process.pid)
        if whole_group:
            os.killpg(self.process.pid, signum)
        else:
            self.process.send_signal(signum)
        code = self.process.wait(timeout=60)
        time.sleep(0.2)  # the reader thread takes the last lines
        lines = []
        while not self.lines.empty():
            lines.append(self.lines.get())
        left = [pid for pid, started in tree if start_time(pid) == started]
        assert not left, f"left behind by watch: {left}"
        return code, lines

    def kill(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def descendants(pid: int) -> list[tuple[int, str]]:
    """Every process under pid, each with its start time (a pid may be reused once it is gone)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as handle:
                    children = [int(child) for child in handle.read().split()]
            except OSError:
                continue
            for child in children:
                found.append((child, start_time(child)))
                todo.append(child)
    return found


def start_time(pid: int) -> str | None:
    """The process' start time; None when no such process exists, not even unreaped."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[19]
    except OSError:
        return None


def test_watch_rebuilds_after_a_change_and_survives_a_bad_edit(small_game, tmp_path):
    out = tmp_path / "out"
    watching = Watching(small_game, "--", "--lang", "en", "--paper", "a4", "--out", out)
    try:
        watching.until("watching small")
        pdf = out / "small" / "cards-en-a4.pdf"
        first = pdf.stat().st_mtime_ns
        cards = small_game / CARDS
        cards.write_text(cards.read_text(encoding="utf-8").replace("en: Apple}", "en: Green Apple}"), encoding="utf-8")
        lines = watching.until("rebuilt")
        assert any("changed: cards.yaml" in line for line in lines)
        assert pdf.stat().st_mtime_ns > first

        cards.write_text(
            cards.read_text(encoding="utf-8").replace("    value: 2\n", "    value: [2\n"), encoding="utf-8"
        )
        lines = watching.until("still watching")
        assert any(line.startswith("error: ") and f"{CARDS}:" in line for line in lines), lines

        cards.write_text(
            cards.read_text(encoding="utf-8").replace("    value: [2\n", "    value: 2\n"), encoding="utf-8"
        )
        watching.until("rebuilt")

        components = small_game / "components.yaml"  # what validate rejects, the rebuild reports as build does
        components.write_text(components.read_text(encoding="utf-8").replace("count: 6", "count: 5"), encoding="utf-8")
        lines = watching.until("rebuilt")
        assert any(line.startswith("warning: ") and "components.yaml:3" in line for line in lines), lines

        assert len(descendants(watching.process.pid)) == 2  # the render workers, kept between builds
        code, lines = watching.stop(signal.SIGINT, whole_group=True)  # Ctrl+C in its terminal, between builds
        assert code == 0 and lines == ["stopped watching"], lines
    finally:
        watching.kill()


def test_watch_stops_on_sigterm_between_builds(small_game, tmp_path):
    watching = Watching(small_game, "--", "--lang", "en", "--paper", "a4", "--jobs", "2", "--out", tmp_path)
    try:
        watching.until("watching small")
        code, lines = watching.stop(signal.SIGTERM, whole_group=False)
        assert code == 0 and lines == ["stopped watching"], lines
    finally:
        watching.kill()


def test_ctrl_c_during_a_rebuild_stops_it_quietly_and_keeps_the_previous_files(small_game, tmp_path):
    out = tmp_path / "out"
    watching = Watching(small_game, "--", "--lang", "en", "--paper", "a4", "--jobs", "2", "--no-cache", "--out", out)
    try:
        watching.until("watching small")
        pdf = out / "small" / "cards-en-a4.pdf"
        before = pdf.read_bytes()
        cards = small_game / CARDS
        cards.write_text(cards.read_text(encoding="utf-8").replace("en: Apple}", "en: Red Apple}"), encoding="utf-8")
        watching.until("changed: cards.yaml: building")
        code, lines = watching.stop(signal.SIGINT, whole_group=True)  # workers and all, mid-build
        assert code == 130 and lines[-1] == "interrupted", lines
        assert not any("Traceback" in line or "rebuilt" in line for line in lines), lines
        assert pdf.read_bytes() == before
    finally:
        watching.kill()
