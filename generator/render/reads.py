"""What a document reads, as the face cache's keys see it: the content of the files it names, not where its
folder is.

A face, board or rule sheet is rendered against a base URL, its folder (the game's template folder, or the
game's folder), and may read the files there and in pnpgen's templates (render/fetch.py). `asset()` and `icon()`
write a file's absolute URL into the HTML; a template or stylesheet may write a relative one. A key hashing the
text as written would change with the folder's place (a copied game, a checkout elsewhere, `--changed-since`'s
old revision unpacked in a temporary folder: every face rendered again) and not with a picture edited in place.
So a key hashes the text with its folder's URL and path put aside, then the name and content of every file the
text names that the document may read, and of the files those name in turn (a stylesheet's or an SVG's own
references). A file in the folder is named by its path inside it, any other by its absolute path.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
from urllib.parse import urljoin

from generator.render.fetch import Confinement, _local_path

# a URL in CSS (`url(...)`, `@import "..."`) or in an HTML or SVG attribute that fetches (src, href, xlink:href,
# data; not data-src), matched where one of STARTS is found (a regex searching the whole face is 7 times slower)
STARTS = ("url(", "@import", "src", "href", "data")
REFERENCE = re.compile(
    r"""(?:url\(\s*|@import\s+|(?:src|href|data)\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'<>()]+))""", re.IGNORECASE
)
NAMING_MORE = (".css", ".svg", ".html", ".htm", ".xml")  # a file of these kinds may name more files
FOLDER = "\0folder/"  # what the folder's URL and path become in a key


class DocumentReads:
    """The files documents rendered against one base URL may read, each hashed once (one object per deck or
    document being keyed, so an edited file is read again by the next build)."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        folder = _local_path(base_url)
        self.folder = os.path.realpath(folder) if folder and os.path.realpath(folder) != os.sep else None
        self.confinement = Confinement(base_url)
        self._read: dict[str, str] = {}  # an absolute URL -> its part of the key ("" for a file not readable)
        self._named: dict[str, list[str]] = {}  # the URL of a file that names more -> the URLs it names

    def key_text(self, text: str) -> str:
        """The text as a key hashes it: its folder's URL and path put aside, then what it reads."""
        written = text.replace(self.base_url, FOLDER)
        if self.folder is not None:
            written = written.replace(self.folder + os.sep, FOLDER)
        return written + "\0reads\0" + "\0".join(sorted(self.parts(text)))

    def parts(self, text: str) -> set[str]:
        """The name and content of each file the text names (and those name in turn) that may be read."""
        found: set[str] = set()
        todo = names_in(text, self.base_url)
        seen: set[str] = set()
        while todo:
            url = todo.pop()
            if url in seen:
                continue
            seen.add(url)
            part = self.part(url)
            if part:
                found.add(part)
                todo.extend(self._named.get(url, []))
        return found

    def part(self, url: str) -> str:
        """The file a URL names as a key sees it: its name and content digest (or `missing`: not there yet);
        empty when the document may not read it (the renderer refuses it: render/fetch.py)."""
        if url not in self._read:
            self._read[url] = ""
            path = _local_path(url)
            if path is not None and self.confinement.allows(url):
                real = os.path.realpath(path)
                inside = self.folder is not None and real.startswith(self.folder + os.sep)
                name = FOLDER + os.path.relpath(real, self.folder) if inside else real
                self._read[url] = f"{name}\0{self._content(real, url)}"
        return self._read[url]

    def _content(self, path: str, url: str) -> str:
        """The digest of a file's content (`missing` when there is no file to read: not there yet, a folder,
        unreadable); the URLs in it noted when its kind may name more files."""
        if not os.path.isfile(path):  # nor a named pipe, which would never end
            return "missing"
        try:
            with open(path, "rb") as stream:
                if not path.lower().endswith(NAMING_MORE):
                    return hashlib.file_digest(stream, "sha256").hexdigest()
                data = stream.read()
        except OSError:  # the renderer cannot read it either
            return "missing"
        self._named[url] = names_in(data.decode("utf-8", "replace"), url)
        return hashlib.sha256(data).hexdigest()


def names_in(text: str, base_url: str) -> list[str]:
    """The absolute URL of every file the text names (its references resolved against base_url), without
    the fragment or query; data: URLs and references to the base itself are left out."""
    found = []
    written = references(text)
    for reference in written + [html.unescape(r) for r in written if "&" in r]:  # in an attribute: &amp; is &
        if reference and not reference.startswith(("#", "data:")):
            url = urljoin(base_url, reference).split("#", 1)[0].split("?", 1)[0]
            if url != base_url:
                found.append(url)
    return found


def references(text: str) -> list[str]:
    """Every reference written in the text, as written."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a letter whose lower case is longer: the places would not match
        lowered = re.sub(r"[^\x00-\x7f]", "?", text).lower()
    found = []
    for start in STARTS:
        at = lowered.find(start)
        while at >= 0:
            before = lowered[at - 1] if at else " "
            if not (before.isalnum() or before in "_-"):  # not data-src, not myurl(
                match = REFERENCE.match(text, at)
                if match:
                    found.append((match.group(1) or match.group(2) or match.group(3) or "").strip())
            at = lowered.find(start, at + 1)
    return found
