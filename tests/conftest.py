"""Shared helpers: run the CLI in-process, make small games, open PDFs."""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest

from generator.cli import main

ROOT = Path(__file__).resolve().parent.parent
os.environ["PNPGEN_DAEMON"] = "0"  # every command runs in the test's own process tree; test_daemon.py opts in
MM = 72 / 25.4


class Result:
    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err

    def __repr__(self):
        return f"Result(code={self.code}, out={self.out!r}, err={self.err!r})"


@pytest.fixture
def cli(capsys):
    """Run `pnpgen ARGS` in this process; returns exit code and captured output."""

    def run(*args):
        capsys.readouterr()
        try:
            code = main([str(a) for a in args])
        except SystemExit as exit_:
            code = exit_.code
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def run_subprocess(*args, cwd=ROOT):
    """Run pnpgen as a user would, in a child process."""
    result = subprocess.run(
        [sys.executable, "-m", "generator", *map(str, args)], cwd=cwd, capture_output=True, text=True
    )
    return Result(result.returncode, result.stdout, result.stderr)


@pytest.fixture
def small_game(tmp_path, cli):
    """The game `pnpgen new` scaffolds, in a temporary directory, less its board and its picture: a deck of cards
    alone, its lines and columns where many tests expect them (tests/test_new_game.py builds the starter whole)."""
    path = tmp_path / "small"
    assert cli("new", path).code == 0
    cards_alone(path)
    return path


def cards_alone(game: Path) -> None:
    shutil.rmtree(game / "boards")
    shutil.rmtree(game / "art")
    components = (game / "components.yaml").read_text(encoding="utf-8")
    board = components[components.index("  - id: board") : components.index("  - id: rules")]
    (game / "components.yaml").write_text(components.replace(board, ""), encoding="utf-8")
    for name, starts in (
        ("decks/cards.yaml", ("  picture:", "    picture:")),
        ("templates/card.html", '  <div class="picture"'),
    ):
        lines = (game / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (game / name).write_text("".join(line for line in lines if not line.startswith(starts)), encoding="utf-8")


def copy_game(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(ROOT / "cards" / name, target)
    return target


def placements(page: pikepdf.Page, texts: bool = False):
    """(form name, x, y, w, h, rotated) in mm of every form XObject drawn on a sheet page; without `texts`,
    not the paper-size page of texts (sheet label, 100% note) laid over it."""
    found = []
    paper = [float(v) for v in page.mediabox]
    matrix = None
    xobjects = page.Resources.get("/XObject", {})
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "cm":
            matrix = [float(v) for v in operands]
        elif op == "Do":
            name = str(operands[0])
            x0, y0, x1, y1 = (float(v) for v in xobjects[name].BBox)
            a, _, _, _, e, f = matrix
            if a > 0:
                rect = (e + x0, f + y0)
            else:  # turned 180 degrees
                rect = (e - x1, f - y1)
            if not texts and abs(x1 - x0 - paper[2]) < 0.1 and abs(y1 - y0 - paper[3]) < 0.1 and abs(e) < 0.1:
                continue
            found.append((name, rect[0] / MM, rect[1] / MM, (x1 - x0) / MM, (y1 - y0) / MM, a < 0))
    return found


def page_size_mm(page: pikepdf.Page):
    box = [float(v) for v in page.mediabox]
    return ((box[2] - box[0]) / MM, (box[3] - box[1]) / MM)


def fonts_of(pdf: pikepdf.Pdf):
    """Every font dictionary reachable from the pages, through form XObjects."""
    seen, fonts = set(), []

    def walk(resources):
        if resources is None:
            return
        for font in resources.get("/Font", {}).values():
            if font.objgen not in seen:
                seen.add(font.objgen)
                fonts.append(font)
        for xobject in resources.get("/XObject", {}).values():
            if xobject.objgen not in seen and xobject.get("/Subtype") == "/Form":
                seen.add(xobject.objgen)
                walk(xobject.get("/Resources"))

    for page in pdf.pages:
        walk(page.get("/Resources"))
    return fonts


def is_embedded(font) -> bool:
    descendants = font.get("/DescendantFonts")
    target = descendants[0] if descendants else font
    descriptor = target.get("/FontDescriptor")
    if descriptor is None:
        return font.get("/Subtype") == "/Type3"
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def page_text(path: Path, index: int) -> str:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return document[index].get_textpage().get_text_range()
    finally:
        document.close()


class Served:
    """A `pnpgen serve` server on a free port, in this process; `request` talks to it as the page does."""

    def __init__(self, game_dir: Path, cache_dir: Path):
        import threading

        from generator.web.server import Server
        from generator.web.session import GameSession

        self.session = GameSession(game_dir, cache_dir, jobs=1)
        self.session.refresh()
        self.server = Server(self.session, 0)
        self.url = self.server.origin
        self.server.start_watching()
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def request(self, path, body=None, headers=None, origin=True):
        """(status, parsed JSON or bytes) of a GET, or of a POST when a body is given."""
        import json
        import urllib.error
        import urllib.request

        sent = {"Content-Type": "application/json"} if body is not None else {}
        if body is not None and origin:
            sent["Origin"] = self.url
        sent.update(headers or {})
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, kind, payload = response.status, response.headers["Content-Type"], response.read()
        except urllib.error.HTTPError as error:
            status, kind, payload = error.code, error.headers["Content-Type"], error.read()
        return status, json.loads(payload) if kind and kind.startswith("application/json") else payload

    def string(self, string_id):
        return self.request("/api/state")[1]["strings"][string_id]

    def edit(self, string_id, lang, text, version=None, **options):
        version = version or self.string(string_id)["version"]
        return self.request("/api/edit", {"id": string_id, "lang": lang, "text": text, "version": version}, **options)

    def stop(self):
        self.server.stop()


KITS = ["greed-inc", "ikkin", "mint-rails"]


def run_temp(tmp_path_factory) -> Path:
    """The temporary folder of the whole test run, shared by the xdist workers (each has its own below it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once_per_run(tmp_path_factory, name: str, make) -> None:
    """Run `make()` once per test run however many xdist workers ask: the first does, the others wait for it
    (a build keeps both cores busy meanwhile). If it fails, the next one to ask tries again."""
    shared = run_temp(tmp_path_factory)
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / f"{name}.done"
        if not done.exists():
            make()
            done.touch()


@pytest.fixture(scope="session")
def kits(tmp_path_factory):
    """The three seed kits built as a user builds them (every language and paper the tests read), once per
    test run; exports into the same folder take their faces from this build's cache."""
    out = run_temp(tmp_path_factory) / "kits"

    def build():
        assert main(["build", *KITS, "--out", str(out), "--quiet"]) == 0

    once_per_run(tmp_path_factory, "kits", build)
    return out


KIT_EXPORTS = {"png": None, "tts": None, "tgc": "ja", "mpc": "ja", "pdfx": "ja"}  # target -> --lang (None: all)


@pytest.fixture(scope="session")
def kit_exports(kits, tmp_path_factory):
    """`kit_exports(game_id)`: the kit exported to every target into its build's folder, its faces from the
    build's cache, once per test run (each kit apart: two workers export two kits at once): png and tts in both
    languages (their images are compared with the card sheets), the others in Japanese. Returns target -> the
    export's Result."""

    def exports(game_id: str) -> dict[str, Result]:
        results = run_temp(tmp_path_factory) / f"kit-exports-{game_id}.json"

        def export():
            found = {}
            for target, lang in KIT_EXPORTS.items():
                args = ["export", game_id, "--to", target, "--out", str(kits), "-q"] + (
                    ["--lang", lang] if lang else []
                )
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    code = main(args)
                found[target] = [code, out.getvalue(), err.getvalue()]
            results.write_text(json.dumps(found), encoding="utf-8")

        once_per_run(tmp_path_factory, f"kit-exports-{game_id}", export)
        return {target: Result(*value) for target, value in json.loads(results.read_text(encoding="utf-8")).items()}

    return exports


def pytest_collection_modifyitems(config, items):
    """In parallel runs (`make test`), one test that reads the kits runs first, so that their build starts at
    once while the other worker runs tests that need no kit; the rest of the tests that read them run last, on
    both workers (each steals from the other's queue when its own is done)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):  # every worker sorts alike (xdist checks that they collect alike)
        first = next((item for item in items if "kits" in item.fixturenames), None)
        items.sort(key=lambda item: 0 if item is first else 2 if "kits" in item.fixturenames else 1)


def seeded_out(kits: Path, out: Path) -> Path:
    """An output folder whose face cache starts as the kits' (hard links: a cache entry is replaced, never
    written in place): a copy of a kit renders only the faces that differ from the kit's."""
    for entry in (kits / ".cache").rglob("*"):
        target = out / ".cache" / entry.relative_to(kits / ".cache")
        if entry.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(entry, target)
        except FileNotFoundError:
            continue  # an entry being replaced by an export right now
        except OSError:  # a file system without hard links
            shutil.copyfile(entry, target)
    return out


@pytest.fixture(scope="session")
def face_cache_dir(tmp_path_factory):
    """One face cache for the tests' small games: they share most faces."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def served(small_game, face_cache_dir):
    server = Served(small_game, face_cache_dir)
    yield server
    server.stop()
