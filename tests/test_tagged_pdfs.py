"""Tagged PDFs: rule sheets, aids and the typesetting sample carry a structure tree (headings, paragraphs, lists,
tables, figures with alternate text), each text in its own language, and every file a title naming the game,
the part, the languages and the paper.

The structure is read back with pikepdf and the text of each marked-content sequence with pdfium: the tests
compare the words a screen reader would read in each language with the words the game wrote."""

from __future__ import annotations

import ctypes
import io
from pathlib import Path

import pikepdf
import pytest

RULES = """\
blocks:
  - id: goal
    type: heading
    text: {ja: 目的, en: Goal}
  - id: intro
    text: {ja: りんごを集めます。, en: Collect the apples.}
  - id: steps
    type: list
    items:
      - {ja: カードを引く, en: Draw a card}
      - {ja: カードを出す, en: Play a card}
  - id: per-count
    type: players
    columns:
      - head: {ja: 使うカード, en: Cards used}
        value: deck.cards
  - id: picture
    type: figure
    src: box.svg
    text: {ja: 箱の中身, en: What is in the box}
  - id: untranslated
    text: {ja: 訳のない段落。}
"""
AID = """\
name: {ja: 早見表, en: Quick reference}
size: half-page
copies: 2
title: {ja: 手番, en: Your turn}
sections:
  - mark: "1"
    heading: {ja: 引く, en: Draw}
    text: {ja: 山札から1枚引く。, en: Take the top card.}
    items:
      - {ja: 手札は5枚まで, en: Keep five cards at most}
"""
BOX = '<svg xmlns="http://www.w3.org/2000/svg" width="30mm" height="10mm"><rect width="30mm" height="10mm"/></svg>'


# --- reading a tagged PDF ----------------------------------------------------------------------------


def elements(pdf: pikepdf.Pdf):
    """Every structure element as (type, language in force, element), in reading order."""
    found = []

    def walk(node, lang):
        if isinstance(node, pikepdf.Array):
            for kid in node:
                walk(kid, lang)
        elif isinstance(node, pikepdf.Dictionary) and node.get("/Type", "/StructElem") == "/StructElem":
            lang = str(node.Lang) if "/Lang" in node else lang
            found.append((str(node.S), lang, node))
            if "/K" in node:
                walk(node.K, lang)

    walk(pdf.Root.StructTreeRoot.K, str(pdf.Root.Lang))
    return found


def marked_texts(path: Path) -> dict[tuple[int, int], str]:
    """(page index, MCID) -> the text drawn in that marked-content sequence (in form XObjects too)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    texts: dict[tuple[int, int], str] = {}
    document = pdfium.PdfDocument(str(path))
    try:
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            for obj in page.get_objects(max_depth=4):
                mcid = raw.FPDFPageObj_GetMarkedContentID(obj.raw)
                if mcid < 0 or obj.type != raw.FPDF_PAGEOBJ_TEXT:
                    continue
                size = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
                buffer = (ctypes.c_ushort * (size // 2))()
                raw.FPDFTextObj_GetText(obj.raw, textpage.raw, buffer, size)
                text = bytes(buffer).decode("utf-16-le").rstrip("\0")
                texts[(index, mcid)] = texts.get((index, mcid), "") + text
    finally:
        document.close()
    return texts


def text_by_language(path: Path) -> dict[str, str]:
    """The text a screen reader reads, by the language the structure tree gives it."""
    drawn = marked_texts(path)
    with pikepdf.open(path) as pdf:
        pages = {page.objgen: index for index, page in enumerate(pdf.pages)}
        read: dict[str, list[str]] = {}
        for _kind, lang, element in elements(pdf):
            kids = element.get("/K")
            kids = list(kids) if isinstance(kids, pikepdf.Array) else [] if kids is None else [kids]
            for kid in kids:
                if isinstance(kid, int):
                    page, mcid = element.Pg, kid
                elif isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == "/MCR":
                    page, mcid = kid.get("/Pg", element.get("/Pg")), int(kid.MCID)
                else:
                    continue
                read.setdefault(lang, []).append(drawn.get((pages[page.objgen], int(mcid)), ""))
    return {lang: " ".join(parts) for lang, parts in read.items()}


def squeezed(text: str) -> str:
    """Text without the spaces and invisible joiners the typesetting puts between characters."""
    return "".join(char for char in text if not char.isspace() and char not in "\u200b\u2060\u00ad")


def kinds(path: Path) -> set[str]:
    with pikepdf.open(path) as pdf:
        return {kind for kind, _, _ in elements(pdf)}


def title_of(path: Path) -> str:
    with pikepdf.open(path) as pdf:
        return str(pdf.docinfo["/Title"])


# --- the small game, as a user writes it ----------------------------------------------------------------


@pytest.fixture
def tagged_game(small_game):
    (small_game / "rules.yaml").write_text(RULES, encoding="utf-8")
    (small_game / "box.svg").write_text(BOX, encoding="utf-8")
    (small_game / "aids").mkdir()
    (small_game / "aids" / "turn.yaml").write_text(AID, encoding="utf-8")
    return small_game


def test_rule_sheets_are_tagged_with_each_text_in_its_language(tagged_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("rules", tagged_game, "--paper", "a4", "--out", out, "-q").code == 0
    both = out / "small" / "rules-ja+en-a4.pdf"
    assert {"/H1", "/H2", "/P", "/L", "/LI", "/Table", "/TH", "/TD", "/Figure"} <= kinds(both)
    read = {lang: squeezed(text) for lang, text in text_by_language(both).items()}
    english = ("Goal", "Collecttheapples.", "Drawacard", "Playacard", "Cardsused", "Whatisinthebox")
    japanese = ("目的", "りんごを集めます。", "カードを引く", "カードを出す", "使うカード", "箱の中身")
    assert all(word in read["en"] for word in english), read["en"]
    assert not any(word in read["ja"] for word in english), "English read with a Japanese voice"
    assert all(word in read["ja"] for word in japanese)
    assert not any(word in read["en"] for word in japanese)
    assert read["ja"].count("訳のない段落。") == 2, "the untranslated paragraph is Japanese in both columns"
    with pikepdf.open(both) as pdf:
        alts = {lang: str(element.Alt) for kind, lang, element in elements(pdf) if kind == "/Figure"}
    assert alts == {"ja": "箱の中身", "en": "What is in the box"}, "a figure is described by its caption"
    english_only = text_by_language(out / "small" / "rules-en-a4.pdf")
    assert "Collect the apples." in english_only["en"] and "訳のない段落。" in squeezed(english_only["ja"])


def test_an_aid_is_read_once_in_each_language_and_its_copies_are_artifacts(tagged_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("build", tagged_game, "--paper", "a4", "--out", out, "-q").code == 0
    both = out / "small" / "aid-turn-ja+en-a4.pdf"
    read = {lang: squeezed(text) for lang, text in text_by_language(both).items()}
    assert read["en"].count("Yourturn") == 1, "two copies on the sheet, read once"
    assert all(word in read["en"] for word in ("Draw", "Takethetopcard.", "Keepfivecardsatmost"))
    assert all(word in read["ja"] for word in ("手番", "引く", "山札から1枚引く。", "手札は5枚まで"))
    assert not any(word in read["ja"] for word in ("Yourturn", "Draw"))
    assert {"/H1", "/H2", "/L", "/LI"} <= kinds(both)
    with pikepdf.open(both) as pdf:
        [page] = pdf.pages
        content = page.obj.Contents.read_bytes().decode("latin-1")
        assert content.count("/Artifact BMC") == 2, "the second copy and the crop marks are artifacts"
        forms = [form for form in page.Resources.XObject.values() if "/StructParents" in form]
        assert len(forms) == 1, "only the copy that is read is tagged"
        twin = next(form for form in page.Resources.XObject.values() if "/StructParents" not in form)
        assert b"/MCID" not in twin.read_bytes() and b"/MCID" in forms[0].read_bytes()
        assert pdf.Root.MarkInfo.Marked


def test_every_file_of_a_game_has_its_own_title_naming_game_part_languages_and_paper(tagged_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("build", tagged_game, "--out", out, "-q").code == 0
    titles = {path.name: title_of(path) for path in sorted((out / "small").glob("*.pdf"))}
    assert len(set(titles.values())) == len(titles), titles
    assert titles["rules-en-letter.pdf"] == "small: rules (English, Letter)"
    assert titles["rules-ja+en-a4.pdf"] == "small：ルール（日本語＋英語、A4）"
    assert titles["aid-turn-en-a4.pdf"] == "small: Quick reference “Your turn” (English, A4)"
    assert titles["cards-ja-a4.pdf"] == "small：カードシート（日本語、A4）"


def test_a_game_words_the_titles_in_a_third_language_with_its_labels(tagged_game, tmp_path, cli):
    game_yaml = tagged_game / "game.yaml"
    game_yaml.write_text(
        game_yaml.read_text(encoding="utf-8").replace("languages: [ja, en]", "languages: [ja, en, fr]"),
        encoding="utf-8",
    )
    (tagged_game / "labels.yaml").write_text(
        "labels:\n"
        "  title_file: {fr: '{game} : {part} ({languages}, {paper})'}\n"
        "  title_rules: {fr: règles}\n"
        "  title_lang_fr: {fr: français}\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert cli("rules", tagged_game, "--lang", "fr", "--paper", "a4", "--out", out, "-q").code == 0
    assert title_of(out / "small" / "rules-fr-a4.pdf") == "small : règles (français, A4)"


def test_the_typesetting_sample_is_tagged_and_titled(tmp_path, cli):
    assert cli("rules", "--sample", "--out", tmp_path, "-q").code == 0
    path = tmp_path / "typesetting-sample.pdf"
    assert "組版見本" in title_of(path) and "typesetting sample" in title_of(path)
    assert {"/H2", "/Table", "/TH", "/TD"} <= kinds(path)
    read = {lang: squeezed(text) for lang, text in text_by_language(path).items()}
    assert "Furigana" in read["en"] and "Furigana" not in read["ja"]
    assert "ふりがな" in read["ja"]


# --- the language marks themselves ---------------------------------------------------------------------


def test_an_element_is_marked_where_its_language_differs_from_its_parents():
    """A Japanese document with an English cell holding a Japanese word: /Lang where the language changes,
    nowhere else (a child inherits its parent's)."""
    from generator.render import weasy

    html = (
        '<html lang="ja"><body><p>日本語の段落</p><table><tr><td><p>左</p></td><td lang="en"><p>Right, with '
        '<span lang="ja">日本</span> in it</p></td></tr></table></body></html>'
    )
    data = weasy.load().HTML(string=html).render().write_pdf(pdf_tags=True)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        marked = [(kind, str(element.Lang)) for kind, _, element in elements(pdf) if "/Lang" in element]
        cells = [lang for kind, lang, _ in elements(pdf) if kind == "/TD"]
    assert marked == [("/TD", "en"), ("/Span", "ja")]
    assert cells == ["ja", "en"]


# --- the kits ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_kits_rule_sheets_and_aids_are_tagged_and_their_english_read_as_english(kits):
    """The A4 rule sheets and aids of the kits' build (conftest)."""
    for game_id, english, japanese in (
        ("greed-inc", "Greed Incorporated", "グリード・インコーポレイテッド"),
        ("mint-rails", "Mint Rails", "ミントレールズ"),
    ):
        folder = kits / game_id
        files = sorted(path for path in folder.glob("*-a4.pdf") if path.name.startswith(("rules-", "aid-")))
        assert {path.name.split("-")[0] for path in files} == {"rules", "aid"}
        for path in files:
            assert "/H1" in kinds(path), path.name
            title = title_of(path)
            assert (english if "-en-" in path.name else japanese) in title, title
        assert len({title_of(path) for path in files}) == len(files)
        for both in folder.glob("*-ja+en-a4.pdf"):
            read = text_by_language(both)
            if both.name.startswith("rules"):
                assert squeezed(english) in squeezed(read["en"]), both.name
            latin = sum(char.isascii() and char.isalpha() for char in read["en"])
            kana = sum("\u3040" <= char <= "\u30ff" for char in read["en"])
            assert kana < 0.01 * latin, f"{both.name}: Japanese read as English"
            assert sum("\u3040" <= char <= "\u30ff" for char in read["ja"]) > 100, "the Japanese half is read"
