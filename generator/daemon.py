"""A resident pnpgen process, so that a rebuild does not start from nothing.

Starting pnpgen costs about 0.4 s before any work: importing its code and WeasyPrint, loading fontconfig
and the fonts. A rebuild after a one-card edit needs about 0.15 s of real work. So, like Gradle's daemon
or Rails' Spring, the first command leaves a server process behind with all of that loaded; later
commands connect to it over a Unix socket and it forks a child that runs the command with the caller's
arguments, working directory, environment and terminal (the caller's stdin, stdout and stderr file
descriptors are passed over the socket), then reports the exit code. Every command runs in a fresh fork:
nothing carries over from one command to the next. The fork is made ahead of the command (a Spare), so that
copying the server's memory does not happen while the caller waits.

The socket's name holds a fingerprint of pnpgen's code, the Python, WeasyPrint and the installed fonts, so a
changed installation never talks to an old server. A server exits after IDLE_SECONDS without a request or
when its fingerprint goes stale. PNPGEN_DAEMON=0 turns the whole mechanism off (the tests and CI do);
`pnpgen daemon stop` stops the servers.

This module is imported by every `pnpgen` call, before anything heavy: keep its imports light.
"""

from __future__ import annotations

import marshal
import os
import socket
import sys
import time
from collections.abc import Callable, Collection  # loaded by `socket` already

GREETING = b"pnpgen\n"  # the server's first line on every connection, before the client sends anything
GREETING_SECONDS = 3
IDLE_SECONDS = 20 * 60
FONT_DIRS = [
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "~/.local/share/fonts",
    "~/.fonts",
    "/var/cache/fontconfig",
    "~/.cache/fontconfig",
]


def enabled() -> bool:
    return (
        os.environ.get("PNPGEN_DAEMON", "1") != "0"
        and hasattr(socket.socket, "sendmsg")
        and hasattr(socket, "SO_PEERCRED")
    )  # Linux: passing the terminal, checking the caller's user


def wanted(argv: list[str], resident: Collection[str]) -> bool:
    """Whether this command line may run in (and start) a server: its command is one of `resident` (the command
    layer says which: generator/commands/__init__.py; a server runs whatever command runner it is given)."""
    return enabled() and bool(argv) and argv[0] in resident and "-h" not in argv and "--help" not in argv


def fingerprint() -> str:
    """What a server's loaded state depends on: pnpgen's code, the interpreter, WeasyPrint, the fonts."""
    from hashlib import sha256

    digest = sha256(f"{sys.executable}\0{sys.version}\0".encode())
    package = os.path.dirname(os.path.abspath(__file__))
    stamps = sorted(
        os.path.join(folder, name) for folder, _, names in os.walk(package) for name in names if name.endswith(".py")
    )
    stamps += [os.path.join(folder, "weasyprint", "__init__.py") for folder in sys.path if folder]
    stamps += [os.path.expanduser(folder) for folder in FONT_DIRS]
    digest.update(repr(sorted((k, v) for k, v in os.environ.items() if k.startswith("PNPGEN_PLAIN"))).encode())
    for path in stamps:
        try:
            stat = os.stat(path)
            digest.update(f"{path}\0{stat.st_mtime_ns}\0{stat.st_size}\0".encode())
        except OSError:
            pass
    return digest.hexdigest()[:16]


def runtime_dir() -> str | None:
    """A folder only this user can use (None when it cannot be made safely)."""
    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    folder = os.path.join(base, f"pnpgen-{os.getuid()}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        stat = os.stat(folder)
    except OSError:
        return None
    if stat.st_uid != os.getuid() or stat.st_mode & 0o077:
        return None
    return folder


def socket_path(print_: str | None = None) -> str | None:
    folder = runtime_dir()
    return os.path.join(folder, f"{print_ or fingerprint()}.sock") if folder else None


# --- the client: every `pnpgen` call ---------------------------------------------------------------------


class ServerLost(Exception):
    """The server accepted the command and then stopped before reporting its exit code."""


def run_remote(argv: list[str]) -> int | None:
    """Run the command in a server: its exit code, or None when no server is ready (run it here then; a server
    that failed to start is reported)."""
    path = socket_path()
    if path is None or not os.path.exists(path):
        failed = failed_start() if path is not None else None
        if failed:
            print(
                f"warning: the pnpgen server could not start: {failed}; commands run without it "
                "(`pnpgen daemon start --foreground` shows why; PNPGEN_DAEMON=0 turns it off)",
                file=sys.stderr,
            )
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with connection, connection.makefile("rb") as replies:
        try:
            connection.settimeout(GREETING_SECONDS)  # a server greets at once; a stopped or hung one is ignored
            connection.connect(path)
            if replies.readline() != GREETING:
                return None
            # Only now the terminal's descriptors are passed: sent to a server that never reads them (stopped
            # with SIGSTOP), they would stay in its queue and keep this command's output open after it ended.
            connection.settimeout(10)
            umask = os.umask(0o022)
            os.umask(umask)
            payload = marshal.dumps(
                {
                    "argv": argv,
                    "cwd": os.getcwd(),
                    "env": dict(os.environ),
                    "umask": umask,
                    "encodings": [(sys.stdout.encoding, sys.stdout.errors), (sys.stderr.encoding, sys.stderr.errors)],
                }
            )
            sys.stdout.flush()
            sys.stderr.flush()
            terminal = b"".join(fd.to_bytes(4, sys.byteorder) for fd in (0, 1, 2))  # C ints: what send_fds sends
            connection.sendmsg([len(payload).to_bytes(4, "big")], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, terminal)])
            connection.sendall(payload)
            import signal  # while the server starts the command

            hello = replies.readline()
            if not hello:
                return None  # refused before starting: nothing ran
        except OSError:
            return None
        connection.settimeout(None)
        child = int(hello.split()[1])  # b"pid N"
        interrupts = []

        def forward(signum, frame):
            """Ctrl-C (or a TERM) goes to the command; a second Ctrl-C ends it at once."""
            interrupts.append(signum)
            if len(interrupts) > 1 and signum == signal.SIGINT:
                _send_signal(child, signal.SIGKILL)
                print("interrupted", file=sys.stderr)
                raise SystemExit(130)
            _send_signal(child, signum)

        previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            done = replies.readline()
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
    if not done:
        raise ServerLost("the pnpgen server stopped during the command")
    return int(done.split()[1])  # b"exit N"


def _send_signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def start_in_background() -> None:
    """Start a server for later commands, detached from this one (no output, own session)."""
    if os.environ.get("CI") or socket_path() is None:
        return
    spawn()


def spawn():
    """Start a server in the background, isolated from the current folder and the user's PYTHON* variables
    (see processes.isolated_python): its subprocess.Popen, or None when pnpgen cannot start one so. Until it
    is ready, what it prints goes to a start log in the runtime folder, named by its process id: one whose
    process has ended is a server that failed to start, which the next command reports (failed_start)."""
    import subprocess

    from generator import processes

    python, folder = processes.isolated_python(), runtime_dir()
    if python is None or folder is None:
        return None
    print_ = fingerprint()
    log = os.path.join(folder, f"{print_}.start-{os.getpid()}.tmp")
    with open(log, "wb") as output:
        server = subprocess.Popen(
            [*python, "-u", "-m", "generator", "daemon", "start", "--foreground"],  # -u: its log in order
            cwd=folder,  # nothing there but this user's sockets and logs
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=output,
            start_new_session=True,
            close_fds=True,
        )
    os.replace(log, start_log(folder, print_, server.pid))
    return server


def start_log(folder: str, print_: str, pid: int) -> str:
    return os.path.join(folder, f"{print_}.start-{pid}.log")


def failed_start() -> str | None:
    """What a server of this installation that ended before it was ready printed (its last line), the start
    log kept as FINGERPRINT.failed.log; None when no server failed to start since the last call."""
    folder = runtime_dir()
    if folder is None:
        return None
    print_, found = fingerprint(), None
    prefix = f"{print_}.start-"
    for name in os.listdir(folder):
        if not (name.startswith(prefix) and name.endswith(".log")):
            continue
        try:
            if _running(int(name[len(prefix) : -len(".log")])):
                continue  # still starting
        except ValueError:
            pass
        kept = os.path.join(folder, f"{print_}.failed.log")
        try:
            os.replace(os.path.join(folder, name), kept)
            with open(kept, "rb") as handle:
                lines = handle.read().decode("utf-8", "replace").strip().splitlines()
        except OSError:
            continue
        found = f"{lines[-1].strip() if lines else 'it ended without a message'} (all it printed: {kept})"
    return found


def _running(pid: int) -> bool:
    """Whether the process runs (a zombie, ended but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rpartition(b")")[2].split()[0] not in (b"Z", b"X")
    except (OSError, IndexError):
        return False


def _ready(folder: str, print_: str) -> None:
    """In a server started by spawn, once it listens: its start log is not needed, and it prints nothing (one
    started in a terminal, `daemon start --foreground`, keeps printing there)."""
    try:
        os.unlink(start_log(folder, print_, os.getpid()))
    except FileNotFoundError:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


# --- the server ------------------------------------------------------------------------------------------


def serve(run_command: Callable[[list[str]], int], warm_up: Callable[[], None]) -> int:
    """Load everything (`warm_up`), listen on this installation's socket, fork a child per command until idle;
    the child runs `run_command(argv)` (the command layer's runner: this module knows no command)."""
    import select
    import signal

    own_print = fingerprint()
    path = socket_path(own_print)
    if path is None:
        print("error: no folder of this user's alone for the server's socket (XDG_RUNTIME_DIR)", file=sys.stderr)
        return 1
    if _answers(path):
        _ready(os.path.dirname(path), own_print)
        return 0  # another server is already there
    warm_up()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    scratch = os.path.join(os.path.dirname(path), f".{os.getpid()}.sock")
    _remove(scratch)
    listener.bind(scratch)
    listener.listen(16)
    os.replace(scratch, path)  # clients only ever see a socket that is listening
    identity = os.stat(path).st_ino
    pid_file = path.removesuffix(".sock") + ".pid"
    with open(pid_file, "w") as handle:
        handle.write(f"{os.getpid()}\n")
    _ready(os.path.dirname(path), own_print)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    last_request = time.monotonic()
    spare: Spare | None = None
    running: set[int] = set()  # commands handed to a spare, not yet ended
    try:
        while True:
            if spare is None and not running:
                spare = Spare.fork(listener, run_command)
            readable, _, _ = select.select([listener], [], [], COMMAND_POLL_SECONDS if running else 10)
            ended = _reap_children()
            running -= ended
            if spare is not None and spare.pid in ended:  # killed while it waited
                spare.channel.close()
                spare = None
            if readable:
                connection, _ = listener.accept()
                last_request = time.monotonic()
                if not _greeted(connection):
                    continue
                if spare is not None and spare.take(connection):
                    running.add(spare.pid)
                else:
                    _fork_command(listener, connection, run_command)
                spare = None  # taken, or gone
                continue
            if (
                time.monotonic() - last_request > IDLE_SECONDS
                or fingerprint() != own_print
                or not _is_ours(path, identity)
            ):
                return 0
    finally:
        if _is_ours(path, identity):
            _remove(path)
            _remove(pid_file)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _answers(path: str) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
        return True
    except OSError:
        return False
    finally:
        probe.close()


def _is_ours(path: str, identity: int) -> bool:
    try:
        return os.stat(path).st_ino == identity
    except OSError:
        return False


def _reap_children() -> set[int]:
    """The children that ended since the last call (commands, spares), reaped."""
    ended = set()
    try:
        while pid := os.waitpid(-1, os.WNOHANG)[0]:
            ended.add(pid)
    except ChildProcessError:
        pass
    return ended


COMMAND_POLL_SECONDS = 0.02  # how soon after a command ends the next spare is forked


class Spare:
    """A child forked ahead of the next command, which makes its own copy of the server's memory while nothing
    waits (heap.copy_private_pages), then waits for a connection. A command forked when asked for would copy
    those pages one by one as it first writes them: about 30 ms of a 0.1 s rebuild. The server forks the next
    spare once the command has ended, so that making the copy does not take a core from the command."""

    def __init__(self, pid: int, channel: socket.socket):
        self.pid, self.channel = pid, channel

    @classmethod
    def fork(cls, listener: socket.socket, run_command) -> Spare:
        channel, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = os.fork()
        if pid == 0:
            listener.close()
            channel.close()
            _wait_as_spare(child_end, run_command)  # never returns
        child_end.close()
        return cls(pid, channel)

    def take(self, connection: socket.socket) -> bool:
        """Hand the connection to the spare; False when it is gone (the server forks the command then)."""
        try:
            socket.send_fds(self.channel, [b"c"], [connection.fileno()])
        except OSError:
            return False
        finally:
            self.channel.close()
        connection.close()
        return True


def _wait_as_spare(channel: socket.socket, run_command) -> None:
    """In a spare: copy the pages, then run the command whose connection arrives; leave when the server does."""
    from generator import heap

    heap.copy_private_pages()
    try:
        _, fds, _, _ = socket.recv_fds(channel, 1, 1)
    except OSError:
        os._exit(0)
    if not fds:  # the server ended, or a spare it let go
        os._exit(0)
    channel.close()
    _run_command(socket.socket(fileno=fds[0]), run_command)


def _greeted(connection: socket.socket) -> bool:
    """Greet a connection of this user's; False (the connection closed) for another user or a client gone."""
    import struct

    _, uid, _ = struct.unpack("3i", connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
    if uid != os.getuid():
        connection.close()  # only this user's commands
        return False
    try:
        connection.sendall(GREETING)
    except OSError:  # the client gave up waiting
        connection.close()
        return False
    return True


def _fork_command(listener: socket.socket, connection: socket.socket, run_command) -> None:
    if os.fork() == 0:
        listener.close()
        _run_command(connection, run_command)  # never returns
    connection.close()


def _run_command(connection: socket.socket, run_command) -> None:
    """In the forked child: take the caller's terminal, directory and environment, run, report, exit."""
    import signal

    code = 1
    from generator import processes

    processes.register_callers_fd(connection.fileno())  # render workers must not hold the client's connection
    try:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
            signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL)
        header, fds, _, _ = socket.recv_fds(connection, 4, 3)
        if len(header) < 4 or len(fds) != 3:
            os._exit(0)  # a probe (is anyone listening?), not a command
        size = int.from_bytes(header, "big")
        payload = b""
        while len(payload) < size:
            chunk = connection.recv(size - len(payload))
            if not chunk:
                os._exit(1)
            payload += chunk
        request = marshal.loads(payload)
        connection.sendall(f"pid {os.getpid()}\n".encode())  # before taking the terminal: a caller that
        for target, fd in zip((0, 1, 2), fds):  # gave up waiting sees nothing from us
            os.dup2(fd, target)
            os.close(fd)
        sys.argv = ["pnpgen", *request["argv"]]
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.umask(request["umask"])
        (out_encoding, out_errors), (err_encoding, err_errors) = request["encodings"]
        # the server's own streams were /dev/null; the command's own streams, left open
        sys.stdin = open(0, encoding=out_encoding, closefd=False)  # noqa: SIM115
        sys.stdout = open(  # noqa: SIM115 - the command's own stream, left open
            1,
            "w",
            encoding=out_encoding,
            errors=out_errors,
            closefd=False,
            buffering=1 if os.isatty(1) else -1,
        )
        sys.stderr = open(2, "w", encoding=err_encoding, errors=err_errors, closefd=False, buffering=1)  # noqa: SIM115
        code = run_command(request["argv"])
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException as error:  # noqa: BLE001 - reported to the caller's terminal, never lost
        print(f"error: pnpgen server: {error!r}; run again with PNPGEN_DAEMON=0", file=sys.stderr)
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        try:
            connection.sendall(f"exit {code}\n".encode())
        finally:
            os._exit(code)


def servers() -> list[tuple[str, int]]:
    """(socket, pid) of this user's running servers."""
    folder = runtime_dir()
    if folder is None:
        return []
    found = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".pid"):
            continue
        pid_file = os.path.join(folder, name)
        try:
            with open(pid_file) as handle:
                pid = int(handle.read())
            if not is_our_server(pid):
                raise ProcessLookupError(pid)
            found.append((pid_file.removesuffix(".pid") + ".sock", pid))
        except (OSError, ValueError):
            _remove(pid_file)
    return found


def is_our_server(pid: int) -> bool:
    """Whether pid is a pnpgen server of this user: a pid file may outlive its server, and the number be
    reused by any other process, which `daemon stop` must never signal."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            argv = handle.read().split(b"\0")
        owner = os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return False
    arguments = [a for a in argv if a]
    return (
        owner == os.getuid()
        and b"--foreground" in arguments
        and b"daemon" in arguments
        and b"start" in arguments
        and any(a.endswith((b"generator", b"pnpgen")) for a in arguments)
    )


def stop_all() -> int:
    import signal

    stopped = 0
    for _, pid in servers():
        _send_signal(pid, signal.SIGTERM)
        stopped += 1
    return stopped


def wait_until_ready(server, timeout: float = 30.0) -> bool:
    """Whether the server spawn started answers within timeout; False at once when it has ended."""
    path = socket_path()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path is not None and _answers(path):
            return True
        if server.poll() is not None:
            return path is not None and _answers(path)
        time.sleep(0.05)
    return False
