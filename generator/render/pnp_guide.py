"""The print-and-play file's own pages: the cover with the printing guide, and the component checklist.

build/bundle.py decides what the file holds and on which pages (a Guide); this module words it in the file's
language and lays it out as two WeasyPrint documents (templates/base/pnp-guide.html), typeset as the rule
sheets are and measured like every page. The words are pnpgen's (WORDS, in Japanese and English) unless the
game's labels.yaml holds them as `pnp_<key>` (and `components_<key>` for the headings the rule sheet's components
table shares); a word with no text in the file's language is printed in another, marked, and the page flagged
(render/game_words.py), as a face printing an untranslated string is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup, escape

from generator.model.game import Game
from generator.model.rules import has_rules
from generator.paths import TEMPLATES_DIR
from generator.render import fonts, typeset_html
from generator.render.batches import Batch
from generator.render.components import HEADINGS as COMPONENT_HEADINGS, component_rows, component_words, shown_count
from generator.render.faces import untranslated_flag
from generator.render.game_words import GameWords, WordSet, flagged
from generator.render.printed import board_tiles
from generator.render.templating import Templates, Untranslated, localize
from generator.render.titles import language_name

TEMPLATE = "base/pnp-guide.html"
SAFE_MM = 5.0  # a home printer prints nothing in the outer 5 mm: text stays inside
PAGE_SIZES = {"a4": "A4", "letter": "letter"}
GROUPS = ("guide", "rules", "cards", "tokens", "boards", "aids")  # the file's sections, in printing order
SIDES = ("either", "one", "long", "short", "gutterfold")  # how a part prints: any, one-sided, duplex flips, folded
PAPER_WEIGHTS = ("plain", "card", "heavy")

WORDS = {
    "ja": {
        "pnp": "プリント＆プレイ版",
        "edition_standard": "通常版",
        "edition_ink_saver": "インク節約版",
        "ink_saver_note": "背景と枠を薄く刷り、インクを節約する版です。",
        "backs_omitted": "カードとトークンの裏面は省いてあります。すべて片面で印刷してください。",
        "players": "{low}〜{high}人",
        "players_one": "{n}人",
        "time": "{low}〜{high}分",
        "time_one": "{n}分",
        "version": "Ver. {version}",
        "date": "{year}年{month}月{day}日",
        "languages": "言語",
        "this_file": "このファイル",
        "paper_a4": "A4",
        "paper_letter": "USレター",
        "guide": "印刷ガイド",
        "at_100": "拡大・縮小せず、100%（実際のサイズ）で印刷してください。印刷画面の「用紙に合わせる」は"
        "オフにします。",
        "col_pages": "ページ",
        "col_what": "印刷物",  # not 内容: the box contents table says that for "Component"
        "col_sides": "印刷面",
        "col_paper": "用紙",
        "sides_either": "片面・両面どちらでも",
        "sides_one": "片面",
        "sides_long": "両面（長辺とじ）",
        "sides_short": "両面（短辺とじ）",
        "sides_gutterfold": "片面（中央で折る）",
        "paper_plain": "普通紙（80 g/m²）",
        "paper_card": "厚紙（200〜300 g/m²）",
        "paper_heavy": "やや厚い紙（160 g/m²）",
        "range": "{first}〜{last}",
        "at_pages": "{first}〜{last}ページ",
        "at_page": "{n}ページ",
        "and": "、",
        "duplex_tip": "両面印刷できないプリンターでは、両面の部分の奇数ページ（表）を先に印刷し、刷った紙を裏返して"
        "給紙トレイに戻してから偶数ページ（裏）を印刷します。",
        "blanks": "白紙のページ：{pages}。ファイル全体を両面印刷しても裏面が表面のちょうど裏に来るように"
        "入れてあります。片面で印刷するときは飛ばしてください。",
        "cut_tip": "カードとトークンはトンボ（角の印）に合わせて切ります。",
        "tiles_tip": "用紙に収まらないボードは分割して印刷されます。最初のページの配置図のとおりに余白を切り、"
        "重ねて貼り合わせます。",
        "gutterfold_tip": "カードシートは片面に印刷し、中央の線で表を外側にして折って貼り合わせてから切ります。",
        "checklist": "内容物チェックリスト",
        "col_where": "印刷ページ",
        "group_guide": "案内",
        "group_rules": "ルール",
        "group_cards": "カード",
        "group_tokens": "トークン",
        "group_boards": "ボード",
        "group_aids": "プレイヤーエイド",
        "blank": "白紙",
    },
    "en": {
        "pnp": "Print and play",
        "edition_standard": "Standard version",
        "edition_ink_saver": "Ink-saving version",
        "ink_saver_note": "Backgrounds and frames are printed light to save ink.",
        "backs_omitted": "The backs of the cards and tokens are left out: print everything one-sided.",
        "players": "{low}–{high} players",
        "players_one": "{n} players",
        "time": "{low}–{high} min",
        "time_one": "{n} min",
        "version": "Version {version}",
        "date": "{day} {month} {year}",
        "languages": "Languages",
        "this_file": "This file",
        "paper_a4": "A4",
        "paper_letter": "US Letter",
        "guide": "Printing guide",
        "at_100": "Print at 100% (actual size): turn off “fit to page” and “shrink to fit” in the print dialog.",
        "col_pages": "Pages",
        "col_what": "What",
        "col_sides": "Sides",
        "col_paper": "Paper",
        "sides_either": "one- or two-sided",
        "sides_one": "one-sided",
        "sides_long": "two-sided, flip on the long edge",
        "sides_short": "two-sided, flip on the short edge",
        "sides_gutterfold": "one-sided, folded in the middle",
        "paper_plain": "plain paper (80 g/m²)",
        "paper_card": "card stock (200–300 g/m²)",
        "paper_heavy": "heavy paper (160 g/m²)",
        "range": "{first}–{last}",
        "at_pages": "pages {first}–{last}",
        "at_page": "page {n}",
        "and": ", ",
        "duplex_tip": "No duplex printer? Print the odd pages of a two-sided part (the fronts), put the printed "
        "sheets back into the tray turned over, then print its even pages (the backs).",
        "blanks": "Left blank: {pages}, so that every back falls behind its front when the whole file is printed "
        "two-sided. Skip the blank pages when you print one-sided.",
        "cut_tip": "Cut the cards and tokens on the crop marks.",
        "tiles_tip": "A board larger than the paper is printed in tiles: trim them as the map on its first page "
        "shows, overlap them and tape them together.",
        "gutterfold_tip": "Card sheets: print one-sided, fold along the middle line with the printing outside, glue, "
        "then cut.",
        "checklist": "Component checklist",
        "col_where": "Printed on",
        "group_guide": "Guide",
        "group_rules": "Rules",
        "group_cards": "Cards",
        "group_tokens": "Tokens",
        "group_boards": "Boards",
        "group_aids": "Player aids",
        "blank": "Blank",
    },
}
for _lang, _headings in COMPONENT_HEADINGS.items():
    WORDS[_lang].update({f"components_{key}": _headings[key] for key in ("name", "count", "note", "not_printed")})
MONTH_NAMES = {
    "en": "January February March April May June July August September October November December".split(),
}


def label_of(key: str) -> str:
    """The labels.yaml key a game words one of the guide's words with."""
    return key if key.startswith("components_") else f"pnp_{key}"


# the words every guide and checklist prints
EVERY_GUIDE = (
    *("pnp", "edition_standard", "languages", "this_file", "paper_a4", "paper_letter", "guide", "at_100"),
    *("col_pages", "col_what", "col_sides", "col_paper", "range", "checklist", "col_where", "group_guide", "and"),
    *("at_page", "at_pages", "components_name", "components_count", "components_note"),
)


def guide_keys(game: Game) -> list[str]:
    """The words a default build of the game prints on its guide and checklist (both papers, duplex sheets). The
    words only an option prints (--ink-saver's, --duplex short's, --layout gutterfold's) are not among them: the
    build that prints one untranslated flags it and lists it, like every other."""
    printables = game.printables
    boards = list(printables.boards.values()) if printables else []
    has = {
        "rules": has_rules(game),
        "cards": bool(game.decks),
        "tokens": bool(printables and printables.tokens),
        "boards": bool(boards),
        "aids": bool(printables and printables.aids),
    }
    two_sided = has["cards"] or has["tokens"]
    low, high = game.players
    shortest, longest = game.play_time or (0, 0)
    printed = {
        "players": low != high,
        "players_one": low == high,
        "time": shortest != longest,
        "time_one": bool(game.play_time) and shortest == longest,
        "version": bool(game.version),
        "date": bool(game.date),
        **{f"group_{group}": present for group, present in has.items()},
        "sides_either": has["rules"],
        "sides_long": two_sided,
        "sides_one": has["boards"] or has["aids"] or has["tokens"],
        "paper_plain": has["rules"],
        "paper_card": two_sided or has["boards"],
        "paper_heavy": has["aids"],
        "duplex_tip": two_sided,
        "blanks": two_sided,
        "blank": two_sided,
        "cut_tip": two_sided,
        "tiles_tip": any(board_tiles(board, paper) for board in boards for paper in PAGE_SIZES),
        "components_not_printed": any(not component.printed for component in game.components),
    }
    return [key for key in WORDS["en"] if key in EVERY_GUIDE or printed.get(key, False)]


GUIDE_WORDS = WordSet("the print-and-play file's guide and checklist", WORDS, label_of, guide_keys)


def guide_words(game: Game) -> GameWords:
    return GUIDE_WORDS.words(game)


@dataclass(frozen=True)
class GuidePart:
    """One file of the bundle: what it is, where it is and how to print it."""

    group: str  # one of GROUPS
    name: str  # as the players know it (the component's name), in the file's language
    first: int  # its pages in the bundle, from 1
    last: int
    sides: str  # one of SIDES
    paper: str  # one of PAPER_WEIGHTS
    detail: tuple[str, ...] = ()  # what it holds besides (a card sheet file's decks)
    tiled: bool = False  # a board printed in tiles


@dataclass(frozen=True)
class CheckedComponent:
    """A component of components.yaml and the pages that print it (none: not printed, or not in this file)."""

    id: str
    pages: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Guide:
    """What the bundle holds: its parts in order, the blank pages between them, the components' pages."""

    lang: str
    paper: str  # a4 | letter
    ink_saver: bool
    backs_omitted: bool
    parts: list[GuidePart]
    blanks: list[int]
    checklist: list[CheckedComponent]


class GuideWriter:
    """The guide and checklist of one game, in each language and paper, as documents to render."""

    def __init__(self, game: Game):
        self.game = game
        self.words = guide_words(game)

    def word(self, key: str, lang: str, **values) -> str:
        return self.words.word(key, lang, **values)

    def shown(self, key: str, lang: str, **values) -> Markup:
        """A word as the page prints it (marked where it is untranslated)."""
        return flagged(self.word(key, lang, **values))

    def pages(self, first: int, last: int, lang: str) -> Markup:
        if first == last:
            return self.shown("at_page", lang, n=first)
        return self.shown("at_pages", lang, first=first, last=last)

    def page_list(self, pages: list[tuple[int, int]], lang: str) -> Markup:
        return self.shown("and", lang).join(self.pages(first, last, lang) for first, last in pages)

    # --- the cover and the guide ----------------------------------------------------------------

    def cover(self, guide: Guide) -> dict:
        game, lang = self.game, guide.lang
        self.words.note_missing(game.title, lang, "title")
        low, high = game.players
        players = (
            self.shown("players", lang, low=low, high=high) if low != high else self.shown("players_one", lang, n=low)
        )
        facts = [players]
        if game.play_time:
            shortest, longest = game.play_time
            facts.append(
                self.shown("time", lang, low=shortest, high=longest)
                if shortest != longest
                else self.shown("time_one", lang, n=shortest)
            )
        if game.version:
            facts.append(self.shown("version", lang, version=game.version))
        if game.date:
            facts.append(flagged(self.date(game.date, lang)))
        edition = "edition_ink_saver" if guide.ink_saver else "edition_standard"
        return {
            "title": flagged(localize(game.title, lang, game.source_language)),
            "pnp": self.shown("pnp", lang),
            "edition": self.shown(edition, lang),
            "facts": facts,
            "languages": self.shown("languages", lang),
            "language_names": [language_name(game, code, lang) for code in game.languages],  # in the file's language
            "this_file": self.shown("this_file", lang),
            "file": [language_name(game, lang, lang), self.shown(f"paper_{guide.paper}", lang)],
        }

    def date(self, iso: str, lang: str) -> str:
        """The day in lang's words: `{month}` is the month's name in a language MONTH_NAMES has, else its number
        (a translator writes `{day}.{month}.{year}`)."""
        year, month, day = (int(part) for part in iso.split("-"))
        names = MONTH_NAMES.get(lang)
        return self.word("date", lang, year=year, month=names[month - 1] if names else month, day=day)

    def names(self, names: tuple[str, ...], lang: str) -> Markup:
        """Names listed in a line ("Companies, Assets"), each kept whole on one line: a break falls between them."""
        kept = [Markup('<span class="deck">{}</span>').format(flagged(name)) for name in names]
        return Markup(escape(self.word("and", lang))).join(kept)

    def guide_view(self, guide: Guide) -> dict:
        lang = guide.lang
        rows = [
            {
                "pages": self.shown("range", lang, first=part.first, last=part.last)
                if part.first != part.last
                else str(part.first),
                "group": part.group,
                "name": flagged(part.name),
                "detail": self.names(part.detail, lang),
                "sides": self.shown(f"sides_{part.sides}", lang),
                "two_sided": part.sides in ("long", "short"),
                "paper": self.shown(f"paper_{part.paper}", lang),
            }
            for part in guide.parts
        ]
        notes = []
        if guide.ink_saver:
            notes.append(self.shown("ink_saver_note", lang))
        if guide.backs_omitted:
            notes.append(self.shown("backs_omitted", lang))
        if any(part.sides in ("long", "short") for part in guide.parts):
            notes.append(self.shown("duplex_tip", lang))
        if guide.blanks:
            notes.append(self.blanks(runs(guide.blanks), lang))
        if any(part.sides == "gutterfold" for part in guide.parts):
            notes.append(self.shown("gutterfold_tip", lang))
        if any(part.group in ("cards", "tokens") for part in guide.parts):
            notes.append(self.shown("cut_tip", lang))
        if any(part.tiled for part in guide.parts):
            notes.append(self.shown("tiles_tip", lang))
        return {
            "heading": self.shown("guide", lang),
            "at_100": self.shown("at_100", lang),
            "head": [self.shown(key, lang) for key in ("col_pages", "col_what", "col_sides", "col_paper")],
            "rows": rows,
            "notes": notes,
        }

    # --- the checklist --------------------------------------------------------------------------

    def checklist_view(self, guide: Guide) -> dict:
        lang, game = guide.lang, self.game
        words = component_words(game, lang)  # the count's stamp (TBD / 仮), as the rule sheet's table has it
        words.update({key: self.shown(f"components_{key}", lang) for key in ("name", "count", "note", "not_printed")})
        pages = {checked.id: checked.pages for checked in guide.checklist}
        rows = []
        for component, row in zip(game.components, component_rows(game, lang)):
            self.words.note_missing(component.name, lang, f"components[{component.id}].name")
            self.words.note_missing(component.note, lang, f"components[{component.id}].note")
            note = component.note.get(lang, game.source_language) if component.note else ""
            where = self.page_list(pages.get(component.id, []), lang) if component.printed else words["not_printed"]
            rows.append(
                {
                    "id": component.id,
                    "name": flagged(localize(component.name, lang, game.source_language)),
                    "count": shown_count(row, words),
                    "where": where or "—",
                    "note": note,
                    "printed": component.printed,
                }
            )
        head = [words["name"], words["count"], self.shown("col_where", lang), words["note"]]
        return {"heading": self.shown("checklist", lang), "head": head, "rows": rows}

    # --- documents ------------------------------------------------------------------------------

    def batch(self, guide: Guide, page: str) -> Batch:
        """The guide (`page="guide"`: the cover and the printing guide) or the checklist as one document."""
        lang = guide.lang
        context: dict = {"lang": lang, "page": page, "safe_mm": SAFE_MM, "page_size": PAGE_SIZES[guide.paper]}
        noted, self.words.fallbacks = self.words.fallbacks, {}  # what this page prints untranslated, apart
        try:
            if page == "guide":
                context.update(cover=self.cover(guide), guide=self.guide_view(guide))
            else:
                context["checklist"] = self.checklist_view(guide)
            context["flag"] = Markup(untranslated_flag(self.flag_language(self.words.fallbacks.get(lang, {}))))
        finally:
            for fallback_lang, printed in self.words.fallbacks.items():
                noted.setdefault(fallback_lang, {}).update(printed)
            self.words.fallbacks = noted
        css = fonts.for_languages(
            (TEMPLATES_DIR / "base" / "pnp-guide.css").read_text(encoding="utf-8"),
            lang,
            [*self.game.languages, self.game.source_language],
        )
        context["styles"] = Markup(f"{fonts.font_face_css()}{typeset_html.stylesheet()}{css}")
        templates = Templates(self.game.dir, lang, self.game.source_language, labels=self.game.labels)
        html = templates.render(TEMPLATE, context, f"the print-and-play {page} ({lang})", phrases=True)
        return Batch(html, self.game.dir.resolve().as_uri() + "/")

    def flag_language(self, printed: dict) -> str | None:
        """The language a page's untranslated words are printed in (the page's corner flag says it), or None."""
        return next((self.words.printed_in(text) for text in printed.values()), None)

    def blanks(self, pages: list[tuple[int, int]], lang: str) -> Markup:
        """The note on the blank pages, its page list marked where its words are untranslated."""
        word = self.word("blanks", lang)
        start, _, end = word.partition("{pages}")
        text = Untranslated.like(word, start) if isinstance(word, Untranslated) else start
        rest = Untranslated.like(word, end) if isinstance(word, Untranslated) else end
        return flagged(text) + self.page_list(pages, lang) + flagged(rest)

    def page_label(self, group: str, lang: str) -> str:
        return self.word("blank" if group == "blank" else f"group_{group}", lang)


def runs(pages: list[int]) -> list[tuple[int, int]]:
    """Page numbers as (first, last) runs: [8, 40, 41] -> [(8, 8), (40, 41)]."""
    found: list[tuple[int, int]] = []
    for page in sorted(pages):
        if found and found[-1][1] == page - 1:
            found[-1] = (found[-1][0], page)
        else:
            found.append((page, page))
    return found
