"""Render workers: forked from the fork server when pnpgen runs as the program (generator/processes.py), from
the command otherwise, with the same results; batches that keep every core busy to the end."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT, page_text
from generator import processes
from generator.render.pipeline import MAX_BATCH, _batch_members
from test_volumes import write_game


def test_a_build_run_as_the_program_writes_the_bytes_of_one_whose_workers_are_forked_from_the_command(tmp_path, cli):
    game = write_game(tmp_path, cards=30)  # one deck: 31 faces, 4 A4 sheets (8 pages with the backs), labelled
    served = subprocess.run(
        [sys.executable, "-m", "generator", "build", game, "--paper", "a4", "--jobs", "2", "--out", tmp_path / "a"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PNPGEN_DAEMON": "0"},
    )
    assert served.returncode == 0, served.stderr
    assert "rendering faces: 31 faces in" in served.stderr  # progress, from the command's own process
    here = cli("build", game, "--paper", "a4", "--jobs", "2", "--out", tmp_path / "b")
    assert here.code == 0, here
    forked = (tmp_path / "a" / "big" / "cards-en-a4.pdf").read_bytes()
    assert forked == (tmp_path / "b" / "big" / "cards-en-a4.pdf").read_bytes()
    assert "Card text number 30." in page_text(tmp_path / "a" / "big" / "cards-en-a4.pdf", 6)  # sheet 4, fronts
    report = json.loads((tmp_path / "a" / "big" / "build.json").read_text())
    assert report == json.loads((tmp_path / "b" / "big" / "build.json").read_text())


def test_a_fork_server_is_stopped_at_once_and_reaped_even_before_it_has_loaded():
    processes.start_fork_server()
    pid = processes.fork_server()
    assert pid is not None and os.path.exists(f"/proc/{pid}")
    processes.stop_fork_server()  # it is still importing WeasyPrint: killed, not waited for
    assert processes.fork_server() is None
    assert not os.path.exists(f"/proc/{pid}")  # reaped: no zombie left


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
