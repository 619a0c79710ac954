"""The typesetting pass: every text of a rendered page set by typeset.py's rules, whatever made it.

Card faces, backs, tokens, aids and boards (after their template is rendered) and rule sheets (the
whole document) go through `typeset_page` once, so no template has to remember a filter. Each text node
is set in the language of its element (`lang` is inherited, so a page in both languages is set right).

What a text gets (Japanese): Japanese/Latin spacing, full-width punctuation, a number kept with its
counter, furigana `{漢字|かんじ}`, and phrase-level breaks (BudouX) — display text breaks between
phrases, running text (rule-sheet paragraphs) anywhere kinsoku allows. An element's `data-typeset="..."`
changes that for it and everything inside: TYPESET and its WORDS below.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from generator.paths import TEMPLATES_DIR
from generator.render.attributes import Attribute
from generator.render.typeset import GAP, LATIN, NO_WORDS, RUBY, SPACED, TERM_CLASS, Words, typeset
from generator.render.vertical import vertical_html

TOKEN = re.compile(
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<![^>]*>|<(/?)([A-Za-z][\w:-]*)((?:\"[^\"]*\"|'[^']*'|[^'\">])*)>"
    r"|[^<]+",
    re.S,
)
ATTRIBUTE = re.compile(r"([\w:-]+)\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
UNTOUCHED = {"style", "script", "title", "svg", "code", "pre", "textarea", "math"}
# Text on either side of these stays one run for Japanese/Latin spacing: `<b>4</b>個` gets its gap.
INLINE = {"a", "b", "strong", "em", "i", "span", "small", "sup", "sub", "u", "s", "mark", "abbr", "q", "cite"}
OWN_MARKUP = {"jl", "halt", "phrase", "brk", "nb", "rt", "lt", TERM_CLASS}  # spans this pass writes: never set twice


@dataclass(frozen=True)
class Word:
    """A word of data-typeset: the rule it sets, to what, and what that does."""

    rule: str
    value: bool
    doc: str


WORDS = {
    "off": Word("off", True, "the text as written: none of the rules"),
    "on": Word("off", False, "the rules again, inside an element that is `off`"),
    "phrases": Word(
        "phrases", True, "Japanese lines break only between phrases (BudouX), as they do on card faces and in titles"
    ),
    "no-phrases": Word(
        "phrases", False, "Japanese lines break anywhere kinsoku allows, as running text on rule sheets does"
    ),
    "no-spacing": Word("spacing", False, "no quarter-em space between Japanese and Latin text"),
    "no-punctuation": Word(
        "punctuation", False, "ASCII brackets and marks beside Japanese kept as written, no half-width pairs"
    ),
    "no-counters": Word("counters", False, "a number may part from its counter (「1枚」) at a line break"),
    "vertical": Word(
        "vertical",
        True,
        "Japanese set top to bottom (縦組み): characters upright in the font's vertical forms, two digits across",
    ),
    "no-vertical": Word("vertical", False, "not vertical (the default)"),
}
TYPESET = Attribute(
    "data-typeset",
    "words separated by spaces",
    "Changes the typesetting of the element's text and everything inside it; each word turns one rule on or off. "
    "Every page is typeset after its template is rendered, whatever the template wrote, in the language of each "
    "element (`lang`): see the words below.",
)
ATTRIBUTES = (TYPESET,)


@dataclass(frozen=True)
class Rules:
    lang: str = ""
    phrases: bool = True
    spacing: bool = True
    punctuation: bool = True
    counters: bool = True
    vertical: bool = False
    off: bool = False

    def apply(self, words: str, lang: str | None) -> Rules:
        rules = replace(self, lang=lang) if lang else self
        switch: dict[str, Any]  # one bool field by name (a dict of bools would be matched against `lang` too)
        for word in words.split():
            if word in WORDS:
                switch = {WORDS[word].rule: WORDS[word].value}
                rules = replace(rules, **switch)
        return rules


def stylesheet() -> str:
    """The styles the pass's markup needs (furigana, phrases, vertical text): part of every document."""
    return (TEMPLATES_DIR / "base" / "typeset.css").read_text(encoding="utf-8")


def attributes(text: str) -> dict[str, str]:
    return {name.lower(): html_lib.unescape(value.strip("\"'")) for name, value in ATTRIBUTE.findall(text)}


def typeset_page(page: str, lang: str, phrases: bool = True, words: Mapping[str, Words] | None = None) -> str:
    """The page's HTML with every text set; `phrases` is the default for text no element decides for; `words`:
    by language, the words each text keeps whole (the game's own: render/vocabulary.py)."""
    out: list[str] = []
    stack: list[tuple[str, Rules]] = [("", Rules(lang=lang, phrases=phrases))]
    last = ""  # the last character of the inline run so far, for spacing across elements
    untouched = 0  # depth inside <style>, <svg>...
    vertical: list | None = None  # (tag, depth, collected texts) while inside a vertical element
    for match in TOKEN.finditer(page):
        token = match.group(0)
        closing, tag = match.group(1), (match.group(2) or "").lower()
        if vertical is not None:
            vertical = _collect_vertical(vertical, token, tag, closing, out)
            continue
        if not tag:
            if token.startswith("<"):
                out.append(token)  # comment, doctype
                continue
            rules = stack[-1][1]
            if untouched or rules.off or not token.strip():
                out.append(token)
                last = last if not token.strip() else token[-1:]
                continue
            text, last = set_text(token, rules, last, (words or {}).get(rules.lang, NO_WORDS))
            out.append(text)
            continue
        out.append(token)
        self_closing = token.endswith("/>")
        if tag not in INLINE:
            last = ""
        if closing:
            untouched -= tag in UNTOUCHED and untouched > 0
            while len(stack) > 1:
                if stack.pop()[0] == tag:
                    break
            continue
        if tag in UNTOUCHED and not self_closing:
            untouched += 1
        if tag in VOID or self_closing:
            continue
        attrs = attributes(match.group(3) or "")
        rules = stack[-1][1].apply(attrs.get(TYPESET.name, ""), attrs.get("lang"))
        if set(attrs.get("class", "").split()) & OWN_MARKUP:
            rules = replace(rules, off=True)
        stack.append((tag, rules))
        if (
            rules.vertical
            and not rules.off
            and rules.lang == "ja"
            and "vertical" in attrs.get(TYPESET.name, "").split()
        ):
            vertical = [tag, 1, []]
    return "".join(out)


def _collect_vertical(state: list, token: str, tag: str, closing: str, out: list[str]):
    """Gather the text of a vertical element; at its end tag write it set top to bottom."""
    element, depth, texts = state
    if tag == element and not token.endswith("/>"):
        depth += -1 if closing else 1
    if tag == element and closing and depth == 0:
        out.append(vertical_html(html_lib.unescape(RUBY.sub(r"\1", "".join(texts)))))
        out.append(token)
        return None
    if not tag and not token.startswith("<"):
        texts.append(token)
    return [element, depth, texts]


LATIN_CHAR = re.compile(f"[{LATIN}]")
CJK_CHAR = re.compile(f"[{SPACED}]")


def set_text(escaped: str, rules: Rules, last: str, words: Words = NO_WORDS) -> tuple[str, str]:
    """One text node set by the rules, `words` kept whole; also the last character, which the next node's spacing
    needs."""
    text = html_lib.unescape(escaped)
    if rules.lang != "ja":
        return str(typeset(text, rules.lang or "en")), text.rstrip()[-1:] or last
    leading = text[: len(text) - len(text.lstrip())]
    trailing = text[len(text.rstrip()) :]
    body = text.strip()
    html = str(
        typeset(
            body,
            "ja",
            phrase_breaks=rules.phrases,
            spacing=rules.spacing,
            punctuation=rules.punctuation,
            counters=rules.counters,
            words=words,
        )
    )
    first = RUBY.sub(r"\1", body)[:1]
    if rules.spacing and not leading and last and _meets(last, first):
        html = GAP + html
    return f"{leading}{html}{trailing}", (RUBY.sub(r"\1", body)[-1:] if not trailing else " ")


def _meets(before: str, after: str) -> bool:
    return bool(
        (CJK_CHAR.match(before) and LATIN_CHAR.match(after)) or (LATIN_CHAR.match(before) and CJK_CHAR.match(after))
    )
