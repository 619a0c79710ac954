"""`pnpgen schema`: the YAML formats of a game's files, written from the schemas that check them; with
--write-docs, every reference written from the code: docs/schema.md, docs/cli.md and docs/templates.md.

Tests fail when a committed reference is not what this writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS_DIR = "docs"
SCHEMA_DOC = f"{DOCS_DIR}/schema.md"
REFRESH = "make docs"  # .venv/bin/pnpgen schema --write-docs docs


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "schema",
        help="print the YAML formats of a game's files (docs/schema.md)",
        description="Print every YAML file kind of a game folder (game.yaml, components.yaml, decks, boards, aids, "
        "token sheets, rules.yaml, labels.yaml, glossary.yaml, i18n.lock.yaml): each key with its type, "
        "whether it is required, its default and its meaning, and the syntax of texts, placeholders, "
        "furigana, expressions and references, written from the schemas pnpgen checks the files with. "
        f"docs/schema.md is its output; `{REFRESH}` refreshes it with the other references.",
    )
    parser.add_argument("--format", choices=["md"], default="md", help="md: Markdown (the default)")
    parser.add_argument(
        "-o",
        "--out",
        metavar="FILE",
        type=Path,
        help="write FILE (replaced only by a complete new one) instead of printing",
    )
    parser.add_argument(
        "--write-docs",
        metavar="DIR",
        type=Path,
        help="write every reference made from the code into DIR, replacing all of them together: schema.md (what "
        "this command prints), cli.md (every command and option) and templates.md (what a template sees)",
    )
    parser.set_defaults(run=run)


def references() -> dict[str, str]:
    """Every generated reference by its file name in docs/."""
    from generator.commands.clidoc import CLI_DOC, cli_markdown
    from generator.render.templatedoc import TEMPLATES_DOC, templates_markdown

    return {"schema.md": schema_markdown(), CLI_DOC: cli_markdown(), TEMPLATES_DOC: templates_markdown()}


def run(args) -> int:
    if args.write_docs is not None:
        return write_docs(args.write_docs)
    text = schema_markdown()
    if args.out is None:
        sys.stdout.write(text)
        return 0
    from generator.fsutil import write_atomic

    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(args.out, text)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


def write_docs(folder: Path) -> int:
    from generator.fsutil import OutputSet, write_atomic

    texts = references()  # all made before any is written
    folder.mkdir(parents=True, exist_ok=True)
    with OutputSet(folder):
        for name, text in texts.items():
            write_atomic(folder / name, text)
    print(f"wrote {', '.join(texts)} into {folder}", file=sys.stderr)
    return 0


def file_kinds() -> list:
    """Every YAML file kind of a game folder, in the order docs/schema.md presents them."""
    from generator.model.glossary import GLOSSARY_FILE_KIND
    from generator.i18n.lock import LOCK_FILE_KIND
    from generator.model.labels import LABELS_FILE_KIND
    from generator.model.loader import COMPONENTS_FILE, DECK_FILE, GAME_FILE
    from generator.model.printables import AID_FILE, BOARD_FILE, TOKENS_FILE
    from generator.model.rules import RULES_FILE_KIND

    return [
        GAME_FILE,
        COMPONENTS_FILE,
        DECK_FILE,
        BOARD_FILE,
        AID_FILE,
        TOKENS_FILE,
        RULES_FILE_KIND,
        LABELS_FILE_KIND,
        GLOSSARY_FILE_KIND,
        LOCK_FILE_KIND,
    ]


def schema_markdown() -> str:
    from generator.model.schemadoc import cell, document, markdown

    kinds = file_kinds()
    out = [
        "# The YAML files of a game",
        "",
        (
            f"<!-- Written by `pnpgen schema --format md` from the schemas that check these files. Do not edit: "
            f"change a `doc` string in the code, then run `{REFRESH}`. -->"
        ),
        "",
        (
            "A game is a folder (`cards/<game>/` or anywhere) holding these YAML files, each checked against the "
            "schema below when any command reads it: a key that is not listed, a value of the wrong type or a "
            "missing required key is an error naming the file, the line and the key (exit status 2)."
        ),
        "",
        "| file | every game | what |",
        "|---|---|---|",
        *[
            f"| [`{kind.path}`](#{document(kind).sections[0].anchor}) | {'yes' if kind.required else ''} | "
            f"{cell(first_sentence(kind.doc))} |"
            for kind in kinds
        ],
        "",
        (
            "Besides them: `templates/` (the game's Jinja2 HTML card templates, `style.css`, `icons/`), the images "
            "rules.yaml's figures name, and the spreadsheets decks read their cards from."
        ),
        "",
        *syntax_sections(),
        *[markdown(document(kind)) for kind in kinds],
    ]
    return "\n".join(out).rstrip("\n") + "\n"


def first_sentence(text: str) -> str:
    head, dot, _ = text.partition(". ")
    return head + "." if dot else text


def own_words_tables() -> list[str]:
    """Each part's words: the label key, its placeholders, pnpgen's Japanese and English."""
    from generator.model.schemadoc import cell
    from generator.render.pnp_guide import GUIDE_WORDS
    from generator.render.rulebook import RULE_WORD_SET
    from generator.render.printed import TILE_WORD_SET
    from generator.render.sheet_labels import SHEET_WORDS

    lines = []
    for words in (RULE_WORD_SET, GUIDE_WORDS, SHEET_WORDS, TILE_WORD_SET):
        lines += [f"On {words.part}:", "", "| label | placeholders | ja | en |", "|---|---|---|---|"]
        for key in words.defaults["en"]:
            names = ", ".join(f"`{{{name}}}`" for name in words.placeholders(key))
            texts = [cell(words.defaults[lang].get(key, "")) for lang in ("ja", "en")]
            lines.append(f"| `{words.label_of(key)}` | {names} | {texts[0]} | {texts[1]} |")
        lines.append("")
    return lines


def syntax_sections() -> list[str]:
    """What every file kind shares: texts in every language, placeholders, furigana, expressions, references."""
    from generator.model.game import Game, Text
    from generator.model.placeholders import PLACEHOLDER_FUNCTIONS, PLACEHOLDER_NAMES, PLACEHOLDER_SYNTAX
    from generator.model.setup import EXPRESSION_FUNCTIONS, EXPRESSION_NAMES, functions_for
    from generator.model.rules import BLOCK_TYPE_DOCS
    from generator.model.schema import FIELD_TYPE_DOCS, KEYS_BY_TYPE, LOCALIZED_DOC
    from generator.model.schemadoc import LOCALIZED_ANCHOR, cell
    from generator.render.printed import GAME_TILE_LABEL
    from generator.render.titles import GAME_LABEL as TITLE_LABEL
    from generator.render.typeset import FURIGANA_SYNTAX

    no_game = Game("", Path(), Text({}), (1, 1), [], "", [], {})  # the functions are listed, never called
    functions = {name: EXPRESSION_FUNCTIONS[name] for name in functions_for(no_game, None)}  # one without a doc fails
    return [
        f'## <a id="{LOCALIZED_ANCHOR}"></a>Texts in every language',
        "",
        LOCALIZED_DOC,
        "",
        '## <a id="placeholders"></a>Placeholders `{...}` in texts',
        "",
        (
            "Numbers and names in texts come from the data, so a data change updates every language and no "
            "translation can state another number. Placeholders resolve in card names and texts, token labels, aid "
            "and board texts and rule blocks; an unknown one is an error with its file, line and language. A board "
            "slot's `format:` keeps its own `{n}` and `{value}`, and a label's `{name}` is filled in by the template."
        ),
        "",
        "| placeholder | prints |",
        "|---|---|",
        *[f"| `{cell(example)}` | {cell(meaning)} |" for example, meaning in PLACEHOLDER_SYNTAX],
        "",
        '## <a id="furigana"></a>Furigana',
        "",
        FURIGANA_SYNTAX,
        "",
        '## <a id="expressions"></a>Expressions',
        "",
        (
            "game.yaml's `checks:`, rules.yaml's `players` columns, `{...}` placeholders and `=expression` values "
            "are expressions in Python's syntax, parsed and interpreted by pnpgen (never `eval`): literals, "
            "arithmetic, comparisons, `and`/`or`/`not`, `x if c else y`, `[i]` and `.key`. They see these names (a "
            "placeholder without `@N` only those that need no player count: `deck` and `total` are then the box's "
            "cards) and functions, `checks:` all but those marked *not in checks*:"
        ),
        "",
        "| name | what it is |",
        "|---|---|",
        *[f"| `{name}` | {cell(doc)} |" for name, doc in EXPRESSION_NAMES.items()],
        *[f"| `{name}` | *not in checks*: {cell(doc)} |" for name, doc in PLACEHOLDER_NAMES.items()],
        "",
        "| function | what it gives |",
        "|---|---|",
        *[f"| `{name}` | {cell(doc)} |" for name, doc in functions.items()],
        *[f"| `{name}` | *not in checks*: {cell(doc)} |" for name, doc in PLACEHOLDER_FUNCTIONS.items()],
        "",
        '## <a id="references"></a>References between cards',
        "",
        (
            "A card field declared `type: ref` holds the id of a card in the deck its `ref:` names "
            "(`partner: {type: ref, ref: companies}`, then `partner: coal-co` on a card); `type: counts` maps such "
            "ids to numbers (`produces: {type: counts, ref: goods}`, then `produces: {oil: 2}`). Validate checks that "
            "every id names a card of that deck (ids inside list and object fields too); a template sees the id and "
            "finds the card in `decks` (`decks.goods[card.produces_from]`). "
            "In texts, `{card:<id>}` prints a card's name and `{card:<id>.<field>}` one of its fields."
        ),
        "",
        '## <a id="field-types"></a>Card field types',
        "",
        (
            "A deck's `fields:` declares its cards' own keys (see `fields.<field>` under "
            "[decks/&lt;deck&gt;.yaml](#decks-deck-yaml)); each declaration's `type:` is one of:"
        ),
        "",
        "| type | value | keys besides `type`, `required`, `doc`, `default` |",
        "|---|---|---|",
        *[
            f"| `{name}` | {cell(doc)} | {', '.join(f'`{k}`' for k in sorted(KEYS_BY_TYPE.get(name, ())))} |"
            for name, doc in FIELD_TYPE_DOCS.items()
        ],
        "",
        '## <a id="block-types"></a>Rule block types',
        "",
        "| type | block |",
        "|---|---|",
        *[f"| `{name}` | {cell(doc)} |" for name, doc in BLOCK_TYPE_DOCS.items()],
        "",
        '## <a id="pnpgens-words"></a>pnpgen\'s own words',
        "",
        (
            "The words pnpgen itself prints come in Japanese and English; labels.yaml may give any of them in any "
            "language under its label key, with the placeholders it lists (the page fills them in). In another "
            "language of the game, a word the game prints with no label in that language is printed in the source "
            "language (or English), flagged, and listed by validate, `pnpgen i18n status`, build.json and `--strict`."
        ),
        "",
        *own_words_tables(),
        "So do the words of the files' titles (what a print queue, a viewer's title bar and a screen reader show: "
        "`Greed Incorporated: rules (English, A4)`), in the file's first language: "
        + ", ".join(f"`{key}`" for key in sorted(TITLE_LABEL.values()))
        + "; `title_lang_<code>` names a language pnpgen has no name for.",
        "",
        "So do the words around a board's tiles (the captions, the page map's title and the assembly note, a "
        "line per tile naming the edges it cuts: `tile_cut_outer`, `tile_cut_overlap`, `tile_cut_outer_overlap` "
        "by the kinds of edges it has): " + ", ".join(f"`{key}`" for key in sorted(GAME_TILE_LABEL.values())) + ".",
        "",
    ]
