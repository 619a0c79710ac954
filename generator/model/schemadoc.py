"""The schema of a YAML file kind as documentation: every key with its type, whether it is required, its
default and its meaning, read from the same Spec objects that check the files (docs/schema.md).

A file kind's keys are one section; each mapping nested in it (a setup deal, a board element, a card) is a
section of its own, named by its path in the file (`setup[]`, `elements[] (kind: track)`), linked from the
row that holds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from generator.model.printables import Tagged
from generator.model.schema import Described, Enum, FileKind, ListOf, Localized, MapOf, Object, OneOf, Spec

LOCALIZED_ANCHOR = "texts-in-every-language"


@dataclass
class Row:
    key: str
    type: str
    required: bool
    default: str
    doc: str


@dataclass
class Section:
    path: str  # the mapping's place in the file: "" for the file's own keys, `setup[]`, `cards[]`...
    spec: Object = field(repr=False, compare=False)
    anchor: str
    rows: list[Row] = field(default_factory=list)
    shared: Section | None = None  # a tagged element's kind: the keys every kind has are documented there

    def keys(self) -> set[str]:
        """Every key documented for this mapping, here or in its shared section."""
        return {row.key for row in self.rows} | (self.shared.keys() if self.shared else set())

    @property
    def open(self) -> bool:
        """Whether it also takes keys of the author's choosing."""
        return self.spec.extra


@dataclass
class FileDoc:
    kind: FileKind
    sections: list[Section]

    def section(self, path: str) -> Section | None:
        return next((s for s in self.sections if s.path == path), None)


def document(kind: FileKind) -> FileDoc:
    """Every mapping a file kind may hold, each with its keys, in the order a reader meets them."""
    stem = slug(kind.path)
    sections: list[Section] = []
    anchors: dict[int, str] = {}
    by_spec: dict[int, Section] = {}
    pending: list[tuple[str, Object, Object | None]] = [("", kind.schema, None)]
    while pending:
        path, obj, shared = pending.pop(0)
        if id(obj) in anchors:
            continue
        anchors[id(obj)] = f"{stem}-{slug(path)}" if path else stem
        by_spec[id(obj)] = Section(path, obj, anchors[id(obj)], shared=by_spec.get(id(shared)))
        sections.append(by_spec[id(obj)])
        for key, item in obj.fields.items():
            pending += objects_in(item.spec, f"{path}.{key}" if path else key)
    for section in sections:
        inherited = section.shared.spec.fields if section.shared else {}
        section.rows = [
            Row(key, describe(item.spec, anchors), item.required, format_default(item.default), item.doc)
            for key, item in section.spec.fields.items()
            if inherited.get(key) is not item
        ]
    return FileDoc(kind, sections)


def objects_in(spec: Spec[Any], path: str) -> Iterator[tuple[str, Object, Object | None]]:
    """(path, Object, the Object holding the keys it shares) for each mapping with keys of its own that a value of
    this spec may be."""
    if isinstance(spec, Described):
        yield from objects_in(spec.shape, path)
    elif isinstance(spec, Object):
        if spec.fields:
            yield path, spec, None
    elif isinstance(spec, ListOf):
        yield from objects_in(spec.of, f"{path}[]")
    elif isinstance(spec, MapOf):
        yield from objects_in(spec.values, f"{path}.<{spec.key}>")
    elif isinstance(spec, OneOf):
        for option in spec.options:
            yield from objects_in(option, path)
    elif isinstance(spec, Tagged):
        if spec.common:
            yield f"{path} (every kind)", spec.every, None
        for kind, option in spec.options.items():
            yield f"{path} (kind: {kind})", option, spec.every if spec.common else None


def describe(spec: Spec[Any], anchors: dict[int, str]) -> str:
    """A value's type in a few words, linking to the section of a nested mapping."""
    if isinstance(spec, Described):
        return describe(spec.shape, anchors)
    if isinstance(spec, Object):
        if not spec.fields:
            return "a mapping"
        return f"[{spec.what}](#{anchors[id(spec)]})" if id(spec) in anchors else spec.what
    if isinstance(spec, ListOf):
        return "a list of " + plural(describe(spec.of, anchors))
    if isinstance(spec, MapOf):
        return f"a mapping: {spec.key} → {describe(spec.values, anchors)}"
    if isinstance(spec, Localized):
        return f"[a text in every language](#{LOCALIZED_ANCHOR})"
    if isinstance(spec, Enum):
        values = [f"`{value}`" for value in spec.values]
        return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]
    if isinstance(spec, OneOf) and all(isinstance(o, (Object, ListOf, Localized, Enum)) for o in spec.options):
        return " or ".join(describe(option, anchors) for option in spec.options)
    if isinstance(spec, Tagged):
        links = [f"[{kind}](#{anchors[id(option)]})" for kind, option in spec.options.items() if id(option) in anchors]
        return "an element, by `kind:` " + ", ".join(links)
    return spec.expected


def plural(what: str) -> str:
    """`a whole number from 0 to 9` -> `whole numbers from 0 to 9`, `[check](#a)` -> `[checks](#a)`."""
    link = re.fullmatch(r"\[(.+?)\](\(.+\))", what)
    if link:
        inner = link.group(1)
        return f"[{plural(inner) if inner.startswith('a ') else plural_noun(inner)}]{link.group(2)}"
    match = re.match(r"(?:a|an) (whole |language )?([\w-]+)(.*)", what)
    if not match:
        return what
    return (match.group(1) or "") + plural_noun(match.group(2)) + match.group(3)


def plural_noun(words: str) -> str:
    return words + ("es" if words.endswith(("x", "s")) else "s")


def format_default(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, (list, tuple)):
        return "`[" + ", ".join(format_number(v) for v in value) + "]`"
    if isinstance(value, (int, float)):
        return f"`{format_number(value)}`"
    return f"`{value}`"


def format_number(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def cell(text: str) -> str:
    """Text inside a Markdown table cell: pipes escaped, one line."""
    return " ".join(str(text).split()).replace("|", "\\|")


def markdown(doc: FileDoc, level: int = 2) -> str:
    """A file kind's sections as Markdown tables."""
    kind = doc.kind
    out = [
        f'{"#" * level} <a id="{doc.sections[0].anchor}"></a>`{kind.path}`',
        "",
        kind.doc + ("" if not kind.required else " Every game has one."),
        "",
    ]
    for section in doc.sections:
        if section.path:
            out += [f'{"#" * (level + 1)} <a id="{section.anchor}"></a>`{kind.path}`: `{section.path}`', ""]
            if section.spec.doc:
                out += [section.spec.doc, ""]
        if section.shared:
            keys = ", ".join(f"`{row.key}`" for row in section.shared.rows)
            out += [f"Besides [the keys every kind has](#{section.shared.anchor}) ({keys}):", ""]
        out += ["| key | type | required | default | meaning |", "|---|---|---|---|---|"]
        out += [
            f"| `{row.key}` | {cell(row.type)} | {'yes' if row.required else ''} | {cell(row.default)} | "
            f"{cell(row.doc)} |"
            for row in section.rows
        ]
        if section.open:
            out.append("| *other keys* | | | | taken as they are (checked elsewhere) |")
        out.append("")
    return "\n".join(out)
