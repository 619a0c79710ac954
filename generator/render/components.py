"""The box contents list (内容物 / Components), from components.yaml and the decks."""

from __future__ import annotations

import csv
import io

from generator.model.game import Game

HEADINGS = {
    "ja": {
        "title": "内容物",
        "name": "内容",
        "count": "数",
        "note": "備考",
        "in_play": "{n}人で使う数",
        "not_printed": "印刷しません（各自で用意）",
        "invented": "仮",
        "invented_count": "{count}（{stamp}）",
        "and": "。",
    },
    "en": {
        "title": "Components",
        "name": "Component",
        "count": "Count",
        "note": "Notes",
        "in_play": "used with {n}",
        "not_printed": "not printed: use your own",
        "invented": "TBD",
        "invented_count": "{count} ({stamp})",
        "and": "; ",
    },
}
# A game's labels.yaml may word them itself: `components_not_printed`, and `tbd` (the stamp its cards carry).
OWN_LABELS = {"not_printed": "components_not_printed", "invented": "tbd"}


def component_rows(game: Game, lang: str, players: int | None = None) -> list[dict]:
    """One row per component: localized name, count, note (saying when the kit prints none of it), whether it
    is printed and whether its count or kind is invented, and the count in play at `players`."""
    fallback = game.source_language
    words = component_words(game, lang)
    rows = []
    for component in game.components:
        note = component.note.get(lang, fallback) if component.note else ""
        if not component.printed:
            note = words["and"].join(part for part in (note, words["not_printed"]) if part)
        row = {
            "id": component.id,
            "name": component.name.get(lang, fallback),
            "count": component.count,
            "note": note,
            "printed": component.printed,
            "invented": bool(component.placeholder),
        }
        if players is not None:
            deck = game.decks.get(component.source[1]) if component.source and component.source[0] == "deck" else None
            row["in_play"] = deck.copies_at(players) if deck else component.count
        rows.append(row)
    return rows


def headings(lang: str) -> dict:
    return HEADINGS.get(lang, HEADINGS["en"])


def component_words(game: Game, lang: str) -> dict:
    """pnpgen's words for the components list in lang, with the game's own labels in their place."""
    words = dict(headings(lang))
    for key, label in OWN_LABELS.items():
        text = game.labels.get(label)
        if text is not None and text.has(lang):
            words[key] = text.get(lang)
    return words


def shown_count(row: dict, words: dict) -> str:
    """A count as the list prints it: an invented one carries the stamp, 30（仮） or 30 (TBD)."""
    if not row["invented"]:
        return str(row["count"])
    return words["invented_count"].format(count=row["count"], stamp=words["invented"])


def format_rows(rows: list[dict], lang: str, fmt: str, players: int | None = None, words: dict | None = None) -> str:
    head = words or headings(lang)
    columns = ["name", "count"] + (["in_play"] if players is not None else []) + ["note"]
    titles = [head[c].format(n=players) for c in columns]
    table = [[shown_count(row, head) if c == "count" else str(row[c]) for c in columns] for row in rows]
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["id"] + columns + ["printed", "invented"])
        writer.writerows(
            [row["id"]] + [row[c] for c in columns] + [str(row["printed"]).lower(), str(row["invented"]).lower()]
            for row in rows
        )
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
