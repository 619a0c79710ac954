"""The words pnpgen itself prints on a page (a heading, "Contents", "page"), each replaceable by a game label.

pnpgen has its own words in a few languages; a game's labels.yaml may hold any of them under the label key the
page names it by (`rules_contents`, `pnp_guide`), which makes it a translation string like any other: exported,
imported, checked and reported untranslated. A label the game writes in another language only is printed in the
source language and noted, like any missing translation.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.model.game import Game, Text


class GameWords:
    """One page's words: pnpgen's own by language (`defaults`, English for a language it has none for), the game's
    label where it has one (`label_of(key)` names it); the labels printed in the source language are noted in
    `fallbacks` (language -> string id -> Text)."""

    def __init__(
        self,
        game: Game,
        defaults: dict[str, dict[str, str]],
        label_of: Callable[[str], str],
        fallbacks: dict[str, dict[str, Text]] | None = None,
    ):
        self.game, self.defaults, self.label_of = game, defaults, label_of
        self.fallbacks: dict[str, dict[str, Text]] = {} if fallbacks is None else fallbacks

    def own(self, key: str, lang: str) -> str:
        return self.defaults.get(lang, self.defaults["en"])[key]

    def word(self, key: str, lang: str, **values) -> str:
        """The word in lang, each `{name}` in it filled in from values."""
        label = self.label_of(key)
        text = self.game.labels.get(label)
        if text is None:
            word = self.own(key, lang)
        else:
            if not text.has(lang):
                self.fallbacks.setdefault(lang, {})[f"labels[{label}].text"] = text
            word = text.get(lang, self.game.source_language)
        for name, value in values.items():
            word = word.replace("{" + name + "}", str(value))
        return word

    def note_missing(self, text: Text | None, lang: str, string_id: str) -> None:
        """A text of the game printed on the page (its title, a component's name) in the source language."""
        if text is not None and text.values and not text.has(lang):
            self.fallbacks.setdefault(lang, {})[string_id] = text
