"""The words pnpgen itself prints on a page (a heading, "Contents", "page"), each replaceable by a game label.

pnpgen has its own words in Japanese and English; a game's labels.yaml may hold any of them under the label key
the page names it by (`rules_contents`, `pnp_guide`), which makes it a translation string like any other:
exported, imported, checked and reported untranslated. A word with no text in the language built (a label the
game writes in other languages only, or a language pnpgen has no words of and the game no label for) is printed
in the source language (else English), marked as untranslated (`Untranslated`: the page flags it) and noted
like any missing translation; validate and `pnpgen i18n status` list the words no label translates
(`untranslated_words`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from generator.model.game import Game, Text
from generator.model.labels import LABELS_FILE
from generator.render.templating import Untranslated

OWN_FALLBACK = "en"  # the language pnpgen's own words are printed in where the game's source has none
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


@dataclass(frozen=True)
class WordSet:
    """The words one part of pnpgen prints (the rule sheet, the print-and-play guide), declared once: pnpgen's text
    of each in Japanese and English (`defaults`, language -> key -> text, their `{name}`s the placeholders the
    page fills in), the label key a game words it with (`label_of`), and the keys a game's default build prints
    (`printed`: only these are a game's strings to translate; a word an option adds, like the ink-saving
    version's, is flagged and listed by the build that prints it)."""

    part: str  # what prints them, as the reference names it
    defaults: dict[str, dict[str, str]]
    label_of: Callable[[str], str]
    printed: Callable[[Game], list[str]]

    def words(self, game: Game, fallbacks: dict[str, dict[str, Text]] | None = None) -> GameWords:
        """The words as the game prints them (its labels, else pnpgen's)."""
        return GameWords(game, self.defaults, self.label_of, fallbacks, keys=self.printed(game))

    def placeholders(self, key: str) -> list[str]:
        """The `{name}`s a word's label may hold, as pnpgen's own texts of it use them."""
        found = [name for words in self.defaults.values() for name in PLACEHOLDER.findall(words.get(key, ""))]
        return list(dict.fromkeys(found))


class GameWords:
    """One page's words: pnpgen's own by language (`defaults`), the game's label where it has one (`label_of(key)`
    names it); the words printed in another language are noted in `fallbacks` (language -> string id -> Text)."""

    def __init__(
        self,
        game: Game,
        defaults: dict[str, dict[str, str]],
        label_of: Callable[[str], str],
        fallbacks: dict[str, dict[str, Text]] | None = None,
        keys: list[str] | None = None,
    ):
        self.game, self.defaults, self.label_of = game, defaults, label_of
        self.fallbacks: dict[str, dict[str, Text]] = {} if fallbacks is None else fallbacks
        self.keys = list(defaults[OWN_FALLBACK]) if keys is None else keys  # the words the page may print

    def text_of(self, key: str) -> Text:
        """The word in every language it has: the game's label, else pnpgen's own, as a text of labels.yaml (where
        the game would write it)."""
        label = self.game.labels.get(self.label_of(key))
        if label is not None:
            return label
        own = {lang: words[key] for lang, words in self.defaults.items() if key in words}
        return Text(own, file=labels_file(self.game))

    def string_id(self, key: str) -> str:
        return f"labels[{self.label_of(key)}].text"

    def word(self, key: str, lang: str, **values) -> str:
        """The word in lang, each `{name}` in it filled in from values; an Untranslated one where lang has none."""
        text = self.text_of(key)
        word: str = text.values[lang] if self.written(text, lang) else self.untranslated(key, text, lang)
        filled = word
        for name, value in values.items():
            filled = filled.replace("{" + name + "}", str(value))
        return Untranslated.like(word, filled) if isinstance(word, Untranslated) else filled

    def untranslated(self, key: str, text: Text, lang: str) -> Untranslated:
        written = self.printed_in(text)
        self.fallbacks.setdefault(lang, {})[self.string_id(key)] = text
        return Untranslated(text, written, text.get(written, OWN_FALLBACK))

    def printed_in(self, text: Text) -> str:
        """The language a word is printed in where it has no text in the language built."""
        source = self.game.source_language
        return source if self.written(text, source) else OWN_FALLBACK

    def written(self, text: Text, lang: str) -> bool:
        """Whether the word has a text in lang: a game label's when not empty; pnpgen's own whenever it has the
        language, a space too (the Japanese facts' separator is an ideographic space)."""
        if text.has(lang):
            return True
        own = all(text is not label for label in self.game.labels.values())
        return own and lang in text.values

    def note_missing(self, text: Text | None, lang: str, string_id: str) -> None:
        """A text of the game printed on the page (its title, a component's name) in the source language."""
        if text is not None and text.values and not text.has(lang):
            self.fallbacks.setdefault(lang, {})[string_id] = text

    def untranslated_words(self, langs: list[str]) -> list[MissingWord]:
        """Each word no label of the game translates into a language of langs pnpgen has no words of. (A label the
        game wrote without a language is one of its own texts: the string inventory lists it.)"""
        found = []
        for lang in [lang for lang in langs if lang not in self.defaults]:
            for key in self.keys:
                label = self.label_of(key)
                if label not in self.game.labels:
                    text = self.text_of(key)
                    found.append(MissingWord(lang, self.string_id(key), label, text, self.printed_in(text)))
        return found


@dataclass(frozen=True)
class MissingWord:
    """One of pnpgen's words the game prints in `lang` with no text in it (printed in `printed_in`, flagged)."""

    lang: str
    string_id: str  # labels[pnp_guide].text: where the game would write it
    label: str  # the label key: pnp_guide
    text: Text  # the word in the languages pnpgen has it in, located at labels.yaml
    printed_in: str

    def message(self) -> str:
        return f"pnpgen's word {self.label} has no {self.lang} text (it prints in {self.printed_in}, flagged)"

    def hint(self) -> str:
        return (
            f"add `{self.label}: {{{self.lang}: ...}}` under `labels:` in labels.yaml "
            f"({self.printed_in}: {self.text.get(self.printed_in)!r})"
        )


def labels_file(game: Game) -> Path:
    """The game's labels.yaml (where a label is added, whether or not the file is there yet)."""
    return game.dir / LABELS_FILE


def flagged(word: str) -> Markup:
    """A word as a page prints it: a span marked with the language it is printed in, when untranslated."""
    if isinstance(word, Untranslated):
        return Markup(f'<span lang="{word.lang}" class="untranslated">{escape(str(word))}</span>')
    return escape(word)
