"""Child processes that do not outlive the command that started them.

A render worker is forked from the command. If the command is killed, a worker left running keeps rendering
for nobody and, worse, keeps the command's inherited descriptors open: the caller's terminal or pipe, and in
the resident server the connection its client waits on for the exit code. So each worker asks the kernel to
kill it when its parent dies (PR_SET_PDEATHSIG), leaves at once if the parent is already gone, and closes the
descriptors the command registered as its caller's.

Ctrl-C in a terminal signals the whole foreground process group, workers included. The command stops its
workers itself (see generator.interrupts), so a worker told to stop leaves at once and says nothing: Python's
default would print a KeyboardInterrupt traceback from each worker's queue.
"""

from __future__ import annotations

import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1
_callers_fds: set[int] = set()  # descriptors of the command's caller, never a worker's business


def register_callers_fd(fd: int) -> None:
    """A descriptor workers must not keep (the server's connection to its client)."""
    _callers_fds.add(fd)


def die_with_parent(parent: int) -> None:
    """In a freshly forked child: be killed when the parent exits; exit now if it already has."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent watch below still runs once
        pass
    if os.getppid() != parent:
        os._exit(1)


def start_worker(parent: int) -> None:
    """The initializer of every render worker (see the module's doc)."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, _leave_quietly)
    for fd in _callers_fds:
        try:
            os.close(fd)
        except OSError:
            pass
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)  # a worker reads nothing from the caller's terminal
    os.close(devnull)


def _leave_quietly(signum, frame):
    os._exit(128 + signum)
