"""A rules edit lays out again only what it changed, and the rule sheets are those a build from nothing makes."""

from __future__ import annotations

import shutil

import pytest

from conftest import ROOT, page_text
from test_input_errors import edit
from test_rules import SMALL_RULES
from generator.model import load_game
from generator.model.rules import load_rules
from generator.render.rulebook import RulebookWriter

EN_INTRO = '      en: "There are {card:apple.count} {card:apple} cards among the {deck.cards}."\n'
JA_HEADING = "{ja: ゲームの準備, en: Setting up}"


@pytest.fixture
def ruled_game(small_game):
    (small_game / "rules.yaml").write_text(SMALL_RULES, encoding="utf-8")
    return small_game


def test_an_english_edit_lays_out_the_editions_printing_english_only_and_matches_a_build_from_nothing(
    ruled_game, tmp_path, cli
):
    args = ("rules", "--paper", "a4", "--jobs", "1")
    first = cli(*args, ruled_game, "--out", tmp_path / "out")
    assert first.code == 0 and "(0 from the cache, 6 rendered)" in first.err  # 3 editions, A4 and Letter to decide
    edit(ruled_game / "rules.yaml", EN_INTRO, EN_INTRO.replace("{card:apple} cards", "{card:apple} red cards"))
    again = cli(*args, ruled_game, "--out", tmp_path / "out")
    assert again.code == 0 and "(2 from the cache, 4 rendered)" in again.err  # the Japanese edition is kept
    fresh = tmp_path / "fresh" / ruled_game.name
    shutil.copytree(ruled_game, fresh, ignore=shutil.ignore_patterns("out"))
    assert cli(*args, fresh, "--out", tmp_path / "fresh-out").code == 0
    written = sorted(path.name for path in (tmp_path / "out" / "small").glob("*.pdf"))
    assert written == ["rules-en-a4.pdf", "rules-ja+en-a4.pdf", "rules-ja-a4.pdf"]
    for name in written:
        edited = (tmp_path / "out" / "small" / name).read_bytes()
        assert edited == (tmp_path / "fresh-out" / "small" / name).read_bytes(), name
    assert "red" in page_text(tmp_path / "out" / "small" / "rules-en-a4.pdf", 0)
    assert "red" not in page_text(tmp_path / "out" / "small" / "rules-ja-a4.pdf", 0)


@pytest.mark.slow
def test_remembered_block_decisions_make_the_same_sheet_in_fewer_layouts(tmp_path, monkeypatch):
    """Greed Inc's Japanese edition, a heading edited: laid out with what the passes decided for every other block
    the last time, it is byte for byte the sheet laid out without memory, in fewer layouts (the paragraphs' short
    last lines are not set again, layout after layout)."""
    from generator.render import worker
    from generator.render.weasy import patches

    game_dir = tmp_path / "greed-inc"
    shutil.copytree(ROOT / "cards" / "greed-inc", game_dir)

    def sheet():
        game = load_game(game_dir, require_templates=False)
        return RulebookWriter(game, load_rules(game)).batch(("ja",), "a4", cover=False)

    before = sheet()
    remembered = worker.render_document(before.html, before.base_url, True, before.image_dpi, {}).decided
    assert remembered
    edit(game_dir / "rules.yaml", JA_HEADING, JA_HEADING.replace("ゲームの準備", "ゲームの準備をする"))
    after = sheet()
    layouts = []
    render = patches.SharedFonts.render
    monkeypatch.setattr(patches.SharedFonts, "render", lambda self: layouts.append(1) or render(self))
    cold = worker.render_document(after.html, after.base_url, True, after.image_dpi)
    cold_layouts, layouts[:] = len(layouts), []
    warm = worker.render_document(after.html, after.base_url, True, after.image_dpi, remembered)
    assert warm.pdf == cold.pdf
    assert len(layouts) < cold_layouts, (len(layouts), cold_layouts)
    assert {fit.kind for fit in warm.fits} == {fit.kind for fit in cold.fits}


def test_the_rules_page_keeps_only_the_page_images_made_last_and_makes_an_older_one_again(tmp_path):
    import io

    import pikepdf
    from PIL import Image

    from generator.web.rules import KEPT_PNGS, RulePages

    pdf = pikepdf.new()
    for grey in (40, 200):  # two pages told apart by their grey
        image = Image.new("RGB", (20, 20), (grey, grey, grey))
        raw = io.BytesIO()
        image.save(raw, "PDF")
        pdf.pages.extend(pikepdf.open(io.BytesIO(raw.getvalue())).pages)
    data = io.BytesIO()
    pdf.save(data)
    pages = RulePages(tmp_path / "game", tmp_path / "cache", 1, lambda: None)
    pages.cache.put("edition", data.getvalue())
    names = [f"page-{number}" for number in range(KEPT_PNGS + 10)]
    for number, name in enumerate(names):
        pages.images[name] = ("edition", number % 2, 20)

    made = {name: pages.page_png(name) for name in names}
    assert len(pages.pngs) == KEPT_PNGS and names[0] not in pages.pngs
    again = pages.page_png(names[0])  # made again from the cached edition, the same picture
    assert again == made[names[0]]
    first, second = (Image.open(io.BytesIO(made[name])).convert("L").getpixel((5, 5)) for name in names[:2])
    assert first < 100 < second  # each name shows its own page
    assert pages.page_png("no-such-page") is None
