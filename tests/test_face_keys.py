"""Face cache keys name what a face reads by its content, not by where the game's folder is: a copied game
takes every face and document from the cache, and a face that reads a changed file is rendered again."""

import io
import re
import shutil

import pypdfium2 as pdfium
from PIL import Image

from generator.render.reads import DocumentReads
from test_images import RULES  # a rule sheet with the figure plan.png


def svg(colour: str) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        f'<rect x="1" y="1" width="8" height="8" fill="{colour}"/></svg>\n'
    )


def png(colour: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 20), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def with_pictures(game):
    """An icon written by `icon()` (its absolute URL), a frame named by a relative URL in the stylesheet, and a
    figure on the rule sheet (a document read against the game's own folder)."""
    templates = game / "templates"
    (templates / "icons").mkdir()
    (templates / "icons" / "star.svg").write_text(svg("#1565c0"), encoding="utf-8")
    (templates / "frame.svg").write_text(svg("#2e7d32"), encoding="utf-8")
    with (templates / "style.css").open("a", encoding="utf-8") as css:
        css.write('\n.frame { background: url("frame.svg") no-repeat 0 0 / 12mm 12mm; }\n')
    card = templates / "card.html"
    card.write_text(card.read_text(encoding="utf-8") + "{{ icon('star', '9mm') }}\n", encoding="utf-8")
    (game / "rules.yaml").write_text(RULES, encoding="utf-8")
    (game / "plan.png").write_bytes(png("#c62828"))


def build(cli, game, out, *extra):
    result = cli("build", game, "--out", out, "--paper", "a4", "--lang", "en", "--jobs", "1", *extra)
    assert result.code == 0, result
    return result


def rendered(result) -> tuple[int, int]:
    """(faces rendered, rule sheets rendered), as the build says."""
    faces = re.search(r"faces from the cache, (\d+) rendered", result.err)
    rules = re.search(r"rule sheets \(\d+ from the cache, (\d+) rendered", result.err)
    return int(faces.group(1)), int(rules.group(1))


def pixels(path) -> list[bytes]:
    document = pdfium.PdfDocument(str(path))
    try:
        return [page.render(scale=50 / 72).to_pil().convert("L").tobytes() for page in document]
    finally:
        document.close()


def same_pages(first, second) -> bool:
    return all(pixels(first / name) == pixels(second / name) for name in ("cards-en-a4.pdf", "rules-en-a4.pdf"))


def copied(game, out, tmp_path):
    """The game copied to another folder, its cache seeded with the original's."""
    copy = tmp_path / "elsewhere" / game.name
    shutil.copytree(game, copy)
    shutil.copytree(out / ".cache", tmp_path / "out-copy" / ".cache")
    return copy, tmp_path / "out-copy"


def test_a_copied_game_takes_every_face_and_rule_sheet_from_the_cache(small_game, tmp_path, cli):
    with_pictures(small_game)
    out = tmp_path / "out"
    assert rendered(build(cli, small_game, out)) != (0, 0)
    copy, copy_out = copied(small_game, out, tmp_path)
    assert rendered(build(cli, copy, copy_out)) == (0, 0)
    assert same_pages(out / "small", copy_out / "small")


def test_a_copy_whose_pictures_differ_renders_the_faces_that_show_them(small_game, tmp_path, cli):
    """Same names, same templates, other pictures: the faces and the rule sheet are rendered again, and print
    what a build without the cache prints."""
    with_pictures(small_game)
    out = tmp_path / "out"
    build(cli, small_game, out)
    copy, copy_out = copied(small_game, out, tmp_path)
    (copy / "templates" / "icons" / "star.svg").write_text(svg("#f9a825"), encoding="utf-8")
    (copy / "plan.png").write_bytes(png("#6a1b9a"))
    faces, rules = rendered(build(cli, copy, copy_out))
    # every front shows the icon (the backs do not); the rule sheet laid out again, with its Letter layout, which
    # decides whether the A4 edition takes a cover (render_editions)
    assert faces >= 3 and rules == 2
    build(cli, copy, tmp_path / "cold", "--no-cache")
    assert same_pages(copy_out / "small", tmp_path / "cold" / "small")
    assert not same_pages(copy_out / "small", out / "small")


def test_a_picture_named_only_by_the_stylesheet_edited_in_place_is_printed_new(small_game, tmp_path, cli):
    with_pictures(small_game)
    out = tmp_path / "out"
    build(cli, small_game, out)
    before = pixels(out / "small" / "cards-en-a4.pdf")
    (small_game / "templates" / "frame.svg").write_text(svg("#ff6f00"), encoding="utf-8")
    faces, _ = rendered(build(cli, small_game, out))
    assert faces >= 3
    assert pixels(out / "small" / "cards-en-a4.pdf") != before
    build(cli, small_game, tmp_path / "cold", "--no-cache")
    assert pixels(out / "small" / "cards-en-a4.pdf") == pixels(tmp_path / "cold" / "small" / "cards-en-a4.pdf")


def folder_with(tmp_path, name, files):
    folder = tmp_path / name / "templates"
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    return folder


def key_text(folder, text):
    base = folder.resolve().as_uri() + "/"
    return DocumentReads(base).key_text(text.replace("BASE/", base))


FILES = {
    "style.css": '@import "more.css";\n.a { background: url(a.png) }',
    "more.css": ".b { background: url('pics/b.svg#part') }",
    "pics/b.svg": '<svg xmlns="http://www.w3.org/2000/svg"><image href="c.png" width="4" height="4"/></svg>',
    "pics/c.png": "c",
    "a.png": "a",
    "d.png": "d",
    "e&f.png": "e",
}
DOCUMENT = '<link rel="stylesheet" href="style.css"><img src="BASE/d.png"><img src=d.png?v=2><img src="e&amp;f.png">'


def test_a_key_follows_the_files_named_and_the_files_they_name_not_the_folder(tmp_path):
    here = folder_with(tmp_path, "here", FILES)
    assert key_text(here, DOCUMENT) == key_text(folder_with(tmp_path, "there", FILES), DOCUMENT)
    for changed in FILES:  # each file is read: directly, through the stylesheet, through the SVG
        assert key_text(here, DOCUMENT) != key_text(folder_with(tmp_path, changed, {**FILES, changed: "x"}), DOCUMENT)
    unnamed = folder_with(tmp_path, "unnamed", {**FILES, "e.png": "e"})
    assert key_text(unnamed, DOCUMENT) == key_text(here, DOCUMENT)  # a file nothing names is not read
    missing = key_text(here, DOCUMENT + '<img src="later.png">')
    (here / "later.png").write_text("now", encoding="utf-8")
    assert key_text(here, DOCUMENT + '<img src="later.png">') != missing  # a file added where one was missing


def test_a_key_reads_nothing_a_document_may_not_read(tmp_path, monkeypatch):
    outside = tmp_path / "secret.txt"
    outside.write_text("one", encoding="utf-8")
    here = folder_with(tmp_path, "here", {"a.png": "a"})
    document = f'<img src="{outside.as_uri()}"><img src="a.png">'
    first = key_text(here, document)
    outside.write_text("two", encoding="utf-8")
    assert key_text(here, document) == first  # not opened: the renderer refuses it (render/fetch.py)
    reads = DocumentReads(here.resolve().as_uri() + "/")
    assert reads.parts(document) == {reads.part((here / "a.png").resolve().as_uri())}
