"""Located YAML reading: lines of keys and items, YAML 1.2 booleans, duplicate keys."""

import pytest

from generator.errors import InputError
from generator.yamlio import remembered
from generator.yamlio.positions import item_line, key_line
from generator.yamlio.read import load_yaml
from generator.yamlio.text import load_yaml_text


def test_lines_of_keys_and_items(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("# comment\ntitle: x\ncards:\n  - id: a\n    answer: no\n  - id: b\n    flag: true\n")
    data = load_yaml(path)
    assert key_line(data, "cards") == 3
    assert item_line(data["cards"], 1) == 6
    assert key_line(data["cards"][0], "answer") == 5
    assert data["cards"][0]["answer"] == "no" and data["cards"][1]["flag"] is True


def test_a_duplicate_key_is_a_located_error(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("title: x\nplayers: 2\ntitle: y\n")
    with pytest.raises(InputError) as error:
        load_yaml(path)
    [problem] = error.value.problems
    assert problem.line == 3 and "appears twice" in problem.message


def test_a_large_file_without_aliases_loads(tmp_path):
    """The bound on values is on what aliases repeat: a 20,000-card deck file writes 340,000 values out."""
    path = tmp_path / "a.yaml"
    path.write_text(
        "cards:\n" + "".join(f"  - {{id: c{i}, n: {i}}}\n" for i in range(50_000)) + "note: R&D\n"
    )  # an & that is no anchor
    data = load_yaml(path)
    assert len(data["cards"]) == 50_000 and item_line(data["cards"], 49_999) == 50_001


def test_an_alias_repeating_too_much_is_a_located_error(tmp_path):
    path = tmp_path / "a.yaml"
    lines = ["big: &a [" + ", ".join(["x"] * 1000) + "]", "many:"] + ["  - *a"] * 201
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as error:
        load_yaml(path)
    [problem] = error.value.problems
    assert problem.line == 3 and "expand to more than 200,000 values" in problem.message


def located(value):
    """A parsed value with every recorded position, to compare two parses."""
    if isinstance(value, dict):
        return ("map", value.lc.line, value.lc.col, [(k, value.lc.data[k], located(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", value.lc.line, value.lc.col, [(value.lc.data[i], located(v)) for i, v in enumerate(value)])
    return value


DECK_HEAD = "name: {ja: カード, en: Cards}\nsize: poker\ncards:\n"


def deck_text(cards: list[str], tail: str = "") -> str:
    return DECK_HEAD + "".join(cards) + tail


def card(i: int, body: str = "text") -> str:
    return f'  - id: c{i}\n    name: {{ja: カード{i}, en: Card {i}}}\n    body: {{en: "{body} {i}"}}\n'


EDITS = {
    "one card's text": lambda cards: (cards[:5] + [card(5, "changed")] + cards[6:], ""),
    "a card gains a line": lambda cards: (cards[:5] + [card(5) + "    count: 3\n"] + cards[6:], ""),
    "a card removed": lambda cards: (cards[:5] + cards[6:], ""),
    "a card added": lambda cards: (cards[:5] + [card(999)] + cards[5:], ""),
    "the last card edited, a key after": lambda cards: (cards[:-1] + [card(len(cards) - 1, "x")], "bleed: 2\n"),
    "a comment between cards": lambda cards: (cards[:3] + ["  # a comment\n\n"] + cards[3:], ""),
    "a block text": lambda cards: (cards[:2] + [card(2) + "    note: |\n      two\n      lines\n"] + cards[3:], ""),
    "a new key after the cards": lambda cards: (cards[:-1] + [cards[-1] + "placeholder: true\n"], ""),
    "an unclosed quote": lambda cards: (cards[:4] + [card(4).replace('"', "", 1)] + cards[5:], ""),
    "a key at the list's column": lambda cards: (cards[:4] + ["  oops: 1\n"] + cards[4:], ""),
    "every card removed": lambda cards: ([], ""),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_an_edited_large_file_reads_as_parsing_it_in_full(tmp_path, monkeypatch, edit):
    monkeypatch.setattr(remembered, "REMEMBER_FROM_BYTES", 0)
    remembered.remember_in(tmp_path / "cache")
    try:
        path = tmp_path / "deck.yaml"
        cards = [card(i) for i in range(40)]
        path.write_text(deck_text(cards))
        assert located(load_yaml(path)) == located(load_yaml_text(path.read_text(), path))
        assert located(load_yaml(path)) == located(load_yaml_text(path.read_text(), path))  # remembered
        edited, tail = EDITS[edit](cards)
        path.write_text(deck_text(edited, tail))
        try:
            expected = located(load_yaml_text(path.read_text(), path))
        except InputError as error:
            with pytest.raises(InputError) as raised:
                load_yaml(path)
            assert [p.line for p in raised.value.problems] == [p.line for p in error.problems]
            return
        assert located(load_yaml(path)) == expected
    finally:
        remembered.remember_in(None)


def test_only_the_edited_cards_are_parsed_again(tmp_path, monkeypatch):
    from generator.yamlio import parse, reparse
    from generator.yamlio import text as whole_text

    monkeypatch.setattr(remembered, "REMEMBER_FROM_BYTES", 0)
    remembered.remember_in(tmp_path / "cache")
    parsed = []
    real = parse.fast_load
    for module in (reparse, whole_text):  # the edited items, and any file parsed in full
        monkeypatch.setattr(module, "fast_load", lambda text: parsed.append(text.lstrip("\n")) or real(text))
    try:
        path = tmp_path / "deck.yaml"
        cards = [card(i) for i in range(40)]
        path.write_text(deck_text(cards))
        load_yaml(path)
        parsed.clear()
        path.write_text(deck_text(cards[:7] + [card(7, "new")] + cards[8:]))
        document = load_yaml(path)
        assert parsed == [card(7, "new")]
        assert document["cards"][7]["body"]["en"] == "new 7" and item_line(document["cards"], 8) == 3 + 8 * 3 + 1
    finally:
        remembered.remember_in(None)


def test_edits_one_after_another_read_as_parsing_in_full(tmp_path, monkeypatch):
    """After a small edit the remembered file stays the older one: the next edit is read against it."""
    monkeypatch.setattr(remembered, "REMEMBER_FROM_BYTES", 0)
    remembered.remember_in(tmp_path / "cache")
    try:
        path = tmp_path / "deck.yaml"
        cards = [card(i) for i in range(200)]
        for edited in ([], [7], [7, 150], [7, 150, 151], [3]):
            now = [card(i, "edit") if i in edited else text for i, text in enumerate(cards)]
            if edited == [3]:
                now = now[:3] + now[4:]  # and one removed
            path.write_text(deck_text(now))
            assert located(load_yaml(path)) == located(load_yaml_text(path.read_text(), path)), edited
    finally:
        remembered.remember_in(None)
