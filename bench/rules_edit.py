"""bench/run.py's `rules` part: a one-word edit of Greed Inc's rule sheet, in `pnpgen serve` and in `pnpgen rules`.

On a copy of cards/greed-inc in the bench's work folder (its own output and cache folder):
  rules_cold_s        `pnpgen rules` of all six editions (ja, en, ja+en on A4 and Letter), empty cache, no server
  then `pnpgen serve`'s session and server in this process (the rule sheet laid out once first), and --runs edits
  of a paragraph's text, English and Japanese in turns, each inserting a word not used before, posted as the page
  posts them; from the post:
  rules_edit_block_s  the edited block laid out alone at its column width, its image named in the state
  rules_edit_first_s  the edited language's edition on A4 (the paper on screen) laid out, in the state
  rules_edit_all_s    every edition printing the edited language laid out (the rest of the state's editions)
  rules_build_edit_s  `pnpgen rules` after the same kind of edit, with the pnpgen server running (as
                      `pnpgen watch` and `pnpgen build` rebuild)
"""

from __future__ import annotations

import json
import shutil
import sys
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BLOCK = "overview-2"  # "You sit on the boards...": a paragraph of the first page
PLACES = {"en": "status symbols;", "ja": "ステータスシンボルを競り落とし"}  # a new word goes before these
WORDS = {
    "en": ["shiny", "costly", "gaudy", "lavish", "gilded", "rare"],
    "ja": ["豪華な", "高価な", "派手な", "贅沢な", "立派な", "希少な"],
}
POLL_SECONDS = 0.05
GIVE_UP_SECONDS = 600


def copy_game(work: Path) -> Path:
    game = work / "rules" / "greed-inc"
    shutil.rmtree(game, ignore_errors=True)
    shutil.copytree(ROOT / "cards" / "greed-inc", game)
    return game


def edited(text: str, lang: str, run: int) -> str:
    """The text with one word inserted before its place (a new word each run; the words of runs before stay)."""
    place = PLACES[lang]
    assert place in text, f"the bench's edit expects {place!r} in greed-inc's rules.yaml"
    word = WORDS[lang][run % len(WORDS[lang])]
    return text.replace(place, f"{word} {place}" if lang == "en" else f"{word}{place}", 1)


def call(url: str, body: dict | None = None):
    headers = {"Content-Type": "application/json", "Origin": url.split("/api")[0]} if body else {}
    request = urllib.request.Request(url, json.dumps(body).encode() if body else None, headers)
    with urllib.request.urlopen(request, timeout=GIVE_UP_SECONDS) as response:
        return json.loads(response.read())


def edition_images(state: dict, name: str) -> list[str] | None:
    edition = ((state.get("rules") or {}).get("editions") or {}).get(name)
    return [page["image"] for page in edition["pages"]] if edition else None


def measure_serve(game: Path, cache: Path, runs: int, add) -> None:
    """`add(key, label, seconds)` for each of block, first and all, each run."""
    sys.path.insert(0, str(ROOT))
    from generator.commands.serve import warm_up
    from generator.web.server import Server
    from generator.web.session import GameSession

    session = GameSession(game, cache, jobs=2)
    session.refresh()
    session.jobs = 1
    warm_up()
    server = Server(session, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        session.rules.wait_idle(GIVE_UP_SECONDS)
        for run in range(runs):
            lang = ("en", "ja")[run % 2]
            state = call(server.origin + "/api/state")
            string = state["strings"][f"rules[{BLOCK}].text"]
            text = edited(string["values"][lang], lang, run)
            affected = [f"{name}|{paper}" for name in (lang, "ja+en") for paper in ("a4", "letter")]
            before = {name: edition_images(state, name) for name in affected}
            previews = (state["rules"].get("previews") or {}).get(BLOCK, {}).get(lang)
            started = time.monotonic()
            body = {"id": f"rules[{BLOCK}].text", "lang": lang, "text": text, "version": string["version"]}
            call(server.origin + "/api/edit", {**body, "paper": "a4"})
            seen: dict[str, float] = {}
            while "all" not in seen and time.monotonic() - started < GIVE_UP_SECONDS:
                state = session.state
                rules = state.get("rules") or {}
                now = time.monotonic() - started
                block = (rules.get("previews") or {}).get(BLOCK, {}).get(lang)
                if "block" not in seen and block and block != previews:
                    seen["block"] = now
                changed = {name for name in affected if edition_images(state, name) not in (None, before[name])}
                if "first" not in seen and f"{lang}|a4" in changed:
                    seen["first"] = now
                if len(changed) == len(affected) and not rules.get("laying_out"):
                    seen["all"] = now
                time.sleep(POLL_SECONDS)
            for key in ("block", "first", "all"):
                add(
                    f"rules_edit_{key}",
                    f"pnpgen serve: one-word rules edit (en, ja in turns), {key}",
                    seen.get(key, float("nan")),
                )
    finally:
        server.stop()
