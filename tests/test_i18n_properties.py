"""Property-based tests of the translation files: whatever a file holds, reading it gives entries or a
located InputError (exit 2), never another exception; and any text exported reads back equal."""

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.errors import InputError
from generator.i18n.exchange import Entry, Exchange, read, write
from test_i18n import FORMATS

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
IDS = st.text(string.ascii_lowercase + string.digits + "[]._-", min_size=1, max_size=30)
TEXT = st.text(max_size=60)
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
