"""The structure tree of a sheet PDF whose faces are tagged PDFs (a player aid): a screen reader reads the aid.

A face page becomes a form XObject placed on the sheet (sheet_writer.py), which drops the face document's
structure tree. `SheetStructure` carries it over: the first placement of each face gets a copy of the face
page's structure elements, their marked content found in the form (`/MCR` with `/Stm`, the form's
`/StructParents` in the parent tree); further copies of the same face (an aid printed four times) are drawn
from a twin of the form without marked content, as artifacts, like the crop marks: the text is read once.
"""

from __future__ import annotations

import pikepdf

# entries of a face's structure element kept on the sheet; /A is kept but for a figure's /BBox (face coordinates)
KEPT = ("/Lang", "/Alt", "/ActualText", "/E", "/T", "/ID")


class SheetStructure:
    """The structure tree of one sheet PDF, made from the tagged face documents given (open pikepdf PDFs)."""

    def __init__(self, pdf: pikepdf.Pdf, sources: list[pikepdf.Pdf]):
        self.pdf = pdf
        self.sources = [source for source in sources if "/StructTreeRoot" in source.Root]
        self.document: pikepdf.Dictionary | None = None
        self.read: set[tuple[int, int, int]] = set()  # (source, object, generation) of each face page read
        self.twins: dict[tuple[int, int, int], pikepdf.Object] = {}

    def source_of(self, page: pikepdf.Page) -> int | None:
        """Which tagged face document the page is in, if any."""
        return next((i for i, source in enumerate(self.sources) if page.obj.is_owned_by(source)), None)

    def placement(self, page: pikepdf.Page, form: pikepdf.Object) -> tuple[pikepdf.Object, bool]:
        """The form to draw for this placement of a face page, and whether it is read (else an artifact)."""
        source = self.source_of(page)
        if source is None:
            return form, False
        key = (source, *page.obj.objgen)
        if key not in self.read:
            self.read.add(key)
            return form, True
        if key not in self.twins:
            self.twins[key] = self.pdf.make_indirect(without_marked_content(self.pdf, form))
        return self.twins[key], False

    def adopt(self, page: pikepdf.Page, form: pikepdf.Object, sheet: pikepdf.Object) -> None:
        """Copy the face page's structure elements under the sheet's document element, reading their marked
        content from `form` drawn on the sheet page `sheet`."""
        source = self.sources[self.source_of(page) or 0]
        document = self._document()
        face_lang = source.Root.get("/Lang")
        by_mcid: dict[int, pikepdf.Object] = {}
        for element in _top_elements(source, page):
            copy = self._copy(element, document, form, sheet, by_mcid)
            if "/Lang" not in copy and face_lang is not None:
                copy.Lang = pikepdf.String(str(face_lang))
            document.K.append(copy)
        if by_mcid:
            root = self.pdf.Root.StructTreeRoot
            key = int(root.ParentTreeNextKey)
            form.StructParents = key
            parents = pikepdf.Array([by_mcid.get(mcid) for mcid in range(max(by_mcid) + 1)])
            root.ParentTree.Nums.extend(pikepdf.Array([key, self.pdf.make_indirect(parents)]))
            root.ParentTreeNextKey = key + 1

    def _document(self) -> pikepdf.Dictionary:
        if self.document is None:
            root = self.pdf.make_indirect(
                pikepdf.Dictionary(
                    Type=pikepdf.Name.StructTreeRoot,
                    ParentTree=self.pdf.make_indirect(pikepdf.Dictionary(Nums=pikepdf.Array())),
                    ParentTreeNextKey=0,
                )
            )
            self.document = self.pdf.make_indirect(
                pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.Document, P=root, K=pikepdf.Array())
            )
            root.K = pikepdf.Array([self.document])
            self.pdf.Root.StructTreeRoot = root
            self.pdf.Root.MarkInfo = pikepdf.Dictionary(Marked=True)
        return self.document

    def _copy(self, element, parent, form, sheet, by_mcid: dict) -> pikepdf.Object:
        copy = self.pdf.make_indirect(
            pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=element.S, P=parent, Pg=sheet, K=pikepdf.Array())
        )
        for key in KEPT:
            if key in element:
                copy[key] = self.pdf.copy_foreign(element[key]) if element[key].is_indirect else element[key]
        attributes = element.get("/A")
        if isinstance(attributes, pikepdf.Dictionary) and "/BBox" not in attributes:
            copy.A = pikepdf.Dictionary(dict(attributes.items()))
        for kid in _kids(element):
            if isinstance(kid, int) or (isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == "/MCR"):
                mcid = int(kid) if isinstance(kid, int) else int(kid.MCID)
                copy.K.append(pikepdf.Dictionary(Type=pikepdf.Name.MCR, MCID=mcid, Stm=form, Pg=sheet))
                by_mcid[mcid] = copy
            elif isinstance(kid, pikepdf.Dictionary) and kid.get("/Type", pikepdf.Name.StructElem) == "/StructElem":
                copy.K.append(self._copy(kid, copy, form, sheet, by_mcid))
            # an /OBJR (a link's annotation) stays behind: a face's annotations are not placed on sheets
        return copy


def _kids(element) -> list:
    kids = element.get("/K")
    if kids is None:
        return []
    return list(kids) if isinstance(kids, pikepdf.Array) else [kids]


def _top_elements(source: pikepdf.Pdf, page: pikepdf.Page) -> list:
    """The face page's elements directly under its document's root element(s), in reading order."""
    found = []
    for top in _kids(source.Root.StructTreeRoot):
        for element in _kids(top) if top.get("/S") == "/Document" else [top]:
            on_page = isinstance(element, pikepdf.Dictionary) and "/Pg" in element
            if on_page and element.Pg.objgen == page.obj.objgen:
                found.append(element)
    return found


def without_marked_content(pdf: pikepdf.Pdf, form: pikepdf.Object) -> pikepdf.Stream:
    """A copy of a form XObject whose marked-content sequences that name structure (MCID) are unwrapped: the
    same drawing, read by nothing."""
    kept, opened = [], []
    for instruction in pikepdf.parse_content_stream(form):
        operator = str(instruction.operator)
        if operator == "BDC":
            properties = instruction.operands[1]
            opened.append(isinstance(properties, pikepdf.Dictionary) and "/MCID" in properties)
            if opened[-1]:
                continue
        elif operator == "BMC":
            opened.append(False)
        elif operator == "EMC" and opened and opened.pop():
            continue
        kept.append(instruction)
    twin = pikepdf.Stream(pdf, pikepdf.unparse_content_stream(kept))
    for key, value in form.items():
        if key not in ("/Length", "/Filter", "/DecodeParms", "/StructParents"):
            twin[key] = value
    return twin
