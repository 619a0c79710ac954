"""Bad input: one located line per mistake (file, line, key), exit code 2, no traceback."""

import re

from conftest import run_subprocess


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path, needle):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(needle)


def errors(result):
    return [line for line in result.err.splitlines() if line.startswith("error:")]


def test_unknown_card_key_names_file_line_and_suggests_the_right_key(small_game):
    deck = small_game / "decks" / "cards.yaml"
    edit(deck, "    value: 2\n", "    valeu: 2\n")
    result = run_subprocess("build", small_game, "--out", small_game / "out")
    assert result.code == 2
    assert "Traceback" not in result.err
    [message] = errors(result)
    assert f"cards.yaml:{line_of(deck, 'valeu')}:" in message
    assert "cards[pear].valeu" in message and "did you mean 'value'" in message


def test_wrong_type(small_game, cli):
    deck = small_game / "decks" / "cards.yaml"
    edit(deck, "    value: 3\n", "    value: three\n")
    result = cli("build", small_game, "--out", small_game / "out")
    assert result.code == 2
    [message] = errors(result)
    assert f"cards.yaml:{line_of(deck, 'three')}: cards[grapes].value: expected a whole number from 1 to 9" in message


def test_number_out_of_declared_range(small_game, cli):
    deck = small_game / "decks" / "cards.yaml"
    edit(deck, "    value: 3\n", "    value: 12\n")
    [message] = errors(cli("build", small_game))
    assert "found 12" in message and f":{line_of(deck, 'value: 12')}:" in message


def test_missing_required_field(small_game, cli):
    deck = small_game / "decks" / "cards.yaml"
    edit(deck, "    value: 1\n", "")
    result = cli("build", small_game)
    assert result.code == 2
    [message] = errors(result)
    assert "cards[apple].value: missing required key" in message
    assert re.search(r"cards\.yaml:\d+:", message)


def test_a_deck_missing_a_required_key_is_one_error_not_one_more_in_a_board_that_names_it(small_game, cli):
    (small_game / "boards").mkdir()
    (small_game / "boards" / "main.yaml").write_text(
        "name: {ja: ボード, en: Board}\nsize: [100, 100]\n"
        "elements:\n  - kind: text\n    at: [5, 5]\n    for_each: cards\n    label: =card.value\n",
        encoding="utf-8",
    )
    edit(small_game / "decks" / "cards.yaml", "name: {ja: カード, en: Cards}\n", "")
    result = cli("validate", small_game)
    assert result.code == 2
    [message] = errors(result)
    assert "cards.yaml:1: name: missing required key in deck" in message


def test_malformed_yaml(small_game, cli):
    components = small_game / "components.yaml"
    edit(components, "    count: 6\n", "    count: [6\n")
    result = cli("build", small_game)
    assert result.code == 2
    [message] = errors(result)
    assert "components.yaml:" in message and "malformed YAML" in message


def test_missing_template(small_game, cli):
    deck = small_game / "decks" / "cards.yaml"
    edit(deck, "template: card.html", "template: crad.html")
    result = cli("build", small_game)
    assert result.code == 2
    [message] = errors(result)
    assert f"cards.yaml:{line_of(deck, 'crad.html')}: template: template 'crad.html' not found" in message


def test_template_using_an_undeclared_field(small_game, cli):
    template = small_game / "templates" / "card.html"
    edit(template, "card.value", "card.valeu")
    result = cli("build", small_game)
    assert result.code == 2
    [message] = errors(result)
    assert "card.html:" in message and "valeu" in message and "card 'apple'" in message


def test_language_not_in_the_game(small_game, cli):
    deck = small_game / "decks" / "cards.yaml"
    edit(deck, "name: {ja: りんご, en: Apple}", "name: {ja: りんご, eng: Apple}")
    [message] = errors(cli("build", small_game))
    assert "cards[apple].name.eng" in message and "did you mean 'en'" in message


def test_unknown_game_suggests_a_name(cli):
    result = cli("build", "greed-incc")
    assert result.code == 2
    assert "did you mean 'greed-inc'" in result.err


def test_every_problem_in_a_file_is_reported(small_game, cli):
    deck = small_game / "decks" / "cards.yaml"
    edit(deck, "    value: 1\n", "    value: 0\n")
    edit(deck, "    value: 2\n", "    colour: red\n    value: 2\n")
    assert len(errors(cli("build", small_game))) == 2


def test_nothing_is_written_when_the_input_is_bad(small_game, tmp_path, cli):
    out = tmp_path / "out"
    edit(small_game / "decks" / "cards.yaml", "    value: 1\n", "    value: x\n")
    assert cli("build", small_game, "--out", out).code == 2
    assert not out.exists()


def test_missing_image_names_the_template_line(small_game, cli):
    template = small_game / "templates" / "card.html"
    edit(template, '<div class="value">', "{{ icon('no-such-icon') }}<div class=\"value\">")
    result = cli("build", small_game)
    assert result.code == 2
    [message] = errors(result)
    assert f"card.html:{line_of(template, 'no-such-icon')}:" in message
    assert "image or file 'icons/no-such-icon.svg' not found" in message


def test_template_syntax_error_is_located(small_game, cli):
    template = small_game / "templates" / "card.html"
    edit(template, "{{ card.value }}", "{{ card.value }")
    [message] = errors(cli("build", small_game))
    assert f"card.html:{line_of(template, 'card.value }')}: template syntax error" in message


def test_a_language_the_game_lacks_names_the_nearest_one_for_build_and_i18n_alike(small_game, cli, tmp_path):
    near = cli("build", small_game, "--lang", "eng", "--out", tmp_path / "out")
    assert near.code == 2 and "game.yaml: languages: the game has no language 'eng' (did you mean 'en'?)" in near.err
    far = cli("build", small_game, "--lang", "fr", "--out", tmp_path / "out")
    assert far.code == 2 and "the game has no language 'fr' (choose from ja, en or all)" in far.err
    status = cli("i18n", "status", small_game, "--lang", "xx")
    assert status.code == 2 and "the game has no language 'xx' (choose from ja, en)" in status.err
    assert not (tmp_path / "out").exists()
