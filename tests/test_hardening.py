"""Hostile and broken input: bounded, confined, located; outputs replaced whole or not at all."""

from __future__ import annotations

import io
import json

import pytest

from generator.build import engine
from generator.build.builder import OutputBuilder
from generator.errors import InputError, Problem


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def errors(result):
    return [line for line in result.err.splitlines() if line.startswith("error:")]


# --- all or nothing per build -------------------------------------------------------------------------------


def test_a_failed_build_leaves_the_previous_output_set_untouched(small_game, cli, monkeypatch, tmp_path):
    out = tmp_path / "out"
    assert cli("build", small_game, "--out", out, "--lang", "en", "--paper", "a4").code == 0
    folder = out / small_game.name
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert "cards-en-a4.pdf" in before and "build.json" in before
    edit(small_game / "decks" / "cards.yaml", "en: Draw 1 card.", "en: Draw 2 cards.")  # the sheet is rebuilt

    def failing(context):
        raise InputError(Problem(context.game.dir / "tokens" / "x.yaml", 3, "a token sheet fails"))

    monkeypatch.setattr(engine, "BUILDERS", [*engine.BUILDERS[:-1], OutputBuilder("tokens", failing)])
    result = cli("build", small_game, "--out", out, "--lang", "en", "--paper", "a4")
    assert result.code == 2 and "a token sheet fails" in result.err
    after = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert after == before  # same files, same bytes: no new sheet beside an old build.json, no temporary file
    monkeypatch.undo()
    assert cli("build", small_game, "--out", out, "--lang", "en", "--paper", "a4").code == 0
    report = json.loads((folder / "build.json").read_text())
    assert (folder / "cards-en-a4.pdf").read_bytes() != before["cards-en-a4.pdf"]
    # the sheets, and the print-and-play file binding them
    assert [f["path"] for f in report["files"]] == ["cards-en-a4.pdf", "pnp-en-a4.pdf"]


# --- every write reads back --------------------------------------------------------------------------------

NEEDS_QUOTES = ["? key", "?x", "?", ": x", "- x", "3", "a: b", "x #y", "[a", "*a", "yes", "null", "\\", "' q"]


def card_text(game_dir, card="apple", lang="en"):
    from generator.model import load_game

    game = load_game(game_dir)
    return next(c for c in game.decks["cards"].cards if c.id == card).fields["text"].get(lang)


@pytest.mark.parametrize("text", NEEDS_QUOTES)
def test_an_imported_translation_reads_back_as_written(cli, small_game, tmp_path, text):
    from generator.i18n.exchange.entries import Entry, Exchange
    from generator.i18n.exchange.formats import write

    po = tmp_path / "en.po"
    po.write_text(
        write(Exchange("small", "ja", "en", [Entry("cards[apple].text", "手札を1枚引く。", text)]), "po"),
        encoding="utf-8",
    )
    result = cli("i18n", "import", small_game, po)
    assert result.code == 0, result
    assert cli("validate", small_game).code == 0
    assert card_text(small_game) == text


@pytest.mark.parametrize("text", ["? key", ": x", "?"])
def test_an_editor_save_reads_back_as_written(served, small_game, text):
    status, answer = served.edit("cards[apple].text", "en", text)
    assert status == 200, answer
    assert card_text(small_game) == text
    status, answer = served.edit("cards[apple].text", "ja", text)  # the source language too
    assert status == 200, answer
    assert card_text(small_game, lang="ja") == text


def test_a_text_that_cannot_be_written_faithfully_is_refused_and_nothing_written(small_game, monkeypatch):
    from generator.yamlio import writeback

    deck = small_game / "decks" / "cards.yaml"
    before = deck.read_bytes()
    monkeypatch.setattr(writeback, "reads_back", lambda text, file, expected: False)  # a writer gone wrong
    with pytest.raises(InputError) as refused:
        writeback.prepare([(deck, ("cards", 0, "text"), "en", "Draw 3 cards.")])
    assert "would not read back" in str(refused.value) and "cards.0.text.en" in str(refused.value)
    assert deck.read_bytes() == before


# --- ids, language codes and output paths -----------------------------------------------------------------


def line_of(path, needle):
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


@pytest.mark.parametrize("command", ["validate", "rules", "build"])
def test_a_language_code_that_is_a_path_is_refused_with_its_line(small_game, cli, tmp_path, command):
    game_file = small_game / "game.yaml"
    edit(game_file, "languages: [ja, en]", "languages: [ja, 'x/../../../../escaped']")
    edit(game_file, "title: {ja: small, en: small}", "title: {ja: small, 'x/../../../../escaped': small}")
    result = cli(command, small_game, "--out", tmp_path / "out") if command != "validate" else cli(command, small_game)
    assert result.code == 2
    assert f"game.yaml:{line_of(game_file, 'languages:')}: languages[1]: expected a language code" in result.err
    assert not list(tmp_path.rglob("*escaped*"))


def test_a_card_id_that_is_a_path_is_refused_with_its_line(small_game, cli, tmp_path):
    deck = small_game / "decks" / "cards.yaml"
    edit(deck, "id: pear", "id: x/../../../../../cid-escaped")
    for command in (["validate", small_game], ["export", small_game, "--to", "png", "--out", tmp_path / "out"]):
        result = cli(*command)
        assert result.code == 2
        assert (
            f"cards.yaml:{line_of(deck, 'cid-escaped')}: cards[x/../../../../../cid-escaped].id: expected an id"
            in result.err
        )
    assert not list(tmp_path.rglob("*escaped*"))


def test_an_output_path_outside_the_output_folder_is_refused(tmp_path):
    from generator.fsutil import OutputSet, write_atomic

    out = tmp_path / "out"
    (out / "game").mkdir(parents=True)
    (out / "game" / "old.pdf").write_bytes(b"old")
    with pytest.raises(InputError, match="outside the output folder"), OutputSet(out):
        write_atomic(out / "game" / "old.pdf", b"new")
        write_atomic(out / "game" / "rules-x/../../../escaped.pdf", b"escaped")
    assert not (tmp_path / "escaped.pdf").exists()
    assert (out / "game" / "old.pdf").read_bytes() == b"old"
    assert sorted(p.name for p in (out / "game").iterdir()) == ["old.pdf"]


def test_a_build_writes_the_face_cache_of_a_game_outside_the_project(tmp_path):
    """A game outside the project keeps its faces in the user's cache directory, outside the output folder:
    cache entries are not outputs, so the build's OutputSet neither stages nor refuses them."""
    import pikepdf

    from generator.fsutil import OutputSet
    from generator.render.pipeline import FaceCache

    pdf = pikepdf.new()
    pdf.add_blank_page()
    face = io.BytesIO()
    pdf.save(face)
    cache = FaceCache(tmp_path / "home" / ".cache" / "pnpgen" / "faces")
    with OutputSet(tmp_path / "out"):
        cache.put("ab" * 32, face.getvalue())
        cache.record_faces("ab" * 32, ["cd" * 32], [[]])
    assert cache.get("ab" * 32) == face.getvalue()
    assert FaceCache(cache.directory).find_face("cd" * 32) == ("ab" * 32, 0)


def test_a_cache_entry_is_written_whole_with_the_mode_open_gives_and_nothing_left_beside_it(tmp_path):
    import os
    import stat

    from generator import fsutil

    entry = tmp_path / "faces" / "ab" / "ab12"  # its folder does not exist yet
    previous = os.umask(0o027)
    try:
        fsutil.write_cache_entry(entry, "batch 3\n[]\n")
    finally:
        os.umask(previous)
    assert entry.read_text() == "batch 3\n[]\n"
    assert stat.S_IMODE(entry.stat().st_mode) == 0o640
    stale = entry.parent / f".ab12.{os.getpid()}-{next(fsutil._temporary_numbers) + 1}.tmp"  # the next name, taken
    stale.write_text("left by a process that died")
    fsutil.write_cache_entry(entry, b"x" * 300_000)
    assert entry.read_bytes() == b"x" * 300_000
    assert sorted(path.name for path in entry.parent.iterdir()) == sorted(["ab12", stale.name])


# --- nothing leaves the game's folders ---------------------------------------------------------------------


def test_a_colour_that_is_more_than_a_colour_is_refused_with_its_line(small_game, cli):
    tokens = small_game / "tokens"
    tokens.mkdir()
    sheet = tokens / "coins.yaml"
    sheet.write_text(
        "name: {ja: コイン, en: Coins}\nshape: round\nsize: 20\ntokens:\n"
        "  - id: coin\n    count: 3\n"
        '    colour: "#123456; background-image: url(http://127.0.0.1:9/x.png)"\n',
        encoding="utf-8",
    )
    result = cli("validate", small_game)
    assert result.code == 2
    assert "coins.yaml:7: tokens[0].colour: expected a colour like #2f5d62" in result.err


@pytest.fixture
def listener():
    """A TCP port that records whether anyone connected."""
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(0.2)
    yield server
    server.close()


def connected(server) -> bool:
    try:
        server.accept()[0].close()
        return True
    except TimeoutError:
        return False


@pytest.mark.parametrize(
    "reference",
    [
        '<img src="http://127.0.0.1:{port}/x.png">',
        '<div style="background: url(file:///etc/hostname)"></div>',
        '<link rel="stylesheet" href="../../../../../../etc/hostname">',
    ],
)
def test_a_template_cannot_make_the_build_read_outside_the_template_folders(
    small_game, cli, tmp_path, listener, reference
):
    template = small_game / "templates" / "card.html"
    reference = reference.format(port=listener.getsockname()[1])
    edit(template, '<div class="bleed frame"></div>', '<div class="bleed frame"></div>' + reference)
    result = cli("build", small_game, "--out", tmp_path / "out", "--lang", "en", "--paper", "a4", "--no-cache")
    assert result.code == 2, result
    assert "the face of card 'apple' asks for" in result.err and "nothing was fetched" in result.err
    assert "Traceback" not in result.err
    assert not connected(listener)
    assert not (tmp_path / "out" / small_game.name).exists()


# --- templates in Jinja's sandbox --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expression",
    [
        'cycler.__init__.__globals__.os.popen("touch {marker}").read()',
        "lipsum.__globals__['os'].system('touch {marker}')",
        "'a' * 99999999999",
        "9 ** 99999999",
    ],
)
def test_a_template_runs_in_the_sandbox(small_game, cli, tmp_path, expression):
    marker = tmp_path / "ran"
    template = small_game / "templates" / "card.html"
    edit(
        template,
        '<div class="bleed frame"></div>',
        '<div class="bleed frame"></div>\n{{ ' + expression.format(marker=marker) + " }}",
    )
    result = cli("build", small_game, "--out", tmp_path / "out", "--lang", "en", "--paper", "a4")
    assert result.code == 2, result
    assert not marker.exists()
    line = template.read_text().splitlines().index("{{ " + expression.format(marker=marker) + " }}") + 1
    assert f"card.html:{line}: " in result.err and "Traceback" not in result.err


# --- bounded inputs, located errors --------------------------------------------------------------------------


def alias_bomb(levels: int = 9) -> str:
    lines = ["  l0: &l0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, levels):
        lines.append(f"  l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    return "numbers:\n" + "\n".join(lines) + "\n"


BAD_GAME_YAML = {
    "unhashable key": ("numbers:\n  ? [a, b]\n  : 2\n", 2, "a key must be a plain text or number"),
    "5,001 digits": ("numbers:\n  big: " + "9" * 5001 + "\n", 2, "cannot read the value"),
    "!!float x": ("numbers:\n  ratio: !!float x\n", 2, "cannot read the value 'x' as float"),
    "bad date": ("numbers:\n  when: 2001-13-45\n", 2, "as timestamp"),
    "!!timestamp text": ("numbers:\n  !!timestamp when: 1\n", 2, "cannot read the value 'when' as timestamp"),
    "control character": ("numbers:\n  a: 1\n  b: x\x01y\n", 3, "a control character (U+0001) in column 7"),
    "alias bomb": (alias_bomb(), 7, "expand to more than 200,000 values"),
    "long text": ("numbers:\n  text: " + "a" * 100_001 + "\n", 2, "a text of 100,001 characters"),
    "deep nesting": ("numbers:\n  deep: " + "[" * 5000 + "]" * 5000 + "\n", 2, "nesting depth"),
}


@pytest.mark.parametrize("case", list(BAD_GAME_YAML))
def test_hostile_yaml_is_a_located_error(small_game, cli, case):
    import time

    text, line, message = BAD_GAME_YAML[case]
    game_file = small_game / "game.yaml"
    original = game_file.read_text(encoding="utf-8")
    game_file.write_text(original + text, encoding="utf-8")
    offset = original.count("\n")
    started = time.process_time()  # the work done, which load on the machine does not stretch
    result = cli("validate", small_game)
    assert result.code == 2, result
    assert time.process_time() - started < 10
    assert f"game.yaml:{offset + line}: " in result.err and message in result.err, result.err
    assert "Traceback" not in result.err


@pytest.mark.parametrize(
    "expression",
    [
        "len('a' * 99999999999) > 0",
        "len((1,) * 99999999999) > 0",
        "numbers.big * numbers.big * numbers.big > 0",
        "(" * 1500 + "1" + ")" * 1500,
    ],
)
def test_an_expression_asking_for_too_much_is_a_located_error(small_game, cli, expression):
    game_file = small_game / "game.yaml"
    with game_file.open("a", encoding="utf-8") as handle:
        handle.write("numbers: {big: " + "9" * 4000 + "}\n" + f'checks:\n  - expect: "{expression}"\n')
    result = cli("validate", small_game)
    assert result.code == 2, result
    line = game_file.read_text().splitlines().index(f'  - expect: "{expression}"') + 1
    assert f"game.yaml:{line}: check cannot be evaluated" in result.err


# --- processes ---------------------------------------------------------------------------------------------


def test_render_workers_die_with_a_killed_build(tmp_path):
    """Run as a user runs it, a build forks its render workers from its fork server (generator/processes.py):
    killed, it takes the fork server and the workers with it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from conftest import ROOT
    from test_daemon import alive, children, wait_for

    def workers() -> list[int]:  # the fork server's children
        return [worker for child in children(build.pid) for worker in children(child)]

    build = subprocess.Popen(
        [sys.executable, "-m", "generator", "build", "ikkin", "--no-cache", "--jobs", "2", "--out", tmp_path / "out"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert wait_for(lambda: len(workers()) >= 2, 60), "no render workers"
        time.sleep(0.3)  # the workers are rendering
        started = children(build.pid) + workers()
    finally:
        os.kill(build.pid, signal.SIGKILL)
        build.communicate(timeout=30)  # the workers no longer hold its stdout
    assert wait_for(lambda: not any(alive(pid) for pid in started), 5), "render workers outlived their command"


def test_a_command_run_as_the_program_leaves_with_its_code_and_all_its_output(cli):
    """Run as the program, pnpgen ends without tearing its heap down (cli.leave): what it printed still
    arrives whole, and the exit code is the command's."""
    from conftest import run_subprocess

    listed = run_subprocess("list")
    assert listed.code == 0 and listed.out == cli("list").out and listed.out.count("\n") == 3
    missing = run_subprocess("validate", "no-such-game")
    assert missing.code == 2 and "no such game" in missing.err and "Traceback" not in missing.err


def test_leaving_runs_every_exit_handler_and_then_skips_the_teardown(tmp_path):
    """cli.leave ends the process at its last exit handler: handlers registered later (logging's,
    multiprocessing's: its temporary folder) still run, the objects are not torn down one by one (no __del__
    runs), and the exit code is the one given."""
    import subprocess
    import sys

    script = (
        "import atexit\nfrom generator import cli\n"
        "class Torn:\n    def __del__(self):\n        print('torn down', flush=True)\n"
        "kept = Torn()\natexit.register(print, 'exit handler ran', flush=True)\n"
    )
    left = subprocess.run(
        [sys.executable, "-c", script + "cli.leave(3)\n"], capture_output=True, text=True, cwd=tmp_path
    )
    assert (left.returncode, left.stdout, left.stderr) == (3, "exit handler ran\n", "")
    ended = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert (ended.returncode, ended.stdout) == (0, "exit handler ran\ntorn down\n")  # Python's own end, for contrast
