"""`pnpgen validate` checks templates without laying anything out, and `--json` always prints JSON."""

import json

from test_images import SVG


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def validate(cli, game, *extra):
    return cli("validate", game, *extra)


def test_a_template_syntax_error_is_found_by_validate(small_game, cli):
    edit(small_game / "templates" / "card.html", "{{ card.value }}", "{{ card.value }")
    result = validate(cli, small_game)
    assert result.code == 1
    assert "templates/card.html:7: template syntax error" in result.out


def test_a_card_name_the_deck_does_not_declare_is_found_by_validate(small_game, cli):
    edit(small_game / "templates" / "card.html", "{{ card.value }}", "{% if card.power %}{{ card.valeu }}{% endif %}")
    result = validate(cli, small_game)
    assert result.code == 1
    assert (
        "templates/card.html:7: card.valeu is not a field of deck 'cards' (cards.yaml) (did you mean 'value'?)"
        in result.out
    )
    assert "card.power is not a field" in result.out  # in a branch no card takes


def test_missing_and_corrupt_icons_are_found_by_validate(small_game, cli):
    (small_game / "templates" / "icons").mkdir()
    (small_game / "templates" / "icons" / "star.svg").write_text(SVG[:40], encoding="utf-8")
    edit(
        small_game / "templates" / "card.html",
        "{{ card.value }}",
        "{{ card.value }}{{ icon('star') }}{{ icon('moon') }}",
    )
    result = validate(cli, small_game)
    assert result.code == 1
    assert "templates/card.html:7: image 'icons/star.svg' is not a well-formed SVG file" in result.out
    assert "templates/card.html:7: icon('moon'): 'icons/moon.svg' not found" in result.out


def test_validate_json_gives_paths_relative_to_the_game(small_game, cli):
    edit(small_game / "components.yaml", "count: 6", "count: 5")
    result = validate(cli, small_game, "--json")
    assert result.code == 1
    [problem] = json.loads(result.out)["problems"]
    assert (problem["file"], problem["line"]) == ("components.yaml", 3)


def test_validate_json_prints_json_when_the_input_cannot_be_read(small_game, cli):
    edit(small_game / "decks" / "cards.yaml", "    value: 2\n", "    value: [2\n")
    result = validate(cli, small_game, "--json")
    assert result.code == 2
    report = json.loads(result.out)
    assert report["error"] is True
    assert report["problems"][0]["file"] == "decks/cards.yaml" and report["problems"][0]["line"]
