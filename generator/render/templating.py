"""The Jinja2 environment shared by every template of a game, and located template errors."""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import re
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import FrameType

import jinja2
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment, SecurityError
from markupsafe import Markup

from generator.model.placeholders import resolve_text
from generator.errors import InputError, Problem, did_you_mean
from generator.model.game import Game, Text
from generator.model.labels import LABELS_FILE
from generator.fsutil import read_sealed_entry, write_cache_entry, write_sealed_entry
from generator.paths import TEMPLATES_DIR, template_dirs, user_cache_dir
from generator.render.images import art_file, art_problem
from generator.render.weasy.fit import OVERFLOW_ATTRIBUTE, SOURCE_ATTRIBUTE
from generator.render.fonts import is_cjk
from generator.render.typeset import Words
from generator.render.typeset_html import typeset_page
from generator.render.vocabulary import game_words


class MissingAsset(Exception):
    """A template asked for an image or file that is not there (located by the template frame)."""


class HelperMisuse(Exception):
    """A helper called with a value it cannot take (located by the template frame)."""


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
    def like(cls, other: Untranslated, shown: str) -> Untranslated:
        return cls(other.text, other.lang, shown)

    def __reduce__(self):
        return Untranslated, (self.text, self.lang, str(self))


def localize(value, lang: str, fallback: str | None = None, data=None):
    """Replace every Text inside value by its string in lang (an Untranslated one, in the fallback language,
    where lang has none); with the game's DataNames, its placeholders resolved (model.placeholders.
    resolve_text: the same language as the rule sheets)."""
    if isinstance(value, Text):
        written = fallback if fallback and not value.has(lang) and value.has(fallback) else lang
        shown = resolve_text(value, written, fallback, data) if data is not None else value.get(written, fallback)
        return Untranslated(value, written, shown) if written != lang else shown
    if isinstance(value, dict):
        return {k: localize(v, lang, fallback, data) for k, v in value.items()}
    if isinstance(value, list):
        return [localize(v, lang, fallback, data) for v in value]
    return value


class CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept for the process and in the user's cache (a template's source checksum is part of
    the entry, checked when read): every language, every refresh of `pnpgen serve` and every command makes a
    new environment without compiling again. A game's templates were compiled by every command (0.1 s for the
    kits', a fifth of a build with nothing changed). An entry is code: it is sealed (fsutil.write_sealed_entry),
    and one this user's pnpgen did not write is compiled again, never run."""

    def __init__(self, directory: Path | None):
        self.compiled: dict[str, bytes] = {}
        self.directory = directory

    def load_bytecode(self, bucket) -> None:
        data = self.compiled.get(bucket.key)
        if data is None and self.directory is not None:
            sealed = read_sealed_entry(self.directory / f"{bucket.key}.jinja")
            data = bytes(sealed) if sealed is not None else None
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)  # another version of the template: left empty, compiled again
        except (ValueError, EOFError, TypeError):  # a damaged entry: compiled again
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        data = self.compiled[bucket.key] = bucket.bytecode_to_string()
        if self.directory is not None:
            with contextlib.suppress(OSError):  # an unwritable cache: compiled again next time
                write_sealed_entry(self.directory / f"{bucket.key}.jinja", data)


COMPILED = CompiledTemplates(user_cache_dir("templates"))


JINJA_PARTS = re.compile(r"({{.*?}}|{%.*?%}|{#.*?#})", re.S)
START_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)(?=[\s/>]|$)")


def _with_source(where: str, tag: re.Match[str]) -> str:
    return f'<{tag[1]} {SOURCE_ATTRIBUTE}="{where}"'


def mark_sources(source: str, name: str) -> str:
    """Give every start tag of a template `data-src="NAME:LINE"`, so that text found overflowing on a face
    names the template line it comes from (render/weasy/fit.py). Jinja's own parts are left as they are."""
    out, line = [], 1
    for index, part in enumerate(JINJA_PARTS.split(source)):
        if index % 2 == 0:
            pieces = []
            for number, text in enumerate(part.split("\n")):
                pieces.append(START_TAG.sub(partial(_with_source, f"{name}:{line + number}"), text))
            part = "\n".join(pieces)
        out.append(part)
        line += part.count("\n")
    return "".join(out)


class SourceMarkingLoader(jinja2.FileSystemLoader):
    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        if template.endswith(".html") and parses(environment, source):
            source = mark_sources(source, template)  # a broken template is left as written: its error keeps its line
        return source, filename, uptodate


def parses(environment, source: str) -> bool:
    """Whether the source is a template (every Templates environment parses alike: known sources are not
    parsed again, such as pnpgen's own templates in a server's forks, see compile_builtin, or a template the
    user's cache has the verdict on)."""
    if source not in _PARSED:
        if len(_PARSED) >= PARSED_KEPT:  # a long `serve` or `watch` session sees many versions of a template
            _PARSED.clear()
        _PARSED[source] = _stored_verdict(source, environment)
    return _PARSED[source]


def _stored_verdict(source: str, environment) -> bool:
    key = hashlib.sha256(f"{jinja2.__version__}\0{source}".encode()).hexdigest()  # Jinja's own version parses it
    path = COMPILED.directory / f"{key}.parses" if COMPILED.directory else None
    try:
        if path is not None:
            return {b"1": True, b"0": False}[path.read_bytes()]
    except (OSError, KeyError):
        pass
    try:
        environment.parse(source)
        verdict = True
    except jinja2.TemplateSyntaxError:
        verdict = False
    if path is not None:
        with contextlib.suppress(OSError):
            write_cache_entry(path, b"1" if verdict else b"0")
    return verdict


_PARSED: dict[str, bool] = {}
PARSED_KEPT = 256


def compile_builtin() -> None:
    """Compile pnpgen's own templates into COMPILED: a server does it once, so that its forks do not."""
    env = Templates(None, "en").env
    for path in sorted((TEMPLATES_DIR / "base").glob("*.html")):
        env.get_template(f"base/{path.name}")


MAX_PRODUCT = 1_000_000  # items or characters a template's `*` or `**` may make


class TemplateSandbox(SandboxedEnvironment):
    """Jinja's sandbox (no attribute of Python's internals, no unsafe call: a downloaded game's templates
    cannot run commands), with `*` and `**` bounded so that `'a' * 10**11` is an error, not all the memory."""

    intercepted_binops = frozenset(["*", "**"])
    resolved: set[str]  # the names templates looked up (see RecordingContext)

    def call_binop(self, context, operator, left, right):
        if operator == "**":
            if isinstance(left, int) and isinstance(right, int) and abs(right) > 64 and abs(left) > 1:
                raise SecurityError(f"the power {left} ** {right} is too large")
            return left**right
        for text, times in ((left, right), (right, left)):
            if isinstance(text, (str, list, tuple)) and isinstance(times, int) and len(text) * times > MAX_PRODUCT:
                raise SecurityError(f"repeating {len(text)} items {times} times makes too many")
        return left * right


class RecordingContext(Context):
    """A template context noting every name a template looks up (`environment.resolved`): a face that read
    `decks` depends on other cards than its own."""

    environment: TemplateSandbox

    def resolve_or_missing(self, key: str):
        self.environment.resolved.add(key)
        return super().resolve_or_missing(key)


@dataclass(frozen=True)
class TemplateKind:
    """A kind of template a game may write, and the names pnpgen passes it. The renderer makes each such
    template's context with `context()`, which takes exactly these names; docs/templates.md lists them."""

    title: str
    templates: str  # which files are of this kind
    names: Mapping[str, str]  # each name -> what it holds
    keys: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # a name holding a mapping -> its keys

    def context(self, **values) -> dict:
        if values.keys() != self.names.keys():
            raise TypeError(f"{self.title}: declare or pass {sorted(values.keys() ^ self.names.keys())} (TemplateKind)")
        return values


# What every template sees besides its context: filters and helpers, each documented by its method's docstring,
# and values (docs/templates.md).
FILTERS = {"tx": "typeset", "t": "localized"}
HELPERS = {"label": "label", "icon": "icon", "asset": "asset", "image": "image"}
IMAGE_FITS = ("cover", "contain", "fill")  # CSS object-fit: fill the box (cropping), fit inside it, stretch
FOCUS = re.compile(r"(?:(?:\d{1,3}(?:\.\d+)?%|left|center|right|top|bottom)\s*){1,2}")
LENGTH = re.compile(r"(\d+(?:\.\d+)?)\s*(mm|cm|in|pt|px|q)?", re.IGNORECASE)
MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "px": 25.4 / 96, "q": 0.25}
ART_WORD = {"ja": "仮画像"}  # what a placeholder box says it stands for, by language (else "art")
VALUES = {
    "lang": "the language being built: `ja`, `en`, `pt-BR` ...",
    "cjk": "true when that language is Japanese, Chinese or Korean (`{% if cjk %}` for a layout of its own)",
}


class Templates:
    """Loads a game's templates and renders them for one language."""

    def __init__(
        self,
        game_dir: Path | None,
        lang: str,
        fallback: str | None = None,
        data=None,
        labels: dict[str, Text] | None = None,
        words: Mapping[str, Words] | None = None,
    ):
        self.game_dir = game_dir  # None: pnpgen's own templates only (pages no game styles: the typesetting sample)
        self.dirs = template_dirs(game_dir) if game_dir is not None else [TEMPLATES_DIR]
        self.lang = lang
        self.fallback = fallback
        self.data = data  # the game's DataNames: placeholders in texts are resolved
        self.labels = labels or {}
        self.words = words or {}  # by language, the words the typesetting keeps whole (render/vocabulary.py)
        self.untranslated: dict[int, Untranslated] = {}  # what the last render printed in the fallback language
        self.env = TemplateSandbox(
            loader=SourceMarkingLoader([str(d) for d in self.dirs if d.is_dir()]),
            autoescape=jinja2.select_autoescape(["html", "svg"], default_for_string=True),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            bytecode_cache=COMPILED,
            finalize=self.printed,
        )
        self.env.context_class = RecordingContext
        self.env.resolved = set()
        self.env.filters.update({name: getattr(self, method) for name, method in FILTERS.items()})
        self.env.globals.update({name: getattr(self, method) for name, method in HELPERS.items()})
        self.env.globals.update(lang=lang, cjk=is_cjk(lang))
        self._assets: dict[str, str | None] = {}
        self.used: dict[Path, tuple] = {}  # every file a template asked for -> (template, line, how) of the first use
        self.read_game_files = False  # image() looked in the game's folder: what it printed follows its files

    @classmethod
    def of_game(cls, game: Game, lang: str, data=None) -> Templates:
        """A game's templates for one language: the source language its fallback, its labels, and its own words
        kept whole by the typesetting (render/vocabulary.py)."""
        return cls(game.dir, lang, game.source_language, data, labels=game.labels, words=game_words(game))

    def localized(self, value):
        """A value with every text in it in the language being built, a mapping or a list of texts too, for a test
        or a loop rather than for printing: `{% if board.name | t %}`. (`card`, `deck`, `decks` and `game` hold
        their texts in that language already.)"""
        return localize(value, self.lang, self.fallback, self.data)

    def printed(self, value):
        """Every value a template prints passes here: note the ones in the fallback language."""
        if isinstance(value, Untranslated):
            self.untranslated[id(value.text)] = value
        return value

    def label(self, key: str, **values) -> str:
        """A word of the game's labels.yaml in the language being built: `{{ label('trend') | tx }}`. A `{name}` in
        the label is filled in from the call: `label('cubes', n=4)` for `{ja: "{n}個", en: "{n} cubes"}`. An
        unknown key is an error naming the template line."""
        if key not in self.labels:
            raise UnknownLabel(key, list(self.labels))
        text = localize(self.labels[key], self.lang, self.fallback)
        if not values:
            return text
        filled = str(text)
        for name, value in values.items():
            filled = filled.replace("{" + name + "}", str(value))
        return Untranslated.like(text, filled) if isinstance(text, Untranslated) else filled

    def typeset(self, text, phrases: bool | None = None) -> Markup:
        """A text in the language being built, escaped: `{{ card.name | tx }}`. A text with no translation in it is
        printed in the source language, marked with that language (its font, the face's corner flag). Every page
        is typeset after its template is rendered (see `data-typeset`); `phrases=` is accepted from older
        templates and has no effect."""
        value = self.printed(localize(text, self.lang, self.fallback, self.data))
        if value is None:
            return Markup("")
        if isinstance(value, Untranslated):
            return Markup(f'<span lang="{value.lang}">{jinja2.utils.markupsafe.escape(value)}</span>')
        return jinja2.utils.markupsafe.escape(value)

    def asset(self, name: str) -> str:
        """The URL of a file in the game's template folder (else pnpgen's own), for `src=` and CSS `url()`:
        `<img src="{{ asset('frame.png') }}">`. A missing file is an error naming the template line; an image
        that cannot be decoded stops the build."""
        if name not in self._assets:  # looked up once per build: a deck asks for the same icons many times
            found = _find(self.dirs, name)
            self._assets[name] = found.resolve().as_uri() if found else None
            if found is not None:
                file, line = _calling_template()
                self.used.setdefault(found.resolve(), (file, line, f"asset('{name}')"))
        url = self._assets[name]
        if url is None:
            raise MissingAsset(name)
        return url

    @jinja2.pass_context
    def image(self, context, path, width, height, fit: str = "cover", focus: str = "center") -> Markup:
        """A picture of the game's folder (an `image` field's value, like `card.art`) in a box `width` x `height`
        (numbers in mm, or lengths like `'1.5in'`): `fit='cover'` fills the box and crops what runs over,
        `'contain'` shows all of it inside the box, `'fill'` stretches it (CSS `object-fit`); `focus` is the point
        kept in view, as CSS `object-position` (`'50% 30%'`, `'left top'`): `{{ image(card.art, 40, 30,
        focus='50% 20%') }}`. A card without a picture (none given, `placeholder`, a file missing or broken)
        gets a marked box in its place: the card's name, "art" (「仮画像」 in Japanese) and the box's size."""
        if fit not in IMAGE_FITS:
            raise HelperMisuse(f"image(): fit must be one of {', '.join(IMAGE_FITS)}, not {fit!r}")
        if not isinstance(focus, str) or not FOCUS.fullmatch(focus.strip()):
            raise HelperMisuse(f"image(): focus must be a CSS position like '50% 30%' or 'left top', not {focus!r}")
        size = (box_mm(width, "width"), box_mm(height, "height"))
        written = path if isinstance(path, str) else None
        self.read_game_files = True
        box = f"display:block;width:{size[0]:g}mm;height:{size[1]:g}mm"
        if self.game_dir is None or art_problem(self.game_dir, written) is not None:
            return self.art_placeholder(context, size, box)
        url = art_file(self.game_dir, str(written)).resolve().as_uri()
        return Markup(
            f'<img class="pnp-image" src="{url}" alt="" style="{box};object-fit:{fit};object-position:{focus.strip()}">'
        )

    def art_placeholder(self, context, size: tuple[float, float], box: str) -> Markup:
        """The marked box printed where a picture is still to come: the card's name, "art", the box in mm."""
        card = context.get("card")
        name = localize(card.get("name"), self.lang, self.fallback) if isinstance(card, dict) else None
        lines = [str(name)] if name else []
        lines += [ART_WORD.get(self.lang, "art"), f"{size[0]:g} × {size[1]:g} mm"]
        text = "".join(f'<span style="display:block">{jinja2.utils.markupsafe.escape(line)}</span>' for line in lines)
        return Markup(
            f'<div class="pnp-image-placeholder" {OVERFLOW_ATTRIBUTE}="allow" style="{box};box-sizing:border-box;'
            "overflow:hidden;border:0.4mm dashed #b03a2e;color:#b03a2e;background:#fbeeec;text-align:center;"
            f'padding-top:{max(0.5, size[1] / 2 - 5):g}mm;font:bold 2.6mm/1.3 sans-serif">{text}</div>'
        )

    def icon(self, name: str, size: str = "4mm", title: str = "") -> Markup:
        """The picture `icons/NAME.svg` of the template folder as an `<img class="icon icon-NAME">`, `size` wide and
        high, `title` (else NAME) its alternative text: `{{ icon('coal', '5mm') }}`."""
        url = self.asset(f"icons/{name}.svg")
        alt = jinja2.utils.markupsafe.escape(title or name)
        return Markup(f'<img class="icon icon-{name}" src="{url}" alt="{alt}" style="width:{size};height:{size}">')

    def render(self, name: str, context: dict, subject: str, phrases: bool = True) -> str:
        """Render a template and typeset the result (`phrases`: whether text no element decides for breaks
        Japanese between phrases); any template mistake becomes a located InputError naming the subject."""
        self.untranslated = {}
        try:
            return typeset_page(self.env.get_template(name).render(**context), self.lang, phrases, self.words)
        except jinja2.TemplateSyntaxError as exc:
            raise InputError(
                Problem(
                    _template_path(self.dirs, exc.filename or name), exc.lineno, f"template syntax error: {exc.message}"
                )
            ) from None
        except jinja2.TemplateNotFound as exc:
            raise InputError(
                Problem(
                    None,
                    None,
                    f"template '{exc.name}' not found (used for {subject})",
                    hint="looked in " + ", ".join(str(d) for d in self.dirs),
                )
            ) from None
        except MissingAsset as exc:
            file, line = _template_frame(exc)
            looked = ", ".join(str(d) for d in self.dirs)
            raise InputError(
                Problem(
                    file, line, f"image or file '{exc}' not found while rendering {subject}", hint=f"looked in {looked}"
                )
            ) from None
        except HelperMisuse as exc:
            file, line = _template_frame(exc)
            raise InputError(Problem(file, line, f"{exc} (while rendering {subject})")) from None
        except SecurityError as exc:
            file, line = _template_frame(exc)
            raise InputError(
                Problem(
                    file,
                    line,
                    f"refused while rendering {subject}: {exc}",
                    hint="templates run in a sandbox: no Python internals, bounded repetition",
                )
            ) from None
        except UnknownLabel as exc:
            file, line = _template_frame(exc)
            raise InputError(
                Problem(
                    file,
                    line,
                    f"no label '{exc.key}' in {LABELS_FILE} (asked for while rendering {subject})",
                    hint=did_you_mean(exc.key, exc.known)
                    or f"add `{exc.key}: {{...}}` under `labels:` in {LABELS_FILE}",
                )
            ) from None
        except jinja2.UndefinedError as exc:
            file, line = _template_frame(exc)
            raise InputError(
                Problem(
                    file,
                    line,
                    f"{exc.message} while rendering {subject}",
                    hint="check the field name against the deck's `fields:`",
                )
            ) from None


def box_mm(value, what: str) -> float:
    """A box side given to a helper, in mm: a number of mm, or a length with its unit (`'1.5in'`, `'30mm'`)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 2000:
        return float(value)
    found = LENGTH.fullmatch(value.strip()) if isinstance(value, str) else None
    if found is None or not 0 < float(found[1]) <= 100000:
        raise HelperMisuse(f"image(): {what} must be a length like 40 (mm) or '1.5in', not {value!r}")
    return round(float(found[1]) * MM_PER_UNIT[(found[2] or "mm").lower()], 3)


def _template_path(dirs: list[Path], filename: str) -> Path:
    path = Path(filename)
    return path if path.is_absolute() else (_find(dirs, filename) or path)


def _find(dirs: list[Path], name: str) -> Path | None:
    """The first of the folders holding a file of that name (paths.find_template, for any list of folders)."""
    return next((folder / name for folder in dirs if (folder / name).is_file()), None)


def _calling_template():
    """(file, line) of the template code running now: the innermost frame of a compiled template, its
    Python line mapped back to the template's."""
    frame: FrameType | None = inspect.currentframe()  # this function's, then its callers' outwards
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None and template.filename:
            return Path(template.filename), template.get_corresponding_lineno(frame.f_lineno)
        frame = frame.f_back
    return None, None


def _template_frame(exc: BaseException):
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith((".html", ".svg", ".j2", ".css")):
            return Path(frame.filename), frame.lineno
    return None, None
