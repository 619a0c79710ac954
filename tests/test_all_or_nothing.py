"""Every write across several files is all or nothing, even when the process is killed (kill -9) in the middle:
`i18n import`, `table import`, the editor's saves and builds stage their files and rename them together, behind
a journal that the next command completes; the temporary files of a killed command are removed by the next."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT
from generator import fsutil
from generator.fsutil import OutputSet, write_atomic

# Runs a pnpgen call in a child whose every rename and removal is announced on stderr, then waits PAUSE seconds
# before it is made; at the one STOP names (its number, 1-based, or how its announcement starts) it waits until it
# is killed: killed after reading the k-th announcement, the child has made k-1 of them.
SLOWED = """
import os, sys, time
real_replace, real_unlink = os.replace, os.unlink
stop, seen = os.environ.get("STOP", ""), 0
def announced(real, what):
    def call(path, *args, **kwargs):
        global seen
        target = args[0] if args else path
        line = f"{what} {os.path.basename(str(target))}"
        sys.stderr.write(f"@{line}\\n"); sys.stderr.flush()
        seen += 1
        time.sleep(600 if stop and (stop == str(seen) or line.startswith(stop)) else float(os.environ["PAUSE"]))
        return real(path, *args, **kwargs)
    return call
os.replace, os.unlink = announced(real_replace, "rename"), announced(real_unlink, "remove")
exec(sys.argv[1])
"""


def slowed(code: str, cwd: Path, pause: float, stop: int | str = "") -> subprocess.Popen:
    env = {**os.environ, "PNPGEN_DAEMON": "0", "PAUSE": str(pause), "STOP": str(stop), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", SLOWED, code], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def events(code: str, cwd: Path) -> list[str]:
    """The renames and removals the call makes, in order, run to its end."""
    child = slowed(code, cwd, 0)
    _, err = child.communicate(timeout=300)
    assert child.returncode == 0, err.decode()
    return [line[1:] for line in err.decode().splitlines() if line.startswith("@")]


def killed_at(code: str, cwd: Path, event: int | str) -> None:
    """Run the call and kill it (SIGKILL) just before its event-th rename or removal (1-based), or the first
    one announced as starting with `event`: the child waits there to be killed."""
    child = slowed(code, cwd, 0, stop=event)
    seen = 0
    for line in child.stderr:
        if line.startswith(b"@"):
            seen += 1
            if seen == event or (isinstance(event, str) and line[1:].decode().startswith(event)):
                break
    else:
        raise AssertionError(f"the call ended before its rename or removal {event!r}")
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=60)


def contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".pnpgen-commit")]


def restore(folder: Path, files: dict[str, bytes]) -> None:
    for path in list(folder.rglob("*")):
        if path.is_file() and str(path.relative_to(folder)) not in files:
            path.unlink()
    for name, data in files.items():
        (folder / name).write_bytes(data)


def make_stale(game: Path) -> None:
    """Change a source text without its translation: writing the translation then records it in the lock."""
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("手札を1枚引く。", "手札を2枚引く。"), encoding="utf-8")


def check_killed_everywhere(game: Path, code: str, cwd: Path, next_command: list[str]) -> int:
    """Kill the call before each of its renames and removals in turn, and at random moments; each time the
    files are all old or all new once the next command (which completes an interrupted commit) has run, and no
    temporary file or journal is left. The number of kills."""
    old = contents(game)
    events(code, cwd)  # the first run also fills the caches: the runs killed below find them filled
    new = contents(game)
    restore(game, old)
    steps = events(code, cwd)
    assert contents(game) == new
    changed = {name for name in old.keys() | new.keys() if old.get(name) != new.get(name)}
    assert "i18n.lock.yaml" in changed and len(changed) >= 2, changed  # a change across several files
    assert not leftovers(game)
    kills = 0
    moments = [("event", k) for k in range(1, len(steps) + 1)]
    moments += [("random", random.Random(seed).uniform(0.2, 2.5)) for seed in range(4)]
    for kind, at in moments:
        restore(game, old)
        if kind == "event":
            killed_at(code, cwd, at)
        else:
            child = slowed(code, cwd, 0.02)
            time.sleep(at)
            child.send_signal(signal.SIGKILL)
            child.communicate(timeout=60)
        kills += 1
        now = contents(game)
        journal = [p for p in game.iterdir() if p.name.startswith(".pnpgen-commit")]
        files = {name: data for name, data in now.items() if not name.split("/")[-1].startswith(".")}
        if not journal:  # nothing renamed yet, or every rename made
            assert files in (old, new), (kind, at, steps)
        result = subprocess.run(
            next_command, cwd=cwd, capture_output=True, text=True, env={**os.environ, "PNPGEN_DAEMON": "0"}
        )
        assert result.returncode in (0, 1), result.stderr
        after = contents(game)
        assert after in (old, new), (kind, at, steps, sorted(n for n in after if after.get(n) != new.get(n)))
        if journal:
            assert after == new  # a whole journal: the renames it names are made
        assert not leftovers(game), (kind, at)
    return kills


@pytest.mark.slow
def test_a_killed_i18n_import_leaves_every_file_old_or_every_file_new(small_game, tmp_path):
    from generator.i18n.exchange.entries import Entry, Exchange
    from generator.i18n.exchange.formats import write
    from generator.i18n.strings import units
    from generator.model import load_game

    make_stale(small_game)
    game = load_game(small_game)
    chosen = [u for u in units(game).values() if u.file.name in ("game.yaml", "components.yaml", "cards.yaml")]
    entries = [Entry(u.id, u.value("ja"), f"{u.value('en')} (revised)") for u in chosen]
    assert {u.file.name for u in chosen} == {"game.yaml", "components.yaml", "cards.yaml"}
    po = tmp_path / "en.po"
    po.write_text(write(Exchange("small", "ja", "en", entries), "po"), encoding="utf-8")
    code = f"from generator.cli import main; sys.exit(main(['i18n', 'import', {str(small_game)!r}, {str(po)!r}]))"
    validate = [sys.executable, "-m", "generator", "validate", str(small_game)]
    assert check_killed_everywhere(small_game, code, tmp_path, validate) >= 8


@pytest.mark.slow
def test_a_killed_editor_save_leaves_the_file_and_the_lock_both_old_or_both_new(small_game, tmp_path):
    make_stale(small_game)
    deck = small_game / "decks" / "cards.yaml"
    code = (
        "from pathlib import Path\n"
        "from generator.web.session import GameSession, file_version\n"
        f"session = GameSession(Path({str(small_game)!r}), Path({str(tmp_path / 'cache')!r}), 1)\n"
        f"session.edit('cards[apple].text', 'en', 'Draw 2 cards.', file_version(Path({str(deck)!r})))\n"
    )
    validate = [sys.executable, "-m", "generator", "validate", str(small_game)]
    check_killed_everywhere(small_game, code, tmp_path, validate)


@pytest.mark.slow
def test_a_killed_table_import_leaves_the_deck_old_or_new_and_the_next_import_tidies(small_game, tmp_path):
    sheet = tmp_path / "cards.csv"
    result = subprocess.run(
        [sys.executable, "-m", "generator", "table", "export", small_game, "cards", "-o", sheet],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("Draw 1 card.", "Draw 4 cards."), encoding="utf-8")
    argv = ["table", "import", str(small_game), "cards", str(sheet)]
    code = f"from generator.cli import main; sys.exit(main({argv!r}))"
    old = contents(small_game)
    for seed in range(4):  # a single file: the rename is the commit
        restore(small_game, old)
        child = slowed(code, tmp_path, 0.3)
        time.sleep(random.Random(seed).uniform(0.3, 2.0))
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=60)
    stray = small_game / "decks" / ".cards.yaml.4194000-7.tmp"  # as a killed import leaves it
    stray.write_text("half a deck")
    again = subprocess.run(
        [sys.executable, "-m", "generator", "table", "import", small_game, "cards", sheet],
        capture_output=True,
        text=True,
    )
    assert again.returncode == 0, again.stderr
    assert "Draw 4 cards." in (small_game / "decks" / "cards.yaml").read_text(encoding="utf-8")
    assert not leftovers(small_game)


# --- the mechanism ---------------------------------------------------------------------------------------------


def dead_pid() -> int:
    """A process id no process has now."""
    pid = 4_194_000
    while Path(f"/proc/{pid}").exists():
        pid -= 1
    return pid


def test_the_next_set_completes_a_commit_whose_process_was_killed(tmp_path):
    out = tmp_path / "out"
    (out / "game").mkdir(parents=True)
    for name in ("a.pdf", "b.pdf", "build.json", "gone.pdf"):
        (out / "game" / name).write_text(f"old {name}")
    with OutputSet(out) as outputs:
        for name in ("a.pdf", "b.pdf", "build.json"):
            write_atomic(out / "game" / name, f"new {name}")
        fsutil.remove_output(out / "game" / "gone.pdf")
        staged = [(tmp, str(final)) for final, tmp in outputs.staged.items()]
        journal = Path(fsutil._write_journal(outputs.root, staged, [str(out / "game" / "gone.pdf")]))
        os.replace(*next(pair for pair in staged if pair[1].endswith("a.pdf")))  # killed after one rename
        outputs.staged.clear()
        outputs.removed.clear()
        mixed = {p.name: p.read_text() for p in (out / "game").iterdir() if not p.name.startswith(".")}
        assert mixed == {
            "a.pdf": "new a.pdf",
            "b.pdf": "old b.pdf",
            "build.json": "old build.json",
            "gone.pdf": "old gone.pdf",
        }
        assert fsutil.finish_interrupted(out) == []  # the commit of a running process (this one) is left to it
    dead = journal.with_name(f".pnpgen-commit.{dead_pid()}.json")
    journal.rename(dead)
    done = fsutil.finish_interrupted(out)
    assert sorted(p.name for p in done) == ["a.pdf", "b.pdf", "build.json", "gone.pdf"]
    assert {p.name: p.read_text() for p in (out / "game").iterdir()} == {
        "a.pdf": "new a.pdf",
        "b.pdf": "new b.pdf",
        "build.json": "new build.json",
    }
    assert not dead.exists()


def test_a_journal_not_written_whole_changes_nothing(tmp_path):
    (tmp_path / "a.yaml").write_text("old")
    (tmp_path / ".a.yaml.99-1.tmp").write_text("new")
    (tmp_path / f".pnpgen-commit.{dead_pid()}.json").write_text('{"process": null, "renames": [[".a.yaml.99')
    fsutil.finish_interrupted(tmp_path)
    assert (tmp_path / "a.yaml").read_text() == "old"


def test_only_pnpgens_temporary_files_of_processes_that_ended_are_removed(tmp_path):
    out = tmp_path / "out"
    (out / "game").mkdir(parents=True)
    (out / ".cache" / "faces").mkdir(parents=True)
    dead, alive = dead_pid(), os.getpid()
    names = {
        f".cards-en-a4.pdf.{dead}-3.tmp": False,  # a killed build's partial PDF: removed
        f".build.json.{dead}-0.tmp": False,
        f".cards-ja-a4.pdf.{alive}-1.tmp": True,  # a running command's
        f"cards.{dead}-3.tmp": True,  # not pnpgen's pattern (no leading dot)
        f".notes.{dead}.tmp": True,
        "draft.tmp": True,
    }
    for name in names:
        (out / "game" / name).write_text("x")
    cached = out / ".cache" / "faces" / f".ab12.{dead}-0.tmp"  # caches are not walked
    cached.write_text("x")
    with OutputSet(out):
        pass
    assert {p.name for p in (out / "game").iterdir()} == {name for name, kept in names.items() if kept}
    assert cached.exists()


@pytest.mark.slow
def test_the_partial_files_of_a_killed_build_are_removed_by_the_next_build(small_game, tmp_path):
    out = tmp_path / "out"
    argv = ["build", str(small_game), "--out", str(out), "--paper", "a4", "--lang", "en"]
    code = f"from generator.cli import main; sys.exit(main({argv!r}))"
    assert any(step.startswith("rename .pnpgen-commit.") for step in events(code, tmp_path))
    for path in out.rglob("*"):
        if path.is_file() and ".cache" not in path.parts:
            path.unlink()
    killed_at(code, tmp_path, "rename .pnpgen-commit.")  # every file staged, the journal not yet in place
    strays = sorted(p.name for p in (out / "small").iterdir())
    assert strays and all(name.startswith(".") and name.endswith(".tmp") for name in strays), strays
    result = subprocess.run([sys.executable, "-m", "generator", *argv], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (out / "small").iterdir()) == ["build.json", "cards-en-a4.pdf", "pnp-en-a4.pdf"]
