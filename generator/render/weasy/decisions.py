"""What the typesetting passes decided for each block of a document, remembered by the block's content so that a
layout of the same document with a few blocks changed decides again only for those.

The passes that set a document's lines (short last lines squeezed, pushed or joined, words kept whole, long
phrases opened: lastlines.py, phrases.py) decide paragraph by paragraph from that paragraph's own lines, which
depend on its text and its column, not on the blocks around it. They run once what concerns the whole document
is settled (the furigana, and the last-page pass, which may set the whole text smaller); from there on, a block
(an element of class `block` with an id: a rule sheet's block) whose markup as written, place in the document
(the elements around it, what CSS may select it by), document head (stylesheets, page size) and root attributes
(the text's size the last-page pass chose among them) are what they were when the passes last ran on it ends
up set as it was then. So at that point each such block is given its markup after the passes and left alone by
them (its elements marked done in their states), and only the other blocks go through them: a document with one
edited paragraph is laid out once or twice more, not once per pass. The document is the one a layout without
memory makes: every decision before that point is made as without it, and each remembered block's lines are the
ones its passes would have found again.

Blocks holding `data-fit` boxes (their shrinking is kept per layout) are not remembered. The decisions travel as
plain strings (the main process keeps them sealed, render/rulebook.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree

BLOCK_CLASS = "block"
DECISIONS_VERSION = "2"  # part of every key: a change to what a pass decides forgets what was remembered


@dataclass
class BlockDecisions:
    """The markup of each block after the passes: `known` from an earlier layout (block key -> markup), `found`
    filled by this one, `reused` how many known ones it took."""

    known: dict[str, str] = field(default_factory=dict)
    found: dict[str, str] = field(default_factory=dict)
    reused: int = 0
    _root: Any = None
    _written: dict[int, tuple[Any, str]] = field(default_factory=dict)  # element id -> (block, its key as written)
    _applied: bool = False
    _states: tuple = ()
    _chosen: list = field(default_factory=list)  # (block, its markup after the passes) to put in
    _replaced: list = field(default_factory=list)

    def start(self, root) -> None:
        """Note each block of the document rooted at `root` as written (before any pass changes it)."""
        self._root = root
        self._written = {id(element): (element, key) for element, key in block_keys(root)}

    def apply(self, last_lines: dict, opened: dict, aligned: set) -> None:
        """Once, when the passes that set lines are about to run on a layout: mark every element of each block
        known done in the passes' states, so that they set only the other blocks; `put_in` then gives the known
        blocks their markup."""
        if self._applied:
            return
        self._applied = True
        self._states = (last_lines, opened, aligned)
        self._chosen = [(element, markup) for element, key in self._keys() if (markup := self.known.get(key))]
        for element, _ in self._chosen:
            self._done(element)
        self.reused = len(self._chosen)

    def put_in(self) -> bool:
        """Give each known block its markup after the passes (its elements done too); True when one changed."""
        chosen, self._chosen = self._chosen, []
        changed = False
        for element, markup in chosen:
            if markup_of(element) != markup:
                self._replaced.extend(element.iter())  # kept alive: their ids stay in the states
                _replace_content(element, ElementTree.fromstring(markup))
                self._done(element)
                changed = True
        return changed

    def _done(self, block) -> None:
        from generator.render.weasy.lastlines import DONE, WORD_PASSES
        from generator.render.weasy.phrases import CHARACTERS

        last_lines, opened, aligned = self._states
        for inner in block.iter():
            last_lines[id(inner)] = DONE
            last_lines[(id(inner), "words")] = WORD_PASSES
            opened[id(inner)] = CHARACTERS
            aligned.add(id(inner))

    def record(self) -> None:
        """Every block's markup after the passes, by its key."""
        for element, key in self._keys():
            if not any(inner.get("data-fit") for inner in element.iter()):
                self.found[key] = markup_of(element)

    def _keys(self) -> list[tuple[Any, str]]:
        """Each block with its key: as written, with the root's attributes now (a tightened text's size)."""
        root = repr(sorted(self._root.attrib.items())) if self._root is not None else ""
        return [
            (element, hashlib.sha256(f"{key}\0{root}".encode()).hexdigest()) for element, key in self._written.values()
        ]


def block_keys(root) -> list[tuple[Any, str]]:
    """(element, key) of each block under root: its markup, where it stands (the elements around it, their
    classes and languages, first or last of their siblings: what CSS may select it by) and the document's head
    and root attributes."""
    head = next((child for child in root if str(child.tag).endswith("head")), None)
    context = hashlib.sha256(DECISIONS_VERSION.encode())
    context.update(repr(sorted(root.attrib.items())).encode())
    if head is not None:
        context.update(markup_of(head).encode())
    parents = {id(child): parent for parent in root.iter() for child in parent}
    found = []
    for element in root.iter():
        if BLOCK_CLASS not in (element.get("class") or "").split() or not element.get("id"):
            continue
        digest = context.copy()
        digest.update(_place(element, parents).encode())
        digest.update(markup_of(element).encode())
        found.append((element, digest.hexdigest()))
    return found


def _place(element, parents: dict) -> str:
    steps = []
    while id(element) in parents:
        parent = parents[id(element)]
        siblings = list(parent)
        first, last = siblings[0] is element, siblings[-1] is element
        steps.append(f"{element.tag}.{element.get('class')}:{element.get('lang')}:{first}:{last}")
        element = parent
    return "/".join(steps)


def markup_of(element) -> str:
    """The element and its content, without the text that follows it."""
    tail, element.tail = element.tail, None
    try:
        return ElementTree.tostring(element, encoding="unicode")
    finally:
        element.tail = tail


def _replace_content(element, new) -> None:
    element.attrib.clear()
    element.attrib.update(new.attrib)
    element.text = new.text
    element[:] = list(new)
