"""The lock file (cards/<game>/i18n.lock.yaml): for each translation, the source text it was made from.

A translation is
- confirmed when the lock's hash for it equals the hash of the current source text;
- stale when the lock has a hash for it and the source has changed since;
- unconfirmed when the lock knows nothing about it (written by hand since the last confirm).

The lock also keeps the checks silenced for a translation (`ignore:`, string id -> lang -> checks), set by
`pnpgen i18n confirm --ignore CHECK` or by an imported file's `ignore-CHECK` flags.

The file is written in one deterministic form (sorted keys, JSON-quoted strings, which YAML reads),
so that confirming twice changes nothing and diffs show only what changed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import InputError, Problem
from generator.fsutil import write_atomic
from generator.i18n.checks import CHECKS
from generator.i18n.strings import Unit, source_hash
from generator.model.game import Game
from generator.model.schema import Checker, Enum, Field, FileKind, LanguageCode, ListOf, MapOf, Object, Str, start
from generator.yamlio.read import load_yaml

LOCK_NAME = "i18n.lock.yaml"
CONFIRMED, STALE, UNCONFIRMED = "confirmed", "stale", "unconfirmed"
LOCK_HINT = "the file is written by `pnpgen i18n confirm`; delete it and confirm again"
LANGS_TO = MapOf(LanguageCode(), Str(), key="language")
LOCK_SCHEMA = Object(
    {
        "made_from": Field(
            MapOf(Str(), LANGS_TO, key="string id"),
            doc="string id -> language -> a hash of the source text the translation was made from",
        ),
        "sources": Field(
            MapOf(Str(), Str(), key="hash"),
            doc="hash -> that source text, to show what a stale translation's source used to say",
        ),
        "ignore": Field(
            MapOf(Str(), MapOf(LanguageCode(), ListOf(Enum(list(CHECKS))), key="language"), key="string id"),
            doc="string id -> language -> the checks silenced for it (" + ", ".join(CHECKS) + "); delete "
            "a line to check the string again",
        ),
    },
    what="i18n.lock.yaml",
)
LOCK_FILE_KIND = FileKind(
    LOCK_NAME,
    LOCK_SCHEMA,
    doc=(
        "Written by `pnpgen i18n confirm`, `i18n import` and the confirm button of `pnpgen serve`; commit it with the "
        "card data. For each translation it records the source text it was made from, which is what makes a "
        "translation confirmed (the source is unchanged) or stale (the source changed since)."
    ),
)
HEADER = """\
# Written by `pnpgen i18n confirm` and `pnpgen i18n import`; commit it with the card data.
# made_from: for each string and translation, a hash of the source text the translation was made from.
# sources: those source texts, so that a stale translation can show what its source used to say.
"""


@dataclass
class Lock:
    path: Path
    made_from: dict[str, dict[str, str]] = field(default_factory=dict)  # string id -> lang -> source hash
    sources: dict[str, str] = field(default_factory=dict)  # source hash -> source text
    ignored: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # string id -> lang -> checks

    def state(self, unit: Unit, lang: str, source_lang: str) -> str:
        recorded = self.made_from.get(unit.id, {}).get(lang)
        if recorded is None:
            return UNCONFIRMED
        return CONFIRMED if recorded == source_hash(unit.value(source_lang)) else STALE

    def previous_source(self, unit: Unit, lang: str) -> str | None:
        return self.sources.get(self.made_from.get(unit.id, {}).get(lang, ""))

    def confirm(self, string_id: str, lang: str, source_text: str) -> None:
        digest = source_hash(source_text)
        self.made_from.setdefault(string_id, {})[lang] = digest
        self.sources[digest] = source_text.strip()

    def ignored_checks(self, string_id: str, lang: str) -> list[str]:
        return self.ignored.get(string_id, {}).get(lang, [])

    def ignore(self, string_id: str, lang: str, checks) -> None:
        known = set(self.ignored_checks(string_id, lang))
        if set(checks) - known:
            self.ignored.setdefault(string_id, {})[lang] = sorted(known | set(checks))

    def keep_only(self, ids) -> None:
        """Forget strings the game no longer has."""
        self.made_from = {key: value for key, value in self.made_from.items() if key in ids}
        self.ignored = {key: value for key, value in self.ignored.items() if key in ids}

    def dump(self) -> str:
        used = sorted({digest for langs in self.made_from.values() for digest in langs.values()})
        lines = [HEADER.rstrip("\n"), "made_from:"]
        for string_id in sorted(self.made_from):
            langs = self.made_from[string_id]
            pairs = ", ".join(f"{lang}: {json.dumps(langs[lang])}" for lang in sorted(langs))
            lines.append(f"  {json.dumps(string_id, ensure_ascii=False)}: {{{pairs}}}")
        lines.append("sources:")
        for digest in used:
            lines.append(f"  {json.dumps(digest)}: {json.dumps(self.sources.get(digest, ''), ensure_ascii=False)}")
        ignored = {key: langs for key, langs in self.ignored.items() if any(langs.values())}
        if ignored:
            lines.append("ignore:  # checks silenced for a translation (`pnpgen i18n confirm --ignore CHECK`)")
            for string_id in sorted(ignored):
                checks = ignored[string_id]
                pairs = ", ".join(f"{lang}: {json.dumps(checks[lang])}" for lang in sorted(checks) if checks[lang])
                lines.append(f"  {json.dumps(string_id, ensure_ascii=False)}: {{{pairs}}}")
        return "\n".join(lines) + "\n"


def lock_path(game: Game) -> Path:
    return game.dir / LOCK_NAME


def read_lock(game: Game) -> Lock:
    """The game's lock; an empty one when the file does not exist yet."""
    path = lock_path(game)
    if not path.is_file():
        return Lock(path)
    document = load_yaml(path) or {}
    checker = Checker()
    LOCK_SCHEMA.check(document, start(path, document), checker)
    if checker.problems:
        raise InputError([Problem(p.file, p.line, p.message, p.key, p.hint or LOCK_HINT) for p in checker.problems])
    made_from, sources = document.get("made_from") or {}, document.get("sources") or {}
    ignored = document.get("ignore") or {}
    return Lock(
        path,
        {str(k): {str(lang): str(h) for lang, h in v.items()} for k, v in made_from.items()},
        {str(k): str(v) for k, v in sources.items()},
        {str(k): {str(lang): sorted(str(c) for c in checks) for lang, checks in v.items()} for k, v in ignored.items()},
    )


def write_lock(lock: Lock) -> bool:
    """Write the lock when its content changed; True when it did."""
    text = lock.dump()
    if lock.path.is_file() and lock.path.read_text(encoding="utf-8") == text:
        return False
    write_atomic(lock.path, text)
    return True


def confirm_all(game: Game, lock: Lock, all_units: dict[str, Unit], ids=None, langs=None) -> list[tuple]:
    """Record the current source of every (chosen) translation; the (id, lang) pairs whose state changed."""
    changed = []
    for unit in all_units.values():
        if ids is not None and unit.id not in ids:
            continue
        source = unit.value(game.source_language)
        for lang in langs or game.languages:
            if lang == game.source_language or not unit.value(lang) or not source:
                continue
            if lock.state(unit, lang, game.source_language) != CONFIRMED:
                lock.confirm(unit.id, lang, source)
                changed.append((unit.id, lang))
    return changed
