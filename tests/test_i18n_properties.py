"""Property-based tests of the translation files: whatever a file holds, reading it gives entries or a
located InputError (exit 2), never another exception; any text exported reads back equal; a control
character written into any format is refused with its line."""

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.errors import InputError
from generator.i18n.exchange.entries import Entry, Exchange
from generator.i18n.exchange.formats import read, write
from generator.model.schema import UNPRINTABLE as CONTROL
from test_i18n import FORMATS

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
IDS = st.text(string.ascii_lowercase + string.digits + "[]._-", min_size=1, max_size=30)
# Any text but control characters (tab and line feed are text), which no translation file carries, without
# white space around it (as `Unit.value` gives every string: msgfmt refuses a msgid and msgstr that do not
# both start and end with a line break).
TEXT = st.text(max_size=60).map(lambda text: CONTROL.sub("", text).strip())
ENTRY = st.builds(
    Entry,
    IDS,
    TEXT,
    TEXT,
    stale=st.booleans(),
    ignored=st.lists(st.sampled_from(["numbers", "glossary", "brackets"]), unique=True).map(
        lambda checks: tuple(sorted(checks))
    ),
)


def sample(fmt: str) -> str:
    entries = [
        Entry("cards[a].name", "りんご", "Apple", location="decks/a.yaml:3", note="card 'a'"),
        Entry("cards[b].text", 'say "hi"\nnow', "", stale=True, previous="old", ignored=("numbers",)),
    ]
    return write(Exchange("g", "ja", "en", entries), fmt)


def read_or_located_error(path):
    try:
        read(path)
    except InputError as error:
        assert all(problem.file == path for problem in error.problems)
        assert all(problem.message for problem in error.problems)


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(data=st.data())
def test_readers_raise_nothing_but_a_located_input_error(tmp_path, fmt, data):
    """Random text, and a valid file with random characters put in, replaced or cut out."""
    text = sample(fmt)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 20)))
    mutated = data.draw(
        st.one_of(st.text(max_size=300), st.text(max_size=8).map(lambda insert: text[:start] + insert + text[end:]))
    )
    path = tmp_path / f"in.{FORMATS[fmt]}"
    path.write_text(mutated, encoding="utf-8")
    read_or_located_error(path)
    path.write_bytes(mutated.encode("utf-8")[:start] + b"\xff\xfe" + mutated.encode("utf-8")[start:])
    read_or_located_error(path)


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(entries=st.lists(ENTRY, max_size=5, unique_by=lambda entry: entry.id))
def test_export_then_import_gives_back_any_text(tmp_path, fmt, entries):
    path = tmp_path / f"out.{FORMATS[fmt]}"
    path.write_bytes(write(Exchange("g", "ja", "en", entries), fmt).encode("utf-8"))
    back = read(path)
    assert [(e.id, e.source, e.target, e.stale and bool(e.target), e.ignored) for e in back.entries] == [
        (e.id, e.source, e.target, e.stale and bool(e.target), e.ignored) for e in entries
    ]


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(before=TEXT, control=st.from_regex(CONTROL, fullmatch=True), after=TEXT)
def test_a_control_character_in_a_translation_is_refused_at_its_line(tmp_path, fmt, before, control, after):
    """Put into a written file as each format writes a character: PO raw (msgfmt reads it), XLIFF as a
    character reference or pnpgen's placeholder, CSV raw."""
    marker = "MAR,KER"  # a comma: the CSV writer quotes the cell, as a CR or NUL in it needs
    text = write(Exchange("g", "ja", "en", [Entry("cards[a].name", "りんご", before + marker + after)]), fmt)
    if fmt == "xliff":
        escaped = f"&#{ord(control)};" if control in "\t\n\r\x85" or ord(control) > 0x1F else ""
        escaped = escaped or f'<x id="c9" ctype="x-char-{ord(control):04x}"/>'
        text = text.replace(marker, escaped)
    else:
        text = text.replace(marker, control)
    path = tmp_path / f"in.{FORMATS[fmt]}"
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(InputError) as caught:
        read(path)
    lines = {problem.line for problem in caught.value.problems}
    assert lines and None not in lines
