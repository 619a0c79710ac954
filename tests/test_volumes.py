"""A large deck's card sheets in volumes: build.json lists them, a one-card edit rewrites only the volume
holding the card, a deck that shrinks or grows leaves no stale volume, and a failed build leaves them all.

The game is generated (thousands of cards are the point, but a few dozen with a small volume size show the
same mechanism at test speed); its card text is read back from the PDFs.
"""

from __future__ import annotations

import json
import shutil

import pikepdf
import pytest

from conftest import page_text
from generator.build import cards, engine
from generator.build.builder import OutputBuilder
from generator.errors import InputError, Problem

CARDS = 60  # 7 A4 sheets of 9 poker cards: 4 volumes of 2 sheets
PER_VOLUME = "2"


def write_game(folder, cards=CARDS, texts=None):
    """A one-deck English game of `cards` distinct cards; `texts` replaces the text of some cards by number."""
    game = folder / "big"
    (game / "decks").mkdir(parents=True, exist_ok=True)
    (game / "templates").mkdir(exist_ok=True)
    (game / "game.yaml").write_text(
        "title: {en: Big game}\nplayers: {min: 1, max: 4}\nlanguages: [en]\nsource_language: en\n"
    )
    (game / "components.yaml").write_text(
        f"components:\n  - id: cards\n    name: {{en: Cards}}\n    count: {cards}\n    deck: cards\n"
    )
    lines = [
        "name: {en: Cards}",
        "size: poker",
        "template: card.html",
        "back: {template: back.html}",
        "fields:",
        "  body: {type: text}",
        "cards:",
    ]
    for number in range(1, cards + 1):
        body = (texts or {}).get(number, f"Card text number {number}.")
        lines += [f"  - id: card-{number:03d}", f'    name: {{en: "Card {number}"}}', f'    body: {{en: "{body}"}}']
    (game / "decks" / "cards.yaml").write_text("\n".join(lines) + "\n")
    (game / "templates" / "card.html").write_text(
        '<div class="safe"><h1 style="position:absolute;top:2mm;margin:0;font-size:11pt">{{ card.name | tx }}</h1>'
        '<p style="position:absolute;top:14mm;margin:0;font-size:8pt">{{ card.body | tx }}</p></div>\n'
    )
    (game / "templates" / "back.html").write_text('<div class="bleed" style="background:#234"></div>\n')
    return game


@pytest.fixture
def big(tmp_path, cli):
    game = write_game(tmp_path)
    out = tmp_path / "out"

    def build(*extra):
        return cli(
            "build",
            game,
            "--out",
            out,
            "--lang",
            "en",
            "--paper",
            "a4",
            "--volume-sheets",
            PER_VOLUME,
            "--jobs",
            "1",
            *extra,
        )

    assert build().code == 0
    return game, out / "big", build


def report(folder):
    return json.loads((folder / "build.json").read_text())


def stamps(folder):
    return {path.name: (path.stat().st_ino, path.stat().st_mtime_ns) for path in folder.glob("cards-*.pdf")}


def texts_of(path):
    with pikepdf.open(path) as pdf:
        count = len(pdf.pages)
    return [page_text(path, index) for index in range(count)]


def test_a_large_deck_is_split_into_volumes_that_build_json_lists(big):
    _, folder, _ = big
    entries = [entry for entry in report(folder)["files"] if entry["kind"] == "cards"]
    assert [entry["path"] for entry in entries] == [f"cards-en-a4-0{n}.pdf" for n in (1, 2, 3, 4)]
    assert not (folder / "cards-en-a4.pdf").exists()
    sheets = [(entry["volume"]["first_sheet"], entry["volume"]["last_sheet"]) for entry in entries]
    assert sheets == [(1, 2), (3, 4), (5, 6), (7, 7)]
    assert [(entry["volume"]["first_card"], entry["volume"]["last_card"]) for entry in entries] == [
        ("cards/card-001", "cards/card-018"),
        ("cards/card-019", "cards/card-036"),
        ("cards/card-037", "cards/card-054"),
        ("cards/card-055", "cards/card-060"),
    ]
    for entry in entries:
        assert entry["volume"]["of"] == 4 and entry["decks"] == ["cards"]
        with pikepdf.open(folder / entry["path"]) as pdf:
            assert len(pdf.pages) == entry["pages"] == 2 * len(entry["sheets"])
        assert len(entry["face_keys"]) == entry["faces"]["cards"]
    assert sum(entry["faces"]["cards"] for entry in entries) == CARDS
    # the fronts of volume 3 print cards 37 to 54, its labels count the sheets of every volume
    third = texts_of(folder / "cards-en-a4-03.pdf")
    assert "Card text number 37." in third[0] and "Card text number 54." in third[2]
    assert "sheet 5 of 7" in third[0] and "sheet 6 of 7" in third[2]


def test_a_one_card_edit_rewrites_only_the_volume_holding_the_card(big, tmp_path):
    _game, folder, build = big
    before = stamps(folder)
    write_game(tmp_path, texts={40: "A freshly edited text."})
    result = build()
    assert result.code == 0, result
    assert "wrote cards-en-a4-03.pdf" in result.err and "3 card sheet file(s) up to date" in result.err
    after = stamps(folder)
    assert set(after) == set(before)
    assert {name for name in after if after[name] != before[name]} == {"cards-en-a4-03.pdf"}
    pages = texts_of(folder / "cards-en-a4-03.pdf")
    assert "A freshly edited text." in pages[0] and "Card text number 40." not in "".join(pages)
    entry = next(e for e in report(folder)["files"] if e["path"] == "cards-en-a4-03.pdf")
    assert entry["volume"]["first_card"] == "cards/card-037"


def test_a_file_whose_inputs_are_unchanged_is_kept_without_planning_its_sheets(big, tmp_path, monkeypatch):
    _game, folder, build = big
    planned = []
    plan_pages = cards.plan_pages
    monkeypatch.setattr(
        cards, "plan_pages", lambda groups, option: planned.append(option) or plan_pages(groups, option)
    )
    before, listed = stamps(folder), report(folder)["files"]
    assert build().code == 0
    assert planned == [] and stamps(folder) == before
    assert report(folder)["files"] == listed  # the same entries, the volumes' numbers and cards included
    # a volume gone from disk: the file is planned again and that volume alone written
    (folder / "cards-en-a4-02.pdf").unlink()
    result = build()
    assert result.code == 0 and len(planned) == 1 and "wrote cards-en-a4-02.pdf" in result.err
    assert {name for name, stamp in stamps(folder).items() if before.get(name) != stamp} == {"cards-en-a4-02.pdf"}
    # an edit plans the file; the next build finds it unchanged again
    write_game(tmp_path, texts={5: "Edited."})
    assert "wrote cards-en-a4-01.pdf" in build().err and len(planned) == 2
    assert build().code == 0 and len(planned) == 2
    assert "Edited." in texts_of(folder / "cards-en-a4-01.pdf")[0]
    # an option that changes where the cards go plans the file again, and each volume is written anew
    edited = stamps(folder)
    assert build("--margin", "8").code == 0 and len(planned) == 3
    assert all(edited.get(name) != stamp for name, stamp in stamps(folder).items())


def test_volumes_a_smaller_deck_no_longer_has_are_removed_and_one_file_replaces_them(big, tmp_path):
    _game, folder, build = big
    write_game(tmp_path, cards=30)  # 4 sheets: 2 volumes
    assert build().code == 0
    assert sorted(stamps(folder)) == ["cards-en-a4-01.pdf", "cards-en-a4-02.pdf"]
    assert [e["path"] for e in report(folder)["files"] if e["kind"] == "cards"] == [
        "cards-en-a4-01.pdf",
        "cards-en-a4-02.pdf",
    ]
    write_game(tmp_path, cards=12)  # 2 sheets: one file under its usual name
    assert build().code == 0
    assert sorted(stamps(folder)) == ["cards-en-a4.pdf"]
    entry = report(folder)["files"][0]
    assert entry["path"] == "cards-en-a4.pdf" and "volume" not in entry and entry["pages"] == 4


def test_a_failed_build_leaves_every_volume_and_build_json_as_they_were(big, tmp_path, monkeypatch):
    _game, folder, build = big
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    write_game(tmp_path, cards=30, texts={1: "Changed before the failure."})

    def failing(context):
        raise InputError(Problem(context.game.dir / "rules.yaml", 1, "a later output fails"))

    monkeypatch.setattr(engine, "BUILDERS", [cards.BUILDER, OutputBuilder("rules", failing)])
    result = build()
    assert result.code == 2 and "a later output fails" in result.err
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


def test_changed_since_an_earlier_build_json_reprints_the_edited_card_from_a_volume_set(big, tmp_path):
    _game, folder, build = big
    earlier = tmp_path / "earlier.json"
    shutil.copy(folder / "build.json", earlier)
    write_game(tmp_path, texts={59: "Reprint me."})
    result = build("--changed-since", earlier)
    assert result.code == 0, result
    entry = next(e for e in report(folder)["files"] if e["kind"] == "reprint")
    assert entry["path"] == "reprint-en-a4.pdf" and entry["cards"] == ["cards/card-059"]
    assert "Reprint me." in page_text(folder / "reprint-en-a4.pdf", 0)


def test_volume_sheets_zero_writes_one_file_however_large(tmp_path, cli):
    game = write_game(tmp_path)
    out = tmp_path / "out"
    assert (
        cli("build", game, "--out", out, "--lang", "en", "--paper", "a4", "--volume-sheets", "0", "--jobs", "1").code
        == 0
    )
    assert sorted(stamps(out / "big")) == ["cards-en-a4.pdf"]
    negative = cli("build", game, "--out", out, "--volume-sheets", "-1")
    assert negative.code == 2 and "--volume-sheets" in negative.err


def test_the_sheet_labels_rendered_after_the_faces_are_shown_as_progress(tmp_path, cli):
    game = write_game(tmp_path, cards=30)  # 4 sheets: 2 volumes, a document of labels each
    result = cli("build", game, "--out", tmp_path / "out", "--lang", "en", "--paper", "a4", "--volume-sheets", "2")
    assert result.code == 0, result
    assert "rendering faces: 31 faces in" in result.err
    assert "rendering sheet labels: 2 documents in" in result.err
    again = cli("build", game, "--out", tmp_path / "out", "--lang", "en", "--paper", "a4", "--volume-sheets", "2")
    assert "rendering sheet labels" not in again.err  # nothing to render: nothing shown
