"""pnpgen run in a folder someone else filled: a `generator.py`, a `generator/` package and modules named like the
standard library's or pnpgen's dependencies are never imported, by the command, its render workers' fork server,
`pnpgen serve` or the resident server it starts, and the command works. Also: a server that cannot start says so."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, page_text

PNPGEN = Path(sys.executable).parent / "pnpgen"  # the editable install's command (a .pth file names the checkout)
HOSTILE = ["generator.py", "generator/__init__.py", "generator/__main__.py", "generator/cli.py", "multiprocessing.py"]
HOSTILE += ["multiprocessing/__init__.py", "weasyprint.py", "site.py", "sitecustomize.py", "encodings.py"]


def fill_hostile(folder: Path, markers: Path) -> None:
    """Each file, imported, makes a marker named after itself."""
    for name in HOSTILE:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        marker = markers / name.replace("/", "-")
        path.write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit('hostile {name} ran')\n")


@pytest.fixture
def hostile(tmp_path):
    folder, markers = tmp_path / "hostile", tmp_path / "markers"
    folder.mkdir()
    markers.mkdir()
    fill_hostile(folder, markers)
    yield folder
    assert sorted(p.name for p in markers.iterdir()) == []  # nothing of the folder ran


def user_env(**extra):
    env = {**os.environ, "PNPGEN_DAEMON": "0", **extra}
    env.pop("CI", None)
    return env


def run(command, cwd, env, timeout=600):
    return subprocess.run([str(a) for a in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def assert_built(out: Path, game: str = "small"):
    text = page_text(out / game / "cards-en-a4.pdf", 0)
    assert all(name in text for name in ("Apple", "Pear", "Grapes")), text


@pytest.mark.slow
def test_a_build_in_a_hostile_folder_runs_none_of_it(hostile, small_game, tmp_path):
    result = run(
        [PNPGEN, "build", small_game, "--out", tmp_path / "out", "--paper", "a4", "--lang", "en"], hostile, user_env()
    )
    assert result.returncode == 0, result.stderr
    assert_built(tmp_path / "out")
    assert not re.search(r"hostile \S+ ran", result.stderr)


@pytest.mark.slow
def test_serve_in_a_hostile_folder_starts_and_runs_none_of_it(hostile, small_game):
    served = subprocess.Popen(
        [PNPGEN, "serve", small_game, "--port", "0"],
        cwd=hostile,
        env=user_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for line in served.stdout:
            if "serving" in line:
                break
        origin = re.search(r"http://127\.0\.0\.1:\d+", line).group(0)
        assert (
            urllib.request.urlopen(f"{origin}/", timeout=60).read() == (ROOT / "generator/web/index.html").read_bytes()
        )
        state = urllib.request.urlopen(f"{origin}/api/state", timeout=120).read().decode()
        assert "Apple" in state and "りんご" in state
    finally:
        served.send_signal(signal.SIGINT)
        served.communicate(timeout=60)


@pytest.fixture
def server_env():
    """The resident server on, its socket in a private folder; every server started in it stopped afterwards."""
    runtime = tempfile.mkdtemp(prefix="pnh")
    env = user_env(PNPGEN_DAEMON="1", XDG_RUNTIME_DIR=runtime)
    yield env
    run([PNPGEN, "daemon", "stop"], ROOT, env)


def served_here(python, cwd, env, argv) -> subprocess.CompletedProcess:
    """Hand argv to the running server as the `pnpgen` command does (daemon.run_remote), from cwd; exit code 0
    when a server ran it successfully, 1 when it failed, 3 when no server took it."""
    argv = [str(a) for a in argv]
    probe = (
        f"import os, sys; os.environ.update({env!r}); from generator import daemon; "
        f"code = daemon.run_remote({argv!r}); sys.exit(3 if code is None else min(code, 1))"
    )
    return subprocess.run([python, "-I", "-c", probe], cwd=cwd, capture_output=True, text=True, timeout=600)


def servers(env) -> list[int]:
    status = run([PNPGEN, "daemon", "status"], ROOT, env).stdout
    return [int(line.split()[1]) for line in status.splitlines() if line.startswith("pid ")]


@pytest.mark.slow
def test_the_server_started_from_a_hostile_folder_runs_none_of_it_and_serves_the_next_build(
    hostile, small_game, tmp_path, server_env
):
    out = tmp_path / "out"
    first = run([PNPGEN, "build", small_game, "--out", out, "--paper", "a4", "--lang", "en"], hostile, server_env)
    assert first.returncode == 0, first.stderr
    deadline = time.monotonic() + 120
    while not servers(server_env) and time.monotonic() < deadline:  # started in the background by the build
        time.sleep(0.2)
    (pid,) = servers(server_env)
    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert command[1:5] == [b"-I", b"-u", b"-m", b"generator"]
    assert Path(f"/proc/{pid}/cwd").resolve() != hostile.resolve()
    (out / "small" / "cards-en-a4.pdf").unlink()
    served = served_here(sys.executable, hostile, server_env, ["build", small_game, "--out", out, "--lang", "en"])
    assert served.returncode == 0, served.stderr  # a server ran the command, in the hostile folder
    assert "warning" not in served.stderr and not re.search(r"hostile \S+ ran", served.stderr)
    assert_built(out)
    assert servers(server_env) == [pid]  # it ran the build, and is still there


@pytest.fixture
def failing_server(tmp_path, monkeypatch):
    """The server on, and starting it ends at once with an error, as a broken installation's would."""
    from generator import processes

    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("PNPGEN_DAEMON", "1")
    monkeypatch.delenv("CI", raising=False)
    crash = "import sys; print('loading pnpgen'); sys.exit('ImportError: cannot import name warm_up')"
    monkeypatch.setattr(processes, "isolated_python", lambda: (sys.executable, "-I", "-u", "-c", crash, "--"))
    return runtime


def test_a_server_that_could_not_start_is_reported_by_the_next_command(failing_server, capsys):
    from generator import daemon

    server = daemon.spawn()  # what a command run without a server does after it (start_in_background)
    assert server.wait(timeout=60) == 1
    assert daemon.run_remote(["validate", "small"]) is None  # runs here
    err = capsys.readouterr().err
    log = failing_server / f"pnpgen-{os.getuid()}" / f"{daemon.fingerprint()}.failed.log"
    assert err == (
        "warning: the pnpgen server could not start: ImportError: cannot import name warm_up "
        f"(all it printed: {log}); commands run without it (`pnpgen daemon start --foreground` shows why; "
        "PNPGEN_DAEMON=0 turns it off)\n"
    )
    assert log.read_text() == "loading pnpgen\nImportError: cannot import name warm_up\n"
    assert daemon.run_remote(["validate", "small"]) is None
    assert capsys.readouterr().err == ""  # said once


def test_daemon_start_says_at_once_why_the_server_did_not_start(failing_server, cli):
    started = time.monotonic()
    result = cli("daemon", "start")
    assert result.code == 1
    assert result.err.startswith(
        "error: the pnpgen server did not start: ImportError: cannot import name warm_up (all it printed: "
    )
    assert time.monotonic() - started < 20  # not the 30 s wait for a server that is gone


def test_pnpgen_installed_in_site_packages_or_through_a_pth_file_is_started_isolated(tmp_path, monkeypatch):
    from generator import processes

    assert processes.isolated_python() == (sys.executable, "-I")  # this checkout, installed editable (a .pth file)
    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "other.pth").write_text("# a comment\nimport os\n/somewhere/else\n")
    assert not processes._reached_from([str(site)])
    (site / "_pnpgen.pth").write_text(f"{ROOT}\n")
    assert processes._reached_from([str(site)])
    assert processes._reached_from([processes.PACKAGE_ROOT])  # a wheel: the package in site-packages itself


def test_processes_started_by_multiprocessing_get_no_current_folder(monkeypatch, tmp_path):
    from generator import processes

    monkeypatch.setattr(sys, "path", ["", "lib", *sys.path])
    monkeypatch.setenv("PYTHONPATH", f"lib::{ROOT}")
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    before = sys.path[:]
    with processes.isolated_start():
        assert os.environ["PYTHONSAFEPATH"] == "1" and os.environ["PYTHONPATH"] == str(ROOT)
        assert sys.path == [entry for entry in before if entry not in ("", "lib")]
        started = subprocess.run(  # as multiprocessing starts its fork server
            [sys.executable, "-c", "import sys, json; print(json.dumps(sys.path))"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        path = json.loads(started.stdout)
        assert "" not in path and str(tmp_path) not in path and "lib" not in path and str(ROOT) in path
    assert sys.path == before and os.environ["PYTHONPATH"] == f"lib::{ROOT}" and "PYTHONSAFEPATH" not in os.environ
