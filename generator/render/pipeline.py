"""Render face batches: from the cache when their key is known, otherwise on every core."""

from __future__ import annotations

import ctypes
import dataclasses
import gc
import io
from dataclasses import dataclass
import json
import multiprocessing
import os
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import cast

import pikepdf

from generator import interrupts, processes
from generator.fsutil import write_cache_entry
from generator.progress import Progress
from generator.render.faces import Batch, FacePages, RenderedBatch, face_keys, render_fitted
from generator.render.weasy.fit import FitBox


class FaceCache:
    """Rendered batches stored by content key, and for each face key the batch page that holds it,
    with the face's measured text boxes (data-fit).

    A build renders the faces it misses in a few large batches (few font subsets, both cores busy);
    a later build takes every face it knows from those batches and renders only the changed ones.
    An entry that cannot be read is deleted and rendered again, never trusted.
    """

    def __init__(self, directory: Path | None, index: str | None = None):
        self.directory = directory
        self.hits = 0
        self.misses = 0
        self.fits: dict[str, list[FitBox]] = {}  # face key -> its text boxes, for every face seen this run
        # An index (one file per game, see save_index) says where each face of the last build is without
        # reading a file per face; the per-face entries stay what the cache is made of.
        self._index_path = directory / "index" / f"{index}.json" if directory is not None and index else None
        self._indexed: dict[str, list] | None = None
        self._used: dict[str, list] = {}  # face key -> [batch key, page, text boxes] of the faces of this run

    def _path(self, key: str) -> Path:
        assert self.directory is not None, "callers look for the directory first"
        return self.directory / key[:2] / f"{key}.pdf"

    def _face_path(self, face_key: str) -> Path:
        assert self.directory is not None, "callers look for the directory first"
        return self.directory / "faces" / face_key[:2] / face_key

    def find_face(self, face_key: str) -> tuple[str, int] | None:
        """(batch key, page index) of a face rendered before, if the cache knows it and its text boxes."""
        if self.directory is None:
            return None
        entry = self._index().get(face_key)
        if entry is None:
            try:
                where, boxes = self._face_path(face_key).read_text().split("\n", 1)
                batch_key, index = where.split()
                entry = [batch_key, int(index), json.loads(boxes)]
            except (FileNotFoundError, ValueError, TypeError):  # an entry from before text boxes were measured
                return None
        try:
            self.fits[face_key] = [FitBox(**box) for box in entry[2]]
        except (TypeError, ValueError):
            return None
        self._used[face_key] = entry
        return entry[0], entry[1]

    def _index(self) -> dict[str, list]:
        if self._indexed is None:
            self._indexed = {}
            if self._index_path is not None:
                try:
                    loaded = json.loads(self._index_path.read_text(encoding="utf-8"))
                    self._indexed = {
                        key: entry for key, entry in loaded.items() if isinstance(entry, list) and len(entry) == 3
                    }
                except (OSError, ValueError, AttributeError):
                    pass  # none yet, or unreadable: the per-face entries are read
        return self._indexed

    def save_index(self) -> None:
        """Write the index of the faces this run found or rendered (when it differs from the one read)."""
        if self._index_path is not None and self._used != self._index():
            write_cache_entry(self._index_path, json.dumps(self._used, separators=(",", ":")))

    def record_faces(self, batch_key: str, face_keys: list[str], fits: list[list[FitBox]]) -> None:
        for index, (face_key, boxes) in enumerate(zip(face_keys, fits)):
            self.fits[face_key] = boxes
            if self.directory is not None:
                measured = [dataclasses.asdict(box) for box in boxes]
                write_cache_entry(self._face_path(face_key), f"{batch_key} {index}\n{json.dumps(measured)}\n")
                self._used[face_key] = [batch_key, index, measured]

    def face_fits(self, face_key: str) -> list[FitBox]:
        """The measured text boxes of a face rendered in this build or an earlier one."""
        if face_key not in self.fits:
            self.find_face(face_key)
        return self.fits.get(face_key, [])

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
        except Exception:  # noqa: BLE001 - a damaged entry is never trusted
            path.unlink(missing_ok=True)
            return None
        return data

    def put(self, key: str, data: bytes) -> None:
        if self.directory is not None:
            write_cache_entry(self._path(key), data)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def render_batches(batches: list[Batch], cache: FaceCache, jobs: int = 1, on_done=None) -> list[bytes]:
    """PDF bytes for each batch, in order; `cache.face_fits(batch.key)` then holds each one's findings
    (every page of the batch)."""
    results: list[bytes | None] = [
        cache.get(batch.key) if cache.find_face(batch.key) else None for batch in batches
    ]  # a batch is known with its text findings
    todo = [index for index, data in enumerate(results) if data is None]
    cache.hits += len(batches) - len(todo)
    cache.misses += len(todo)
    for index, rendered in zip(todo, render_fitted_batches([batches[i] for i in todo], jobs, on_done), strict=True):
        results[index] = rendered.pdf
        cache.put(batches[index].key, rendered.pdf)
        cache.record_faces(batches[index].key, [batches[index].key], [rendered.fits])
    return cast(list[bytes], results)  # every None was rendered above


def render_fitted_batches(batches: list[Batch], jobs: int = 1, on_done=None) -> list[RenderedBatch]:
    """Render every batch (on every core), each with its measured text boxes, in order."""
    if jobs > 1 and batches and (len(batches) > 1 or _pool is not None or "weasyprint" not in sys.modules):
        rendering = render_pool(jobs).map(render_and_release, batches)
    else:  # one process, or one batch with WeasyPrint loaded here and no workers (a server's fork, watch)
        rendering = map(render_fitted, batches)
    results = []
    for rendered in rendering:
        interrupts.raise_if_pending()  # a Ctrl-C swallowed while a worker was forked
        results.append(rendered)
        if on_done:
            on_done()
    return results


_pool: ProcessPoolExecutor | None = None
_pool_jobs = 0


def render_pool(jobs: int) -> ProcessPoolExecutor:
    """Worker processes kept for the whole command: WeasyPrint is imported once, before they are forked, its
    fonts are loaded once per worker, not once per document, and the command's own process never holds a
    layout (memory)."""
    global _pool, _pool_jobs
    if _pool is None or _pool_jobs != jobs:
        close_pool()
        from generator.render import weasy

        weasy.load()  # imported once, here, by the process the workers are forked from: not once in each
        _pool = ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=multiprocessing.get_context("fork"),
            initializer=processes.start_worker,
            initargs=(os.getpid(),),
        )
        _pool_jobs = jobs
        # The objects there are now (the command's, WeasyPrint's modules) are left out of garbage collection
        # from here on: the workers forked at the first task never walk (and copy) them after each document,
        # nor does the command while it imposes or when it exits: 0.3 s of CPU in a cold build of the
        # benchmark deck. (A cycle among them that becomes garbage is freed when the process ends.)
        gc.freeze()
    return _pool


def close_pool() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(cancel_futures=True)
        _pool = None


def render_and_release(batch: Batch) -> RenderedBatch:
    """render_fitted, then give the layout's memory back to the system: a worker that laid out a long
    rule sheet would otherwise keep that peak for the rest of the build."""
    try:
        return render_fitted(batch)
    finally:
        gc.collect()
        release_free_memory()


def release_free_memory() -> None:
    try:
        ctypes.CDLL(None).malloc_trim(0)  # glibc keeps freed heap pages otherwise
    except (OSError, AttributeError):
        pass


@dataclass
class RenderedFaces:
    pages: list[list[pikepdf.Page]]  # per request, one page per face
    sources: list[pikepdf.Pdf]  # the open PDFs the pages belong to: keep them while the pages are used


@dataclass
class FaceRequest:
    """What render_faces needs of a deck's distinct faces in one language."""

    frame: str  # the deck's document with no pages: each batch is its pages put into it
    base_url: str  # what the faces may read (the game's folder, see render/fetch.py)
    keys: list[str]  # the content key of each face
    pages: Sequence[str]  # the HTML page of each face (made only if the face is rendered: FacePages)


def face_request(renderer, faces) -> FaceRequest:
    """What render_faces needs to know of a deck's distinct faces in one language."""
    return FaceRequest(
        renderer.document(faces.deck, []), renderer.base_url(), face_keys(renderer, faces), FacePages(faces)
    )


def render_faces(
    requests: list[FaceRequest], cache: FaceCache, jobs: int = 1, progress: Progress | None = None
) -> RenderedFaces:
    """The pages of the requested faces (each request a deck's distinct faces in one language), rendering
    only those the cache does not hold."""
    opened: dict[str, pikepdf.Pdf | None] = {}
    found: list[list] = []
    missing: list[tuple[int, int]] = []  # (request, face)
    for r, request in enumerate(requests):
        row: list = []  # a cached page, or None for a face still to render
        for f, key in enumerate(request.keys):
            where = cache.find_face(key)
            if where and where[0] not in opened:
                opened[where[0]] = cache.open_batch(where[0])
            pdf = opened.get(where[0]) if where else None
            if pdf is not None and where is not None and where[1] < len(pdf.pages):
                row.append(pdf.pages[where[1]])
            else:
                row.append(None)
                missing.append((r, f))
        found.append(row)
    batches, members = _batches_for(requests, missing, jobs)
    cache.hits += sum(len(request.keys) for request in requests) - len(missing)
    cache.misses += len(missing)
    shown = progress if progress is not None and missing else Progress(quiet=True)
    with shown.task("rendering faces", len(missing), "faces") as task:
        for batch, faces, rendered in zip(batches, members, render_fitted_batches(batches, jobs)):
            task.advance(len(faces))
            cache.put(batch.key, rendered.pdf)
            by_page = [[box for box in rendered.fits if box.page == page] for page in range(len(faces))]
            cache.record_faces(batch.key, [requests[r].keys[f] for r, f in faces], by_page)
            pdf = pikepdf.open(io.BytesIO(rendered.pdf))
            opened[batch.key] = pdf
            for page, (r, f) in zip(pdf.pages, faces):
                found[r][f] = page
    return RenderedFaces(found, [pdf for pdf in opened.values() if pdf is not None])


MAX_BATCH = 50  # faces; every batch subsets its fonts once (about 35 ms a Noto CJK font), so fewer is faster,
# but a WeasyPrint document holds every page's layout until it is written: larger batches cost memory


def _batches_for(requests: list[FaceRequest], missing: list[tuple[int, int]], jobs: int):
    """Group the missing faces of each deck into batches of 4 to MAX_BATCH faces, as many as a multiple of
    the cores."""
    workers = max(1, jobs)
    count = workers * -(-len(missing) // (workers * MAX_BATCH))  # a multiple of the workers: none waits for the last
    size = max(4, -(-len(missing) // max(1, count)))
    by_request: dict[int, list[int]] = {}
    for r, f in missing:
        by_request.setdefault(r, []).append(f)
    batches, members = [], []
    for r, faces in by_request.items():
        request = requests[r]
        for start in range(0, len(faces), size):
            chunk = faces[start : start + size]
            html = request.frame.replace("</body>", "\n".join(request.pages[f] for f in chunk) + "\n</body>")
            batches.append(Batch(html, request.base_url))
            members.append([(r, f) for f in chunk])
    return batches, members
