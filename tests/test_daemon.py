"""The resident server (generator.daemon): commands run in it give the same files, output and exit codes as
commands run alone, and it can be stopped."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import ROOT, copy_game, page_text
from generator import daemon
from generator.commands import COMMANDS, NAMES, RESIDENT, runner


@pytest.fixture
def server_env():
    """An environment with the server turned on, its socket in a private folder (short: sockets have a
    108-byte path limit); every server started in it is stopped afterwards."""
    runtime = tempfile.mkdtemp(prefix="pnd")
    env = {**os.environ, "PNPGEN_DAEMON": "1", "XDG_RUNTIME_DIR": runtime}
    env.pop("CI", None)
    yield env
    subprocess.run([sys.executable, "-m", "generator", "daemon", "stop"], env=env, capture_output=True)
    shutil.rmtree(runtime, ignore_errors=True)


def pnpgen(env, *args, cwd=ROOT, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "generator", *map(str, args)], env=env, cwd=cwd, capture_output=True, text=True, **kwargs
    )


def server_pids(env) -> list[int]:
    status = pnpgen(env, "daemon", "status").stdout
    return [int(line.split()[1]) for line in status.splitlines() if line.startswith("pid ")]


def started(env) -> int:
    result = pnpgen(env, "daemon", "start")
    assert result.returncode == 0, result.stderr
    (pid,) = server_pids(env)
    return pid


def test_the_parser_has_each_command_of_the_registry_in_its_order():
    subparsers = next(action for action in runner.parser()._actions if action.dest == "command")
    assert list(subparsers.choices) == list(NAMES)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command.name)
def test_a_command_runs_in_the_server_when_its_registry_entry_says_so(command, monkeypatch):
    monkeypatch.setenv("PNPGEN_DAEMON", "1")
    assert daemon.wanted([command.name, "x"], RESIDENT) is command.resident
    assert not daemon.wanted([command.name, "--help"], RESIDENT)
    monkeypatch.setenv("PNPGEN_DAEMON", "0")
    assert not daemon.wanted([command.name, "x"], RESIDENT)


def test_a_build_in_the_server_writes_what_a_build_alone_writes(server_env, tmp_path):
    game = copy_game("ikkin", tmp_path)
    alone = pnpgen(
        {**server_env, "PNPGEN_DAEMON": "0"},
        "build",
        game.name,
        "--out",
        "alone",
        "--paper",
        "a4",
        "--lang",
        "en",
        cwd=tmp_path,
    )
    assert alone.returncode == 0, alone.stderr
    server = started(server_env)
    served = pnpgen(
        server_env, "build", game.name, "--out", "served", "--paper", "a4", "--lang", "en", cwd=tmp_path
    )  # a relative game and output: the server works in the caller's directory
    assert served.returncode == 0, served.stderr
    assert "wrote cards-en-a4.pdf" in served.stderr  # the progress lines reach the caller's terminal
    assert "Traceback" not in served.stderr
    pdfs = sorted(p.relative_to(tmp_path / "alone") for p in (tmp_path / "alone").rglob("*.pdf"))
    assert pdfs and pdfs == sorted(p.relative_to(tmp_path / "served") for p in (tmp_path / "served").rglob("*.pdf"))
    for pdf in pdfs:
        assert (tmp_path / "alone" / pdf).read_bytes() == (tmp_path / "served" / pdf).read_bytes(), pdf
    assert server_pids(server_env) == [server]  # the same server, still there
    served_file = tmp_path / "served" / "ikkin" / "cards-en-a4.pdf"
    assert oct(served_file.stat().st_mode & 0o777) == oct(0o666 & ~current_umask())


def current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_the_benchmarks_one_card_edit_built_in_the_server_prints_the_new_text(server_env, tmp_path):
    """The edit `make bench` times: the served fork renders the one changed face itself and writes the sheets
    again, with the new text on the first card and the old one gone, as a build alone prints it."""
    sys.path.insert(0, str(ROOT / "bench"))
    from deck import cards, write_pnpgen_game

    game = write_pnpgen_game(tmp_path)
    started(server_env)
    first = pnpgen(server_env, "build", game, "--paper", "a4", "--out", tmp_path / "served")
    assert first.returncode == 0, first.stderr
    write_pnpgen_game(tmp_path, edit="Edited in the server, then read back.")
    edited = pnpgen(server_env, "build", game, "--paper", "a4", "--out", tmp_path / "served")
    assert edited.returncode == 0, edited.stderr
    assert "(100 faces from the cache, 1 rendered)" in edited.stderr  # the edited front; backs, labels cached
    alone = pnpgen({**server_env, "PNPGEN_DAEMON": "0"}, "build", game, "--paper", "a4", "--out", tmp_path / "alone")
    assert alone.returncode == 0, alone.stderr
    for out in ("served", "alone"):
        text = " ".join(page_text(tmp_path / out / "bench-deck" / "cards-en-a4.pdf", 0).split())  # lines joined
        assert "Edited in the server, then read back." in text, out
        assert cards()[0]["body"] not in text and cards()[1]["body"] in text, out


def test_the_caller_gets_the_exit_code_and_the_error(server_env):
    started(server_env)
    result = pnpgen(server_env, "build", "no-such-game")
    assert result.returncode == 2
    assert "error:" in result.stderr and "no such game" in result.stderr
    assert "Traceback" not in result.stderr
    usage = pnpgen(server_env, "build", "--paper", "a5")
    assert usage.returncode == 2 and "invalid choice" in usage.stderr


def run_remote(env, argv):
    """daemon.run_remote in a new process: (whether a server ran the command, that process' output)."""
    probe = (
        f"import os, sys; os.environ.update({env!r}); from generator import daemon; "
        f"sys.exit(100 + (daemon.run_remote({argv!r}) is not None))"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode in (100, 101), result.stderr
    return result.returncode == 101, result.stdout


def test_a_command_really_runs_in_the_server(server_env):
    started(server_env)
    served, out = run_remote(server_env, ["validate", "ikkin"])
    assert served
    assert "no problems" in out  # printed by the server's child, on the calling process' stdout


def test_the_client_hands_the_command_over_before_importing_anything_heavy(server_env):
    """A served command's own process only starts Python, finds the server and passes the command: what it
    imported by then (when the command is packed, after the greeting) is all it costs, so none of the runner,
    argparse or typing (nor the signal module, imported while the server starts the command)."""
    started(server_env)
    probe = (
        f"import os, sys, marshal; os.environ.update({server_env!r}); from generator import cli; seen = []; "
        "dumps = marshal.dumps; marshal.dumps = lambda request: seen.append(set(sys.modules)) or dumps(request); "
        "code = cli.main(['validate', 'ikkin']); "
        "heavy = {'generator.commands.runner', 'argparse', 'typing', 'signal'}; "
        "print(sorted(seen[0] & heavy), code)"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[] 0"
    assert "no problems" in result.stdout  # and the server ran it


def test_ctrl_c_reaches_the_command_in_the_server(server_env, tmp_path):
    started(server_env)
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "build", "--no-cache", "--out", tmp_path / "out"],
        cwd=ROOT,
        env=server_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen = []
    while not any("distinct faces" in line for line in seen):  # the build has started
        seen.append(process.stderr.readline())
        assert seen[-1], f"the build printed no progress: {seen}"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, seen + [err]
    assert "interrupted" in err


def test_stop_ends_the_server_and_commands_still_run_without_it(server_env):
    pid = started(server_env)
    assert "stopped 1" in pnpgen(server_env, "daemon", "stop").stdout
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and os.path.exists(f"/proc/{pid}"):
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{pid}") or Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    result = pnpgen({**server_env, "CI": "1"}, "validate", "ikkin")  # no server, and CI starts none
    assert result.returncode == 0 and "no problems" in result.stdout
    assert server_pids(server_env) == []


def test_a_command_alone_leaves_a_server_for_the_next_one(server_env):
    assert pnpgen(server_env, "validate", "ikkin").returncode == 0
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not server_pids(server_env):
        time.sleep(0.1)
    assert len(server_pids(server_env)) == 1


def test_a_server_of_another_installation_is_not_used(server_env):
    started(server_env)
    assert "current" in pnpgen(server_env, "daemon", "status").stdout
    other = {**server_env, "PNPGEN_PLAIN_WEASYPRINT": "1"}  # part of the fingerprint, like pnpgen's code
    assert "stale" in pnpgen(other, "daemon", "status").stdout
    served, _ = run_remote(other, ["list"])
    assert not served  # no server for this installation: the command runs in its own process


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_killed_served_command_leaves_no_worker_and_its_client_does_not_wait(server_env, tmp_path):
    server = started(server_env)
    client = subprocess.Popen(
        [sys.executable, "-m", "generator", "build", "ikkin", "--no-cache", "--jobs", "2", "--out", tmp_path / "out"],
        cwd=ROOT,
        env=server_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert wait_for(lambda: any(len(children(c)) >= 2 for c in children(server)), 60), "no render workers"
    command = next(c for c in children(server) if len(children(c)) >= 2)
    workers = children(command)
    os.kill(command, signal.SIGKILL)
    started_waiting = time.monotonic()
    _, err = client.communicate(timeout=30)  # the orphans held its stdout and the connection before
    assert time.monotonic() - started_waiting < 10
    assert client.returncode == 1 and b"stopped during the command" in err
    assert wait_for(lambda: not any(alive(w) for w in workers), 5), "render workers outlived their command"


def test_a_stopped_server_does_not_hold_the_clients_output(server_env, tmp_path):
    server = started(server_env)
    os.kill(server, signal.SIGSTOP)
    try:
        # `pnpgen validate | cat`: the pipe must close when pnpgen ends, run without the stopped server
        pipeline = subprocess.Popen(
            f"{sys.executable} -m generator validate ikkin | cat",
            shell=True,
            cwd=ROOT,
            env=server_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            out, _ = pipeline.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(pipeline.pid, signal.SIGKILL)
            pipeline.communicate()
            raise AssertionError("the stopped server held the command's output open") from None
        assert "no problems" in out
    finally:
        os.kill(server, signal.SIGCONT)


def test_files_written_through_the_server_take_the_callers_umask(server_env, tmp_path):
    started(server_env)
    game = copy_game("ikkin", tmp_path)
    result = subprocess.run(
        f"umask 077 && {sys.executable} -m generator rules {game} --paper a4 --lang en --out {tmp_path / 'out'}",
        shell=True,
        cwd=ROOT,
        env=server_env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    written = list((tmp_path / "out").rglob("*.pdf"))
    assert written and all(oct(p.stat().st_mode & 0o777) == oct(0o600) for p in written)


def test_stop_signals_only_a_process_that_is_its_server(server_env, tmp_path):
    innocent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        pid_file = os.path.join(server_env["XDG_RUNTIME_DIR"], f"pnpgen-{os.getuid()}", "0123456789abcdef.pid")
        os.makedirs(os.path.dirname(pid_file), mode=0o700, exist_ok=True)
        with open(pid_file, "w") as handle:  # a server killed with -9 left its pid file; the number was reused
            handle.write(f"{innocent.pid}\n")
        assert "stopped 0" in pnpgen(server_env, "daemon", "stop").stdout
        time.sleep(0.2)
        assert innocent.poll() is None
        assert not os.path.exists(pid_file)
    finally:
        innocent.kill()
        innocent.wait()


def private_dirty_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            line = next(line for line in handle if line.startswith("Private_Dirty:"))
    except (OSError, StopIteration):
        return 0.0
    return int(line.split()[1]) / 1024


def test_a_command_runs_in_a_spare_forked_before_it_was_asked_for(server_env):
    server = started(server_env)
    assert wait_for(lambda: len(children(server)) == 1, 10), "no spare waiting"
    (spare,) = children(server)
    # it made its own copy of the server's memory while nothing waited (the server is some 70 MB)
    assert wait_for(lambda: private_dirty_mb(spare) > 30, 10), private_dirty_mb(spare)
    served, out = run_remote(server_env, ["validate", "ikkin"])
    assert served and "no problems" in out
    assert wait_for(lambda: not alive(spare), 10), "the spare, which ran the command, did not end with it"
    assert wait_for(lambda: len(children(server)) == 1 and children(server) != [spare], 10), "no new spare"
    os.kill(children(server)[0], signal.SIGKILL)  # a spare gone: the next command is forked as it comes
    served, out = run_remote(server_env, ["validate", "ikkin"])
    assert served and "no problems" in out
