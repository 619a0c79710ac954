"""`pnpgen watch`: builds, rebuilds after a change, reports a bad edit with its location and keeps watching."""
from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time

from conftest import ROOT

CARDS = "decks/cards.yaml"


class Watching:
    """`pnpgen watch` in a child process, its output lines read as they come."""

    def __init__(self, *args):
        self.process = subprocess.Popen([sys.executable, "-m", "generator", "watch", *map(str, args)], cwd=ROOT,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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

    def stop(self):
        self.process.kill()
        self.process.wait()


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

        cards.write_text(cards.read_text(encoding="utf-8").replace("    value: 2\n", "    value: [2\n"), encoding="utf-8")
        lines = watching.until("still watching")
        assert any(line.startswith("error: ") and f"{CARDS}:" in line for line in lines), lines

        cards.write_text(cards.read_text(encoding="utf-8").replace("    value: [2\n", "    value: 2\n"), encoding="utf-8")
        watching.until("rebuilt")

        components = small_game / "components.yaml"  # what validate rejects, the rebuild reports as build does
        components.write_text(components.read_text(encoding="utf-8").replace("count: 6", "count: 5"), encoding="utf-8")
        lines = watching.until("rebuilt")
        assert any(line.startswith("warning: ") and "components.yaml:3" in line for line in lines), lines
    finally:
        watching.stop()
