"""A game's fonts follow its languages: on a machine without any CJK font, a Latin-only game (`languages: [en]`,
or `--lang en` of a translated game) builds in the system's Latin fonts and prints right; Japanese text is
refused before it is rendered, naming the text and the package to install for the way pnpgen was installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest

from conftest import ROOT, fonts_of, is_embedded, page_text
from generator.errors import InputError
from generator.render import fonts

DEJAVU = next(Path("/usr/share/fonts").rglob("DejaVuSans.ttf"), None)

# pnpgen as run on a machine whose only fonts are DejaVu: fontconfig told of no other folder (FONTCONFIG_FILE),
# and the Japanese font from PyPI, if this environment has it, not importable.
WITHOUT_CJK = (
    "import sys; sys.modules['noto_cjk_sans_jp_regular'] = None; from generator.cli import main; sys.exit(main())"
)


def without_cjk_fonts(tmp_path: Path, *args) -> subprocess.CompletedProcess:
    config = tmp_path / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n'
        f"  <dir>{DEJAVU.parent}</dir>\n  <cachedir>{tmp_path / 'fontconfig'}</cachedir>\n"
        '  <include ignore_missing="yes">/etc/fonts/conf.d</include>\n</fontconfig>\n'
    )
    env = {**os.environ, "FONTCONFIG_FILE": str(config), "PNPGEN_DAEMON": "0", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_CJK, *map(str, args)], cwd=tmp_path, env=env, capture_output=True, text=True
    )


ENGLISH_GAME = {
    "game.yaml": "title: {en: Orchard}\nplayers: {min: 2, max: 4}\nlanguages: [en]\nsource_language: en\n",
    "components.yaml": "components:\n  - id: cards\n    name: {en: Cards}\n    count: 4\n    deck: cards\n",
    "decks/cards.yaml": (
        "name: {en: Cards}\nsize: poker\ntemplate: card.html\nback: {template: card-back.html}\n"
        "fields:\n  value: {type: int, min: 1, max: 9, required: true}\n  text: {type: text}\n"
        "  picture: {type: image}\ncards:\n"  # the starter's card.html draws it
        "  - id: apple\n    name: {en: Apple}\n    count: 2\n    value: 1\n"
        "    picture: art/fruit.svg\n    text: {en: Draw 1 card.}\n"
        "  - id: pear\n    name: {en: Pear}\n    count: 2\n    value: 2\n    picture: art/fruit.svg\n"
        '    text: {en: "Any one player discards 1 card; naïve café owners smile."}\n'
    ),
    "art/fruit.svg": (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="red"/></svg>'
    ),
}


def cjk_fonts(pdf_path: Path) -> list[str]:
    with pikepdf.open(pdf_path) as pdf:
        found = fonts_of(pdf)
        assert found and all(is_embedded(font) for font in found)
        names = [str(font.get("/BaseFont")) for font in found]
    assert all("DejaVu" in name for name in names), names
    return [name for name in names if "CJK" in name or "Noto" in name]


def inked_where_the_text_is(pdf_path: Path, words: list[str]) -> None:
    """Each word is drawn where the PDF's text says it is: dark pixels inside its characters' boxes."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf_path))
    page = document[0]
    scale = 4
    image = page.render(scale=scale).to_pil().convert("L")
    height = page.get_height()
    text = page.get_textpage()
    content = text.get_text_range()
    for word in words:
        start = content.index(word)
        for index in range(start, start + len(word)):
            if content[index] == " ":
                continue
            left, bottom, right, top = text.get_charbox(index)
            box = image.crop((left * scale, (height - top) * scale, right * scale, (height - bottom) * scale))
            assert box.getextrema()[0] < 100, (word, content[index])  # the glyph's ink, not an empty box
    document.close()


@pytest.mark.slow
@pytest.mark.skipif(DEJAVU is None, reason="DejaVu Sans, the Latin font of a machine without CJK fonts")
def test_an_english_only_game_builds_and_prints_right_without_any_cjk_font(tmp_path):
    game = tmp_path / "orchard"
    for name, text in ENGLISH_GAME.items():
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        (game / name).write_text(text, encoding="utf-8")
    (game / "templates").mkdir()
    for name in ("card.html", "card-back.html", "style.css"):  # the templates `pnpgen new` makes
        (game / "templates" / name).write_text(new_game_template(tmp_path, name), encoding="utf-8")
    result = without_cjk_fonts(tmp_path, "build", game, "--out", tmp_path / "out", "--paper", "a4")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    pdf = tmp_path / "out" / "orchard" / "cards-en-a4.pdf"
    assert cjk_fonts(pdf) == []
    text = page_text(pdf, 0)
    assert text.count("Apple") == 2 and text.count("naïve café owners smile.") == 2, text
    inked_where_the_text_is(pdf, ["Apple", "Pear", "Draw 1 card.", "naïve café"])


def new_game_template(tmp_path: Path, name: str) -> str:
    """A template of the game `pnpgen new` makes."""
    made = tmp_path / "made"
    if not made.exists():
        subprocess.run([sys.executable, "-m", "generator", "new", made], cwd=ROOT, check=True, capture_output=True)
    return (made / "templates" / name).read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.skipif(DEJAVU is None, reason="DejaVu Sans, the Latin font of a machine without CJK fonts")
def test_the_english_build_of_a_translated_game_needs_no_cjk_font_and_the_japanese_one_says_what_to_install(
    small_game, tmp_path
):
    out = tmp_path / "out"
    english = without_cjk_fonts(tmp_path, "build", small_game, "--out", out, "--paper", "a4", "--lang", "en")
    assert english.returncode == 0, english.stderr
    pdf = out / "small" / "cards-en-a4.pdf"
    assert cjk_fonts(pdf) == []
    assert all(name in page_text(pdf, 0) for name in ("Apple", "Pear", "Grapes"))
    inked_where_the_text_is(pdf, ["Apple", "Grapes"])

    japanese = without_cjk_fonts(tmp_path, "build", small_game, "--out", out, "--paper", "a4", "--lang", "ja")
    assert japanese.returncode == 2
    assert "Traceback" not in japanese.stderr
    (line,) = japanese.stderr.strip().splitlines()[-1:]
    assert "needs a Japanese font (Noto Sans CJK), and none is installed" in line
    assert "りんご" in line  # the text that needs it
    assert fonts.pip_fonts_command() in line
    if fonts.debian():
        assert "`apt-get install fonts-noto-cjk`" in line
    assert "project's .venv" not in line and "scripts/" not in line
    assert not (out / "small" / "cards-ja-a4.pdf").exists()  # nothing printed as empty boxes


# --- the check and the hint ------------------------------------------------------------------------------------


def test_only_printed_text_needs_a_cjk_font(monkeypatch):
    monkeypatch.setattr(fonts, "cjk_font_installed", lambda: False)
    latin = (
        '<html lang="en"><head><style>/* 縦組み */ .x { content: "「" }</style></head>'
        '<body><!-- 漢字 --><p title="x" data-src="card.html:3">Naïve café — “quoted”</p></body></html>'
    )
    fonts.require_fonts_for(latin)
    with pytest.raises(InputError, match=r"the text “.*手札を1枚引く.*” needs a Japanese font") as refused:
        fonts.require_fonts_for(latin.replace("Naïve café", "Naïve café 手札を\u200b1枚引く。"))
    assert "\u200b" not in str(refused.value.problems[0])
    monkeypatch.setattr(fonts, "cjk_font_installed", lambda: True)
    fonts.require_fonts_for("<p>手札</p>")


@pytest.mark.parametrize(
    ("debian", "installed", "prefix", "expected"),
    [
        (
            True,
            True,
            "/usr",
            "as root, `apt-get install fonts-noto-cjk`; or, without root, `PY -m pip install 'pnpgen[fonts]'`",
        ),
        (False, True, "/home/me/venv", "install them with `PY -m pip install 'pnpgen[fonts]'`"),
        (
            False,
            True,
            "/home/me/.local/pipx/venvs/pnpgen",
            "install them with `pipx inject pnpgen noto-cjk-sans-jp-regular`",
        ),
        (False, False, "/src/.venv", f"install them with `PY -m pip install -e '{ROOT}[fonts]'`"),
    ],
)
def test_the_install_hint_names_the_package_for_the_way_pnpgen_was_installed(
    monkeypatch, debian, installed, prefix, expected
):
    monkeypatch.setattr(fonts, "debian", lambda: debian)  # as imported there
    monkeypatch.setattr(fonts, "INSTALLED", installed)
    monkeypatch.setattr(sys, "prefix", prefix)
    monkeypatch.setattr(sys, "executable", "PY")
    assert fonts.install_hint() == expected
