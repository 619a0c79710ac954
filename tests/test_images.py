"""Images are decoded, not trusted: a corrupt figure or icon stops the build with the file and where it is used."""

import io

import pytest
from PIL import Image

from generator.render.images import image_problem

RULES = """\
blocks:
  - id: goal
    type: heading
    text: {ja: 目的, en: Goal}
  - id: table-plan
    type: figure
    src: plan.png
    text: {ja: 配置図, en: The table}
"""
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>\n'


def png_bytes() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 20), "teal").save(buffer, format="PNG")
    return buffer.getvalue()


def with_figure(game, data: bytes):
    (game / "rules.yaml").write_text(RULES, encoding="utf-8")
    (game / "plan.png").write_bytes(data)


def with_icon(game, text: str):
    (game / "templates" / "icons").mkdir(exist_ok=True)
    (game / "templates" / "icons" / "star.svg").write_text(text, encoding="utf-8")
    template = game / "templates" / "card.html"
    lines = template.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(len(lines) - 1, "{{ icon('star', '5mm') }}\n")
    template.write_text("".join(lines), encoding="utf-8")
    return len(lines) - 1  # the icon's line


def build(cli, game, tmp_path):
    return cli("build", game, "--out", tmp_path / "out", "--paper", "a4", "--lang", "en", "-q", "--jobs", "1")


def test_a_corrupt_png_figure_fails_the_build_naming_the_file_and_the_rules_block(small_game, tmp_path, cli):
    with_figure(small_game, png_bytes()[:60])
    result = build(cli, small_game, tmp_path)
    assert result.code == 2, result
    assert "rules.yaml:5: blocks[table-plan].src: figure 'plan.png' cannot be decoded as an image" in result.err
    assert "Traceback" not in result.err
    assert not (tmp_path / "out" / "small").exists()  # checked before anything is written


def test_a_corrupt_svg_icon_fails_the_build_naming_the_file_and_the_template_line(small_game, tmp_path, cli):
    line = with_icon(small_game, SVG[:50])
    result = build(cli, small_game, tmp_path)
    assert result.code == 2, result
    assert f"card.html:{line}: image '" in result.err and "star.svg' is not a well-formed SVG file" in result.err
    assert "used by asset('icons/star.svg')" in result.err


def test_working_images_build(small_game, tmp_path, cli):
    with_figure(small_game, png_bytes())
    with_icon(small_game, SVG)
    assert build(cli, small_game, tmp_path).code == 0


@pytest.mark.parametrize(
    "name, data, expected",
    [
        ("a.png", png_bytes(), None),
        ("a.png", png_bytes()[:50], "cannot be decoded as an image"),
        ("a.jpg", b"\xff\xd8\xff\xe0 not really a jpeg", "cannot be decoded as an image"),
        ("a.svg", SVG.encode(), None),
        ("a.svg", b"<html><body/></html>", "is not an SVG image (its root element is <html>)"),
        ("a.svg", b"\x89PNG\r\n", "is not a well-formed SVG file"),
    ],
)
def test_image_problem_decodes_rasters_and_parses_svg(tmp_path, name, data, expected):
    path = tmp_path / name
    path.write_bytes(data)
    problem = image_problem(path)
    assert (problem is None) if expected is None else (expected in problem), problem
