"""Render face batches: from the cache when their key is known, otherwise on every core."""
from __future__ import annotations

import dataclasses
import io
import json
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pikepdf

from generator.fsutil import write_atomic
from generator.render.faces import Batch, RenderedBatch, render_fitted
from generator.render.fit import FitBox


class FaceCache:
    """Rendered batches stored by content key, each PDF with its text-box measurements beside it
    (KEY.fit.json). An unreadable or incomplete entry is deleted and re-rendered."""

    def __init__(self, directory: Path | None):
        self.directory = directory
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.pdf"

    def _fit_path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.fit.json"

    def get(self, key: str) -> RenderedBatch | None:
        if self.directory is None:
            return None
        path = self._path(key)
        try:
            data = path.read_bytes()
            with pikepdf.open(io.BytesIO(data)) as pdf:
                if len(pdf.pages) == 0:
                    raise ValueError("empty")
            fits = [FitBox(**entry) for entry in json.loads(self._fit_path(key).read_text(encoding="utf-8"))]
        except FileNotFoundError:
            return None
        except Exception:  # a damaged entry is never trusted
            path.unlink(missing_ok=True)
            return None
        return RenderedBatch(data, fits)

    def put(self, key: str, rendered: RenderedBatch) -> None:
        if self.directory is not None:
            write_atomic(self._path(key), rendered.pdf)
            write_atomic(self._fit_path(key), json.dumps([dataclasses.asdict(f) for f in rendered.fits]))


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def render_batches(batches: list[Batch], cache: FaceCache, jobs: int = 1, on_done=None) -> list[bytes]:
    """PDF bytes for each batch, in order."""
    return [rendered.pdf for rendered in render_batches_fitted(batches, cache, jobs, on_done)]


def render_batches_fitted(batches: list[Batch], cache: FaceCache, jobs: int = 1,
                          on_done=None) -> list[RenderedBatch]:
    """Each batch's PDF and text-box measurements, in order."""
    results: list[RenderedBatch | None] = []
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
            for index, data in zip(todo, pool.map(render_fitted, [batches[i] for i in todo])):
                results[index] = data
                cache.put(batches[index].key, data)
                if on_done:
                    on_done()
    else:
        for index in todo:
            results[index] = render_fitted(batches[index])
            cache.put(batches[index].key, results[index])
            if on_done:
                on_done()
    return results
