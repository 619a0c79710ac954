"""Cache entries Python turns back into objects or code are sealed with a key kept in the user's own cache folder:
only what this user's pnpgen wrote is read back; anything else (planted, another user's, damaged, renamed) is
not, and the caller makes it again. The key is made once, atomically, readable by its user only."""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys

import pytest

from conftest import ROOT
from generator import fsutil


@pytest.fixture
def user_cache(tmp_path, monkeypatch):
    """A user's cache folder of their own, as a new process finds it (no key read yet)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.setattr(fsutil, "_keys", {})
    return folder / "pnpgen"


def new_process(monkeypatch):
    monkeypatch.setattr(fsutil, "_keys", {})


def test_a_sealed_entry_reads_back_and_its_key_is_the_users_alone(user_cache, tmp_path, monkeypatch):
    entry = tmp_path / "out" / ".cache" / "yaml" / "deck.pickle"
    fsutil.write_sealed_entry(entry, b"parsed deck")
    key = user_cache / fsutil.KEY_NAME
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.stat().st_size == fsutil.MAC_BYTES
    assert stat.S_IMODE(user_cache.stat().st_mode) == 0o700
    assert [p.name for p in user_cache.iterdir()] == [fsutil.KEY_NAME]  # no temporary copy left
    new_process(monkeypatch)
    assert bytes(fsutil.read_sealed_entry(entry)) == b"parsed deck"
    assert key.read_bytes() == fsutil.sealing_key()


def test_an_entry_not_sealed_by_this_users_key_is_not_read(user_cache, tmp_path, monkeypatch):
    entry = tmp_path / "shared" / "deck.pickle"
    fsutil.write_sealed_entry(entry, b"ours")
    sealed = entry.read_bytes()
    planted = pickle.dumps(("anything",))
    cases = {
        "a plain pickle": planted,
        "a header and a made-up MAC": fsutil.SEALED + b"\0" * fsutil.MAC_BYTES + planted,
        "one byte of the data changed": sealed[:-1] + bytes([sealed[-1] ^ 1]),
        "one byte of the MAC changed": sealed[: len(fsutil.SEALED)] + b"\1" + sealed[len(fsutil.SEALED) + 1 :],
        "cut short": sealed[: len(fsutil.SEALED) + 5],
        "empty": b"",
    }
    for name, data in cases.items():
        entry.write_bytes(data)
        assert fsutil.read_sealed_entry(entry) is None, name
    copy = entry.with_name("other-deck.pickle")  # an entry of ours, under the name of another
    copy.write_bytes(sealed)
    assert fsutil.read_sealed_entry(copy) is None
    entry.write_bytes(sealed)
    assert bytes(fsutil.read_sealed_entry(entry)) == b"ours"

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-user"))  # another key: another user's entries
    new_process(monkeypatch)
    assert fsutil.read_sealed_entry(entry) is None
    fsutil.write_sealed_entry(entry, b"theirs")
    monkeypatch.setenv("XDG_CACHE_HOME", str(user_cache.parent))
    new_process(monkeypatch)
    assert fsutil.read_sealed_entry(entry) is None


@pytest.mark.parametrize("shared", ["folder writable by others", "key readable by others", "key is a link"])
def test_a_key_others_could_read_or_replace_is_not_used(user_cache, tmp_path, monkeypatch, shared):
    """Then the process seals with a key of its own: its entries are read by no other process."""
    entry = tmp_path / "entry"
    fsutil.write_sealed_entry(entry, b"data")
    key = user_cache / fsutil.KEY_NAME
    if shared == "folder writable by others":
        user_cache.chmod(0o777)
    elif shared == "key readable by others":
        key.chmod(0o644)
    else:
        target = tmp_path / "elsewhere"
        key.rename(target)
        key.symlink_to(target)
    new_process(monkeypatch)
    assert fsutil.read_sealed_entry(entry) is None
    fsutil.write_sealed_entry(entry, b"data again")
    assert bytes(fsutil.read_sealed_entry(entry)) == b"data again"  # this process' own key
    new_process(monkeypatch)
    assert fsutil.read_sealed_entry(entry) is None
    assert key.is_symlink() or stat.S_IMODE(key.stat().st_mode) in (0o600, 0o644)  # left as it was


def test_processes_that_start_together_make_one_key(user_cache):
    """Made beside and linked into place: the first key stays, none is ever seen half written."""
    script = "from generator import fsutil; print(fsutil.sealing_key().hex())"
    env = {**os.environ, "XDG_CACHE_HOME": str(user_cache.parent), "PYTHONPATH": str(ROOT)}
    started = [
        subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True) for _ in range(6)
    ]
    keys = {process.communicate(timeout=60)[0].strip() for process in started}
    assert keys == {(user_cache / fsutil.KEY_NAME).read_bytes().hex()}
    assert sorted(p.name for p in user_cache.iterdir()) == [fsutil.KEY_NAME]


RULES = """\
blocks:
  - id: overview
    type: heading
    text: {ja: 概要, en: Overview}
  - text:
      ja: 手札からカードを1枚出します。
      en: Play one card from your hand. Characteristically, extraordinarily unpredictable representations.
  - id: apple-card
    type: card
    deck: cards
    cards: [apple]
    width: 40
"""


def pages_as_seen(folder):
    """Every page of every PDF in folder, as text and as pixels."""
    import pypdfium2 as pdfium

    seen = {}
    for path in sorted(folder.glob("*.pdf")):
        document = pdfium.PdfDocument(str(path))
        for index in range(len(document)):
            page = document[index]
            seen[(path.name, index)] = (page.get_textpage().get_text_range(), page.render(scale=0.5).to_pil().tobytes())
        document.close()
    return seen


def planted(entry, marker) -> bytes:
    """What someone who can write the cache would put there: code that makes the marker when the entry is read
    as it once was (a pickle, a Jinja bytecode entry whose header is a pickle, a Python module)."""
    from jinja2.bccache import bc_magic

    class Payload:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    if entry.suffix == ".sealed":
        return f"open({str(marker)!r}, 'w').close()\n".encode()
    return (bc_magic if entry.suffix == ".jinja" else b"") + pickle.dumps(Payload())


@pytest.mark.slow
def test_entries_planted_in_the_output_and_user_caches_run_nothing_and_the_build_is_right(
    small_game, tmp_path, monkeypatch
):
    """The caches read back as objects or code: the parsed large deck file, the face memo and the pictured cards
    in the output folder's cache; compiled templates, hyphenation patterns and the C declarations module in
    the user's. Each replaced by a hostile entry, the next build runs none of them and prints the same pages."""
    (small_game / "rules.yaml").write_text(RULES, encoding="utf-8")
    deck = small_game / "decks" / "cards.yaml"
    padding = "".join(f"# line {i:05d} of a deck file large enough to be remembered parsed\n" for i in range(4500))
    deck.write_text(deck.read_text(encoding="utf-8") + padding, encoding="utf-8")
    out, user_cache = tmp_path / "out", tmp_path / "user-cache"
    env = {**os.environ, "XDG_CACHE_HOME": str(user_cache), "PNPGEN_DAEMON": "0"}
    monkeypatch.setenv("XDG_CACHE_HOME", str(user_cache))  # this process reads the entries with the user's key
    monkeypatch.setattr(fsutil, "_keys", {})

    def build():
        for pdf in (out / small_game.name).glob("*.pdf"):
            pdf.unlink()  # written again from the caches, not kept as they were
        for batch in (out / ".cache" / "faces").glob("[0-9a-f][0-9a-f]/*"):
            batch.unlink()  # every face and rule sheet laid out again: the templates and patterns are used
        command = [sys.executable, "-m", "generator", "build", small_game, "--out", out, "--paper", "a4", "--quiet"]
        result = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stderr
        return pages_as_seen(out / small_game.name)

    first = build()
    entries = sorted(
        p for folder in (out / ".cache", user_cache) for p in folder.rglob("*") if p.suffix in SEALED_SUFFIXES
    )
    kinds = {kind(p) for p in entries}
    assert kinds == {"yaml", "memo", "images", "templates", "hyphenation", "ffi"}
    for header in (b"", fsutil.SEALED + b"\0" * fsutil.MAC_BYTES):  # as entries once were; with a made-up seal
        markers = []
        for index, entry in enumerate(entries):
            markers.append(tmp_path / f"ran-{index}-{entry.name}")
            entry.write_bytes(header + planted(entry, markers[-1]))
        assert build() == first
        assert not [marker.name for marker in markers if marker.exists()]
        made_again = [p for p in entries if fsutil.read_sealed_entry(p) is not None]
        assert set(entries) - set(made_again) <= {p for p in entries if p.parent.name == "templates"}  # one unused
        assert {kind(p) for p in made_again} == kinds


SEALED_SUFFIXES = {".pickle", ".marshal", ".jinja", ".sealed"}


def kind(entry) -> str:
    """The cache an entry belongs to: its folder (the pictured cards' are spread over folders by key)."""
    return "images" if entry.parent.parent.name == "images" else entry.parent.name
