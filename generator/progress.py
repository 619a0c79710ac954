"""Progress on stderr for long work; silent with --quiet (warnings and errors still print).

Messages (`say`) are lines with the time since the command started. Long work with a count (loading,
checking, preparing faces, rendering, writing sheets) is a `task`: on a terminal one status line updated in
place (`\\r`) with the count and an estimate of the time left; when stderr is not a terminal (a log, a pipe,
CI), a plain line when the task starts, one at most every PLAIN_EVERY seconds while it runs and one when it
ends, so a log shows the work moving without a line per item.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable

REDRAW_EVERY = 0.1  # seconds between redraws of the status line on a terminal
PLAIN_EVERY = 5.0  # seconds between plain progress lines when stderr is not a terminal
ESTIMATE_AFTER = 1.0  # seconds of work (and one item done) before the time left is estimated


class Progress:
    def __init__(
        self,
        quiet: bool = False,
        stream=None,
        clock: Callable[[], float] = time.monotonic,
        terminal: bool | None = None,
    ):
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.clock = clock
        self.started = clock()
        self.terminal = _is_terminal(self.stream) if terminal is None else terminal
        self._status = ""  # the status line shown now (terminal only)

    def say(self, message: str) -> None:
        if not self.quiet:
            self._line(f"[{self.clock() - self.started:6.1f}s] {message}")

    def wrote(self, game: str, name: str, pages: int, why: str = "") -> None:
        """A file written (`greed-inc: wrote pnp-en-a4.pdf (64 pages)`), and why it is so when that needs saying."""
        counted = f"{pages} page" if pages == 1 else f"{pages} pages"
        self.say(f"{game}: wrote {name} ({counted})" + (f": {why}" if why else ""))

    def warn(self, message: str) -> None:
        self._line(f"warning: {message}")

    def error(self, message: str) -> None:
        self._line(f"error: {message}")

    def task(self, label: str, total: int, unit: str = "") -> Task:
        """Counted work: `with progress.task("rendering faces", 412, "faces") as task: ... task.advance()`."""
        return Task(self, label, total, unit)

    def _line(self, text: str) -> None:
        """A line of its own: the status line is cleared first and drawn again under it."""
        status = self._status
        self._show_status("")
        self.stream.write(text + "\n")  # one write: an interrupt between a text and its newline would join lines
        self.stream.flush()
        self._show_status(status)

    def _show_status(self, text: str) -> None:
        if not self.terminal or text == self._status == "":
            return
        text = text[: max(20, shutil.get_terminal_size().columns - 1)]  # a wrapped line cannot be redrawn
        width = max(len(self._status), len(text))
        self.stream.write("\r" + text.ljust(width) + ("\r" if not text else ""))
        self.stream.flush()
        self._status = text


class Task:
    """A count of work done toward a total, shown by its Progress (see the module's doc)."""

    def __init__(self, progress: Progress, label: str, total: int, unit: str = ""):
        self.progress, self.label, self.total, self.unit = progress, label, max(0, total), unit
        self.silent = progress.quiet or self.total == 0  # nothing to do is not shown
        self.done = 0
        self.started = progress.clock()
        self._shown_at: float | None = None
        self._show(force=True)

    def __enter__(self) -> Task:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        self.finish(failed=kind is not None)

    def advance(self, count: int = 1) -> None:
        self.update(self.done + count)

    def update(self, done: int) -> None:
        self.done = min(done, self.total)
        self._show()

    def remaining(self) -> float | None:
        """Seconds left at the rate so far; None before ESTIMATE_AFTER seconds and one item done."""
        elapsed = self.progress.clock() - self.started
        if self.done <= 0 or elapsed < ESTIMATE_AFTER or not self.total:
            return None
        return elapsed / self.done * (self.total - self.done)

    def describe(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        count = f"{self.done:,}/{self.total:,}{unit}"
        percent = f" ({self.done / self.total:.0%})" if self.total else ""
        left = self.remaining()
        estimate = f", about {format_duration(left)} left" if left is not None and self.done < self.total else ""
        return f"{self.label}: {count}{percent}{estimate}"

    def finish(self, failed: bool = False) -> None:
        progress = self.progress
        if self.silent:
            return
        progress._show_status("")
        if failed:
            return
        took = format_duration(progress.clock() - self.started)
        unit = f" {self.unit}" if self.unit else ""
        if not progress.terminal or progress.clock() - self.started >= ESTIMATE_AFTER:
            progress.say(f"{self.label}: {self.done:,}{unit} in {took}")

    def _show(self, force: bool = False) -> None:
        progress = self.progress
        if self.silent:
            return
        now = progress.clock()
        every = REDRAW_EVERY if progress.terminal else PLAIN_EVERY
        if not force and (
            (self._shown_at is not None and now - self._shown_at < every)
            or (not progress.terminal and self.done == self.total)
        ):  # the final line says it
            return
        self._shown_at = now
        if progress.terminal:
            progress._show_status(f"[{now - progress.started:6.1f}s] {self.describe()}")
        else:
            progress.say(self.describe())


def format_duration(seconds: float) -> str:
    if seconds < 9.95:
        return f"{max(0.0, seconds):.1f}s"
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
