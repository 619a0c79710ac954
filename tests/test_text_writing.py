"""Any text a YAML scalar can hold is written into the game's YAML and read back identical, whatever the old
value's style (plain in a block or in a flow mapping, quoted, a `|` or `>` block); a text no import accepts (a
control character, only invisible characters) is a located error, never a deletion or a "please report"."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generator.yamlio.writeback import prepare, rewrite
from generator.model.schema import unprintable
from generator.yamlio.edit import assign
from generator.yamlio.text import load_yaml_text

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
DECK = """\
# a deck
cards:
  - id: a
    name: {ja: りんご, en: Apple}   # flow mapping, plain
    text:
      ja: 手札を1枚引く。
      en: 'Draw 1 card.'
    note: "double"
    rules: |
      line one
      line two
    fold: >-
      folded
      text
"""
PLACES = [("name", "en"), ("text", "ja"), ("text", "en"), ("note",), ("rules",), ("fold",)]
# Texts that were refused or changed on the way before: indicators, YAML 1.1 readings, line breaks YAML folds.
AWKWARD = [
    "? key",
    "?x",
    ": x",
    "a\x85b",
    "\x85",
    "a\u2028b",
    "\u2029",
    "1:20",
    "- x",
    "#x",
    "x #y",
    "a: b",
    "yes",
    "~",
    "null",
    "0x1f",
    "2024-01-01",
    "=",
    "<<",
    "@x",
    "`x",
    "%x",
    "!x",
    "&a",
    "*a",
    "|x",
    ">x",
    "'q",
    '"q',
    "{x",
    "[x",
    "a, b",
    " lead",
    "trail ",
    "\tx",
    "a\nb",
    "a\n",
    "\n",
    "\nlead",
    "x\n\n",
    " \n x",
    "\ufeffx",
    "",
]
TEXTS = st.one_of(st.sampled_from(AWKWARD), st.text(max_size=40)).filter(lambda text: unprintable(text) is None)


def written(text: str, place: tuple) -> object:
    """The deck with the text set at `place`, through the writer every import uses, read back."""
    path_file = "deck.yaml"

    def apply(document):
        node = document["cards"][0]
        for key in place[:-1]:
            node = node[key]
        assign(node, place[-1], text)

    from pathlib import Path
    from tempfile import TemporaryDirectory

    with TemporaryDirectory() as folder:
        file = Path(folder) / path_file
        file.write_text(DECK, encoding="utf-8")
        new = rewrite(file, apply)
    value = load_yaml_text(new, Path(path_file))["cards"][0]
    for key in place:
        value = value[key]
    return value, new


@pytest.mark.parametrize("place", PLACES, ids=".".join)
@SETTINGS
@given(text=TEXTS)
@example(text="? key")
def test_any_text_is_written_and_read_back_identical(place, text):
    value, new = written(text, place)
    assert value == text
    untouched = [line for line in DECK.splitlines() if "Apple" not in line and "double" not in line]
    assert sum(line in new.splitlines() for line in untouched) >= len(untouched) - 4  # only its own lines change


@SETTINGS
@given(texts=st.lists(TEXTS.filter(lambda text: text.strip()), min_size=1, max_size=3))
def test_translations_are_written_and_read_back_identical(tmp_path, texts):
    """The writer of `i18n import` and the editor: several texts of one file at once."""
    file = tmp_path / "deck.yaml"
    file.write_text(DECK, encoding="utf-8")
    places = [(("cards", 0, "name"), "en"), (("cards", 0, "text"), "en"), (("cards", 0, "text"), "ja")]
    changes = [(file, path, lang, text) for (path, lang), text in zip(places, texts)]
    document = load_yaml_text(prepare(changes)[file], file)
    for (path, lang), text in zip(places, texts):
        assert document["cards"][0][path[-1]][lang] == text


@pytest.mark.parametrize("text", ["a\x00b", "\x07", "x\x1b[31m", "\x7f", "\x9b", "a\ufffeb", "\r"])
def test_control_characters_are_named(text):
    assert "U+" in unprintable(text) and "at character" in unprintable(text)


@pytest.mark.parametrize("text", ["a\x85b", "\u2028", "tab\there", "line\nbreak", "絵文字😀", "\u200b"])
def test_texts_yaml_holds_are_accepted(text):
    assert unprintable(text) is None
