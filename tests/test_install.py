"""pnpgen installed from its wheel (not editable), used outside the repository: `pnpgen new` and `pnpgen build`
work from any directory, pnpgen's own files come from the installed package, nothing is written into it."""

from __future__ import annotations

import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pikepdf
import pytest

from conftest import ROOT, page_text

pytestmark = [pytest.mark.slow, pytest.mark.install]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(dist),
            str(ROOT),
        ],
        check=True,
    )
    (found,) = dist.glob("pnpgen-*.whl")
    return found


def test_the_wheel_holds_the_package_its_templates_and_page_and_nothing_else(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    base = {
        f"generator/templates/base/{p.relative_to(ROOT / 'templates/base').as_posix()}"
        for p in (ROOT / "templates/base").rglob("*")
        if p.is_file()
    }
    assert "generator/templates/base/card.css" in base and base <= names
    assert {"generator/web/index.html", "generator/web/app.js", "generator/web/style.css"} <= names
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "generator").rglob("*.py")}
    assert modules <= names
    package = {n for n in names if not n.startswith("pnpgen-")}
    strays = {
        n
        for n in package
        if not n.startswith("generator/")
        or "__pycache__" in n
        or n.endswith((".pyc", ".pyo"))
        or "/.cache" in n
        or "/tests/" in n
    }
    assert not strays
    assert package == modules | base | {n for n in names if n.startswith("generator/web/")}


def test_the_wheel_and_the_sdist_carry_the_mit_license_they_declare(wheel, tmp_path):
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License\n\nCopyright (c) 2026 pnpgen authors\n")
    archive = zipfile.ZipFile(wheel)
    info = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA")).rpartition("/")[0]
    assert archive.read(f"{info}/licenses/LICENSE").decode("utf-8") == license_text
    metadata = archive.read(f"{info}/METADATA").decode("utf-8")
    assert "License-Expression: MIT\n" in metadata and "License-File: LICENSE\n" in metadata
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-d", str(tmp_path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    (sdist,) = tmp_path.glob("pnpgen-*.tar.gz")
    with tarfile.open(sdist) as bundle:
        top = bundle.getnames()[0].split("/")[0]
        assert bundle.extractfile(f"{top}/LICENSE").read().decode("utf-8") == license_text


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv holding the wheel; its dependencies are the project venv's installed packages (a path
    entry, so the editable install's own entry, the source tree, is not on sys.path). Made read-only."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "_project_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--ignore-installed", str(wheel)],
        check=True,
    )
    for folder, _, files in os.walk(site / "generator"):
        for name in [*files, "."]:
            os.chmod(os.path.join(folder, name), 0o555 if name == "." else 0o444)
    return venv


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.rglob("*")}


def without_write_override():
    """As root, give up the right to write where the permissions say no: the read-only install then is."""
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, for the child's exec
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "cannot drop CAP_DAC_OVERRIDE")


class User:
    """Someone with a home and a working directory of their own, running the installed pnpgen."""

    def __init__(self, venv: Path, home: Path):
        self.venv, self.home = venv, home
        self.env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(home), "PNPGEN_DAEMON": "0", "LANG": "C.UTF-8"}

    def popen(self, *args, cwd: Path, **options) -> subprocess.Popen:
        return subprocess.Popen(
            ["pnpgen", *map(str, args)], cwd=cwd, env=self.env, text=True, preexec_fn=without_write_override, **options
        )

    def run(self, *args, cwd: Path) -> subprocess.CompletedProcess:
        process = self.popen(*args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = process.communicate(timeout=600)
        return subprocess.CompletedProcess(args, process.returncode, out, err)


def test_installed_pnpgen_makes_and_builds_a_game_outside_the_repository(installed, tmp_path):
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    user = User(installed, home)
    site = next((installed / "lib").glob("python3.*/site-packages"))
    before = snapshot(site)

    where = subprocess.run(
        [
            installed / "bin" / "python",
            "-c",
            (
                "import json, sys, generator, generator.paths as p; "
                "print(json.dumps([generator.__file__, p.INSTALLED, str(p.TEMPLATES_DIR), "
                "str(p.OUTPUT_DIR), sys.path]))"
            ),
        ],
        cwd=work,
        env=user.env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module, packaged, templates, output, path = json.loads(where)
    assert (module, packaged, templates, output) == (
        f"{site}/generator/__init__.py",
        True,
        f"{site}/generator/templates",
        "output",
    )
    assert str(ROOT) not in path  # the source tree is not on sys.path: only the project venv's packages
    probe = subprocess.run(
        ["touch", site / "generator" / "probe"], preexec_fn=without_write_override, capture_output=True
    )
    assert probe.returncode != 0  # the install really is read-only for pnpgen

    result = user.run("--help", cwd=work)
    assert result.returncode == 0 and "build" in result.stdout and "new" in result.stdout
    result = user.run("list", cwd=work)
    assert result.returncode == 0 and f"there is no cards/ folder in {work}" in result.stderr
    result = user.run("build", cwd=work)
    assert result.returncode == 2 and f"no game given, and there is no cards/ folder in {work}" in result.stderr
    result = user.run("build", "my-game", cwd=work)
    assert result.returncode == 2 and f"there is no cards/ folder in {work}" in result.stderr
    assert "Traceback" not in result.stderr

    game = home / "x" / "my-game"
    result = user.run("new", game, cwd=work)
    assert result.returncode == 0, result.stderr
    result = user.run("build", game, "--paper", "a4", cwd=work)
    assert result.returncode == 0, result.stderr
    for lang, names in (("en", ["Apple", "Pear", "Grapes"]), ("ja", ["りんご", "ぶどう"])):
        pdf = work / "output" / "my-game" / f"cards-{lang}-a4.pdf"
        with pikepdf.open(pdf) as opened:
            assert len(opened.pages) == 2  # six cards: one sheet of fronts, one of backs
        text = page_text(pdf, 0)
        assert all(name in text for name in names), text
    assert (home / ".cache" / "pnpgen" / "faces").is_dir()  # a game outside the working directory

    result = user.run("validate", "my-game", cwd=game.parent)  # a relative path, from another directory
    assert result.returncode == 0, result.stderr

    served = user.popen("serve", game, "--port", "0", cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for line in served.stdout:
            if "serving" in line:
                break
        origin = re.search(r"http://127\.0\.0\.1:\d+", line).group(0)
        page = urllib.request.urlopen(f"{origin}/", timeout=30).read()
        assert page == (ROOT / "generator" / "web" / "index.html").read_bytes()
    finally:
        served.send_signal(signal.SIGINT)
        served.communicate(timeout=60)

    assert snapshot(site) == before  # no cache, no compiled file, nothing written into the installed package
    assert not (ROOT / "output" / "my-game").exists()


def test_installed_pnpgen_and_its_server_run_nothing_of_a_hostile_folder(installed, tmp_path):
    """From a folder holding a `generator.py`, a `generator/` package and a `multiprocessing.py`: the build, its
    render workers' fork server and the resident server it leaves behind import pnpgen from the installed wheel
    (`python -I`), and the next build runs in that server."""
    from test_hostile_folder import fill_hostile, served_here

    home, work, markers = tmp_path / "home", tmp_path / "work", tmp_path / "markers"
    for folder in (home, work, markers):
        folder.mkdir()
    fill_hostile(work, markers)
    runtime = tempfile.mkdtemp(prefix="pni")
    user = User(installed, home)
    user.env.update(PNPGEN_DAEMON="1", XDG_RUNTIME_DIR=runtime)
    game = home / "my-game"
    assert user.run("new", game, cwd=home).returncode == 0
    try:
        first = user.run("build", game, "--paper", "a4", "--lang", "en", cwd=work)
        assert first.returncode == 0, first.stderr
        deadline = time.monotonic() + 120
        while "pid " not in (status := user.run("daemon", "status", cwd=home).stdout) and time.monotonic() < deadline:
            time.sleep(0.2)
        pid = int(status.split()[1])
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert command[0] == str(installed / "bin" / "python").encode() and command[1:5] == [
            b"-I",
            b"-u",
            b"-m",
            b"generator",
        ]
        pdf = work / "output" / "my-game" / "cards-en-a4.pdf"
        pdf.unlink()
        argv = ["build", str(game), "--paper", "a4", "--lang", "en"]
        second = served_here(installed / "bin" / "python", work, user.env, argv)
        assert second.returncode == 0, second.stderr  # the server ran it, in the hostile folder
        assert "Apple" in page_text(pdf, 0)
    finally:
        user.run("daemon", "stop", cwd=home)
    assert sorted(p.name for p in markers.iterdir()) == []
