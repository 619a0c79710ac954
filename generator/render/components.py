"""The box contents list (内容物 / Components), from components.yaml and the decks."""

from __future__ import annotations

import csv
import io

from generator.model.game import Game

HEADINGS = {
    "ja": {"title": "内容物", "name": "内容", "count": "数", "note": "備考", "in_play": "{n}人で使う数"},
    "en": {"title": "Components", "name": "Component", "count": "Count", "note": "Notes", "in_play": "used with {n}"},
}


def component_rows(game: Game, lang: str, players: int | None = None) -> list[dict]:
    """One row per component: localized name, count, note, and the count in play at `players`."""
    fallback = game.source_language
    rows = []
    for component in game.components:
        row = {
            "id": component.id,
            "name": component.name.get(lang, fallback),
            "count": component.count,
            "note": component.note.get(lang, fallback) if component.note else "",
        }
        if players is not None:
            deck = game.decks.get(component.source[1]) if component.source and component.source[0] == "deck" else None
            row["in_play"] = deck.copies_at(players) if deck else component.count
        rows.append(row)
    return rows


def headings(lang: str) -> dict:
    return HEADINGS.get(lang, HEADINGS["en"])


def format_rows(rows: list[dict], lang: str, fmt: str, players: int | None = None) -> str:
    head = headings(lang)
    columns = ["name", "count"] + (["in_play"] if players is not None else []) + ["note"]
    titles = [head[c].format(n=players) for c in columns]
    table = [[str(row[c]) for c in columns] for row in rows]
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["id"] + columns)
        writer.writerows([[row["id"]] + [row[c] for c in columns] for row in rows])
        return buffer.getvalue()
    if fmt == "md":
        lines = [f"| {' | '.join(titles)} |", "|" + "|".join("---" for _ in titles) + "|"]
        lines += [f"| {' | '.join(cells)} |" for cells in table]
        return f"## {head['title']}\n\n" + "\n".join(lines) + "\n"
    widths = [max(display_width(t) for t in column) for column in zip(titles, *table)]
    lines = [head["title"], "  ".join(pad(t, w) for t, w in zip(titles, widths)).rstrip()]
    lines += ["  ".join(pad(c, w) for c, w in zip(cells, widths)).rstrip() for cells in table]
    return "\n".join(lines) + "\n"


def display_width(text: str) -> int:
    """Terminal columns: East Asian wide characters take two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int) -> str:
    return text + " " * (width - display_width(text))
