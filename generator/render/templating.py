"""The Jinja2 environment shared by every template of a game, and located template errors."""
from __future__ import annotations

import traceback
from pathlib import Path

import jinja2
from markupsafe import Markup

from generator.errors import InputError, Problem, did_you_mean
from generator.model.game import Text
from generator.model.labels import LABELS_FILE
from generator.paths import find_template, template_dirs
from generator.render.fonts import is_cjk
from generator.render.typeset import typeset


class MissingAsset(Exception):
    """A template asked for an image or file that is not there (located by the template frame)."""


class UnknownLabel(Exception):
    """A template asked for a label labels.yaml does not have (located by the template frame)."""

    def __init__(self, key: str, known: list[str]):
        super().__init__(key)
        self.key, self.known = key, known


class Untranslated(str):
    """A text printed in the fallback language because it has no translation in the language built:
    the template prints it like any string, and the renderer notes it (listed, flagged on the card)."""

    text: Text
    lang: str

    def __new__(cls, text: Text, lang: str, shown: str | None = None):
        made = super().__new__(cls, text.get(lang) if shown is None else shown)
        made.text, made.lang = text, lang
        return made

    @classmethod
    def like(cls, other: "Untranslated", shown: str) -> "Untranslated":
        return cls(other.text, other.lang, shown)

    def __reduce__(self):
        return Untranslated, (self.text, self.lang, str(self))


def localize(value, lang: str, fallback: str | None = None):
    """Replace every Text inside value by its string in lang (an Untranslated one where lang has none)."""
    if isinstance(value, Text):
        if value.has(lang) or not fallback or not value.has(fallback):
            return value.get(lang, fallback)
        return Untranslated(value, fallback)
    if isinstance(value, dict):
        return {k: localize(v, lang, fallback) for k, v in value.items()}
    if isinstance(value, list):
        return [localize(v, lang, fallback) for v in value]
    return value


class CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept for the process (a template's source checksum is part of the entry): every
    language, and every refresh of `pnpgen serve`, makes a new environment without compiling again."""

    def __init__(self):
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()


class Templates:
    """Loads a game's templates and renders them for one language."""

    def __init__(self, game_dir: Path, lang: str, fallback: str | None = None, labels: dict[str, Text] | None = None):
        self.game_dir = game_dir
        self.lang = lang
        self.fallback = fallback
        self.labels = labels or {}
        self.untranslated: dict[int, Untranslated] = {}  # what the last render printed in the fallback language
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader([str(d) for d in template_dirs(game_dir) if d.is_dir()]),
            autoescape=jinja2.select_autoescape(["html", "svg"], default_for_string=True),
            undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, bytecode_cache=COMPILED,
            finalize=self.printed,
        )
        self.env.filters["tx"] = self.typeset
        self.env.filters["t"] = lambda value: localize(value, lang, fallback)
        self.env.globals.update(icon=self.icon, asset=self.asset, lang=lang, label=self.label, cjk=is_cjk(lang))
        self._assets: dict[str, str | None] = {}

    def printed(self, value):
        """Every value a template prints passes here: note the ones in the fallback language."""
        if isinstance(value, Untranslated):
            self.untranslated[id(value.text)] = value
        return value

    def label(self, key: str, **values) -> str:
        """A template label of labels.yaml in the language built; `{name}` in it is replaced by values[name]."""
        if key not in self.labels:
            raise UnknownLabel(key, list(self.labels))
        text = localize(self.labels[key], self.lang, self.fallback)
        if not values:
            return text
        filled = str(text)
        for name, value in values.items():
            filled = filled.replace("{" + name + "}", str(value))
        return Untranslated.like(text, filled) if isinstance(text, Untranslated) else filled

    def typeset(self, text, phrases: bool = False) -> Markup:
        value = self.printed(localize(text, self.lang, self.fallback))
        if isinstance(value, Untranslated):  # set as the language it is written in
            return Markup(f'<span lang="{value.lang}">{typeset(value, value.lang, phrase_breaks=phrases)}</span>')
        return typeset(value, self.lang, phrase_breaks=phrases)

    def asset(self, name: str) -> str:
        """file:// URL of an image or other file next to the templates; a missing one is an error."""
        if name not in self._assets:  # looked up once per build: a deck asks for the same icons many times
            found = find_template(self.game_dir, name)
            self._assets[name] = found.resolve().as_uri() if found else None
        if self._assets[name] is None:
            raise MissingAsset(name)
        return self._assets[name]

    def icon(self, name: str, size: str = "4mm", title: str = "") -> Markup:
        url = self.asset(f"icons/{name}.svg")
        alt = jinja2.utils.markupsafe.escape(title or name)
        return Markup(f'<img class="icon icon-{name}" src="{url}" alt="{alt}" '
                      f'style="width:{size};height:{size}">')

    def render(self, name: str, context: dict, subject: str) -> str:
        """Render a template; any template mistake becomes a located InputError naming the subject."""
        self.untranslated = {}
        try:
            return self.env.get_template(name).render(**context)
        except jinja2.TemplateSyntaxError as exc:
            raise InputError(Problem(_template_path(self.game_dir, exc.filename or name), exc.lineno,
                                     f"template syntax error: {exc.message}"))
        except jinja2.TemplateNotFound as exc:
            raise InputError(Problem(None, None, f"template '{exc.name}' not found (used for {subject})",
                                     hint="looked in " + ", ".join(str(d) for d in template_dirs(self.game_dir))))
        except MissingAsset as exc:
            file, line = _template_frame(exc)
            looked = ", ".join(str(d) for d in template_dirs(self.game_dir))
            raise InputError(Problem(file, line, f"image or file '{exc}' not found while rendering {subject}",
                                     hint=f"looked in {looked}"))
        except UnknownLabel as exc:
            file, line = _template_frame(exc)
            raise InputError(Problem(file, line, f"no label '{exc.key}' in {LABELS_FILE} (asked for while "
                                     f"rendering {subject})", hint=did_you_mean(exc.key, exc.known)
                                     or f"add `{exc.key}: {{...}}` under `labels:` in {LABELS_FILE}"))
        except jinja2.UndefinedError as exc:
            file, line = _template_frame(exc)
            raise InputError(Problem(file, line, f"{exc.message} while rendering {subject}",
                                     hint="check the field name against the deck's `fields:`"))


def _template_path(game_dir: Path, filename: str) -> Path:
    path = Path(filename)
    return path if path.is_absolute() else (find_template(game_dir, filename) or path)


def _template_frame(exc: BaseException):
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith((".html", ".svg", ".j2", ".css")):
            return Path(frame.filename), frame.lineno
    return None, None
