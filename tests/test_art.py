"""Pictures on cards: the image field, the image() helper, placeholder art, and each raster picture's resolution
as printed (measured from the layout), as a designer meets them: a game directory in, messages and PDFs out."""

import json

import pytest
from PIL import Image

from conftest import page_text
from test_input_errors import edit, errors, line_of
from test_rules import SMALL_RULES, prototype_items
from generator.model import load_game
from generator.render.fetch import Confinement
from generator.model.rules import load_rules
from generator.render.rulebook import RulebookWriter
from generator.render.weasy.fit import drawn_size, printed_dpi

ORANGE = (200, 120, 40)


@pytest.fixture
def art_game(tmp_path, cli):
    """`pnpgen new`'s starter: apple and grapes show art/fruit.svg in a 40 x 30 mm box, pear waits for its art."""
    path = tmp_path / "fruit"
    assert cli("new", path).code == 0
    return path


def picture(game, name: str, size: tuple[int, int], colour=ORANGE) -> None:
    Image.new("RGB", size, colour).save(game / "art" / name)


def build(cli, game, out, *more):
    return cli("build", game, "--out", out, "--paper", "a4", "--jobs", "1", *more)


def warnings(result) -> list[str]:
    return [line for line in result.err.splitlines() if line.startswith("warning:")]


def test_drawn_size_follows_object_fit():
    box = (100.0, 50.0)  # CSS px
    assert drawn_size(box, (400, 400), "fill") == (100.0, 50.0)
    assert drawn_size(box, (400, 400), "contain") == (50.0, 50.0)
    assert drawn_size(box, (400, 400), "cover") == (100.0, 100.0)  # the square's top and bottom are cropped
    assert drawn_size(box, (400, 100), "cover") == (200.0, 50.0)
    assert drawn_size(box, (20, 10), "none") == (20.0, 10.0)
    assert drawn_size(box, (20, 10), "scale-down") == (20.0, 10.0)  # smaller than contain: kept as it is
    assert drawn_size(box, (400, 200), "scale-down") == (100.0, 50.0)


def test_printed_dpi_is_pixels_per_inch_of_the_coarser_side():
    assert printed_dpi((113, 85), (40.0, 30.0)) == pytest.approx(71.8, abs=0.05)
    assert printed_dpi((3000, 3000), (25.4, 25.4)) == pytest.approx(3000)
    # stretched: 600 px over 1 inch across, but 300 px over 1 inch down: as sharp as 300 dpi
    assert printed_dpi((600, 300), (25.4, 25.4)) == pytest.approx(300)
    # cropped by cover: a 400 x 400 px square in a 50.8 x 25.4 mm box is drawn 50.8 mm a side (200 dpi)
    square = drawn_size((50.8, 25.4), (400, 400), "cover")
    assert printed_dpi((400, 400), square) == pytest.approx(200)


def test_a_72_dpi_picture_is_warned_with_the_card_file_box_and_dpi(art_game, tmp_path, cli):
    picture(art_game, "low.png", (113, 85))  # 40 x 30 mm at 72 dpi
    picture(art_game, "sharp.png", (480, 360))  # 305 dpi
    deck = art_game / "decks" / "cards.yaml"
    edit(deck, "    picture: art/fruit.svg\n", "    picture: art/low.png\n")
    edit(deck, "    picture: placeholder", "    picture: art/sharp.png")
    out = tmp_path / "out"
    result = build(cli, art_game, out, "--lang", "en")
    assert result.code == 0, result
    [low, summary] = warnings(result)
    assert "1 picture(s) printed below the game's print resolution" in summary
    assert f"decks/cards.yaml:{line_of(deck, 'art/low.png')}:" in low
    assert "card 'apple' of deck 'cards', picture" in low
    assert "picture 'art/low.png' (113 x 85 px) prints at 72 dpi in its 40 x 30 mm box" in low
    assert "under the 300 dpi" in low and "sharp.png" not in result.err
    listed = json.loads((out / "fruit" / "build.json").read_text())["low_resolution"]
    assert [
        (f["cards"], f["image"].rsplit("/", 1)[1], f["width_mm"], f["height_mm"], round(f["dpi"])) for f in listed
    ] == [(["apple"], "low.png", 40.0, 30.0, 72)]
    # the picture itself is printed, filling its box
    assert orange_pixels(out / "fruit" / "cards-en-a4.pdf") > 2 * 40 * 30 * 0.9  # 2 apples, at 1 px a mm
    # under half of 300 dpi: --strict fails the build
    assert build(cli, art_game, out, "--lang", "en", "--strict").code == 1


def test_the_game_sets_the_resolution_and_a_picture_somewhat_under_it_does_not_fail_strict(art_game, tmp_path, cli):
    picture(art_game, "fair.png", (315, 236))  # 200 dpi in 40 x 30 mm
    deck = art_game / "decks" / "cards.yaml"
    edit(deck, "    picture: placeholder", "    picture: art/fair.png")
    out = tmp_path / "out"
    result = build(cli, art_game, out, "--lang", "en", "--strict")
    assert result.code == 0, result  # 200 dpi: under 300, not under 150
    assert "picture 'art/fair.png' (315 x 236 px) prints at 200 dpi in its 40 x 30 mm box" in result.err
    edit(art_game / "game.yaml", "players:", "print: {min_dpi: 150}\nplayers:")
    again = build(cli, art_game, out, "--lang", "en", "--strict")
    assert again.code == 0 and not warnings(again), again
    edit(art_game / "game.yaml", "min_dpi: 150", "min_dpi: 10")
    [message] = errors(cli("validate", art_game))
    assert "game.yaml:" in message and "print.min_dpi" in message and "from 50 to 2400" in message


def test_a_missing_picture_prints_a_marked_placeholder_and_a_warning(art_game, tmp_path, cli):
    deck = art_game / "decks" / "cards.yaml"
    edit(deck, "    picture: art/fruit.svg\n", "    picture: art/apple.png\n")
    validated = cli("validate", art_game)
    assert validated.code == 1
    message = validated.out
    line = line_of(deck, "art/apple.png")
    assert f"decks/cards.yaml:{line}: picture: card 'apple' of deck 'cards' 'art/apple.png' not found" in message

    out = tmp_path / "out"
    result = build(cli, art_game, out)
    assert result.code == 0, result
    said = warnings(result)
    assert any(f"cards.yaml:{line}:" in w and "'art/apple.png' not found: a placeholder box" in w for w in said)
    assert any("card 'pear' of deck 'cards' has no picture yet" in w for w in said)
    english = " ".join(page_text(out / "fruit" / "cards-en-a4.pdf", 0).split())
    assert "Apple art 40 × 30 mm" in english and "Pear art 40 × 30 mm" in english
    assert "Grapes art" not in english  # grapes has its picture
    japanese = "".join(page_text(out / "fruit" / "cards-ja-a4.pdf", 0).split())
    assert "りんご仮画像40×30mm" in japanese
    assert build(cli, art_game, out, "--strict").code == 1


def test_a_broken_picture_is_found_by_validate_and_replaced_by_a_placeholder(art_game, tmp_path, cli):
    (art_game / "art" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    edit(art_game / "decks" / "cards.yaml", "    picture: art/fruit.svg\n", "    picture: art/broken.png\n")
    validated = cli("validate", art_game)
    assert validated.code == 1
    assert "card 'apple' of deck 'cards' 'art/broken.png' cannot be decoded as an image" in validated.out
    out = tmp_path / "out"
    assert build(cli, art_game, out, "--lang", "en").code == 0
    assert "Apple art 40 × 30 mm" in " ".join(page_text(out / "fruit" / "cards-en-a4.pdf", 0).split())


@pytest.mark.parametrize(
    "written, said",
    [
        ("../secret.png", "no '..'"),
        ("/etc/hosts.png", "relative to the game's folder"),
        ("art/notes.txt", "a PNG, JPEG, WebP, GIF, TIFF or SVG file"),
    ],
)
def test_a_picture_path_outside_the_game_or_of_another_kind_is_a_located_error(art_game, cli, written, said):
    deck = art_game / "decks" / "cards.yaml"
    edit(deck, "    picture: art/fruit.svg\n", f"    picture: {written}\n")
    result = cli("validate", art_game)
    assert result.code == 2
    [message] = errors(result)
    assert f"decks/cards.yaml:{line_of(deck, written)}:" in message and said in message


def test_the_helper_refuses_a_fit_it_does_not_know_at_the_template_line(art_game, cli):
    card = art_game / "templates" / "card.html"
    edit(card, "{{ image(card.picture, 40, 30) }}", "{{ image(card.picture, 40, 30, fit='stretch') }}")
    message = cli("validate", art_game).out
    assert f"card.html:{line_of(card, 'stretch')}:" in message and "fit must be one of cover, contain, fill" in message


def test_the_prototype_note_lists_the_cards_still_without_art(art_game):
    (art_game / "rules.yaml").write_text(SMALL_RULES, encoding="utf-8")
    edit(art_game / "decks" / "cards.yaml", "    picture: art/fruit.svg\n", "    picture: art/apple.png\n")
    game = load_game(art_game, require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    assert prototype_items(writer, "en") == [
        "Cards:cardsprintedwithplaceholderart,theirpicturesstilltocome(2kinds,4cards):Apple,Pear."
    ]
    assert prototype_items(writer, "ja") == ["カード：絵がまだなく仮画像を印刷したカード（2種類4枚）：りんご、洋なし。"]


def orange_pixels(path) -> int:
    """Pixels of the test pictures' colour on the first page, rendered at 1 px a mm."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        image = document[0].render(scale=72 / 25.4).to_pil().convert("RGB")
    finally:
        document.close()
    return sum(1 for pixel in image.get_flattened_data() if all(abs(a - b) < 12 for a, b in zip(pixel, ORANGE)))


def test_a_coarse_figure_on_the_rule_sheet_is_warned_at_its_block(art_game, tmp_path, cli):
    (art_game / "figures").mkdir()
    picture(art_game, "../figures/low.png", (120, 40))
    rules = art_game / "rules.yaml"
    figure = "  - id: picture\n    type: figure\n    src: figures/low.png\n    text: {ja: 箱, en: The box}\n"
    rules.write_text(SMALL_RULES + figure, encoding="utf-8")
    result = cli("rules", art_game, "--out", tmp_path / "out", "--paper", "a4", "--lang", "en")
    assert result.code == 0, result
    [said] = [line for line in warnings(result) if "low.png" in line]
    assert f"rules.yaml:{line_of(rules, 'id: picture')}: en: rule block 'picture'" in said
    assert "picture 'figures/low.png' (120 x 40 px) prints at 96 dpi in its 31.75 x 10.58 mm box" in said


def test_a_picture_edited_in_place_prints_again_and_one_that_appears_replaces_its_placeholder(art_game, tmp_path, cli):
    picture(art_game, "apple.png", (480, 360))
    deck = art_game / "decks" / "cards.yaml"
    edit(deck, "    picture: art/fruit.svg\n", "    picture: art/apple.png\n")
    edit(deck, "    picture: placeholder", "    picture: art/pear.png")  # not there yet
    out = tmp_path / "out"
    sheet = out / "fruit" / "cards-en-a4.pdf"
    assert build(cli, art_game, out, "--lang", "en").code == 0
    assert orange_pixels(sheet) > 2 * 40 * 30 * 0.9 and "Pear art" in " ".join(page_text(sheet, 0).split())
    picture(art_game, "apple.png", (480, 360), (30, 60, 200))  # the same name, another picture
    picture(art_game, "pear.png", (480, 360))
    again = build(cli, art_game, out, "--lang", "en")
    assert again.code == 0 and not warnings(again), again
    assert orange_pixels(sheet) > 2 * 40 * 30 * 0.9  # the pears' now, the apples' blue
    assert "Pear art" not in " ".join(page_text(sheet, 0).split())


def test_a_picture_linked_from_outside_the_game_is_not_read(art_game, tmp_path, cli):
    outside = tmp_path / "elsewhere.png"
    Image.new("RGB", (480, 360), ORANGE).save(outside)
    (art_game / "art" / "linked.png").symlink_to(outside)
    edit(art_game / "decks" / "cards.yaml", "    picture: art/fruit.svg\n", "    picture: art/linked.png\n")
    assert "'art/linked.png' leads outside the game's folder" in cli("validate", art_game).out
    out = tmp_path / "out"
    assert build(cli, art_game, out, "--lang", "en").code == 0
    assert orange_pixels(out / "fruit" / "cards-en-a4.pdf") == 0
    assert "Apple art 40 × 30 mm" in " ".join(page_text(out / "fruit" / "cards-en-a4.pdf", 0).split())
    # what the renderer may read: the game's folder through its templates/, nothing around it
    confinement = Confinement((art_game / "templates").as_uri() + "/")
    assert confinement.allows((art_game / "art" / "fruit.svg").as_uri())
    assert not confinement.allows(outside.as_uri()) and not confinement.allows(
        (art_game / "art" / "linked.png").as_uri()
    )
