"""Progress lines on stderr for long work; silent with --quiet."""
from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, quiet: bool = False, stream=None):
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.started = time.monotonic()

    def say(self, message: str) -> None:
        if not self.quiet:
            elapsed = time.monotonic() - self.started
            print(f"[{elapsed:6.1f}s] {message}", file=self.stream, flush=True)

    def warn(self, message: str) -> None:
        print(f"warning: {message}", file=self.stream, flush=True)

    def error(self, message: str) -> None:
        print(f"error: {message}", file=self.stream, flush=True)
