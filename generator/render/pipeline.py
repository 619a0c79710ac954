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
    """Rendered batches stored by content key. An unreadable entry is deleted and re-rendered."""

    def __init__(self, directory: Path | None):
        self.directory = directory
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.pdf"

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
