"""Ctrl-C that is never lost.

Python runs a signal's handler at the next bytecode it executes. When that happens inside a callback whose
exceptions Python ignores (an at-fork hook while a worker process starts, a finalizer), the
KeyboardInterrupt is printed as "Exception ignored" and the command carries on. So the handler also
records the interrupt, and long loops call raise_if_pending() between steps.
"""

from __future__ import annotations

import contextlib
import signal
import threading

_pending = threading.Event()


@contextlib.contextmanager
def recorded():
    """Within: SIGINT is recorded, then raised as KeyboardInterrupt (main thread only; the previous
    handler is put back after)."""
    _pending.clear()
    with _raised_as_interrupt(signal.SIGINT):
        yield


def _interrupt(signum, frame):
    _pending.set()
    raise KeyboardInterrupt


@contextlib.contextmanager
def terminate_as_interrupt():
    """Within: SIGTERM (`kill PID`, a service manager stopping the command) is taken as Ctrl-C, so the command
    stops the same way: its render workers shut down, its output files left whole (main thread only)."""
    with _raised_as_interrupt(signal.SIGTERM):
        yield


@contextlib.contextmanager
def _raised_as_interrupt(signum: int):
    """Within: the signal is recorded and raised as KeyboardInterrupt (main thread only: elsewhere no handler
    can be set); the previous handler is put back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signum, _interrupt)
    try:
        yield
    finally:
        signal.signal(signum, previous)


def clear() -> None:
    """The interrupt was taken as the way to stop (watch between two builds): it is not raised again."""
    _pending.clear()


def raise_if_pending() -> None:
    """Raise KeyboardInterrupt if one was recorded (and perhaps swallowed) since recorded() began."""
    if _pending.is_set():
        raise KeyboardInterrupt
