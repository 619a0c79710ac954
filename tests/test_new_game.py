"""`pnpgen new` as a designer runs it: title, languages and source chosen (or their defaults stated), a game
that validates with no problem and builds, where the designer looks for it: ./output of the current folder."""

import json

import pytest

from conftest import ROOT, page_text, run_subprocess

pytestmark = pytest.mark.slow


def pixels(pdf):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return document[0].render(scale=60 / 72).to_pil().convert("RGB").tobytes()
    finally:
        document.close()


def test_help_states_the_defaults():
    result = run_subprocess("new", "--help")
    text = " ".join(result.out.split())
    assert "default: ja,en" in text and "default: the first of them" in text and "default: the folder's name" in text
    assert "./output/NAME/ in the folder you run it in" in text


def test_a_new_game_in_english_and_japanese_validates_clean_and_builds_into_the_current_folder(tmp_path):
    made = run_subprocess("new", "x", "--title", "Fruit Market", "--languages", "en,ja", "--source", "en", cwd=tmp_path)
    assert made.code == 0, made
    assert "'Fruit Market' in en, ja, translated from en" in made.out
    assert f"writes ./output/x/ of the folder you run it in (from here: {tmp_path}/output/x/" in made.out
    game = tmp_path / "x"
    assert "title: {en: Fruit Market, ja: Fruit Market}" in (game / "game.yaml").read_text(encoding="utf-8")
    assert "source_language: en" in (game / "game.yaml").read_text(encoding="utf-8")

    validated = run_subprocess("validate", "x", cwd=tmp_path)
    assert validated.code == 0 and validated.out.rstrip().endswith("no problems"), validated
    status = run_subprocess("i18n", "status", "x", cwd=tmp_path)
    assert status.code == 0 and status.out.rstrip().endswith("no problems"), status  # no glossary or other warning

    built = run_subprocess("build", "x", "--paper", "a4", "--jobs", "1", cwd=tmp_path)
    warnings = [line for line in built.err.splitlines() if line.startswith("warning")]
    assert built.code == 0 and len(warnings) == 2, built  # the card waiting for its art, and the summary
    assert "decks/cards.yaml:20: picture: card 'pear' of deck 'cards' has no picture yet" in warnings[0]
    out = tmp_path / "output" / "x"
    assert not (ROOT / "output" / "x").exists()
    files = {entry["path"] for entry in json.loads((out / "build.json").read_text())["files"]}
    assert files == {f"{kind}-{lang}-a4.pdf" for kind in ("cards", "board-board", "pnp") for lang in ("en", "ja")}
    guide = " ".join(page_text(out / "pnp-en-a4.pdf", 0).split())  # the print-and-play file opens on its guide
    assert "Fruit Market" in guide and "Printing guide" in guide and "Japanese" in guide and "日本語" not in guide
    cards = " ".join(page_text(out / "cards-en-a4.pdf", 0).split())
    assert "Apple" in cards and "Draw 1 card." in cards and "Any one player discards 1 card." in cards
    assert "Pear art 40 × 30 mm" in cards  # the placeholder box where the pear's picture will go
    assert "手札を1枚引く" in "".join(page_text(out / "cards-ja-a4.pdf", 0).split())
    board = " ".join(page_text(out / "board-board-en-a4.pdf", 0).split())
    assert "Score" in board and "Draw pile" in board and "Discard pile" in board and "20" in board
    assert "得点" in "".join(page_text(out / "board-board-ja-a4.pdf", 0).split())

    # the picture is printed: the sheet changes when it is blanked
    (game / "art" / "fruit.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30" width="40mm" height="30mm"/>', encoding="utf-8"
    )
    again = run_subprocess("build", "x", "--paper", "a4", "--lang", "en", "--jobs", "1", "--out", "blank", cwd=tmp_path)
    assert again.code == 0, again
    assert pixels(tmp_path / "blank" / "x" / "cards-en-a4.pdf") != pixels(out / "cards-en-a4.pdf")


def test_the_defaults_make_a_japanese_source_game_that_validates_clean(tmp_path):
    made = run_subprocess("new", "y", cwd=tmp_path)
    assert made.code == 0 and "'y' in ja, en, translated from ja" in made.out, made
    assert run_subprocess("validate", "y", cwd=tmp_path).out.rstrip().endswith("no problems")
    assert "no problems" in run_subprocess("i18n", "status", "y", cwd=tmp_path).out


def test_a_language_beyond_the_starters_is_left_to_translate(tmp_path):
    made = run_subprocess("new", "z", "--languages", "en,de", cwd=tmp_path)
    assert made.code == 0, made
    deck = (tmp_path / "z" / "decks" / "cards.yaml").read_text(encoding="utf-8")
    assert "name: {en: Apple}" in deck  # no invented German
    validated = run_subprocess("validate", "z", cwd=tmp_path)
    assert "has no de" in validated.out and "Traceback" not in validated.err


@pytest.mark.parametrize(
    "args, said",
    [
        (["--languages", "en,ja", "--source", "de"], "--source de is not one of --languages en,ja"),
        (["--languages", "en,de", "--source", "de"], "--source de: the starter's texts are written in ja and en only"),
        (["--languages", "en,not a tag"], "--languages 'en,not a tag': not a tag is no language code"),
        (["--title", " "], "--title is empty"),
    ],
)
def test_wrong_options_are_refused_before_anything_is_written(tmp_path, args, said):
    result = run_subprocess("new", "w", *args, cwd=tmp_path)
    assert result.code == 2 and said in result.err and "Traceback" not in result.err, result
    assert list(tmp_path.iterdir()) == []
