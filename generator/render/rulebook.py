"""Rule sheets as PDFs: one language, or two side by side with every block's twins starting level.

Each edition is one WeasyPrint document: a title page, a table of contents (target-counter), the
blocks, a running header (@page margin boxes with the chapter's string) and page numbers. Side by side
is a table with one row per block, a column per language: a row starts both twins at the same height
and WeasyPrint breaks a long row across pages with its twin.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from concurrent.futures import Executor
from typing import cast

import pikepdf
from markupsafe import Markup, escape

from generator.render.components import component_rows, component_words, headings as component_headings, shown_count
from generator.render.game_words import GameWords, WordSet
from generator.render.images import image_problem
from generator.model.placeholders import DataNames, PlaceholderError, resolve, resolve_one
from generator.errors import InputError, Problem, unique_problems
from generator.model.game import Game, Text
from generator.model.rules import COVER_FROM_PAGES, Block, Rulebook, has_rules, load_rules, rules_path
from generator.paths import TEMPLATES_DIR
from generator.render import fonts, typeset_html
from generator.render.callouts import CALLOUT_MM, place_callouts
from generator.render.cardimage import FaceImage, face_images
from generator.render.batches import Batch, renderer_fingerprint
from generator.render.memo import FaceMemo, context_key, folder_fingerprint
from generator.fsutil import read_sealed_entry, write_sealed_entry
from generator.render.pipeline import FaceCache, rendered_in_order
from generator.render.prototype import WORDS as PROTOTYPE_WORDS, prototype_blocks
from generator.render.templating import Templates
from generator.render.titles import file_title
from generator.render.typeset import metadata_text, plain, spaced_plain

PAGE_SIZES = {"a4": "A4", "letter": "letter"}
LABELS = {
    "ja": {
        "rules": "ルール",
        "contents": "目次",
        "example": "例",
        "note": "注意",
        "players": "人数",
        "players_range": "{low}〜{high}人用",
        "play_time": "{low}〜{high}分",
        "play_time_one": "{low}分",
        "age": "{age}歳以上",
        "facts_separator": "\u3000",
    },
    "en": {
        "rules": "Rules",
        "contents": "Contents",
        "example": "Example",
        "note": "Note",
        "players": "Players",
        "players_range": "For {low}–{high} players",
        "play_time": "{low}–{high} minutes",
        "play_time_one": "{low} minutes",
        "age": "Ages {age}+",
        "facts_separator": " · ",
    },
}
for _lang, _words in PROTOTYPE_WORDS.items():
    LABELS[_lang].update(_words)
PRINTER_MARGIN_MM = 4.0  # a home printer prints nothing in the outer 4-5 mm of the paper
LAST_PAGE_MIN = "0.3"  # a last page with under 30% of a page's lines is pulled back (render/weasy/lastpage.py)
DOCUMENT_TEMPLATE, BLOCKS_TEMPLATE = "base/rules.html", "base/rule-blocks.html"
STRONG = re.compile(r"\*\*(.+?)\*\*")


# The words pnpgen itself prints on a rule sheet; a game's labels.yaml may hold them as `rules_<key>` (and
# `components_<key>` for the box contents table), which makes them translation strings like any other.
GAME_LABEL = {
    **{key: f"rules_{key}" for key in LABELS["en"]},
    **{f"components_{key}": f"components_{key}" for key in ("name", "count", "note", "not_printed")},
}


# pnpgen's own words of a rule sheet by language, under the keys GAME_LABEL names them by
RULE_WORDS = {
    lang: {
        key: word
        for key, word in {**words, **{f"components_{k}": w for k, w in component_headings(lang).items()}}.items()
        if key in GAME_LABEL
    }
    for lang, words in LABELS.items()
}


def rule_keys(game: Game) -> list[str]:
    """The words the game's rule sheet prints: its title's and facts', the labels of the blocks it has, and the
    prototype note's as the note is made (none without rules.yaml; a rules.yaml that does not load: the title's)."""
    if not has_rules(game):
        return []
    try:
        rulebook = load_rules(game)
    except InputError:
        rulebook = Rulebook(rules_path(game), [])
    types = {block.type for block in rulebook.blocks}
    printed = {"rules", "players_range", "facts_separator"}
    if game.play_time:
        printed.add("play_time_one" if game.play_time[0] == game.play_time[1] else "play_time")
    if game.age:
        printed.add("age")
    if rulebook.headings() and rulebook.cover != "never":
        printed.add("contents")
    printed |= types & {"example", "note", "players"}
    if "components" in types:
        printed |= {"components_name", "components_count", "components_note"}
        if any(not component.printed for component in game.components):
            printed.add("components_not_printed")

    def recorded(key: str, lang: str, **values: object) -> str:
        printed.add(key)
        return RULE_WORDS["en"].get(key, key)

    prototype_blocks(game, rulebook.file, recorded)
    return [key for key in GAME_LABEL if key in printed]


RULE_WORD_SET = WordSet("the rule sheet", RULE_WORDS, GAME_LABEL.__getitem__, rule_keys)


def rule_words(game: Game, fallbacks: dict | None = None) -> GameWords:
    """The words pnpgen prints on the game's rule sheet (render/game_words.py)."""
    return RULE_WORD_SET.words(game, fallbacks)


def edition_name(langs: tuple[str, ...]) -> str:
    return "+".join(langs)


class RulebookWriter:
    """Resolves every placeholder of a rulebook once, then writes its editions as HTML and PDF."""

    def __init__(self, game: Game, rulebook: Rulebook):
        self.game = game
        self.rulebook = rulebook
        self.data = DataNames.of(game)
        self.problems: list[Problem] = []
        self.draw_cards = False  # card blocks render faces only when a sheet is written, not to check
        self.card_images: dict[tuple, list[FaceImage]] = {}
        self.image_cache: Path | None = None  # where pictured cards are kept between builds (cardimage.py)
        self.pool: Executor | None = None  # lay out on this executor rather than the command's render pool
        self.fallbacks: dict[str, dict[str, Text]] = {}  # language -> string id -> Text printed in the source
        self._templates: dict[str, Templates] = {}
        self._words: GameWords | None = None
        self.blocks = with_prototype(rulebook.blocks, prototype_blocks(game, rulebook.file, self.word))

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
            resolved = source if block.generated else resolve(source, self.data, written)
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
        if self._words is None:  # the keys printed come from rules.yaml: read once per writer, not per word
            self._words = rule_words(self.game, self.fallbacks)
        self._words.fallbacks = self.fallbacks  # the writer sets its fallbacks apart while it lays out a cover
        return self._words.word(key, lang, **values)

    def add_fallbacks(self, found: dict) -> None:
        for lang, printed in found.items():
            self.fallbacks.setdefault(lang, {}).update(printed)

    def note_missing(self, text: Text | None, lang: str, string_id: str) -> None:
        """A text of the game printed here (title, box contents) in the source language for want of lang."""
        if text is not None and text.values and not text.has(lang):
            self.fallbacks.setdefault(lang, {})[string_id] = text

    def check(self) -> None:
        """Resolve every text of every block in every language; raise the located problems found."""
        for lang in self.game.languages:
            for block in self.blocks:
                self.block_view(block, lang)
        if self.problems:
            problems, self.problems = self.problems, []
            raise InputError(unique_problems(problems))

    # --- blocks ---------------------------------------------------------------------------------
    # Each block becomes a view: its texts resolved (Markup), its numbers computed; templates/base/
    # rule-blocks.html draws it and templates/base/rules.html the whole edition.

    def templates(self, lang: str) -> Templates:
        if lang not in self._templates:
            self._templates[lang] = Templates.of_game(self.game, lang, self.data)
        return self._templates[lang]

    def block_html(self, block: Block, lang: str) -> str:
        """One block in one language, as HTML (not yet typeset)."""
        macros = self.templates(lang).env.get_template(BLOCKS_TEMPLATE).module
        return str(macros.block(self.block_view(block, lang)))  # type: ignore[attr-defined]  # the template's macro, made at runtime

    def block_view(self, block: Block, lang: str) -> dict:
        """What the template draws of one block in one language; the problems found are noted."""

        def t(value, key="text"):
            return self.text(value, lang, key, block)

        kind = block.type
        view: dict = {"type": kind}
        if kind in ("heading", "paragraph"):
            view.update(level=block.level, text=t(block.text))
        elif kind in ("list", "steps"):
            view["items"] = [t(item, f"items[{i}]") for i, item in enumerate(block.items)]
        elif kind in ("example", "note"):
            view.update(label=self.word(kind, lang), text=t(block.text))
        elif kind == "table":
            head = [t(cell, f"head[{i}]") for i, cell in enumerate(block.head)]
            rows = [[t(cell, f"rows[{r}][{c}]") for c, cell in enumerate(row)] for r, row in enumerate(block.rows)]
            view.update(caption=self.caption(block, t), table=table_view(head, rows))
        elif kind == "figure":
            view.update(self.figure_view(block, t))
        elif kind == "card":
            view.update(pile=self.pile_view(block, lang), caption=self.caption(block, t))
        elif kind == "components":
            view.update(caption=self.caption(block, t), table=self.components_view(lang))
        elif kind == "players":
            view.update(caption=self.caption(block, t), table=self.players_view(block, lang))
        else:
            raise ValueError(kind)
        return view

    def figure_view(self, block: Block, t) -> dict:
        assert block.src is not None, "rules.yaml's schema requires src on a figure"
        src = block.file.parent / block.src
        if not src.is_file():
            self.problems.append(
                Problem(
                    block.file,
                    block.line,
                    f"figure '{block.src}' not found beside {block.file.name}",
                    f"blocks[{block.id}].src",
                )
            )
        elif why := image_problem(src):
            self.problems.append(
                Problem(
                    block.file,
                    block.line,
                    f"figure '{block.src}' {why}",
                    f"blocks[{block.id}].src",
                    hint="replace the file with a working PNG, JPEG or SVG",
                )
            )
        caption = self.caption(block, t)
        # the digest puts the image's content into the HTML, which is what the PDF cache keys on
        digest = hashlib.sha256(src.read_bytes()).hexdigest()[:16] if src.is_file() else ""
        # a tagged PDF's figure is read by its alternate text: the caption's words, else the image's name
        alt = plain(_plain_text(caption)) if caption else Path(block.src).stem
        return {"src": src.resolve().as_uri(), "digest": digest, "caption": caption, "alt": alt}

    def pile_view(self, block: Block, lang: str) -> dict | None:
        """Real card faces (one, or a pile drawn from the first up) with numbered callouts on the first."""
        deck = self.game.decks.get(block.deck) if block.deck else None
        if deck is None:
            what = f"unknown deck '{block.deck}'" if block.deck else "a card block needs `deck:`"
            self.problems.append(
                Problem(
                    block.file,
                    block.line,
                    what,
                    f"blocks[{block.id}].deck",
                    hint="one of " + ", ".join(self.game.decks),
                )
            )
            return None
        known = {card.id for card in deck.cards}
        unknown = [card_id for card_id in block.cards if card_id not in known]
        if unknown:
            self.problems.append(
                Problem(
                    block.file, block.line, f"no card '{unknown[0]}' in deck '{deck.id}'", f"blocks[{block.id}].cards"
                )
            )
            return None
        if not self.draw_cards:
            return None  # checking only: the faces are rendered when the sheet is written
        key = (lang, deck.id, tuple(block.cards))
        if key not in self.card_images:
            self.card_images[key] = face_images(self.game, lang, deck.id, block.cards, self.image_cache)
        scale = block.width / deck.size_mm[0]
        width, height = block.width, deck.size_mm[1] * scale
        if block.per_row:  # edge to edge: cards that join
            places = [((i % block.per_row) * width, (i // block.per_row) * height) for i in range(len(block.cards))]
        else:
            places = [(i * block.offset[0], i * block.offset[1]) for i in range(len(block.cards))]
        left, top = min(x for x, _ in places), min(y for _, y in places)
        x0, y0 = places[0][0] - left, places[0][1] - top
        names = {card.id: card.name for card in deck.cards}
        alts = [names[card_id].get(lang, self.game.source_language) for card_id in block.cards]
        if block.text:  # the pile is read as its caption says, each card below it by its name
            alts[0] = _plain_text(self.text(block.text, lang, "text", block))
        faces = self.card_images[key]
        texts = [(a * scale, b * scale, c * scale, d * scale) for a, b, c, d in faces[0].texts]  # the first card's
        callouts = place_callouts([(x * scale, y * scale) for x, y in block.callouts], texts, (width, height))
        cards_w, cards_h = width + max(x for x, _ in places) - left, height + max(y for _, y in places) - top
        # the pile's box holds its callouts too (so that none overlaps the text around the figure), the cards
        # kept in the middle across
        radius = CALLOUT_MM / 2
        side = max([0.0] + [max(radius - (x0 + x), x0 + x + radius - cards_w) for x, _ in callouts])
        above = max([0.0] + [radius - (y0 + y) for _, y in callouts])
        below = max([0.0] + [y0 + y + radius - cards_h for _, y in callouts])
        cards = [
            {"src": face.url, "x": x - left + side, "y": y - top + above, "alt": plain(alt)}
            for face, (x, y), alt in zip(faces, places, alts)
        ]
        return {
            "width": cards_w + 2 * side,
            "height": cards_h + above + below,
            "card_width": width,
            "joined": bool(block.per_row),
            "cards": cards,
            "callouts": [{"x": side + x0 + x, "y": above + y0 + y} for x, y in callouts],
        }

    @staticmethod
    def caption(block: Block, t) -> Markup | None:
        return t(block.text) if block.text else None

    def components_view(self, lang: str) -> dict:
        """The box contents: the same rows `pnpgen components` prints."""
        for component in self.game.components:
            self.note_missing(component.name, lang, f"components[{component.id}].name")
            self.note_missing(component.note, lang, f"components[{component.id}].note")
        rows = component_rows(self.game, lang)
        words = component_words(self.game, lang)
        head = [self.word(f"components_{key}", lang) for key in ("name", "count", "note")]
        return table_view(
            head,
            [[row["name"], shown_count(row, words), row["note"] or ""] for row in rows],
            css="components",
            ids=[row["id"] for row in rows],
        )

    def players_view(self, block: Block, lang: str) -> dict:
        """One row per player count; each column an expression evaluated at that count."""
        head = [self.word("players", lang)] + [
            self.text(c["head"], lang, f"columns[{i}].head", block) for i, c in enumerate(block.columns)
        ]
        rows = []
        low, high = self.game.players
        for players in range(low, high + 1):
            cells = [str(players)]
            for index, column in enumerate(block.columns):
                try:
                    cells.append(resolve_one(column["value"], self.data, lang, players))
                except PlaceholderError as error:
                    self.problems.append(
                        Problem(
                            block.file,
                            block.line,
                            f"`{column['value']}`: {error}",
                            f"blocks[{block.id}].columns[{index}].value",
                        )
                    )
                    cells.append("?")
            rows.append(cells)
        return table_view(head, rows, css="players numeric")

    # --- documents ------------------------------------------------------------------------------

    def html(self, langs: tuple[str, ...], paper: str, cover: bool = True, only: str | None = None) -> str:
        """The edition as HTML: with a cover and a contents page, or (short rules) a title above the text; `only`:
        that block alone, in its column (no title, no cover)."""
        fragment = only is not None
        cover = cover and not fragment
        context: dict = {"langs": langs, "pair": len(langs) > 1, "cover": cover, "fragment": fragment}
        if cover:
            context.update(cover_titles=self.cover_titles(langs), toc=self.contents(langs))
        else:
            context["head_titles"] = self.head_titles(langs)
        context["rows"] = [
            {
                "type": block.type,
                "id": block.id,
                "chapter": self.chapter(block, langs),
                "views": [(lang, self.block_view(block, lang)) for lang in langs],
            }
            for block in self.blocks
            if only is None or block.id == only
        ]
        if self.problems:
            problems, self.problems = self.problems, []
            raise InputError(unique_problems(problems))
        titles = [self.game.title.get(lang, self.game.source_language) for lang in langs]
        title = " / ".join(dict.fromkeys(metadata_text(text, lang) for text, lang in zip(titles, langs)))
        running_title = " / ".join(dict.fromkeys(spaced_plain(text, lang) for text, lang in zip(titles, langs)))
        css = fonts.for_languages(
            (TEMPLATES_DIR / "base" / "rules.css").read_text(encoding="utf-8"),
            langs[0],
            [*langs, self.game.source_language],
        )
        context.update(
            title=title,
            document_title=file_title(self.game, "rules", langs, paper),
            running_title=Markup(_css_string(running_title)),
            page_size=PAGE_SIZES[paper],
            safe_mm=PRINTER_MARGIN_MM,
            last_page_min=LAST_PAGE_MIN,
            styles=Markup(f"{fonts.font_face_css()}{typeset_html.stylesheet()}{css}"),
        )
        # Running text breaks anywhere kinsoku allows; headings, captions, cells and the cover at phrases.
        return self.templates(langs[0]).render(
            DOCUMENT_TEMPLATE, context, f"the rules ({edition_name(langs)})", phrases=False
        )

    def chapter(self, block: Block, langs: tuple[str, ...]) -> str | None:
        """The running header's text for a chapter heading (both languages in a pair)."""
        if block.type != "heading" or block.level != 1:
            return None
        return " / ".join(spaced_plain(_plain_text(self.text(block.text, lang, "text", block)), lang) for lang in langs)

    def cover_titles(self, langs: tuple[str, ...]) -> list[dict]:
        titles = []
        for lang in langs:
            self.note_missing(self.game.title, lang, "title")
            written = lang if self.game.title.has(lang) else self.game.source_language
            titles.append(
                {
                    "lang": lang,
                    "title": self.game.title.get(written),
                    "written": written if written != lang else None,
                    "rules": self.word("rules", lang),
                    "players": self.facts(lang),
                }
            )
        return titles

    def facts(self, lang: str) -> str:
        """The players, and the play time and age when game.yaml gives them: 「1〜4人用・15〜30分・8歳以上」."""
        low, high = self.game.players
        facts = [self.word("players_range", lang, low=low, high=high)]
        if self.game.play_time:
            shortest, longest = self.game.play_time
            key = "play_time_one" if shortest == longest else "play_time"
            facts.append(self.word(key, lang, low=shortest, high=longest))
        if self.game.age:
            facts.append(self.word("age", lang, age=self.game.age))
        return self.word("facts_separator", lang).join(facts)

    def head_titles(self, langs: tuple[str, ...]) -> list[dict]:
        return [
            {
                "lang": lang,
                "title": self.game.title.get(lang),
                "rules": self.word("rules", lang),
                "players": self.facts(lang),
            }
            for lang in langs
        ]

    def contents(self, langs: tuple[str, ...]) -> dict:
        entries = [
            {
                "level": block.level,
                "id": block.id,
                "names": [(lang, self.text(block.text, lang, "text", block)) for lang in langs],
            }
            for block in self.blocks
            if block.type == "heading" and block.level <= 2
        ]
        return {"heading": " / ".join(self.word("contents", lang) for lang in langs), "entries": entries}

    def batch(self, langs: tuple[str, ...], paper: str, cover: bool = True, only: str | None = None) -> Batch:
        """The edition as one WeasyPrint document, keyed by its content like a batch of card faces; a tagged PDF
        (headings, paragraphs, lists, tables, figures, each element in its language). `only`: one block alone."""
        self.draw_cards = True
        return Batch(
            self.html(langs, paper, cover, only),
            self.game.dir.resolve().as_uri() + "/",
            tagged=True,
            image_dpi=self.game.image_dpi,
        )


def editions(game: Game, langs: list[str]) -> list[tuple[str, ...]]:
    """Each language alone, then two side by side (in the game's language order): the two when there are
    two; with more, the source language beside each translation (four columns would not fit a page)."""
    ordered = tuple(lang for lang in game.languages if lang in langs)
    singles = [(lang,) for lang in ordered]
    if len(ordered) <= 2 or game.source_language not in ordered:
        return singles + ([ordered] if len(ordered) == 2 else [])
    pairs = [
        tuple(lang for lang in ordered if lang in (game.source_language, other))
        for other in ordered
        if other != game.source_language
    ]
    return singles + pairs


def render_editions(
    writer: RulebookWriter,
    wanted: list[tuple[tuple[str, ...], str]],
    cache: FaceCache,
    jobs: int,
    pool: Executor | None = None,
) -> tuple[list[str], list[bytes]]:
    """Each edition's cache key and PDF. `cover: auto` lays the text out without a cover first; an edition
    longer than COVER_FROM_PAGES on any paper is laid out again with a cover and a contents page on every
    paper, so that the A4 and the Letter edition are one edition (both layouts are cached; a paper not asked
    for is laid out too, to decide). An edition the last build gave a cover is laid out with it first: when it
    takes COVER_FROM_PAGES + FAR_OVER pages on every paper, its text alone takes more than COVER_FROM_PAGES
    (the cover and the contents take two pages, the last-page pass saves at most one), so the cover stands
    without the layouts that would decide it. An edition whose inputs are those of the last build and whose PDF
    is cached is not made again (EditionMemo): an edit of one language's text lays out only the editions that
    print it. `pool`: an executor of the caller's own to lay out on (see pipeline.rendered_in_order)."""
    writer.image_cache = cache.directory
    writer.pool = pool
    memo = EditionMemo(cache.directory, writer.game, writer.rulebook)
    choice = writer.rulebook.cover
    if choice != "auto":
        requests = [(*request, choice == "always") for request in wanted]
        keys, pdfs = _render_remembered(writer, requests, cache, jobs, memo)
        memo.save()
        return keys, pdfs
    every = list(dict.fromkeys(langs for langs, _ in wanted))
    laid = _lay_out(
        writer, [(langs, paper, memo.had_cover(langs)) for langs in every for paper in PAGE_SIZES], cache, jobs, memo
    )
    covered = set()
    for langs in every:
        pages = [_pages(laid[langs, paper, memo.had_cover(langs)][1]) for paper in PAGE_SIZES]
        if memo.had_cover(langs) and all(count >= COVER_FROM_PAGES + FAR_OVER for count in pages):
            covered.add(langs)
    alone = [(langs, paper, False) for langs in every if langs not in covered for paper in PAGE_SIZES]
    laid.update(_lay_out(writer, [request for request in alone if request not in laid], cache, jobs, memo))
    covered |= {langs for langs, paper, _ in alone if _pages(laid[langs, paper, False][1]) > COVER_FROM_PAGES}
    chosen = [(langs, paper, langs in covered) for langs, paper in wanted]
    laid.update(_lay_out(writer, [request for request in chosen if request not in laid], cache, jobs, memo))
    for langs in every:
        memo.note_cover(langs, langs in covered)
    memo.save()
    return [laid[request][0] for request in chosen], [laid[request][1] for request in chosen]


FAR_OVER = 4  # pages past COVER_FROM_PAGES with a cover that decide the cover without laying out the text alone


def _lay_out(writer: RulebookWriter, requests: list, cache: FaceCache, jobs: int, memo) -> dict:
    """(langs, paper, cover) -> (key, PDF) of each request, laid out together (on every core)."""
    keys, pdfs = _render_remembered(writer, requests, cache, jobs, memo)
    return {request: (key, data) for request, key, data in zip(requests, keys, pdfs)}


_PAGE_COUNTS: dict[bytes, int] = {}  # a PDF's digest -> its pages: a resident server's rebuilds count them again


def _pages(data: bytes) -> int:
    digest = hashlib.sha256(data).digest()
    if digest not in _PAGE_COUNTS:
        if len(_PAGE_COUNTS) > 4096:
            _PAGE_COUNTS.clear()
        _PAGE_COUNTS[digest] = len(pikepdf.open(io.BytesIO(data)).pages)
    return _PAGE_COUNTS[digest]


def _render_remembered(writer: RulebookWriter, requests: list, cache: FaceCache, jobs: int, memo: EditionMemo):
    """(keys, PDFs) of editions given as (langs, paper, cover): from the memo and the cache, else made. The HTML
    of each edition to lay out is made while the workers lay out the ones before it, and each is laid out with
    what the typesetting passes decided for its blocks last time (BlockMemo)."""
    keys: list[str] = [""] * len(requests)
    pdfs: list[bytes | None] = [None] * len(requests)
    todo: list[int] = []
    for index, (langs, paper, cover) in enumerate(requests):
        known = memo.get(memo.inputs(langs, paper, cover))
        data = cache.get(known[0]) if known is not None and cache.find_face(known[0]) else None
        if known is not None and data is not None:
            cache.hits += 1
            writer.add_fallbacks(known[1])
            keys[index], pdfs[index] = known[0], data
        else:
            todo.append(index)
    blocks = BlockMemo(cache.directory, writer.game)
    places: dict[int, int] = {}  # id of a batch -> its request

    def batches():
        for index in todo:
            langs, paper, cover = requests[index]
            before, writer.fallbacks = writer.fallbacks, {}
            batch = writer.batch(langs, paper, cover)
            found, writer.fallbacks = writer.fallbacks, before
            writer.add_fallbacks(found)
            memo.put(memo.inputs(langs, paper, cover), batch.key, found, langs)
            keys[index] = batch.key
            if cache.find_face(batch.key) and (data := cache.get(batch.key)) is not None:
                cache.hits += 1
                pdfs[index] = data
                continue
            batch.decided = blocks.load(langs, paper, cover)
            places[id(batch)] = index
            yield batch

    for batch, rendered in rendered_in_order(batches(), jobs, len(todo), pool=writer.pool):
        index = places[id(batch)]
        cache.misses += 1
        cache.put(batch.key, rendered.pdf)
        cache.record_faces(batch.key, [batch.key], [rendered.fits])
        if rendered.decided is not None:
            langs, paper, cover = requests[index]
            blocks.save(langs, paper, cover, rendered.decided)
        pdfs[index] = rendered.pdf
    return keys, cast(list[bytes], pdfs)  # each is from the cache or rendered above


class BlockMemo:
    """What the typesetting passes decided for each block of an edition in its last layout (the block's markup
    after them, by a key of what the block and the document around it are: render/weasy/decisions.py), one
    sealed JSON entry per edition, paper and cover in the cache folder."""

    def __init__(self, directory: Path | None, game: Game):
        self.directory, self.game = directory, game

    def _path(self, langs: tuple[str, ...], paper: str, cover: bool) -> Path:
        assert self.directory is not None
        name = hashlib.sha256(f"{self.game.dir}\0{'+'.join(langs)}\0{paper}\0{cover}".encode()).hexdigest()[:24]
        return self.directory / "rules-blocks" / f"{name}.json"

    def load(self, langs: tuple[str, ...], paper: str, cover: bool) -> dict[str, str]:
        """The decisions of the edition's last layout, and of its layout with the other choice of cover: a block
        keyed alike in both (the same markup, place and document head) is set alike, so that the edition `cover:
        auto` lays out without a cover to decide, then with one, goes through the passes once."""
        return {**self._load(langs, paper, not cover), **self._load(langs, paper, cover)}

    def _load(self, langs: tuple[str, ...], paper: str, cover: bool) -> dict[str, str]:
        if self.directory is None:
            return {}
        sealed = read_sealed_entry(self._path(langs, paper, cover))
        if sealed is None:
            return {}
        try:
            stored = json.loads(bytes(sealed))
        except ValueError:
            return {}
        if not isinstance(stored, dict) or stored.get("version") != BLOCK_MEMO_VERSION:
            return {}
        blocks = stored.get("blocks")
        if not isinstance(blocks, dict) or not all(isinstance(v, str) for v in blocks.values()):
            return {}
        return blocks

    def save(self, langs: tuple[str, ...], paper: str, cover: bool, blocks: dict[str, str]) -> None:
        if self.directory is not None:
            data = json.dumps({"version": BLOCK_MEMO_VERSION, "blocks": blocks}, ensure_ascii=False)
            write_sealed_entry(self._path(langs, paper, cover), data.encode())


BLOCK_MEMO_VERSION = "1"


class EditionMemo:
    """What each edition's HTML came out as in the last build: its cache key and the texts it printed in the
    source language, by a hash of all it is made from (every file of the game but rules.yaml and of its template
    folders, the rules as the edition prints them (edition_text), pnpgen's code, the renderer and fonts, the
    folder its pictured cards are kept in, the languages, paper and cover), and whether each edition took a
    cover. Making a rule sheet's HTML (its pictured cards, the typesetting of every block) was a third of a build
    of the kits with nothing changed."""

    def __init__(self, directory: Path | None, game: Game, rulebook: Rulebook):
        self.game, self.directory, self.rulebook = game, directory, rulebook
        self.store = FaceMemo(directory)  # stored as a deck's memo is, under a name no deck's has (no language)
        self.known = self.store.load(game.dir, "rules", "")
        self.kept: dict[str, list] = {}
        self._start: str | None = None
        self._texts: dict[tuple[str, ...], str] = {}

    def inputs(self, langs: tuple[str, ...], paper: str, cover: bool) -> str:
        if self._start is None:
            game_files = folder_fingerprint(Path(self.game.dir), leave_out=(self.rulebook.file.name,))
            self._start = context_key(self.game.dir, [renderer_fingerprint(), "rules", game_files, str(self.directory)])
        if langs not in self._texts:
            self._texts[langs] = edition_text(self.rulebook, langs, self.game.source_language)
        text = self._texts[langs]
        return hashlib.sha256(f"{self._start}\0{text}\0{'+'.join(langs)}\0{paper}\0{cover}".encode()).hexdigest()

    def had_cover(self, langs: tuple[str, ...]) -> bool:
        return self.known.get(f"cover:{'+'.join(langs)}") == [True, "+".join(langs)]

    def note_cover(self, langs: tuple[str, ...], cover: bool) -> None:
        self.kept[f"cover:{'+'.join(langs)}"] = [cover, "+".join(langs)]

    def get(self, inputs: str) -> tuple[str, dict] | None:
        entry = self.kept.get(inputs) or self.known.get(inputs)
        if entry is None:
            return None
        self.kept[inputs] = entry
        key, printed = entry[0], entry[1]
        fallbacks: dict[str, dict] = {}
        for lang, string_id, file, line in printed:
            fallbacks.setdefault(lang, {})[string_id] = Printed(Path(file) if file else None, line)
        return key, fallbacks

    def put(self, inputs: str, key: str, fallbacks: dict, langs: tuple[str, ...]) -> None:
        printed = [
            [lang, string_id, str(text.file) if text.file else None, text.line]
            for lang, found in fallbacks.items()
            for string_id, text in found.items()
        ]
        self.kept[inputs] = [key, printed, "+".join(langs)]

    def save(self) -> None:
        """The entries of the editions this build made or used, and the last build's of the others (a build of
        some editions, as `pnpgen serve` lays out the edited one first, keeps what it knows of the rest)."""
        made = {entry[-1] for entry in self.kept.values()}
        kept = {
            name: entry
            for name, entry in self.known.items()
            if isinstance(entry[-1], str) and entry[-1] not in made  # an entry names its edition last
        }
        kept.update(self.kept)
        if self.directory is not None and kept != self.known:
            self.store.save(self.game.dir, "rules", "", kept)


def edition_text(rulebook: Rulebook, langs: tuple[str, ...], source: str) -> str:
    """The rules as an edition in `langs` prints them: each text in those languages (where one is missing, the
    source language's text and where it is written, which the untranslated report names), every other value of
    every block as it is. A change to another language's text leaves it as it was."""

    def shown(value):
        if isinstance(value, Text):
            return [
                [lang, value.values[lang]]
                if value.has(lang)
                else [lang, value.get(source, source), str(value.file), value.line_of(lang)]
                for lang in langs
            ]
        if isinstance(value, dict):
            return [[str(k), shown(v)] for k, v in sorted(value.items(), key=lambda item: str(item[0]))]
        if isinstance(value, (list, tuple)):
            return [shown(item) for item in value]
        return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)

    blocks = [
        [[name, shown(value)] for name, value in sorted(vars(block).items()) if name != "line"]
        for block in rulebook.blocks
    ]
    return json.dumps([rulebook.cover, source, blocks], ensure_ascii=False)


@dataclass(frozen=True)
class Printed:
    """Where a text printed in the source language is written (the untranslated report names it)."""

    file: Path | None
    line: int | None


def with_prototype(blocks: list[Block], note: list[Block]) -> list[Block]:
    """The rules' blocks with the prototype note where a `type: prototype` block stands, else at the end."""
    if not any(block.type == "prototype" for block in blocks):
        return blocks + note
    placed = []
    for block in blocks:
        placed += note if block.type == "prototype" else [block]
    return placed


def require_valid_rules(game: Game) -> None:
    """Raise the located problems of the game's rules.yaml, if it has one."""
    if has_rules(game):
        RulebookWriter(game, load_rules(game)).check()


def table_view(head: list, rows: list[list], css: str = "data", ids: list[str] | None = None) -> dict:
    return {"css": css, "head": head, "rows": rows, "ids": ids}


def _plain_text(html: str) -> str:
    """Visible text of typeset HTML (furigana readings dropped), for running headers."""
    html = re.sub(r'<span class="rt">.*?</span>', "", str(html))
    return re.sub(r"<[^>]+>", "", html).replace("&amp;", "&").replace("&#39;", "'").replace("&quot;", '"')


def _css_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
