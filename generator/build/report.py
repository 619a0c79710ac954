"""build.json (what a build wrote, measured and printed untranslated) and the untranslated summary."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from generator.build.outputs import FileEntry, OutputFile, file_langs
from generator.build.context import BuildContext
from generator.errors import Problem
from generator.fsutil import REPORT_NAME, write_atomic
from generator.model import Game
from generator.render.fit_report import CardFit
from generator.render.paper import PAPERS

SHOWN_UNTRANSLATED = 12  # strings listed on the terminal per language; build.json has them all
REPORT_FILE = OutputFile(
    REPORT_NAME,
    "what the build wrote and found: every file (`files`) with its kind, language, paper and page count, for card "
    "sheets the decks it holds (`decks`), those on each sheet (`sheets`), its `volume` and the keys of its card "
    "faces (`face_keys`); the text found out of place (`overflows`), the text shrunk to fit (`shrunk`), the raster "
    "pictures printed below the game's `print: min_dpi` (`low_resolution`: file, pixels, box in mm, dpi), those "
    "touching the trim whose bleed is white (`short_of_bleed`: file, edge in `other`, white mm in `gap_mm`) and the "
    "strings printed in the source language for want of a translation (`untranslated`)",
)


def report_of(
    game: Game,
    files: list[FileEntry],
    fits: Sequence[CardFit] = (),
    untranslated: dict[str, dict[str, str]] | None = None,
) -> dict[str, Any]:
    """build.json's content: the files written, the text found overflowing or shrunk, the untranslated strings."""
    return {
        "game": game.id,
        "files": files,
        "overflows": [asdict(fit) for fit in fits if fit.overflow_mm > 0],
        "shrunk": [asdict(fit) for fit in fits if fit.scale < 1],
        "low_resolution": [asdict(fit) for fit in fits if fit.kind == "image" and fit.dpi < game.min_dpi],
        "short_of_bleed": [asdict(fit) for fit in fits if fit.kind == "bleed"],
        "untranslated": {
            lang: [{"id": string_id, "where": where} for string_id, where in strings.items()]
            for lang, strings in (untranslated or {}).items()
            if strings
        },
    }


def write_report(out_dir: Path, report: dict[str, Any]) -> None:
    write_atomic(out_dir / REPORT_FILE.name, json.dumps(report, ensure_ascii=False, indent=2) + "\n")


def previous_report(out_dir: Path) -> dict[str, Any]:
    """The build.json the last build wrote here (empty when there is none, or it cannot be read)."""
    try:
        report = json.loads((out_dir / REPORT_FILE.name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return report if isinstance(report, dict) else {}


def previous_entries(out_dir: Path) -> dict[str, FileEntry]:
    """The files the last build wrote here, by path (nothing when there is no readable build.json)."""
    try:
        return {entry["path"]: entry for entry in previous_report(out_dir).get("files", []) if isinstance(entry, dict)}
    except (KeyError, TypeError, AttributeError):
        return {}


@dataclass(frozen=True)
class Scope:
    """What one build of a game was asked for, against which the previous build.json is read: its entries within
    the scope are replaced by this build's (and their files removed when this build did not write them again),
    those outside it stay listed, their files untouched (`--lang en` leaves the ja files, `pnpgen rules` the
    card sheets)."""

    kinds: frozenset[str]  # the build.json kinds and measured pieces of the builders run (see Builder.reports)
    every_output: bool  # every builder ran: any kind is within the scope, even one no builder makes any more
    langs: frozenset[str] | None  # the languages built; None: every language of the game
    game_langs: frozenset[str]  # a language the game no longer has is within every scope: no build makes it again
    papers: frozenset[str] | None  # the papers built; None: every paper
    files: tuple[OutputFile, ...] = ()  # what the builders run may write: the only names ever removed

    def covers(self, entry: dict[str, Any], key: str = "kind") -> bool:
        """Whether a build.json entry (a file: `kind`; a measured text: `piece`) is one this build replaces: of an
        output it built (a file that is a version of another kind's, `of`, needs that builder too), in languages
        and on a paper it built, or holding a language the game no longer has."""
        made_by = [entry.get(key), *([entry["of"]] if key == "kind" and "of" in entry else [])]
        if not self.every_output and not all(kind in self.kinds for kind in made_by):
            return False
        langs = file_langs(str(entry.get("lang", "")))
        if any(lang not in self.game_langs for lang in langs):
            return True  # no build makes it again
        if self.langs is not None and not all(lang in self.langs for lang in langs):
            return False
        return self.papers is None or "paper" not in entry or entry["paper"] in self.papers

    def covers_lang(self, lang: str) -> bool:
        """Whether the build made this language's files, or no build makes them any more."""
        return self.langs is None or lang in self.langs or lang not in self.game_langs

    def removable(self, path: object) -> bool:
        """A name the builders run write, and nothing else: no hidden file or folder, no build.json, no folder but
        one a declared name holds (`ink-saver/<file>`)."""
        if not isinstance(path, str) or "\\" in path:
            return False
        parts = path.split("/")
        return (
            all(part and not part.startswith(".") for part in parts)
            and parts[-1] != REPORT_FILE.name
            and any(file.matches(path) for file in self.files)
        )


def build_scope(context: BuildContext) -> Scope:
    """What this build of the game replaces in the previous one (see Scope)."""
    options = context.options
    every_paper = set(options.papers) >= set(PAPERS)
    papers = {*options.papers, *([options.board_paper] if options.board_paper else [])}
    return Scope(
        kinds=frozenset(kind for output in context.outputs for kind in output.reports),
        every_output=options.outputs is None,
        langs=None if options.languages == "all" else frozenset(context.langs),
        game_langs=frozenset(context.game.languages),
        papers=None if every_paper else frozenset(papers),
        files=tuple(file for output in context.outputs for file in output.files),
    )


def carry_over(report: dict[str, Any], previous: dict[str, Any], scope: Scope) -> dict[str, Any]:
    """build.json after this build: this build's files and findings, and the previous build.json's of what lay
    outside the scope (their files are still there). Untranslated strings of a language this build covered for
    every output are this build's; for some outputs only, the union: a string another output printed in the source
    language stays listed until that output is built again."""

    def kept(entries: object, key: str) -> list[dict[str, Any]]:
        entries = entries if isinstance(entries, list) else []
        return [entry for entry in entries if isinstance(entry, dict) and not scope.covers(entry, key)]

    untranslated = previous.get("untranslated")
    merged = {
        lang: list(strings)
        for lang, strings in (untranslated.items() if isinstance(untranslated, dict) else ())
        if isinstance(strings, list)
        and lang in scope.game_langs
        and not (scope.every_output and scope.covers_lang(lang))
    }
    for lang, strings in report["untranslated"].items():
        known = {entry.get("id") for entry in merged.get(lang, []) if isinstance(entry, dict)}
        merged.setdefault(lang, []).extend(entry for entry in strings if entry["id"] not in known)
    written = {entry["path"] for entry in report["files"]}
    return {
        **report,
        "files": [entry for entry in kept(previous.get("files"), "kind") if entry.get("path") not in written]
        + report["files"],
        "overflows": kept(previous.get("overflows"), "piece") + report["overflows"],
        "shrunk": kept(previous.get("shrunk"), "piece") + report["shrunk"],
        "low_resolution": kept(previous.get("low_resolution"), "piece") + report.get("low_resolution", []),
        "untranslated": merged,
    }


def stale_files(previous: dict[str, Any], report: dict[str, Any], scope: Scope, out_dir: Path) -> list[str]:
    """The files the previous build listed within this build's scope that this one did not write, and that are
    in out_dir as files (not links): an aid renamed, a language dropped, a deck that needs fewer volumes. Only
    names the builders write: pnpgen writes no other."""
    written = {entry["path"] for entry in report["files"]}
    listed = previous.get("files")
    return sorted(
        {
            entry["path"]
            for entry in (listed if isinstance(listed, list) else [])
            if isinstance(entry, dict)
            and scope.covers(entry)
            and entry.get("path") not in written
            and scope.removable(entry.get("path"))
            and regular_file(out_dir, entry["path"])
        }
    )


def regular_file(folder: Path, path: str) -> bool:
    """Whether folder/path is a file, reached through no link (neither it nor a folder on the way is one)."""
    try:
        *inner, name = path.split("/")
        for part in inner:
            folder = folder / part
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                return False
        return stat.S_ISREG(os.lstat(folder / name).st_mode)
    except OSError:
        return False


def report_untranslated(context: BuildContext) -> None:
    """Report, per language, the strings printed in the source language (no translation yet): one problem
    of the build per language (so --strict fails), then the first strings by name."""
    game = context.game
    for lang, strings in context.untranslated.items():
        if not strings:
            continue
        flagged = context.flagged.get(lang, 0)
        context.problems.add(
            Problem(
                game.files["game"],
                None,
                f"{game.id}: {lang}: {len(strings)} text(s) have no {lang} translation and are "
                f"printed in {game.source_language}"
                + (f"; {flagged} card(s) carry the corner flag" if flagged else ""),
            ),
            "untranslated",
        )
        for string_id in list(strings)[:SHOWN_UNTRANSLATED]:
            context.progress.warn(f"  {strings[string_id]}: {string_id}")
        if len(strings) > SHOWN_UNTRANSLATED:
            context.progress.warn(
                f"  ... and {len(strings) - SHOWN_UNTRANSLATED} more: all in build.json; translate "
                f"them with `pnpgen i18n export {game.id} --lang {lang}`"
            )
