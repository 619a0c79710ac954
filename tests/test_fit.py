"""Text that overflows its box: measured in the layout tree, reported per language, fatal with --strict."""

import json

import pytest

from generator.render.weasy.fit import render_measured

LONG_NAME = "Extraordinarily Overlong Honeycrisp Pear of the Northern Orchards"


def plant_long_name(game):
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("en: Pear}", f"en: {LONG_NAME}}}"), encoding="utf-8")


def build(cli, game, out, *extra):
    return cli("build", game, "--out", out, "-q", "--paper", "a4", "--jobs", "1", *extra)


def test_the_scaffold_fits_and_passes_strict(cli, small_game, tmp_path):
    result = build(cli, small_game, tmp_path / "out", "--strict")
    assert result.code == 0, result
    report = json.loads((tmp_path / "out" / "small" / "build.json").read_text())
    assert report["overflows"] == [] and report["shrunk"] == []


def test_an_overlong_english_name_fails_strict_naming_the_card(cli, small_game, tmp_path):
    plant_long_name(small_game)
    result = build(cli, small_game, tmp_path / "out", "--strict")
    assert result.code == 1
    assert "cards.yaml:15: en: card 'pear' of deck 'cards', name: text overflows its 48 x 11 mm box by" in result.err
    assert "--strict: 1 text box(es) overflow" in result.err
    [overflow] = json.loads((tmp_path / "out" / "small" / "build.json").read_text())["overflows"]
    assert (overflow["lang"], overflow["cards"], overflow["field"]) == ("en", ["pear"], "name")
    assert 2 < overflow["overflow_mm"] < 12  # three lines of 11 pt in a box for two
    again = build(cli, small_game, tmp_path / "out", "--strict")  # from the face cache: still caught
    assert again.code == 1 and "card 'pear'" in again.err


def test_without_strict_an_overflow_is_a_warning(cli, small_game, tmp_path):
    plant_long_name(small_game)
    result = build(cli, small_game, tmp_path / "out")
    assert result.code == 0
    assert "warning:" in result.err and "card 'pear'" in result.err


def test_i18n_status_counts_the_overflow_for_its_string(cli, small_game, tmp_path):
    plant_long_name(small_game)
    result = cli("i18n", "status", small_game, "--json", "-q", "--jobs", "1")
    report = json.loads(result.out)
    assert report["overflow_checked"] is True
    assert report["languages"]["en"]["overflowing"] == 1 and report["languages"]["ja"]["overflowing"] == 0
    [problem] = [p for p in report["problems"] if p["kind"] == "overflow"]
    assert (problem["id"], problem["lang"], problem["owner"], problem["field"]) == (
        "cards[pear].name",
        "en",
        "pear",
        "name",
    )


def test_export_notes_the_box_size(cli, small_game, tmp_path):
    exported = tmp_path / "en.xlf"
    assert cli("i18n", "export", small_game, "--lang", "en", "-o", exported, "-q", "--jobs", "1").code == 0
    text = exported.read_text(encoding="utf-8")
    assert (
        '<trans-unit id="cards[pear].name" resname="cards[pear].name" approved="yes" maxwidth="48" '
        'maxheight="11" size-unit="mm">'
    ) in text


def test_auto_shrink_is_bounded_and_reported(cli, small_game, tmp_path):
    plant_long_name(small_game)
    template = small_game / "templates" / "card.html"
    template.write_text(template.read_text().replace('data-fit="name"', 'data-fit="name" data-shrink="70"'))
    result = build(cli, small_game, tmp_path / "out", "--strict")
    assert result.code == 0, result
    [shrunk] = json.loads((tmp_path / "out" / "small" / "build.json").read_text())["shrunk"]
    assert shrunk["cards"] == ["pear"] and 0.7 <= shrunk["scale"] < 1 and shrunk["overflow_mm"] == 0

    template.write_text(template.read_text().replace('data-shrink="70"', 'data-shrink="95"'))
    result = build(cli, small_game, tmp_path / "out", "--strict")
    assert result.code == 1 and "even at 95% font size" in result.err


@pytest.mark.parametrize("height, overflows", [("12mm", False), ("5mm", True)])
def test_measurement_compares_line_boxes_with_the_box(height, overflows):
    import weasyprint

    html = (
        f'<html><body><div data-fit="name" style="width: 30mm; height: {height}; font-size: 10pt; '
        'line-height: 1.2">two lines of some text here</div></body></html>'
    )
    _, [box] = render_measured(weasyprint.HTML(string=html))
    assert (box.field, box.width_mm, box.height_mm) == ("name", 30.0, float(height[:-2]))
    assert box.overflows is overflows
    if overflows:  # two lines of 12 pt (4.23 mm each) in 5 mm
        assert box.overflow_mm == pytest.approx(2 * 10 * 1.2 * 25.4 / 72 - 5, abs=0.3)


def _faces_document(count: int, short: set[int]) -> str:
    """A document of faces, one page each: a face of `short` ends its Japanese paragraph on a line of one
    character (21 characters in a box 10 characters wide), the others fill their lines; the last face's text
    runs past its trim."""
    faces = []
    for index in range(count):
        text = ("山川海空森" * 5)[: 21 if index in short else 20]
        spill = '<p style="position: absolute; top: 55mm; margin: 0">はみ出す文字</p>' if index == count - 1 else ""
        faces.append(
            f'<div class="face"><p style="width: 10em; margin: 0; font-size: 10pt">{index}{text[1:]}</p>{spill}</div>'
        )
    return (
        '<html lang="ja" data-cut="rect" data-safe="0" data-corner="0"><head><style>@page { size: 60mm 60mm; '
        "margin: 0 } .face { position: relative; width: 60mm; height: 60mm; page-break-after: always }"
        "</style></head><body>" + "".join(faces) + "</body></html>"
    )


def test_a_pass_lays_out_again_only_the_faces_it_changed_and_prints_what_a_whole_layout_would(monkeypatch):
    import pypdfium2 as pdfium

    from generator.render import weasy
    from generator.render.weasy import fit
    from generator.render.weasy.tree import descendants, kind, page_box

    def boxes(page):
        return descendants(page_box(page))

    weasyprint = weasy.load()
    html = _faces_document(6, short={1, 4})
    laid_out = []
    real_render = weasyprint.HTML.render

    def render(self, *args, **kwargs):
        document = real_render(self, *args, **kwargs)
        laid_out.append(sum(1 for page in document.pages if any(kind(box) == "TextBox" for box in boxes(page))))
        return document

    monkeypatch.setattr(weasyprint.HTML, "render", render)
    document, findings = render_measured(weasyprint.HTML(string=html))
    assert laid_out[0] == 6 and laid_out[1:] == [2], "after the first layout, the two short faces alone"
    monkeypatch.setattr(fit.FacePages, "of", classmethod(lambda cls, document: None))
    laid_out.clear()
    whole, whole_findings = render_measured(weasyprint.HTML(string=html))
    assert laid_out == [6, 6]
    assert [(f.page, f.kind, f.text) for f in findings] == [(f.page, f.kind, f.text) for f in whole_findings]
    assert [f.page for f in findings if f.kind == "trim"] == [5]
    pdfs = [pdfium.PdfDocument(doc.write_pdf()) for doc in (document, whole)]
    assert len(pdfs[0]) == len(pdfs[1]) == 6
    for page in range(6):
        texts = [pdf[page].get_textpage().get_text_range() for pdf in pdfs]
        assert texts[0] == texts[1] and texts[0].startswith(str(page))
        pixels = [pdf[page].render(scale=1).to_pil().tobytes() for pdf in pdfs]
        assert pixels[0] == pixels[1], f"face {page} prints differently"
    lines = [line for line in pdfs[0][1].get_textpage().get_text_range().splitlines() if line.strip()]
    assert min(len(line.replace("\u2060", "").strip()) for line in lines) > 2, lines


@pytest.mark.parametrize("lines, pages", [(20, 2), (15, 2)])
def test_a_nearly_empty_last_page_is_pulled_back(lines, pages):
    """20 lines of 9 a page leave 2 on a third page (22% of a page): set a little tighter, the text takes two;
    15 lines leave a last page two thirds full, which is kept as it is."""
    from generator.render import weasy

    body = "".join(f"<p>Line {index} of the text.</p>" for index in range(lines))
    html = (
        '<html lang="en" data-last-page-min="0.3"><head><style>@page { size: 100mm 60mm; margin: 5mm } '
        "html { font: 10pt/1.5 'DejaVu Serif' } p { margin: 0 }</style></head>"
        f"<body>{body}</body></html>"
    )
    document, _ = render_measured(weasy.load().HTML(string=html))
    assert len(document.pages) == pages


def test_a_face_whose_text_runs_over_several_pages_keeps_the_other_faces_whole_and_alone():
    """An absolutely positioned text of the first face runs far past its page (an over-long label anchored at
    its bottom): WeasyPrint carries it over to the top of the next pages. Every face keeps its own page, no text
    of the first prints on another face, and what runs past is found on the first face."""
    import pypdfium2 as pdfium

    from generator.render import weasy

    weasyprint = weasy.load()
    label = "とても長い名前" * 60
    anchored = "position: absolute; left: 1mm; right: 1mm; bottom: 2mm; margin: 0"
    faces = [f'<div class="face"><p style="{anchored}">{label}</p></div>']
    faces += [f'<div class="face"><p style="margin: 0">face {index}</p></div>' for index in range(1, 5)]
    html = (
        '<html lang="ja" data-cut="rect" data-safe="0" data-corner="0"><head><style>@page { size: 20mm 20mm; '
        "margin: 0 } .face { position: relative; width: 20mm; height: 20mm; break-after: page; font-size: 8pt }"
        "</style></head><body>" + "".join(faces) + "</body></html>"
    )
    document, findings = render_measured(weasyprint.HTML(string=html))
    pdf = pdfium.PdfDocument(document.write_pdf())
    assert len(pdf) == 5
    for page in range(1, 5):
        assert pdf[page].get_textpage().get_text_range().strip() == f"face {page}"
    past = [finding for finding in findings if finding.kind in ("trim", "cutoff")]
    assert past and {finding.page for finding in past} == {0}
