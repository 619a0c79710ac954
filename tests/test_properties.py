"""Properties over generated input (hypothesis): the YAML reader only ever raises a located InputError, and
every text pnpgen writes into a YAML file reads back exactly as written."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT
from generator.errors import InputError
from generator.yamlio.read import load_yaml
from generator.yamlio.text import load_yaml_text
from generator.yamlio.writeback import prepare

YAML_PIECES = [
    "\n",
    "  ",
    ": ",
    "- ",
    "? ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "!!float ",
    "!!int ",
    "!!binary ",
    "!!set ",
    "!!timestamp ",
    "!!python/object ",
    "|",
    ">",
    "'",
    '"',
    "#",
    "%YAML 1.1\n",
    "---\n",
    "...\n",
    "\t",
    "\\",
    "\x00",
    "\x01",
    "\x85",
    "\u2028",
    "\ufeff",
    "9" * 50,
    "1e999",
    "0x",
    "0o",
    ".inf",
    "~",
    "2001-13-45",
    "<<: *a",
    "key",
    "値",
]
KIT_FILE = ROOT / "cards" / "ikkin" / "decks" / "employees.yaml"
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,  # the same examples every run (make fuzz varies)
    suppress_health_check=[HealthCheck.too_slow],
)


def read_or_located_error(text: str, path: Path) -> None:
    try:
        load_yaml_text(text, path)
    except InputError as error:
        assert all(problem.file == path for problem in error.problems)


@SETTINGS
@given(st.lists(st.one_of(st.sampled_from(YAML_PIECES), st.text(max_size=8)), max_size=60).map("".join))
def test_the_yaml_reader_raises_only_located_errors(text):
    read_or_located_error(text, Path("game.yaml"))


@SETTINGS
@given(st.data())
def test_a_mutated_kit_file_reads_or_is_a_located_error(data):
    original = KIT_FILE.read_text(encoding="utf-8")
    text = original
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 12))
        text = text[:at] + data.draw(st.sampled_from(YAML_PIECES + [""])) + text[at + cut :]
    read_or_located_error(text, KIT_FILE)


DECK = (
    "cards:\n  - id: apple  # a comment that stays\n    text: {ja: 手札を1枚引く。, en: Draw 1 card.}\n"
    "    long:\n      en: Plain text\n      ja: 'quoted'\n"
)


@SETTINGS
@given(
    text=st.text(min_size=1, max_size=40),
    where=st.sampled_from([("text",), ("long",)]),
    lang=st.sampled_from(["en", "ja"]),
)
def test_any_written_text_reads_back_equal(text, where, lang):
    folder = Path(tempfile.mkdtemp())
    try:
        deck = folder / "cards.yaml"
        deck.write_text(DECK, encoding="utf-8")
        try:
            new = prepare([(deck, ("cards", 0, *where), lang, text)])[deck]
        except InputError as refused:  # refused before writing: the file is untouched
            assert "would not read back" in str(refused)
            assert deck.read_text(encoding="utf-8") == DECK
            raise AssertionError(f"{text!r} could not be written") from refused
        deck.write_text(new, encoding="utf-8")
        document = load_yaml(deck)
        assert document["cards"][0][where[0]][lang] == text
        other = "ja" if lang == "en" else "en"
        assert document["cards"][0][where[0]][other] == load_yaml_text(DECK, deck)["cards"][0][where[0]][other]
        assert "# a comment that stays" in new
    finally:
        shutil.rmtree(folder)
