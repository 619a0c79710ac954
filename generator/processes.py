"""Child processes that do not outlive the command that started them.

A render worker is forked from the command. If the command is killed, a worker left running keeps rendering
for nobody and, worse, keeps the command's inherited descriptors open: the caller's terminal or pipe, and in
the resident server the connection its client waits on for the exit code. So each worker asks the kernel to
kill it when its parent dies (PR_SET_PDEATHSIG), leaves at once if the parent is already gone, and closes the
descriptors the command registered as its caller's.

Ctrl-C in a terminal signals the whole foreground process group, workers included. The command stops its
workers itself (see generator.interrupts), so a worker told to stop leaves at once and says nothing: Python's
default would print a KeyboardInterrupt traceback from each worker's queue.

A command run as the program (not a server's fork, not a test) that will render starts a fork server first
thing (start_fork_server): a process that imports WeasyPrint (generator/render/preload.py) while the command
imports itself and reads the game on the other core; the render workers are forked from it. A process that
has WeasyPrint loaded already (the resident server, watch) forks its workers from itself. Each worker dies
with the process it was forked from, and the fork server with the command. (multiprocessing runs the
program's script again in each worker it starts this way, as `__mp_main__`: the `pnpgen` script then only
imports generator.cli, and `python -m generator` is not run again.)

Every Python process pnpgen starts runs isolated from the current folder: a `generator.py`, `generator/` or
`multiprocessing.py` in the folder a command runs in must never be imported. Python puts the current folder
first on the import path of `python -m` and `python -c` (how multiprocessing starts its fork server and
resource tracker); `-I` leaves it out, with the user's PYTHON* variables and user site-packages, and `-P`
(PYTHONSAFEPATH) leaves out the folder alone. The resident server is started with `-I` (see isolated_python);
the fork server with the command's own import path less the current folder (see isolated_start).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import signal
import sys
from collections.abc import Iterator

PR_SET_PDEATHSIG = 1
_callers_fds: set[int] = set()  # descriptors of the command's caller, never a worker's business
FORK_SERVER_PRELOAD = "generator.render.preload"  # what the fork server imports before it forks a worker
_fork_server_started = False


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


PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the folder `import generator` reads


@functools.cache
def isolated_python() -> tuple[str, ...] | None:
    """The command line starting this Python for a process of pnpgen's that imports only what is installed:
    `-I` when pnpgen is in site-packages (a wheel, or an editable install's .pth file), `-E -P` when it is in
    the user's own site-packages (`pip install --user`); None when a process so started would not find pnpgen
    (a source folder reached through PYTHONPATH or the current folder): pnpgen then starts none."""
    import site

    if _reached_from(site.getsitepackages()):
        return (sys.executable, "-I")
    if site.ENABLE_USER_SITE and _reached_from([site.getusersitepackages()]):
        return (sys.executable, "-E", "-P")
    return None


def _reached_from(site_dirs: list[str]) -> bool:
    """Whether PACKAGE_ROOT is one of the site folders or a folder one of their .pth files adds."""
    root = os.path.realpath(PACKAGE_ROOT)
    for folder in site_dirs:
        if os.path.realpath(folder) == root:
            return True
        try:
            names = [name for name in os.listdir(folder) if name.endswith(".pth")]
        except OSError:
            continue
        for name in names:
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    lines = handle.read().splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            for line in lines:
                added = line.strip() and not line.startswith(("#", "import ", "import\t"))
                if added and os.path.realpath(os.path.join(folder, line.strip())) == root:
                    return True
    return False


def without_current_folder(path: list[str]) -> list[str]:
    """An import path less the entries that name the current folder: '' and relative ones (`python -m
    generator` takes out the one it put first, see generator/__main__.py)."""
    return [entry for entry in path if os.path.isabs(entry)]


@contextlib.contextmanager
def isolated_start() -> Iterator[None]:
    """Start processes inside this block as multiprocessing does (`python -c`), without the current folder on
    their import path: PYTHONSAFEPATH (-P), PYTHONPATH less its relative entries, and sys.path (which the fork
    server is given) less the current folder. All three are restored after."""
    saved_path, saved_env = sys.path[:], {name: os.environ.get(name) for name in ("PYTHONSAFEPATH", "PYTHONPATH")}
    os.environ["PYTHONSAFEPATH"] = "1"
    if saved_env["PYTHONPATH"] is not None:
        os.environ["PYTHONPATH"] = os.pathsep.join(without_current_folder(saved_env["PYTHONPATH"].split(os.pathsep)))
    sys.path[:] = without_current_folder(sys.path)
    try:
        yield
    finally:
        sys.path[:] = saved_path
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def start_fork_server() -> None:
    """Start the fork server now (see the module's doc); it preloads while this process goes on. None when
    it could not find pnpgen without the current folder: the workers are then forked from the command."""
    global _fork_server_started
    import multiprocessing

    if isolated_python() is None:
        return
    try:
        from multiprocessing import forkserver

        multiprocessing.get_context("forkserver").set_forkserver_preload([FORK_SERVER_PRELOAD])
        with isolated_start():
            forkserver.ensure_running()
    except (ImportError, ValueError, OSError):  # none on this system: the workers are forked from the command
        return
    _fork_server_started = True


def fork_server() -> int | None:
    """The process id of the fork server this process started (started again if it has died), or None
    when there is none: the workers are then forked from this process."""
    if not _fork_server_started:
        return None
    from multiprocessing import forkserver

    with isolated_start():  # started again if it has died
        forkserver.ensure_running()
    return getattr(forkserver._forkserver, "_forkserver_pid", None)


def stop_fork_server() -> None:
    """Stop the fork server this process started, once the pool's workers have ended (and been reaped by it),
    and reap it: what it and its workers used is then the command's own (`time`, resource usage of children).
    It is killed, not asked: it holds nothing to save, and one still importing WeasyPrint for a command that
    rendered nothing would otherwise be waited for."""
    global _fork_server_started
    if not _fork_server_started:
        return
    from multiprocessing import forkserver

    server = forkserver._forkserver
    pid = getattr(server, "_forkserver_pid", None)
    if pid is not None:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    stop = getattr(server, "_stop", None)  # closes the server's pipe from us, reaps it, removes its socket
    if stop is not None:
        stop()
    _fork_server_started = False
