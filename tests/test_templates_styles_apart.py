"""A game's style.css styles the faces its own templates draw, never pnpgen's tokens, aids and boards: generic
class names (`.back`, `.front`, `.card`, ...) and element rules in it leave those pixels as they were."""

import shutil

import pypdfium2 as pdfium
import pytest

from conftest import ROOT
from test_templates_beside_pnpgens import full_game  # noqa: F401  (the fixture: the starter with coins and an aid)

pytestmark = pytest.mark.slow

GENERIC = """
.back, .front, .card, .title, .token, .board, .face, .bleed, .safe, .label, .value, .page, .note, .box, .tile,
.section, .heading, .mark, .text, .aid, .coin, .round, .square, .hexes, .space, .slot, .start, .cell {
  background: #222 !important; color: #f0f !important; border: 3mm solid red !important; }
div, p, li, ul, span, b, svg { color: #0f0 !important; background-color: #00f; }
"""
BUILT_IN = ["tokens-en-a4.pdf", "aid-summary-en-a4.pdf", "board-board-en-a4.pdf"]


def pixels(pdf):
    document = pdfium.PdfDocument(str(pdf))
    try:
        return [document[i].render(scale=60 / 72).to_pil().convert("RGB").tobytes() for i in range(len(document))]
    finally:
        document.close()


def build(cli, game, out):
    result = cli("build", game, "--lang", "en", "--paper", "a4", "--out", out, "--jobs", "1", "--no-cache")
    assert result.code == 0, result.err
    return out / game.name


@pytest.fixture(scope="module")
def before(full_game, tmp_path_factory):  # noqa: F811
    from generator.cli import main

    out = tmp_path_factory.mktemp("before")
    assert main(["build", str(full_game), "--lang", "en", "--paper", "a4", "--out", str(out), "--jobs", "1", "-q"]) == 0
    return out / full_game.name


def test_generic_rules_in_style_css_leave_pnpgens_parts_unchanged(cli, full_game, before, tmp_path):  # noqa: F811
    game = tmp_path / "full"
    shutil.copytree(full_game, game)
    with (game / "templates" / "style.css").open("a", encoding="utf-8") as style:
        style.write(GENERIC)
    after = build(cli, game, tmp_path / "out")
    for name in BUILT_IN:
        assert pixels(after / name) == pixels(before / name), f"{name}: the game's style.css reached it"
    assert pixels(after / "cards-en-a4.pdf") != pixels(before / "cards-en-a4.pdf")  # the rules are live on its cards


def test_a_back_rule_leaves_pnpgens_coin_backs_beside_a_games_own_token_front(cli, full_game, before, tmp_path):  # noqa: F811
    """A game replacing token.html gets its style.css on the coin sheet; pnpgen's backs there are `pnp-back`."""
    game = tmp_path / "full"
    shutil.copytree(full_game, game)
    shutil.copy(ROOT / "templates" / "base" / "token.html", game / "templates" / "token.html")
    reference = build(cli, game, tmp_path / "reference")
    with (game / "templates" / "style.css").open("a", encoding="utf-8") as style:
        style.write(".back { background: #222; }\n")
    after = build(cli, game, tmp_path / "out")
    assert pixels(after / "tokens-en-a4.pdf") == pixels(reference / "tokens-en-a4.pdf")
    assert pixels(reference / "tokens-en-a4.pdf") == pixels(before / "tokens-en-a4.pdf")
