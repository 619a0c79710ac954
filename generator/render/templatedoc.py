"""docs/templates.md: what a game's templates see and may write, from the declarations the renderer itself uses:
the kinds of template and the names each is given (TemplateKind), the values, filters and helpers of every
template (templating.VALUES, FILTERS, HELPERS and the helpers' docstrings), the classes of a face, and the
`data-` attributes (each module's ATTRIBUTES) with the words of `data-typeset`."""

from __future__ import annotations

import inspect
from collections.abc import Mapping

from generator.model.schemadoc import cell
from generator.paths import GAME_MAY_REPLACE
from generator.render import boards, face_views, faces, printed, templating, typeset_html, vertical
from generator.render.attributes import Attribute
from generator.render.weasy import fit, lastpage

TEMPLATES_DOC = "templates.md"
# Every TemplateKind a game may write, in the order the page presents them.
TEMPLATE_KINDS = (face_views.CARD_FACE, boards.BOARD_TEMPLATE, printed.TILE_CAPTIONS)
# Every module declaring the `data-` attributes it reads or writes.
ATTRIBUTE_MODULES = (fit, typeset_html, lastpage, faces, vertical)


def attributes() -> list[Attribute]:
    return [attribute for module in ATTRIBUTE_MODULES for attribute in module.ATTRIBUTES]


def table(head: tuple[str, str], rows: Mapping[str, str], code: bool = True) -> list[str]:
    return [
        f"| {head[0]} | {head[1]} |",
        "|---|---|",
        *[f"| {f'`{cell(name)}`' if code else cell(name)} | {cell(doc)} |" for name, doc in rows.items()],
        "",
    ]


def slug(title: str) -> str:
    return title.lower().replace(" ", "-")


def kind_section(kind: templating.TemplateKind) -> list[str]:
    out = [f'## <a id="{slug(kind.title)}"></a>{kind.title}', "", f"Templates: {kind.templates}.", ""]
    out += table(("name", "what it holds"), kind.names)
    for name, keys in kind.keys.items():
        whole = name.removesuffix("[]")
        out += [f"Each item of `{whole}` holds:" if name != whole else f"`{name}` holds:", ""]
        out += table(("key", "what it holds"), {f"{name}.{key}": doc for key, doc in keys.items()})
    return out


def signature(name: str, method) -> str:
    """`icon(name, size='4mm', title='')`: a helper's call as a template writes it."""
    shown = []
    for parameter in list(inspect.signature(method).parameters.values())[1:]:  # without self
        if parameter.name == "context":
            continue  # given by Jinja (jinja2.pass_context), not written
        if parameter.kind is parameter.VAR_KEYWORD:
            shown.append(f"**{parameter.name}")
        elif parameter.default is parameter.empty:
            shown.append(parameter.name)
        else:
            shown.append(f"{parameter.name}={parameter.default!r}")
    return f"{name}({', '.join(shown)})"


def documented(method) -> str:
    doc = inspect.getdoc(method)
    if not doc:
        raise ValueError(f"Templates.{method.__name__}: give it a docstring, templates see it (docs/templates.md)")
    return " ".join(doc.split())


def every_template() -> list[str]:
    methods = templating.Templates
    values = dict(templating.VALUES)
    filters = {f"x | {name}": documented(getattr(methods, method)) for name, method in templating.FILTERS.items()}
    helpers = {
        signature(name, getattr(methods, method)): documented(getattr(methods, method))
        for name, method in templating.HELPERS.items()
    }
    return [
        '## <a id="every-template"></a>In every template',
        "",
        *table(("value", "what it holds"), values),
        *table(("filter", "what it gives"), filters),
        *table(("helper", "what it gives"), helpers),
    ]


def attribute_sections() -> list[str]:
    found = attributes()
    out = [
        '## <a id="attributes"></a>Attributes',
        "",
        (
            "Written on an element of a template, these change how pnpgen sets and checks its text. Every text of "
            "every page is checked after layout whatever a template writes: text past its box, the safe area, the trim "
            "or the cut, or onto other text, is reported with the template line it comes from."
        ),
        "",
        "| attribute | value | what it does |",
        "|---|---|---|",
        *[f"| `{a.name}` | {cell(a.value)} | {cell(a.doc)} |" for a in found if a.for_templates],
        "",
        f'### <a id="typeset-words"></a>The words of `{typeset_html.TYPESET.name}`',
        "",
        *table(("word", "what the text gets"), {name: word.doc for name, word in typeset_html.WORDS.items()}),
        '### <a id="pnpgen-attributes"></a>Attributes pnpgen writes itself',
        "",
        "A template does not write these; they are named here because they show in the HTML and in messages.",
        "",
        "| attribute | value | what it says |",
        "|---|---|---|",
        *[f"| `{a.name}` | {cell(a.value)} | {cell(a.doc)} |" for a in found if not a.for_templates],
    ]
    return out


def templates_markdown() -> str:
    """The whole of docs/templates.md."""
    out = [
        "# Templates",
        "",
        (
            "<!-- Written by `pnpgen schema --write-docs docs` from the declarations the renderer uses. Do not edit: "
            "change a declaration's doc in generator/render/, then run `make docs`. -->"
        ),
        "",
        (
            "A card's faces, a token, a player aid, a board and the captions around a board's tiles are drawn by "
            "Jinja2 HTML templates. pnpgen looks for a template in the game's `templates/` folder, then in "
            "`templates/<game>/` beside `cards/`, then among its own, whose names start with `base/` (`{% include "
            '"base/token-style.html" %}`). A game may replace these of pnpgen\'s by a file of the same name in '
            f"its template folder: {', '.join(f'`{name}`' for name in GAME_MAY_REPLACE)}; its `board.css` and "
            "`tile-captions.css` are read after pnpgen's, so they need hold only what they change. Any other of "
            "pnpgen's names there (`card.css`, `rules.css` ...) is an error unless the game's own templates use it, "
            "and so is a `base/` folder. The game's `style.css` (or the stylesheet game.yaml's `style:` names) "
            "applies to every face its own templates draw: cards, and tokens or aids whose `token.html`, "
            "`token-back.html` or `aid.html` it replaces; not to pnpgen's tokens and aids, boards, rule sheets or "
            "sheets. pnpgen's own templates name their classes `pnp-...`, so a game's class names never meet them. "
            "Templates run in Jinja's sandbox, and the pages they make may read only the "
            "game's template files and pnpgen's (and `data:` URIs): any other file or URL stops the build. Place "
            "boxes with `position: absolute` and sizes in mm: CSS grid and flexbox are about six times slower in "
            "WeasyPrint. Every page is then typeset (Japanese spacing, punctuation, furigana, line breaks) whatever "
            "the template wrote: [`data-typeset`](#typeset-words) changes that for an element."
        ),
        "",
        "| kind | names it is given |",
        "|---|---|",
        *[
            f"| [{kind.title}](#{slug(kind.title)}) | {', '.join(f'`{name}`' for name in kind.names)} |"
            for kind in TEMPLATE_KINDS
        ],
        "",
    ]
    for kind in TEMPLATE_KINDS:
        out += kind_section(kind)
        if kind is face_views.CARD_FACE:
            out += [
                "On a token sheet, `card` is a token and holds:",
                "",
                *table(("key", "what it holds"), {f"card.{key}": doc for key, doc in printed.TOKEN_FIELDS.items()}),
                "On a player aid, `card` is the aid and holds:",
                "",
                *table(("key", "what it holds"), {f"card.{key}": doc for key, doc in printed.AID_FIELDS.items()}),
                "A face template lays itself out with these classes:",
                "",
                *table(("class", "what it is"), {f".{name}": doc for name, doc in faces.FACE_CLASSES.items()}),
            ]
    out += every_template()
    out += attribute_sections()
    return "\n".join(out).rstrip("\n") + "\n"
