"""The keys every card has (id, name, count, ...), beside the fields its deck declares: the card's schema.

The YAML loader and the spreadsheet reader (model/table/) check cards against the same schema; CARD_MODEL
makes the Card of a checked card (its declared fields go to `card.fields`) and its template view.
"""

from __future__ import annotations

from generator.model.game import DEFAULT_BLEED_MM, Card
from generator.model.schema import Bool, Field, Id, Int, ListOf, Localized, Model, Object, OneOf, Str

PLACEHOLDER = OneOf([Bool(), ListOf(Str())], expected="true, or a list of the invented fields")
PLACEHOLDER_DOC = "values invented for want of the real ones: `true`, or the list of the invented keys"
# What a deck, component, board, aid, token sheet or the game holds invented: like a card's, or in words.
INVENTED = OneOf(
    [Bool(), ListOf(Str()), Localized()],
    expected="true, a list of the invented keys, or a text {ja: ..., en: ...} saying what is invented",
)
INVENTED_DOC = (
    "values invented for want of the real ones: `true` (all of it), a list of the invented keys (`[size]`), or "
    "a text in every language saying what is invented; the rule sheet's prototype note lists them"
)
MATERIAL = Str()
MATERIAL_DOC = (
    "what it is made of, for a manufacturer's quote: `310 g/m² black-core card, linen finish` "
    "(`pnpgen components --spec` lists it)"
)
# Decks, boards, aids and token sheets print this much past their cut, each configurable with `bleed:`.
BLEED = Field(
    Int(0, 10, whole=False), default=DEFAULT_BLEED_MM, doc="mm printed past the trim on each side", attr="bleed_mm"
)
BACK = Object(
    {"template": Field(Str(), required=True, doc="the template of the back, in templates/")},
    what="back",
    doc="The card back: `{template: assets-back.html}`.",
)
CARD_KEYS = {
    "id": Field(Id(), required=True, doc="unique in the deck; names the card in references, texts and errors"),
    "name": Field(Localized(), required=True, doc="the card's name (`{card:<id>}` in texts)"),
    "count": Field(Int(0, 10000), default=1, doc="copies in the box"),
    "remove_at": Field(ListOf(Int(1, 20)), doc="player counts at which the card is taken out of the game"),
    "placeholder": Field(
        PLACEHOLDER,
        doc=PLACEHOLDER_DOC + " (templates see `card.placeholder`)",
        view_doc="`true`, or the list of its invented keys, when its values are invented for want of the real ones",
    ),
    "back": Field(BACK, doc="this card's own back, in place of the deck's", shown=False),
}
# The loader gives the declared fields, and where the card was written.
CARD_MODEL = Model(Card, CARD_KEYS, given=("fields", "deck_id", "file", "line", "index", "lines"))


CARD = Object(
    CARD_KEYS, what="card", doc="A card: these keys, then the deck's declared `fields:`, each as its declaration says."
)


def card_schema(fields: dict[str, Field]) -> Object:
    """The keys of a card: the built-in ones and the deck's declared fields."""
    return Object({**CARD_KEYS, **fields}, what=CARD.what, doc=CARD.doc)
