"""docs/schema.md: written by `pnpgen schema` from the schemas that check the files, current, and covering
every key the three kits use; YAML that breaks on a text says how to write it."""

from __future__ import annotations

import fnmatch
import re

import pytest
import yaml

from conftest import ROOT, run_subprocess
from generator.commands.schema import REFRESH, SCHEMA_DOC, file_kinds, schema_markdown
from generator.model.printables import Tagged
from generator.model.schema import LOCALIZED_DOC, Checker, Described, ListOf, Localized, MapOf, Object, OneOf, start
from generator.model.schemadoc import document
from generator.yamlio.read import load_yaml

KITS = ["greed-inc", "ikkin", "mint-rails"]


def test_committed_schema_doc_is_what_the_command_prints(cli):
    result = cli("schema", "--format", "md")
    assert result.code == 0
    committed = (ROOT / SCHEMA_DOC).read_text(encoding="utf-8")
    assert committed == result.out, f"{SCHEMA_DOC} is out of date: run `{REFRESH}` and commit it"


def test_schema_command_writes_the_file_and_has_help(cli, tmp_path):
    out = tmp_path / "docs" / "schema.md"
    assert cli("schema", "--format", "md", "-o", out).code == 0
    assert out.read_text(encoding="utf-8") == schema_markdown()
    help_text = cli("schema", "--help").out
    assert "--format" in help_text and "docs/schema.md" in help_text


def test_every_file_kind_and_syntax_is_documented():
    text = schema_markdown()
    for path in (
        "game.yaml",
        "components.yaml",
        "decks/<deck>.yaml",
        "boards/<board>.yaml",
        "aids/<aid>.yaml",
        "tokens/<sheet>.yaml",
        "rules.yaml",
        "labels.yaml",
        "glossary.yaml",
        "i18n.lock.yaml",
    ):
        assert f"`{path}`" in text, path
    for needle in (
        "`setup[]`",
        "| `label` |",
        "| `rest` |",
        "| `cover` | `auto`, `always` or `never`",
        "`cards_from`",
        "`fields.<field>`",
        "| `ref` |",
        "{漢字|かんじ}",
        "{card:coal-mine}",
        "| `placeholder` |",
        "`elements[] (kind: track)`",
    ):
        assert needle in text, needle


def test_every_key_has_a_meaning_and_every_mapping_a_title():
    for kind in file_kinds():
        for section in document(kind).sections:
            assert section.anchor and (not section.path or section.spec.what), (kind.path, section.path)
            undocumented = [row.key for row in section.rows if not row.doc.strip()]
            assert not undocumented, f"{kind.path} {section.path}: give these Fields a doc: {undocumented}"


def kind_of(relative: str):
    return next((kind for kind in file_kinds() if fnmatch.fnmatch(relative, re.sub(r"<[^>]+>", "*", kind.path))), None)


def used_keys(spec, value, found: set, declared: frozenset = frozenset()) -> None:
    """(mapping spec, key) for every key a document uses, walking it alongside its schema."""
    if isinstance(spec, Described):
        spec = spec.shape
    if isinstance(spec, Object) and isinstance(value, dict):
        if not spec.fields:
            return  # an open mapping: numbers, a card filter
        for key, item in value.items():
            if key in spec.fields:
                found.add((id(spec), key))
                used_keys(spec.fields[key].spec, item, found, declared)
            elif not spec.extra and (spec.what != "card" or key not in declared):
                found.add((id(spec), key))  # not in the schema: the assertion below names it
    elif isinstance(spec, ListOf) and isinstance(value, list):
        for item in value:
            used_keys(spec.of, item, found, declared)
    elif isinstance(spec, MapOf) and isinstance(value, dict):
        for item in value.values():
            used_keys(spec.values, item, found)
    elif isinstance(spec, Tagged) and isinstance(value, dict) and value.get("kind") in spec.options:
        used_keys(spec.options[value["kind"]], value, found)
    elif isinstance(spec, OneOf):
        for option in spec.options:
            trial = Checker()
            option.check(value, start(ROOT, value), trial)
            if not trial.problems:
                used_keys(option, value, found)
                return


@pytest.mark.parametrize("kit", KITS)
def test_every_key_the_kits_use_is_in_the_schema_doc(kit):
    game_dir = ROOT / "cards" / kit
    files = sorted(game_dir.rglob("*.yaml"))
    assert len(files) >= 8
    for path in files:
        relative = path.relative_to(game_dir).as_posix()
        kind = kind_of(relative)
        assert kind is not None, f"{relative}: no file kind in docs/schema.md describes it"
        doc = document(kind)
        documented = {(id(section.spec), key) for section in doc.sections for key in section.keys()}  # noqa: SIM118 - Section.keys() is a method, not a dict's
        titles = {id(section.spec): section.path or "(top)" for section in doc.sections}
        data = load_yaml(path)
        declared = frozenset((data.get("fields") or {}) if kind.path.startswith("decks/") else ())
        found: set = set()
        used_keys(kind.schema, data, found, declared)
        assert found, relative
        missing = [(titles.get(spec_id, "?"), key) for spec_id, key in found - documented]
        assert not missing, f"{relative}: keys used but not documented: {missing}"


def test_the_block_style_example_reads_as_texts():
    example = LOCALIZED_DOC.split("```yaml\n")[1].split("```")[0]
    data = yaml.safe_load(example)
    checker = Checker(["ja", "en"])
    for key, value in data.items():
        text = Localized().check(value, start(ROOT, data), checker)
        assert set(text.values) == {"ja", "en"}, key
    assert not checker.problems
    assert data["text"]["ja"] == "{札|ふだ}を2枚引く。"
    assert data["text"]["en"] == "Draw 2 cards, then discard 1."


def test_placeholder_examples_resolve_in_greed_inc():
    from generator.model.placeholders import PLACEHOLDER_SYNTAX, data_names, resolve
    from generator.model import load_game

    data = data_names(load_game(ROOT / "cards" / "greed-inc"))
    for example, _meaning in PLACEHOLDER_SYNTAX:
        if "field(" in example:
            example = "{field('coal-mine', 'number') + field('sand-pit', 'number')}"
        for lang in ("ja", "en"):
            printed = resolve(example, data, lang)
            assert printed and "{" not in printed, (example, printed)


# --- YAML that breaks on a text --------------------------------------------------------------------


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def only_error(result) -> str:
    assert result.code == 2, result
    assert "Traceback" not in result.err
    [message] = [line for line in result.err.splitlines() if line.startswith("error:")]
    return message


def test_furigana_in_a_flow_mapping_says_to_quote_it(small_game):
    deck = small_game / "decks" / "cards.yaml"
    edit(
        deck, "text: {ja: 手札を1枚引く。, en: Draw 1 card.}", "text: {ja: {手札|てふだ}を1枚引く。, en: Draw 1 card.}"
    )
    line = next(n for n, text in enumerate(deck.read_text(encoding="utf-8").splitlines(), 1) if "てふだ" in text)
    message = only_error(run_subprocess("validate", small_game))
    assert f"cards.yaml:{line}: malformed YAML" in message
    assert "quote the text" in message and "one language a line" in message


def test_a_comma_in_a_flow_mapping_says_to_quote_it(small_game):
    deck = small_game / "decks" / "cards.yaml"
    edit(deck, "en: Draw 1 card.}", "en: Draw 1 card, then discard 1.}")
    line = next(n for n, text in enumerate(deck.read_text(encoding="utf-8").splitlines(), 1) if "then discard" in text)
    message = only_error(run_subprocess("build", small_game, "--out", small_game / "out"))
    assert (
        f"cards.yaml:{line}: cards[apple].text.then discard 1.: 'then discard 1.' is not one of the game's "
        "languages" in message
    )
    assert "a comma inside {ja: ..., en: ...} ends a text" in message and "quote the text" in message
    assert not (small_game / "out").exists()


@pytest.mark.parametrize(
    "title, located, hint",
    [
        ("{小|ちい}さな", "game.yaml:3: malformed YAML", "read as a mapping or a list: quote it"),  # a parse error
        ("{小|ちい}", "game.yaml:3: title.ja: expected text, found a mapping", "quote it"),  # parses, as a mapping
    ],
)
def test_furigana_opening_a_block_style_text_says_to_quote_it(small_game, title, located, hint):
    edit(small_game / "game.yaml", "title: {ja: small, en: small}", f"title:\n  ja: {title}\n  en: small")
    message = only_error(run_subprocess("validate", small_game))
    assert located in message and hint in message


def test_quoted_and_block_style_texts_read_back(small_game, cli):
    deck = small_game / "decks" / "cards.yaml"
    edit(
        deck,
        "text: {ja: 手札を1枚引く。, en: Draw 1 card.}",
        'text:\n      ja: "{手札|てふだ}を1枚引く。"\n      en: Draw 1 card, then discard 1.',
    )
    result = cli("validate", small_game)
    assert result.code == 0, result


# --- files read through the schemas docs/schema.md shows --------------------------------------------


def test_a_bad_label_key_and_an_empty_label_are_located(small_game, cli):
    (small_game / "labels.yaml").write_text(
        "labels:\n  ok: {ja: よし, en: OK}\n  '1st': {ja: 一, en: one}\n  empty:\n", encoding="utf-8"
    )
    result = cli("validate", small_game)
    assert result.code == 2 and "Traceback" not in result.err
    messages = [line for line in result.err.splitlines() if line.startswith("error:")]
    assert any("labels.yaml:3: labels.1st: expected a label key" in m for m in messages), messages
    assert any("labels.yaml:4: labels.empty: expected a mapping of languages to text" in m for m in messages)


def test_a_glossary_term_of_the_wrong_shape_is_located(small_game, cli):
    edit(small_game / "glossary.yaml", "  - {ja: 点, en: point}", "  - {ja: 点, en: {one: point}}")
    result = cli("i18n", "status", small_game)
    assert result.code == 2 and "Traceback" not in result.err
    assert "glossary.yaml:4: terms[1].en: expected a word or a list of words, found a mapping" in result.err


def test_a_broken_lock_file_is_located_and_says_what_to_do(small_game, cli):
    lock = small_game / "i18n.lock.yaml"
    lock.write_text(
        re.sub(
            r'(?m)^  "cards\[apple\]\.text": .*$',
            '  "cards[apple].text": [en]',
            lock.read_text(encoding="utf-8"),
            count=1,
        ),
        encoding="utf-8",
    )
    line = next(n for n, text in enumerate(lock.read_text(encoding="utf-8").splitlines(), 1) if "[en]" in text)
    result = cli("i18n", "status", small_game)
    assert result.code == 2 and "Traceback" not in result.err
    assert f"i18n.lock.yaml:{line}: made_from.cards[apple].text: expected a mapping of" in result.err
    assert "delete it and confirm again" in result.err
