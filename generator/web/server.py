"""The HTTP side of `pnpgen serve`: standard library only, on the loopback interface.

GET  /                    the page (generator/web/index.html, app.js, style.css)
GET  /api/state           the game's cards, strings, status and face keys as JSON
GET  /api/events          Server-Sent Events: `state` with the new version whenever the files change
GET  /face/KEY.png        a card face (KEY: its face-cache key)
GET  /game/PATH           a file of the game's folder as plain text (the YAML behind a string)
GET  /rules-page/NAME.png a page of a rule sheet's edition; /rules-block/NAME.png a block laid out alone
POST /api/edit            {id, lang, text, version}: write one string
POST /api/confirm         {id, lang, version}: record a translation as made from the current source

Writes are accepted only from the page itself (Origin and Host must name this server: another site open
in the browser cannot post here, nor reach it through a DNS name pointing at 127.0.0.1).
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

from generator.paths import PAGE_DIR
from generator.watcher import POLL_SECONDS
from generator.web.session import EditRefused, GameSession

HOST = "127.0.0.1"
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
KEEPALIVE_SECONDS = 15
MAX_BODY = 1 << 20
READ_TIMEOUT_SECONDS = 20  # a request whose head or body stops arriving holds a thread no longer than this
# The page runs only its own script and style, talks only to this server and cannot be framed by another site.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


class Malformed(Exception):
    """A request that cannot be understood: answered 400 with the reason."""


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, session: GameSession, port: int):
        super().__init__((HOST, port), Handler)
        self.session = session
        self.stopping = threading.Event()

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.server_port}"

    def allowed_hosts(self) -> set[str]:
        return {f"{HOST}:{self.server_port}", f"localhost:{self.server_port}"}

    def watch_files(self) -> None:
        """Poll the game's files; a change rebuilds the state, which the event streams push to the pages."""
        while not self.stopping.wait(POLL_SECONDS):
            self.session.refresh_if_changed()

    def start_watching(self) -> threading.Thread:
        thread = threading.Thread(target=self.watch_files, name="watch", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()
        self.session.rules.close()


class Handler(BaseHTTPRequestHandler):
    server: Server
    protocol_version = "HTTP/1.1"
    timeout = READ_TIMEOUT_SECONDS

    def log_message(self, format, *args):  # quiet: the terminal shows what was written (do_POST), not every request
        pass

    def do_GET(self):
        self.answering(self.get)

    def do_POST(self):
        self.answering(self.post)

    def answering(self, method) -> None:
        """Run a request's method; whatever it could not understand is a 400 answer, never a dropped connection."""
        try:
            method()
        except Malformed as error:
            self.send_json(HTTPStatus.BAD_REQUEST, {"error": f"malformed request: {error}"})
        except (ValueError, UnicodeError, RecursionError, OSError) as error:
            if isinstance(error, (TimeoutError, ConnectionError)):
                self.close_connection = True
                return
            self.send_json(HTTPStatus.BAD_REQUEST, {"error": f"malformed request ({type(error).__name__})"})

    def get(self):
        if not self.host_allowed():
            return
        path = urlsplit(self.path).path
        if path in STATIC:
            name, kind = STATIC[path]
            self.send(HTTPStatus.OK, (PAGE_DIR / name).read_bytes(), kind)
        elif path.startswith("/deck/") or path in ("/texts", "/rules"):
            self.send(HTTPStatus.OK, (PAGE_DIR / "index.html").read_bytes(), STATIC["/"][1])
        elif path == "/api/state":
            self.send_json(HTTPStatus.OK, self.server.session.state)
        elif path == "/api/events":
            self.stream_events()
        elif path.startswith("/face/") and path.endswith(".png"):
            data = self.server.session.previews.png(path[len("/face/") : -len(".png")])
            if data is None:
                self.send_json(HTTPStatus.NOT_FOUND, {"error": "no such card face"})
            else:  # a face's name is the hash of its content: it never changes
                self.send(HTTPStatus.OK, data, "image/png", {"Cache-Control": "max-age=31536000, immutable"})
        elif path.startswith(("/rules-page/", "/rules-block/")) and path.endswith(".png"):
            folder, _, name = path[1:-4].partition("/")
            rules = self.server.session.rules
            data = rules.page_png(name) if folder == "rules-page" else rules.block_png(name)
            if data is None:
                self.send_json(HTTPStatus.NOT_FOUND, {"error": "no such page"})
            else:  # named by the PDF's content key: it never changes
                self.send(HTTPStatus.OK, data, "image/png", {"Cache-Control": "max-age=31536000, immutable"})
        elif path.startswith("/game/"):
            self.send_game_file(unquote(path[len("/game/") :]))
        else:
            self.send_json(HTTPStatus.NOT_FOUND, {"error": f"nothing at {path}"})

    def post(self):
        if not self.host_allowed() or not self.origin_allowed():
            return
        path = urlsplit(self.path).path
        actions = {"/api/edit": self.edit, "/api/confirm": self.confirm}
        if path not in actions:
            self.send_json(HTTPStatus.NOT_FOUND, {"error": f"nothing at {path}"})
            return
        body = self.json_body()
        if body is None:
            return
        try:
            answer = actions[path](body)
        except EditRefused as refused:
            print(f"refused {path[5:]} of {body.get('id')} ({body.get('lang')}): {refused}", flush=True)
            self.send_json(refused.status, {"error": str(refused)})
            return
        written = ", ".join(answer["written"]) or "nothing to change"
        print(f"{path[5:]} {body.get('id')} ({body.get('lang')}): {written}", flush=True)
        self.send_json(HTTPStatus.OK, answer)

    def edit(self, body: dict) -> dict:
        return self.server.session.edit(
            str(body.get("id", "")),
            str(body.get("lang", "")),
            str(body.get("text", "")),
            str(body.get("version", "")),
            str(body.get("paper", "a4")),
        )

    def confirm(self, body: dict) -> dict:
        return self.server.session.confirm(
            str(body.get("id", "")), str(body.get("lang", "")), str(body.get("version", ""))
        )

    # --- checks -----------------------------------------------------------------------------------

    def host_allowed(self) -> bool:
        if self.headers.get("Host") in self.server.allowed_hosts():
            return True
        self.send_json(HTTPStatus.FORBIDDEN, {"error": "refused: this server answers only to 127.0.0.1 and localhost"})
        return False

    def origin_allowed(self) -> bool:
        origin = self.headers.get("Origin")
        allowed = {f"http://{host}" for host in self.server.allowed_hosts()}
        if origin in allowed:
            return True
        self.send_json(
            HTTPStatus.FORBIDDEN,
            {
                "error": f"refused: writes are accepted only from the page at "
                f"{self.server.origin} (Origin: {origin or 'none'})"
            },
        )
        return False

    def json_body(self) -> dict | None:
        declared = (self.headers.get("Content-Length") or "0").strip()
        if not declared.isdigit():
            raise Malformed(f"Content-Length is not a number: {declared[:20]!r}")
        length = int(declared)
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if kind != "application/json" or not 0 < length <= MAX_BODY:
            self.send_json(HTTPStatus.BAD_REQUEST, {"error": "expected a JSON body (Content-Type: application/json)"})
            return None
        data = self.rfile.read(length)
        if len(data) < length:
            raise Malformed("the body ended before its Content-Length")
        try:
            body = json.loads(data)
        except RecursionError:
            raise Malformed("the JSON is nested too deeply") from None
        except (ValueError, UnicodeDecodeError):
            body = None
        if not isinstance(body, dict):
            self.send_json(HTTPStatus.BAD_REQUEST, {"error": "expected a JSON object"})
            return None
        return body

    # --- answers ----------------------------------------------------------------------------------

    def send_game_file(self, relative: str) -> None:
        if "\0" in relative or len(relative) > 1024:
            raise Malformed("not a file name")
        try:
            path = self.server.session.game_file(relative)
        except EditRefused as refused:
            self.send_json(refused.status, {"error": str(refused)})
            return
        self.send(HTTPStatus.OK, path.read_bytes(), "text/plain; charset=utf-8")

    def stream_events(self) -> None:
        session = self.server.session
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = -1
        try:
            while not self.server.stopping.is_set():
                version = session.wait_for_change(seen, KEEPALIVE_SECONDS)
                message = f"event: state\ndata: {version}\n\n" if version != seen else ": keepalive\n\n"
                self.wfile.write(message.encode())
                self.wfile.flush()
                seen = version
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page was closed
        self.close_connection = True

    def send_json(self, status: int, value) -> None:
        self.send(
            status,
            json.dumps(value, ensure_ascii=False).encode("utf-8"),
            "application/json; charset=utf-8",
            {"Cache-Control": "no-store"},
        )

    def send(self, status: int, data: bytes, kind: str, headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        self.send_header("X-Frame-Options", "DENY")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
