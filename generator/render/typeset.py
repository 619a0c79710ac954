"""Japanese typesetting that WeasyPrint lacks, done on text (typeset_html.py applies it to every page).

- furigana: `{漢字|かんじ}` becomes a base with its reading set above it (WeasyPrint prints <ruby> inline);
  a reading longer than its base overhangs neighbouring kana by up to one reading character (JLReq);
- spacing between Japanese and Latin runs (a quarter em, as JIS X 4051 suggests);
- full-width punctuation: ASCII brackets and marks touching Japanese become full width, and of two
  punctuation marks in a row the first is set half width (JIS X 4051's 約物の連続) with the font's `halt`;
- phrase-level line breaks with BudouX: each phrase is kept whole with `white-space: nowrap`, and phrases
  are separated by a ZERO WIDTH SPACE (U+200B), their break opportunity, as <wbr> would;
- a number stays with its counter (「1枚」, 「3〜5人」);
- the game's own words (its card and deck names, its title's words, its glossary's terms: render/vocabulary.py)
  each in a span of class `term`: display text never breaks a phrase inside one, and the layout passes keep
  them whole at a line's end (weasy/phrases.py, weasy/lastlines.py), as a user dictionary would.
Line-breaking rules (kinsoku: 。、」 never start a line) come from Pango.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from markupsafe import Markup, escape

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
LATIN = "A-Za-z0-9%"
RUBY = re.compile(r"\{([^{}|]+)\|([^{}|]+)\}")
FURIGANA_SYNTAX = (
    "Furigana is written `{漢字|かんじ}`: in braces, the base text, a bar `|`, then its reading. It is set above the "
    "base (a reading longer than its base overhangs neighbouring kana), in any text of any language; searches, "
    "running heads and glossary checks see the base alone. Braces make YAML read a mapping: quote a text holding "
    'furigana (`ja: "{札|ふだ}を引く"`) or write it as a block (`|`).'
)
# The characters a quarter em separates from Latin text: kana and kanji, not the middle dot (・) nor the
# katakana double hyphen, which are punctuation and carry their own blank in their em box (JIS X 4051).
SPACED = "\u3040-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_THEN_LATIN = re.compile(f"([{SPACED}])([{LATIN}+])")  # 「価値 +1」
LATIN_THEN_CJK = re.compile(f"([{LATIN}])([{SPACED}])")
# A real space (0.22-0.26 em in Noto CJK, close to JIS X 4051's quarter em): unlike an empty box of
# fixed width, a space is dropped where a line starts or ends.
GAP = '<span class="jl"> </span>'
# What <wbr> stands for in WeasyPrint (its `wbr::before` content, a ZERO WIDTH SPACE) without the pseudo-element,
# which made a <wbr> between every two phrases cost a third of the layout of Japanese text. In a span: as bare
# text WeasyPrint's max-content width would break there, so a flex item would keep the height of a wrapped line.
WORD_BREAK = '<span class="brk">\u200b</span>'
FULL_WIDTH = {"(": "（", ")": "）", "!": "！", "?": "？", ":": "：", ";": "；"}
ASCII_PUNCTUATION_NEAR_CJK = re.compile(f"(?<=[{CJK}])[()!?:;]|[()](?=[{CJK}])")
CLOSING = "、。，．」』）】〕〉》"
OPENING = "「『（【〔〈《"
PUNCTUATION_PAIR = re.compile(f"([{CLOSING}{OPENING}])(?=[{CLOSING}{OPENING}])")


KANA = "\u3041-\u309f\u30a0-\u30ff"
OVERHANG_EM = 0.5  # JLReq: a reading may overhang a kana neighbour by one reading character (half size)


def ruby(match: re.Match, around: tuple[str, str] = ("", "")) -> str:
    """A base with its reading above. A reading longer than its base hangs over a kana (or punctuation)
    neighbour by up to half an em a side; only what a kanji neighbour (or the limit) refuses widens the
    base, as JLReq sets mono/group ruby. Overhang is drawn by letting the reading outgrow the base box.
    `around`: the characters before and after the text matched in, for a base at its edge."""
    base, reading = match.group(1), match.group(2)
    excess = len(reading) / 2 - len(base)
    if excess <= 0:
        return f'<span class="ruby"><span class="rt">{reading}</span>{base}</span>'
    source = match.string
    before = plain(source[: match.start()])[-1:] or around[0]
    after = plain(source[match.end() :])[:1] or around[1]
    pads = [max(0.0, excess / 2 - (OVERHANG_EM if _may_overhang(side) else 0.0)) for side in (before, after)]
    style = f' style="padding: 0 {pads[1]:.3g}em 0 {pads[0]:.3g}em"' if any(pads) else ""
    return f'<span class="ruby"{style}><span class="rt">{reading}</span>{base}</span>'


def _may_overhang(neighbour: str) -> bool:
    return bool(neighbour) and (re.match(f"[{KANA}]", neighbour) is not None or neighbour in CLOSING + OPENING)


def autospace(html: str) -> str:
    html = CJK_THEN_LATIN.sub(rf"\1{GAP}\2", html)
    return LATIN_THEN_CJK.sub(rf"\1{GAP}\2", html)


JAPANESE = f"{CJK}\u3000-\u303f\uff00-\uffef"
JAPANESE_MARKS = "\u3000-\u303f\uff00-\uffef"
LATIN_RUN = re.compile(
    f"(?<=[{JAPANESE_MARKS}])[A-Za-z0-9][A-Za-z0-9%.+/'-]*|[A-Za-z0-9][A-Za-z0-9%.+/'-]*(?=[{JAPANESE_MARKS}])"
)
LATIN_SPAN = '<span class="lt">'


def separate_latin(html: str) -> str:
    """A Latin run touching a Japanese mark (「N」, （CEO、) in a span of its own: a line is justified by
    spacing its Japanese characters (weasy/justify.py), and a Latin run in a text node of its own keeps its
    letters together."""
    return LATIN_RUN.sub(lambda match: f"{LATIN_SPAN}{match.group(0)}</span>", html)


SPACE_BESIDE_JAPANESE = re.compile(f"(?<=[{JAPANESE}]) +(?=[{LATIN}])|(?<=[{LATIN}]) +(?=[{JAPANESE}])")


def tidy_spaces(text: str) -> str:
    """A space an author typed between Japanese and Latin text is dropped: the gap is the typesetter's
    quarter em. Spaces between Japanese words (as in a katakana title) are the author's and stay."""
    return SPACE_BESIDE_JAPANESE.sub("", text)


def full_width(text: str) -> str:
    """ASCII brackets, !, ?, : and ; written against Japanese text, as their full-width forms."""
    return ASCII_PUNCTUATION_NEAR_CJK.sub(lambda m: FULL_WIDTH[m.group(0)], text)


def compress_punctuation(html: str) -> str:
    """The first of two full-width punctuation marks in a row set half width (`、「` takes 1.5 em, not 2)."""

    def half(match: re.Match) -> str:
        mark = match.group(1)
        return f'<span class="halt">{mark}</span>' if _pairs_badly(match) else mark

    return PUNCTUATION_PAIR.sub(half, html)


def _pairs_badly(match: re.Match) -> bool:
    """An opening bracket followed by another opening one keeps its width: its blank is on the left."""
    following = match.string[match.end()]
    return not (match.group(1) in OPENING and following in OPENING)


COUNTED = re.compile(f"(?<![A-Za-z0-9.,])([0-9][0-9,.]*(?:[〜～~–-][0-9][0-9,.]*)?)({re.escape(GAP)})?([{CJK}])")


def keep_counters(html: str) -> str:
    """A number and the counter after it (「1枚」, 「3〜5人」) in one unbreakable span."""
    return COUNTED.sub(r'<span class="nb">\1\2\3</span>', html)


def plain(text) -> str:
    """The text without furigana markup: what a reader would type or search for."""
    return RUBY.sub(r"\1", str(text))


@functools.lru_cache(maxsize=1)
def _budoux_parser():
    import budoux

    return budoux.load_default_japanese_parser()


def phrases(text: str) -> list[str]:
    return _budoux_parser().parse(text) if text else []


def phrase_pieces(text: str, words: Words | None = None) -> list[str]:
    """text cut at BudouX's phrase boundaries, with each furigana `{base|reading}` kept whole and none of `words`
    (the game's own) cut."""
    boundaries, total = set(), 0
    for phrase in phrases(plain(text)):
        total += len(phrase)
        boundaries.add(total)
    # BudouX keeps a name joined by a middle dot as one phrase (グリード・インコーポレイテッド); the line
    # may break after the dot, between its words, as in Japanese typesetting
    boundaries.update(index + 1 for index, char in enumerate(plain(text)) if char == "・")
    if words is not None:
        boundaries -= words.inside(plain(text))
    return _join_counters(_cut(text, boundaries))


def _atoms(text: str) -> list[tuple[str, int]]:
    """text as (source, plain length) pieces: each character, and each furigana `{base|reading}` whole."""
    atoms = []
    position = 0
    for match in RUBY.finditer(text):
        atoms += [(ch, 1) for ch in text[position : match.start()]]
        atoms.append((match.group(0), len(match.group(1))))
        position = match.end()
    return atoms + [(ch, 1) for ch in text[position:]]


def _cut(text: str, at: set[int]) -> list[str]:
    """text cut at these offsets of its plain text (an offset inside a furigana's base cuts nothing)."""
    pieces, current, offset = [], "", 0
    for source, length in _atoms(text):
        current += source
        offset += length
        if offset in at:
            pieces.append(current)
            current = ""
    return pieces + ([current] if current else [])


def phrase_boundaries(text: str) -> set[int]:
    """Where in text a phrase ends, as phrase_pieces cuts it: the places a line may break in display text."""
    found, total = set(), 0
    for piece in phrase_pieces(text):
        total += len(plain(piece))
        found.add(total)
    return found


TERM_CLASS = "term"  # the span around one of the game's words (weasy/paragraphs.py reads it back)
KATAKANA_RUN = re.compile("[\u30a1-\u30fa\u30fc-\u30ff]")
LATIN_RUN_CHAR = re.compile("[A-Za-z0-9%.+/'-]")


@dataclass(frozen=True)
class Words:
    """Words the typesetting keeps whole, like a user dictionary: a game's own (render/vocabulary.py), written as
    typeset() sees a text (furigana dropped, spaces tidied, punctuation full width)."""

    words: frozenset[str] = frozenset()

    @functools.cached_property
    def _lengths(self) -> dict[str, list[int]]:
        """First character -> the lengths of the words starting with it, longest first."""
        lengths: dict[str, set[int]] = {}
        for word in self.words:
            lengths.setdefault(word[0], set()).add(len(word))
        return {first: sorted(found, reverse=True) for first, found in lengths.items()}

    def spans(self, text: str) -> list[tuple[int, int]]:
        """(start, end) of each word in text, the longest at the leftmost place first, none overlapping; a katakana
        word inside a longer katakana run is none (スタート in スタートプレイヤー), and a word whose edge another
        rule holds together with its neighbour is left out (「3企業」: a number with its counter)."""
        found: list[tuple[int, int]] = []
        index = 0
        while index < len(text):
            end = next(
                (
                    index + length
                    for length in self._lengths.get(text[index], ())
                    if index + length <= len(text)
                    and text[index : index + length] in self.words
                    and _stands_alone(text, index, index + length)
                ),
                None,
            )
            if end is None:
                index += 1
            else:
                found.append((index, end))
                index = end
        return found

    def inside(self, text: str) -> set[int]:
        """The offsets in text a break would cut one of the words at."""
        return {cut for start, end in self.spans(text) for cut in range(start + 1, end)}


NO_WORDS = Words()


def _stands_alone(text: str, start: int, end: int) -> bool:
    return _apart(text[start - 1 : start], text[start]) and _apart(text[end - 1], text[end : end + 1])


def _apart(before: str, after: str) -> bool:
    """Whether a word's edge may fall between these two characters: not inside a katakana run, a number and its
    counter, or a Latin run and the Japanese mark it is set apart from (separate_latin)."""
    if not before or not after:
        return True
    if KATAKANA_RUN.match(before) and KATAKANA_RUN.match(after):
        return False
    if before.isdigit() and re.match(f"[{CJK}]", after):
        return False
    marks = re.compile(f"[{JAPANESE_MARKS}]")
    return not (
        (LATIN_RUN_CHAR.match(before) and marks.match(after)) or (marks.match(before) and LATIN_RUN_CHAR.match(after))
    )


def _term_segments(text: str, words: Words) -> list[tuple[str, bool]]:
    """text cut around each of the words it holds: (source, whether it is one of them). A word whose edge falls
    inside a furigana's base is not cut out."""
    found = words.spans(plain(text)) if words.words else []
    if not found:
        return [(text, False)]
    edges, offset = {0}, 0
    for _, length in _atoms(text):
        offset += length
        edges.add(offset)
    found = [(start, end) for start, end in found if start in edges and end in edges]
    starts = {start for start, _ in found}
    segments, offset = [], 0
    for segment in _cut(text, {edge for span in found for edge in span}):
        segments.append((segment, offset in starts))
        offset += len(plain(segment))
    return segments


WORDS_AT_MOST = 5000  # characters analysed at once (SudachiPy refuses very long input)


@functools.lru_cache(maxsize=1)
def _word_tokenizer():
    """SudachiPy's short units (split mode A), loaded when first needed (about 0.1 s)."""
    from sudachipy import Dictionary, SplitMode

    return Dictionary(dict="core").tokenizer(mode=SplitMode.A, fields=set())


def word_boundaries(text: str) -> set[int]:
    """Where in text a word ends, by a morphological analyser (SudachiPy's short units): a compound split into
    its words (ステータス|シンボル|カード), a verb from its ending (受け取り|ます). A number is never cut
    from what it counts or numbers (「1|枚」, 「第|7」 are no boundaries)."""
    found: set[int] = set()
    for start in range(0, len(text), WORDS_AT_MOST):
        chunk = text[start : start + WORDS_AT_MOST]
        found.update(start + morpheme.end() for morpheme in _word_tokenizer().tokenize(chunk))
    return {cut for cut in found if not _beside_number(text, cut)}


NUMBER_PREFIXES = set("第約各全計毎+-−×〜～~")  # a number's own word on its left: 第7, 約3
KANA_RANGE = ("\u3041", "\u309f")  # hiragana: a particle after a number (「1|を」) is no counter


def _beside_number(text: str, cut: int) -> bool:
    """A cut inside a number, between a number and its counter (「1|枚」, 「1|つ」: a kana particle after it,
    「1|を」, is no counter) or between a number and a prefix of it (「第|7」)."""
    before, after = text[cut - 1 : cut], text[cut : cut + 1]
    if not before or not after:
        return False
    if before.isdigit():
        return not (KANA_RANGE[0] <= after <= KANA_RANGE[1] and after != "つ") and not after.isspace()
    return after.isdigit() and before in NUMBER_PREFIXES


ADNOMINALS = {"この", "その", "あの", "どの", "こんな", "そんな", "あんな", "どんな"}


def _join_counters(pieces: list[str]) -> list[str]:
    """Phrase boundaries a reader does not see: between a number and its counter (「1｜枚」), and after
    a lone demonstrative, which belongs to the noun after it (「その｜日まで」)."""
    joined: list[str] = []
    for piece in pieces:
        if joined and (
            (re.search("[0-9]$", plain(joined[-1])) and re.match(f"[{CJK}]", plain(piece)))
            or plain(joined[-1]) in ADNOMINALS
        ):
            joined[-1] += piece
        else:
            joined.append(piece)
    return joined


def typeset(
    text,
    lang: str = "ja",
    phrase_breaks: bool = False,
    spacing: bool = True,
    punctuation: bool = True,
    counters: bool = True,
    words: Words = NO_WORDS,
) -> Markup:
    """Escape text and apply the language's typesetting; the result is safe HTML. Each rule can be
    turned off (an author's `data-typeset="no-spacing"` and the like, see typeset_html.py). `words`: the ones
    to keep whole (the game's own), each set in a span of class `term`."""
    if text is None:
        return Markup("")
    if lang != "ja":
        return Markup(RUBY.sub(r"\1", str(escape(text))))
    text = str(text)
    if spacing:
        text = tidy_spaces(text)
    if punctuation:
        text = full_width(text)
    if phrase_breaks:  # a space is a break of its own: a phrase never runs on over Latin words
        chunks = [chunk for chunk in re.split("( +)", text) if chunk]
        pieces = [
            piece
            for index, chunk in enumerate(chunks)
            for piece in ([chunk] if chunk.isspace() and not _marker(chunks[:index]) else phrase_pieces(chunk, words))
        ]
        pieces = _join_markers(pieces)
    else:
        pieces = [text]
    out = []
    for index, piece in enumerate(pieces):
        if piece.isspace():
            out.append(piece)
            continue
        following = plain(pieces[index + 1])[:1] if index + 1 < len(pieces) else ""
        rules = _Rules(spacing, punctuation, counters and not phrase_breaks)  # a phrase keeps its counters already
        html = _set_piece(piece, following, rules, words)
        if spacing and index and _needs_gap(plain(pieces[index - 1])[-1:], plain(piece)[:1]):
            html = GAP + html
        out.append(f'<span class="phrase">{html}</span>' if phrase_breaks else html)
    # An explicit break opportunity between phrases (none beside a space, which is one): WeasyPrint's
    # min-content width (table columns) does not see the one between two nowrap spans and would size a
    # cell as one long phrase.
    return Markup(
        "".join(_between(out[index - 1], piece) + piece if index else piece for index, piece in enumerate(out))
    )


@dataclass(frozen=True)
class _Rules:
    spacing: bool
    punctuation: bool
    counters: bool


def _set_piece(piece: str, following: str, rules: _Rules, words: Words) -> str:
    """A phrase (or a whole running text) as HTML, each of the game's words in it in a span of its own; `following`:
    the character after it."""
    segments = _term_segments(piece, words)
    parts = []
    for index, (segment, term) in enumerate(segments):
        before = plain(segments[index - 1][0])[-1:] if index else ""
        after = plain(segments[index + 1][0])[:1] if index + 1 < len(segments) else ""
        html = RUBY.sub(functools.partial(ruby, around=(before, after)), str(escape(segment)))
        if rules.spacing:
            html = autospace(html)
        if rules.counters:
            html = keep_counters(html)
        html = separate_latin(html)
        if rules.punctuation:
            next_char = after or following
            html = compress_punctuation(html + next_char)[:-1] if next_char else compress_punctuation(html)
        if rules.spacing and index and _needs_gap(before, plain(segment)[:1]):
            parts.append(GAP)
        parts.append(f'<span class="{TERM_CLASS}">{html}</span>' if term else html)
    return "".join(parts)


def _between(before: str, after: str) -> str:
    return "" if before.isspace() or after.isspace() else WORD_BREAK


def _marker(before: list[str]) -> bool:
    """A lone mark (①, a bullet) before a space: the space does not separate it from what it marks."""
    return len(before) == 1 and len(before[0]) == 1


def _join_markers(pieces: list[str]) -> list[str]:
    if len(pieces) > 2 and len(pieces[0]) == 1 and pieces[1].isspace():
        return [pieces[0] + pieces[1] + pieces[2]] + pieces[3:]
    return pieces


def metadata_text(text, lang: str) -> str:
    """Text for what a PDF says about itself (its title): furigana dropped, full-width punctuation, and no
    Japanese/Latin gap, which is the typesetter's blank in layout (a quarter em), not a character: 「1金」, the
    same in every file (a title bar, a search and a screen reader read it as written)."""
    text = plain(text)
    return full_width(tidy_spaces(text)) if lang.startswith("ja") else text


def spaced_plain(text: str, lang: str) -> str:
    """Plain text for places that take no markup (a running head in CSS `content`): Japanese/Latin
    spacing as a four-per-em space (U+2005, the quarter em), full-width punctuation, no furigana."""
    text = plain(text)
    if lang != "ja":
        return text
    text = full_width(tidy_spaces(text))
    return LATIN_THEN_CJK.sub("\\1\u2005\\2", CJK_THEN_LATIN.sub("\\1\u2005\\2", text))


def _needs_gap(before: str, after: str) -> bool:
    pair = before + after
    return len(pair) == 2 and bool(CJK_THEN_LATIN.fullmatch(pair) or LATIN_THEN_CJK.fullmatch(pair))
