"""`pnpgen serve`: a game's cards in the browser, with their texts in every language side by side, editable."""

from __future__ import annotations

import threading
import webbrowser

from generator.commands.options import add_game, add_jobs, add_out
from generator.errors import InputError, Problem
from generator.paths import cache_dir, resolve_game
from generator.progress import Progress
from generator.web.server import HOST, Server
from generator.web.session import GameSession


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="live card preview and side-by-side translation editor in the browser",
        description="Serve a page per deck on http://127.0.0.1:PORT/ (this computer only): every card's front and "
        "back, its texts in each language side by side with missing, stale, overflow and glossary "
        "flags. Edits are written into the YAML (comments and layout kept) and the cards re-rendered; "
        "edits made in a text editor appear on the open page.",
    )
    add_game(parser)
    parser.add_argument("--port", type=int, default=8470, help="port on 127.0.0.1 (default: 8470; 0: any free one)")
    parser.add_argument("--open", action="store_true", help="open the page in the web browser")
    add_out(parser, "output directory whose .cache/ holds rendered faces (default: ./output of the current folder)")
    add_jobs(parser, "processes for the first rendering")
    parser.set_defaults(run=run)


def run(args) -> int:
    progress = Progress()
    game_dir = resolve_game(args.game)
    session = GameSession(game_dir, cache_dir(game_dir, args.out), args.jobs)
    server = listen(session, args.port)  # before rendering: a busy port is said at once
    progress.say(f"rendering the cards of {session.game_dir.name} (faces already in the cache are reused)")
    session.refresh()
    session.jobs = 1  # after the first rendering an edit changes a face or two: no process pool to start
    threading.Thread(target=warm_up, daemon=True).start()
    for problem in session.state.get("error") or []:
        progress.warn(problem)
    print(f"serving {session.game_dir.name} on {server.origin}/ (Ctrl+C stops)", flush=True)
    if args.open:
        webbrowser.open(f"{server.origin}/")
    server.start_watching()
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0


def listen(session: GameSession, port: int) -> Server:
    try:
        return Server(session, port)
    except OSError as error:
        raise InputError(
            Problem(
                None,
                None,
                f"cannot listen on {HOST}:{port}: {error.strerror}",
                "--port",
                hint="another program uses it: choose another port, or --port 0",
            )
        ) from None


def warm_up() -> None:
    """Load WeasyPrint now (the first rendering ran in worker processes), so the first edit is as quick as the next."""
    import weasyprint  # noqa: F401
