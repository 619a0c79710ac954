"""The print-and-play file (pnp-LANG-PAPER.pdf) read back: the guide against the pages, the checklist against
components.yaml, the backs behind their fronts, bookmarks and page labels; and the planning behind it."""

import json
import re

import pikepdf
import pytest

from conftest import KITS, copy_game, page_text, placements
from generator.build.bundle import Part, checked_components, deck_pages, paginate
from generator.model import load_game
from generator.paths import CARDS_DIR
from generator.render.paper import PAPERS, Rect
from generator.render.pnp_guide import runs
from generator.render.sheet_pages import back_slot
from test_input_errors import edit
from test_rules import SMALL_RULES


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def bundle_entry(out, game_id, lang, paper, edition="standard"):
    report = json.loads((out / game_id / "build.json").read_text())
    wanted = (lang, paper, edition)
    (entry,) = [f for f in report["files"] if f["kind"] == "pnp" and (f["lang"], f["paper"], f["edition"]) == wanted]
    return entry


def contents(page) -> bytes:
    stream = page.obj.Contents
    parts = stream if isinstance(stream, pikepdf.Array) else [stream]
    return b"".join(part.read_bytes() for part in parts)


# --- planning ----------------------------------------------------------------------------------------------


def part(pages, sides="one", group="tokens", **entry):
    return Part({"pages": pages, "path": f"x-{pages}.pdf", **entry}, group, "x", sides)


def test_a_two_sided_part_starts_on_an_odd_page_after_a_blank_where_needed():
    parts = [part(5, "either", "rules"), part(28, "long", "cards"), part(1), part(4, "long")]
    layout = paginate(parts, (1, 1))
    assert [(p.first, p.last) for p in parts] == [(3, 7), (9, 36), (37, 37), (39, 42)]
    assert layout.blanks == [8, 38]
    assert layout.total == 42
    assert all(p.first % 2 == 1 for p in parts if p.sides in ("long", "short"))


def test_one_sided_parts_need_no_blank():
    parts = [part(3, "either", "rules"), part(1), part(2, "gutterfold", "cards")]
    assert paginate(parts, (1, 2)).blanks == []


def test_a_deck_is_found_on_the_sheets_that_print_it_fronts_and_backs():
    cards = part(8, "long", "cards", sheets=[["a"], ["a", "b"], ["b"], ["c"]])
    paginate([cards], (1, 1))  # the file starts on page 3
    assert deck_pages(cards, "a") == [3, 4, 5, 6]
    assert deck_pages(cards, "b") == [5, 6, 7, 8]
    assert runs([8, 9, 3, 4, 12]) == [(3, 4), (8, 9), (12, 12)]


def test_every_component_gets_the_pages_of_its_file_and_the_unprinted_none():
    game = load_game(CARDS_DIR / "greed-inc")
    parts = [
        Part({"pages": 5, "kind": "rules", "path": "r.pdf"}, "rules", "Rules", "either"),
        Part(
            {"pages": 4, "kind": "cards", "path": "c.pdf", "sheets": [["companies", "assets"], ["goods"]]},
            "cards",
            "Cards",
            "long",
        ),
        Part({"pages": 4, "kind": "tokens", "tokens": "money", "path": "t.pdf"}, "tokens", "Money", "long"),
    ]
    paginate(parts, (1, 1))
    pages = {checked.id: checked.pages for checked in checked_components(game, parts)}
    assert pages["rulebook"] == [(3, 7)]
    assert pages["company-cards"] == [(9, 10)] and pages["goods-cards"] == [(11, 12)]
    assert pages["money"] == [(13, 16)]
    assert pages["black-cubes"] == [] and pages["board"] == []  # not printed; not in these parts
    assert set(pages) == {component.id for component in game.components}


def test_the_token_files_sharing_one_file_are_found_on_the_sheets_that_print_them():
    """The ganged tokens-LANG-PAPER.pdf: each token file's component gets the pages of the sheets holding it, and
    the guide names the file like a card sheet file, with the token files it holds."""
    from generator.build.bundle import part_name, printed_items

    game = load_game(CARDS_DIR / "greed-inc")
    entry = {
        "pages": 6,
        "kind": "tokens",
        "path": "tokens-en-a4.pdf",
        "tokens": ["boot-markers", "dollar-markers", "money", "player-tokens", "start-player"],
        "sheets": [["boot-markers", "dollar-markers", "money"], ["money"], ["money", "player-tokens", "start-player"]],
    }
    tokens = Part(entry, "tokens", "Tokens", "long")
    paginate([tokens], (1, 1))  # the file starts on page 3
    pages = {checked.id: checked.pages for checked in checked_components(game, [tokens])}
    ids = {c.source[1]: c.id for c in game.components if c.source and c.source[0] == "tokens"}
    assert pages[ids["boot-markers"]] == [(3, 4)] and pages[ids["start-player"]] == [(7, 8)]
    assert pages[ids["money"]] == [(3, 8)]
    assert printed_items(entry) == [("tokens", sheet) for sheet in entry["tokens"]]

    class Words:
        def page_label(self, group, lang):
            return {"tokens": "Tokens"}[group]

    name, held = part_name(game, entry, "tokens", "en", Words())
    names = {c.source[1]: c.name.get("en") for c in game.components if c.source and c.source[0] == "tokens"}
    assert name == "Tokens" and held == tuple(names[sheet] for sheet in entry["tokens"])


# --- the kits' files, read back -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game_id", KITS)
@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_guide_gives_each_part_its_real_pages_and_the_file_opens_on_it(kits, game_id, paper):
    entry = bundle_entry(kits, game_id, "en", paper)
    path = kits / game_id / entry["path"]
    pdf = pikepdf.open(path)
    assert len(pdf.pages) == entry["pages"]
    text = page_text(path, 0)
    guide = " ".join(text.split())
    assert "Printing guide" in guide and "Print at 100%" in guide
    found = []
    for item in entry["parts"]:
        source = pikepdf.open(kits / game_id / item["path"])
        shown = f"{item['first']}–{item['last']}" if item["last"] > item["first"] else str(item["first"])
        found.append(shown)
        assert item["last"] - item["first"] + 1 == len(source.pages)
        for offset, page in enumerate(source.pages):  # the part's pages are its file's, in order
            assert contents(pdf.pages[item["first"] - 1 + offset]) == contents(page)
        if item["sides"] in ("long", "short"):
            assert item["first"] % 2 == 1
            # the Sides cell wraps its words over two lines, which the text read back may give in either order
            assert "two-sided, flip on the" in guide and f"{item['sides']} edge" in guide
    table = text.split("Pages What Sides Paper", 1)[1]
    rows = re.findall(r"^(\d+(?:–\d+)?) ", table, re.M)  # each row of the table starts with its pages
    assert rows == found
    covered = sum(item["last"] - item["first"] + 1 for item in entry["parts"]) + sum(entry["front_matter"].values())
    assert covered + len(entry["blank_pages"]) == len(pdf.pages)
    for blank in entry["blank_pages"]:
        assert not contents(pdf.pages[blank - 1]).strip()
    if entry["blank_pages"]:
        assert "Left blank: page" in guide


@pytest.mark.slow
@pytest.mark.parametrize("game_id", KITS)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_checklist_lists_every_component_with_its_count(kits, game_id, lang):
    game = load_game(CARDS_DIR / game_id)
    entry = bundle_entry(kits, game_id, lang, "a4")
    path = kits / game_id / entry["path"]
    checklist = squeeze(page_text(path, entry["front_matter"]["guide"]))
    for component in game.components:
        assert squeeze(component.name.get(lang)) in checklist
        if not component.printed:
            assert squeeze({"ja": "印刷しません", "en": "not printed"}[lang]) in checklist


@pytest.mark.slow
@pytest.mark.parametrize("game_id", KITS)
def test_every_back_in_the_bound_file_is_behind_its_front(kits, game_id):
    entry = bundle_entry(kits, game_id, "en", "letter")
    pdf = pikepdf.open(kits / game_id / entry["path"])
    two_sided = [item for item in entry["parts"] if item["sides"] in ("long", "short")]
    assert two_sided
    for item in two_sided:
        for front_index in range(item["first"] - 1, item["last"], 2):
            assert front_index % 2 == 0  # a front on an odd page: printing the whole file two-sided works
            front, back = pdf.pages[front_index], pdf.pages[front_index + 1]
            paper = (float(front.mediabox[2]) * 25.4 / 72, float(front.mediabox[3]) * 25.4 / 72)
            mirrored = {
                tuple(round(v, 2) for v in rect_of(back_slot(paper, Rect(*p[1:5]), item["sides"])))
                for p in placements(front)
            }
            backs = [tuple(round(v, 2) for v in p[1:5]) for p in placements(back)]
            assert set(backs) <= mirrored  # every back behind a front (a one-sided token's place left blank)
            if item["group"] == "cards":
                assert sorted(backs) == sorted(mirrored)


def rect_of(rect):
    return (rect.x, rect.y, rect.w, rect.h)


@pytest.mark.slow
def test_bookmarks_and_page_labels_name_each_part(kits):
    entry = bundle_entry(kits, "greed-inc", "ja", "a4")
    pdf = pikepdf.open(kits / "greed-inc" / entry["path"])
    with pdf.open_outline() as outline:
        titles = [item.title for item in outline.root]
        children = {item.title: [child.title for child in item.children] for item in outline.root}
    assert titles == [
        "印刷ガイド",
        "内容物チェックリスト",
        *("ルール", "カード", "トークン", "ボード", "プレイヤーエイド"),
    ]
    assert children["トークン"] == [] and "会社ボード" in children["ボード"]  # the token files share one file, named so
    numbers = pdf.Root.PageLabels.Nums
    labels = {int(numbers[i]): str(numbers[i + 1].P) for i in range(0, len(numbers), 2)}
    cards = next(item for item in entry["parts"] if item["group"] == "cards")
    count = cards["last"] - cards["first"] + 1
    assert labels[cards["first"] - 1] == f"カード 1/{count}" and labels[cards["last"] - 1] == f"カード {count}/{count}"
    assert labels[0] == "案内 1/2"
    for blank in entry["blank_pages"]:
        assert labels[blank - 1] == "白紙"


# --- words and options -------------------------------------------------------------------------------------


def test_the_game_words_the_guide_and_no_pnp_leaves_the_files_out(tmp_path, cli):
    game = copy_game("ikkin", tmp_path)
    labels = (game / "labels.yaml").read_text()
    (game / "labels.yaml").write_text(
        labels + "  pnp_guide: {ja: 印刷のしかた, en: How to print}\n  pnp_group_cards: {ja: カード, en: Card sheets}\n"
    )
    out = tmp_path / "out"
    assert cli("build", game, "--lang", "en", "--paper", "a4", "--out", out, "--quiet").code == 0
    path = out / "ikkin" / "pnp-en-a4.pdf"
    guide = page_text(path, 0)
    assert "How to print" in guide and "Printing guide" not in guide
    assert "We'll Take That Job for 1 Gold" in guide and "Version 0.91" in guide and "3–6 players" in guide
    pdf = pikepdf.open(path)
    numbers = pdf.Root.PageLabels.Nums
    assert any(str(numbers[i + 1].P).startswith("Card sheets 1/") for i in range(0, len(numbers), 2))
    assert cli("build", game, "--lang", "en", "--paper", "a4", "--out", out, "--quiet", "--no-pnp").code == 0
    assert not path.exists()
    report = json.loads((out / "ikkin" / "build.json").read_text())
    assert not [f for f in report["files"] if f["kind"] == "pnp"]


# --- the component spec ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_spec_sizes_and_pages_are_those_of_the_pdfx_export(kits, cli):
    assert cli("export", "greed-inc", "--to", "pdfx", "--lang", "en", "--out", kits, "--quiet").code == 0
    result = cli("components", "greed-inc", "--spec", "--format", "xlsx", "--lang", "en", "--out", kits)
    assert result.code == 0
    from openpyxl import load_workbook

    sheet = load_workbook(kits / "greed-inc" / "components-spec-en.xlsx").active
    head = [cell.value for cell in sheet[2]]
    rows = [dict(zip(head, (cell.value for cell in row))) for row in sheet.iter_rows(min_row=3)]
    game = load_game(CARDS_DIR / "greed-inc")
    assert [row["id"] for row in rows] == [component.id for component in game.components]
    printed = [row for row in rows if row["print-shop file"]]
    kinds = {component.id: component.source[0] for component in game.components if component.printed}
    expected = {cid: kind for cid, kind in kinds.items() if kind != "rules"}  # the rule booklet has no file
    assert {row["id"]: row["kind"] for row in printed} == {
        cid: "cards" if kind == "deck" else kind for cid, kind in expected.items()
    }
    assert {row["kind"] for row in printed} == {"cards", "tokens", "board", "aid"}
    assert len([row for row in printed if row["kind"] == "cards"]) == len(game.decks)
    for row in printed:  # every printed component: its file's pages are its faces, at its size and bleed
        pdf = pikepdf.open(kits / "greed-inc" / row["print-shop file"])
        fronts, backs = (int(n) for n in row["distinct faces (fronts / backs)"].split(" / "))
        assert len(pdf.pages) == fronts + backs, row["id"]
        backs_at = f"{fronts + 1}" if backs == 1 else f"{fronts + 1}-{fronts + backs}"
        assert row["pages"] == (f"1-{fronts}" if fronts > 1 else "1") + (f"; backs {backs_at}" if backs else "")
        assert row["sides printed"] == ("4/4" if backs else "4/0")
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) * 25.4 / 72 for v in page.obj.TrimBox)
            b0, c0, b1, c1 = (float(v) * 25.4 / 72 for v in page.obj.BleedBox)
            assert (x1 - x0, y1 - y0) == pytest.approx((row["width (mm)"], row["height (mm)"]), abs=0.01), row["id"]
            assert (x0 - b0, y0 - c0, b1 - x1, c1 - y1) == pytest.approx((row["bleed (mm)"],) * 4, abs=0.01)
    unprinted = {row["id"]: row["count"] for row in rows if row["kind"].startswith("not printed")}
    assert unprinted == {"black-cubes": 17, "yellow-cubes": 11}
    by_id = {row["id"]: row for row in rows}
    money = by_id["money"]
    assert (money["width (mm)"], money["sides printed"], money["count"]) == (30, "4/4", 100)
    assert by_id["black-dollar-markers"]["sides printed"] == "4/0"
    assert by_id["boot-markers"]["corner radius (mm)"] == "round"
    assert (by_id["board"]["width (mm)"], by_id["board"]["height (mm)"]) == (400, 250)
    assert by_id["board"]["print-shop file"] == "pdfx-en/board-main.pdf"
    # a half-page aid: half of landscape A4 inside the margin and the marks, less its own 3 mm bleed on each side
    aids = by_id["player-aids"]
    assert (aids["width (mm)"], aids["height (mm)"], aids["bleed (mm)"], aids["count"]) == (134, 188, 3, 5)
    money_faces = page_text(kits / "greed-inc" / money["print-shop file"], 0)
    assert "million" in money_faces  # the token's own face, not an empty page
    aid = page_text(kits / "greed-inc" / by_id["player-aids"]["print-shop file"], 0)
    assert "A year in ten phases" in aid


def test_material_reaches_the_spec_and_a_bad_one_is_located(tmp_path, cli):
    game = copy_game("ikkin", tmp_path)
    deck = game / "decks" / "employees.yaml"
    deck.write_text(deck.read_text() + "material: 310 g/m² black-core card, linen finish\n")
    result = cli("components", game, "--spec", "--format", "csv", "--lang", "en", "--out", tmp_path / "out")
    assert result.code == 0, result
    line = next(line for line in result.out.splitlines() if line.startswith("cards,"))
    assert "310 g/m² black-core card, linen finish" in line and ",63.0,88.0,3.0,4/4,3," in line
    assert "dice,Dice,not printed: use your own,5" in result.out
    deck.write_text(deck.read_text().replace("material: 310", "material: [310"))
    bad = cli("components", game, "--spec", "--format", "csv", "--out", tmp_path / "out")
    assert bad.code == 2 and "employees.yaml" in bad.err and "material" in bad.err


# --- the ink-saving version --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game_id", KITS)
def test_the_ink_saving_version_takes_at_most_half_the_ink_and_says_what_it_is(tmp_path_factory, cli, game_id):
    out = tmp_path_factory.mktemp("ink")
    assert cli("build", game_id, "--lang", "en", "--paper", "a4", "--ink-saver", "--out", out, "--quiet").code == 0
    normal, saver = bundle_entry(out, game_id, "en", "a4"), bundle_entry(out, game_id, "en", "a4", "ink-saver")
    assert saver["ink"]["mean_darkness"] <= normal["ink"]["mean_darkness"] / 2
    assert saver["pages"] == normal["pages"]  # the same parts, the same pages (backs printed light)
    printed = [part["path"].removeprefix("ink-saver/") for part in saver["parts"]]
    assert printed == [part["path"] for part in normal["parts"]]
    assert all(part["path"].startswith("ink-saver/") == (part["group"] != "rules") for part in saver["parts"])
    guide = page_text(out / game_id / saver["path"], 0)
    assert "Ink-saving version" in guide and "Standard version" in page_text(out / game_id / normal["path"], 0)
    assert (out / game_id / "ink-saver" / "build.json").is_file()
    firsts = {part["group"]: part["first"] - 1 for part in reversed(saver["parts"]) if part["group"] != "rules"}
    for page in firsts.values():  # the first page of each kind of part: every word printed as in the normal file
        assert page_text(out / game_id / saver["path"], page) == page_text(out / game_id / normal["path"], page)
    from inkcheck import text_contrasts

    printed_light = [part for part in saver["parts"] if part["group"] != "rules"]
    for part in printed_light:  # each component file's first sheet, front and back: every text stays legible
        for page in range(part["first"] - 1, min(part["first"] + 1, part["last"])):
            light = text_contrasts(out / game_id / saver["path"], page)
            normal_contrasts = text_contrasts(out / game_id / normal["path"], page)
            assert [words for words, _ in light] == [words for words, _ in normal_contrasts]
            for (words, contrast), (_, before) in zip(light, normal_contrasts):
                # WCAG's 4.5:1 for body text, or the contrast the normal file gives it where that is less
                assert contrast >= min(4.5, before) - 0.2, (part["path"], page + 1, words, contrast, before)


# --- what a build leaves in the folder ---------------------------------------------------------------------


def folder_files(out) -> set[str]:
    folder = out / "small"
    return {str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file()} - {"build.json"}


def test_the_bundles_and_the_ink_saver_folder_are_outputs_like_any_other(cli, small_game, tmp_path):
    out = tmp_path / "out"

    def build(*options):
        result = cli("build", small_game, "--out", out, "--paper", "a4", "--jobs", "1", *options)
        assert result.code == 0, result
        return result

    build("--ink-saver")
    saver = {f"ink-saver/cards-{lang}-a4.pdf" for lang in ("ja", "en")} | {"ink-saver/build.json"}
    bundles = {f"pnp-{lang}-a4{edition}.pdf" for lang in ("ja", "en") for edition in ("", "-ink-saver")}
    assert folder_files(out) == {"cards-ja-a4.pdf", "cards-en-a4.pdf"} | bundles | saver
    assert set(listed(out)) == folder_files(out) - {"ink-saver/build.json"}  # the main build.json lists all
    ja = {path: (out / "small" / path).read_bytes() for path in folder_files(out) if "-ja-" in path}
    build("--lang", "en")  # ja is outside this build: its bundles and ink-saving files stay, and listed
    assert {path for path in folder_files(out) if "-ja-" in path} == set(ja)
    assert all((out / "small" / path).read_bytes() == data for path, data in ja.items())
    assert "ink-saver/cards-en-a4.pdf" not in folder_files(out) and "pnp-en-a4-ink-saver.pdf" not in folder_files(out)
    assert set(listed(out)) == folder_files(out) - {"ink-saver/build.json"}
    inner = json.loads((out / "small" / "ink-saver" / "build.json").read_text())
    assert [entry["path"] for entry in inner["files"]] == ["cards-ja-a4.pdf"]
    result = build()  # every language, without --ink-saver: the ink-saving files go, build.json there too
    assert folder_files(out) == {"cards-ja-a4.pdf", "cards-en-a4.pdf", "pnp-ja-a4.pdf", "pnp-en-a4.pdf"}
    assert "ink-saver/cards-ja-a4.pdf" in result.err and "pnp-ja-a4-ink-saver.pdf" in result.err
    result = build("--no-pnp", "--lang", "en")
    assert folder_files(out) == {"cards-ja-a4.pdf", "cards-en-a4.pdf", "pnp-ja-a4.pdf"}
    assert "removed 1 file(s)" in result.err and "pnp-en-a4.pdf" in result.err
    assert set(listed(out)) == folder_files(out)


def listed(out) -> dict[str, dict]:
    return {entry["path"]: entry for entry in json.loads((out / "small" / "build.json").read_text())["files"]}


def test_pnpgen_rules_binds_the_new_rule_sheet_into_both_versions_and_keeps_the_ink_saving_files(
    cli, small_game, tmp_path
):
    (small_game / "rules.yaml").write_text(SMALL_RULES, encoding="utf-8")
    out = tmp_path / "out"
    assert cli("build", small_game, "--out", out, "--paper", "a4", "--jobs", "1", "--ink-saver").code == 0
    before = {path: (out / "small" / path).read_bytes() for path in folder_files(out)}
    edit(small_game / "rules.yaml", "en: Goal", "en: The aim")
    result = cli("rules", small_game, "--out", out, "--paper", "a4", "--lang", "en", "--jobs", "1")
    assert result.code == 0, result
    assert "removed" not in result.err and folder_files(out) == set(before)
    changed = {path for path, data in before.items() if (out / "small" / path).read_bytes() != data}
    assert changed == {"rules-en-a4.pdf", "pnp-en-a4.pdf", "pnp-en-a4-ink-saver.pdf"}
    for name in ("pnp-en-a4.pdf", "pnp-en-a4-ink-saver.pdf"):
        entry = listed(out)[name]
        rules = next(part for part in entry["parts"] if part["group"] == "rules")
        assert rules["path"] == "rules-en-a4.pdf" and "The aim" in page_text(out / "small" / name, rules["first"] - 1)
    saver = listed(out)["pnp-en-a4-ink-saver.pdf"]
    assert "ink-saver/cards-en-a4.pdf" in [part["path"] for part in saver["parts"]]
    assert set(listed(out)) == folder_files(out) - {"ink-saver/build.json"}


def test_a_bundle_whose_inputs_are_unchanged_is_kept_and_one_whose_parts_or_words_changed_is_bound_again(
    cli, small_game, tmp_path
):
    out = tmp_path / "out"

    def build():
        result = cli("build", small_game, "--out", out, "--paper", "a4", "--jobs", "1")
        assert result.code == 0, result
        return result

    def written(lang):
        found = (out / "small" / f"pnp-{lang}-a4.pdf").stat()
        return found.st_ino, found.st_mtime_ns

    build()
    before = {lang: written(lang) for lang in ("ja", "en")}
    entries = listed(out)
    result = build()  # nothing changed: neither file is bound again, nor its entry changed
    assert {lang: written(lang) for lang in ("ja", "en")} == before
    assert "2 print-and-play file(s) up to date" in result.err and "wrote pnp-" not in result.err
    assert {name: listed(out)[name] for name in ("pnp-ja-a4.pdf", "pnp-en-a4.pdf")} == {
        name: entries[name] for name in ("pnp-ja-a4.pdf", "pnp-en-a4.pdf")
    }
    edit(small_game / "decks" / "cards.yaml", "en: Draw 1 card.", "en: Draw one card.")
    result = build()  # a card sheet changed: the English file binds it, the Japanese one is kept
    assert written("ja") == before["ja"] and written("en") != before["en"]
    path = out / "small" / "pnp-en-a4.pdf"
    cards = next(part for part in listed(out)["pnp-en-a4.pdf"]["parts"] if part["group"] == "cards")
    assert "Draw one card." in page_text(path, cards["first"] - 1)
    before = {lang: written(lang) for lang in ("ja", "en")}
    with open(small_game / "labels.yaml", "w", encoding="utf-8") as labels:  # only the guide's words change
        labels.write("labels:\n  pnp_guide: {ja: 印刷のしかた, en: How to print}\n")
    build()
    assert written("ja") != before["ja"] and written("en") != before["en"]
    assert "How to print" in page_text(path, 0) and "印刷のしかた" in squeeze(
        page_text(out / "small" / "pnp-ja-a4.pdf", 0)
    )


# --- faces printed light ---------------------------------------------------------------------------------------

LIGHT_FACE = """<!doctype html><html><head><style>
@page { size: 60mm 70mm; margin: 0 } body { margin: 0; font: bold 22pt sans-serif }
div, img, svg { position: absolute; left: 0; width: 60mm }
.band { top: 0; height: 15mm; background: #1f2d4d; color: #ffffff }
.panel { top: 15mm; height: 15mm; background: #ffffff; color: #333333 }
.gradient { top: 30mm; height: 10mm; background: linear-gradient(90deg, #000000, #402010) }
img { top: 40mm; height: 10mm }
svg { top: 50mm; height: 10mm }
.lab { top: 60mm; height: 10mm; background: lab(20% 10 -30); color: lab(96% 0 0); font-size: 16pt }
</style></head><body><div class="band">LIGHT</div><div class="panel">DARK</div><div class="gradient"></div>
<img src="data:image/png;base64,{png}">
<svg viewBox="0 0 60 10"><line x1="0" y1="5" x2="60" y2="5" stroke="#000000" stroke-width="6"/></svg>
<div class="lab">LAB</div></body></html>"""


def darkness_in(image, box_mm, dpi) -> tuple[float, float, float]:
    """Mean, least and most darkness (0 white, 1 black) of the pixels in a box (left, top, right, bottom, mm)."""
    scale = dpi / 25.4
    counts = image.crop(tuple(round(v * scale) for v in box_mm)).histogram()
    present = [value for value, count in enumerate(counts) if count]
    mean = sum(value * count for value, count in enumerate(counts)) / sum(counts)
    return 1 - mean / 255, 1 - max(present) / 255, 1 - min(present) / 255


def test_a_face_printed_light_keeps_its_text_dark_and_lightens_every_shape_gradient_line_and_picture():
    import base64
    import io

    import pypdfium2 as pdfium
    from PIL import Image
    from weasyprint import HTML

    from generator.render.sheet_writer import SheetWriter

    black = io.BytesIO()
    Image.new("RGB", (60, 10), (0, 0, 0)).save(black, "PNG")
    html = LIGHT_FACE.replace("{png}", base64.b64encode(black.getvalue()).decode())
    source = pikepdf.open(io.BytesIO(HTML(string=html).write_pdf()))
    face = source.pages[0]
    images = {}
    for light in (False, True):
        writer = SheetWriter(light)
        writer.add_page((60, 70), [(face, Rect(0, 0, 60, 70), False)])
        data = io.BytesIO()
        writer.pdf.save(data)
        page = pdfium.PdfDocument(data.getvalue())[0]
        images[light] = page.render(scale=150 / 72, grayscale=True).to_pil().convert("L")
        assert page.get_textpage().get_text_range().split() == ["LIGHT", "DARK", "LAB"]  # the face's text
    normal, light = images[False], images[True]
    band_ground = (55, 1, 59, 14)  # right of the word
    assert darkness_in(normal, band_ground, 150)[0] > 0.6
    assert darkness_in(light, band_ground, 150)[0] < 0.3 * darkness_in(normal, band_ground, 150)[0]
    band = (0, 0, 50, 15)  # the white word on the navy band is dark on the light one
    assert darkness_in(normal, band, 150)[1] < 0.05 and darkness_in(light, band, 150)[2] > 0.75
    lab_ground, lab = (45, 61, 59, 69), (0, 60, 40, 70)  # the same in a Lab colour space
    assert darkness_in(light, lab_ground, 150)[0] < 0.3 * darkness_in(normal, lab_ground, 150)[0]
    assert darkness_in(normal, lab, 150)[1] < 0.1 and darkness_in(light, lab, 150)[2] > 0.75
    panel = (0, 16, 50, 29)  # dark text stays as dark
    assert darkness_in(light, panel, 150)[2] == pytest.approx(darkness_in(normal, panel, 150)[2], abs=0.05)
    assert darkness_in(light, panel, 150)[2] > 0.7
    for shape, share in (((1, 31, 59, 39), 0.3), ((1, 41, 59, 49), 0.3), ((1, 54, 59, 56), 0.55)):  # gradient,
        # picture, line (a line keeps more of its ink)
        before, after = darkness_in(normal, shape, 150)[0], darkness_in(light, shape, 150)[0]
        assert before > 0.7 and after < share * before, shape


# --- pnpgen's words in a language it has none of ----------------------------------------------------------------

FLAG_PINK = (0xD9, 0x46, 0x7C)  # the corner flag of a face or page printing text for want of a translation


def test_the_guide_in_a_language_pnpgen_has_no_words_of_prints_them_flagged_and_every_list_names_them(
    cli, small_game, tmp_path
):
    import pypdfium2 as pdfium

    edit(small_game / "game.yaml", "languages: [ja, en]", "languages: [ja, en, de]")
    (small_game / "labels.yaml").write_text(
        "labels:\n  pnp_guide: {ja: 印刷ガイド, en: Printing guide, de: Druckanleitung}\n", encoding="utf-8"
    )
    validated = cli("validate", small_game)
    said = [line for line in validated.out.splitlines() + validated.err.splitlines() if "pnpgen's word" in line]
    assert any("pnp_checklist has no de text (it prints in ja, flagged)" in line for line in said)
    assert any("labels.yaml" in line and "add `pnp_at_100: {de: ...}` under `labels:`" in line for line in said)
    assert not any("pnp_guide " in line for line in said)  # the game translated that one
    assert not any(" ja text" in line or " en text" in line for line in said)  # pnpgen's own languages
    status = cli("i18n", "status", small_game, "--json", "--no-layout")
    problems = json.loads(status.out)["problems"]
    missing = {p["id"] for p in problems if p["kind"] == "missing" and p["lang"] == "de"}
    assert {"labels[pnp_checklist].text", "labels[pnp_at_100].text"} <= missing
    assert "labels[pnp_guide].text" not in missing
    assert not [p for p in problems if p["kind"] == "missing" and p["lang"] in ("ja", "en")]

    out = tmp_path / "out"
    result = cli("build", small_game, "--lang", "de", "--paper", "a4", "--out", out, "--jobs", "1")
    assert result.code == 0, result
    report = json.loads((out / "small" / "build.json").read_text())
    listed_ids = {entry["id"] for entry in report["untranslated"]["de"]}
    assert {"labels[pnp_checklist].text", "labels[pnp_at_100].text"} <= listed_ids
    assert "labels[pnp_guide].text" not in listed_ids
    path = out / "small" / "pnp-de-a4.pdf"
    guide = squeeze(page_text(path, 0))
    assert "Druckanleitung" in guide and "100%（実際のサイズ）で印刷" in guide  # the source language's word
    document = pdfium.PdfDocument(str(path))
    corner = document[0].render(scale=100 / 72).to_pil().convert("RGB")
    width = corner.width
    flag = corner.crop((width - 80, 0, width, 80))
    assert FLAG_PINK in {colour for _, colour in flag.getcolors(6400)}  # the page is flagged as a face is


def test_a_game_in_japanese_and_english_has_every_word_of_pnpgen_and_nothing_is_listed(tmp_path, cli):
    from generator.render.own_words import missing_words

    for game_id in KITS:
        assert missing_words(load_game(CARDS_DIR / game_id), ["ja", "en"]) == []
    game = load_game(copy_game("ikkin", tmp_path))
    words = missing_words(game, ["ja", "fr"])
    assert {word.lang for word in words} == {"fr"}
    rules = {word.label for word in words if word.label.startswith("rules_")}
    assert "rules_prototype_intro" in rules  # the rule sheet's words are pnpgen's too: its prototype note's
    assert "rules_key_copies" not in rules and "rules_play_time" not in rules  # but only those ikkin prints
    assert not {word.label for word in words} & set(game.labels)  # a word the game labels is its own text
    assert all(word.printed_in == "ja" for word in words)  # ikkin's source language
