"""The face memo: a rebuild runs the templates only for the cards whose inputs changed, and what it gives for
the others (face keys, untranslated texts, face HTML on demand) is what running the templates gives."""

from __future__ import annotations

import re

import pytest

from conftest import copy_game
from generator.model import load_game
from generator.render import batches
from generator.render import faces as faces_module
from generator.render.faces import FacePages, GameRenderer
from generator.render.memo import FaceMemo


@pytest.fixture
def runs(monkeypatch):
    """The cards run through their templates, as (lang, card id)."""
    ran = []
    real = GameRenderer.card_faces

    def counting(self, deck, card, shared):
        ran.append((self.lang, card.id))
        return real(self, deck, card, shared)

    monkeypatch.setattr(GameRenderer, "card_faces", counting)
    return ran


def faces_of(game_dir, memo=None):
    game = load_game(game_dir)
    return game, {lang: GameRenderer(game, lang, memo).deck_faces(game.decks["cards"]) for lang in game.languages}


def assert_same(found, fresh):
    for lang in fresh:
        assert found[lang].keys == fresh[lang].keys
        assert found[lang].front_of == fresh[lang].front_of and found[lang].back_of == fresh[lang].back_of
        assert list(FacePages(found[lang])) == fresh[lang].pages  # a face the memo gave is made again on demand
        assert {
            card: [(u.text.values, u.lang, str(u)) for u in printed]
            for card, printed in found[lang].untranslated.items()
        } == {
            card: [(u.text.values, u.lang, str(u)) for u in printed]
            for card, printed in fresh[lang].untranslated.items()
        }


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_rebuild_runs_no_template_and_gives_the_same_faces(small_game, tmp_path, runs):
    edit(small_game / "decks" / "cards.yaml", "en: Apple}", "en: ''}")  # printed in Japanese in English
    memo = FaceMemo(tmp_path / "cache")
    faces_of(small_game, memo)
    cards = len(load_game(small_game).decks["cards"].cards)
    assert len(runs) == 2 * cards
    runs.clear()
    game, found = faces_of(small_game, memo)
    assert runs == []
    _, fresh = faces_of(small_game)
    assert_same(found, fresh)
    [apple_name] = found["en"].untranslated["apple"]
    assert apple_name.text is game.decks["cards"].cards[0].name  # the model's own Text: build.json names it


def test_an_edited_card_alone_runs_its_templates(small_game, tmp_path, runs):
    memo = FaceMemo(tmp_path / "cache")
    faces_of(small_game, memo)
    edit(small_game / "decks" / "cards.yaml", "en: Score 2 points.", "en: Score 3 points.")
    runs.clear()
    _, found = faces_of(small_game, memo)
    assert runs == [("ja", "grapes"), ("en", "grapes")]  # its Japanese face is rendered too (same key)
    _, fresh = faces_of(small_game)
    assert_same(found, fresh)


def test_a_template_file_change_runs_every_card(small_game, tmp_path, runs):
    memo = FaceMemo(tmp_path / "cache")
    faces_of(small_game, memo)
    template = small_game / "templates" / "card.html"
    template.write_text(template.read_text(encoding="utf-8") + "<!-- changed -->\n", encoding="utf-8")
    runs.clear()
    _, found = faces_of(small_game, memo)
    assert len(runs) == 2 * len(load_game(small_game).decks["cards"].cards)
    _, fresh = faces_of(small_game)
    assert_same(found, fresh)


def test_a_face_reading_other_cards_is_rendered_again_when_a_file_of_the_game_changes(small_game, tmp_path, runs):
    template = small_game / "templates" / "card.html"
    template.write_text(
        template.read_text(encoding="utf-8")
        + "<p>{{ decks.cards | length }} kinds, first {{ decks.cards.apple.value }}</p>\n",
        encoding="utf-8",
    )
    memo = FaceMemo(tmp_path / "cache")
    faces_of(small_game, memo)
    runs.clear()
    faces_of(small_game, memo)
    assert runs == []  # nothing changed: taken from the memo
    edit(small_game / "decks" / "cards.yaml", "value: 1", "value: 7")  # apple's value, printed on every card
    runs.clear()
    _, found = faces_of(small_game, memo)
    assert len(runs) == 2 * len(load_game(small_game).decks["cards"].cards)
    _, fresh = faces_of(small_game)
    assert_same(found, fresh)
    assert all("first 7" in page for page in FacePages(found["en"]) if 'class="face front"' in page)


def test_a_text_with_a_placeholder_is_resolved_again_when_a_file_of_the_game_changes(small_game, tmp_path, runs):
    deck_file = small_game / "decks" / "cards.yaml"
    edit(deck_file, "en: Score 2 points.}", 'en: "Score 2 points ({deck.cards} cards in the deck)."}')
    memo = FaceMemo(tmp_path / "cache")
    faces_of(small_game, memo)
    runs.clear()
    faces_of(small_game, memo)
    assert runs == []  # nothing changed: taken from the memo
    (small_game / "components.yaml").write_text(  # another file: the deck's size could be counted there
        (small_game / "components.yaml").read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8"
    )
    faces_of(small_game, memo)
    assert ("en", "grapes") in runs and ("en", "pear") not in runs
    runs.clear()
    edit(deck_file, "    count: 2\n    value: 1", "    count: 5\n    value: 1")  # apple: 3 more copies
    runs.clear()
    _, found = faces_of(small_game, memo)
    assert ("en", "grapes") in runs and ("en", "pear") not in runs
    _, fresh = faces_of(small_game)
    assert_same(found, fresh)
    grapes = found["en"].page(found["en"].front_of[2])
    total = sum(card.count for card in load_game(small_game).decks["cards"].cards)
    assert re.search(rf"\b{total}\b cards in the deck", grapes)


def test_an_unreadable_memo_renders_every_card(small_game, tmp_path, runs):
    memo = FaceMemo(tmp_path / "cache")
    faces_of(small_game, memo)
    for path in (tmp_path / "cache" / "memo").iterdir():
        path.write_bytes(b"{not marshal")
    runs.clear()
    _, found = faces_of(small_game, memo)
    assert len(runs) == 2 * len(load_game(small_game).decks["cards"].cards)
    _, fresh = faces_of(small_game)
    assert_same(found, fresh)


def test_the_memo_is_not_used_without_a_directory(small_game, runs):
    faces_of(small_game, FaceMemo(None))
    runs.clear()
    faces_of(small_game, FaceMemo(None))
    assert len(runs) == 2 * len(load_game(small_game).decks["cards"].cards)
    assert faces_module.FaceMemo is FaceMemo


@pytest.mark.parametrize("kit", ["greed-inc", "ikkin", "mint-rails"])
def test_the_kits_rebuilt_from_the_memo_give_the_same_faces(kit, tmp_path):
    game_dir = copy_game(kit, tmp_path)
    memo = FaceMemo(tmp_path / "cache")
    game = load_game(game_dir)
    for lang in game.languages:
        for deck in game.decks.values():
            GameRenderer(game, lang, memo).deck_faces(deck)
    game = load_game(game_dir)
    for lang in game.languages:
        for deck in game.decks.values():
            remembered, fresh = GameRenderer(game, lang, memo), GameRenderer(game, lang)
            found, made = remembered.deck_faces(deck), fresh.deck_faces(deck)
            assert_same({lang: found}, {lang: made})
            assert remembered.templates.used.keys() == fresh.templates.used.keys()


def test_the_face_index_finds_the_faces_of_the_last_build_in_one_read(tmp_path):
    from generator.render.weasy.fit import FitBox
    from generator.render.pipeline import FaceCache

    box = FitBox(page=0, field="text", width_mm=50.0, height_mm=20.0, overflow_mm=0.0, scale=1.0)
    first = FaceCache(tmp_path / "faces", index="game")
    first.record_faces("batch-a", ["face-1", "face-2"], [[box], []])
    first.save_index()
    for entry in (tmp_path / "faces" / "faces").rglob("face-*"):
        entry.unlink()  # the index alone says where they are
    again = FaceCache(tmp_path / "faces", index="game")
    assert again.find_face("face-2") == ("batch-a", 1)
    assert [(b.field, b.width_mm) for b in again.face_fits("face-1")] == [("text", 50.0)]
    assert again.find_face("face-3") is None
    again.save_index()  # this run used only these two: the index keeps them
    assert FaceCache(tmp_path / "faces", index="game").find_face("face-1") == ("batch-a", 0)
    (tmp_path / "faces" / "index" / "game.json").write_text("[not an index")
    assert FaceCache(tmp_path / "faces", index="game").find_face("face-1") is None  # and nothing else to go by


def test_new_fonts_or_renderer_run_every_card(small_game, tmp_path, runs, monkeypatch):
    """The memo gives face keys, which hash the fonts and WeasyPrint's version: a change to them is a new key."""
    memo = FaceMemo(tmp_path / "cache")
    faces_of(small_game, memo)
    monkeypatch.setattr(batches, "weasyprint_version", lambda: "999.0")
    runs.clear()
    _, found = faces_of(small_game, memo)
    assert len(runs) == 2 * len(load_game(small_game).decks["cards"].cards)
    _, fresh = faces_of(small_game)
    assert_same(found, fresh)


def test_a_face_key_is_the_content_key_of_the_face_in_its_decks_document(small_game):
    """The face cache, the memo and --changed-since (render/changes.py) all know a face by one key: the content
    key of the base URL, the deck's document around its faces and the face's HTML, however it is hashed."""
    game = load_game(small_game)
    deck = game.decks["cards"]
    for lang in game.languages:
        renderer = GameRenderer(game, lang)
        faces = renderer.deck_faces(deck)
        frame, base_url = renderer.document(deck, []), renderer.base_url()
        pages = list(FacePages(faces))
        assert len(set(pages)) == len(pages) > 1  # distinct faces: a front per card and the shared back
        assert faces.keys == [batches.content_key(base_url, frame, page) for page in pages]
        assert batches.content_keys((base_url, frame), pages) == faces.keys
        assert batches.content_key(base_url, frame + " ", pages[0]) != faces.keys[0]


def test_a_cards_data_key_changes_with_its_data_and_not_with_where_it_is_written(tmp_path):
    from pathlib import Path

    from generator.model.game import Card, Text
    from generator.render.memo import card_data

    def card(body, line=3, **fields):
        text = Text(body, Path("decks/a.yaml"), line)
        return Card("c1", Text({"en": "One"}), 1, {"body": text, **fields}, "a", Path("decks/a.yaml"), line, 0)

    same = card_data(card({"en": "Draw.", "ja": "引く。"})), card_data(card({"ja": "引く。", "en": "Draw."}, line=90))
    assert same[0] == same[1]  # where it is written and the order of its languages do not change it
    assert card_data(card({"en": "Draw two."})) != card_data(card({"en": "Draw."}))
    assert card_data(card({"en": "Draw."}, cost=1)) != card_data(card({"en": "Draw."}, cost="1"))
    assert card_data(card({"en": "Draw."}, cost=1)) != card_data(card({"en": "Draw."}, cost=True))
    # keys JSON cannot order (a number beside a text) are described the slower way, still by their data
    mixed = card_data(card({"en": "Draw."}, table={1: "a", "b": 2}))
    assert mixed == card_data(card({"en": "Draw."}, table={"b": 2, 1: "a"}))
    assert mixed != card_data(card({"en": "Draw."}, table={1: "a", "b": 3}))


def test_a_word_added_to_the_glossary_remakes_the_faces_that_print_it(small_game, tmp_path):
    """The typesetting keeps the game's own words whole (render/vocabulary.py): a term added to the glossary
    changes the faces whose text holds it, and those only, and the memo gives no face made before it."""
    memo = FaceMemo(tmp_path / "cache")
    game, before = faces_of(small_game, memo)
    edit(small_game / "glossary.yaml", "  - {ja: 点, en: point}", "  - {ja: 点, en: point}\n  - {ja: 手札, en: hand}")
    _, found = faces_of(small_game, memo)
    _, fresh = faces_of(small_game)
    assert_same(found, fresh)
    cards = [card.id for card in game.decks["cards"].cards]

    def fronts(faces):
        return {card: faces["ja"].keys[faces["ja"].front_of[index]] for index, card in enumerate(cards)}

    changed = {card for card in cards if fronts(before)[card] != fronts(found)[card]}
    assert changed == {"apple", "pear"}, "手札を1枚… is on these two, not on the grapes"
    apple = fresh["ja"].pages[fresh["ja"].front_of[cards.index("apple")]]
    assert '<span class="term">手札</span>' in apple
    assert fronts(before)["apple"] not in set(fronts(found).values())
