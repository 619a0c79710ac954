"""The pages pnpgen writes around the cards (rule sheets, tile captions, sheet labels, the typesetting sample)
are drawn by templates in templates/base: each element names its template line (data-src, for the text
check's findings) and the typesetting pass has run over the text."""

import re

from conftest import ROOT, copy_game
from generator.model import load_game
from generator.model.rules import load_rules
from generator.model.game import DEFAULT_BLEED_MM as BOARD_BLEED_MM
from generator.render.sheet_labels import label_batch
from generator.render.printed import furniture_batch
from generator.render.rulebook import RulebookWriter
from generator.render.sample import sample_html
from generator.render.paper import PAPERS
from generator.render.sheet_pages import SheetPage
from generator.render.tiles import tile_layout

BASE = ROOT / "templates" / "base"


def template_line(name: str, fragment: str) -> int:
    """The line of templates/base/NAME holding fragment (once)."""
    [line] = [
        number
        for number, text in enumerate((BASE / name).read_text(encoding="utf-8").splitlines(), 1)
        if fragment in text
    ]
    return line


def marked(html: str, tag: str, name: str, fragment: str) -> list[str]:
    """The elements of html written by fragment of the template (`tag`: the element's name and its first
    attributes, as in the template), found by the template line they are marked with."""
    name_, _, attributes = tag.partition(" ")
    mark = f'data-src="base/{name}:{template_line(name, fragment)}"'
    return re.findall(rf"<{name_} {mark}{' ' + re.escape(attributes) if attributes else ''}[^>]*>", html)


def test_rule_blocks_come_from_their_template_lines_and_are_typeset():
    game = load_game(ROOT / "cards" / "greed-inc", require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    html = writer.html(("ja",), "a4", cover=True)
    blocks = writer.blocks  # the rules.yaml blocks and the generated prototype note
    assert len(marked(html, 'div class="block', "rules.html", '<div class="block {{ row.type }}" id="b-')) == len(
        blocks
    )
    paragraphs = sum(block.type == "paragraph" for block in blocks)
    assert len(marked(html, "p", "rule-blocks.html", "<p>{{ b.text }}</p>")) == paragraphs > 10
    assert len(marked(html, "table", "rule-blocks.html", '<table class="{{ t.css }}"')) == sum(
        block.type in ("table", "components", "players") for block in blocks
    )
    assert marked(html, "nav", "rules.html", '<nav class="toc"')
    # the Japanese text went through the typesetting pass: Japanese/Latin gaps, numbers kept with counters
    assert '<span class="jl"> </span>' in html and '<span class="nb">' in html
    pair = writer.html(("ja", "en"), "a4", cover=False)
    rows = marked(pair, "tr", "rules.html", "<tr class=")
    assert len(rows) == len(blocks) and all(f'id="b-{block.id}"' in row for row, block in zip(rows, blocks))


def test_tile_captions_come_from_the_template_and_a_game_may_have_its_own(tmp_path):
    game_dir = copy_game("greed-inc", tmp_path)
    game = load_game(game_dir, require_templates=False)
    board = game.printables.boards["main"]
    layout = tile_layout(board.size_mm, "a4", bleed=BOARD_BLEED_MM)
    assert layout.count > 1
    html = furniture_batch(game, board, layout, "ja", "a4").html
    captions = marked(html, 'div class="pnp-tile"', "tile-captions.html", '<div class="pnp-tile"')
    assert len(captions) == layout.count
    assert (
        len(marked(html, 'div class="pnp-map-label"', "tile-captions.html", '<div class="pnp-map-label"'))
        == layout.count
    )
    assert 'タイル<span class="jl"> </span>A1' in html  # typeset: the gap between Japanese and Latin

    (game_dir / "templates").mkdir(exist_ok=True)
    (game_dir / "templates" / "tile-captions.html").write_text(
        '<html lang="{{ lang }}"><body>{% for caption in captions %}<p class="mine">{{ caption }}</p>'
        "{% endfor %}</body></html>",
        encoding="utf-8",
    )
    own = furniture_batch(load_game(game_dir, require_templates=False), board, layout, "en", "a4").html
    assert own.count('<p data-src="tile-captions.html:1" class="mine">') == layout.count


def test_sheet_labels_and_the_typesetting_sample_come_from_their_templates():
    pages = [SheetPage(PAPERS["a4"], [], "", "front", 1, ["goods"])]  # the labelled pages (see label_batches)
    html = label_batch(pages, ["グリード・インク・1枚目 <sheet>"], 5.0, "ja").html
    [_label] = marked(html, 'div class="pnp-label"', "sheet-labels.html", '<div class="pnp-label"')
    [_note] = marked(html, 'div class="pnp-note"', "sheet-labels.html", '<div class="pnp-note"')  # once per paper size
    assert "&lt;sheet&gt;" in html and "<sheet>" not in html  # escaped
    assert (
        len(marked(html, 'div class="pnp-page', "sheet-labels.html", '<div class="pnp-page pnp-paper-{{ page.paper'))
        == 1
    )
    assert (
        len(marked(html, 'div class="pnp-page', "sheet-labels.html", '<div class="pnp-page pnp-paper-{{ paper.name'))
        == 1
    )
    sample = sample_html()
    assert len(marked(sample, 'div class="box set"', "typesetting-sample.html", '<div class="box set"')) == 8
    assert "<ruby " in sample and '<span class="ruby">' in sample  # as written, and as pnpgen sets it


def test_the_words_around_tiles_in_a_language_pnpgen_lacks_print_flagged_and_are_listed(tmp_path):
    from generator.render.own_words import missing_words

    game_dir = copy_game("greed-inc", tmp_path)
    game_yaml = game_dir / "game.yaml"
    game_yaml.write_text(
        game_yaml.read_text(encoding="utf-8").replace("languages: [ja, en]", "languages: [ja, en, de]")
    )
    game = load_game(game_dir, require_templates=False)
    board = game.printables.boards["main"]
    layout = tile_layout(board.size_mm, "a4", bleed=BOARD_BLEED_MM)
    fallbacks: dict = {}
    html = furniture_batch(game, board, layout, "de", "a4", fallbacks)
    printed = set(fallbacks["de"])
    assert {"labels[tile_tile].text", "labels[tile_assemble].text", "labels[tile_ruler].text"} <= printed
    assert html.html.count('class="untranslated"') >= layout.count  # each tile's caption marked
    listed = {word.string_id for word in missing_words(game, ["de"])}
    assert printed <= listed  # validate lists every word the tiles print untranslated, before the build

    with (game_dir / "labels.yaml").open("a", encoding="utf-8") as labels:
        for key in ("tile", "assemble", "ruler", "map", "cut_outer", "cut_overlap", "cut_outer_overlap"):
            labels.write(f"  tile_{key}: {{de: 'Kachel {key}'}}\n")
        for key in ("edge", "edges", "left", "right", "top", "bottom"):
            labels.write(f"  tile_{key}: {{de: 'Rand {key}'}}\n")
    fallbacks = {}
    html = furniture_batch(load_game(game_dir, require_templates=False), board, layout, "de", "a4", fallbacks)
    assert not fallbacks.get("de") and 'class="untranslated"' not in html.html and "Kachel tile" in html.html
