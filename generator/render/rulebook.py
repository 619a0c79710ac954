"""Rule sheets as PDFs: one language, or two side by side with every block's twins starting level.

Each edition is one WeasyPrint document: a title page, a table of contents (target-counter), the
blocks, a running header (@page margin boxes with the chapter's string) and page numbers. Side by side
is a table with one row per block, a column per language: a row starts both twins at the same height
and WeasyPrint breaks a long row across pages with its twin.
"""
from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

import pikepdf
from markupsafe import Markup, escape

from generator.checks.components import component_rows, headings as component_headings
from generator.checks.images import image_problem
from generator.checks.placeholders import DataNames, PlaceholderError, resolve, resolve_one
from generator.errors import InputError, Problem, unique_problems
from generator.fsutil import write_atomic
from generator.model.game import Game, Text
from generator.model.rules import COVER_FROM_PAGES, Block, Rulebook, has_rules, load_rules
from generator.paths import TEMPLATES_DIR
from generator.progress import Progress
from generator.render import fonts, typeset_html
from generator.render.cardimage import face_images
from generator.render.faces import Batch, CardFit, find_text
from generator.render.fit import FitBox
from generator.render.pipeline import FaceCache, render_batches
from generator.render.typeset import spaced_plain

PAGE_SIZES = {"a4": "A4", "letter": "letter"}
LABELS = {
    "ja": {"rules": "ルール", "contents": "目次", "example": "例", "note": "注意", "players": "人数",
           "players_range": "{low}〜{high}人用", "page": "ページ"},
    "en": {"rules": "Rules", "contents": "Contents", "example": "Example", "note": "Note", "players": "Players",
           "players_range": "For {low}–{high} players", "page": "page"},
}
PRINTER_MARGIN_MM = 4.0   # a home printer prints nothing in the outer 4-5 mm of the paper
LAST_PAGE_MIN = 'data-last-page-min="0.3"'  # a last page with under 30% of a page's lines is pulled back
DISPLAY = 'data-typeset="phrases"'  # display text: Japanese breaks between phrases (BudouX)
STRONG = re.compile(r"\*\*(.+?)\*\*")


def labels(lang: str) -> dict:
    return LABELS.get(lang, LABELS["en"])


# The words pnpgen itself prints on a rule sheet; a game's labels.yaml may hold them as `rules_<key>` (and
# `components_<key>` for the box contents table), which makes them translation strings like any other.
GAME_LABEL = {**{key: f"rules_{key}" for key in LABELS["en"]},
              **{f"components_{key}": f"components_{key}" for key in ("name", "count", "note")}}


def edition_name(langs: tuple[str, ...]) -> str:
    return "+".join(langs)


class RulebookWriter:
    """Resolves every placeholder of a rulebook once, then writes its editions as HTML and PDF."""

    def __init__(self, game: Game, rulebook: Rulebook):
        self.game = game
        self.rulebook = rulebook
        self.data = DataNames.of(game)
        self.problems: list[Problem] = []
        self.draw_cards = False   # card blocks render faces only when a sheet is written, not to check
        self.card_images: dict[tuple, list[str]] = {}
        self.fallbacks: dict[str, dict[str, Text]] = {}  # language -> string id -> Text printed in the source

    # --- text -----------------------------------------------------------------------------------

    def text(self, value, lang: str, key: str, block: Block) -> Markup:
        """A Text (or plain cell) in lang (in the source language where lang has none): placeholders
        resolved, **bold** marked. The typesetting is done on the whole document (typeset_html.py): display
        text breaks at phrases, body text not."""
        written = lang
        if isinstance(value, Text) and not value.has(lang):
            written = self.game.source_language  # a missing translation prints the source text
            self.fallbacks.setdefault(lang, {})[f"rules[{block.id}].{key}"] = value
        source = value.get(written, self.game.source_language) if isinstance(value, Text) else str(value)
        try:
            resolved = resolve(source, self.data, written)
        except PlaceholderError as error:
            line = (value.line_of(lang) if isinstance(value, Text) else None) or block.line
            self.problems.append(Problem(block.file, line, str(error), f"blocks[{block.id}].{key}.{written}"))
            resolved = source
        html = STRONG.sub(r"<strong>\1</strong>", str(escape(resolved)))
        if written != lang:
            html = f'<span lang="{written}" class="fallback">{html}</span>'
        return Markup(html)

    def word(self, key: str, lang: str, **values) -> str:
        """One of the words pnpgen prints (Contents, Example...): the game's label when it has one, in lang
        or else in the source language (noted like any missing translation); else pnpgen's own."""
        text = self.game.labels.get(GAME_LABEL[key])
        if text is None:
            words = labels(lang) if not key.startswith("components_") else component_headings(lang)
            word = words[key.removeprefix("components_")]
        else:
            if not text.has(lang):
                self.fallbacks.setdefault(lang, {})[f"labels[{GAME_LABEL[key]}].text"] = text
            word = text.get(lang, self.game.source_language)
        for name, value in values.items():
            word = word.replace("{" + name + "}", str(value))
        return word

    def note_missing(self, text: Text | None, lang: str, string_id: str) -> None:
        """A text of the game printed here (title, box contents) in the source language for want of lang."""
        if text is not None and text.values and not text.has(lang):
            self.fallbacks.setdefault(lang, {})[string_id] = text

    def check(self) -> None:
        """Resolve every text of every block in every language; raise the located problems found."""
        for lang in self.game.languages:
            for block in self.rulebook.blocks:
                self.block_html(block, lang)
        if self.problems:
            problems, self.problems = self.problems, []
            raise InputError(unique_problems(problems))

    # --- blocks ---------------------------------------------------------------------------------

    def block_html(self, block: Block, lang: str) -> str:
        """One block in one language. Headings and table cells (narrow) break Japanese at phrases;
        running text breaks anywhere Pango's kinsoku allows, as Japanese body text should."""
        def t(value, key="text"):
            return self.text(value, lang, key, block)

        kind = block.type
        if kind == "heading":
            tag = f"h{block.level + 1}"
            return f'<{tag} class="heading level{block.level}" {DISPLAY}>{t(block.text)}</{tag}>'
        if kind == "paragraph":
            return f"<p>{t(block.text)}</p>"
        if kind in ("list", "steps"):
            tag = "ol" if kind == "steps" else "ul"
            items = "".join(f"<li>{t(item, f'items[{i}]')}</li>" for i, item in enumerate(block.items))
            return f"<{tag}>{items}</{tag}>"
        if kind in ("example", "note"):
            return (f'<div class="{kind}"><span class="label">{escape(self.word(kind, lang))}</span>'
                    f"{t(block.text)}</div>")
        if kind == "table":
            head = [t(cell, f"head[{i}]") for i, cell in enumerate(block.head)]
            rows = [[t(cell, f"rows[{r}][{c}]") for c, cell in enumerate(row)]
                    for r, row in enumerate(block.rows)]
            return self.caption(block, lang, t) + table_html(head, rows)
        if kind == "figure":
            src = (block.file.parent / block.src)
            if not src.is_file():
                self.problems.append(Problem(block.file, block.line, f"figure '{block.src}' not found beside "
                                             f"{block.file.name}", f"blocks[{block.id}].src"))
            elif why := image_problem(src):
                self.problems.append(Problem(block.file, block.line, f"figure '{block.src}' {why}",
                                             f"blocks[{block.id}].src",
                                             hint="replace the file with a working PNG, JPEG or SVG"))
            caption = f"<figcaption {DISPLAY}>{t(block.text)}</figcaption>" if block.text else ""
            digest = hashlib.sha256(src.read_bytes()).hexdigest()[:16] if src.is_file() else ""
            # the digest puts the image's content into the HTML, which is what the PDF cache keys on
            return (f'<figure><img src="{src.resolve().as_uri()}" alt="" data-digest="{digest}">'
                    f"{caption}</figure>")
        if kind == "card":
            return self.card_html(block, lang, t)
        if kind == "components":
            return self.caption(block, lang, t) + self.components_html(lang)
        if kind == "players":
            return self.caption(block, lang, t) + self.players_html(block, lang)
        raise ValueError(kind)

    def card_html(self, block: Block, lang: str, t) -> str:
        """Real card faces (one, or a pile drawn from the first up) with numbered callouts on the first."""
        deck = self.game.decks.get(block.deck)
        if deck is None:
            self.problems.append(Problem(block.file, block.line, f"unknown deck '{block.deck}'",
                                         f"blocks[{block.id}].deck", hint="one of " + ", ".join(self.game.decks)))
            return ""
        known = {card.id for card in deck.cards}
        unknown = [card_id for card_id in block.cards if card_id not in known]
        if unknown:
            self.problems.append(Problem(block.file, block.line, f"no card '{unknown[0]}' in deck '{deck.id}'",
                                         f"blocks[{block.id}].cards"))
            return ""
        if not self.draw_cards:
            return ""  # checking only: the faces are rendered when the sheet is written
        key = (lang, deck.id, tuple(block.cards))
        if key not in self.card_images:
            self.card_images[key] = face_images(self.game, lang, deck.id, block.cards)
        scale = block.width / deck.size_mm[0]
        width, height = block.width, deck.size_mm[1] * scale
        places = [(i * block.offset[0], i * block.offset[1]) for i in range(len(block.cards))]
        left, top = min(x for x, _ in places), min(y for _, y in places)
        images = "".join(f'<img src="{url}" alt="" style="left:{x - left:.2f}mm;top:{y - top:.2f}mm;width:{width:.2f}mm">'
                         for url, (x, y) in zip(self.card_images[key], places))
        x0, y0 = places[0][0] - left, places[0][1] - top
        marks = "".join(f'<span class="callout" style="left:{x0 + x * scale:.2f}mm;top:{y0 + y * scale:.2f}mm">'
                        f"{index + 1}</span>" for index, (x, y) in enumerate(block.callouts))
        box_w = width + max(x for x, _ in places) - left
        box_h = height + max(y for _, y in places) - top
        caption = f"<figcaption {DISPLAY}>{t(block.text)}</figcaption>" if block.text else ""
        return (f'<figure class="cards"><div class="pile" style="width:{box_w:.2f}mm;height:{box_h:.2f}mm">'
                f"{images}{marks}</div>{caption}</figure>")

    @staticmethod
    def caption(block: Block, lang: str, t) -> str:
        return f'<p class="caption" {DISPLAY}>{t(block.text)}</p>' if block.text else ""

    def components_html(self, lang: str) -> str:
        """The box contents: the same rows `pnpgen components` prints."""
        for component in self.game.components:
            self.note_missing(component.name, lang, f"components[{component.id}].name")
            self.note_missing(component.note, lang, f"components[{component.id}].note")
        rows = component_rows(self.game, lang)
        head = [escape(self.word(f"components_{key}", lang)) for key in ("name", "count", "note")]
        return table_html(head,
                          [[escape(row["name"]), escape(str(row["count"])), escape(row["note"] or "")]
                           for row in rows], css="components", ids=[row["id"] for row in rows])

    def players_html(self, block: Block, lang: str) -> str:
        """One row per player count; each column an expression evaluated at that count."""
        head = [escape(self.word("players", lang))] + [
            self.text(c["head"], lang, f"columns[{i}].head", block)
            for i, c in enumerate(block.columns)]
        rows = []
        low, high = self.game.players
        for players in range(low, high + 1):
            cells = [escape(str(players))]
            for index, column in enumerate(block.columns):
                try:
                    cells.append(escape(resolve_one(column["value"], self.data, lang, players)))
                except PlaceholderError as error:
                    self.problems.append(Problem(block.file, block.line, f"`{column['value']}`: {error}",
                                                 f"blocks[{block.id}].columns[{index}].value"))
                    cells.append("?")
            rows.append(cells)
        return table_html(head, rows, css="players numeric")

    # --- documents ------------------------------------------------------------------------------

    def html(self, langs: tuple[str, ...], paper: str, cover: bool = True) -> str:
        """The edition as HTML: with a cover and a contents page, or (short rules) a title above the text."""
        pair = len(langs) > 1
        body = [self.title_page(langs), self.contents(langs)] if cover else [self.title_head(langs)]
        if pair:
            rows = "".join(self.pair_row(block, langs) for block in self.rulebook.blocks)
            body.append(f'<table class="pair"><colgroup><col><col></colgroup><tbody>{rows}</tbody></table>')
        else:
            blocks = "".join(self.single_block(block, langs[0]) for block in self.rulebook.blocks)
            body.append(f'<main class="columns">{blocks}</main>')
        if self.problems:
            problems, self.problems = self.problems, []
            raise InputError(unique_problems(problems))
        title = " / ".join(dict.fromkeys(spaced_plain(self.game.title.get(lang, self.game.source_language), lang)
                                         for lang in langs))
        css = fonts.for_languages((TEMPLATES_DIR / "base" / "rules.css").read_text(encoding="utf-8"), langs[0],
                                  [*langs, self.game.source_language])
        page = (f"@page {{ size: {PAGE_SIZES[paper]}; }}\n"
                f'@page :left, :right {{ @top-left {{ content: "{_css_string(title)}"; }} }}\n')
        document = (f'<!doctype html><html lang="{langs[0]}" class="{"pair" if pair else "single"}" '
                    f'data-safe="{PRINTER_MARGIN_MM:g}" {LAST_PAGE_MIN}><head>'
                    f'<meta charset="utf-8"><title>{escape(title)}</title>'
                    f"<style>\n{fonts.font_face_css()}{typeset_html.stylesheet()}{css}\n{page}</style></head>"
                    "<body>\n" + "\n".join(body) + "\n</body></html>")
        # Running text breaks anywhere kinsoku allows; headings, captions, cells and the cover at phrases.
        return typeset_html.typeset_page(document, langs[0], phrases=False)

    def chapter(self, block: Block, langs: tuple[str, ...]) -> str:
        if block.type != "heading" or block.level != 1:
            return ""
        name = " / ".join(spaced_plain(_plain_text(self.text(block.text, lang, "text", block)), lang)
                          for lang in langs)
        return f' data-chapter="{escape(name)}"'

    def single_block(self, block: Block, lang: str) -> str:
        return (f'<div class="block {block.type}" id="b-{block.id}"{self.chapter(block, (lang,))}>'
                f"{self.block_html(block, lang)}</div>")

    def pair_row(self, block: Block, langs: tuple[str, ...]) -> str:
        cells = "".join(f'<td lang="{lang}"><div class="block {block.type}" id="{lang}-{block.id}">'
                        f"{self.block_html(block, lang)}</div></td>" for lang in langs)
        return f'<tr class="{block.type}" id="b-{block.id}"{self.chapter(block, langs)}>{cells}</tr>'

    def title(self, lang: str) -> str:
        self.note_missing(self.game.title, lang, "title")
        written = lang if self.game.title.has(lang) else self.game.source_language
        html = escape(self.game.title.get(written))
        return html if written == lang else f'<span lang="{written}">{html}</span>'

    def title_page(self, langs: tuple[str, ...]) -> str:
        low, high = self.game.players
        parts = []
        for lang in langs:
            parts.append(f'<div class="title-block" lang="{lang}">'
                         f'<h1 class="title" {DISPLAY}>{self.title(lang)}</h1>'
                         f'<p class="subtitle">{escape(self.word("rules", lang))}</p>'
                         f'<p class="players" {DISPLAY}>{escape(self.word("players_range", lang, low=low, high=high))}'
                         f"</p></div>")
        return f'<section class="title-page">{"".join(parts)}</section>'

    def title_head(self, langs: tuple[str, ...]) -> str:
        """The title, 'Rules' and the player count above the first page's text, for rules too short for a cover."""
        low, high = self.game.players
        parts = "".join(
            f'<div class="title-block" lang="{lang}" {DISPLAY}><h1 class="title">{escape(self.game.title.get(lang))}</h1>'
            f'<p class="subtitle">{escape(labels(lang)["rules"])}<span class="players">'
            f'{escape(labels(lang)["players_range"].format(low=low, high=high))}</span></p></div>' for lang in langs)
        return f'<header class="title-head">{parts}</header>'

    def contents(self, langs: tuple[str, ...]) -> str:
        entries = []
        for block in self.rulebook.headings(max_level=2):
            names = "".join(f'<span class="toc-name" lang="{lang}">'
                            f"{self.text(block.text, lang, 'text', block)}</span>" for lang in langs)
            entries.append(f'<li class="level{block.level}"><a href="#b-{block.id}">{names}</a></li>')
        heading = " / ".join(self.word("contents", lang) for lang in langs)
        return f'<nav class="toc" {DISPLAY}><h2 class="toc-title">{escape(heading)}</h2><ul>{"".join(entries)}</ul></nav>'

    def batch(self, langs: tuple[str, ...], paper: str, cover: bool = True) -> Batch:
        """The edition as one WeasyPrint document, keyed by its content like a batch of card faces."""
        self.draw_cards = True
        return Batch(self.html(langs, paper, cover), self.game.dir.resolve().as_uri() + "/")


def editions(game: Game, langs: list[str]) -> list[tuple[str, ...]]:
    """Each language alone, then two side by side (in the game's language order): the two when there are
    two; with more, the source language beside each translation (four columns would not fit a page)."""
    ordered = tuple(lang for lang in game.languages if lang in langs)
    singles = [(lang,) for lang in ordered]
    if len(ordered) <= 2 or game.source_language not in ordered:
        return singles + ([ordered] if len(ordered) == 2 else [])
    pairs = [tuple(lang for lang in ordered if lang in (game.source_language, other))
             for other in ordered if other != game.source_language]
    return singles + pairs


def render_editions(writer: RulebookWriter, wanted: list, cache: FaceCache, jobs: int) -> tuple[list, list[bytes]]:
    """Each edition's batch and PDF. `cover: auto` lays the text out without a cover first; an edition longer
    than COVER_FROM_PAGES is laid out again with a cover and a contents page (both layouts are cached)."""
    choice = writer.rulebook.cover
    first = choice == "always"
    batches = [writer.batch(edition, paper, first) for edition, paper in wanted]
    pdfs = render_batches(batches, cache, jobs)
    if choice != "auto":
        return batches, pdfs
    long = [index for index, data in enumerate(pdfs) if len(pikepdf.open(io.BytesIO(data)).pages) > COVER_FROM_PAGES]
    covering = [writer.batch(*wanted[index], True) for index in long]
    for index, batch, data in zip(long, covering, render_batches(covering, cache, jobs)):
        batches[index], pdfs[index] = batch, data
    return batches, pdfs


def check_rules(game: Game) -> None:
    """Raise the located problems of the game's rules.yaml, if it has one."""
    if has_rules(game):
        RulebookWriter(game, load_rules(game)).check()


def table_html(head: list, rows: list[list], css: str = "data", ids: list[str] | None = None) -> str:
    head_html = "".join(f"<th>{cell}</th>" for cell in head)
    body = "".join(
        f'<tr{f" data-id={chr(34)}{ids[i]}{chr(34)}" if ids else ""}>' + "".join(f"<td>{c}</td>" for c in row)
        + "</tr>" for i, row in enumerate(rows))
    # the box contents' notes are running text in a narrow column: they break anywhere kinsoku allows
    breaks = 'data-typeset="no-phrases"' if css == "components" else DISPLAY
    return f'<table class="{css}" {breaks}><thead><tr>{head_html}</tr></thead><tbody>{body}</tbody></table>'


def _plain_text(html: str) -> str:
    """Visible text of typeset HTML (furigana readings dropped), for running headers."""
    html = re.sub(r'<span class="rt">.*?</span>', "", str(html))
    return re.sub(r"<[^>]+>", "", html).replace("&amp;", "&").replace("&#39;", "'").replace("&quot;", '"')


def _css_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')

