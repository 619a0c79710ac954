"""Japanese typesetting that WeasyPrint lacks, done as HTML filters.

- furigana: `{漢字|かんじ}` becomes a base with its reading set above it (WeasyPrint prints <ruby> inline);
- spacing between Japanese and Latin runs (a quarter em, as JIS X 4051 suggests);
- full-width punctuation: ASCII brackets and marks touching Japanese become full width, and of two
  punctuation marks in a row the first is set half width (JIS X 4051's 約物の連続) with the font's `halt`;
- phrase-level line breaks with BudouX (each phrase is kept whole with `white-space: nowrap`).
Line-breaking rules (kinsoku: 。、」 never start a line) come from Pango.
"""
from __future__ import annotations

import functools
import re

from markupsafe import Markup, escape

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
LATIN = "A-Za-z0-9%"
RUBY = re.compile(r"\{([^{}|]+)\|([^{}|]+)\}")
CJK_THEN_LATIN = re.compile(f"([{CJK}])([{LATIN}])")
LATIN_THEN_CJK = re.compile(f"([{LATIN}])([{CJK}])")
# A real space (0.22-0.26 em in Noto CJK, close to JIS X 4051's quarter em): unlike an empty box of
# fixed width, a space is dropped where a line starts or ends.
GAP = '<span class="jl"> </span>'
WORD_BREAK = "<wbr>"
FULL_WIDTH = {"(": "（", ")": "）", "!": "！", "?": "？", ":": "：", ";": "；"}
ASCII_PUNCTUATION_NEAR_CJK = re.compile(f"(?<=[{CJK}])[()!?:;]|[()](?=[{CJK}])")
CLOSING = "、。，．」』）】〕〉》"
OPENING = "「『（【〔〈《"
PUNCTUATION_PAIR = re.compile(f"([{CLOSING}{OPENING}])(?=[{CLOSING}{OPENING}])")


def ruby(match: re.Match) -> str:
    base, reading = match.group(1), match.group(2)
    # A reading longer than its base (at half size) would hang over the neighbours or the margin:
    # widen the base evenly instead, as group ruby is set.
    overhang = len(reading) / 2 - len(base)
    pad = f' style="padding: 0 {overhang / 2:.3g}em"' if overhang > 0 else ""
    return f'<span class="ruby"{pad}><span class="rt">{reading}</span>{base}</span>'


def autospace(html: str) -> str:
    html = CJK_THEN_LATIN.sub(rf"\1{GAP}\2", html)
    return LATIN_THEN_CJK.sub(rf"\1{GAP}\2", html)


JAPANESE = f"{CJK}\u3000-\u303f\uff00-\uffef"
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


def plain(text) -> str:
    """The text without furigana markup: what a reader would type or search for."""
    return RUBY.sub(r"\1", str(text))


@functools.lru_cache(maxsize=1)
def _budoux_parser():
    import budoux

    return budoux.load_default_japanese_parser()


def phrases(text: str) -> list[str]:
    return _budoux_parser().parse(text) if text else []


def phrase_pieces(text: str) -> list[str]:
    """text cut at BudouX's phrase boundaries, with each furigana `{base|reading}` kept whole."""
    atoms = []  # (source text, plain length)
    position = 0
    for match in RUBY.finditer(text):
        atoms += [(ch, 1) for ch in text[position:match.start()]]
        atoms.append((match.group(0), len(match.group(1))))
        position = match.end()
    atoms += [(ch, 1) for ch in text[position:]]
    boundaries, total = set(), 0
    for phrase in phrases(plain(text)):
        total += len(phrase)
        boundaries.add(total)
    pieces, current, offset = [], "", 0
    for source, length in atoms:
        current += source
        offset += length
        if offset in boundaries:
            pieces.append(current)
            current = ""
    return pieces + ([current] if current else [])


def typeset(text, lang: str = "ja", phrase_breaks: bool = False) -> Markup:
    """Escape text and apply the language's typesetting; the result is safe HTML."""
    if text is None:
        return Markup("")
    if lang != "ja":
        return Markup(RUBY.sub(r"\1", str(escape(text))))
    text = full_width(tidy_spaces(str(text)))
    pieces = phrase_pieces(text) if phrase_breaks else [text]
    out = []
    for index, piece in enumerate(pieces):
        following = plain(pieces[index + 1])[:1] if index + 1 < len(pieces) else ""
        html = autospace(RUBY.sub(ruby, str(escape(piece))))
        html = compress_punctuation(html + following)[:-1] if following else compress_punctuation(html)
        if index and _needs_gap(plain(pieces[index - 1])[-1:], plain(piece)[:1]):
            html = GAP + html
        out.append(f'<span class="phrase">{html}</span>' if phrase_breaks else html)
    # An explicit break opportunity between phrases: WeasyPrint's min-content width (table columns)
    # does not see the one between two nowrap spans and would size a cell as one long phrase.
    return Markup(WORD_BREAK.join(out))


def _needs_gap(before: str, after: str) -> bool:
    pair = before + after
    return len(pair) == 2 and bool(CJK_THEN_LATIN.fullmatch(pair) or LATIN_THEN_CJK.fullmatch(pair))
