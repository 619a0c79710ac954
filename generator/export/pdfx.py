"""pdfx: one PDF/X-4 per deck, token sheet, board and aid for Japanese print shops: CMYK, 3 mm bleed, トンボ, an
output intent.

Each distinct face is one page (fronts in card order, then the backs); the manifest says which page
each card uses and how many copies to print. The face keeps its vector text and embedded fonts; its
colour is converted to CMYK through the output profile (cmyk.py). Raster images inside a face are
checked against the 350 dpi Japanese print shops ask for.
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import ImageCms

from generator.errors import InputError, Problem
from generator.export import tombo
from generator.export.cmyk import CmykConverter, ConversionError, profile_description
from generator.export.deck_images import DeckExport, deck_problem, manifest_rows, write_manifest
from generator.export.target import OptionAdder, Target
from generator.fsutil import write_atomic
from generator.model.game import Game
from generator.paths import debian
from generator.render.paper import MM
from generator.render.sheet_writer import SheetWriter

BLEED_MM = 3.0
MIN_IMAGE_DPI = 350
PDFX_VERSION = "PDF/X-4"
# Ghostscript's CMYK (SWOP) profile, AGPL: Debian's libgs-common (scripts/install-system-deps.sh installs it).
DEFAULT_PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")


def _box(rect) -> pikepdf.Array:
    return pikepdf.Array([rect.x * MM, rect.y * MM, (rect.x + rect.w) * MM, (rect.y + rect.h) * MM])


def check_bleed(deck) -> None:
    if deck.bleed_mm < BLEED_MM:
        raise deck_problem(
            deck, "bleed", f"a print shop needs {BLEED_MM:g} mm of bleed, the deck has {deck.bleed_mm:g} mm"
        )


def impose(deck: DeckExport) -> SheetWriter:
    """A page per distinct face: the face with 3 mm of bleed in the middle, トンボ around it. A deck
    with more bleed is clipped to 3 mm, so that nothing but the marks prints beyond the bleed box."""
    check_bleed(deck.deck)
    page, trim, bleed_box = tombo.page_rects(deck.deck.size_mm, BLEED_MM)
    writer = SheetWriter()
    for face in deck.faces:
        source = deck.pages[face.index]
        x0, y0, x1, y1 = (float(v) for v in source.obj.TrimBox)
        b = BLEED_MM * MM
        source.obj.BleedBox = pikepdf.Array([x0 - b, y0 - b, x1 + b, y1 + b])  # the form's clip (SheetWriter)
        writer.add_page(page, [(source, bleed_box, False)], tombo.content(trim, BLEED_MM))
        sheet = writer.pdf.pages[-1]
        sheet.obj.TrimBox = _box(trim)
        sheet.obj.BleedBox = _box(bleed_box)
    return writer


def mark_pdfx(pdf: pikepdf.Pdf, profile: Path, title: str, identity: str) -> None:
    """The output intent, and the PDF/X-4 identification in the XMP metadata and the document info."""
    icc = pdf.make_stream(profile.read_bytes())
    icc.N = 4
    icc.Alternate = pikepdf.Name.DeviceCMYK
    description = profile_description(profile)
    pdf.Root.OutputIntents = pikepdf.Array(
        [
            pikepdf.Dictionary(
                Type=pikepdf.Name.OutputIntent,
                S=pikepdf.Name.GTS_PDFX,
                OutputConditionIdentifier="Custom",
                OutputCondition=description,
                Info=description,
                RegistryName="",
                DestOutputProfile=icc,
            )
        ]
    )
    now = datetime.now(UTC).replace(microsecond=0).isoformat()
    document_id = f"uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'pnpgen:' + identity)}"
    with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
        meta["dc:title"] = title
        meta["pdfxid:GTS_PDFXVersion"] = PDFX_VERSION
        meta["pdf:Trapped"] = "False"
        meta["pdf:Producer"] = f"pnpgen with pikepdf {pikepdf.__version__}"
        meta["xmp:CreatorTool"] = "pnpgen"
        for key in ("xmp:CreateDate", "xmp:ModifyDate", "xmp:MetadataDate"):
            meta[key] = now
        meta["xmpMM:DocumentID"] = document_id
        meta["xmpMM:InstanceID"] = f"uuid:{uuid.uuid4()}"
        meta["xmpMM:VersionID"] = "1"
        meta["xmpMM:RenditionClass"] = "default"
    pdf.docinfo["/GTS_PDFXVersion"] = PDFX_VERSION
    pdf.docinfo["/Trapped"] = pikepdf.Name("/False")


def low_resolution_images(data: bytes) -> list[tuple[int, float]]:
    """(page number, dpi) of every raster image drawn at less than 350 dpi."""
    found = []
    document = pdfium.PdfDocument(data)
    try:
        for number, page in enumerate(document, start=1):
            for image in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=16):
                meta = image.get_metadata()
                dpi = min(meta.horizontal_dpi, meta.vertical_dpi)
                if dpi < MIN_IMAGE_DPI - 0.5:
                    found.append((number, dpi))
    finally:
        document.close()
    return found


def export_deck(deck: DeckExport, converter: CmykConverter, out_dir: Path, title: str, progress) -> str:
    writer = impose(deck)
    try:
        converter.convert(writer.pdf)
    except ConversionError as error:
        raise InputError(Problem(deck.deck.file, None, f"cannot convert a face to CMYK: {error}", "template")) from None
    name = f"{deck.deck.id}.pdf"
    mark_pdfx(writer.pdf, converter.profile_path, title, f"{title}/{name}")
    buffer = io.BytesIO()
    writer.pdf.save(buffer, force_version="1.6", deterministic_id=True)
    data = buffer.getvalue()
    for page, dpi in low_resolution_images(data):
        progress.warn(f"{name} page {page}: a raster image prints at {dpi:.0f} dpi, under {MIN_IMAGE_DPI}")
    write_atomic(out_dir / name, data)
    progress.say(f"{deck.deck.id}: {name}, {len(writer.pdf.pages)} CMYK pages with トンボ")
    return name


def check_profile(profile: Path) -> Path:
    """The profile, if it is a CMYK output (printer) profile; else a clear error."""
    if not profile.is_file():
        raise InputError(
            Problem(
                profile,
                None,
                "no such CMYK profile",
                hint="give your print shop's CMYK profile with --icc PATH, or install Ghostscript's"
                + (" (as root, `apt-get install libgs-common`)" if debian() else ""),
            )
        )
    try:
        header = ImageCms.getOpenProfile(str(profile)).profile
    except (ImageCms.PyCMSError, OSError) as error:
        raise InputError(Problem(profile, None, f"not an ICC profile ({error})")) from None
    if header.xcolor_space.strip() != "CMYK" or header.device_class != "prtr":
        raise InputError(
            Problem(
                profile,
                None,
                f"not a CMYK output profile (a {header.xcolor_space.strip()} '{header.device_class}' profile)",
                hint="a print shop's CMYK profile, e.g. Japan Color 2001 Coated",
            )
        )
    return profile


@dataclass(frozen=True)
class PdfxOptions:
    icc: Path = DEFAULT_PROFILE  # the print shop's CMYK output profile


def add_options(parser: OptionAdder) -> None:
    parser.add_argument(
        "--icc",
        type=Path,
        metavar="PATH",
        help="the print shop's CMYK output profile (default: SWOP from Ghostscript, installed by "
        "scripts/install-system-deps.sh)",
    )


def read_options(values: Mapping[str, Any]) -> PdfxOptions:
    return PdfxOptions(icc=values["icc"] or DEFAULT_PROFILE)


def check(game: Game, options: PdfxOptions) -> None:
    """Every deck has the bleed a print shop needs, and the profile is a CMYK output profile."""
    for deck in game.decks.values():
        check_bleed(deck)
    check_profile(options.icc)


def export_game(decks: list[DeckExport], options: PdfxOptions, out_dir: Path, progress, title: str = "") -> list[str]:
    converter = CmykConverter(check_profile(options.icc))
    files, rows = [], []
    for deck in decks:
        name = export_deck(deck, converter, out_dir, f"{title}: {deck.deck.name.get(deck.lang)}", progress)
        files.append(name)
        page_of = {face.index: number for number, face in enumerate(deck.faces, start=1)}
        rows += manifest_rows(deck, lambda face, name=name, page_of=page_of: f"{name} p{page_of[face.index]}")
    write_manifest(out_dir / "manifest.csv", rows)
    return files + ["manifest.csv"]


TARGET = Target(
    "pdfx",
    "one CMYK PDF/X-4 per deck, token sheet, board and aid with 3 mm bleed and トンボ, for Japanese print shops",
    export_game,
    add_options,
    read_options,
    check,
    piece_bleed_mm=BLEED_MM,
)
