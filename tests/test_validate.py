"""`pnpgen validate` and `pnpgen components` on the seed games and on games broken on purpose."""

import json
import re

import pytest

from conftest import copy_game
from test_input_errors import edit, line_of

GAMES = ["greed-inc", "ikkin", "mint-rails"]


@pytest.mark.parametrize("game", GAMES)
def test_seed_games_are_consistent_at_every_player_count(cli, game):
    result = cli("validate", game)
    assert result.code == 0, result.out
    assert "no problems" in result.out


def test_greed_inc_table_shows_the_removal_reading(cli):
    data = json.loads(cli("validate", "greed-inc", "--json").out)
    assert {n: data["players"][n]["decks"]["assets"] for n in ("3", "4", "5")} == {"3": 24, "4": 32, "5": 40}
    assert data["players"]["3"]["setup"]["companies"] == {
        "dealt": 3,
        "pool": 5,
        "left": 5,
        "rest": "box",
        "returned": 2,
        "reserved": 0,
    }
    assert data["players"]["5"]["setup"]["assets"]["dealt"] == 10


def test_starting_companies_returned_to_the_box_count_as_removed(cli):
    """Greed Inc deals one of companies 0-4 to each player and returns the others to the box (`rest: box`):
    at 3 players 2 go back and 5 (companies 5-9) are left to found, as the design and the rule sheet say."""
    data = json.loads(cli("validate", "greed-inc", "--json").out)
    companies = {
        n: (row["removed"]["companies"], row["decks"]["companies"], row["left"]["companies"])
        for n, row in data["players"].items()
    }
    assert companies == {"3": (2, 8, 5), "4": (1, 9, 5), "5": (0, 10, 5)}
    text = cli("validate", "greed-inc").out
    three = text.split("\n3 players\n")[1].split("\n\n")[0]
    assert three.splitlines()[2].split() == ["companies", "10", "2", "8", "3", "5"]
    assert "companies: removed counts the 2 undealt card(s) setup returns to the box" in three


SMALL_RULES_WITH_REST = """\
blocks:
  - type: heading
    text: {ja: 準備, en: Setting up}
  - text:
      ja: 2人では{returned.cards@2}枚を箱に戻し、山札は{left.cards@2}枚です。
      en: With 2 players {returned.cards@2} go back to the box and {left.cards@2} stay in the deck.
"""


@pytest.mark.parametrize("rest", ["box", "reserve"])
def test_a_deals_rest_reaches_the_table_json_placeholders_and_checks(small_game, cli, rest):
    """Pears are dealt one per player from 4 copies; the rest goes back to the box, or is set aside."""
    from generator.model import load_game
    from generator.model.rules import load_rules
    from generator.render.rulebook import RulebookWriter

    edit(small_game / "decks" / "cards.yaml", "    count: 2\n    value: 2", "    count: 4\n    value: 2")
    edit(small_game / "components.yaml", "count: 6", "count: 8")
    game_yaml = small_game / "game.yaml"
    game_yaml.write_text(
        game_yaml.read_text(encoding="utf-8")
        + f"setup:\n  - {{deck: cards, per_player: 1, where: {{value: 2}}, rest: {rest}}}\n"
        + "checks:\n  - {about: nothing removed, expect: removed.cards == 0}\n"
        + "  - {about: the pears, expect: dealt.cards + returned.cards + reserved.cards == 4}\n",
        encoding="utf-8",
    )
    (small_game / "rules.yaml").write_text(SMALL_RULES_WITH_REST, encoding="utf-8")
    result = cli("validate", small_game, "--json")
    data = json.loads(result.out)
    two = data["players"]["2"]
    # 8 cards: 2 grapes out at 2 players; 2 pears dealt, the 2 others returned (box) or set aside (reserve)
    if rest == "box":
        assert (two["removed"]["cards"], two["decks"]["cards"], two["left"]["cards"]) == (4, 4, 2)
        assert two["setup"]["cards"]["returned"] == 2 and two["reserved"]["cards"] == 0
    else:
        assert (two["removed"]["cards"], two["decks"]["cards"], two["left"]["cards"]) == (2, 6, 2)
        assert two["setup"]["cards"]["reserved"] == 2 and two["reserved"]["cards"] == 2
    assert data["players"]["4"]["left"]["cards"] == 8 - 4  # every pear dealt, nothing to return
    failed = [p["message"] for p in data["problems"] if "does not hold" in p["message"]]
    expected = ["with 2 players, `removed.cards == 0` does not hold (nothing removed)"]
    if rest == "box":
        expected.append("with 3 players, `removed.cards == 0` does not hold (nothing removed)")
    assert failed == expected
    table = cli("validate", small_game).out
    assert ("reserve" in table.split("\n2 players\n")[1].splitlines()[0]) == (rest == "reserve")
    game = load_game(small_game, require_templates=False)
    writer = RulebookWriter(game, load_rules(game))
    returned = 2 if rest == "box" else 0

    def plain(lang):  # the sheet's text without its markup and typesetting spaces
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", writer.html((lang,), "a4")))

    assert f"2人では{returned}枚を箱に戻し、山札は2枚です。" in plain("ja").replace(" ", "")
    assert f"With 2 players {returned} go back to the box and 2 stay in the deck." in plain("en")


def test_json_and_text_tables_agree(cli):
    text = cli("validate", "ikkin").out
    data = json.loads(cli("validate", "ikkin", "--json").out)
    for players, row in data["players"].items():
        block = text.split(f"\n{players} players\n")[1].split("\n\n")[0]
        line = next(text for text in block.splitlines() if text.strip().startswith("employees"))
        cells = line.split()
        assert int(cells[3]) == row["decks"]["employees"]
        assert int(cells[4]) == row["setup"]["employees"]["dealt"]
    assert sorted(int(n) for n in data["players"]) == [3, 4, 5, 6]
    assert data["players"]["3"]["setup"]["employees"]["dealt"] == 2 + 3 + 4
    assert data["players"]["6"]["setup"]["employees"]["dealt"] == 2 + 3 + 4 * 4


def problems(cli, game, *extra):
    result = cli("validate", game, "--json", *extra)
    assert result.code == 1, result
    return json.loads(result.out)["problems"]


def only(found, needle):
    hits = [p for p in found if needle in p["message"]]
    assert hits, f"no problem mentions {needle!r}: {found}"
    return hits[0]


def test_a_missing_card(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    deck = game / "decks" / "assets.yaml"
    text = deck.read_text(encoding="utf-8")
    start = text.index("  - id: oil-well")
    end = text.index("  - id:", start + 5)
    deck.write_text(text[:start] + text[end:], encoding="utf-8")
    found = problems(cli, game)
    problem = only(found, "prints 39")
    assert problem["file"].endswith("components.yaml")
    assert problem["line"] == line_of(game / "components.yaml", "id: asset-cards")


def test_an_extra_copy(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    goods = game / "decks" / "goods.yaml"
    line = next(n for n, text in enumerate(goods.read_text().splitlines(), 1) if "count: 9" in text)
    lines = goods.read_text().splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace("count: 9", "count: 10")
    goods.write_text("".join(lines))
    found = problems(cli, game)
    assert only(found, "prints 100")["line"] == line_of(game / "components.yaml", "id: goods-cards")
    per_kind = only(found, "10 copies")
    assert per_kind["file"].endswith("goods.yaml") and per_kind["line"] == line


def test_a_wrong_removal(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    deck = game / "decks" / "assets.yaml"
    edit(deck, "remove_at: [4]", "remove_at: [3]")
    found = problems(cli, game)
    problem = only(found, "differs by player count")
    assert problem["file"].endswith("game.yaml")
    assert problem["line"] == line_of(game / "game.yaml", "same: deck.assets / players")
    assert "3 players: 7.66667" in problem["message"]


def test_a_removal_outside_the_player_range(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    deck = game / "decks" / "assets.yaml"
    edit(deck, "remove_at: [4]", "remove_at: [6]")
    problem = only(problems(cli, game), "removed at 6 players")
    assert problem["line"] == line_of(deck, "remove_at: [6]")


def test_a_dangling_reference(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    deck = game / "decks" / "assets.yaml"
    edit(deck, "produces: {sand: 2}", "produces: {sandd: 2}")
    problem = only(problems(cli, game), "'sandd' is not a card of deck 'goods'")
    assert problem["file"].endswith("assets.yaml")
    assert problem["line"] == line_of(deck, "sandd")


def test_a_duplicate_id(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    deck = game / "decks" / "assets.yaml"
    edit(deck, "id: oil-well", "id: sand-pit")
    problem = only(problems(cli, game), "duplicate id 'sand-pit'")
    assert (
        problem["line"] == [n for n, text in enumerate(deck.read_text().splitlines(), 1) if "id: sand-pit" in text][1]
    )


def test_a_missing_translation(tmp_path, cli):
    game = copy_game("ikkin", tmp_path)
    deck = game / "decks" / "employees.yaml"
    text = deck.read_text(encoding="utf-8")
    import re

    match = re.search(r"name: \{ja: ([^,]+), en: [^}]+\}", text)
    deck.write_text(text.replace(match.group(0), f"name: {{ja: {match.group(1)}}}", 1), encoding="utf-8")
    problem = only(problems(cli, game), "has no en text")
    assert problem["line"] == line_of(deck, f"name: {{ja: {match.group(1)}}}")


def test_an_impossible_deal(tmp_path, cli):
    game = copy_game("ikkin", tmp_path)
    edit(game / "game.yaml", "seats: [2, 3, 4]", "seats: [2, 3, 13]")
    found = problems(cli, game)
    problem = only(found, "with 6 players setup deals 57 cards from deck 'employees', which has only 54")
    assert problem["line"] == line_of(game / "game.yaml", "- deck: employees")
    assert not [p for p in found if "with 5 players setup deals" in p["message"]]  # 2+3+13*3 = 44 fit


def test_a_draft_pool_that_cannot_give_distinct_pairs(tmp_path, cli):
    game = copy_game("mint-rails", tmp_path)
    deck = game / "decks" / "draft-certificates.yaml"
    for colour in ("white", "pink", "brown"):
        text = deck.read_text()
        deck.write_text(text.replace(f"company: {colour}", "company: black"))
    found = problems(cli, game)
    only(found, "no two players holding the same companys")


def test_a_repeated_sequence_letter(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    deck = game / "decks" / "status-symbols.yaml"
    edit(deck, "letter: B", "letter: A")
    problem = only(problems(cli, game), "repeats metal=gold, letter=A")
    assert problem["line"] == [n for n, text in enumerate(deck.read_text().splitlines(), 1) if "letter: A" in text][1]


def test_a_deck_no_component_names(tmp_path, cli):
    game = copy_game("ikkin", tmp_path)
    edit(game / "components.yaml", "deck: employees", "")
    only(problems(cli, game), "no component in components.yaml names it")


def test_an_expression_is_interpreted_not_executed(tmp_path, cli):
    game = copy_game("ikkin", tmp_path)
    edit(game / "game.yaml", "expect: deck.employees == 54", "expect: __import__('os').system('false')")
    only(problems(cli, game), "unknown function")


def test_one_player_count(cli):
    data = json.loads(cli("validate", "mint-rails", "--players", "4", "--json").out)
    # 12 draft certificates set out with 4 players, 8 taken, 4 returned to the box (`rest: box`)
    assert list(data["players"]) == ["4"] and data["players"]["4"]["decks"]["draft-certificates"] == 8
    assert data["players"]["4"]["removed"]["draft-certificates"] == 4
    assert cli("validate", "mint-rails", "--players", "7").code == 2


@pytest.mark.parametrize("lang,title,name", [("ja", "内容物", "資産カード"), ("en", "Components", "Asset cards")])
def test_components_list_in_both_languages(cli, lang, title, name):
    result = cli("components", "greed-inc", "--lang", lang)
    assert result.code == 0
    assert result.out.startswith(title) and name in result.out and "99" in result.out


def test_components_csv_and_markdown(cli):
    import csv
    import io

    rows = list(
        csv.DictReader(
            io.StringIO(cli("components", "mint-rails", "--lang", "en", "--format", "csv", "--players", "2").out)
        )
    )
    draft = next(r for r in rows if r["id"] == "draft-certificates")
    assert (draft["count"], draft["in_play"]) == ("12", "8")
    md = cli("components", "ikkin", "--lang", "ja", "--format", "md").out
    assert md.startswith("## 内容物") and "| 報酬トークン | 8 |" in md


def test_a_component_said_printed_with_nothing_to_print_it(tmp_path, cli):
    game = copy_game("ikkin", tmp_path)
    edit(game / "components.yaml", "    count: 5\n", "    count: 5\n    printed: true\n")
    problem = only(problems(cli, game), "says it is printed")
    assert problem["line"] == line_of(game / "components.yaml", "id: dice")


def test_an_invented_field_needs_a_name_for_the_rules(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    assets = game / "decks" / "assets.yaml"
    edit(assets, "    label: {ja: 生産物, en: output}\n", "")
    edit(
        assets,
        "    name: {ja: 炭鉱, en: Coal Mine}\n",
        "    name: {ja: 炭鉱, en: Coal Mine}\n    placeholder: [colour]\n",
    )
    found = problems(cli, game)
    assert only(found, "field 'produces' is named invented")["message"].startswith("fields.produces.label: ")
    unknown = only(found, "says its 'colour' is invented")
    assert unknown["line"] == line_of(assets, "placeholder: [colour]")
    edit(
        game / "tokens" / "money.yaml",
        "placeholder: {ja: 額面の種類とそれぞれの枚数, en: the denominations and how many of each}",
        "placeholder: [denominations]",
    )
    assert "'denominations', which the rules' prototype note has no word for" in str(problems(cli, game))


def test_the_components_list_marks_what_the_kit_does_not_print_and_invented_counts(cli):
    import csv
    import io

    text = cli("components", "mint-rails", "--lang", "ja").out
    black = next(line for line in text.splitlines() if line.startswith("ブラックのキューブ"))
    assert "30（仮）" in black and "印刷しません（各自で用意）" in black
    maps = next(line for line in text.splitlines() if line.startswith("地図カード"))
    assert "印刷しません" not in maps and "（仮）" not in maps
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(cli("components", "ikkin", "--format", "csv").out))}
    assert (rows["dice"]["printed"], rows["dice"]["invented"]) == ("false", "false")
    assert (rows["cards"]["printed"], rows["player-aids"]["invented"]) == ("true", "true")
    assert "not printed: use your own" in cli("components", "greed-inc", "--lang", "en").out


def test_the_mint_rails_map_checks_find_a_second_home_and_a_hex_listed_twice(tmp_path, cli):
    """The map facts Mint Rails' checks state, read from the cities and homes of every card (joined, tally):
    one home per company on the whole map, and no hex of a card listed twice."""
    game = copy_game("mint-rails", tmp_path)
    deck = game / "decks" / "map.yaml"
    edit(deck, "      - {col: 1, kind: home, company: pink}\n", "      - {col: 1, kind: home, company: black}\n")
    city = "      - {col: 4, kind: city, capacity: 1, icons: [black]}\n"
    edit(deck, city, city + "      - {col: 4, kind: city, capacity: 2, icons: [pink]}\n")
    found = problems(cli, game)
    homes = [p for p in found if "(each company has exactly one home hex on the whole map)" in p["message"]]
    assert homes and all(p["line"] == line_of(game / "game.yaml", "'company')) == {") for p in homes)
    [twice] = [p for p in found if "a hex of a map card is listed once" in p["message"]]
    assert "card 'map-south-2'" in twice["message"] and twice["file"].endswith("map.yaml")
