"""Sheet PDFs written by pikepdf: each distinct face page becomes one form XObject, placed as often as it is
printed; the file is saved with its title, language and the lowest PDF version its content needs.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence

import pikepdf

from generator.render.lighten import Lightener
from generator.render.paper import MM, Rect, pdf_number
from generator.render.sheet_pages import SheetPage, sheet_pages
from generator.render.sheet_plan import CopyGroup, SheetOptions
from generator.render.sheet_tags import SheetStructure


class SheetWriter:
    """Builds a sheet PDF: each distinct face becomes one form XObject, placed as often as needed. A writer
    with `light` prints the faces light (the ink-saving version, render/lighten.py), never the sheet's texts.
    Given the tagged face documents (`tagged_sources`, open PDFs), the sheet is tagged too: the structure of
    each face is read once, everything else on the sheet (copies, marks, texts) is an artifact (sheet_tags.py)."""

    def __init__(self, light: bool = False, tagged_sources: list[pikepdf.Pdf] | None = None) -> None:
        self.pdf = pikepdf.new()
        self._forms: dict[int, tuple[pikepdf.Object, list]] = {}
        self._pictures: dict[bytes, pikepdf.Object] = {}  # each picture written once: its content -> its stream
        self._shared: set[tuple[int, int]] = set()  # the picture streams already looked at
        self.lightener = Lightener() if light else None
        self.structure = SheetStructure(self.pdf, tagged_sources) if tagged_sources else None

    def form(self, page: pikepdf.Page, face: bool = True) -> tuple[pikepdf.Object, list]:
        key = id(page)
        if key not in self._forms:
            # as_form_xobject keeps only the TrimBox: widen it to the bleed first so the bleed survives
            page.obj.TrimBox = page.obj.get("/BleedBox", page.mediabox)
            form = self.pdf.copy_foreign(page.as_form_xobject())
            self._share_pictures(form, set())
            if face and self.lightener is not None:
                self.lightener.form(form)
            self._forms[key] = (form, [float(v) for v in form.BBox])
        return self._forms[key]

    def _share_pictures(self, form: pikepdf.Object, seen: set) -> None:
        """Point the form at the picture streams already in the file that hold the same picture: faces rendered in
        different documents (batches, decks) each carry their own copy of a picture they share."""
        resources = form.get("/Resources")
        drawn = resources.get("/XObject") if resources is not None else None
        if drawn is None or form.objgen in seen:
            return
        seen.add(form.objgen)
        for name in list(drawn.keys()):
            item = drawn[name]
            if item.get("/Subtype") == "/Form":
                self._share_pictures(item, seen)
            elif item.get("/Subtype") == "/Image" and item.objgen not in self._shared:
                known = self._pictures.setdefault(picture_content(item), item)
                if known.objgen != item.objgen:
                    drawn[name] = known  # the copy goes unwritten: nothing else refers to it
                else:
                    self._shared.add(item.objgen)  # faces of one document share its resources: read once

    def add_page(
        self,
        paper: tuple[float, float],
        placements: list[tuple],
        overlay: str = "",
        boxes: tuple[Rect, ...] | None = None,
        furniture: Sequence[pikepdf.Page] = (),
    ) -> None:
        """Placements are (page, rect, rotated) or (page, rect, rotated, clip rect). `furniture`: pages of the
        paper's size drawn over them (the sheet's texts). `boxes` (trim, bleed) become the page's TrimBox and
        BleedBox: for a page that holds one trimmed item."""
        resources = pikepdf.Dictionary()
        content = []
        names: dict[int, str] = {}
        read = []  # (face page, form) whose structure this page carries
        whole = Rect(0, 0, *paper)
        for page, at, rotate, *clip in [*placements, *((page, whole, False) for page in furniture)]:
            form, bbox = self.form(page, face=not any(page is texts for texts in furniture))
            drawn = place
            if self.structure is not None:
                form, is_read = self.structure.placement(page, form)
                read += [(page, form)] if is_read else []
                drawn = place if is_read else artifact(place)
            name = names.setdefault(id(form), f"/F{len(names)}")
            resources[name] = form
            content.append(drawn(name, bbox, at, rotate, clip[0] if clip else None))
        content.append(overlay if self.structure is None or not overlay.strip() else f"/Artifact BMC\n{overlay}\nEMC\n")
        sheet = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=pikepdf.Array([0, 0, paper[0] * MM, paper[1] * MM]),
            Resources=pikepdf.Dictionary(XObject=resources),
            Contents=self.pdf.make_stream("".join(content).encode("ascii")),
        )
        if boxes is not None:
            sheet.TrimBox, sheet.BleedBox = (pdf_box(rect) for rect in boxes)
        self.pdf.pages.append(pikepdf.Page(sheet))
        if self.structure is not None:
            sheet = self.pdf.pages[-1].obj
            sheet.Tabs = pikepdf.Name.S  # annotations, if any, in structure order
            for page, form in read:
                self.structure.adopt(page, form, sheet)


def picture_content(image: pikepdf.Object) -> bytes:
    """What decides how a picture stream prints: its encoded samples, its dictionary and its soft mask's."""
    digest = hashlib.sha256(image.read_raw_bytes())
    digest.update(repr(sorted((str(k), str(v)) for k, v in image.items() if k not in ("/Length", "/SMask"))).encode())
    mask = image.get("/SMask")
    if mask is not None:
        digest.update(picture_content(mask))
    return digest.digest()


def artifact(draw):
    """`draw` wrapped as an artifact: drawn on the sheet, read by nothing (a further copy of a face)."""
    return lambda *args: f"/Artifact BMC\n{draw(*args)}EMC\n"


def place(name: str, bbox, at: Rect, rotate: bool = False, clip: Rect | None = None) -> str:
    """Content stream that draws form XObject `name` so its bbox fills `at` (optionally turned 180°).

    With `clip`, only the part inside that rectangle of the paper is drawn (a tile of a board).
    Where `at` is larger or smaller than the bbox, the form is scaled to fill it (a page map)."""
    x0, y0, x1, y1 = (float(v) for v in bbox)
    if clip is not None:
        corner = f"{pdf_number(clip.x * MM)} {pdf_number(clip.y * MM)}"
        box = f"{corner} {pdf_number(clip.w * MM)} {pdf_number(clip.h * MM)} re W n "
        return f"q {box}{place(name, bbox, at, rotate).strip()} Q\n"
    scale = at.w * MM / (x1 - x0)
    if abs(scale - 1) > 1e-3:
        return (
            f"q {pdf_number(scale)} 0 0 {pdf_number(scale)} "
            f"{pdf_number(at.x * MM - x0 * scale)} {pdf_number(at.y * MM - y0 * scale)} cm "
            f"{name} Do Q\n"
        )
    if rotate:
        return f"q -1 0 0 -1 {pdf_number(at.x * MM + x1)} {pdf_number(at.y * MM + y1)} cm {name} Do Q\n"
    return f"q 1 0 0 1 {pdf_number(at.x * MM - x0)} {pdf_number(at.y * MM - y0)} cm {name} Do Q\n"


def pdf_box(rect: Rect) -> pikepdf.Array:
    return pikepdf.Array([round(v * MM, 4) for v in (rect.x, rect.y, rect.right, rect.top)])


def write_pages(writer: SheetWriter, pages: list[SheetPage], furniture: list[list] | None = None, face=None) -> int:
    """Add the pages to the writer, each with its paper-size pages of printed texts when given. `face` turns
    what the placements name into a page (a face key read back from the face cache) when they name no page."""
    for index, page in enumerate(pages):
        placements = list(page.placements) if face is None else [(face(what), *rest) for what, *rest in page.placements]
        writer.add_page(page.paper, placements, page.overlay, page.boxes, furniture[index] if furniture else ())
    return len(pages)


def impose_deck(
    writer: SheetWriter,
    card: tuple[float, float],
    bleed: float,
    copies: list[tuple[pikepdf.Page, pikepdf.Page | None]],
    options: SheetOptions,
) -> int:
    """Place every copy of one deck (front page, back page or None) on sheets; return pages added."""
    group = CopyGroup(card, bleed, [(front, back, "") for front, back in copies])
    return write_pages(writer, sheet_pages([group], options))


def needed_version(pdf: pikepdf.Pdf) -> str:
    """The lowest PDF version with the features the file uses: OpenType font programs need 1.6,
    transparency (groups, soft masks, constant alpha, blend modes) 1.4."""
    version = "1.3"
    for obj in pdf.objects:
        if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            continue
        if obj.get("/Subtype") == "/OpenType":
            return "1.6"
        group = obj.get("/Group")
        if (
            (isinstance(group, pikepdf.Dictionary) and group.get("/S") == "/Transparency")
            or ("/SMask" in obj and obj.get("/SMask") != "/None")
            or any(key in obj and float(obj[key]) < 1 for key in ("/CA", "/ca"))
            or obj.get("/BM") not in (None, "/Normal", "/Compatible")
        ):
            version = "1.4"
    return version


def one_orientation(pdf: pikepdf.Pdf) -> None:
    """Turn the pages of a sheet file (cards, tokens, boards, aids; not a document read on screen, like the
    print-and-play file's guide) laid out the other way than most of the file's (`/Rotate 90`; a tie: portrait),
    so that a printer driver set for one orientation prints every page: a sheet and its back turn alike, and the
    back stays behind its front for the same flip."""
    sizes = [[float(v) for v in page.mediabox] for page in pdf.pages]
    landscape = [box[2] - box[0] > box[3] - box[1] for box in sizes]
    most = sum(landscape) > len(landscape) / 2
    for page, wide in zip(pdf.pages, landscape):
        if wide != most:
            page.obj.Rotate = 90


def save_pdf_bytes(pdf: pikepdf.Pdf, title: str, lang: str) -> bytes:
    """The file as written: its title and language (`/Lang`, what a screen reader and a viewer's title bar
    use) and the header version its content needs."""
    pdf.docinfo["/Title"] = title
    pdf.docinfo["/Creator"] = "pnpgen"
    pdf.Root.Lang = pikepdf.String(lang.split("+")[0])  # a bilingual file: its first language
    pdf.Root.ViewerPreferences = pikepdf.Dictionary(DisplayDocTitle=True)
    buffer = io.BytesIO()
    pdf.save(buffer, deterministic_id=True, force_version=needed_version(pdf))
    return buffer.getvalue()
