"""`pnpgen serve` in a real browser: Debian's Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CARDS = "decks/cards.yaml"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium (/usr/bin/chromium): scripts/install-system-deps.sh installs it",
    ),
]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, served):
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(served.url + "/")
    page.wait_for_selector("img[alt='apple front en']")
    yield page
    page.close()


def field(page, string_id, lang):
    return page.locator(f"textarea[aria-label='{string_id} {lang}']")


def face_src(page, card_id, side, lang):
    return page.locator(f"img[alt='{card_id} {side} {lang}']").get_attribute("src")


def test_fixing_an_english_card_name_changes_the_card_and_one_yaml_line(page, small_game):
    before = (small_game / CARDS).read_text(encoding="utf-8")
    old_front = face_src(page, "apple", "front", "en")
    ja_front = face_src(page, "apple", "front", "ja")
    field(page, "cards[apple].name", "en").fill("Green Apple")
    field(page, "cards[apple].name", "en").press("Enter")
    page.wait_for_function(
        "old => document.querySelector(\"img[alt='apple front en']\").src.indexOf(old) < 0",
        arg=old_front,
        timeout=10000,
    )
    expect(page.locator("#message")).to_have_text("saved cards[apple].name (en): decks/cards.yaml")
    page.wait_for_function(
        "() => { const img = document.querySelector(\"img[alt='apple front en']\");"
        " return img.complete && img.naturalWidth > 100; }",
        timeout=10000,
    )  # the new face shows
    assert face_src(page, "apple", "front", "ja") == ja_front
    after = (small_game / CARDS).read_text(encoding="utf-8")
    diff = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert len(before.splitlines()) == len(after.splitlines())
    assert diff == [("    name: {ja: りんご, en: Apple}", "    name: {ja: りんご, en: Green Apple}")]


def test_an_edit_in_a_text_editor_shows_on_the_open_page(page, small_game):
    path = small_game / CARDS
    old_front = face_src(page, "pear", "front", "en")
    path.write_text(path.read_text(encoding="utf-8").replace("en: Pear}", "en: Ripe Pear}"), encoding="utf-8")
    page.wait_for_function(
        "() => document.querySelector(\"textarea[aria-label='cards[pear].name en']\").value === 'Ripe Pear'",
        timeout=10000,
    )
    assert face_src(page, "pear", "front", "en") != old_front


def test_a_refused_edit_says_why_and_writes_nothing(page, small_game):
    before = (small_game / CARDS).read_text(encoding="utf-8")
    field(page, "cards[apple].text", "en").fill("Draw {n} card.")
    field(page, "cards[apple].text", "en").press("Enter")
    expect(page.locator("#message.refused")).to_contain_text("not saved: placeholders differ")
    assert field(page, "cards[apple].text", "en").input_value() == "Draw {n} card."  # the typed text is kept
    assert (small_game / CARDS).read_text(encoding="utf-8") == before


def test_a_stale_translation_is_flagged_filtered_and_confirmed(page, small_game):
    field(page, "cards[pear].name", "ja").fill("西洋なし")
    field(page, "cards[pear].name", "ja").press("Enter")
    stale = page.locator("tr[data-string='cards[pear].name'] .flag.stale")
    stale.wait_for()
    page.select_option("#filter", "stale")
    visible = page.locator("article.card:not(.hidden)")
    assert visible.evaluate_all("cards => cards.map(c => c.dataset.card)") == ["pear"]
    lock_before = (small_game / "i18n.lock.yaml").read_text(encoding="utf-8")
    page.locator("tr[data-string='cards[pear].name'] button.confirm").click()
    stale.wait_for(state="detached")
    assert (small_game / "i18n.lock.yaml").read_text(encoding="utf-8") != lock_before


def test_every_value_the_page_shows_is_escaped(browser, served):
    """A language code or a problem kind holding markup shows as text; the page's policy forbids inline scripts."""
    evil = '"><img class=injected src=x onerror="window.injected=1">'
    state = served.session.state
    card = state["decks"][0]["cards"][0]
    card["problems"].append({"kind": evil, "lang": evil, "field": "name", "message": "m"})
    string = state["strings"][card["strings"][0]]
    string["problems"].append({"kind": evil, "lang": "en", "message": "m"})
    string["version"] = evil
    card["line"] = evil
    for each in state["strings"].values():
        each["values"][evil] = ""
    served.session.state = {**state, "game": {**state["game"], "languages": [*state["game"]["languages"], evil]}}
    page = browser.new_page()
    try:
        page.goto(served.url + "/")
        page.wait_for_selector("article.card")
        assert page.locator("img.injected").count() == 0
        assert page.evaluate("window.injected") is None
        assert evil in page.locator("article.card").first.inner_text()
    finally:
        page.close()


def test_a_refused_edit_is_sent_once_and_again_only_after_a_change(page, small_game):
    """A refused edit stays on the page, typed text and reason, and is not sent again by the redraw that
    follows it (it used to be re-sent about 7 times a second until the tab closed)."""
    edits = []
    page.on("request", lambda request: edits.append(request.post_data) if request.url.endswith("/api/edit") else None)
    before = (small_game / CARDS).read_text(encoding="utf-8")
    text = field(page, "cards[apple].text", "en")
    text.fill("Draw {n} card.")
    text.press("Enter")
    expect(page.locator("#message.refused")).to_contain_text("not saved: placeholders differ")
    page.wait_for_timeout(3000)  # the state reloads after the refusal; nothing may be sent meanwhile
    assert len(edits) == 1, edits
    assert text.input_value() == "Draw {n} card."
    expect(page.locator("#message.refused")).to_contain_text("not saved: placeholders differ")
    note = page.locator("tr[data-string='cards[apple].text'] .note.refused")
    expect(note).to_contain_text("not saved: placeholders differ")
    text.press("Enter")  # the same text again: still refused, nothing sent
    text.blur()
    page.wait_for_timeout(1000)
    assert len(edits) == 1, edits
    assert (small_game / CARDS).read_text(encoding="utf-8") == before

    text.fill("Draw 2 cards.")  # changed by the user: sent once, and saved
    text.press("Enter")
    expect(page.locator("#message")).to_have_text("saved cards[apple].text (en): decks/cards.yaml")
    page.wait_for_timeout(1000)
    assert len(edits) == 2, edits
    assert "Draw 2 cards." in edits[1]
    expect(note).to_have_count(0)
    assert "en: Draw 2 cards." in (small_game / CARDS).read_text(encoding="utf-8")


RULES = """\
blocks:
  - id: goal
    type: heading
    text: {ja: 目的, en: Goal}
  - id: play
    text: {ja: 各プレイヤーは手番ごとにカードを1枚引きます。, en: Each player draws one card a turn.}
"""
RULES_SECONDS = 240  # laying out a rule sheet on a loaded 2-core machine


@pytest.fixture
def rules_page(browser, served, small_game):
    (small_game / "rules.yaml").write_text(RULES, encoding="utf-8")
    served.session.refresh()
    assert served.session.rules.wait_idle(RULES_SECONDS)
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(served.url + "/rules")
    page.wait_for_selector(".edition[data-edition='en'] .page img")
    yield page
    page.close()


def en_page(page) -> str:
    return page.locator(".edition[data-edition='en'] .page img").first.get_attribute("src")


@pytest.mark.timeout(RULES_SECONDS * 2)
def test_a_rule_block_edited_on_its_page_changes_the_page_and_outlines_its_problem(rules_page, small_game):
    page = rules_page
    before = en_page(page)
    assert page.locator(".edition[data-edition='en'] .outline.glossary").count() == 0
    page.locator(".edition[data-edition='en'] .block-box[data-block='play']").first.click()  # opens its fields
    text = field(page, "rules[play].text", "en")
    expect(text).to_be_focused()
    text.fill("Each person draws one card a turn.")  # the glossary's プレイヤー is "player"
    text.press("Enter")
    expect(page.locator("#message")).to_contain_text("saved rules[play].text (en): rules.yaml")
    page.wait_for_function(
        "old => document.querySelector(\".edition[data-edition='en'] .page img\").getAttribute('src') !== old",
        arg=before,
        timeout=RULES_SECONDS * 1000,
    )
    page.wait_for_function(
        "() => { const img = document.querySelector(\".edition[data-edition='en'] .page img\");"
        " return img.complete && img.naturalWidth > 300; }",
        timeout=20000,
    )  # the new page shows
    outline = page.locator(".edition[data-edition='en'] .outline.glossary")
    expect(outline).to_have_count(1)
    assert "play" in outline.get_attribute("title")
    box = page.locator(".edition[data-edition='en'] .block-box[data-block='play']").first.bounding_box()
    drawn = outline.bounding_box()
    assert box and drawn and abs(box["x"] - drawn["x"]) < 2 and abs(box["y"] - drawn["y"]) < 2  # on the block
    expect(page.locator("tr[data-string='rules[play].text'] .flag.glossary")).to_have_count(1)
    assert "en: Each person draws one card a turn." in (small_game / "rules.yaml").read_text(encoding="utf-8")


@pytest.mark.timeout(RULES_SECONDS * 2)
def test_a_refused_rules_edit_is_shown_once_and_sent_once(rules_page, served, small_game):
    page = rules_page
    edits = []
    page.on("request", lambda request: edits.append(request.post_data) if request.url.endswith("/api/edit") else None)
    before = (small_game / "rules.yaml").read_text(encoding="utf-8")
    text = field(page, "rules[play].text", "en")
    text.fill("Each player draws {n} card.")
    served.session.rules.request()  # the rule sheet laid out meanwhile: the refusal never waits for it
    text.press("Enter")
    expect(page.locator("#message.refused")).to_contain_text("not saved: placeholders differ", timeout=5000)
    page.wait_for_timeout(3000)  # the state reloads after the refusal; nothing may be sent meanwhile
    assert len(edits) == 1, edits
    expect(page.locator("tr[data-string='rules[play].text'] .note.refused")).to_have_count(1)
    text.press("Enter")  # the same text again: still refused, nothing sent
    text.blur()
    page.wait_for_timeout(1000)
    assert len(edits) == 1, edits
    assert text.input_value() == "Each player draws {n} card."
    assert (small_game / "rules.yaml").read_text(encoding="utf-8") == before
