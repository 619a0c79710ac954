"""WeasyPrint, loaded faster and lighter, with the same output (the tests compare the bytes).

Changes to how WeasyPrint runs, none to what it produces: the speed patches, each named in SPEED_PATCHES.
PNPGEN_PLAIN_WEASYPRINT turns them off: `1` (or `all`) every one, or a list of their names (`prebuilt-ffi,
hyphenation-cache`). Each checks the WeasyPrint names it relies on before it is installed (internals.py:
the entries naming it, those checked without a layout, a few ms in all); a patch whose check fails, or whose
installation fails, is left off and the command prints one warning naming it and what to do: the PDFs are the
same, made slower. (compactfonts.py is no speed patch: it changes what the PDF embeds, so it is always on,
and tests/test_weasy_internals.py guards its names.)

- C declarations prebuilt: WeasyPrint declares the Pango, HarfBuzz and fontconfig functions it calls as one
  C text that cffi parses with pycparser at every import, about 0.2 s of every process that renders. cffi can
  compile the same declarations once into a module that loads in milliseconds ("out-of-line ABI mode").
  `load()` builds that module on first use, keeps its code in the user's cache keyed by the exact declarations
  and the cffi version (sealed: only code this user's pnpgen wrote is run, see fsutil.write_sealed_entry),
  and runs WeasyPrint's own `text/ffi.py` with only its `cdef` call replaced by the prebuilt object. Anything
  unexpected (another WeasyPrint layout, an unwritable cache) falls back to the plain import, with a warning.
- Whole font files copied only when read (see _FileContent).
- Fonts subset side by side: a document's fonts are subset one after the other (5-10 ms each for Noto CJK
  embedded compact, see compactfonts.py; 35 ms as WeasyPrint embeds it) although HarfBuzz runs without
  Python's lock; they now run in threads, before WeasyPrint's own loop,
  which then finds them done (see subset_fonts_in_parallel).
- Inline styles shared: WeasyPrint computes an element's style once for every element with the same parent
  style, declarations and matching rules, but gives each `style` attribute its own parsed declarations, so
  a template's inline styles, repeated on every face, were computed again for every element (see
  share_inline_styles).
- One font configuration for the process: WeasyPrint makes a FontConfiguration for every render() not given
  one, loading fontconfig's configuration and opening Pango's fonts again (6 ms of a card face); pnpgen's
  documents share one (SharedFonts), which a server makes before it forks. A document that adds a font
  (@font-face) is the last to use it.
- Margin boxes looked up before they are made: WeasyPrint makes and sizes all sixteen margin boxes of every
  page (@top-left...) to find that none has content; a page whose stylesheets give it no margin-box rule
  has none to make (see skip_empty_margin_boxes). A card face is a page: this was a fifth of its layout.
- fontTools' subsetter and variable-font instancer imported when first used: WeasyPrint imports them at
  start (0.06 s) for its fallback subsetter (pnpgen installs HarfBuzz's) and for variable fonts (pnpgen's
  are static); see defer_imports.
- Hyphenation patterns parsed once: pyphen parses a language's dictionary (text patterns) in every process
  that first hyphenates in it, 0.09 s for English in each render worker of a cold build; the parsed
  patterns are kept in the user's cache (sealed), keyed by pyphen's version and the dictionary file, and read
  back in about 0.01 s (see cache_hyphenation).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.abc
import importlib.metadata
import importlib.util
import io
import os
import pickle
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from generator.fsutil import read_sealed_entry, write_sealed_entry
from generator.paths import user_cache_dir
from generator.render.weasy import compactfonts, internals, pictures, taglang
from generator.render.weasy.internals import (
    HYPHENATION_CACHE,
    LATE_IMPORTS,
    LAZY_FONT_FILES,
    NO_EMPTY_MARGIN_BOXES,
    PARALLEL_SUBSETTING,
    PREBUILT_FFI,
    SHARED_FONTS,
    SHARED_INLINE_STYLES,
    split_declarations,
)

FFI_MODULE = "weasyprint.text.ffi"


@functools.lru_cache(maxsize=1)
def weasyprint_version() -> str:
    return importlib.metadata.version("weasyprint")  # without importing WeasyPrint (slow) on a cached build


SWITCH = "PNPGEN_PLAIN_WEASYPRINT"  # the speed patches it names are left off: `1` or `all` for every one
ACTIVE: set[str] = set()  # the speed patches installed in this process
OFF: dict[str, tuple[str, bool]] = {}  # speed patches left off: name -> (what failed, whether it was the check)
_warned = False  # this process said what OFF holds (a fork inherits it: a render worker says nothing)


def load() -> ModuleType:
    """The weasyprint module, with the speed patches its switch leaves on and their checks pass (see the
    module's doc); a patch left off by a failed check is named in one warning."""
    switched_off = switched_off_patches()
    if "weasyprint" not in sys.modules:
        for patch in SPEED_PATCHES:
            if patch.before_import:
                _apply(patch, switched_off)
    try:
        import weasyprint
    finally:
        for name in DEFERRED_IMPORTS:  # WeasyPrint holds them; a later import gets the real module
            if isinstance(sys.modules.get(name), _Deferred):
                del sys.modules[name]
    finder = next((finder for finder in sys.meta_path if isinstance(finder, _PrebuiltFinder)), None)
    if finder is not None and finder.failed:
        ACTIVE.discard(PREBUILT_FFI)
        OFF.setdefault(PREBUILT_FFI, (finder.failed, False))

    compactfonts.embed_compact_fonts()  # what pnpgen embeds, plain or not
    pictures.embed_pictures()
    taglang.mark_languages()  # and how it tags
    for patch in SPEED_PATCHES:
        if not patch.before_import:
            _apply(patch, switched_off)
    _warn_once(switched_off)
    return weasyprint


@dataclass(frozen=True)
class SpeedPatch:
    """A change to how WeasyPrint runs, never to what it writes (tests/test_weasy_patches.py compares the bytes)."""

    name: str  # how PNPGEN_PLAIN_WEASYPRINT and internals.INTERNALS (`patch`) name it
    saves: str  # what it saves, for the warning and the docs
    install: Callable[[], object]
    before_import: bool = False  # installed before WeasyPrint is imported (only then)


def switched_off_patches() -> set[str]:
    """The speed patches PNPGEN_PLAIN_WEASYPRINT names (every one for `1` or `all`), and any unknown name."""
    value = os.environ.get(SWITCH, "").strip()
    if value.lower() in ("1", "all", "yes", "true"):
        return {patch.name for patch in SPEED_PATCHES}
    return {name for name in value.replace(",", " ").split() if name != "0"}


def _apply(patch: SpeedPatch, switched_off: set[str]) -> None:
    """Install a speed patch once its check passes; left off (in OFF, warned about) when the check or the
    installation fails. Once installed it stays for the process."""
    if patch.name in ACTIVE or patch.name in OFF or patch.name in switched_off:
        return
    problems = internals.runtime_problems(patch.name)
    if problems:
        OFF[patch.name] = ("; ".join(problems), True)
        return
    try:
        patch.install()
    except Exception as error:  # noqa: BLE001 - any failure: WeasyPrint as it is, and a warning says so
        OFF[patch.name] = (f"{type(error).__name__}: {error}", False)
        return
    ACTIVE.add(patch.name)


def warn_again() -> None:
    """A new command in this process (a resident server's fork, a test): its load() says again what is off."""
    global _warned
    _warned = False


def _warn_once(switched_off: set[str]) -> None:
    """One warning for each speed patch left off by a failed check, once per command: not in the render
    workers (forked from the process that warned), nor in a command whose fork server warns for it."""
    global _warned
    from generator import processes

    if _warned or processes.fork_server_pid() is not None:
        return
    _warned = True
    known = {patch.name for patch in SPEED_PATCHES}
    lines = [
        f"{SWITCH} names no speed patch {name!r} (they are: {', '.join(sorted(known))})"
        for name in sorted(switched_off - known)
    ]
    saves = {patch.name: patch.saves for patch in SPEED_PATCHES}
    for name, (problem, by_check) in sorted(OFF.items()):
        advice = (
            f"WeasyPrint {weasyprint_version()} is not as pnpgen expects it: install the version pnpgen is tested "
            f"with ({_tested_weasyprint()}), or a pnpgen made for this one"
            if by_check
            else "correct what failed (often a cache folder that cannot be written: XDG_CACHE_HOME or ~/.cache)"
        )
        lines.append(
            f"the speed patch {name!r} ({saves[name]}) is off: {problem}. The PDFs are the same, made slower. "
            f"To have it back: {advice}; {SWITCH}={name} leaves it off without this warning."
        )
    for line in lines:
        print(f"warning: {line}", file=sys.stderr, flush=True)


def _tested_weasyprint() -> str:
    """pnpgen's requirement on WeasyPrint, as installed (pyproject.toml's pin)."""
    try:
        requirements = importlib.metadata.requires("pnpgen") or []
    except importlib.metadata.PackageNotFoundError:
        requirements = []
    pinned = [requirement for requirement in requirements if requirement.lower().startswith("weasyprint")]
    return pinned[0] if pinned else "the one pyproject.toml pins"


class SharedFonts:
    """A weasyprint.HTML laid out with the process' font configuration (see font_configuration): render()
    is what render_measured and its passes call."""

    def __init__(self, html, dpi: int | None = None):
        self.html = html
        self.options = {"dpi": dpi} if dpi else {}  # pictures finer than this embedded scaled down (pictures.py)

    def render(self):
        if SHARED_FONTS not in ACTIVE:
            return self.html.render(**self.options)
        shared = font_configuration()
        try:
            return self.html.render(font_config=shared, **self.options)
        finally:
            if shared._folder is not None:  # the document added a font (@font-face): the next starts afresh
                font_configuration.cache_clear()


@functools.cache
def font_configuration():
    """One FontConfiguration for every document of the process (WeasyPrint makes one per render() when none
    is given: fontconfig's configuration loaded and Pango's fonts opened again, 6 ms of a card face's
    layout). A server makes it before it forks, with its fonts loaded. A document that adds a font of its
    own (@font-face) is the last to use it: no other document sees fonts but fontconfig's and its own."""
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


DEFERRED_IMPORTS = {  # module -> the names imported from it that are functions
    "fontTools.subset": (),  # the subsetter WeasyPrint falls back on without HarfBuzz's
    "fontTools.varLib.instancer": ("instantiateVariableFont",),  # for variable fonts only
}


class _Deferred(ModuleType):
    """Stands for a module WeasyPrint imports at start but uses only off pnpgen's path (see DEFERRED_IMPORTS):
    the real module is imported when one of its attributes is first read, and a function named in
    DEFERRED_IMPORTS (which `from module import name` reads at once) is given as one that does so when
    called."""

    def __getattr__(self, attribute: str):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        if attribute in DEFERRED_IMPORTS.get(self.__name__, ()):
            return functools.partial(_call_deferred, self.__name__, attribute)
        return getattr(importlib.import_module(self.__name__), attribute)


def _call_deferred(module: str, function: str, *args, **kwargs):
    return getattr(importlib.import_module(module), function)(*args, **kwargs)


def defer_imports() -> None:
    """Put a _Deferred in place of each of DEFERRED_IMPORTS not imported yet, for WeasyPrint's import (load()
    takes them out again): fontTools' subsetter and variable-font instancer cost 0.06 s of every process that
    renders, and pnpgen subsets with HarfBuzz and prints with static fonts. The same PDFs."""
    for name in DEFERRED_IMPORTS:
        if name not in sys.modules:
            sys.modules[name] = _Deferred(name)


class _WholeFont:
    """The bytes of a whole font file, read only if something asks for them."""

    def __init__(self, read):
        self.read = read


class _FileContent:
    """Font.file_content, resolving a _WholeFont on first read.

    WeasyPrint copies every font file it uses into a Python bytes object when a document is written (the
    four Noto CJK files are 93 MB), while its HarfBuzz subsetter reads the font itself: the copy is only
    needed by the fontTools fallback. Deferring it saves that memory and the copying in every document.
    """

    def __get__(self, font, owner=None):
        if font is None:
            return self
        value = font.__dict__.get("_file_content")
        if isinstance(value, _WholeFont):
            value = font.__dict__["_file_content"] = value.read()
        return value

    def __set__(self, font, value):
        font.__dict__["_file_content"] = value


def defer_font_copies() -> None:
    """Make WeasyPrint's PDF fonts read their whole font file lazily (see _FileContent)."""
    from weasyprint.pdf import fonts as pdf_fonts

    if isinstance(pdf_fonts.Font.__dict__.get("file_content"), _FileContent):
        return
    read_data = pdf_fonts.get_hb_object_data
    read_face = pdf_fonts.get_pango_font_hb_face
    pango_faces: set[int] = set()  # addresses of faces Pango owns: alive as long as the process' font map

    def pango_face(pango_font):
        face = read_face(pango_font)
        pango_faces.add(int(pdf_fonts.ffi.cast("uintptr_t", face)))
        return face

    def object_data(hb_object, ot_color=None, glyph=None):
        if ot_color is None and glyph is None and int(pdf_fonts.ffi.cast("uintptr_t", hb_object)) in pango_faces:
            return _WholeFont(lambda: read_data(hb_object))
        return read_data(hb_object, ot_color, glyph)

    pango_face.__wrapped__, object_data.__wrapped__ = read_face, read_data  # type: ignore[attr-defined]  # what internals.py checks, set on a function object
    pdf_fonts.get_pango_font_hb_face = pango_face
    pdf_fonts.get_hb_object_data = object_data
    pdf_fonts.Font.file_content = _FileContent()


def cache_dir(kind: str = "ffi") -> Path:
    return user_cache_dir(kind)


def _install_finder() -> None:
    """Have WeasyPrint's text/ffi.py imported with the prebuilt declarations (see _PrebuiltFinder); raises when
    the module is not shaped as split_declarations expects (its entry in internals.py says so first)."""
    source_path = internals.source_file(FFI_MODULE)
    split = split_declarations(ast.parse(source_path.read_text(encoding="utf-8")))
    if split is None:
        raise ValueError(f"{source_path} is not one `ffi.cdef(TEXT)` any more")
    declarations, tree = split
    if not any(isinstance(f, _PrebuiltFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PrebuiltFinder(source_path, declarations, tree))


def prebuilt_ffi(declarations: str):
    """The cffi object for the declarations, from the cached out-of-line module (built if missing)."""
    import cffi

    key = hashlib.sha256(f"{cffi.__version__}\0{sys.version}\0{declarations}".encode()).hexdigest()[:20]
    name = f"_pnpgen_ffi_{key}"
    path = cache_dir() / f"{name}.sealed"
    sealed = read_sealed_entry(path)  # only code this user's pnpgen wrote
    if sealed is not None:
        try:
            return _run_module(name, path, bytes(sealed)).ffi
        except Exception:  # noqa: BLE001 - an entry of another cffi that got the same key: built again
            pass
    builder = cffi.FFI()
    builder.cdef(declarations)
    builder.set_source(name, None)
    source = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()):  # cffi prints "generating ..."
        builder.emit_python_code(source)
    code = source.getvalue().encode("utf-8")
    write_sealed_entry(path, code)
    return _run_module(name, path, code).ffi


def _run_module(name: str, path: Path, source: bytes) -> ModuleType:
    """The module whose source is given (read and checked by the caller), named as if it came from path."""
    module = ModuleType(name)
    module.__file__ = str(path)
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module


class _PrebuiltFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, source_path: Path, declarations: str, tree: ast.Module):
        self.source_path, self.declarations, self.tree = source_path, declarations, tree
        self.used = False
        self.ffi = None
        self.failed = ""  # what went wrong building or loading the prebuilt module: load() warns

    def find_spec(self, fullname, path=None, target=None):
        if fullname != FFI_MODULE or self.used:
            return None
        self.used = True  # one module, once: a failed attempt is not retried
        try:
            self.ffi = prebuilt_ffi(self.declarations)
        except Exception as error:  # noqa: BLE001 - any failure: the plain import, and load() warns
            self.failed = f"{type(error).__name__}: {error}"
            return None  # the normal finder takes over: the plain import
        return importlib.util.spec_from_file_location(fullname, self.source_path, loader=self)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.ffi = self.ffi
        exec(compile(self.tree, str(self.source_path), "exec"), module.__dict__)


def subset_fonts_in_parallel() -> None:
    """Clean (subset) every font of a document in its own thread, then let WeasyPrint build the font
    dictionary as before, skipping the cleaning it finds done. Same fonts, same order, same bytes."""
    from concurrent.futures import ThreadPoolExecutor

    import weasyprint.pdf as pdf_module
    from weasyprint.pdf import fonts as pdf_fonts

    original_build = pdf_fonts.build_fonts_dictionary
    if getattr(pdf_module.build_fonts_dictionary, "subsets_in_parallel", False):
        return
    original_clean = pdf_fonts.Font.clean

    def clean(font, to_unicode, hinting):
        if font.__dict__.pop("_cleaned_for", None) == (to_unicode, hinting):
            return
        original_clean(font, to_unicode, hinting)

    def build(pdf, fonts, compress, subset, options):
        jobs = []
        for file_fonts in _fonts_by_file(fonts).values():
            font = file_fonts[0]
            if font.bitmap:
                continue
            to_unicode: dict = {}
            if subset and not font.used_in_forms:  # what WeasyPrint's loop passes to clean()
                for file_font in file_fonts:
                    to_unicode = {**to_unicode, **file_font.to_unicode}
            jobs.append((font, to_unicode, options["hinting"]))
        if len(jobs) > 1:
            with ThreadPoolExecutor(len(jobs) - 1) as pool:  # this thread subsets the first font meanwhile
                others = [pool.submit(original_clean, *job) for job in jobs[1:]]
                original_clean(*jobs[0])
                for other in others:
                    other.result()
            for font, to_unicode, hinting in jobs:
                font._cleaned_for = (to_unicode, hinting)
        return original_build(pdf, fonts, compress, subset, options)

    build.subsets_in_parallel = True  # type: ignore[attr-defined]  # attributes set on a function object
    build.__wrapped__, clean.__wrapped__ = original_build, original_clean  # type: ignore[attr-defined]  # what internals.py checks, set on a function object
    pdf_fonts.Font.clean = clean
    pdf_module.build_fonts_dictionary = build


def share_inline_styles() -> None:
    """Give the elements of a document whose `style` attributes are the same text the same parsed declarations:
    WeasyPrint's cache of computed styles, keyed by the parent's style, the element's declarations and the
    rules matching it, then computes their style once, as it does for elements styled by the same classes."""
    from weasyprint import css

    original = css.find_style_attributes
    if getattr(original, "shares_inline_styles", False):
        return

    def find_style_attributes(tree, presentational_hints=False, base_url=None):
        parsed: dict[str, list] = {}
        for specificity, element, declarations, url in original(tree, presentational_hints, base_url):
            if specificity == STYLE_ATTRIBUTE_SPECIFICITY:
                declarations = parsed.setdefault(element.get("style"), declarations)
            yield specificity, element, declarations, url

    find_style_attributes.shares_inline_styles = True  # type: ignore[attr-defined]  # attributes set on a function object
    find_style_attributes.__wrapped__ = original  # type: ignore[attr-defined]  # what internals.py checks, set on a function object
    css.find_style_attributes = find_style_attributes


STYLE_ATTRIBUTE_SPECIFICITY = (1, 0, 0)  # what find_style_attributes yields for a style attribute, and only it
NOT_MARGIN_BOXES = {"footnote", "note-area"}  # page areas WeasyPrint lists with the margin boxes, made elsewhere


def skip_empty_margin_boxes() -> None:
    """Make a page's margin boxes only when one of them has content. WeasyPrint makes and sizes all sixteen
    (resolving each one's margins, borders and padding) and then generates those whose `content` is not
    `normal`, `inhibit` or `none`: its own stylesheet styles every margin box of every page, so each has a
    style, but without a rule giving one content there is nothing to generate."""
    from weasyprint import css, layout

    original = layout.make_margin_boxes
    if getattr(original, "skips_empty_margin_boxes", False):
        return
    keywords = [f"@{name}" for name in sorted(css.PAGE_MARGIN_BOXES - NOT_MARGIN_BOXES)]

    def has_content(context, page, keyword: str) -> bool:
        style = context.style_for(page.page_type, keyword)  # None: the page's anonymous style, content normal
        return style is not None and style["content"] not in ("normal", "inhibit", "none")

    def make_margin_boxes(context, page, state):
        if any(has_content(context, page, keyword) for keyword in keywords):
            yield from original(context, page, state)

    make_margin_boxes.skips_empty_margin_boxes = True  # type: ignore[attr-defined]  # attributes set on a function object
    make_margin_boxes.__wrapped__ = original  # type: ignore[attr-defined]  # what internals.py checks, set on a function object
    layout.make_margin_boxes = make_margin_boxes


def cache_hyphenation() -> None:
    """Make pyphen read a dictionary's parsed patterns from the user's cache, parsing and storing them on first
    use (see the module's doc). The patterns are those pyphen parses: the same hyphens."""
    import pyphen  # type: ignore[import-untyped]

    if getattr(pyphen.HyphDict, "cached", False):
        return

    class CachedHyphDict(pyphen.HyphDict):
        cached = True

        def __init__(self, path):
            try:
                entry = _hyphenation_entry(pyphen.__version__, path)
                sealed = read_sealed_entry(entry)  # only patterns this user's pnpgen stored are unpickled
                patterns, maxlen = pickle.loads(sealed) if sealed is not None else (None, None)
                if isinstance(patterns, dict) and isinstance(maxlen, int):
                    self.patterns, self.maxlen, self.cache = patterns, maxlen, {}
                    return
            except Exception:  # noqa: BLE001 - none yet, or of another pyphen: parsed again
                pass
            super().__init__(path)
            try:
                write_sealed_entry(entry, pickle.dumps((self.patterns, self.maxlen)))
            except OSError:
                pass  # an unwritable cache: parsed again next time

    CachedHyphDict.__wrapped__ = pyphen.HyphDict  # pyphen's own, what the tests compare with
    pyphen.HyphDict = CachedHyphDict


def _hyphenation_entry(version: str, path) -> Path:
    path = Path(path)
    stat = path.stat()
    key = hashlib.sha256(f"{version}\0{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()
    return cache_dir("hyphenation") / f"{path.stem}-{key[:20]}.pickle"


def _fonts_by_file(fonts: dict) -> dict:
    grouped: dict = {}
    for font in fonts.values():
        grouped.setdefault(font.hash, []).append(font)
    return grouped


SPEED_PATCHES = (
    SpeedPatch(
        PREBUILT_FFI,
        "WeasyPrint's C declarations compiled once and cached, 0.2 s of each process that renders",
        _install_finder,
        before_import=True,
    ),
    SpeedPatch(
        LATE_IMPORTS,
        "fontTools' subsetter and instancer imported when first used, 0.06 s of each process that renders",
        defer_imports,
        before_import=True,
    ),
    SpeedPatch(LAZY_FONT_FILES, "whole font files read only when asked, 93 MB with the CJK fonts", defer_font_copies),
    SpeedPatch(PARALLEL_SUBSETTING, "a document's fonts subset side by side", subset_fonts_in_parallel),
    SpeedPatch(SHARED_INLINE_STYLES, "a style attribute repeated on every face computed once", share_inline_styles),
    SpeedPatch(NO_EMPTY_MARGIN_BOXES, "no margin boxes made for pages without margin content", skip_empty_margin_boxes),
    SpeedPatch(HYPHENATION_CACHE, "hyphenation patterns parsed once and cached, 0.09 s a language", cache_hyphenation),
    SpeedPatch(SHARED_FONTS, "one font configuration for the process' documents, 6 ms a face", lambda: None),
)
