"""What `pnpgen serve` shows and changes: one game's cards, strings and translation status, kept current.

The state is rebuilt from the files on every change (ours or a text editor's), with the same functions
the other commands use: load_game, i18n units and game_status, build's render_game (through the face
cache, so an edit renders only the faces it changed). Edits go through i18n import's planning and writers
(the YAML's round trip, a spreadsheet deck's cells), so they keep comments and layout and refuse what import
refuses.
"""

from __future__ import annotations

import hashlib
import threading
import traceback
from pathlib import Path

from generator.errors import InputError, Problem, display_path
from generator.fsutil import OutputSet
from generator.i18n.checks import check_placeholders
from generator.i18n.exchange.entries import Entry, Exchange
from generator.i18n.glossary import read_glossary
from generator.i18n.lock import STALE, Lock, confirm_all, read_lock, write_lock
from generator.i18n.status import Finding, game_status
from generator.i18n.strings import Unit, units
from generator.i18n.transfer import plan_import
from generator.model import Game, load_game
from generator.model.table.cells import TextWrites, prepare_texts
from generator.model.schema import unprintable
from generator.progress import Progress
from generator.build.context import picture_name
from generator.render.fit_report import PICTURE_KINDS, CardFit
from generator.render.pipeline import FaceCache
from generator.watcher import FileWatcher, game_roots
from generator.render.paper import PAPERS
from generator.web.preview import Previews
from generator.web.rules import Edit, RulePages

PROBLEM_KINDS = [
    "missing",
    "stale",
    "overflow",
    "glossary",
    "terms",
    "unconfirmed",
    "numbers",
    "placeholders",
    "brackets",
    "untranslated",
    "resolution",
    "bleed",
]


class EditRefused(Exception):
    """An edit that was not written, with the HTTP status that says why (400 bad text, 404, 409 conflict)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def file_version(path: Path) -> str:
    """What a page must send back with an edit of the file: the hash of the text it was shown."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


class GameSession:
    """One game as the page sees it. `refresh()` re-reads everything; edits and confirmations write files."""

    def __init__(self, game_dir: Path, cache_dir: Path, jobs: int = 1):
        self.game_dir = Path(game_dir).resolve()
        self.faces = FaceCache(cache_dir / "faces")
        self.previews = Previews(self.faces, cache_dir / "previews")
        self.jobs = jobs
        self.lock = threading.RLock()
        self.updated = threading.Condition()
        self.version = 0
        self.state: dict = {"version": 0, "error": None, "decks": [], "groups": []}
        self.watcher = FileWatcher(game_roots(self.game_dir))
        self.rules = RulePages(self.game_dir, cache_dir, jobs, self.rules_changed)
        self.edited: Edit | None = None  # the rule block just edited: laid out first
        self.refreshing = False  # the cards' state is being made again from the files

    # --- reading ----------------------------------------------------------------------------------

    def load(self) -> Game:
        return load_game(self.game_dir, require_templates=False)

    def refresh(self) -> None:
        """Rebuild the state from the files; on bad input keep the last good cards and show the error."""
        with self.lock:
            self.watcher.changed()  # what we read now is current: forget the changes that led here
            edited, self.edited = self.edited, None
            self.refreshing = True  # the rule sheet's steps meanwhile are published with the cards' new state
            self.rules.request(edited)  # on its own thread: the edited block is laid out while the cards are
            try:
                state = self.build_state(self.load())
            except InputError as error:
                state = {**self.state, "error": [str(problem) for problem in error.problems]}
            except Exception as error:  # noqa: BLE001 - a bug must not stop the server: say it on the page and the terminal
                traceback.print_exc()
                state = {**self.state, "error": [f"pnpgen failed: {type(error).__name__}: {error}"]}
            finally:
                self.refreshing = False
            self.publish(state)

    def publish(self, state: dict) -> None:
        """A new state for the pages, with the rule sheet as it is laid out now."""
        with self.updated:
            self.version += 1
            self.state = {**state, "rules": self.rules.view, "version": self.version}
            self.updated.notify_all()

    def rules_changed(self) -> None:
        """The rule sheet's thread laid out something more: the pages get it (never waits on a rendering), with the
        cards' state once it is current (an event means the files' changes are in the state)."""
        if not self.refreshing:
            self.publish(self.state)

    def refresh_if_changed(self) -> list[Path]:
        with self.lock:
            changed = self.watcher.changed()
            if changed:
                self.refresh()
            return changed

    def wait_for_change(self, seen: int, timeout: float) -> int:
        """The state version once it is newer than `seen`, or `seen` after the timeout."""
        with self.updated:
            self.updated.wait_for(lambda: self.version > seen, timeout)
        return self.version

    def build_state(self, game: Game) -> dict:
        from generator.build import render_game
        from generator.checks.validate import data_problems

        all_units = units(game)
        rendered, fits, note = {}, None, None
        if game.template_problems:
            note = f"no previews: {game.template_problems[0]}"
        else:
            rendered = render_game(game, game.languages, self.faces, self.jobs, Progress(quiet=True))
            fits = [fit for decks in rendered.values() for deck in decks for fit in deck.fits]
        lock = read_lock(game)
        report = game_status(game, all_units, lock, read_glossary(game), fits)
        versions = {path: file_version(path) for path in {unit.file for unit in all_units.values() if unit.file}}
        strings = {unit.id: self.string_view(game, unit, versions, lock) for unit in all_units.values()}
        card_problems: dict[str, list] = {}
        for finding in report.findings:
            if finding.string in strings:
                strings[finding.string]["problems"].append(problem_view(finding))
            elif finding.owner_kind == "card":  # a text box that shows no card field, or a back
                card_problems.setdefault(finding.owner, []).append(problem_view(finding))
        for fit, message in picture_problems(game, fits or []):  # as the build says them: on the card
            for card in fit.cards:
                view = {"kind": PICTURE_PROBLEM[fit.kind], "lang": fit.lang, "field": fit.field, "message": message}
                card_problems.setdefault(card, []).append({**view, "where": ""})
        decks = [self.deck_view(game, deck, rendered, strings, card_problems) for deck in game.decks_in_box_order()]
        on_cards = {string_id for deck in decks for owner in [deck, *deck["cards"]] for string_id in owner["strings"]}
        return {
            "error": None,
            "layout_note": note,
            "data_problems": [str(p) for p in data_problems(game)],
            "game": {
                "id": game.id,
                "title": game.title.get("en", game.source_language),
                "source_language": game.source_language,
                "languages": game.languages,
            },
            "counts": {lang: status.as_json() for lang, status in report.languages.items()},
            "strings": strings,
            "decks": decks,
            "groups": other_groups(all_units, on_cards),
            "kinds": PROBLEM_KINDS,
        }

    def string_view(self, game: Game, unit: Unit, versions: dict[Path, str], lock: Lock) -> dict:
        lock_previous = {}
        for lang in game.languages:
            if lang != game.source_language and lock.state(unit, lang, game.source_language) == STALE:
                lock_previous[lang] = lock.previous_source(unit, lang)
        return {
            "id": unit.id,
            "owner_kind": unit.owner_kind,
            "owner": unit.owner,
            "field": unit.field,
            "file": self.relative(unit.file) if unit.file else None,
            "line": unit.line,
            "version": versions.get(unit.file) if unit.file else None,
            "values": {lang: unit.value(lang) for lang in game.languages},
            "previous": lock_previous,
            "problems": [],
        }

    def deck_view(self, game: Game, deck, rendered: dict, strings: dict, card_problems: dict) -> dict:
        faces_by_lang = {lang: next(d for d in decks if d.faces.deck.id == deck.id) for lang, decks in rendered.items()}
        outlines = overflow_outlines(deck, faces_by_lang, game)
        cards = []
        for index, card in enumerate(deck.cards):
            faces = {}
            for lang, deck_render in faces_by_lang.items():
                front, back = deck_render.faces.front_of[index], deck_render.faces.back_of[index]
                faces[lang] = {
                    "front": deck_render.keys[front],
                    "back": deck_render.keys[back] if back is not None else None,
                }
            self.previews.know(key for sides in faces.values() for key in sides.values() if key)
            owned = [
                string_id
                for string_id, view in strings.items()
                if view["owner_kind"] == "card" and view["owner"] == card.id
            ]
            cards.append(
                {
                    "id": card.id,
                    "name": card.name.get("en", game.source_language),
                    "count": card.count,
                    "file": self.relative(card.file),
                    "line": card.line,
                    "faces": faces,
                    "strings": owned,
                    "problems": card_problems.get(card.id, []),
                    "outlines": outlines.get(card.id, {}),
                }
            )
        return {
            "id": deck.id,
            "name": deck.name.get("en", game.source_language),
            "cards": cards,
            "strings": [f"decks[{deck.id}].name"] if f"decks[{deck.id}].name" in strings else [],
        }

    def relative(self, path: Path) -> str:
        return path.resolve().relative_to(self.game_dir).as_posix()

    def game_file(self, relative: str) -> Path:
        """A file of this game named relative to its folder; EditRefused for anything outside it."""
        path = (self.game_dir / relative).resolve()
        if not path.is_relative_to(self.game_dir):
            raise EditRefused(403, f"refused: '{relative}' is outside the game's folder")
        if not path.is_file():
            raise EditRefused(404, f"no file '{relative}' in the game's folder")
        return path

    # --- writing ----------------------------------------------------------------------------------

    def edit(self, string_id: str, lang: str, text: str, version: str, paper: str = "a4") -> dict:
        """Write one string in one language; EditRefused (nothing written) when the page's copy is old or
        the text is not acceptable. A rule block's text is laid out afterwards on the rule sheet's own thread,
        that block first, on `paper`."""
        with self.lock:
            game, unit = self.current_unit(string_id, version)
            text = text.strip()
            if lang not in game.languages:
                raise EditRefused(400, f"the game has no language '{lang}'")
            if not text:
                raise EditRefused(400, "empty text: nothing written (type the text, or leave the field as it was)")
            if unprintable(text):
                raise EditRefused(400, f"the text holds {unprintable(text)}: nothing written (remove it)")
            try:
                with OutputSet(self.game_dir):  # the YAML file and the lock replaced together, or neither
                    if lang == game.source_language:
                        written = self.write_source(game, unit, text)
                    else:
                        written = self.write_translation(game, unit, lang, text)
            except InputError as error:
                raise EditRefused(400, "; ".join(problem_text(p) for p in error.problems)) from None
            if string_id.startswith("rules[") and written:
                self.edited = Edit(
                    string_id[len("rules[") :].partition("]")[0], lang, paper if paper in PAPERS else "a4"
                )
            self.refresh()
            return {"written": [self.relative(path) for path in written], "version": self.version}

    def current_unit(self, string_id: str, version: str) -> tuple[Game, Unit]:
        """The string as the files have it now, if the page's copy of its file is still current."""
        try:
            game = self.load()
        except InputError as error:
            raise EditRefused(
                409,
                "the game's files cannot be read right now, so nothing was written: "
                + "; ".join(str(p) for p in error.problems),
            ) from None
        unit = units(game).get(string_id)
        if unit is None or unit.file is None:
            raise EditRefused(404, f"no string '{string_id}' in the game")
        if not unit.file.resolve().is_relative_to(self.game_dir):  # never write outside the game
            raise EditRefused(403, f"refused: {unit.file} is outside the game's folder")
        if file_version(unit.file) != version:
            raise EditRefused(
                409,
                f"{self.relative(unit.file)} changed since the page showed it; nothing was "
                "written. The page now shows the newer text: make your edit again.",
            )
        return game, unit

    def write_source(self, game: Game, unit: Unit, text: str) -> list[Path]:
        """A new source text must keep the placeholders its translations use (they become stale)."""
        for lang in game.languages:
            translation = unit.value(lang)
            message = check_placeholders(text, translation) if translation and lang != game.source_language else None
            if message:
                raise EditRefused(400, f"{message} (the {lang} translation uses them); nothing written")
        if text == unit.value(game.source_language):
            return []
        prepared = written_or_refused(game, [(unit.file, unit.text.path, game.source_language, text)])
        prepared.write()
        return prepared.files

    def write_translation(self, game: Game, unit: Unit, lang: str, text: str) -> list[Path]:
        """As `i18n import` of a one-entry file: the same checks, writer and lock update (a translation
        written beside its current source is recorded as made from it)."""
        all_units, lock = units(game), read_lock(game)
        exchange = Exchange(
            game.id, game.source_language, lang, [Entry(unit.id, unit.value(game.source_language), text)]
        )
        plan = plan_import(game, all_units, lock, exchange)
        prepared = written_or_refused(game, plan.changes)
        for string_id, source_text in plan.confirmations:
            lock.confirm(string_id, lang, source_text)
        prepared.write()
        return prepared.files + ([lock.path] if write_lock(lock) else [])

    def confirm(self, string_id: str, lang: str, version: str) -> dict:
        """Record that a translation matches its current source (no longer stale)."""
        with self.lock:
            game, unit = self.current_unit(string_id, version)
            if lang not in game.languages or lang == game.source_language:
                raise EditRefused(400, f"'{lang}' is not a language the game translates into")
            lock = read_lock(game)
            changed = confirm_all(game, lock, {unit.id: unit}, {unit.id}, [lang])
            with OutputSet(self.game_dir):
                written = write_lock(lock)
            self.refresh()
            return {
                "confirmed": len(changed),
                "written": [self.relative(lock.path)] if written else [],
                "version": self.version,
            }


def written_or_refused(game: Game, changes: list) -> TextWrites:
    """The files an edit writes (a card text of a spreadsheet deck into its cell), or EditRefused naming the cell
    when its spreadsheet cannot be written, nothing written."""
    prepared = prepare_texts(game, changes)
    for _change, place, why in prepared.unwritten:
        raise EditRefused(
            409,
            f"this text is in {place.source.file.name}, {place.cell}, which cannot be written ({why}): "
            f"{place.what_to_do()} there (the page shows the change once it is saved)",
        )
    return prepared


def problem_text(problem: Problem) -> str:
    return f"{problem.message}" + (f" ({problem.hint})" if problem.hint else "")


PICTURE_PROBLEM = {"image": "resolution", "bleed": "bleed"}  # a picture finding's kind as the page filters it


def picture_problems(game: Game, fits: list) -> list[tuple[CardFit, str]]:
    """(finding, message) of each picture printed below the game's min_dpi or stopping at the trim."""
    found = []
    for fit in fits:
        if fit.kind in PICTURE_KINDS:
            message = fit.picture_text(picture_name(game, fit.image), game.min_dpi)
            if message:
                found.append((fit, message))
    return found


def overflow_outlines(deck, faces_by_lang: dict, game: Game) -> dict:
    """card id -> language -> side -> where text overflows, or a picture prints too coarse or stops at the trim,
    on that face, in % of the trim (the preview)."""
    width, height = deck.size_mm
    outlines: dict = {}
    for lang, deck_render in faces_by_lang.items():
        pictures = {id(fit): message for fit, message in picture_problems(game, deck_render.fits)}
        for fit in deck_render.fits:
            if (fit.overflow_mm <= 0 and id(fit) not in pictures) or len(fit.area) != 4:
                continue
            x, y, w, h = fit.area
            box = {
                "kind": PICTURE_PROBLEM.get(fit.kind, fit.kind),
                "message": f"{fit.field or fit.source}: {pictures.get(id(fit)) or fit.overflow_text()}",
                "x": round(100 * x / width, 2),
                "y": round(100 * y / height, 2),
                "w": round(100 * w / width, 2),
                "h": round(100 * h / height, 2),
            }
            for card in fit.cards:
                outlines.setdefault(card, {}).setdefault(lang, {}).setdefault(fit.side, []).append(box)
    return outlines


def problem_view(finding: Finding) -> dict:
    where = f"{display_path(finding.file)}:{finding.line}" if finding.file and finding.line else ""
    return {
        "kind": finding.kind,
        "lang": finding.lang,
        "field": finding.field,
        "message": finding.message,
        "where": where,
    }


def other_groups(all_units: dict[str, Unit], on_cards: set[str]) -> list[dict]:
    """The strings not printed on a card (rule blocks, box contents, deck names, the title), by kind."""
    groups: dict[str, list[str]] = {}
    for unit in all_units.values():
        if unit.id not in on_cards:
            groups.setdefault(unit.owner_kind, []).append(unit.id)
    return [{"kind": kind, "strings": ids} for kind, ids in groups.items()]
