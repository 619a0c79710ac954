"""What a card sheet says about itself: a label above the cards (game, decks, sheet n of N, which side,
how to turn the paper) and, below them, the note to print at 100% beside a 50 mm bar to measure.

Both sit in the bands sheet_plan.py leaves between the printable margin and the cards (LABEL_BAND_MM).
The texts are one WeasyPrint page per sheet page, at paper size (embedded fonts, Japanese included),
laid over the page by the sheet writer; the bar is drawn as vector lines.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, replace

import pikepdf
from markupsafe import Markup, escape

from generator.model.game import Game

from generator.paths import TEMPLATES_DIR
from generator.render import fonts, typeset_html
from generator.render.batches import Batch
from generator.render.game_words import GameWords, WordSet, flagged
from generator.render.memo import code_fingerprint
from generator.render.paper import printable
from generator.render.pipeline import render_batches
from generator.render.sheet_marks import scale_bar
from generator.render.sheet_pages import SheetPage, sheet_pages
from generator.render.sheet_plan import LABEL_BAND_MM
from generator.render.sheet_writer import write_pages
from generator.render.templating import Templates

SHEET_LABELS_TEMPLATE = "base/sheet-labels.html"
SCALE_BAR_MM = 50.0
FONT_PT = 6.5
WORDS = {
    "en": {
        "sheet": "sheet {n} of {count}",
        "front": "fronts",
        "back": "backs: print on the back of sheet {n}",
        "long": "double-sided, flip on the long edge",
        "short": "double-sided, flip on the short edge",
        "none": "one-sided",
        "gutterfold": "fronts above, backs below: fold on the dashed line",
        "bar": "this bar is 50 mm:",
        "sep": " · ",
        "list": ", ",
        "note": "Print at 100% (actual size)",
    },
    "ja": {
        "sheet": "{count}枚中{n}枚目",
        "front": "表面",
        "back": "裏面：{n}枚目の裏に印刷",
        "long": "両面印刷・長辺で裏返す",
        "short": "両面印刷・短辺で裏返す",
        "none": "片面印刷",
        "gutterfold": "上が表・下が裏：点線で折る",
        "bar": "この線が50 mm：",
        "sep": "・",
        "list": "、",
        "note": "実際のサイズ（100%）で印刷",
    },
}


PUNCTUATION = ("sep", "list")  # not words: in a language pnpgen has no words of, the English ones, unflagged


def label_of(key: str) -> str:
    """The labels.yaml key a game words one of the sheet labels' words with."""
    return f"sheet_{key}"


def sheet_keys(game: Game) -> list[str]:
    """The words a default build's card and token sheets print (two-sided, flipped on the long edge, unless the
    game has one-sided token sheets only); those of --duplex short and gutter-fold sheets are listed by the build
    that prints them."""
    if not game.decks and not (game.printables and game.printables.tokens):
        return []
    keys = ["sheet", "front", "back", "long", "bar", "note"]
    tokens = game.printables.tokens.values() if game.printables else []
    if any(sheet.sides == 1 for sheet in tokens):
        keys.append("none")
    return keys


SHEET_WORDS = WordSet(
    "card and token sheets' labels",
    {lang: {key: word for key, word in words.items() if key not in PUNCTUATION} for lang, words in WORDS.items()},
    label_of,
    sheet_keys,
)


@dataclass(frozen=True)
class SheetWords:
    """The words of one language's sheet labels as the game prints them (its labels, else pnpgen's), each a
    markup string: a word printed in another language for want of a translation is marked `untranslated`."""

    lang: str
    texts: tuple[tuple[str, str], ...]

    def __getitem__(self, key: str) -> str:
        return dict(self.texts)[key]


def own_words(words: SheetWords | str) -> SheetWords:
    """Words, or a language's code for pnpgen's own words (no game: a test's sheets, a sample)."""
    return sheet_words(None, words, []) if isinstance(words, str) else words


def printed_keys(duplex: str, gutterfold: bool) -> list[str]:
    """The words the labels of one file's sheets print (`duplex`: long, short or none)."""
    return ["sheet", "front", "back", "bar", "note", "gutterfold" if gutterfold else duplex]


def sheet_words(game: Game | None, lang: str, printed: list[str], fallbacks: dict | None = None) -> SheetWords:
    """The sheet labels' words in lang; those of `printed` (printed_keys) printed untranslated are noted in
    fallbacks (lang -> string id -> Text), as the rule sheet's are. Without a game: pnpgen's own (English where
    it has no lang)."""
    if game is None:
        own = WORDS.get(lang, WORDS["en"])
        return SheetWords(lang, tuple((key, str(escape(word))) for key, word in own.items()))
    words: GameWords = SHEET_WORDS.words(game)
    if fallbacks is not None:
        for key in printed:
            words.word(key, lang)
        for fallback_lang, texts_of in words.fallbacks.items():
            fallbacks.setdefault(fallback_lang, {}).update(texts_of)
    texts = []
    for key in WORDS["en"]:
        if key in PUNCTUATION:
            texts.append((key, str(escape(WORDS.get(lang, WORDS["en"])[key]))))
        else:
            texts.append((key, str(flagged(words.word(key, lang)))))
    return SheetWords(lang, tuple(texts))


def label_text(
    page: SheetPage, sheets: int, title: str, deck_names: dict[str, str], duplex: str, words: SheetWords | str
) -> str:
    """One line of markup: game, decks (`title` and `deck_names` markup too), sheet n of N, the side and how to
    turn the paper for it."""
    w = own_words(words)
    decks = Markup(w["list"]).join(Markup(deck_names.get(deck, escape(deck))) for deck in page.decks if deck)
    parts = [Markup(title), decks, Markup(w["sheet"]).format(n=page.sheet, count=sheets)]
    if page.side == "gutterfold":
        parts.append(Markup(w["gutterfold"]))
    elif page.side == "back":
        parts.append(Markup(w["back"]).format(n=page.sheet))
    else:
        parts += [Markup(w["front"]), Markup(w[duplex])]
    return Markup(w["sep"]).join(part for part in parts if part)


def _bar_x(paper: tuple[float, float], margin: float) -> float:
    area = printable(paper, margin)
    return area.right - SCALE_BAR_MM - 1.0


def _bar_y(margin: float) -> float:
    return margin + LABEL_BAND_MM / 2


def scale_overlay(page: SheetPage, margin: float) -> str:
    """The 50 mm bar, in the band below the cards at the right."""
    return scale_bar(_bar_x(page.paper, margin), _bar_y(margin), SCALE_BAR_MM)


def template_source() -> str:
    """The labels' template, part of what an unchanged sheet is recognised by."""
    return (TEMPLATES_DIR / SHEET_LABELS_TEMPLATE).read_text(encoding="utf-8")


def label_batch(pages: list[SheetPage], labels: list[str], margin: float, words: SheetWords | str) -> Batch:
    """The texts of labelled sheet pages (drawn by templates/base/sheet-labels.html): a paper-size page of each
    one's label, then a page per paper size of the note to print at 100% (see label_furniture). Keyed by what it
    is made from: a rebuild that finds it in the cache renders no template and typesets no label."""
    papers = paper_sizes(pages)
    named = {paper: f"p{index}" for index, paper in enumerate(papers)}
    line = FONT_PT * 0.3528 * 1.3
    views = []
    for page, label in zip(pages, labels):
        area = printable(page.paper, margin)
        views.append(
            {
                "paper": named[page.paper],
                "label": label,
                "label_x": area.x + 1,
                "label_y": page.paper[1] - area.top + (LABEL_BAND_MM - line) / 2,
                "label_width": area.w - 2,
            }
        )
    words = own_words(words)
    lang = words.lang
    context = {
        "lang": lang,
        "pages": views,
        "note": words["note"] + words["sep"] + words["bar"],
        "family": fonts.FAMILY,
        "font_pt": FONT_PT,
        "line_mm": line,
        "papers": [
            {
                "name": named[paper],
                "width": paper[0],
                "height": paper[1],
                "note_right": paper[0] - _bar_x(paper, margin) + 1.5,
                "note_y": paper[1] - _bar_y(margin) - line / 2,
            }
            for paper in papers
        ],
    }
    styles = f"{fonts.font_face_css()}{typeset_html.stylesheet()}"
    # pnpgen's code (the typesetting, this module) and the template decide the HTML made from these
    inputs = "\0".join([code_fingerprint(), template_source(), styles, json.dumps(context, sort_keys=True)])

    def make() -> str:
        pages = [{**page, "label": escape(page["label"])} for page in views]  # label_text's markup kept
        marked = {"pages": pages, "note": Markup(context["note"])}
        return Templates(None, lang).render(
            SHEET_LABELS_TEMPLATE, {**context, **marked, "styles": Markup(styles)}, "the sheet labels"
        )

    return Batch(None, "file:///", inputs=inputs, make=make)


LABEL_PAGES = 50  # labelled sheet pages per document of label texts: a WeasyPrint document holds every page's
# layout until written, so thousands of sheets are labelled in many documents (on every core), never in one


def paper_sizes(pages: list[SheetPage]) -> list[tuple[float, float]]:
    """The paper sizes of a label document's pages, in the order its note pages follow its labels."""
    return sorted({page.paper for page in pages})


def _labelled_chunks(pages: list[SheetPage]) -> list[list[SheetPage]]:
    """The labelled pages (a gutter-fold sheet may have no room for a label), LABEL_PAGES to a document."""
    labelled = [page for page in pages if page.labelled]
    return [labelled[start : start + LABEL_PAGES] for start in range(0, len(labelled), LABEL_PAGES)]


def label_batches(
    pages: list[SheetPage],
    title: str,
    deck_names: dict[str, str],
    duplex: str,
    margin: float,
    words: SheetWords | str,
    sheets: int | None = None,
) -> list[Batch]:
    """The documents of texts for the labelled ones of these sheet pages; `sheets` is the N of "sheet n of N"
    (the pages' own last sheet when not given: a file holding every sheet)."""
    if not pages:
        return []
    sheets = sheets or max(page.sheet for page in pages)
    chunks = _labelled_chunks(pages)
    texts = [[label_text(page, sheets, title, deck_names, duplex, words) for page in chunk] for chunk in chunks]
    return [label_batch(chunk, labels, margin, words) for chunk, labels in zip(chunks, texts)]


def label_furniture(pages: list[SheetPage], pdfs: list[pikepdf.Pdf]) -> list[list[pikepdf.Page]]:
    """For each sheet page, the pages of the rendered label documents laid over it: its label and its paper's
    note (the same page object on every sheet of that paper, so that the sheet writer makes one form of it)."""
    over: dict[int, list[pikepdf.Page]] = {}
    for chunk, pdf in zip(_labelled_chunks(pages), pdfs, strict=True):
        texts = list(pdf.pages)
        notes = dict(zip(paper_sizes(chunk), texts[len(chunk) :], strict=True))
        for page, label in zip(chunk, texts):
            over[id(page)] = [label, notes[page.paper]]
    return [over.get(id(page), []) for page in pages]


def label_pages(
    pages: list[SheetPage],
    title: str,
    deck_names: dict[str, str],
    duplex: str,
    margin: float,
    words: SheetWords | str,
    cache,
    jobs: int,
    sheets: int | None = None,
    batches: list[Batch] | None = None,
) -> tuple[list[pikepdf.Pdf], list[list[pikepdf.Page]]]:
    """Give every page its scale bar; return the rendered texts (keep the PDFs open while their pages are
    used) and, for each sheet page, the pages of them laid over it (see label_furniture). `batches`: the pages'
    label_batches, when already made (and rendered, and counted, with the faces: see render_missing)."""
    counted = batches is None
    if batches is None:
        batches = label_batches(pages, title, deck_names, duplex, margin, words, sheets)
    for page in pages:
        page.overlay += scale_overlay(page, margin) if page.labelled else ""
    pdfs = [pikepdf.open(io.BytesIO(data)) for data in render_batches(batches, cache, jobs, counted=counted)]
    return pdfs, label_furniture(pages, pdfs)


def write_labelled(
    writer,
    groups,
    option,
    title: str,
    deck_names: dict[str, str],
    words: SheetWords | str,
    cache,
    jobs: int,
    duplex: str | None = None,
):
    """Impose the groups of copies on sheets with their labels, 100% note and bar; return the pages and the
    PDFs of texts (keep them open until the writer is saved: their pages are copied from them on saving)."""
    pages = sheet_pages(groups, replace(option, label_bands=True))
    texts, furniture = label_pages(pages, title, deck_names, duplex or option.duplex, option.margin, words, cache, jobs)
    write_pages(writer, pages, furniture)
    return pages, texts
