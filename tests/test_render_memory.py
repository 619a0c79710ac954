"""What keeps a large build's memory bounded: render workers replaced by fresh ones every few batches (their
memory grows with each document they lay out) and closed after a long stream, and each face's HTML dropped
once it is handed to them."""

from __future__ import annotations

import io

import pikepdf

from generator.model import load_game
from generator.render import pipeline
from generator.render.batches import Batch, render_fitted
from generator.render.faces import FacePages, GameRenderer
from generator.render.pipeline import FaceCache, face_request, render_missing

PAGE = '<div class="face front" style="font-size:20pt">{}</div>'
FRAME = (
    '<!doctype html><html lang="en"><head><style>@page {{ size: 40mm 20mm; margin: 0 }}</style></head>'
    "<body>{}</body></html>"
)


def batch(text: str) -> Batch:
    return Batch(FRAME.format(PAGE.format(text)), "file:///")


def text_of(pdf: bytes) -> str:
    with pikepdf.open(io.BytesIO(pdf)) as document:
        return pikepdf.unparse_content_stream(pikepdf.parse_content_stream(document.pages[0])).decode("latin-1")


def test_workers_are_replaced_every_few_batches_and_results_stay_in_order(monkeypatch):
    monkeypatch.setattr(pipeline, "BATCHES_PER_WORKER", 1)
    pools = []  # the pool of each batch (kept: no two share an id)
    real = pipeline.render_pool

    def noting(jobs):
        pools.append(real(jobs))
        return pools[-1]

    monkeypatch.setattr(pipeline, "render_pool", noting)
    batches = [batch(f"face {n}") for n in range(7)]
    try:
        rendered = pipeline.render_fitted_batches(batches, jobs=2)
        assert pipeline._pool is None  # worn workers are not kept idle to the end of the command
    finally:
        pipeline.close_pool()
    assert [text_of(r.pdf) for r in rendered] == [text_of(render_fitted(b).pdf) for b in batches]
    assert len({id(pool) for pool in pools}) == 4  # 7 batches, 2 a pool: four pools, each its own workers


def test_a_face_html_is_dropped_once_rendered_and_made_again_when_asked(small_game, tmp_path):
    game = load_game(small_game)
    renderer = GameRenderer(game, "en")
    faces = renderer.deck_faces(game.decks["cards"])
    made = list(faces.pages)
    request = face_request(renderer, faces)
    render_missing([request], FaceCache(tmp_path / "faces"), jobs=1)
    assert all(page is None for page in faces.pages)  # not held to the end of the build
    assert list(FacePages(faces)) == made
