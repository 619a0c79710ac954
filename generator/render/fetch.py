"""What WeasyPrint may read while it renders: files in pnpgen's and the game's template folders, and the game's
own folder (its pictures, `art/`), nothing else.

A template or a value written into a style could name any URL (`url(http://...)`, `file:///etc/...`); the
fetcher given to WeasyPrint serves files below the allowed folders (and `data:` URIs) and refuses every other
URL. WeasyPrint would only warn about a refused resource and leave it out, so the refusals are collected and
the batch fails with the card that asked and the URL.
"""

from __future__ import annotations

import os
import re
from urllib.parse import unquote, urlsplit

from generator.errors import InputError, Problem
from generator.paths import CARDS_DIR, GAME_TEMPLATES_DIR, TEMPLATES_DIR


class Confinement:
    """What one document may read; `base_url`'s folder and pnpgen's templates, plus some single files."""

    def __init__(self, base_url: str, extra_files: tuple[str, ...] = ()):
        base = _local_path(base_url)
        self.folders = [os.path.realpath(TEMPLATES_DIR)] + ([os.path.realpath(base)] if base else [])
        game = _game_of(base) if base else None
        if game is not None:  # a game's template folder: its pictures (art/) too
            self.folders.append(game)
        self.files = {os.path.realpath(file) for file in extra_files}
        self.refused: list[str] = []

    def allows(self, url: str) -> bool:
        if url.startswith("data:"):
            return True
        path = _local_path(url)
        if path is None:
            return False
        real = os.path.realpath(path.split("?")[0])
        return real in self.files or any(real == root or real.startswith(root + os.sep) for root in self.folders)

    def fetcher(self):
        """A WeasyPrint URL fetcher that asks this confinement first (WeasyPrint imported only here)."""
        from weasyprint.urls import URLFetcher

        confinement = self

        class ConfinedFetcher(URLFetcher):
            def fetch(self, url, headers=None):
                if not confinement.allows(url):
                    confinement.refused.append(url)
                    raise ValueError(f"pnpgen reads no file or URL outside the template folders: {url}")
                return super().fetch(url, headers)

        return ConfinedFetcher(allowed_protocols={"file", "data"}, allow_redirects=False)

    def raise_refused(self, html: str) -> None:
        if not self.refused:
            return
        problems = []
        for url in dict.fromkeys(self.refused):
            card = card_asking(html, url)
            where = f"the face of card '{card}'" if card else "a page"
            problems.append(
                Problem(
                    None,
                    None,
                    f"{where} asks for {url}, outside the game's and pnpgen's template folders: nothing was fetched",
                    f"card {card}" if card else None,
                    hint="put images and files beside the templates and use asset('name') or icon('name')",
                )
            )
        raise InputError(problems)


def _game_of(template_folder: str) -> str | None:
    """The game folder a template folder belongs to: the one holding game.yaml around a game's own templates/,
    or the project's cards/<game> for its templates/<game> (the seed kits)."""
    real = os.path.realpath(template_folder)
    candidates = [os.path.dirname(real)]
    if os.path.dirname(real) == os.path.realpath(GAME_TEMPLATES_DIR):
        candidates.append(os.path.join(os.path.realpath(CARDS_DIR), os.path.basename(real)))
    return next((folder for folder in candidates if os.path.isfile(os.path.join(folder, "game.yaml"))), None)


def _local_path(url: str) -> str | None:
    """The file a file: URL (or a plain path) names; None for any other scheme, or a remote host."""
    parts = urlsplit(url)
    if parts.scheme == "" and url.startswith("/"):
        return url
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    return unquote(parts.path)


def card_asking(html: str, url: str) -> str | None:
    """The id of the card whose face holds the URL (faces are wrapped with data-card, see faces._wrap)."""
    relative_end = "/" + url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]  # a relative reference ends the same
    for candidate in (url, url.split("?")[0], relative_end):
        at = html.find(candidate)
        if at >= 0:
            found = re.findall(r'data-card="([^"]*)"', html[:at])
            return found[-1] if found else None
    return None
