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
from generator.checks.placeholders import DataNames, PlaceholderError, resolve, resolve_one
from generator.errors import InputError, Problem, unique_problems
from generator.fsutil import write_atomic
from generator.model.game import Game, Text
from generator.model.rules import Block, Rulebook, has_rules, load_rules
from generator.paths import TEMPLATES_DIR
from generator.progress import Progress
from generator.render import fonts
from generator.render.faces import Batch
from generator.render.pipeline import FaceCache, render_batches
from generator.render.typeset import typeset

PAGE_SIZES = {"a4": "A4", "letter": "letter"}
LABELS = {
    "ja": {"rules": "ルール", "contents": "目次", "example": "例", "note": "注意", "players": "人数",
           "players_range": "{low}〜{high}人用", "page": "ページ"},
    "en": {"rules": "Rules", "contents": "Contents", "example": "Example", "note": "Note", "players": "Players",
           "players_range": "For {low}–{high} players", "page": "page"},
}
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
        self.fallbacks: dict[str, dict[str, Text]] = {}  # language -> string id -> Text printed in the source

    # --- text -----------------------------------------------------------------------------------

    def text(self, value, lang: str, key: str, block: Block, phrases: bool = False) -> Markup:
        """A Text (or plain cell) in lang: placeholders resolved, typeset, **bold** marked."""
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
        html = STRONG.sub(r"<strong>\1</strong>", str(typeset(resolved, written, phrase_breaks=phrases)))
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
        def t(value, key="text", phrase=False):
            return self.text(value, lang, key, block, phrase)

        kind = block.type
        if kind == "heading":
            tag = f"h{block.level + 1}"
            return f'<{tag} class="heading level{block.level}">{t(block.text, phrase=lang == "ja")}</{tag}>'
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
            head = [t(cell, f"head[{i}]", lang == "ja") for i, cell in enumerate(block.head)]
            rows = [[t(cell, f"rows[{r}][{c}]", lang == "ja") for c, cell in enumerate(row)]
                    for r, row in enumerate(block.rows)]
            return self.caption(block, lang, t) + table_html(head, rows)
        if kind == "figure":
            src = (block.file.parent / block.src)
            if not src.is_file():
                self.problems.append(Problem(block.file, block.line, f"figure '{block.src}' not found beside "
                                             f"{block.file.name}", f"blocks[{block.id}].src"))
            caption = f"<figcaption>{t(block.text)}</figcaption>" if block.text else ""
            digest = hashlib.sha256(src.read_bytes()).hexdigest()[:16] if src.is_file() else ""
            # the digest puts the image's content into the HTML, which is what the PDF cache keys on
            return (f'<figure><img src="{src.resolve().as_uri()}" alt="" data-digest="{digest}">'
                    f"{caption}</figure>")
        if kind == "components":
            return self.caption(block, lang, t) + self.components_html(lang)
        if kind == "players":
            return self.caption(block, lang, t) + self.players_html(block, lang)
        raise ValueError(kind)

    @staticmethod
    def caption(block: Block, lang: str, t) -> str:
        return f'<p class="caption">{t(block.text)}</p>' if block.text else ""

    def components_html(self, lang: str) -> str:
        """The box contents: the same rows `pnpgen components` prints."""
        for component in self.game.components:
            self.note_missing(component.name, lang, f"components[{component.id}].name")
            self.note_missing(component.note, lang, f"components[{component.id}].note")
        rows = component_rows(self.game, lang)
        head = [escape(self.word(f"components_{key}", lang)) for key in ("name", "count", "note")]
        return table_html(head,
                          [[typeset(row["name"], lang), escape(str(row["count"])), typeset(row["note"], lang)]
                           for row in rows], css="components", ids=[row["id"] for row in rows])

    def players_html(self, block: Block, lang: str) -> str:
        """One row per player count; each column an expression evaluated at that count."""
        head = [escape(self.word("players", lang))] + [
            self.text(c["head"], lang, f"columns[{i}].head", block, lang == "ja")
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

    def html(self, langs: tuple[str, ...], paper: str) -> str:
        pair = len(langs) > 1
        body = [self.title_page(langs), self.contents(langs)]
        if pair:
            rows = "".join(self.pair_row(block, langs) for block in self.rulebook.blocks)
            body.append(f'<table class="pair"><colgroup><col><col></colgroup><tbody>{rows}</tbody></table>')
        else:
            blocks = "".join(self.single_block(block, langs[0]) for block in self.rulebook.blocks)
            body.append(f'<main class="columns">{blocks}</main>')
        if self.problems:
            problems, self.problems = self.problems, []
            raise InputError(unique_problems(problems))
        title = " / ".join(dict.fromkeys(self.game.title.get(lang, self.game.source_language) for lang in langs))
        css = fonts.for_languages((TEMPLATES_DIR / "base" / "rules.css").read_text(encoding="utf-8"), langs[0],
                                  [*langs, self.game.source_language])
        page = (f"@page {{ size: {PAGE_SIZES[paper]}; }}\n"
                f'@page :left, :right {{ @top-left {{ content: "{_css_string(title)}"; }} }}\n')
        return (f'<!doctype html><html lang="{langs[0]}" class="{"pair" if pair else "single"}"><head>'
                f'<meta charset="utf-8"><title>{escape(title)}</title>'
                f"<style>\n{fonts.font_face_css()}{css}\n{page}</style></head><body>\n"
                + "\n".join(body) + "\n</body></html>")

    def chapter(self, block: Block, langs: tuple[str, ...]) -> str:
        if block.type != "heading" or block.level != 1:
            return ""
        name = " / ".join(_plain_text(self.text(block.text, lang, "text", block)) for lang in langs)
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
        html = typeset(self.game.title.get(written), written, phrase_breaks=True)
        return html if written == lang else f'<span lang="{written}">{html}</span>'

    def title_page(self, langs: tuple[str, ...]) -> str:
        low, high = self.game.players
        parts = []
        for lang in langs:
            parts.append(f'<div class="title-block" lang="{lang}">'
                         f'<h1 class="title">{self.title(lang)}</h1>'
                         f'<p class="subtitle">{escape(self.word("rules", lang))}</p>'
                         f'<p class="players">{escape(self.word("players_range", lang, low=low, high=high))}'
                         f"</p></div>")
        return f'<section class="title-page">{"".join(parts)}</section>'

    def contents(self, langs: tuple[str, ...]) -> str:
        entries = []
        for block in self.rulebook.headings(max_level=2):
            names = "".join(f'<span class="toc-name" lang="{lang}">'
                            f"{self.text(block.text, lang, 'text', block)}</span>" for lang in langs)
            entries.append(f'<li class="level{block.level}"><a href="#b-{block.id}">{names}</a></li>')
        heading = " / ".join(self.word("contents", lang) for lang in langs)
        return f'<nav class="toc"><h2 class="toc-title">{escape(heading)}</h2><ul>{"".join(entries)}</ul></nav>'

    def batch(self, langs: tuple[str, ...], paper: str) -> Batch:
        """The edition as one WeasyPrint document, keyed by its content like a batch of card faces."""
        return Batch(self.html(langs, paper), self.game.dir.resolve().as_uri() + "/")


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


def write_rulebooks(game: Game, langs: list[str], papers: list[str], out_dir: Path, progress: Progress,
                    cache_dir: Path | None = None, jobs: int = 1, untranslated=None) -> list[dict]:
    """Every edition on every paper, rendered on `jobs` cores; unchanged ones come from the cache.
    untranslated(fallbacks) is told which texts were printed in the source language, by language."""
    if not has_rules(game):
        return []
    writer = RulebookWriter(game, load_rules(game))
    writer.check()
    wanted = [(edition, paper) for edition in editions(game, langs) for paper in papers]
    batches = [writer.batch(edition, paper) for edition, paper in wanted]
    if untranslated is not None:
        untranslated({lang: texts for lang, texts in writer.fallbacks.items() if lang in langs})
    cache = FaceCache(cache_dir)
    pdfs = render_batches(batches, cache, jobs)
    files = []
    for (edition, paper), data in zip(wanted, pdfs):
        name = f"rules-{edition_name(edition)}-{paper}.pdf"
        write_atomic(out_dir / name, data)
        pages = len(pikepdf.open(io.BytesIO(data)).pages)
        files.append({"path": name, "kind": "rules", "lang": edition_name(edition), "paper": paper,
                      "pages": pages})
    progress.say(f"{game.id}: wrote {len(files)} rule sheets ({cache.hits} from the cache, "
                 f"{cache.misses} rendered)")
    return files


def build_rules(context) -> list[dict]:
    """The build's rule sheets: every language asked for, alone and side by side, on every paper."""
    return write_rulebooks(context.game, context.langs, context.papers, context.out_dir, context.progress,
                           context.cache.directory, context.jobs, context.note_rules)


def check_rules(game: Game) -> None:
    """Raise the located problems of the game's rules.yaml, if it has one."""
    if has_rules(game):
        RulebookWriter(game, load_rules(game)).check()


build_rules.check = check_rules

def table_html(head: list, rows: list[list], css: str = "data", ids: list[str] | None = None) -> str:
    head_html = "".join(f"<th>{cell}</th>" for cell in head)
    body = "".join(
        f'<tr{f" data-id={chr(34)}{ids[i]}{chr(34)}" if ids else ""}>' + "".join(f"<td>{c}</td>" for c in row)
        + "</tr>" for i, row in enumerate(rows))
    return f'<table class="{css}"><thead><tr>{head_html}</tr></thead><tbody>{body}</tbody></table>'


def _plain_text(html: str) -> str:
    """Visible text of typeset HTML (furigana readings dropped), for running headers."""
    html = re.sub(r'<span class="rt">.*?</span>', "", str(html))
    return re.sub(r"<[^>]+>", "", html).replace("&amp;", "&").replace("&#39;", "'").replace("&quot;", '"')


def _css_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')

