"""generator.render.weasy.patches: WeasyPrint with prebuilt C declarations, deferred font copies, fonts subset in
parallel, inline styles shared and hyphenation patterns cached renders the same bytes as the plain import."""

from __future__ import annotations

import ast
import io
import json
import os
import pickle
import re
import subprocess
import sys

import pikepdf
import pypdfium2
import pytest

from conftest import run_subprocess
from generator import fsutil
from generator.render.weasy import patches

RENDER = """
import dataclasses, json, os, sys
from generator.render.weasy import internals, patches
for name in filter(None, os.environ.get("BREAK", "").split(",")):  # as if WeasyPrint had moved a name it relies on
    index = next(index for index, entry in enumerate(internals.INTERNALS)
                 if entry.patch == name and entry.kind not in internals.LAYOUT_KINDS)
    entry = internals.INTERNALS[index]
    internals.INTERNALS[index] = dataclasses.replace(entry, module=entry.module + "_moved")
weasyprint = patches.load()
html = ('<html lang="ja"><style>@page :first { @bottom-center { content: "1 / 2" } }</style>'
        '<body style="font-family: Noto Sans CJK JP">'
        '<p>カードを1枚引く。Draw one card.</p><p style="font-weight: bold">報酬 Reward</p>'
        '<p style="font-family: Noto Serif CJK JP">明朝 serif</p><p style="font-weight: bold">報酬 again</p>'
        '<div style="position: absolute; left: 3mm; top: 9mm"><b style="font-weight: bold">絶対 Absolute</b></div>'
        '<div style="position: absolute; left: 3mm; top: 9mm"><i>italic</i></div>'
        '<p lang="en" style="font-family: DejaVu Serif; font-style: italic">TrueType italic</p>'
        '<p style="break-before: page">2</p>'
        '<p lang="en" style="width: 12mm; hyphens: auto">Hyphenation, extraordinarily, characteristically</p>'
        '</body></html>')
sys.stdout.buffer.write(weasyprint.HTML(string=html).write_pdf())
print(json.dumps({"pycparser": "pycparser" in sys.modules,
                  "parallel": getattr(weasyprint.pdf.build_fonts_dictionary, "subsets_in_parallel", False),
                  "compact": getattr(weasyprint.pdf.fonts.Font._harfbuzz_subset, "compact", False),
                  "deferred": type(weasyprint.pdf.fonts.Font.__dict__.get("file_content")).__name__,
                  "shared": getattr(weasyprint.css.find_style_attributes, "shares_inline_styles", False),
                  "margins": getattr(weasyprint.layout.make_margin_boxes, "skips_empty_margin_boxes", False),
                  "hyphenation": getattr(sys.modules["pyphen"].HyphDict, "cached", False),
                  "fontTools.subset": "fontTools.subset" in sys.modules,
                  "active": sorted(patches.ACTIVE)}),
      file=sys.stderr)
"""


def render(tmp_path, **env):
    pdf, state, _ = render_warned(tmp_path, **env)
    return pdf, state


def render_warned(tmp_path, **env):
    """The sample's PDF, the state of the patches, and the warnings printed."""
    result = subprocess.run(
        [sys.executable, "-c", RENDER],
        capture_output=True,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONFAULTHANDLER": "1", **env},
    )
    crash = result.stderr.decode(errors="replace")[-3000:]  # a crash's stack (PYTHONFAULTHANDLER)
    assert result.returncode == 0, (result.returncode, crash)
    lines = result.stderr.decode().strip().splitlines()
    return result.stdout, json.loads(lines[-1]), [line for line in lines if line.startswith("warning:")]


ALL_PATCHES = sorted(patch.name for patch in patches.SPEED_PATCHES)


def test_prebuilt_declarations_and_deferred_fonts_render_the_same_bytes(tmp_path):
    plain, plain_state = render(tmp_path, PNPGEN_PLAIN_WEASYPRINT="1")
    assert plain_state == {
        "pycparser": True,
        "deferred": "NoneType",
        "parallel": False,
        "compact": True,
        "shared": False,
        "margins": False,
        "hyphenation": False,
        "fontTools.subset": True,
        "active": [],
    }
    render(tmp_path)  # builds the cached declarations module and the English hyphenation patterns
    assert list((tmp_path / "pnpgen" / "ffi").glob("_pnpgen_ffi_*.sealed"))
    assert list((tmp_path / "pnpgen" / "hyphenation").glob("hyph_en_*.pickle"))
    fast, fast_state = render(tmp_path)
    # the C text not parsed again, whole font files not copied, the fonts subset side by side (CJK fonts embedded
    # with their used glyphs only, plain or not), the repeated style attributes computed once, margin boxes made on
    # the first page only (its footer), the hyphenation patterns read from the cache: the same hyphens;
    # fontTools' subsetter never imported
    assert fast_state == {
        "pycparser": False,
        "deferred": "_FileContent",
        "parallel": True,
        "compact": True,
        "shared": True,
        "margins": True,
        "hyphenation": True,
        "fontTools.subset": False,
        "active": ALL_PATCHES,
    }
    assert fast == plain
    assert fast.startswith(b"%PDF") and len(fast) > 1000


def test_a_speed_patch_whose_check_fails_is_left_off_with_one_warning_and_the_same_pdf(tmp_path):
    """After an upgrade that moved a name a speed patch relies on: that patch off, the others on, one warning
    naming it and what to do, and the PDF byte for byte the plain one."""
    plain, _, quiet = render_warned(tmp_path, PNPGEN_PLAIN_WEASYPRINT="1")
    assert quiet == []  # switched off is no failure
    pdf, state, warnings = render_warned(tmp_path, BREAK="no-empty-margin-boxes")
    assert state["active"] == [name for name in ALL_PATCHES if name != "no-empty-margin-boxes"]
    assert state["margins"] is False
    assert len(warnings) == 1
    assert "speed patch 'no-empty-margin-boxes'" in warnings[0]
    assert "weasyprint.layout_moved" in warnings[0]  # what failed its check
    assert (
        "pnpgen is tested with (weasyprint<71,>=70)" in warnings[0]
        and "PNPGEN_PLAIN_WEASYPRINT=no-empty-margin-boxes" in warnings[0]
    )
    assert pdf == plain


def test_every_speed_patch_left_off_by_its_check_gives_the_plain_pdf(tmp_path):
    plain, _ = render(tmp_path, PNPGEN_PLAIN_WEASYPRINT="1")
    pdf, state, warnings = render_warned(tmp_path, BREAK=",".join(ALL_PATCHES))
    assert state["active"] == [] and state["pycparser"] and state["fontTools.subset"]
    assert [re.search(r"speed patch '([a-z-]+)'", warning)[1] for warning in warnings] == ALL_PATCHES
    assert pdf == plain


def test_a_prebuilt_declarations_module_that_cannot_be_built_is_not_passed_over_in_silence(tmp_path):
    """The cache cannot be written (here: its folder is a file): WeasyPrint's own import, and one warning."""
    plain, _ = render(tmp_path, PNPGEN_PLAIN_WEASYPRINT="1")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    pdf, state, warnings = render_warned(blocked)
    assert state["pycparser"] is True and "prebuilt-ffi" not in state["active"]
    assert len(warnings) == 1 and "speed patch 'prebuilt-ffi'" in warnings[0] and "not-a-folder" in warnings[0]
    assert pdf == plain


def test_the_switch_names_the_patches_it_leaves_off(tmp_path):
    _, state, warnings = render_warned(tmp_path, PNPGEN_PLAIN_WEASYPRINT="hyphenation-cache, shared-fonts")
    assert state["active"] == [name for name in ALL_PATCHES if name not in ("hyphenation-cache", "shared-fonts")]
    assert warnings == []
    _, state, warnings = render_warned(tmp_path, PNPGEN_PLAIN_WEASYPRINT="hyphenation")
    assert state["active"] == ALL_PATCHES
    assert len(warnings) == 1 and "names no speed patch 'hyphenation'" in warnings[0]


def test_a_damaged_or_planted_declarations_module_is_built_again_never_run(tmp_path):
    good, _ = render(tmp_path)
    (module,) = (tmp_path / "pnpgen" / "ffi").glob("_pnpgen_ffi_*.sealed")
    marker = tmp_path / "ran"
    planted = f"open({str(marker)!r}, 'w').close()\nraise ImportError('planted')\n"
    for text in ("damaged", planted, module.read_text(errors="replace").split("\n", 1)[0] + "\n" + planted):
        module.write_text(text)  # damaged; a module as the cache once held; the same, after a sealed entry's header
        pdf, _ = render(tmp_path)
        assert pdf == good
        assert not marker.exists()
        assert b"_cffi_backend" in module.read_bytes()  # built again
    _, state = render(tmp_path)
    assert state["pycparser"] is False


def test_hyphenation_patterns_come_back_from_the_cache_as_parsed_and_a_damaged_entry_is_parsed_again(
    tmp_path, monkeypatch
):
    import pyphen

    patches.load()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = pyphen.LANGUAGES[pyphen.language_fallback("en")]
    parsed = pyphen.HyphDict.__wrapped__(path)  # what pyphen parses itself
    stored = pyphen.HyphDict(path)  # parsed, and stored
    (entry,) = (tmp_path / "pnpgen" / "hyphenation").glob("hyph_en_*.pickle")
    assert pickle.loads(fsutil.read_sealed_entry(entry)) == (parsed.patterns, parsed.maxlen)
    cached = pyphen.HyphDict(path)  # read back
    assert (cached.patterns, cached.maxlen) == (stored.patterns, stored.maxlen) == (parsed.patterns, parsed.maxlen)
    assert cached.positions("hyphenation") == parsed.positions("hyphenation") == [2, 6, 7]  # hy-phen-a-tion
    marker = tmp_path / "ran"
    planted = pickle.dumps(Planted(marker))
    for damaged in (b"damaged", planted, fsutil.SEALED + b"\0" * fsutil.MAC_BYTES + planted):
        entry.write_bytes(damaged)
        again = pyphen.HyphDict(path)
        assert again.patterns == parsed.patterns
        assert not marker.exists()  # the planted pickle was never loaded
        assert entry.read_bytes() != damaged  # stored again


class Planted:
    """A pickle that makes a file when loaded, as a hostile cache entry would run any code."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def test_a_deferred_import_gives_the_real_module_when_used():
    deferred = patches._Deferred("fontTools.subset")
    import fontTools.subset

    assert deferred.Options is fontTools.subset.Options
    instancer = patches._Deferred("fontTools.varLib.instancer")
    instantiate = instancer.instantiateVariableFont  # what `from ... import` takes: called later
    from fontTools.ttLib import TTFont

    with pytest.raises(ValueError, match="fvar"):  # the real function ran: a static font has no axes
        instantiate(TTFont(), {})


def test_split_declarations_takes_the_single_cdef_only():
    source = "import cffi\nffi = cffi.FFI()\nffi.cdef('''int f(int);''')\nlib = ffi.dlopen('c')\n"
    declarations, tree = patches.split_declarations(ast.parse(source))
    assert declarations == "int f(int);"
    assert [type(node).__name__ for node in tree.body] == ["Import", "Assign"]
    twice = source + "ffi.cdef('int g(int);')\n"
    assert patches.split_declarations(ast.parse(twice)) is None
    computed = "import cffi\nffi = cffi.FFI()\nffi.cdef(TEXT)\n"
    assert patches.split_declarations(ast.parse(computed)) is None


def test_whole_font_bytes_are_read_once_and_only_when_asked():
    reads = []

    class Font:
        file_content = patches._FileContent()

    font = Font()
    font.file_content = patches._WholeFont(lambda: reads.append(1) or b"OTTO...")
    assert reads == []
    assert font.file_content[:4] == b"OTTO"
    assert font.file_content == b"OTTO..." and reads == [1]
    font.file_content = b"subset"
    assert font.file_content == b"subset"


def test_elements_with_the_same_style_attribute_share_their_declarations():
    """The same parsed declarations: what lets WeasyPrint compute their style once."""
    weasyprint = patches.load()
    html = weasyprint.HTML(
        string='<body><p style="color: red">a</p><p style="color: red">b</p>'
        '<p style="color: blue">c</p><p style="color:red">d</p><p lang="en">e</p></body>'
    )
    found = {
        element.text: declarations
        for specificity, element, declarations, _ in weasyprint.css.find_style_attributes(html.etree_element)
        if specificity == patches.STYLE_ATTRIBUTE_SPECIFICITY
    }
    assert found["a"] is found["b"]
    assert found["c"] is not found["a"] and found["d"] is not found["a"]  # another text: parsed on its own
    assert set(found) == {"a", "b", "c", "d"}


def test_margin_boxes_are_made_where_a_rule_gives_them_content():
    weasyprint = patches.load()
    html = weasyprint.HTML(
        string='<style>@page { size: 60mm 60mm } @page :first { @bottom-right { content: "one" } }'
        '@page :left { @top-center { content: "left" } }</style>'
        '<p>a</p><p style="break-before: page">b</p><p style="break-before: page">c</p>'
    )
    pages = html.render().pages
    margin = [
        [box.at_keyword for box in page._page_box.children if type(box).__name__ == "MarginBox"] for page in pages
    ]
    assert margin == [["@bottom-right"], ["@top-center"], []]


def test_documents_sharing_the_font_configuration_render_what_each_renders_alone():
    """One FontConfiguration for the process: the same bytes as a configuration of its own, and a document that
    adds a font (@font-face) is the last to share it, so the next does not see that font."""
    weasyprint = patches.load()
    english = '<html lang="en"><body style="font-family: Noto Sans CJK JP"><h1>Title</h1><p>Draw a card.</p>'
    japanese = '<html lang="ja"><body style="font-family: Noto Serif CJK JP"><p>カードを1枚引く。</p>'
    named = '<html><body style="font-family: Added"><p>Which font?</p>'
    dejavu = "file:///usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    adds = f"<style>@font-face {{ font-family: Added; src: url({dejavu}) }}</style>"

    def alone(html):
        return weasyprint.HTML(string=html).render().write_pdf()

    def shared(html):
        return patches.SharedFonts(weasyprint.HTML(string=html)).render().write_pdf()

    def fonts(pdf):
        with pikepdf.open(io.BytesIO(pdf)) as opened:
            found = [obj for obj in opened.objects if isinstance(obj, pikepdf.Dictionary) and "/BaseFont" in obj]
            return {str(obj.BaseFont).split("+")[-1] for obj in found}

    patches.font_configuration.cache_clear()
    first = patches.font_configuration()
    assert [shared(html) for html in (english, japanese, english)] == [alone(english), alone(japanese), alone(english)]
    assert patches.font_configuration() is first  # one configuration for those three
    with_font = shared(adds + named)
    assert with_font == alone(adds + named) and fonts(with_font) == {"Added"}
    assert patches.font_configuration() is not first  # dropped: it holds the added font
    assert shared(named) == alone(named) and fonts(shared(named)) == {"DejaVu-Sans"}  # the fallback, not Added


BREAK_AT_START = """
import dataclasses
from generator.render.weasy import internals

index = next(index for index, entry in enumerate(internals.INTERNALS) if entry.patch == "no-empty-margin-boxes")
entry = internals.INTERNALS[index]
internals.INTERNALS[index] = dataclasses.replace(entry, module=entry.module + "_moved")
"""


@pytest.mark.slow
def test_a_build_with_a_speed_patch_left_off_warns_once_and_prints_the_same_pages(small_game, tmp_path):
    """`pnpgen build` as a user runs it (a fork server preloading WeasyPrint, two render workers, the command):
    a speed patch whose check fails after an upgrade is named in one warning in all, and every page of every
    PDF has the pixels and the text of the build without the speed patches."""
    breaking = tmp_path / "breaking"
    breaking.mkdir()
    (breaking / "sitecustomize.py").write_text(BREAK_AT_START)  # run by every Python process of the build
    outputs = {}
    for name, env in (("plain", {"PNPGEN_PLAIN_WEASYPRINT": "1"}), ("broken", {"PYTHONPATH": str(breaking)})):
        out = tmp_path / name
        before = dict(os.environ)
        os.environ.update(env, XDG_CACHE_HOME=str(tmp_path / "cache"))
        try:
            result = run_subprocess("build", small_game, "--out", out, "--no-cache", "--jobs", "2", "--quiet")
        finally:
            os.environ.clear()
            os.environ.update(before)
        assert result.code == 0, result.err
        outputs[name] = (out, [line for line in result.err.splitlines() if line.startswith("warning:")])
    assert outputs["plain"][1] == []
    (warning,) = outputs["broken"][1]
    assert "speed patch 'no-empty-margin-boxes'" in warning
    pdfs = sorted(path.relative_to(outputs["plain"][0]) for path in outputs["plain"][0].rglob("*.pdf"))
    assert pdfs and pdfs == sorted(
        path.relative_to(outputs["broken"][0]) for path in outputs["broken"][0].rglob("*.pdf")
    )
    for pdf in pdfs:
        pages = [pypdfium2.PdfDocument(outputs[name][0] / pdf) for name in ("plain", "broken")]
        assert len(pages[0]) == len(pages[1])
        for plain_page, broken_page in zip(pages[0], pages[1], strict=True):
            assert plain_page.get_textpage().get_text_range() == broken_page.get_textpage().get_text_range()
            images = [page.render(scale=50 / 72).to_pil().tobytes() for page in (plain_page, broken_page)]
            assert images[0] == images[1], f"{pdf}: a page differs"
