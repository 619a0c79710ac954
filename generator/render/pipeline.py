"""Render face batches: from the cache when their key is known, otherwise on every core."""

from __future__ import annotations

import dataclasses
import io
import itertools
from dataclasses import dataclass
import json
import multiprocessing
import os
import sys
import tempfile
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from pathlib import Path
from typing import cast

import pikepdf

from generator import heap, interrupts, processes
from generator.fsutil import write_cache_entry
from generator.progress import Progress
from generator.render import fonts
from generator.model.game import DEFAULT_IMAGE_DPI
from generator.render.batches import Batch, RenderedBatch, render_fitted
from generator.render.faces import FacePages, face_keys, is_tagged
from generator.render.weasy.fit import FitBox
from generator.render.worker import render_and_release


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
        self._sound: set[str] = set()  # batches this run wrote, or read and found whole: not opened to check again
        self._scratch: tempfile.TemporaryDirectory | None = None

    @classmethod
    def scratch(cls) -> FaceCache:
        """A cache that starts empty and is deleted with the object (--no-cache): a build still streams its
        faces through files instead of holding every rendered face in memory."""
        folder = tempfile.TemporaryDirectory(prefix="pnpgen-faces-")
        cache = cls(Path(folder.name), index=None)  # nothing to find again: no index
        cache._scratch = folder
        return cache

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

    def save_index(self, keep_others: bool = False) -> None:
        """Write the index of the faces this run found or rendered (when it differs from the one read); with
        keep_others (a run that built some outputs only), the faces of the last index stay in it."""
        if self._index_path is None:
            return
        used = {**self._index(), **self._used} if keep_others else self._used
        if used != self._index():
            write_cache_entry(self._index_path, json.dumps(used, separators=(",", ":")))

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
            if key not in self._sound:
                with pikepdf.open(io.BytesIO(data)) as pdf:
                    if len(pdf.pages) == 0:
                        raise ValueError("empty")
        except FileNotFoundError:
            return None
        except Exception:  # noqa: BLE001 - a damaged entry is never trusted
            path.unlink(missing_ok=True)
            return None
        self._sound.add(key)
        return data

    def has(self, key: str) -> bool:
        """Whether a batch's PDF is stored (read and checked only when opened)."""
        return self.directory is not None and self._path(key).is_file()

    def put(self, key: str, data: bytes) -> None:
        if self.directory is not None:
            write_cache_entry(self._path(key), data)
            self._sound.add(key)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def render_batches(
    batches: list[Batch], cache: FaceCache, jobs: int = 1, on_done=None, counted: bool = True
) -> list[bytes]:
    """PDF bytes for each batch, in order; `cache.face_fits(batch.key)` then holds each one's findings
    (every page of the batch). `counted`: whether the build's tally of found and rendered documents counts
    them (not when render_missing has counted them already)."""
    results: list[bytes | None] = [
        cache.get(batch.key) if cache.find_face(batch.key) else None for batch in batches
    ]  # a batch is known with its text findings
    todo = [index for index, data in enumerate(results) if data is None]
    if counted:
        cache.hits += len(batches) - len(todo)
        cache.misses += len(todo)
    for index, rendered in zip(todo, render_fitted_batches([batches[i] for i in todo], jobs, on_done), strict=True):
        results[index] = rendered.pdf
        cache.put(batches[index].key, rendered.pdf)
        cache.record_faces(batches[index].key, [batches[index].key], [rendered.fits])
    return cast(list[bytes], results)  # every None was rendered above


def render_fitted_batches(batches: list[Batch], jobs: int = 1, on_done=None) -> list[RenderedBatch]:
    """Render every batch (on every core), each with its measured text boxes, in order."""
    return [rendered for _, rendered in rendered_in_order(batches, jobs, len(batches), on_done)]


IN_FLIGHT_PER_WORKER = 2  # batches handed to the pool ahead of the one awaited: both cores stay busy, and
# neither the batches' HTML nor their PDFs pile up in memory when there are thousands of them


def rendered_in_order(
    batches: Iterable[Batch], jobs: int, count: int, on_done=None, pool: Executor | None = None
) -> Iterator[tuple[Batch, RenderedBatch]]:
    """Render the batches (made as they are needed) on every core, yielding each with its result, in order.
    `pool`: an executor of the caller's own (`pnpgen serve`'s rule sheets) rather than the command's render pool,
    which another thread may be using or replacing."""
    if pool is not None:
        own: deque[tuple[Batch, Future]] = deque()
        for batch in batches:
            own.append((batch, pool.submit(render_and_release, *render_arguments(batch))))
            if len(own) >= IN_FLIGHT_PER_WORKER * jobs:
                yield _finished(*own.popleft(), on_done)
        while own:
            yield _finished(*own.popleft(), on_done)
        return
    if jobs > 1 and (count > 1 or (count and "weasyprint" not in sys.modules)):
        pending: deque[tuple[Batch, Future]] = deque()
        submitted = 0
        for batch in batches:
            if _pool_batches >= BATCHES_PER_WORKER * jobs:  # the workers are replaced once they are done
                while pending:
                    yield _finished(*pending.popleft(), on_done)
                close_pool()
            pending.append((batch, submit_render(batch, jobs)))
            submitted += 1
            if len(pending) >= IN_FLIGHT_PER_WORKER * jobs:
                yield _finished(*pending.popleft(), on_done)
        while pending:
            yield _finished(*pending.popleft(), on_done)
        if submitted >= BATCHES_PER_WORKER * jobs // 2:
            close_pool()  # workers worn by a long run would keep their memory, idle, while the sheets are written
    else:  # one process, or one batch with WeasyPrint loaded here (a server's fork, watch): no worker to wake
        for batch in batches:
            yield batch, _done(render_fitted(batch), on_done)


def _finished(batch: Batch, future, on_done) -> tuple[Batch, RenderedBatch]:
    return batch, _done(future.result(), on_done)


def _done(rendered: RenderedBatch, on_done) -> RenderedBatch:
    interrupts.raise_if_pending()  # a Ctrl-C swallowed while a worker was forked
    if on_done:
        on_done()
    return rendered


_pool: ProcessPoolExecutor | None = None
_pool_jobs = 0
_pool_batches = 0  # batches handed to the current workers

BATCHES_PER_WORKER = 40  # then the workers are replaced by fresh forks (after about 2,000 faces each): a
# worker's memory grows with every document it lays out (by about half a megabyte, in Pango and the C
# allocator, not in Python objects), so workers kept for a 20,000-card game's 800 batches grew by 200 MB each.
# The old workers finish their last batches before the new ones start (never four workers' memory at once):
# a core waits about half a batch each time.


def submit_render(batch: Batch, jobs: int) -> Future:
    global _pool_batches
    future = render_pool(jobs).submit(render_and_release, *render_arguments(batch))
    _pool_batches += 1
    return future


def render_arguments(batch: Batch) -> tuple:
    """What a worker's render_and_release is given for a batch."""
    fonts.require_fonts_for(batch.html)  # before a worker prints its CJK text as empty boxes
    return batch.html, batch.base_url, batch.tagged, batch.image_dpi, batch.decided


def new_render_pool(jobs: int) -> ProcessPoolExecutor:
    """An executor of `jobs` render workers forked from this process (WeasyPrint imported here first), for a caller
    that keeps its own apart from the command's render pool."""
    from generator.render import weasy

    weasy.load()
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("fork"),
        initializer=processes.start_worker,
        initargs=(os.getpid(),),
    )


def render_pool(jobs: int) -> ProcessPoolExecutor:
    """Worker processes kept for the whole command, forked from a process that has WeasyPrint imported (the
    fork server the command started, or else this process, which imports it now): WeasyPrint is imported
    once, not in each worker, its fonts are loaded once per worker, not once per document, and the command's
    own process never holds a layout (memory)."""
    global _pool, _pool_jobs
    if _pool is None or _pool_jobs != jobs:
        close_pool()
        forked_by_server = processes.uses_fork_server()
        if not forked_by_server:
            from generator.render import weasy

            weasy.load()  # imported once, here, by the process the workers are forked from: not once in each
        _pool = ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=multiprocessing.get_context("forkserver" if forked_by_server else "fork"),
            initializer=processes.start_worker,
            initargs=(None if forked_by_server else os.getpid(),),
        )
        _pool_jobs = jobs
        # The objects there are now (the command's, WeasyPrint's modules) are left out of garbage collection
        # from here on (generator/heap.py: the entry points thaw them when they end): the command never walks
        # them again while it imposes or when it exits (0.3 s of CPU in a cold build of the benchmark deck),
        # and the workers, forked here at once, never walk them after a document: a collection in a worker
        # writes to the header of every object it walks, copying the pages it shares with the command (with a
        # 20,000-card game loaded, the whole heap, once per worker).
        heap.freeze()
        _pool.submit(os.getpid).result()
    return _pool


def close_pool() -> None:
    global _pool, _pool_batches
    if _pool is not None:
        _pool.shutdown(cancel_futures=True)
        _pool = None
    _pool_batches = 0


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
    pages: FacePages  # the HTML page of each face (made only if the face is rendered)
    tagged: bool = False  # rendered as tagged PDFs (render/faces.is_tagged)
    image_dpi: int = DEFAULT_IMAGE_DPI  # finer pictures are embedded scaled down to this (game.yaml print:)


def face_request(renderer, faces) -> FaceRequest:
    """What render_faces needs to know of a deck's distinct faces in one language."""
    return FaceRequest(
        renderer.document(faces.deck, []),
        renderer.base_url(),
        face_keys(renderer, faces),
        FacePages(faces),
        is_tagged(faces.deck),
        renderer.game.image_dpi,
    )


def render_faces(
    requests: list[FaceRequest], cache: FaceCache, jobs: int = 1, progress: Progress | None = None
) -> RenderedFaces:
    """The pages of the requested faces (each request a deck's distinct faces in one language), rendering
    only those the cache does not hold. Every page stays open: for a few decks (export, serve, boards); a
    build of card sheets streams its faces through the cache instead (render_missing, CachedFaces)."""
    if cache.directory is None:  # nothing to stream through: keep what is rendered open
        return _render_faces_open(requests, cache, jobs, progress)
    render_missing(requests, cache, jobs, progress=progress)
    source = CachedFaces(cache)
    pages = [[source.page(key) for key in request.keys] for request in requests]
    return RenderedFaces(pages, list(source.batches.values()))


def _render_faces_open(
    requests: list[FaceRequest], cache: FaceCache, jobs: int, progress: Progress | None
) -> RenderedFaces:
    missing = [(r, f) for r, request in enumerate(requests) for f in range(len(request.keys))]
    found: list[list] = [[None] * len(request.keys) for request in requests]
    cache.misses += len(missing)
    members = _batch_members(missing, jobs)
    opened = []
    with _rendering_task(progress, len(missing)) as task:
        stream = rendered_in_order(_batches(requests, members), jobs, len(members))
        for faces, (batch, rendered) in zip(members, stream):
            task.advance(len(faces))
            cache.record_faces(batch.key, [requests[r].keys[f] for r, f in faces], _fits_by_page(rendered, len(faces)))
            pdf = pikepdf.open(io.BytesIO(rendered.pdf))
            opened.append(pdf)
            for page, (r, f) in zip(pdf.pages, faces):
                found[r][f] = page
    return RenderedFaces(found, opened)


def _rendering_task(progress: Progress | None, faces: int):
    shown = progress if progress is not None and faces else Progress(quiet=True)
    return shown.task("rendering faces", faces, "faces")


def render_missing(
    requests: list[FaceRequest],
    cache: FaceCache,
    jobs: int = 1,
    on_done=None,
    wanted: set[str] | None = None,
    extra: Iterable[Batch] = (),
    progress: Progress | None = None,
) -> int:
    """Render into the cache the requested faces it does not hold (of those `wanted`, when given), then the
    `extra` batches it does not hold (sheet labels), on every core, keeping none of them in memory: each
    batch's PDF is stored as it arrives. `on_done` is called after each batch; `progress` shows the faces
    rendered as a task, then the sheet-label documents. Returns the number of batches rendered."""
    missing, found = [], 0
    stored: dict[str, bool] = {}  # batch key -> its PDF is in the cache and can be read (a damaged one is not)
    for r, request in enumerate(requests):
        for f, key in enumerate(request.keys):
            if wanted is not None and key not in wanted:
                continue
            where = cache.find_face(key)
            if where is not None and where[0] not in stored:
                stored[where[0]] = cache.has(where[0]) and cache.get(where[0]) is not None
            if where is not None and stored[where[0]]:
                found += 1
            else:
                missing.append((r, f))
    cache.hits += found
    cache.misses += len(missing)
    extra = list(extra)
    unknown = [batch for batch in extra if cache.find_face(batch.key) is None or cache.get(batch.key) is None]
    cache.hits += len(extra) - len(unknown)
    cache.misses += len(unknown)
    members = _batch_members(missing, jobs, after=len(unknown) * EXTRA_DOCUMENT_FACES)
    rendered_count = 0
    stream = rendered_in_order(
        itertools.chain(_batches(requests, members), unknown), jobs, len(members) + len(unknown), on_done
    )
    with _rendering_task(progress, len(missing)) as task:
        for faces, (batch, rendered) in zip(members, stream):
            task.advance(len(faces))
            cache.put(batch.key, rendered.pdf)
            cache.record_faces(batch.key, [requests[r].keys[f] for r, f in faces], _fits_by_page(rendered, len(faces)))
            rendered_count += 1
    shown = progress if progress is not None and unknown else Progress(quiet=True)
    with shown.task("rendering sheet labels", len(unknown), "documents") as task:  # a large game's: a minute
        for batch, rendered in stream:
            cache.put(batch.key, rendered.pdf)
            cache.record_faces(batch.key, [batch.key], [rendered.fits])
            rendered_count += 1
            task.advance()
    return rendered_count


def _fits_by_page(rendered: RenderedBatch, pages: int) -> list[list[FitBox]]:
    return [[box for box in rendered.fits if box.page == page] for page in range(pages)]


class CachedFaces:
    """Rendered faces read back from the cache by face key, each batch opened when a face of it is first
    wanted. A volume of sheets opens what it places and closes it once written, so a build holds the faces
    of one volume at a time, not the game's. (Not render/faces.py's FacePages: that is a deck's face HTML.)"""

    def __init__(self, cache: FaceCache):
        self.cache = cache
        self.batches: dict[str, pikepdf.Pdf] = {}
        self._pages: dict[str, pikepdf.Page] = {}

    def page(self, face_key: str) -> pikepdf.Page:
        if face_key not in self._pages:
            where = self.cache.find_face(face_key)
            pdf = None
            if where is not None:
                pdf = self.batches.get(where[0]) or self.cache.open_batch(where[0])
            if pdf is None or where is None or where[1] >= len(pdf.pages):
                raise LookupError(f"face {face_key[:16]} is not in the face cache {self.cache.directory}")
            self.batches[where[0]] = pdf
            self._pages[face_key] = pdf.pages[where[1]]
        return self._pages[face_key]

    def close(self) -> None:
        self._pages.clear()
        for pdf in self.batches.values():
            pdf.close()
        self.batches.clear()


MAX_BATCH = 50  # faces; every batch subsets its fonts once (5-10 ms a Noto CJK font), so fewer is faster,
# but a WeasyPrint document holds every page's layout until it is written: larger batches cost memory
EXTRA_DOCUMENT_FACES = 30  # what a document of sheet labels (up to 50 pages) costs, in faces: 34 label pages
# take 0.19 s of CPU, a face 5.5 ms in a batch of 50


def _batch_members(missing: list[tuple[int, int]], jobs: int, after: int = 0) -> list[list[tuple[int, int]]]:
    """Group the missing faces of each deck into batches of 4 to MAX_BATCH faces, as many as a multiple of
    the cores. `after` is the faces' worth of documents rendered after these (sheet labels), which the worker
    that finishes first takes. When the faces are one deck's, one batch a core (the benchmark deck: 100 faces
    and its labels, two cores), the first batch gives that much, shared among the cores, to the others (which
    grow to at most 1.5 x MAX_BATCH): every core then finishes at about the same time, where one rendered the
    labels while the others waited. (More batches than cores are taken as workers free up: they even out.)"""
    workers = max(1, jobs)
    count = workers * -(-len(missing) // (workers * MAX_BATCH))  # a multiple of the workers: none waits for the last
    size = max(4, -(-len(missing) // max(1, count)))
    by_request: dict[int, list[int]] = {}
    for r, f in missing:
        by_request.setdefault(r, []).append(f)
    members = [
        [(r, f) for f in faces[start : start + size]]
        for r, faces in by_request.items()
        for start in range(0, len(faces), size)
    ]
    if after and 1 < len(members) == workers and len(by_request) == 1:
        largest = MAX_BATCH * 3 // 2  # what the other batches may grow to
        first = max(4, len(members[0]) - after * (workers - 1) // workers, len(missing) - largest * (workers - 1))
        rest = -(-(len(missing) - first) // (workers - 1))
        ((r, faces),) = by_request.items()
        members = [[(r, f) for f in faces[:first]]] + [
            [(r, f) for f in faces[start : start + rest]] for start in range(first, len(faces), rest)
        ]
    return members


def _batch_for(requests: list[FaceRequest], faces: list[tuple[int, int]]) -> Batch:
    request = requests[faces[0][0]]
    html = "\n".join(request.pages[f] for _, f in faces)
    for _, f in faces:
        request.pages.release(f)
    return Batch(
        request.frame.replace("</body>", html + "\n</body>"),
        request.base_url,
        tagged=request.tagged,
        image_dpi=request.image_dpi,
    )


def _batches(requests: list[FaceRequest], members) -> Iterator[Batch]:
    """Each batch's document, made only when the pool is ready for it."""
    for faces in members:
        yield _batch_for(requests, faces)
