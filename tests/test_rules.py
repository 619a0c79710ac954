"""Rule sheets: blocks aligned in every language, numbers and names bound to the data, located errors."""

import json
import re

import pikepdf
import pytest

from conftest import ROOT, copy_game, page_size_mm, page_text
from test_input_errors import edit, errors, line_of
from generator.render.components import component_rows
from generator.model.placeholders import PLACEHOLDER, resolve_one
from generator.model import load_game
from generator.model.rules import load_rules
from generator.render.rulebook import RulebookWriter
from generator.render.paper import PAPERS

SMALL_RULES = """\
blocks:
  - id: goal
    type: heading
    text: {ja: 目的, en: Goal}
  - id: intro
    text:
      ja: "{card:apple}は{deck.cards}枚の中に{card:apple.count}枚あります。"
      en: "There are {card:apple.count} {card:apple} cards among the {deck.cards}."
  - id: box
    type: components
  - id: setup
    type: heading
    text: {ja: 準備, en: Setup}
  - id: per-count
    type: players
    columns:
      - head: {ja: 使うカード, en: Cards used}
        value: deck.cards
  - id: removal
    type: note
    text:
      ja: 2人ではぶどうを{removed.cards@2}枚抜きます。
      en: With 2 players remove {removed.cards@2} grapes.
"""


@pytest.fixture
def ruled_game(small_game):
    (small_game / "rules.yaml").write_text(SMALL_RULES, encoding="utf-8")
    return small_game


def destinations(pdf):
    """Named destinations (one per element id) as {name: (page index, y)}."""
    pages = {page.objgen: index for index, page in enumerate(pdf.pages)}
    found = {}

    def walk(node):
        names = node.get("/Names")
        if names is not None:
            for i in range(0, len(names), 2):
                target = names[i + 1]
                found[str(names[i])] = (pages[target[0].objgen], float(target[3]))
        for kid in node.get("/Kids", []):
            walk(kid)

    walk(pdf.Root.Names.Dests)
    return found


@pytest.fixture
def greed_rules(kits):
    """The seed game's rule sheets on A4 in ja, en and ja+en: the kits' build (conftest), which writes them as
    `pnpgen rules` does."""
    return kits / "greed-inc"


@pytest.mark.slow
def test_side_by_side_twins_start_at_the_same_height(greed_rules):
    pdf = pikepdf.open(greed_rules / "rules-ja+en-a4.pdf")
    places = destinations(pdf)
    ids = [block.id for block in rulebook_of("greed-inc").blocks]
    assert len(ids) > 40
    for block_id in ids:
        assert places[f"ja-{block_id}"] == pytest.approx(places[f"en-{block_id}"], abs=0.01), block_id
    order = [places[f"ja-{block_id}"] for block_id in ids]
    assert order == sorted(order, key=lambda place: (place[0], -place[1])), "blocks keep their order"


def rulebook_of(name):
    return load_rules(load_game(ROOT / "cards" / name, require_templates=False))


def test_build_json_lists_every_edition_and_paper(ruled_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("rules", ruled_game, "--out", out, "-q").code == 0
    report = json.loads((out / "small" / "build.json").read_text())
    listed = {(f["kind"], f["lang"], f["paper"]) for f in report["files"]}
    assert listed == {("rules", lang, paper) for lang in ("ja", "en", "ja+en") for paper in PAPERS}
    for entry in report["files"]:
        pdf = pikepdf.open(out / "small" / entry["path"])
        assert len(pdf.pages) == entry["pages"] >= 1
        for page in pdf.pages:
            assert page_size_mm(page) == pytest.approx(PAPERS[entry["paper"]], abs=0.1)


def test_pnpgen_build_writes_cards_and_rules(ruled_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("build", ruled_game, "--out", out, "-q", "--paper", "a4", "--jobs", "1").code == 0
    report = json.loads((out / "small" / "build.json").read_text())
    kinds = {(f["kind"], f["lang"]) for f in report["files"]}
    assert kinds == {("cards", "ja"), ("cards", "en"), ("rules", "ja"), ("rules", "en"), ("rules", "ja+en")} | {
        ("pnp", "ja"),
        ("pnp", "en"),
    }


def test_pnpgen_build_checks_the_rules_before_writing_anything(ruled_game, tmp_path, cli):
    edit(ruled_game / "rules.yaml", "{deck.cards}枚", "{deck.crads}枚")
    out = tmp_path / "out"
    result = cli("build", ruled_game, "--out", out, "--paper", "a4", "--jobs", "1")
    assert result.code == 2 and "blocks[intro].text.ja" in result.err and "crads" in result.err
    assert not (out / "small").exists()


def test_pnpgen_rules_after_a_build_replaces_only_the_rule_sheets_entries_of_build_json(ruled_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("build", ruled_game, "--out", out, "-q", "--paper", "a4", "--jobs", "1").code == 0
    before = json.loads((out / "small" / "build.json").read_text())
    [index] = (out / ".cache" / "faces" / "index").iterdir()  # where each face of the last build is, in one read
    indexed = set(json.loads(index.read_text()))
    cards = [entry for entry in before["files"] if entry["kind"] == "cards"]
    assert cards and [entry["kind"] for entry in before["files"]].count("rules") == 3
    assert cli("rules", ruled_game, "--out", out, "-q", "--paper", "a4", "--lang", "en", "--jobs", "1").code == 0
    after = json.loads((out / "small" / "build.json").read_text())
    assert [entry for entry in after["files"] if entry["kind"] == "cards"] == cards  # every key, as the build wrote it
    others = {(entry["kind"], entry["lang"], entry["path"]) for entry in after["files"] if entry["kind"] != "cards"}
    rules = {("rules", lang, f"rules-{lang}-a4.pdf") for lang in ("ja", "en", "ja+en")}  # ja, ja+en: kept, listed
    bundles = {("pnp", lang, f"pnp-{lang}-a4.pdf") for lang in ("ja", "en")}  # en bound again, ja kept
    assert others == rules | bundles
    assert all((out / "small" / path).is_file() for _kind, _lang, path in others)
    rebound = {entry["path"]: entry for entry in after["files"]}["pnp-en-a4.pdf"]
    assert "rules-en-a4.pdf" in [part["path"] for part in rebound["parts"]]  # the bundle binds the new rule sheet
    assert indexed and indexed <= set(json.loads(index.read_text()))  # the cards' faces stay in the index


def test_a_build_of_some_outputs_keeps_what_build_json_said_of_the_others():
    from generator.build.report import Scope, carry_over

    previous = {
        "game": "g",
        "files": [{"path": "cards.pdf", "kind": "cards"}, {"path": "r.pdf", "kind": "rules"}, "junk"],
        "overflows": [{"piece": "card", "cards": ["a"]}, {"piece": "rules", "cards": ["intro"]}],
        "shrunk": [{"piece": "rules", "cards": ["goal"]}],
        "untranslated": {"en": [{"id": "cards[a].name", "where": "d.yaml:3"}, {"id": "rules[x].text", "where": "r:2"}]},
    }
    now = {
        "game": "g",
        "files": [{"path": "r-en.pdf", "kind": "rules"}],
        "overflows": [],
        "shrunk": [{"piece": "rules", "cards": ["setup"]}],
        "untranslated": {
            "en": [{"id": "rules[x].text", "where": "r:2"}],
            "fr": [{"id": "rules[y].text", "where": "r:5"}],
        },
    }
    rules_only = Scope(frozenset({"rules"}), False, None, frozenset({"ja", "en", "fr"}), None)
    merged = carry_over(now, previous, rules_only)
    assert merged["files"] == [{"path": "cards.pdf", "kind": "cards"}, {"path": "r-en.pdf", "kind": "rules"}]
    assert merged["overflows"] == [{"piece": "card", "cards": ["a"]}]
    assert merged["shrunk"] == [{"piece": "rules", "cards": ["setup"]}]
    assert [e["id"] for e in merged["untranslated"]["en"]] == ["cards[a].name", "rules[x].text"]
    assert merged["untranslated"]["fr"] == [{"id": "rules[y].text", "where": "r:5"}]
    assert carry_over(now, {}, rules_only)["files"] == now["files"]  # no build.json before, or an unreadable one


def test_short_rules_start_with_their_title_and_no_contents_page(ruled_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("rules", ruled_game, "--out", out, "-q", "--paper", "a4", "--lang", "en").code == 0
    path = out / "small" / "rules-en-a4.pdf"
    first = page_text(path, 0)
    assert "small" in first and "For 2–4 players" in first and "Goal" in first  # title and text on page 1
    assert "Contents" not in first
    assert len(pikepdf.open(path).pages) == 1


def test_title_page_contents_page_numbers_and_running_header(ruled_game, tmp_path, cli):
    out = tmp_path / "out"
    rules = ruled_game / "rules.yaml"
    rules.write_text("cover: always\n" + rules.read_text(encoding="utf-8"), encoding="utf-8")
    assert cli("rules", ruled_game, "--out", out, "-q", "--paper", "a4", "--lang", "en").code == 0
    path = out / "small" / "rules-en-a4.pdf"
    title, contents, first = (page_text(path, i) for i in range(3))
    assert "small" in title and "Rules" in title and "For 2–4 players" in title
    assert "Contents" in contents and re.search(r"Goal\W*3", contents) and re.search(r"Setup\W*3", contents)
    lines = [line.strip() for line in first.splitlines()]
    assert "small Goal" in lines  # running header: the game's title and the chapter
    assert lines[-1] == "3"  # page number


def test_a_data_change_changes_every_language(ruled_game, tmp_path, cli):
    deck = ruled_game / "decks" / "cards.yaml"
    edit(deck, "    count: 2\n    value: 1\n", "    count: 5\n    value: 1\n")  # apples: 2 -> 5, deck 6 -> 9
    edit(deck, "    remove_at: [2]", "    remove_at: [2, 3]")
    out = tmp_path / "out"
    assert cli("rules", ruled_game, "--out", out, "-q", "--paper", "a4").code == 0
    ja = page_text(out / "small" / "rules-ja-a4.pdf", 0)  # short rules: no cover, the text on page 1
    en = page_text(out / "small" / "rules-en-a4.pdf", 0)
    assert "りんごは9枚の中に5枚あります。" in ja.replace("\r\n", "").replace(" ", "")
    assert "There are 5 Apple cards among the 9." in en.replace("\r\n", " ")
    assert "ぶどうを2枚抜きます" in ja.replace(" ", "") and "remove 2 grapes" in en
    assert re.search(r"\b3\s+7\b", en) and re.search(r"\b4\s+9\b", en)  # players table: 3 -> 7, 4 -> 9


@pytest.mark.parametrize("game", ["greed-inc", "ikkin", "mint-rails"])
def test_placeholder_values_appear_in_both_languages(game):
    """Every block names the same data in each language, and each value is printed in both."""
    loaded = load_game(ROOT / "cards" / game, require_templates=False)
    writer = RulebookWriter(loaded, load_rules(loaded))
    checked = 0
    for block in writer.rulebook.blocks:
        for name, text in block.texts():
            sources = {lang: sorted(PLACEHOLDER.findall(text.get(lang))) for lang in ("ja", "en")}
            assert sources["ja"] == sources["en"], f"{block.id}.{name} states different data per language"
            for lang in ("ja", "en"):
                html = plain_html(writer.block_html(block, lang))
                for source in sources[lang]:
                    value = resolve_one(source, writer.data, lang)
                    assert value in html, f"{block.id}.{name}: {source} = {value} missing in {lang}"
                    checked += 1
    assert checked > 20
    for lang in ("ja", "en"):
        assert not PLACEHOLDER.search(plain_html(writer.html((lang,), "a4"))), f"unresolved placeholder ({lang})"


def plain_html(html):
    """Visible text: tags and CSS dropped, spacing spans removed."""
    return re.sub(r"<style[^>]*>.*?</style>|<[^>]+>", "", html, flags=re.S).replace("\u2009", "")


def test_greed_inc_numbers_come_from_game_yaml(tmp_path):
    game = copy_game("greed-inc", tmp_path)
    edit(game / "game.yaml", "starting_cash: 100", "starting_cash: 137")
    edit(game / "game.yaml", "storage_costs: [0, 5, 10, 15]", "storage_costs: [0, 6, 11, 17]")
    loaded = load_game(game, require_templates=False)
    writer = RulebookWriter(loaded, load_rules(loaded))
    ja, en = (writer.html((lang,), "a4") for lang in ("ja", "en"))
    for html in (ja, en):
        assert html.count("137") >= 2
        assert re.search(r'<td[^>]*>(<span class="phrase">)?34(</span>)?</td>', html)  # 0 + 6 + 11 + 17 stored


@pytest.mark.slow
def test_box_contents_section_equals_components_yaml(greed_rules):
    game = load_game(ROOT / "cards" / "greed-inc", require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    for lang in ("ja", "en"):
        html = writer.html((lang,), "a4")
        table = re.search(r'<table [^>]*class="components"[^>]*>.*?</table>', html, re.S).group(0)
        rows = re.findall(r'<tr [^>]*data-id="([^"]+)"><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td>', table)
        expected = [(row["id"], row["count"]) for row in component_rows(game, lang)]
        assert [(row_id, int(re.sub("<[^>]+>", "", count))) for row_id, _, count in rows] == expected
    pages = len(pikepdf.open(greed_rules / "rules-en-a4.pdf").pages)
    text = "".join(page_text(greed_rules / "rules-en-a4.pdf", i) for i in range(pages))
    for row in component_rows(game, "en"):
        assert row["name"] in text.replace("-\r\n", "").replace("\r\n", " ")


def only_error(cli, game, old, new):
    """Edit the rules, run `pnpgen rules`: it exits 2 with one error line, returned."""
    edit(game / "rules.yaml", old, new)
    result = cli("rules", game, "--out", game / "out")
    assert result.code == 2
    [message] = errors(result)
    return message


def test_a_block_missing_a_language_prints_the_source_text_and_says_so(ruled_game, cli):
    rules = ruled_game / "rules.yaml"
    line = line_of(rules, "removed.cards@2") - 1  # the `text:` of the block
    edit(rules, "      en: With 2 players remove {removed.cards@2} grapes.\n", "")
    result = cli("rules", ruled_game, "--out", ruled_game / "out", "--lang", "en", "--paper", "a4")
    assert result.code == 0, result.err
    warnings = [w for w in result.err.splitlines() if w.startswith("warning:")]
    assert f"rules.yaml:{line}: rules[removal].text has no en text" in warnings[0]
    assert "en: 1 text(s) have no en translation and are printed in ja" in warnings[1]
    assert warnings[2].endswith(f"rules.yaml:{line}: rules[removal].text")
    built = cli("build", ruled_game, "--out", ruled_game / "built", "--lang", "en", "--paper", "a4", "-j", "1")
    assert [w for w in built.err.splitlines() if w.startswith("warning:")] == warnings  # what a build says of it
    assert cli("rules", ruled_game, "--out", ruled_game / "out", "--lang", "en", "--paper", "a4", "--strict").code == 1
    pdf = ruled_game / "out" / "small" / "rules-en-a4.pdf"
    text = "".join(page_text(pdf, i) for i in range(len(pikepdf.open(pdf).pages)))
    assert "ぶどうを" in text and "{removed" not in text  # the Japanese text, its placeholder resolved


def test_rules_built_again_come_from_the_memo_with_their_warnings_until_a_file_of_the_game_changes(ruled_game, cli):
    rules = ruled_game / "rules.yaml"
    edit(rules, "      en: With 2 players remove {removed.cards@2} grapes.\n", "")
    args = ("rules", ruled_game, "--out", ruled_game / "out", "--lang", "en", "--paper", "a4")
    first = cli(*args)
    pdf = ruled_game / "out" / "small" / "rules-en-a4.pdf"
    written = pdf.read_bytes()
    again = cli(*args)
    # the A4 edition and the Letter one, laid out to decide the cover for both papers (rulebook.render_editions)
    assert again.code == 0 and "(2 from the cache, 0 rendered)" in again.err
    assert pdf.read_bytes() == written
    warnings = [[w for w in result.err.splitlines() if w.startswith("warning:")] for result in (first, again)]
    assert warnings[0] == warnings[1] and "rules[removal].text has no en text" in warnings[1][0]
    edit(ruled_game / "decks" / "cards.yaml", "    count: 2\n    value: 1", "    count: 5\n    value: 1")  # apple
    changed = cli(*args)
    assert changed.code == 0 and "(0 from the cache, 2 rendered)" in changed.err
    assert "There are 5 " in "".join(page_text(pdf, i) for i in range(len(pikepdf.open(pdf).pages)))


def test_an_unknown_placeholder_is_a_located_error(ruled_game, cli):
    rules = ruled_game / "rules.yaml"
    edit(rules, "{card:apple.count}枚", "{card:aple.count}枚")
    edit(rules, "{removed.cards@2} grapes", "{removed.card@2} grapes")
    result = cli("rules", ruled_game, "--out", ruled_game / "out")
    assert result.code == 2
    found = errors(result)
    assert any(
        f"rules.yaml:{line_of(rules, 'aple')}:" in m
        and "blocks[intro].text.ja" in m
        and "no card 'aple'" in m
        and "did you mean 'apple'" in m
        for m in found
    ), found
    assert any(
        f"rules.yaml:{line_of(rules, 'removed.card@2')}:" in m
        and "blocks[removal].text.en" in m
        and "{removed.card@2}" in m
        for m in found
    ), found
    assert not (ruled_game / "out").exists(), "nothing is written when the rules have errors"


def test_validate_reports_rules_problems_and_the_rulebook_component(ruled_game, cli):
    edit(ruled_game / "components.yaml", "    count: 1\n", "    count: 1\n    rules: rules\n")
    assert cli("validate", ruled_game).code == 0
    edit(ruled_game / "rules.yaml", "{deck.cards}枚", "{deck.card}枚")
    result = cli("validate", ruled_game)
    assert result.code == 1 and "blocks[intro].text.ja" in result.out and "{deck.card}" in result.out
    (ruled_game / "rules.yaml").unlink()
    result = cli("validate", ruled_game)
    assert result.code == 1 and "names rules 'rules', which does not exist" in result.out


def test_a_figure_is_placed_and_a_missing_one_is_a_located_error(ruled_game, tmp_path, cli):
    (ruled_game / "figures").mkdir()
    (ruled_game / "figures" / "box.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="10mm" viewBox="0 0 40 10">'
        '<rect width="40" height="10" fill="#ff0000"/></svg>'
    )
    rules = ruled_game / "rules.yaml"
    rules.write_text(
        rules.read_text(encoding="utf-8")
        + """\
  - id: picture
    type: figure
    src: figures/box.svg
    text: {ja: 箱, en: The box}
""",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert cli("rules", ruled_game, "--out", out, "-q", "--paper", "a4", "--lang", "en").code == 0
    assert red_pixels(out / "small" / "rules-en-a4.pdf", 0) > 100, "the figure is drawn"
    assert "The box" in page_text(out / "small" / "rules-en-a4.pdf", 0)
    edit(rules, "figures/box.svg", "figures/bx.svg")
    result = cli("rules", ruled_game, "--out", out, "-q")
    assert result.code == 2
    [message] = errors(result)
    assert f"rules.yaml:{line_of(rules, 'id: picture')}:" in message and "blocks[picture].src" in message


def red_pixels(path, index):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        image = document[index].render(scale=50 / 72).to_pil().convert("RGB")
    finally:
        document.close()
    return sum(1 for r, g, b in image.get_flattened_data() if r > 200 and g < 60 and b < 60)


def test_rebuild_takes_unchanged_sheets_from_the_cache(ruled_game, tmp_path, cli, monkeypatch):
    out = tmp_path / "out"
    args = ("rules", ruled_game, "--out", out, "-q", "--paper", "a4", "--lang", "en", "--jobs", "1")
    assert cli(*args).code == 0
    first = (out / "small" / "rules-en-a4.pdf").read_bytes()
    import generator.render.pipeline as pipeline

    def no_render(batch):
        raise AssertionError("an unchanged rule sheet was rendered again")

    monkeypatch.setattr(pipeline, "render_fitted", no_render)
    assert cli(*args).code == 0
    assert (out / "small" / "rules-en-a4.pdf").read_bytes() == first
    edit(ruled_game / "decks" / "cards.yaml", "    count: 2\n    value: 1\n", "    count: 3\n    value: 1\n")
    with pytest.raises(AssertionError, match="rendered again"):
        cli(*args)  # a data change changes the text, so the sheet is rendered again


def test_a_schema_mistake_names_the_block_by_its_id(ruled_game, cli):
    rules = ruled_game / "rules.yaml"
    message = only_error(cli, ruled_game, "  - id: removal\n    type: note\n", "  - id: removal\n    type: notes\n")
    assert f"rules.yaml:{line_of(rules, 'type: notes')}: blocks[removal].type:" in message
    assert "did you mean 'note'" in message


def frame_pixels(path, index):
    """Pixels of the small game's card frame colour (#2f5d62) on a page."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        image = document[index].render(scale=50 / 72).to_pil().convert("RGB")
    finally:
        document.close()
    return sum(
        1 for r, g, b in image.get_flattened_data() if abs(r - 0x2F) < 12 and abs(g - 0x5D) < 12 and abs(b - 0x62) < 12
    )


def test_a_card_block_shows_the_real_card_and_a_wrong_id_is_a_located_error(ruled_game, tmp_path, cli):
    rules = ruled_game / "rules.yaml"
    out = tmp_path / "out"
    assert cli("rules", ruled_game, "--out", out, "-q", "--paper", "a4", "--lang", "en").code == 0
    before = frame_pixels(out / "small" / "rules-en-a4.pdf", 0)
    rules.write_text(
        rules.read_text(encoding="utf-8")
        + """\
  - id: anatomy
    type: card
    deck: cards
    cards: [apple]
    callouts: [[5, 5], [30, 40]]
    text: {ja: カードの見方, en: Reading a card}
""",
        encoding="utf-8",
    )
    assert cli("rules", ruled_game, "--out", out, "-q", "--paper", "a4", "--lang", "en").code == 0
    path = out / "small" / "rules-en-a4.pdf"
    assert frame_pixels(path, 0) > before + 300, "the card's own frame colour is on the page"
    text = page_text(path, 0)
    assert "Reading a card" in text
    edit(rules, "cards: [apple]", "cards: [aple]")
    result = cli("rules", ruled_game, "--out", out, "-q")
    assert result.code == 2
    [message] = errors(result)
    assert f"rules.yaml:{line_of(rules, 'id: anatomy')}:" in message and "aple" in message


def test_an_unchanged_card_block_is_not_drawn_again_and_a_damaged_image_is(ruled_game, tmp_path, cli, monkeypatch):
    rules = ruled_game / "rules.yaml"
    rules.write_text(
        rules.read_text(encoding="utf-8")
        + "  - id: anatomy\n    type: card\n    deck: cards\n    cards: [apple, pear]\n"
        + "    text: {ja: カードの見方, en: Reading a card}\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    args = ("rules", ruled_game, "--out", out, "-q", "--paper", "a4", "--lang", "en", "--jobs", "1")
    assert cli(*args).code == 0
    first = (out / "small" / "rules-en-a4.pdf").read_bytes()
    import generator.render.cardimage as cardimage

    drawn = []
    real = cardimage.render_fitted
    monkeypatch.setattr(cardimage, "render_fitted", lambda batch: drawn.append(batch) or real(batch))
    assert cli(*args).code == 0
    assert not drawn, "the pictured cards were rendered again to recognise an unchanged rule sheet"
    assert (out / "small" / "rules-en-a4.pdf").read_bytes() == first
    [entry] = (out / ".cache" / "faces" / "images").rglob("*.marshal")
    entry.write_bytes(entry.read_bytes()[:100])  # cut short, as by a full disk
    (out / "small" / "rules-en-a4.pdf").unlink()
    assert cli(*args).code == 0
    assert not drawn  # the rule sheet is known unchanged (its edition memo) and cached: no picture is needed
    for memo in (out / ".cache" / "faces" / "memo").glob("*.marshal"):
        memo.unlink()  # the memos gone: now its HTML is made again, with its pictures
    assert cli(*args).code == 0
    assert len(drawn) == 1  # drawn again, not trusted
    assert (out / "small" / "rules-en-a4.pdf").read_bytes() == first


def edition_text(writer, langs):
    """An edition's text without markup and typesetting spaces (Japanese runs together)."""
    text = re.sub(r"<[^>]+>", "", writer.html(langs, "a4")).replace("\u200b", "")
    return re.sub(r"\s+", " ", text.replace("&amp;", "&").replace("&#39;", "'").replace("&#34;", '"'))


def prototype_items(writer, lang):
    """The items of the prototype note, as the edition prints them."""
    html = writer.html((lang,), "a4")
    heading = {"ja": "この試作について", "en": "About this prototype"}[lang]
    assert heading in re.sub(r"<[^>]+>", "", html).replace("\u200b", "")
    note = html[html.index('id="b-about-prototype-list"') :]
    items = re.findall(r"<li[^>]*>(.*?)</li>", note.split("</ul>")[0], re.S)
    return [re.sub(r"\s+", "", re.sub(r"<[^>]+>", "", item)).replace("\u200b", "") for item in items]


def test_a_prototype_block_places_the_note_and_a_game_with_nothing_invented_has_none(ruled_game):
    game = load_game(ruled_game, require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    assert not [block for block in writer.blocks if block.generated]
    assert "About this prototype" not in edition_text(writer, ("en",))
    edit(ruled_game / "decks" / "cards.yaml", "  - id: pear\n", "  - id: pear\n    placeholder: [value]\n")
    edit(ruled_game / "decks" / "cards.yaml", "value: {type: int,", "value: {label: {ja: 数字, en: value}, type: int,")
    edit(ruled_game / "rules.yaml", "  - id: setup\n", "  - type: prototype\n  - id: setup\n")
    game = load_game(ruled_game, require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    ids = [block.id for block in writer.blocks]
    assert ids.index("about-prototype") == ids.index("box") + 1 and ids.index("setup") > ids.index("about-prototype")
    assert prototype_items(writer, "ja") == ["カード：数字が仮のカード：洋なし。"]
    assert prototype_items(writer, "en") == ["Cards:inventedvalueonPear."]
    assert "stamp on a card" not in edition_text(writer, ("en",))  # no `tbd` label: no stamp to explain


def test_the_prototype_note_lists_what_greed_inc_invents_in_both_languages():
    game = load_game(ROOT / "cards" / "greed-inc", require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    assert writer.blocks[-4].id == "about-prototype"  # no `type: prototype` block: it closes the rules
    ja, en = prototype_items(writer, "ja"), prototype_items(writer, "en")
    assets_ja = next(item for item in ja if item.startswith("資産カード："))
    assets_en = next(item for item in en if item.startswith("Assetcards:"))
    # the deck's own words, the cards invented in full, and a card with some invented fields, by their labels
    assert "X3/4とX4の印がどのカードに付くか" in assets_ja and "whichcardscarrytheX3/4andX4marks" in assets_en
    assert "ように選んだもの）が仮。" in assets_ja and "ateveryplayercount)(invented);" in assets_en
    assert (
        "すべて仮のカード（33枚）：油井、製鉄所" in assets_ja
        and "cardsinventedinfull(33cards):OilWell,Ironworks" in assets_en
    )
    # goods: six kinds invented in full, nine cards of each (the counts themselves are invented too)
    goods_ja = next(item for item in ja if item.startswith("商品カード："))
    goods_en = next(item for item in en if item.startswith("Goodscards:"))
    assert "商品ごとの枚数（99枚を11種類で等分して9枚ずつ）が仮" in goods_ja
    assert "howmanycardsofeachgood(9each:the99cardssplitevenlyoverthe11goods)(invented)" in goods_en
    assert "すべて仮のカード（6種類54枚）：石油、土地" in goods_ja and "(6kinds,54cards):Oil,Land" in goods_en
    assert "公開時の価格トレンドが仮のカード：鉄道王、マーケティング会社" in assets_ja
    assert "inventedpricetrendwhenannouncedonRailroadTycoon,MarketingAgency" in assets_en
    assert "、炭鉱、" not in assets_ja and "：炭鉱" not in assets_ja  # the coal mine is known in full
    assert "お札：額面の種類とそれぞれの枚数が仮。" in ja
    assert "Money:thedenominationsandhowmanyofeach(invented)." in en
    stamp = edition_text(writer, ("ja",))
    assert "カードの「仮」の印は、そのカードに仮の値があることを示します。" in stamp.replace(" ", "")
    assert 'The "TBD" stamp on a card means that it holds at least one of these values.' in edition_text(
        writer, ("en",)
    )


def test_the_prototype_note_follows_the_data(tmp_path):
    game_dir = copy_game("greed-inc", tmp_path)
    assets = game_dir / "decks" / "assets.yaml"
    edit(assets, "    name: {ja: 油井, en: Oil Well}\n    placeholder: true\n", "    name: {ja: 油井, en: Oil Well}\n")
    edit(
        assets,
        "    name: {ja: 炭鉱, en: Coal Mine}\n",
        "    name: {ja: 炭鉱, en: Coal Mine}\n    placeholder: [number, produces]\n",
    )
    edit(game_dir / "components.yaml", "    count: 17\n", "    count: 17\n    placeholder: true\n")
    game = load_game(game_dir, require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    ja, en = prototype_items(writer, "ja"), prototype_items(writer, "en")
    assert "すべて仮のカード（32枚）：製鉄所" in next(item for item in ja if item.startswith("資産カード"))
    assert "inventedassetnumber,outputonCoalMine" in next(item for item in en if item.startswith("Assetcards"))
    assert "黒の木製キューブ：数が仮。" in ja and "Blackwoodencubes:inventedcount." in en


def test_components_table_marks_what_is_not_printed_and_invented_counts():
    game = load_game(ROOT / "cards" / "mint-rails", require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    for lang, not_printed, invented in (
        ("ja", "印刷しません（各自で用意）", "30（仮）"),
        ("en", "not printed: use your own", "30 (TBD)"),
    ):
        html = writer.html((lang,), "a4")
        table = re.search(r'<table [^>]*class="components"[^>]*>.*?</table>', html, re.S).group(0)
        rows = {
            row_id: [re.sub(r"[\s\u200b]+", "", re.sub(r"<[^>]+>", "", cell)) for cell in cells]  # as read
            for row_id, cells in (
                (m.group(1), re.findall(r"<td[^>]*>(.*?)</td>", m.group(2), re.S))
                for m in re.finditer(r'<tr [^>]*data-id="([^"]+)">(.*?)</tr>', table, re.S)
            )
        }
        squeezed = re.sub(r"\s+", "", not_printed)
        assert rows["black-cubes"][1] == invented.replace(" ", "") and squeezed in rows["black-cubes"][2]
        assert squeezed not in rows["map-cards"][2] and rows["map-cards"][1] == "8"


def test_the_cover_shows_the_play_time_and_age_game_yaml_gives(ruled_game, cli):
    """game.yaml's `play_time` and `age` follow the player count on the cover (and the head of short rules),
    in each language; without them only the player count shows. A range the wrong way round is a located error."""
    game = load_game(ruled_game, require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    assert writer.facts("ja") == "2〜4人用" and writer.facts("en") == "For 2–4 players"
    facts = "players: {min: 2, max: 4}\nplay_time: {min: 15, max: 30}\nage: 8\n"
    edit(ruled_game / "game.yaml", "players: {min: 2, max: 4}\n", facts)
    game = load_game(ruled_game, require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    assert writer.facts("ja") == "2〜4人用\u300015〜30分\u30008歳以上"
    assert writer.facts("en") == "For 2–4 players · 15–30 minutes · Ages 8+"
    for lang, said in (("en", "15–30minutes·Ages8+"), ("ja", "15〜30分8歳以上")):
        assert said in re.sub(r"\s+", "", edition_text(writer, (lang,))), lang
    edit(ruled_game / "game.yaml", "play_time: {min: 15, max: 30}", "play_time: {min: 45, max: 45}")
    game = load_game(ruled_game, require_templates=False)
    assert RulebookWriter(game, load_rules(game)).facts("en") == "For 2–4 players · 45 minutes · Ages 8+"
    edit(ruled_game / "game.yaml", "play_time: {min: 45, max: 45}", "play_time: {min: 45, max: 20}")
    result = cli("validate", ruled_game)
    assert result.code == 2 and "Traceback" not in result.err
    assert f"game.yaml:{line_of(ruled_game / 'game.yaml', 'play_time')}:" in result.err
    assert "min is larger" in result.err


def test_a_card_block_with_per_row_lays_its_cards_edge_to_edge(ruled_game):
    """Cards that join (map cards): per_row: 2 puts the second card right of the first and the third below the
    first, touching, square-cornered; the figure is as large as the rows."""
    (ruled_game / "rules.yaml").write_text(
        SMALL_RULES + "  - id: joined\n    type: card\n    deck: cards\n    cards: [apple, pear, apple]\n"
        "    per_row: 2\n    width: 30\n",
        encoding="utf-8",
    )
    game = load_game(ruled_game, require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    writer.draw_cards = True
    block = next(block for block in writer.blocks if block.id == "joined")
    pile = writer.block_view(block, "en")["pile"]
    width, height = game.decks["cards"].size_mm
    card_height = height * 30 / width
    assert [(card["x"], card["y"]) for card in pile["cards"]] == [(0, 0), (30, 0), (0, pytest.approx(card_height))]
    assert pile["joined"] and pile["width"] == 60 and pile["height"] == pytest.approx(2 * card_height)
    assert 'class="pile joined"' in writer.html(("en",), "a4")
