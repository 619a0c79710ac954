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


def write_report(
    out_dir: Path,
    game: Game,
    files: list[dict],
    fits: Sequence[CardFit] = (),
    untranslated: dict[str, dict[str, str]] | None = None,
) -> None:
    report = {
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
    write_atomic(out_dir / REPORT_FILE.name, json.dumps(report, ensure_ascii=False, indent=2) + "\n")


def previous_entries(out_dir: Path) -> dict[str, dict]:
    """The files the last build wrote here, by path (nothing when there is no readable build.json)."""
    try:
        report = json.loads((out_dir / REPORT_FILE.name).read_text(encoding="utf-8"))
        return {entry["path"]: entry for entry in report.get("files", []) if isinstance(entry, dict)}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


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
