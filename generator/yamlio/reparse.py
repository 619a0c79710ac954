"""A list's changed items parsed again into the document remembered for the file's older text.

Used by `remembered` for a large deck file: with a few cards edited, only those cards are parsed again.
"""

from __future__ import annotations

import bisect

from generator.yamlio.parse import fast_load
from generator.yamlio.positions import LocatedList, LocatedMap, Positions


def reparsed(old_text: str, old, text: str):
    """The document of text, from the document of old_text, parsing again only the items of a block list that
    changed (lines before them and after them are the same), and the share of the list's items that was. None
    when the change is not inside the items of one list, or the items do not parse on
    their own as items of that list: then the file is parsed in full.

    The parser's state where an unchanged item starts is the same as before (the text before it is), and the
    changed items parsed alone at their own lines and column end where the next item starts, as they must."""
    if not isinstance(old, LocatedMap):
        return None, 0
    old_lines, lines = old_text.splitlines(keepends=True), text.splitlines(keepends=True)
    first, limit = 0, min(len(old_lines), len(lines))
    while first < limit and old_lines[first] == lines[first]:
        first += 1
    same_tail = 0
    while same_tail < limit - first and old_lines[-1 - same_tail] == lines[-1 - same_tail]:
        same_tail += 1
    old_end, delta = len(old_lines) - same_tail, len(lines) - len(old_lines)
    key_lines = sorted(old.lc.data[key][0] for key in old)
    for _key, items in old.items():
        if not isinstance(items, LocatedList) or not items or not hasattr(items, "lc"):
            continue
        starts = [items.lc.data[index][0] for index in range(len(items))]
        after = next((line for line in key_lines if line > starts[-1]), len(old_lines))
        if not starts[0] <= first <= after or old_end > after:
            continue
        i = bisect.bisect_right(starts, first) - 1
        j = bisect.bisect_right(starts, max(first, old_end - 1)) - 1
        span_start, span_end = starts[i], (starts[j + 1] if j + 1 < len(starts) else after)
        column = items.lc.col
        if not all(_starts_item(old_lines, line, column) for line in (span_start, *starts[j + 1 : j + 2])):
            return None, 0
        try:
            parsed = fast_load("\n" * span_start + "".join(lines[span_start : span_end + delta]))
        except Exception:  # noqa: BLE001 - parsed in full, which says what is wrong
            return None, 0
        if parsed is None:
            parsed = LocatedList()
            parsed.lc = Positions(span_start, column)
        if (
            not isinstance(parsed, LocatedList)
            or (parsed and parsed.lc.col != column)
            or len(items) - (j + 1 - i) + len(parsed) == 0
        ):
            return None, 0
        positions = (
            [items.lc.data[k] for k in range(i)]
            + [parsed.lc.data[k] for k in range(len(parsed))]
            + [(items.lc.data[k][0] + delta, items.lc.data[k][1]) for k in range(j + 1, len(items))]
        )
        if delta:
            for item in items[j + 1 :]:
                _shift(item, delta)
            for other in old:
                if old.lc.data[other][0] >= span_end:
                    old.lc.data[other] = (old.lc.data[other][0] + delta, old.lc.data[other][1])
                    _shift(old[other], delta)
        items[i : j + 1] = parsed
        items.lc.data = dict(enumerate(positions))
        return old, max(j + 1 - i, len(parsed)) / len(items)
    return None, 0


def _starts_item(lines: list[str], line: int, column: int) -> bool:
    """Whether the line starts a block list item (`- `) at column."""
    text = lines[line] if line < len(lines) else ""
    return (
        text[:column].strip(" ") == ""
        and len(text) > column
        and text[column] == "-"
        and text[column + 1 : column + 2] in (" ", "\n", "\r", "")
    )


def _shift(node, delta: int) -> None:
    """Move a parsed value's recorded lines by delta."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return
    lc.line += delta
    lc.data = {key: (line + delta, col) for key, (line, col) in lc.data.items()}
    for child in node.values() if isinstance(node, dict) else node:
        _shift(child, delta)
