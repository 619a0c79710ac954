"""Render face batches: from the cache when their key is known, otherwise on every core."""
from __future__ import annotations

import io
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pikepdf

from generator.fsutil import write_atomic
from generator.render.faces import Batch, render_batch


class FaceCache:
    """Rendered batches stored by content key, and for each face key the batch page that holds it.

    A build renders the faces it misses in a few large batches (few font subsets, both cores busy);
    a later build takes every face it knows from those batches and renders only the changed ones.
    An entry that cannot be read is deleted and rendered again, never trusted.
    """

    def __init__(self, directory: Path | None):
        self.directory = directory
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.pdf"

    def _face_path(self, face_key: str) -> Path:
        return self.directory / "faces" / face_key[:2] / face_key

    def find_face(self, face_key: str) -> tuple[str, int] | None:
        """(batch key, page index) of a face rendered before, if the cache knows it."""
        if self.directory is None:
            return None
        try:
            batch_key, index = self._face_path(face_key).read_text().split()
            return batch_key, int(index)
        except (FileNotFoundError, ValueError):
            return None

    def record_faces(self, batch_key: str, face_keys: list[str]) -> None:
        if self.directory is not None:
            for index, face_key in enumerate(face_keys):
                write_atomic(self._face_path(face_key), f"{batch_key} {index}\n")

    def open_batch(self, batch_key: str) -> pikepdf.Pdf | None:
        data = self.get(batch_key)
        return pikepdf.open(io.BytesIO(data)) if data is not None else None

    def get(self, key: str) -> bytes | None:
        if self.directory is None:
            return None
        path = self._path(key)
        try:
            data = path.read_bytes()
            with pikepdf.open(io.BytesIO(data)) as pdf:
                if len(pdf.pages) == 0:
                    raise ValueError("empty")
        except FileNotFoundError:
            return None
        except Exception:  # a damaged entry is never trusted
            path.unlink(missing_ok=True)
            return None
        return data

    def put(self, key: str, data: bytes) -> None:
        if self.directory is not None:
            write_atomic(self._path(key), data)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def render_batches(batches: list[Batch], cache: FaceCache, jobs: int = 1, on_done=None) -> list[bytes]:
    """PDF bytes for each batch, in order."""
    results: list[bytes | None] = []
    todo = []
    for index, batch in enumerate(batches):
        data = cache.get(batch.key)
        results.append(data)
        if data is None:
            todo.append(index)
    cache.hits += len(batches) - len(todo)
    cache.misses += len(todo)
    if len(todo) > 1 and jobs > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, len(todo))) as pool:
            for index, data in zip(todo, pool.map(render_batch, [batches[i] for i in todo])):
                results[index] = data
                cache.put(batches[index].key, data)
                if on_done:
                    on_done()
    else:
        for index in todo:
            results[index] = render_batch(batches[index])
            cache.put(batches[index].key, results[index])
            if on_done:
                on_done()
    return results


def render_faces(requests: list[tuple[str, str, str, list[str]]], cache: FaceCache, jobs: int = 1,
                 on_done=None) -> list[list[pikepdf.Page]]:
    """The pages of the requested faces, rendering only those the cache does not hold.

    Each request is (frame, base_url, face keys, face HTML): a deck's distinct faces in one language,
    `frame` being the deck's document with no pages. Returns, per request, one page per face.
    The open PDFs are kept alive by the pages' owners list in `render_faces.sources`.
    """
    opened: dict[str, pikepdf.Pdf | None] = {}
    found: list[list] = []
    missing: list[tuple[int, int]] = []  # (request, face)
    for r, (_, _, keys, _) in enumerate(requests):
        row = []
        for f, key in enumerate(keys):
            where = cache.find_face(key)
            if where and where[0] not in opened:
                opened[where[0]] = cache.open_batch(where[0])
            pdf = opened.get(where[0]) if where else None
            if pdf is not None and where[1] < len(pdf.pages):
                row.append(pdf.pages[where[1]])
            else:
                row.append(None)
                missing.append((r, f))
        found.append(row)
    batches, members = _batches_for(requests, missing, jobs)
    cache.hits += sum(len(keys) for _, _, keys, _ in requests) - len(missing)
    cache.misses += len(missing)
    for batch, faces, data in zip(batches, members, render_batches(batches, FaceCache(None), jobs, on_done)):
        cache.put(batch.key, data)
        cache.record_faces(batch.key, [requests[r][2][f] for r, f in faces])
        pdf = pikepdf.open(io.BytesIO(data))
        opened[batch.key] = pdf
        for page, (r, f) in zip(pdf.pages, faces):
            found[r][f] = page
    render_faces.sources = [pdf for pdf in opened.values() if pdf is not None]
    return found


def _batches_for(requests, missing, jobs):
    """Group the missing faces of each deck into batches: about two per core, 4 to 24 faces each
    (a WeasyPrint document holds every page's layout until it is written: larger batches cost memory)."""
    size = max(4, min(24, -(-len(missing) // max(1, 2 * jobs))))
    by_request: dict[int, list[int]] = {}
    for r, f in missing:
        by_request.setdefault(r, []).append(f)
    batches, members = [], []
    for r, faces in by_request.items():
        frame, base_url, _, pages = requests[r]
        for start in range(0, len(faces), size):
            chunk = faces[start:start + size]
            html = frame.replace("</body>", "\n".join(pages[f] for f in chunk) + "\n</body>")
            batches.append(Batch(html, base_url))
            members.append([(r, f) for f in chunk])
    return batches, members
