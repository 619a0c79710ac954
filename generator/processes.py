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
PID_FILE_VARIABLE = "PNPGEN_FORK_SERVER_PID_FILE"  # where the fork server writes its process id (serve_forks)
_fork_server_started = False  # in the command: it started a fork server (start_fork_server)
_pid_file: str | None = None  # in the command: where its fork server writes its process id
_forked_from: int | None = None  # in the fork server and its workers: the fork server's (serve_forks)


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


def start_worker(parent: int | None) -> None:
    """The initializer of every render worker (see the module's doc): parent is the process it was forked from,
    None for the fork server (noted there by serve_forks)."""
    if parent is None:
        parent = os.getppid() if _forked_from is None else _forked_from
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
def isolated_start(**variables: str) -> Iterator[None]:
    """Start processes inside this block as multiprocessing does (`python -c`), without the current folder on
    their import path: PYTHONSAFEPATH (-P), PYTHONPATH less its relative entries, and sys.path (which the fork
    server is given) less the current folder; with the environment `variables` besides. All are restored
    after."""
    names = ("PYTHONSAFEPATH", "PYTHONPATH", *variables)
    saved_path, saved_env = sys.path[:], {name: os.environ.get(name) for name in names}
    os.environ.update(variables, PYTHONSAFEPATH="1")
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
        multiprocessing.get_context("forkserver").set_forkserver_preload([FORK_SERVER_PRELOAD])
        _ensure_fork_server()
    except (ImportError, ValueError, OSError):  # none on this system: the workers are forked from the command
        return
    _fork_server_started = True


def _ensure_fork_server() -> None:
    """Start the fork server unless it is running (again if it has died), told where to write its process id:
    a file in multiprocessing's own folder of this process (made only this user can read it, and removed by
    multiprocessing's exit handler)."""
    global _pid_file
    from multiprocessing import forkserver, util

    _pid_file = os.path.join(util.get_temp_dir(), "fork-server.pid")
    with isolated_start(**{PID_FILE_VARIABLE: _pid_file}):
        forkserver.ensure_running()


def uses_fork_server() -> bool:
    """Whether the render workers are forked from the fork server this process started (started again if it
    has died); False: from this process."""
    if _fork_server_started:
        _ensure_fork_server()
    return _fork_server_started


def serve_forks() -> None:
    """In the fork server, before it forks any worker (render/preload.py): die with the command, leave Ctrl-C
    to it (it stops its workers itself), note this process as the one the workers are forked from (see
    start_worker) and tell the command its process id (see fork_server_pid)."""
    global _forked_from
    _forked_from = os.getpid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(os.getppid())
    pid_file = os.environ.pop(PID_FILE_VARIABLE, None)  # the workers have no use for it
    if pid_file:
        try:
            with open(f"{pid_file}.tmp", "w", encoding="ascii") as handle:
                handle.write(str(_forked_from))
            os.replace(f"{pid_file}.tmp", pid_file)
        except OSError:
            pass


def fork_server_pid() -> int | None:
    """The process id of the fork server this process started, once it has said it (first thing as it preloads);
    None before, or when there is none."""
    if not _fork_server_started or _pid_file is None:
        return None
    try:
        with open(_pid_file, encoding="ascii") as handle:
            return int(handle.read())
    except (OSError, ValueError):
        return None


def stop_fork_server() -> None:
    """Stop the fork server this process started, once the pool's workers have ended (and been reaped by it),
    and reap it: what it and its workers used is then the command's own (`time`, resource usage of children).
    It is killed, not asked: it holds nothing to save, and one still importing WeasyPrint for a command that
    rendered nothing would otherwise be waited for. One that has not said its process id yet (started a few ms
    ago) ends with the command (see serve_forks). multiprocessing still counts a fork server reaped here as its
    own, so this process starts no other: the command stops it as it ends."""
    global _fork_server_started
    pid = fork_server_pid()
    _fork_server_started = False
    if pid is None:
        return
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == 0:  # a child of this process (else ChildProcessError), running
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    except ChildProcessError:
        pass
