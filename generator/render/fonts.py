"""Which fonts the renderer uses: Debian's Noto CJK (or the PyPI Japanese fallback), in the regional face
of the language being printed.

Noto Sans/Serif CJK come as one collection per weight holding a face per region (JP, SC, TC, HK, KR):
the same character is drawn the way each region writes it (a Japanese 直 is not a Chinese one). The
stylesheets name the Japanese faces; a document in another CJK language gets its own region's faces
instead. Latin, with its diacritics (ä, é, ø, ş...), is in every face.

A game's fonts follow its languages: a document whose text holds no Chinese characters, kana or hangul (an
English-only game, an English build whose every text is translated) prints without a CJK font when none is
installed, in the stylesheets' generic families (fontconfig's sans-serif and serif, DejaVu on Debian). One that
holds such text is refused before it is rendered, naming the text and the package to install for the way
pnpgen was installed (require_fonts_for): never printed as empty boxes.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from generator.errors import InputError, Problem
from generator.paths import INSTALLED, PROJECT_DIR, debian

FAMILY = "Noto Sans CJK JP"
SERIF_FAMILY = "Noto Serif CJK JP"


@functools.cache
def system_families() -> frozenset[str]:
    if not shutil.which("fc-list"):
        return frozenset()
    result = subprocess.run(["fc-list", ":lang=ja", "family"], capture_output=True, text=True)
    names: set[str] = set()
    for line in result.stdout.splitlines():
        names.update(part.strip() for part in line.split(","))
    return frozenset(names)


@functools.cache
def pypi_font_file() -> Path | None:
    try:
        import noto_cjk_sans_jp_regular
    except ImportError:
        return None
    found = sorted(Path(noto_cjk_sans_jp_regular.__file__).parent.glob("*.otf"))
    return found[0] if found else None


def cjk_font_installed() -> bool:
    """Whether Chinese characters, kana and hangul can be printed: Noto CJK from the system or from PyPI."""
    return FAMILY in system_families() or pypi_font_file() is not None


def fetched_font_files() -> tuple[str, ...]:
    """The font files the documents name in @font-face (they are read through the url_fetcher)."""
    if FAMILY in system_families():
        return ()
    fallback = pypi_font_file()
    return (str(fallback),) if fallback else ()


@functools.cache
def font_face_css() -> str:
    """@font-face rules needed to reach the Japanese fonts (none when fontconfig has them, or when there are
    none: see require_fonts_for)."""
    families = system_families()
    fallback = pypi_font_file()
    if FAMILY in families or fallback is None:
        return ""
    css = f'@font-face {{ font-family: "{FAMILY}"; src: url("{fallback.as_uri()}"); }}\n'
    if SERIF_FAMILY not in families:
        css += f'@font-face {{ font-family: "{SERIF_FAMILY}"; src: url("{fallback.as_uri()}"); }}\n'
    return css


# What no Latin font draws: CJK punctuation, kana, ideographs, hangul, full-width forms.
CJK_CHARACTER = re.compile(
    "[\u3000-\u30ff\u3190-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff01-\uffef\U00020000-\U0003134f]"
)
INVISIBLE = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")  # soft hyphens and zero-width breaks the typesetting adds
NOT_PRINTED = re.compile(r"<(style|script)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>", re.S | re.I)


def require_fonts_for(html: str) -> None:
    """Refuse a document whose text needs a CJK font when none is installed (see the module's doc)."""
    if cjk_font_installed():
        return
    text = NOT_PRINTED.sub(" ", html)
    found = CJK_CHARACTER.search(text)
    if found is None:
        return
    shown = " ".join(INVISIBLE.sub("", text[max(0, found.start() - 20) : found.start() + 20]).split())
    raise InputError(
        Problem(
            None,
            None,
            f"the text “{shown}” needs a Japanese font (Noto Sans CJK), and none is installed",
            hint=install_hint(),
        )
    )


def install_hint() -> str:
    """How to install the Japanese fonts for the way pnpgen was installed."""
    pip = pip_fonts_command()
    if debian():
        return f"as root, `apt-get install fonts-noto-cjk`; or, without root, `{pip}`"
    return f"install them with `{pip}`"


def pip_fonts_command() -> str:
    """The command that adds pnpgen's `fonts` extra (Noto Sans CJK JP from PyPI) where pnpgen is installed."""
    python = shlex.quote(sys.executable)
    if not INSTALLED:  # a source folder, installed editable
        return f"{python} -m pip install -e {shlex.quote(str(PROJECT_DIR.resolve()) + '[fonts]')}"
    if f"{os.sep}pipx{os.sep}venvs{os.sep}" in sys.prefix:
        return "pipx inject pnpgen noto-cjk-sans-jp-regular"
    return f"{python} -m pip install 'pnpgen[fonts]'"


# BCP 47 language -> region of the Noto CJK face (by script, then region subtags).
CJK_LANGUAGES = {"ja": "JP", "ko": "KR", "zh": "SC"}
CHINESE_BY_SCRIPT = {"hans": "SC", "hant": "TC"}
CHINESE_BY_REGION = {"tw": "TC", "hk": "HK", "mo": "HK", "cn": "SC", "sg": "SC"}


def is_cjk(lang: str) -> bool:
    """Whether the language is written in Chinese characters, kana or hangul (set as CJK text is)."""
    return lang.split("-")[0].lower() in CJK_LANGUAGES


def region(lang: str) -> str:
    """The Noto CJK region (JP, SC, TC, HK, KR) whose face prints lang; JP for non-CJK languages."""
    parts = [part.lower() for part in lang.split("-")]
    if parts[0] != "zh":
        return CJK_LANGUAGES.get(parts[0], "JP")
    script = next((CHINESE_BY_SCRIPT[p] for p in parts[1:] if p in CHINESE_BY_SCRIPT), None)
    return script or next((CHINESE_BY_REGION[p] for p in parts[1:] if p in CHINESE_BY_REGION), "SC")


def family_for(family: str, lang: str) -> str:
    """A Noto CJK family name moved to lang's region: 'Noto Sans CJK JP' -> 'Noto Sans CJK SC' for zh-Hans."""
    return family[:-2] + region(lang) if family.endswith(" JP") and "CJK" in family else family


def for_language(css: str, lang: str) -> str:
    """The stylesheet with its Noto CJK families in lang's regional face (the PyPI fallback has JP only)."""
    wanted = region(lang)
    if wanted == "JP" or FAMILY not in system_families():
        return css
    return css.replace(FAMILY, family_for(FAMILY, lang)).replace(SERIF_FAMILY, family_for(SERIF_FAMILY, lang))


def for_languages(css: str, lang: str, others) -> str:
    """The stylesheet of a document in lang that also holds text marked with other languages (side-by-side
    rules, two-language aids, a source text printed for want of a translation): every rule naming a Noto
    CJK face is repeated for the elements of each other CJK region, in that region's face."""
    extra = [
        scoped_to(css, other)
        for other in dict.fromkeys(others)
        if region(other) != region(lang) and FAMILY in system_families()
    ]
    return "\n".join([for_language(css, lang), *[rules for rules in extra if rules]])


def scoped_to(css: str, lang: str) -> str:
    """The font-family rules of css that name a Noto CJK face, for the elements marked lang (one more
    attribute in every selector keeps them above the rules they repeat, in the same order)."""
    import tinycss2

    marked = f'[lang="{lang}"]'
    out = []
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule":
            continue
        families = [
            d
            for d in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True)
            if d.type == "declaration" and d.lower_name == "font-family"
        ]
        value = tinycss2.serialize(families[-1].value).strip() if families else ""
        if "CJK" not in value:
            continue
        selectors = []
        for selector in (part.strip() for part in tinycss2.serialize(rule.prelude).split(",")):
            if selector in ("html", "body", ":root"):
                selectors.append(marked)  # the marked element itself takes the document's face
            else:
                selectors += [f"{marked} {selector}"] + ([f"{selector}{marked}"] if "::" not in selector else [])
        out.append(f"{', '.join(selectors)} {{ font-family: {for_language(value, lang)}; }}")
    return "\n".join(out)


def fingerprint() -> str:
    """What identifies the fonts a render used (part of the face cache key)."""
    families = system_families()
    if FAMILY in families:
        return "system:" + ",".join(sorted(f for f in families if "Noto" in f))
    fallback = pypi_font_file()
    return f"pypi:{fallback.name}:{fallback.stat().st_size}" if fallback else "none"
