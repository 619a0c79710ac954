"""Which Japanese font the renderer uses: Debian's Noto CJK, or the PyPI fallback."""
from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

from generator.errors import InputError, Problem

FAMILY = "Noto Sans CJK JP"
SERIF_FAMILY = "Noto Serif CJK JP"
INSTALL_HINT = ("install a Japanese font: as root `apt-get install fonts-noto-cjk libharfbuzz-subset0`, "
                "or `pip install noto-cjk-sans-jp-regular` in the project's .venv")


@functools.lru_cache(maxsize=None)
def system_families() -> frozenset[str]:
    if not shutil.which("fc-list"):
        return frozenset()
    result = subprocess.run(["fc-list", ":lang=ja", "family"], capture_output=True, text=True)
    names = set()
    for line in result.stdout.splitlines():
        names.update(part.strip() for part in line.split(","))
    return frozenset(names)


@functools.lru_cache(maxsize=None)
def pypi_font_file() -> Path | None:
    try:
        import noto_cjk_sans_jp_regular  # type: ignore
    except ImportError:
        return None
    found = sorted(Path(noto_cjk_sans_jp_regular.__file__).parent.glob("*.otf"))
    return found[0] if found else None


def fetched_font_files() -> tuple[str, ...]:
    """The font files the documents name in @font-face (they are read through the url_fetcher)."""
    if FAMILY in system_families():
        return ()
    fallback = pypi_font_file()
    return (str(fallback),) if fallback else ()


@functools.lru_cache(maxsize=None)
def font_face_css() -> str:
    """@font-face rules needed to reach the Japanese fonts (none when fontconfig has them)."""
    families = system_families()
    if FAMILY in families:
        return ""
    fallback = pypi_font_file()
    if fallback is None:
        raise InputError(Problem(None, None, f"the Japanese font '{FAMILY}' is not installed", hint=INSTALL_HINT))
    css = f'@font-face {{ font-family: "{FAMILY}"; src: url("{fallback.as_uri()}"); }}\n'
    if SERIF_FAMILY not in families:
        css += f'@font-face {{ font-family: "{SERIF_FAMILY}"; src: url("{fallback.as_uri()}"); }}\n'
    return css


def fingerprint() -> str:
    """What identifies the fonts a render used (part of the face cache key)."""
    families = system_families()
    if FAMILY in families:
        return "system:" + ",".join(sorted(f for f in families if "Noto" in f))
    fallback = pypi_font_file()
    return f"pypi:{fallback.name}:{fallback.stat().st_size}" if fallback else "none"
