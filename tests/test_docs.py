"""The documentation: the references written from the code (docs/cli.md, docs/templates.md, docs/schema.md) are
current and name every command, option, template name and attribute, each with its meaning; the README is short
and starts with the two commands; every relative link of the README and docs/ leads somewhere."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from jinja2.sandbox import SandboxedEnvironment

from conftest import ROOT
from generator import render
from generator.build import engine
from generator.build.builder import OutputBuilder
from generator.build.outputs import OutputFile
from generator.commands import NAMES, runner
from generator.commands.clidoc import UndocumentedOption, cli_markdown, commands
from generator.commands.parsing import CommandParser
from generator.commands.schema import REFRESH, references
from generator.model import load_game
from generator.render import boards, face_views, faces, printed, templatedoc, typeset_html
from generator.render.templating import FILTERS, HELPERS, VALUES, TemplateKind, Templates

DOCS = ROOT / "docs"


# --- generated references ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["schema.md", "cli.md", "templates.md"])
def test_committed_reference_is_what_make_docs_writes(name):
    committed = (DOCS / name).read_text(encoding="utf-8")
    assert committed == references()[name], f"docs/{name} is out of date: run `{REFRESH}` and commit it"


def test_write_docs_writes_every_reference(cli, tmp_path):
    result = cli("schema", "--write-docs", tmp_path / "docs")
    assert result.code == 0, result
    written = {path.name: path.read_text(encoding="utf-8") for path in (tmp_path / "docs").iterdir()}
    assert written == references()
    assert "--write-docs" in cli("schema", "--help").out


# --- docs/cli.md --------------------------------------------------------------------------------------


def section(text: str, anchor: str) -> str:
    """A command's part of docs/cli.md: from its heading to the next command's."""
    start = text.index(f'<a id="{anchor}"></a>')
    following = re.search(r'\n#+ <a id="(?!build-outputs)', text[start:])
    return text[start : start + following.start()] if following else text[start:]


def test_every_option_that_help_shows_is_in_its_commands_table(monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")  # --help's lines unwrapped: no option name broken at its hyphen
    text = cli_markdown()
    listed = list(commands(runner.parser()))
    assert {words[0] for words, _ in listed} == set(NAMES)
    for words, command in listed:
        if command.parser.commands:
            continue
        part = section(text, "-".join(words))
        help_text = re.sub(r"`[^`]*`", "", command.parser.format_help())  # not the examples
        shown = set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", help_text)) - {"-h", "--help"}
        missing = [option for option in shown if f"`{option}`" not in part]
        assert not missing, f"pnpgen {' '.join(words)}: {missing} are in --help but not in docs/cli.md"
        assert f"pnpgen {' '.join(words)}" in part


def test_an_options_table_gives_the_value_the_default_and_the_meaning():
    build = section(cli_markdown(), "build")
    assert "| `--paper` | `a4`, `letter`, `all` | `all` | paper size |" in build
    assert "| `--jobs`, `-j` | `JOBS` | one per core | processes for rendering |" in build
    assert "| `--out` | `OUT` | ./output of the current folder | output directory |" in build
    assert "| `--layout` | `duplex`, `gutterfold` | `duplex` |" in build  # a default the help does not state
    volume = next(line for line in build.splitlines() if line.startswith("| `--volume-sheets`"))
    assert "| `50` |" in volume and "(0: one file however large)" in volume and "default" not in volume
    assert "also print each board on one sheet of this larger paper, at 100% |" in build  # %% as --help prints it


def parser_with(**option) -> CommandParser:
    root = CommandParser(prog="pnpgen", description="test")
    command = root.add_subparsers().add_parser("x", help="a command")
    command.add_argument("--thing", **option)
    return root


def test_an_option_without_help_or_with_a_machines_default_fails_the_reference():
    with pytest.raises(UndocumentedOption, match="--thing: give it a help="):
        cli_markdown(parser_with(), outputs="")
    with pytest.raises(UndocumentedOption, match="a path on this machine"):
        cli_markdown(parser_with(default=Path("/home/me/out"), help="where"), outputs="")
    assert "| `--thing` | `THING` | `out/` | where |" in cli_markdown(
        parser_with(default=Path("/home/me/out"), help="where (default: out/)"), outputs=""
    )
    root = CommandParser(prog="pnpgen", description="test")
    root.add_subparsers().add_parser("y")
    with pytest.raises(UndocumentedOption, match="pnpgen y"):
        cli_markdown(root, outputs="")


def test_the_command_parser_parses_as_argparse_does():
    plain = argparse.ArgumentParser(prog="pnpgen")
    plain.add_argument("--n", type=int, default=3)
    ours = CommandParser(prog="pnpgen")
    ours.add_argument("--n", type=int, default=3)
    assert vars(ours.parse_args(["--n", "5"])) == vars(plain.parse_args(["--n", "5"])) == {"n": 5}
    assert [action.dest for action in ours.options or []] == ["n"]  # -h is argparse's own


def test_a_group_of_options_is_listed_under_its_title_and_description():
    root = CommandParser(prog="pnpgen", description="test")
    command = root.add_subparsers().add_parser("x", help="a command")
    command.add_argument("--common", action="store_true", help="for every target")
    command.add_argument_group("--to a", "what a makes").add_argument("--only-a", type=int, default=3, help="a's own")
    command.add_argument_group("--to b", "what b makes")
    assert [action.dest for action in command.options] == ["common"]
    assert [(group.title, [action.dest for action in group.options]) for group in command.groups] == [
        ("--to a", ["only_a"]),
        ("--to b", []),
    ]
    text = cli_markdown(root, outputs="")
    common = text.index("| `--common` |")
    a = text.index("### --to a\n\nwhat a makes\n\n| option | value | default | meaning |")
    assert common < a < text.index("| `--only-a` | `ONLY_A` | `3` | a's own |") < text.index("### --to b")
    assert text.endswith("### --to b\n\nwhat b makes\n\nNo options of its own.\n")


# --- the files pnpgen build writes ------------------------------------------------------------------------


def test_output_file_names_match_with_their_optional_parts():
    cards = OutputFile("cards-<lang>-<paper>[-gutterfold][-<nn>].pdf", "")
    for path in (
        "cards-en-a4.pdf",
        "cards-ja-letter-03.pdf",
        "cards-pt-BR-a4-gutterfold.pdf",
        "cards-ja-a4-gutterfold-01.pdf",
    ):
        assert cards.matches(path), path
    for path in ("cards-en-a4.pdf.tmp", "reprint-en-a4.pdf", "sub/cards-en-a4.pdf", "cards-en.pdf"):
        assert not cards.matches(path), path
    assert OutputFile("build.json", "").matches("build.json") and not OutputFile("build.json", "").matches("buildXjson")


def test_every_builder_declares_its_files_and_build_json_is_listed():
    text = section(cli_markdown(), "build")
    for builder in engine.BUILDERS:
        assert builder.files, f"the {builder.kind} builder declares no files"
        for file in builder.files:
            assert file.doc and f"`{file.name}`" in text
    assert "| `build.json` |" in text


def test_a_file_written_without_a_declaration_stops_the_build(small_game, monkeypatch, tmp_path):
    builders = [OutputBuilder(b.kind, b.build, b.check, files=()) if b.kind == "cards" else b for b in engine.BUILDERS]
    monkeypatch.setattr(engine, "BUILDERS", builders)
    from generator.build import BuildOptions, build

    with pytest.raises(AssertionError, match=r"cards builder's `files`.*cards-en-a4.pdf"):
        build(load_game(small_game), BuildOptions(out=tmp_path / "out", languages="all", papers=("a4",), quiet=True))
    assert not (tmp_path / "out" / "small" / "build.json").exists()


# --- docs/templates.md --------------------------------------------------------------------------------------


def test_every_filter_and_global_a_template_sees_is_declared_with_a_doc():
    env = Templates(None, "en").env
    jinja = SandboxedEnvironment()
    assert set(env.filters) - set(jinja.filters) == set(FILTERS)
    assert set(env.globals) - set(jinja.globals) == set(HELPERS) | set(VALUES)
    text = templatedoc.templates_markdown()
    for name, method in {**FILTERS, **HELPERS}.items():
        assert getattr(Templates, method).__doc__, f"Templates.{method} needs a docstring: docs/templates.md shows it"
        assert f"`x \\| {name}`" in text or f"`{name}(" in text, name
    for name in VALUES:
        assert f"| `{name}` |" in text


def test_a_template_context_takes_exactly_its_declared_names():
    kind = TemplateKind("Test", "t.html", {"a": "one", "b": "two"})
    assert kind.context(a=1, b=2) == {"a": 1, "b": 2}
    with pytest.raises(TypeError, match=r"\['c'\]"):
        kind.context(a=1, b=2, c=3)
    with pytest.raises(TypeError, match=r"\['b'\]"):
        kind.context(a=1)


def every_render_module():
    for info in pkgutil.walk_packages(render.__path__, "generator.render."):
        yield importlib.import_module(info.name)


def test_every_template_kind_and_attribute_declaration_is_in_the_reference():
    kinds = {
        id(value)
        for module in every_render_module()
        for value in vars(module).values()
        if isinstance(value, TemplateKind)
    }
    assert kinds == {id(kind) for kind in templatedoc.TEMPLATE_KINDS}
    declaring = {module.__name__ for module in every_render_module() if "ATTRIBUTES" in vars(module)}
    assert declaring == {module.__name__ for module in templatedoc.ATTRIBUTE_MODULES}


def test_every_data_attribute_the_renderer_reads_or_writes_is_declared():
    declared = {attribute.name for attribute in templatedoc.attributes()}
    used = {}
    for path in sorted((ROOT / "generator" / "render").rglob("*.py")):
        for name in re.findall(r"""["'\s](data-[a-z][a-z-]*[a-z])\b""", path.read_text(encoding="utf-8")):
            used.setdefault(name, path.name)
    assert {"data-fit", "data-shrink", "data-grow", "data-overflow", "data-typeset", "data-src"} <= set(used)
    undeclared = {name: where for name, where in used.items() if name not in declared}
    assert not undeclared, f"declare these attributes (render/attributes.Attribute) with what they do: {undeclared}"
    text = templatedoc.templates_markdown()
    for attribute in templatedoc.attributes():
        assert attribute.doc and attribute.value and f"| `{attribute.name}` |" in text


def test_each_word_of_data_typeset_sets_its_rule_and_nothing_else_does():
    start = typeset_html.Rules(lang="ja")
    for word, meaning in typeset_html.WORDS.items():
        before = dataclasses.replace(start, **{meaning.rule: not meaning.value})
        assert before.apply(word, None) == dataclasses.replace(before, **{meaning.rule: meaning.value}), word
        assert meaning.doc and f"| `{word}` |" in templatedoc.templates_markdown()
    assert start.apply("no-spaceing bogus", None) == start


def test_the_card_views_hold_the_documented_keys(tmp_path):
    game = load_game(ROOT / "cards" / "greed-inc")
    renderer = faces.GameRenderer(game, "en")
    keys = face_views.CARD_FACE.keys
    for deck in game.decks.values():
        context = renderer.deck_context(deck)
        assert set(context) | {"card"} == set(face_views.CARD_FACE.names)
        assert set(context["game"]) == set(keys["game"])
        assert set(context["deck"]) == set(keys["deck"])
        view = face_views.card_view(deck.cards[0], deck, "en", game.source_language)
        assert set(view) - set(deck.fields) == set(keys["card"]) - {"<field>"}, deck.id
    sheet = next(iter(game.printables.tokens.values()))
    assert set(printed.token_deck(game, sheet).cards[0].fields) == set(printed.TOKEN_FIELDS)
    aid = next(iter(game.printables.aids.values()))
    assert set(printed.aid_card(aid, ["ja", "en"], "ja").fields) == set(printed.AID_FIELDS)
    assert {field.name for field in dataclasses.fields(boards.Box)} == set(boards.BOARD_TEMPLATE.keys["boxes[]"])
    element = {"at": [10, 40], "columns": 2, "rows": 1, "size": 12, "cells": []}
    shapes, _labels = boards.hexes(element, "en", "ja")
    assert set(shapes[0]) == set(boards.BOARD_TEMPLATE.keys["hexes[]"])


def test_the_classes_of_a_face_are_styled():
    game = load_game(ROOT / "cards" / "greed-inc")
    renderer = faces.GameRenderer(game, "en")
    styles = renderer.document(next(iter(game.decks.values())), []) + (ROOT / "templates/base/card.css").read_text()
    for name in faces.FACE_CLASSES:
        assert re.search(rf"\.{name}\b", styles), name


# --- expressions (docs/schema.md) ---------------------------------------------------------------------------


def test_expressions_see_the_documented_names_and_functions():
    from generator.model.placeholders import PLACEHOLDER_FUNCTIONS, PLACEHOLDER_NAMES, DataNames
    from generator.model.setup import EXPRESSION_FUNCTIONS, EXPRESSION_NAMES, functions_for, names_for

    game = load_game(ROOT / "cards" / "greed-inc")
    data = DataNames.of(game)
    players = game.players[0]
    assert set(names_for(game, data.tables[players])) == set(EXPRESSION_NAMES)
    assert set(functions_for(game, players)) == set(EXPRESSION_FUNCTIONS)
    assert set(data.names(players)) == set(EXPRESSION_NAMES) | set(PLACEHOLDER_NAMES)
    assert set(data.names(None)) <= set(EXPRESSION_NAMES) | set(PLACEHOLDER_NAMES)
    assert set(data.functions(players)) == set(EXPRESSION_FUNCTIONS) | set(PLACEHOLDER_FUNCTIONS)
    schema = references()["schema.md"]
    for name in [*EXPRESSION_NAMES, *PLACEHOLDER_NAMES, *EXPRESSION_FUNCTIONS, *PLACEHOLDER_FUNCTIONS]:
        assert f"| `{name}` |" in schema, name


# --- README and links ---------------------------------------------------------------------------------


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted(DOCS.glob("*.md"))]


def test_the_readme_is_short_and_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines: move the detail into docs/"
    block = lines[lines.index("```sh") + 1 : lines.index("```")]
    assert lines.index("```sh") <= 2
    assert [line.split("#")[0].strip() for line in block] == ["make", "make test"]
    text = "\n".join(lines)
    for name in NAMES:
        assert f"`pnpgen {name}" in text or f"pnpgen {name} " in text, f"the README says nothing of `pnpgen {name}`"


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors_of(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found = set(re.findall(r'<a id="([^"]+)"></a>', text))
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            found.add(github_anchor(line.lstrip("#")))
    return found


def links_of(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


@pytest.mark.parametrize("path", markdown_files(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file_and_an_anchor_there(path):
    assert path.is_file()
    broken = []
    for link in links_of(path):
        if re.match(r"[a-z]+:", link):
            continue  # http:, https:, mailto:
        target, _, anchor = link.partition("#")
        file = (path.parent / target).resolve() if target else path
        if not file.exists():
            broken.append(f"{link}: no {target}")
        elif anchor and file.suffix == ".md" and anchor not in anchors_of(file):
            broken.append(f"{link}: no #{anchor} in {file.name}")
    assert not broken, f"{path.name}: {broken}"


def test_the_link_check_finds_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# A title\n\n[ok](#a-title) [gone](missing.md) [no anchor](#nowhere)\n", encoding="utf-8")
    assert links_of(page) == ["#a-title", "missing.md", "#nowhere"]
    assert anchors_of(page) == {"a-title"}
