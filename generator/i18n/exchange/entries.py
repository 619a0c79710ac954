"""What a translation file holds, in any format: an Exchange (the game, the two languages) of Entries."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.model.schema import UNPRINTABLE, character_name

FLAG_PREFIX = "ignore-"


@dataclass
class Entry:
    id: str
    source: str
    target: str = ""
    stale: bool = False
    previous: str | None = None  # the source the translation was made from, when stale
    note: str = ""  # what the string is
    width_mm: float | None = None  # the box it is printed in
    height_mm: float | None = None
    location: str = ""  # file:line in the game directory
    line: int | None = None  # where the entry starts in the exchange file (when read)
    confirmed: bool = False  # the lock records the current source (XLIFF approved="yes")
    ignored: tuple[str, ...] = ()  # checks silenced for this translation: numbers, glossary ...

    @property
    def limit(self) -> str:
        if self.width_mm is None:
            return ""
        return f"fits a {self.width_mm:g} x {self.height_mm:g} mm box"

    @property
    def developer_note(self) -> str:
        """What the string is and the box it fits, as XLIFF's developer note and CSV's developer_comments."""
        return "; ".join(part for part in (self.note, self.limit) if part)

    @property
    def flags(self) -> list[str]:
        return [FLAG_PREFIX + check for check in self.ignored]


@dataclass
class Exchange:
    game: str
    source_lang: str
    target_lang: str
    entries: list[Entry] = field(default_factory=list)
    path: Path | None = None
    id_name: str = "string id"  # what the format calls an entry's id: msgctxt, trans-unit id, context
    # Where the file says which game and language it holds: "game", "source", "target" -> line.
    lines: dict[str, int] = field(default_factory=dict)
    # How the file would say its language, for the hint when it does not.
    language_header: str = "its language"

    def line_of(self, what: str) -> int:
        return self.lines.get(what, 1)


def control_character(text: str) -> str | None:
    """How to name the first character of text that is not text (`U+000D (carriage return)`), None when none.
    A translation file neither carries nor accepts them (`schema.UNPRINTABLE`: tab, line feed and NEL are text)."""
    match = UNPRINTABLE.search(text)
    return character_name(match.group()) if match else None


# Weblate's names for the checks pnpgen shares with it.
WEBLATE_CHECKS = {"same": "untranslated"}


def flags_to_checks(flags) -> tuple[str, ...]:
    checks = {flag[len(FLAG_PREFIX) :] for flag in flags if flag.startswith(FLAG_PREFIX)}
    return tuple(sorted(WEBLATE_CHECKS.get(check, check) for check in checks))
