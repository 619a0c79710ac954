"""What a build writes, declared apart from how it is built: a file's build.json entry, the kinds of file a
builder writes (docs/cli.md lists them) and the output kinds of a build, which the build's context, its report and
the print-and-play file read without the builders themselves."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

# A file's entry in build.json: its path, kind, lang, paper and pages, and what its kind adds (a card sheet file's
# decks, sheets and face keys; a board's tiles...). Entries are merged with ** and read back from the previous
# build.json, so they stay plain mappings.
FileEntry = dict[str, Any]


LANGUAGES_JOIN = "+"


def output_lang(langs: list[str] | tuple[str, ...]) -> str:
    """A file's languages as its name and its build.json entry's `lang` say them: `ja`, or for a file of several,
    their codes in the order printed joined by `+` (`ja+en`): a language code holds no `+`, an id none either."""
    return LANGUAGES_JOIN.join(langs)


def file_langs(lang: str) -> list[str]:
    """The languages of a build.json entry's `lang` (see output_lang)."""
    return lang.split(LANGUAGES_JOIN) if lang else []


@dataclass(frozen=True)
class OutputFile:
    """A kind of file a builder writes into OUT/<game>/: its name, `<word>` standing for what varies and `[...]`
    for a part not every such file has, and what it holds. docs/cli.md lists them, and build() checks that every
    file a builder writes is one of its own."""

    name: str  # "board-<board>-<lang>-<paper>.pdf"
    doc: str

    def matches(self, path: str) -> bool:
        return re.fullmatch(self.pattern(), path) is not None

    def pattern(self) -> str:
        parts = re.split(r"(<[a-z-]+>|\[|\])", self.name)
        variable = {"[": "(?:", "]": ")?"}
        return "".join(
            variable.get(part) or ("[^/]+?" if part.startswith("<") else re.escape(part)) for part in parts if part
        )


class OutputKind(Protocol):
    """One kind of output of a build as build.json and the output folder know it."""

    @property
    def kind(self) -> str:
        """cards, boards, aids, tokens, rules or pnp: what build.json's entries of its builder say."""
        ...

    @property
    def reports(self) -> tuple[str, ...]:
        """The `kind`s of its build.json file entries and the `piece`s of the texts it measures: what a build of
        some outputs only (`pnpgen rules`) replaces in the previous build.json, keeping the others' entries."""
        ...

    @property
    def files(self) -> tuple[OutputFile, ...]:
        """The kinds of file it writes."""
        ...
