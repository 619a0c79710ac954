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
