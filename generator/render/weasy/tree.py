"""Reading WeasyPrint's layout tree: the few ways into it, in one place (see internals.py for the list).

After `render()`, a WeasyPrint page holds its laid-out boxes in the private `page._page_box`; absolutely
positioned boxes sit in their parents' children behind an `AbsolutePlaceholder` holding the real box as
`_box`; a box's kind is its class (LineBox, TextBox, InlineBox, MarginBox...), which this project compares
by name so that nothing imports WeasyPrint's layout modules.
"""

from __future__ import annotations


def page_box(page):
    """The root box of a rendered page (a weasyprint Page)."""
    return page._page_box


def unwrap(box):
    """The box itself, for a placeholder left where an absolutely positioned box was taken out of the flow."""
    return getattr(box, "_box", box)


def descendants(box):
    """The box, then every box below it in document order, placeholders replaced by their boxes."""
    for item in box.descendants(placeholders=True):
        yield unwrap(item)


def kind(box) -> str:
    """The box's class name: 'LineBox', 'TextBox', 'InlineBox', 'MarginBox', 'BlockBox'..."""
    return type(box).__name__


def document_root(html):
    """The root element of a weasyprint.HTML (or SharedFonts) not laid out yet: what its layouts are made from."""
    return getattr(html, "html", html).etree_element
