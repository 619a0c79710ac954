"""What the typesetting passes decided for each block of a document, remembered by the block's content so that a
layout of the same document with a few blocks changed decides again only for those.

The passes that change a document's elements (short last lines squeezed, pushed or joined, words kept whole,
long phrases opened, furigana sized and aligned: lastlines.py, phrases.py, furigana.py) decide paragraph by
paragraph from that paragraph's own lines, which depend on its text and its column, not on the blocks around it.
So a block (an element of class `block` with an id: a rule sheet's block) whose markup, the document's head
(stylesheets, page size), the root's attributes and the elements around it are what they were when the passes
last ran on it ends up set as it was then: its markup after the passes is put in place before the first layout
and its elements are left alone by the passes (`freeze`), and only the other blocks go through them. A document
of one edited paragraph is then laid out once or twice rather than once per pass.

Not remembered, so decided again in full: a document the last-page pass tightened (its root font changes every
line), and blocks holding `data-fit` boxes (their shrinking is kept per layout). The last-page pass decides on
the text before its last lines are set; with blocks set from memory their lines are already set (a squeeze
takes a line out), so a document whose last page comes near either side of that decision (the pass would
tighten, or the last page is close to its threshold or nearly full, where the unset text might spill onto a
page more) forgets what it took from memory and is set in full (`settled`). The decisions travel as plain
strings (the main process keeps them sealed, render/rulebook.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree

BLOCK_CLASS = "block"
SETTLED_MARGIN = 0.25  # how far (in shares of a page's lines) the last page must be from a tightening either way
DECISIONS_VERSION = "1"  # part of every key: a change to what a pass decides forgets what was remembered


@dataclass
class BlockDecisions:
    """The markup of each block after the passes: `known` from an earlier layout (block key -> markup), `found`
    filled by this one (every block it could remember), `reused` how many known ones it took."""

    known: dict[str, str] = field(default_factory=dict)
    found: dict[str, str] = field(default_factory=dict)
    reused: int = 0
    _blocks: dict[int, tuple[Any, str]] = field(default_factory=dict)  # element id -> (element, key)
    _frozen: list = field(default_factory=list)  # (element, its own markup before the passes)

    def apply(self, root) -> None:
        """Key every block of the document rooted at `root` by what it is, and put in each one known its markup
        after the passes (before the first layout)."""
        self._blocks = {id(element): (element, key) for element, key in block_keys(root)}
        for element, key in self._blocks.values():
            markup = self.known.get(key)
            if markup is not None:
                self._frozen.append((element, markup_of(element)))
                _replace_content(element, ElementTree.fromstring(markup))
                self.reused += 1

    def freeze(self, last_lines: dict, opened: dict, aligned: set) -> None:
        """Mark every element of the blocks set from memory as done in the passes' states."""
        from generator.render.weasy.lastlines import DONE, WORD_PASSES
        from generator.render.weasy.phrases import CHARACTERS

        for block, _ in self._frozen:
            for element in block.iter():
                last_lines[id(element)] = DONE
                last_lines[(id(element), "words")] = WORD_PASSES
                opened[id(element)] = CHARACTERS
                aligned.add(id(element))

    def settled(self, document, last_lines: dict, opened: dict, aligned: set) -> bool:
        """Whether the last-page pass decides on this layout as it would on the unset text; if not, the blocks
        taken from memory are put back as they were written and the passes' states forget them (False: lay the
        document out again)."""
        from generator.render.weasy.lastpage import MIN_ATTRIBUTE, last_page_share
        from generator.render.weasy.tree import page_box

        if not self._frozen or len(document.pages) < 2:
            return True
        root = page_box(document.pages[0]).children[0].element
        try:
            minimum = float(root.get(MIN_ATTRIBUTE) or "")
        except ValueError:
            return True
        share = last_page_share(document)
        if minimum + SETTLED_MARGIN <= share <= 1 - SETTLED_MARGIN:
            return True
        for block, markup in self._frozen:
            for element in block.iter():
                for state in (last_lines, opened):
                    state.pop(id(element), None)
                last_lines.pop((id(element), "words"), None)
                aligned.discard(id(element))
            _replace_content(block, ElementTree.fromstring(markup))
        self._frozen, self.reused = [], 0
        return False

    def record(self, tightened: bool) -> None:
        """Every block's markup after the passes, unless the document was tightened as a whole."""
        if tightened:
            return
        for element, key in self._blocks.values():
            if not any(inner.get("data-fit") for inner in element.iter()):
                self.found[key] = markup_of(element)


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
