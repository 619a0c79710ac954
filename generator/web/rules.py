"""The rule sheet in `pnpgen serve`: each edition's laid-out pages, where each block lies on them and the problems
found there, kept current on a thread and an executor of their own.

Laying out the rule sheet takes seconds, so it never happens in a request: an edit is written and answered at once,
and this thread lays out after it, in the order the page needs it: the edited block alone at its column width, the
edited language's edition on the paper on screen, then every other edition that prints the text. Each step updates
the state the page is sent. Its workers are its own (not the command's render pool, which the cards' rendering uses
and replaces), so a request never waits on a pool another job holds.
"""

from __future__ import annotations

import io
import threading
import traceback
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from generator.errors import InputError
from generator.model import Game, load_game
from generator.model.rules import has_rules, load_rules
from generator.render.paper import PAPERS
from generator.render.pipeline import FaceCache, new_render_pool, rendered_in_order
from generator.render.rulebook import RulebookWriter, edition_name, editions, render_editions

PAGE_DPI = 100
BLOCK_DPI = 150
KEPT_PNGS = 60  # page images kept made: six editions' pages for several views, a few MB
ISSUE_KINDS = {"short": "short"}  # findings of the layout shown as problems, besides the text found overflowing


@dataclass(frozen=True)
class Edit:
    """What was just edited: the page wants this block, language and paper first."""

    block: str
    lang: str
    paper: str


class RulePages:
    """The rule sheet's state for the page (`view`), laid out again on `request`; `changed()` is called after each
    step."""

    def __init__(self, game_dir: Path, cache_dir: Path, jobs: int, changed: Callable[[], None]):
        self.game_dir = game_dir
        self.cache = FaceCache(cache_dir / "faces")  # its own: the cards' rendering counts in the session's
        self.pages_dir = cache_dir / "rule-pages"
        self.jobs = max(1, jobs)
        self.changed = changed
        self.view: dict | None = None
        self.images: dict[str, tuple[str, int, float]] = {}  # page name -> (PDF key, page, dpi) to make it from
        self.pngs: OrderedDict[str, bytes] = OrderedDict()  # the pages made last, at most KEPT_PNGS
        self.crops: dict[str, tuple] = {}  # block preview name -> (PDF key, page, box in mm)
        self._wanted = threading.Condition()
        self._pending: list[Edit | None] = []
        self._thread: threading.Thread | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._pdfium = threading.Lock()

    def request(self, edit: Edit | None = None) -> None:
        """Lay the rule sheet out again (soon, on the thread); `edit` first."""
        with self._wanted:
            self._pending.append(edit)
            self._wanted.notify()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="rule sheet", daemon=True)
            self._thread.start()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is asked for and nothing laid out (tests); False on timeout."""
        with self._wanted:
            return self._wanted.wait_for(lambda: not self._pending and not self._busy, timeout)

    _busy = False

    def _run(self) -> None:
        while True:
            with self._wanted:
                self._wanted.wait_for(lambda: bool(self._pending))
                asked, self._pending = self._pending, []
                self._busy = True
            try:
                self.lay_out(next((edit for edit in reversed(asked) if edit is not None), None))
            except InputError as error:
                self._set({**(self.view or {}), "laying_out": False, "error": [str(p) for p in error.problems]})
            except Exception as error:  # noqa: BLE001 - a bug must not stop the server: say it on the page
                traceback.print_exc()
                self._set({**(self.view or {}), "laying_out": False, "error": [f"pnpgen failed: {error}"]})
            finally:
                with self._wanted:
                    self._busy = False
                    self._wanted.notify_all()

    def _set(self, view: dict | None) -> None:
        self.view = view
        self.changed()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = new_render_pool(self.jobs)
        return self._pool

    # --- laying out ------------------------------------------------------------------------------

    def lay_out(self, edit: Edit | None) -> None:
        game = load_game(self.game_dir, require_templates=False)
        if not has_rules(game):
            self._set(None)
            return
        writer = RulebookWriter(game, load_rules(game))
        writer.check()
        every = [(langs, paper) for paper in PAPERS for langs in editions(game, game.languages)]
        view = {**(self.view or {}), "laying_out": True, "error": None, "blocks": block_list(writer)}
        view.setdefault("editions", {})
        view.setdefault("previews", {})
        self._set(view)
        first: list = []
        if edit is not None:
            view["previews"] = {**view["previews"], **self.block_previews(writer, edit)}
            self._set(dict(view))
            first = [request for request in every if request == ((edit.lang,), edit.paper)]
        for group in (first, [request for request in every if request not in first]):
            if not group:
                continue
            keys, pdfs = render_editions(writer, group, self.cache, self.jobs, self._executor())
            editions_view = dict(view["editions"])
            for (langs, paper), key, pdf in zip(group, keys, pdfs):
                editions_view[f"{edition_name(langs)}|{paper}"] = self.edition_view(langs, paper, key, pdf)
            view = {**view, "editions": editions_view}
            self._set(view)
        self._set({**view, "laying_out": False})

    def edition_view(self, langs: tuple[str, ...], paper: str, key: str, pdf: bytes) -> dict:
        """One edition on one paper: its pages (images), each block's boxes and each problem's, in % of the page."""
        import pikepdf

        count = len(pikepdf.open(io.BytesIO(pdf)).pages)
        width, height = PAPERS[paper]
        pages: list[dict] = []
        for index in range(count):
            name = f"{key}-{index}"
            self.images.setdefault(name, (key, index, PAGE_DPI))
            pages.append({"image": f"/rules-page/{name}.png", "blocks": [], "problems": []})
        for fit in self.cache.face_fits(key):
            if len(fit.area) != 4 or not 0 <= fit.page < count:
                continue
            x, y, w, h = fit.area
            box = [
                round(100 * x / width, 2),
                round(100 * y / height, 2),
                round(100 * w / width, 2),
                round(100 * h / height, 2),
            ]
            block, lang = block_of(fit.anchor, langs)
            if fit.kind == "block":
                pages[fit.page]["blocks"].append({"block": block, "lang": lang, "box": box})
            elif fit.overflows or fit.kind in ISSUE_KINDS:
                kind = ISSUE_KINDS.get(fit.kind, "overflow")
                text = fit.text[:60]
                message = f"last line too short: {text}" if fit.kind == "short" else f"text overflows: {text}"
                pages[fit.page]["problems"].append(
                    {"block": block, "lang": lang, "kind": kind, "box": box, "message": message}
                )
        return {"langs": list(langs), "name": edition_name(langs), "paper": paper, "pages": pages}

    def block_previews(self, writer: RulebookWriter, edit: Edit) -> dict:
        """The edited block laid out alone at its column width in each edition printing its language, as images."""
        found: dict[str, dict[str, str]] = {}
        game: Game = writer.game
        shown = [langs for langs in editions(game, game.languages) if edit.lang in langs]
        batches = [writer.batch(langs, edit.paper, only=edit.block) for langs in shown]
        laid = rendered_in_order(batches, self.jobs, len(batches), pool=self._executor())
        for langs, (batch, rendered) in zip(shown, laid):  # on both cores at once
            boxes = [fit for fit in rendered.fits if fit.kind == "block" and fit.page == 0]
            if not boxes:
                continue
            self.cache.put(batch.key, rendered.pdf)
            left = min(fit.area[0] for fit in boxes)
            top = min(fit.area[1] for fit in boxes)
            right = max(fit.area[0] + fit.area[2] for fit in boxes)
            bottom = max(fit.area[1] + fit.area[3] for fit in boxes)
            name = f"{batch.key}-{edit.block}"
            self.crops[name] = (batch.key, 0, (left, top, right, bottom), PAPERS[edit.paper])
            found.setdefault(edit.block, {})[edition_name(langs)] = f"/rules-block/{name}.png"
        return found

    # --- images ----------------------------------------------------------------------------------

    def page_png(self, name: str) -> bytes | None:
        """A page of an edition as PNG, None when the name is no page the view shows. The pages made last are
        kept (every edit names new pages: a long session would otherwise keep every page it ever showed)."""
        if name in self.pngs:
            self.pngs.move_to_end(name)
            return self.pngs[name]
        entry = self.images.get(name)
        if entry is None:
            return None
        key, index, dpi = entry
        pdf = self.cache.get(key)
        if pdf is None:
            return None
        data = self.pngs[name] = self._rasterize(pdf, index, dpi, None, None)
        while len(self.pngs) > KEPT_PNGS:
            self.pngs.popitem(last=False)
        return data

    def block_png(self, name: str) -> bytes | None:
        crop = self.crops.get(name)
        if crop is None:
            return None
        key, index, box, paper = crop
        pdf = self.cache.get(key)
        return None if pdf is None else self._rasterize(pdf, index, BLOCK_DPI, box, paper)

    def _rasterize(self, pdf: bytes, index: int, dpi: float, box, paper) -> bytes:
        import pypdfium2 as pdfium

        with self._pdfium:  # pdfium is not thread-safe
            document = pdfium.PdfDocument(pdf)
            try:
                image = document[index].render(scale=dpi / 72).to_pil()
            finally:
                document.close()
        if box is not None:
            scale_x, scale_y = image.width / paper[0], image.height / paper[1]
            left, top, right, bottom = box
            image = image.crop(
                (int(left * scale_x), int(top * scale_y), int(right * scale_x) + 1, int(bottom * scale_y) + 1)
            )
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return buffer.getvalue()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)


def block_list(writer: RulebookWriter) -> list[dict]:
    """Each block of the rule sheet in order: its id, type and the ids of its strings."""
    return [
        {
            "id": block.id,
            "type": block.type,
            "generated": bool(block.generated),
            "strings": [f"rules[{block.id}].{label}" for label, _ in block.texts()],
        }
        for block in writer.blocks
    ]


def block_of(anchor: str, langs: tuple[str, ...]) -> tuple[str, str]:
    """(block id, language) of an element id on an edition's pages: b-ID in one language, LANG-ID side by side."""
    prefix, _, rest = anchor.partition("-")
    if prefix in langs and len(langs) > 1:
        return rest, prefix
    return (rest if prefix == "b" else anchor), langs[0]
