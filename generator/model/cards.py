"""The keys every card has (id, name, count, ...), beside the fields its deck declares: the card's schema.

The YAML loader and the spreadsheet reader (model/table/) check cards against the same schema.
"""
from __future__ import annotations

from generator.model.schema import Bool, Field, Id, Int, ListOf, Localized, Object, OneOf, Str

PLACEHOLDER = OneOf([Bool(), ListOf(Str())], expected="true, or a list of the invented fields")
BACK = Object({"template": Field(Str(), required=True)}, what="back")


def card_schema(fields: dict[str, Field]) -> Object:
    """The keys of a card: the built-in ones and the deck's declared fields."""
    return Object({
        "id": Field(Id(), required=True),
        "name": Field(Localized(), required=True),
        "count": Field(Int(0, 10000), default=1),
        "remove_at": Field(ListOf(Int(1, 20))),
        "placeholder": Field(PLACEHOLDER),
        "back": Field(BACK),
        **fields,
    }, what="card")
