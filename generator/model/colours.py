"""Colours as the data may mix them: a board's `=tint(card.colour)`, and the renderer's own tints of a line."""

from __future__ import annotations

from tinycss2.color3 import parse_color


def rgb(colour: str) -> tuple[float, float, float] | None:
    """A CSS colour's red, green and blue (0 to 1), or None for one without them (transparent)."""
    parsed = parse_color(colour or "")
    if parsed is None or not hasattr(parsed, "alpha") or parsed.alpha == 0:
        return None
    return (parsed.red, parsed.green, parsed.blue)


def tint(colour: str, amount: float = 0.8) -> str:
    """The colour mixed with white (amount 1 is white, 0 the colour itself)."""
    if not isinstance(colour, str) or parse_color(colour) is None:
        raise ValueError(f"{colour!r} is not a colour like #2f5d62")
    if isinstance(amount, bool) or not isinstance(amount, (int, float)) or not 0 <= amount <= 1:
        raise ValueError(f"the amount of white is a number from 0 to 1, not {amount!r}")
    mixed = rgb(colour)
    if mixed is None:
        return "#ffffff"
    return "#" + "".join(f"{round((c + (1 - c) * amount) * 255):02x}" for c in mixed)
