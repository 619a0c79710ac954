"""build.json (what a build wrote, measured and printed untranslated) and the untranslated summary."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from generator.build.builder import OutputFile
from generator.build.context import BuildContext
from generator.errors import Problem
from generator.fsutil import REPORT_NAME, write_atomic
from generator.model import Game
from generator.render.fit_report import CardFit

SHOWN_UNTRANSLATED = 12  # strings listed on the terminal per language; build.json has them all
REPORT_FILE = OutputFile(
    REPORT_NAME,
    "what the build wrote and found: every file (`files`) with its kind, language, paper and page count, for card "
    "sheets the decks it holds (`decks`), those on each sheet (`sheets`), its `volume` and the keys of its card "
    "faces (`face_keys`); the text found out of place (`overflows`), the text shrunk to fit (`shrunk`) and the "
    "strings printed in the source language for want of a translation (`untranslated`)",
)


def report_of(
    game: Game,
    files: list[dict],
    fits: Sequence[CardFit] = (),
    untranslated: dict[str, dict[str, str]] | None = None,
) -> dict:
    """build.json's content: the files written, the text found overflowing or shrunk, the untranslated strings."""
    return {
        "game": game.id,
        "files": files,
        "overflows": [asdict(fit) for fit in fits if fit.overflow_mm > 0],
        "shrunk": [asdict(fit) for fit in fits if fit.scale < 1],
        "untranslated": {
            lang: [{"id": string_id, "where": where} for string_id, where in strings.items()]
            for lang, strings in (untranslated or {}).items()
            if strings
        },
    }


def write_report(out_dir: Path, report: dict) -> None:
    write_atomic(out_dir / REPORT_FILE.name, json.dumps(report, ensure_ascii=False, indent=2) + "\n")


def previous_report(out_dir: Path) -> dict:
    """The build.json the last build wrote here (empty when there is none, or it cannot be read)."""
    try:
        report = json.loads((out_dir / REPORT_FILE.name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return report if isinstance(report, dict) else {}


def previous_entries(out_dir: Path) -> dict[str, dict]:
    """The files the last build wrote here, by path (nothing when there is no readable build.json)."""
    try:
        return {entry["path"]: entry for entry in previous_report(out_dir).get("files", []) if isinstance(entry, dict)}
    except (KeyError, TypeError, AttributeError):
        return {}


def carry_over(report: dict, previous: dict, rebuilt: set[str]) -> dict:
    """build.json after a build of some outputs only: the previous one's files and measured texts of the other
    outputs stay listed (their files are still there); `rebuilt` names the file kinds and pieces of those built
    now (see Builder.reports). Untranslated strings are the union: a string another output printed in the
    source language stays listed until that output is built again."""

    def kept(entries, key: str) -> list:
        entries = entries if isinstance(entries, list) else []
        return [entry for entry in entries if isinstance(entry, dict) and entry.get(key) not in rebuilt]

    untranslated = previous.get("untranslated")
    merged = {lang: list(strings) for lang, strings in untranslated.items()} if isinstance(untranslated, dict) else {}
    for lang, strings in report["untranslated"].items():
        known = {entry.get("id") for entry in merged.get(lang, []) if isinstance(entry, dict)}
        merged.setdefault(lang, []).extend(entry for entry in strings if entry["id"] not in known)
    return {
        **report,
        "files": kept(previous.get("files"), "kind") + report["files"],
        "overflows": kept(previous.get("overflows"), "piece") + report["overflows"],
        "shrunk": kept(previous.get("shrunk"), "piece") + report["shrunk"],
        "untranslated": merged,
    }


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
