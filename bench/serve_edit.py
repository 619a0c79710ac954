"""How long `pnpgen serve` takes from an edit to the new card image, on a copy of Greed Inc.

For each of the first asset cards: POST its English name changed to a new text (as the page does), then GET the PNG
of its new front face; prints each time and the median. The faces of the unchanged cards come from output/.cache
(the first run renders them all once). Run: .venv/bin/python bench/serve_edit.py
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from generator.commands.serve import warm_up  # noqa: E402
from generator.web.server import Server  # noqa: E402
from generator.web.session import GameSession  # noqa: E402

CARDS = 6


def call(url: str, body: dict | None = None):
    headers = {"Content-Type": "application/json", "Origin": url.split("/api")[0]} if body else {}
    request = urllib.request.Request(url, json.dumps(body).encode() if body else None, headers)
    with urllib.request.urlopen(request) as response:
        data = response.read()
    return json.loads(data) if response.headers["Content-Type"].startswith("application/json") else data


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        game = Path(scratch) / "greed-inc"
        shutil.copytree(ROOT / "cards" / "greed-inc", game)
        session = GameSession(game, ROOT / "output" / ".cache", jobs=2)
        started = time.monotonic()
        session.refresh()
        print(f"first rendering: {time.monotonic() - started:.1f} s")
        session.jobs = 1
        warm_up()  # as `pnpgen serve` does while the user opens the page
        server = Server(session, 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        times = []
        state = call(server.origin + "/api/state")
        assets = next(deck for deck in state["decks"] if deck["id"] == "assets")["cards"][:CARDS]
        for card in assets:
            string = state["strings"][f"cards[{card['id']}].name"]
            started = time.monotonic()
            text = f"{string['values']['en']} {time.time_ns() % 100000}"  # never rendered before
            call(
                server.origin + "/api/edit",
                {"id": string["id"], "lang": "en", "text": text, "version": string["version"]},
            )
            state = call(server.origin + "/api/state")
            front = next(c for d in state["decks"] for c in d["cards"] if c["id"] == card["id"])["faces"]["en"]["front"]
            assert call(f"{server.origin}/face/{front}.png").startswith(b"\x89PNG")
            times.append(time.monotonic() - started)
            print(f"{card['id']}: {times[-1]:.2f} s")
        print(f"edit to new image: median {statistics.median(times):.2f} s, max {max(times):.2f} s ({CARDS} edits)")
        server.stop()


if __name__ == "__main__":
    main()
