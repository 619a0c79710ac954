"""Render workers: forked from the fork server when pnpgen runs as the program (generator/processes.py), from
the command otherwise, with the same results; batches that keep every core busy to the end."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT, page_text
from generator import heap, processes
from generator.render import pipeline
from generator.render.pipeline import MAX_BATCH, _batch_members
from test_daemon import alive, children, wait_for
from test_volumes import write_game


def test_a_build_run_as_the_program_writes_the_bytes_of_one_whose_workers_are_forked_from_the_command(tmp_path, cli):
    game = write_game(tmp_path, cards=30)  # one deck: 31 faces, 4 A4 sheets (8 pages with the backs), labelled
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    served = subprocess.run(
        [sys.executable, "-m", "generator", "build", game, "--paper", "a4", "--jobs", "2", "--out", tmp_path / "a"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PNPGEN_DAEMON": "0", "TMPDIR": str(temporary)},
    )
    assert served.returncode == 0, served.stderr
    assert list(temporary.iterdir()) == []  # the fork server's socket folder removed: the exit handlers ran
    assert "rendering faces: 31 faces in" in served.stderr  # progress, from the command's own process
    here = cli("build", game, "--paper", "a4", "--jobs", "2", "--out", tmp_path / "b")
    assert here.code == 0, here
    forked = (tmp_path / "a" / "big" / "cards-en-a4.pdf").read_bytes()
    assert forked == (tmp_path / "b" / "big" / "cards-en-a4.pdf").read_bytes()
    assert "Card text number 30." in page_text(tmp_path / "a" / "big" / "cards-en-a4.pdf", 6)  # sheet 4, fronts
    report = json.loads((tmp_path / "a" / "big" / "build.json").read_text())
    assert report == json.loads((tmp_path / "b" / "big" / "build.json").read_text())


def test_render_workers_are_forked_from_the_fork_server_which_the_command_then_stops_and_reaps():
    processes.start_fork_server()
    try:
        assert wait_for(lambda: processes.fork_server_pid() is not None, 60), "the fork server never said its pid"
        pool = pipeline.render_pool(1)
        parent = pool.submit(os.getppid).result()
    finally:
        pipeline.close_pool()
        heap.thaw()  # what render_pool froze
    assert parent == processes.fork_server_pid() and parent in children(os.getpid())
    processes.stop_fork_server()
    assert processes.fork_server_pid() is None and not processes.uses_fork_server()
    assert not os.path.exists(f"/proc/{parent}")  # reaped: its workers' time is this process' own


def test_a_fork_server_is_stopped_at_once_and_reaped_even_before_it_has_loaded(tmp_path):
    """In a process of its own: multiprocessing counts a fork server reaped by pnpgen as its own still, so a
    process that stopped one starts no other (it forks its workers itself then; a command stops it as it ends)."""
    script = (
        "import os, time\nfrom generator import processes\nprocesses.start_fork_server()\n"
        "while processes.fork_server_pid() is None: time.sleep(0.01)\n"
        "pid = processes.fork_server_pid()\nstarted = time.monotonic()\nprocesses.stop_fork_server()\n"
        "print(pid, time.monotonic() - started, os.path.exists(f'/proc/{pid}'))\n"
    )
    stopped = subprocess.run(
        [sys.executable, "-I", "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    assert stopped.returncode == 0, stopped.stderr
    _, seconds, remains = stopped.stdout.split()
    assert float(seconds) < 1  # while it imports WeasyPrint: killed, not waited for
    assert remains == "False"  # reaped: no zombie left


def test_a_fork_server_no_worker_came_from_ends_with_its_command(tmp_path):
    """A command that ends as soon as it has started the fork server, before the fork server has said its
    process id: the fork server ends with the command (killed as its parent dies, or at the end of its preload,
    when it finds the command gone)."""
    script = (
        "import sys\nfrom generator import processes\nprocesses.start_fork_server()\n"
        "print('started', flush=True)\nsys.stdin.readline()\nprocesses.stop_fork_server()\n"
    )
    command = subprocess.Popen(
        [sys.executable, "-I", "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    assert command.stdout.readline() == "started\n"
    started = children(command.pid)  # the fork server and multiprocessing's resource tracker
    assert started
    command.communicate("\n", timeout=60)
    assert command.returncode == 0
    assert wait_for(lambda: not any(alive(pid) for pid in started), 60), "the fork server outlived its command"


def test_with_one_batch_a_core_the_first_leaves_the_labels_its_share():
    deck = [(0, face) for face in range(100)]
    assert [len(batch) for batch in _batch_members(deck, 2)] == [50, 50]
    balanced = _batch_members(deck, 2, after=30)  # labels worth 30 faces: the core that takes them has 15 fewer
    assert [len(batch) for batch in balanced] == [35, 65]
    assert [face for batch in balanced for face in batch] == deck  # the same faces, in deck order
    assert [len(batch) for batch in _batch_members(deck, 3, after=30)] == [14, 43, 43]
    assert max(len(batch) for batch in _batch_members(deck, 2, after=300)) == MAX_BATCH * 3 // 2
    assert [len(batch) for batch in _batch_members(deck, 1, after=30)] == [50, 50]  # one core: nothing to balance


def test_more_batches_than_cores_or_several_decks_are_left_as_they_are():
    two_decks = [(0, face) for face in range(50)] + [(1, face) for face in range(50)]
    assert [len(batch) for batch in _batch_members(two_decks, 2, after=30)] == [50, 50]
    large = [(0, face) for face in range(300)]
    assert [len(batch) for batch in _batch_members(large, 2, after=30)] == [50] * 6
