"""CJK fonts embedded with the glyphs a document uses, and no others.

WeasyPrint embeds a CFF font (Noto Sans and Serif CJK) as an OpenType file subset with HarfBuzz's "retain
glyph ids": glyph n of the subset is glyph n of the font, so the PDF's text can name glyphs by their ids. Every
id below the highest one used stays, empty, with its advance widths and an entry in the CFF's glyph index.
English text in Noto CJK uses digits at ids from 63153 (the font's default digits for Latin text), so a card
face with one digit on it carried a 690 KB font program, twice with bold text, compressed to 240 KB: 98% of
its file and about half the time to write it (subsetting and compressing 63,000 empty glyphs).

Noto CJK's CFF is CID-keyed: its charset names each glyph by a CID, and here the CID of glyph n is n. A
subset of only the used glyphs keeps each one's CID in the charset, and a PDF font can embed the bare CFF
(FontFile3, subtype CIDFontType0C) whose glyphs are then found by CID, the glyph id WeasyPrint writes. That
is the PDF's own form for CID-keyed CFF (PDF 32000-1, 9.9), read the same by PDFium, Poppler, Ghostscript and
MuPDF (measured: the same pixels as WeasyPrint's embedding); the OpenType wrapper is not: PDFium and Poppler
take an OpenType CFF's CIDs as glyph ids, so the wrapper must keep the ids.

A font whose CFF is not CID-keyed, or whose CIDs are not its glyph ids, is embedded as WeasyPrint does.
"""

from __future__ import annotations

EMBEDDING = "compact-cff-1"  # part of the face cache keys: faces cached with other font files are made again
CFF_TAG = b"CFF "
CFF_SUBTYPE = "/CIDFontType0C"  # FontFile3's subtype for a bare CID-keyed CFF

ROS, CHARSET, CHARSTRINGS = (12, 30), (15,), (17,)  # Top DICT operators (CFF spec, table 9)


def embed_compact_fonts() -> None:
    """Subset CID-keyed CFF fonts to their used glyphs and embed them as bare CFF (see the module's doc)."""
    from weasyprint.pdf import fonts as pdf_fonts

    original_subset = pdf_fonts.Font._harfbuzz_subset
    if getattr(original_subset, "compact", False):
        return

    def harfbuzz_subset(font, to_unicode, hinting):
        cff = compact_cff(font, sorted(to_unicode), hinting) if CFF_TAG.decode() in font.tables else None
        if cff is None:
            return original_subset(font, to_unicode, hinting)
        font.file_content = cff
        font.compact_cff = True

    original_type = pdf_fonts.Font.type

    def font_type(font) -> str:
        """'otf' for a bare CFF too: WeasyPrint then writes FontFile3 and CIDFontType0, as for its OpenType CFF."""
        return "otf" if font.__dict__.get("compact_cff") else original_type.fget(font)

    harfbuzz_subset.compact = True  # type: ignore[attr-defined]  # attributes set on a function object
    harfbuzz_subset.__wrapped__ = original_subset  # type: ignore[attr-defined]  # what internals.py checks
    pdf_fonts.Font._harfbuzz_subset = harfbuzz_subset
    pdf_fonts.Font.type = property(font_type)
    _label_bare_cff_streams()


def _label_bare_cff_streams() -> None:
    """Give the font file streams of bare CFF fonts their subtype: WeasyPrint labels every CFF font /OpenType."""
    import weasyprint.pdf as pdf_module
    from weasyprint.pdf import fonts as pdf_fonts

    original_build = pdf_fonts.build_fonts_dictionary

    def build_fonts_dictionary(pdf, fonts, compress, subset, options):
        first = len(pdf.objects)
        dictionary = original_build(pdf, fonts, compress, subset, options)
        bare = {id(font.file_content) for font in fonts.values() if font.__dict__.get("compact_cff")}
        for obj in pdf.objects[first:]:
            if getattr(obj, "stream", None) and id(obj.stream[0]) in bare and obj.extra.get("Subtype") == "/OpenType":
                obj.extra["Subtype"] = CFF_SUBTYPE
        return dictionary

    build_fonts_dictionary.__wrapped__ = original_build  # type: ignore[attr-defined]  # what internals.py checks
    pdf_fonts.build_fonts_dictionary = build_fonts_dictionary
    pdf_module.build_fonts_dictionary = build_fonts_dictionary


def compact_cff(font, glyphs: list[int], hinting: bool) -> bytes | None:
    """The font's CFF subset to these glyphs (and .notdef, and the glyphs HarfBuzz adds), or None when it cannot
    be embedded bare: not CID-keyed, CIDs other than the glyph ids, or HarfBuzz failing (WeasyPrint's own
    subset then runs, and warns)."""
    from weasyprint.text.ffi import ffi, harfbuzz
    from weasyprint.text.ffi import harfbuzz_subset as hb

    if not cids_are_glyph_ids(font):
        return None
    kept = sorted({0, *glyphs})
    request = ffi.gc(hb.hb_subset_input_create_or_fail(), hb.hb_subset_input_destroy)
    _add_sorted(ffi, harfbuzz, hb.hb_subset_input_glyph_set(request), kept)
    flags = hb.HB_SUBSET_FLAGS_DESUBROUTINIZE | hb.HB_SUBSET_FLAGS_NO_LAYOUT_CLOSURE  # the PDF names shaped glyphs
    if not hinting:
        flags |= hb.HB_SUBSET_FLAGS_NO_HINTING
    if font.missing:
        flags |= hb.HB_SUBSET_FLAGS_NOTDEF_OUTLINE
    hb.hb_subset_input_set_flags(request, flags)
    dropped = hb.hb_subset_input_set(request, hb.HB_SUBSET_SETS_DROP_TABLE_TAG)
    others = (tag.encode("latin-1") for tag in font.tables if tag != CFF_TAG.decode())
    _add_sorted(ffi, harfbuzz, dropped, sorted(harfbuzz.hb_tag_from_string(tag, -1) for tag in others))
    face = hb.hb_subset_or_fail(font.hb_face, request)
    if face == ffi.NULL:
        return None
    cff = _read_cff(ffi.gc(face, harfbuzz.hb_face_destroy), bytes)
    try:
        cids = glyph_cids(cff)
    except (IndexError, ValueError):  # not a CFF this reader knows: WeasyPrint's embedding
        return None
    return cff if cids is not None and set(kept) <= set(cids) else None


def cids_are_glyph_ids(font) -> bool:
    """Whether the font's CFF is CID-keyed with the CID of each glyph its glyph id (Noto CJK's is)."""
    try:
        return _read_cff(font.hb_face, _identity_charset)
    except (IndexError, ValueError):  # not a CFF this reader knows
        return False


def _read_cff(face, read):
    """read(the face's CFF table), the table read in place: a CJK font's is 15-25 MB."""
    from weasyprint.text.ffi import ffi, harfbuzz

    blob = harfbuzz.hb_face_reference_table(face, harfbuzz.hb_tag_from_string(CFF_TAG, -1))
    try:
        length = ffi.new("unsigned int *")
        data = harfbuzz.hb_blob_get_data(blob, length)
        return read(memoryview(ffi.buffer(data, length[0])) if length[0] else memoryview(b""))
    finally:
        harfbuzz.hb_blob_destroy(blob)


def glyph_cids(cff) -> list[int] | None:
    """The CID of each glyph of a CID-keyed CFF (its charset), or None when the font is not CID-keyed."""
    ranges = _charset_ranges(cff)
    return None if ranges is None else [0, *(cid for first, count in ranges for cid in range(first, first + count))]


def _identity_charset(cff) -> bool:
    ranges = _charset_ranges(cff)
    if ranges is None:
        return False
    glyph = 1
    for first, count in ranges:
        if first != glyph:
            return False
        glyph += count
    return True


def _charset_ranges(cff) -> list[tuple[int, int]] | None:
    """The charset of a CID-keyed CFF as runs (first CID, glyphs) from glyph 1 on, or None when the font is not
    CID-keyed (charset formats 0, 1 and 2)."""
    _, after_names = _index(cff, cff[2])  # the header's size, then the Name INDEX
    top_dicts, _ = _index(cff, after_names)
    top = _dict(top_dicts[0])
    if ROS not in top or CHARSET not in top or CHARSTRINGS not in top:
        return None
    at = int(top[CHARSTRINGS][0])
    left = int.from_bytes(cff[at : at + 2], "big") - 1  # glyphs after .notdef
    at = int(top[CHARSET][0])
    kind, at = cff[at], at + 1
    if kind not in (0, 1, 2):
        raise ValueError(f"charset format {kind}")
    ranges = []
    while left > 0:
        first = int.from_bytes(cff[at : at + 2], "big")
        if kind == 0:
            count, at = 1, at + 2
        else:
            size = kind  # the count's bytes: 1 in format 1, 2 in format 2
            count, at = int.from_bytes(cff[at + 2 : at + 2 + size], "big") + 1, at + 2 + size
        count = min(count, left)
        ranges.append((first, count))
        left -= count
    return ranges


def _index(cff: bytes, at: int) -> tuple[list[bytes], int]:
    """The items of the CFF INDEX at `at`, and where the data after it starts."""
    count = int.from_bytes(cff[at : at + 2], "big")
    if count == 0:
        return [], at + 2
    size = cff[at + 2]
    offsets_at = at + 3
    offsets = [
        int.from_bytes(cff[offsets_at + i * size : offsets_at + (i + 1) * size], "big") for i in range(count + 1)
    ]
    data_at = offsets_at + (count + 1) * size - 1  # offsets count from 1
    return [cff[data_at + offsets[i] : data_at + offsets[i + 1]] for i in range(count)], data_at + offsets[-1]


def _dict(data: bytes) -> dict[tuple[int, ...], list[float]]:
    """A CFF DICT: operator (one byte, or 12 and a second) to its operands."""
    entries: dict[tuple[int, ...], list[float]] = {}
    operands: list[float] = []
    at = 0
    while at < len(data):
        b0 = data[at]
        if b0 <= 21:
            operator = (12, data[at + 1]) if b0 == 12 else (b0,)
            entries[operator], operands = operands, []
            at += len(operator)
        elif b0 == 28:
            operands.append(int.from_bytes(data[at + 1 : at + 3], "big", signed=True))
            at += 3
        elif b0 == 29:
            operands.append(int.from_bytes(data[at + 1 : at + 5], "big", signed=True))
            at += 5
        elif b0 == 30:  # a real: nibbles up to the one that ends it (0xf); its value is not needed here
            at += 1
            while data[at] & 0x0F != 0x0F and data[at] >> 4 != 0x0F:
                at += 1
            operands.append(0.0)
            at += 1
        elif b0 <= 246:
            operands.append(b0 - 139)
            at += 1
        elif b0 <= 250:
            operands.append((b0 - 247) * 256 + data[at + 1] + 108)
            at += 2
        elif b0 <= 254:
            operands.append(-(b0 - 251) * 256 - data[at + 1] - 108)
            at += 2
        else:
            raise ValueError(f"DICT byte {b0}")
    return entries


def _add_sorted(ffi, harfbuzz, target, values: list[int]) -> None:
    array = ffi.new(f"hb_codepoint_t[{len(values)}]", values)
    harfbuzz.hb_set_add_sorted_array(target, array, len(values))
