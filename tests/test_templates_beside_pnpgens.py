"""A game holding a file named as one of pnpgen's own templates or stylesheets (templates/base/): the build uses
it as docs/templates.md says (a replaced template, a stylesheet added after pnpgen's) or stops with an error
naming the file and what to do, exit 2; never a traceback."""

import json
import shutil

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow

BASE = ROOT / "templates" / "base"
PNPGENS = sorted(path.name for path in BASE.iterdir() if path.is_file())
REPLACEABLE = {
    "board.html",
    "board.css",
    "tile-captions.html",
    "tile-captions.css",
    "token.html",
    "token-back.html",
    "aid.html",
}  # docs/templates.md
COINS = """\
name: {ja: コイン, en: Coins}
shape: round
size: 25
sides: 2
tokens:
  - {id: c1, count: 6, value: 1, label: {ja: 金, en: gold}, colour: "#e8c84a"}
"""
AID = """\
name: {ja: サマリー, en: Summary}
size: poker
copies: 1
title: {ja: 手番, en: Your turn}
colour: "#2f5d62"
sections:
  - heading: {ja: 引く, en: Draw}
    text: {ja: 1枚引く。, en: Draw a card.}
"""
LARGE_BOARD = """\
name: {ja: 大きなボード, en: Large board}
size: [400, 280]
elements:
  - kind: track
    at: [10, 20]
    label: {ja: 得点, en: Score}
    from: 0
    to: 10
    step: 1
"""
COMPONENTS = """\
  - id: coins
    name: {ja: コイン, en: Coins}
    count: 6
    tokens: coins
  - id: summary
    name: {ja: サマリー, en: Summary}
    count: 1
    aid: summary
  - id: large-board
    name: {ja: 大きなボード, en: Large board}
    count: 1
    board: large-board
"""
DESIGNERS = {".css": ".caption, .title { color: #b00000; }\n", ".html": "<div class=\"mine\">{{ 'mine' }}</div>\n"}


@pytest.fixture(scope="module")
def full_game(tmp_path_factory):
    """The starter of `pnpgen new` with coins (two-sided), an aid and a board that tiles on A4."""
    from generator.cli import main

    folder = tmp_path_factory.mktemp("games")
    game = folder / "full"
    assert main(["new", str(game), "--languages", "en,ja", "--source", "en"]) == 0
    (game / "tokens").mkdir()
    (game / "tokens" / "coins.yaml").write_text(COINS, encoding="utf-8")
    (game / "aids").mkdir()
    (game / "aids" / "summary.yaml").write_text(AID, encoding="utf-8")
    (game / "boards" / "large-board.yaml").write_text(LARGE_BOARD, encoding="utf-8")
    with (game / "components.yaml").open("a", encoding="utf-8") as components:
        components.write(COMPONENTS)
    return game


def build_with(cli, game, tmp_path, name, text):
    copy = tmp_path / "full"
    shutil.copytree(game, copy)
    (copy / "templates" / name).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    return cli("build", copy, "--lang", "en", "--paper", "a4", "--out", out, "--jobs", "1"), copy, out


def built_files(out):
    return {entry["path"] for entry in json.loads((out / "full" / "build.json").read_text())["files"]}


def test_the_game_builds_without_any_of_them(cli, full_game, tmp_path):
    result = cli("build", full_game, "--lang", "en", "--paper", "a4", "--out", tmp_path / "out", "--jobs", "1")
    assert result.code == 0, result.err
    names = built_files(tmp_path / "out")
    assert {
        "cards-en-a4.pdf",
        "tokens-en-a4.pdf",
        "aid-summary-en-a4.pdf",
        "board-large-board-en-a4.pdf",
    } <= names


@pytest.mark.parametrize("how", ["pnpgens-own-text", "a-designers-text"])
@pytest.mark.parametrize("name", PNPGENS)
def test_each_of_pnpgens_names_in_a_game_builds_or_is_a_located_error(cli, full_game, tmp_path, name, how):
    text = (BASE / name).read_text(encoding="utf-8") if how == "pnpgens-own-text" else DESIGNERS[(BASE / name).suffix]
    result, copy, out = build_with(cli, full_game, tmp_path, name, text)
    assert "Traceback" not in result.err and "ValueError" not in result.err, result.err
    if name in REPLACEABLE and how == "pnpgens-own-text":
        assert result.code == 0, result.err  # a copy of pnpgen's own, to edit: used as it is
    if result.code == 0:
        assert {"cards-en-a4.pdf", "board-large-board-en-a4.pdf", "tokens-en-a4.pdf"} <= built_files(out)
    else:
        assert result.code == 2, result
        assert f"error: {copy.name}/templates/{name}" in result.err or f"{copy}/templates/{name}" in result.err, (
            result.err
        )
        assert "(" in result.err  # what to do
        assert not (out / "full" / "build.json").exists()  # nothing written
    if name not in REPLACEABLE:
        assert result.code == 2  # read by nothing: said so, not ignored


def test_a_boards_stylesheet_of_a_few_rules_adds_to_pnpgens(cli, full_game, tmp_path):
    """The issue's case: a game's board.css with one rule ended every build with a ValueError."""
    result, _copy, out = build_with(cli, full_game, tmp_path, "board.css", ".pnp-space { color: #b00000; }\n")
    assert result.code == 0, result.err
    assert "board-board-en-a4.pdf" in built_files(out)


def test_a_board_template_of_two_pages_is_a_located_error(cli, full_game, tmp_path):
    two_pages = '<div>one</div><div style="break-before: page">two</div>\n'
    result, copy, out = build_with(cli, full_game, tmp_path, "board.html", two_pages)
    assert result.code == 2 and "Traceback" not in result.err
    assert f"{copy.name}/templates/board.html: board 'board' (en) came out as 2 pages, not 1" in result.err
    assert "or remove the file to use pnpgen's templates/base/board.html" in result.err
    assert not (out / "full").exists() or not (out / "full" / "build.json").exists()


def test_a_game_template_may_carry_one_of_pnpgens_names_when_the_game_uses_it(cli, full_game, tmp_path):
    copy = tmp_path / "full"
    shutil.copytree(full_game, copy)
    (copy / "templates" / "rules.html").write_text("<b>{{ card.name }}</b>\n", encoding="utf-8")
    card = copy / "templates" / "card.html"
    card.write_text(card.read_text(encoding="utf-8") + '{% include "rules.html" %}\n', encoding="utf-8")
    result = cli("validate", copy)
    assert result.code == 0 and "rules.html" not in result.out + result.err, result


def test_a_base_folder_in_a_games_templates_is_refused(cli, full_game, tmp_path):
    copy = tmp_path / "full"
    shutil.copytree(full_game, copy)
    (copy / "templates" / "base").mkdir()
    (copy / "templates" / "base" / "token.html").write_text("<div>x</div>\n", encoding="utf-8")
    result = cli("build", copy, "--out", tmp_path / "out")
    assert result.code == 2 and "Traceback" not in result.err
    assert f"{copy.name}/templates/base: a folder named base/ in a game's templates" in result.err
