"""`pnpgen build`: every kit's card sheets, as print-ready PDFs, with a build report."""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from generator import yamlio
from generator.checks import images
from generator.checks.build_problems import BuildProblems, data_problems
from generator.checks.validate import texts
from generator.errors import InputError, Problem, display_path
from generator.fsutil import OutputSet, write_atomic
from generator.model import Game, load_game
from generator.paths import OUTPUT_DIR, cache_dir, face_cache_dir, list_games, resolve_game
from generator.progress import Progress
from generator.render.changes import card_keys, changed_cards, reference_keys
from generator.render.faces import CardFit, DeckFaces, GameRenderer, card_fits
from generator.render.memo import FaceMemo
from generator.render.pipeline import FaceCache, default_jobs, face_request, render_faces
from generator.render.printed import build_aids, build_boards, build_tokens
from generator.render.rulebook import build_rules
from generator.render import sheets as sheets_module
from generator.render import labels as labels_module
from generator.render.labels import write_labelled
from generator.render.sheets import (DUPLEX_MODES, LAYOUTS, MARGIN_MM, PAPERS, SHEET_MODES, CopyGroup, SheetOptions,
                                     SheetWriter, save_pdf_bytes)
from generator.render.tiles import BOARD_PAPERS
from generator.render.typeset import plain


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "build", help="build print-ready PDFs for games",
        description="Build each game's card sheets, boards, player aids, token sheets and rule sheets into "
                    "OUT/<game>/, with OUT/<game>/build.json listing them. Unchanged outputs are kept.")
    parser.add_argument("games", nargs="*", metavar="GAME|PATH",
                        help="a game name under cards/ or a path to a game directory (default: every game)")
    parser.add_argument("--lang", default="all", help="ja, en, ... or all (default: all the game's languages)")
    parser.add_argument("--paper", default="all", choices=[*PAPERS, "all"], help="paper size (default: all)")
    parser.add_argument("--duplex", default="long", choices=DUPLEX_MODES,
                        help="backs on the following page for a long- or short-edge flip, or none (default: long)")
    parser.add_argument("--layout", default="duplex", choices=LAYOUTS,
                        help="duplex sheets, or gutterfold (fronts above the fold, backs below)")
    parser.add_argument("--board-paper", choices=list(BOARD_PAPERS),
                        help="also print each board on one sheet of this larger paper, at 100%%")
    parser.add_argument("--margin", type=float, default=MARGIN_MM, metavar="MM",
                        help="the paper's outer edge a home printer cannot print; nothing is placed there "
                             f"(default: {MARGIN_MM:g}). With 5 mm, A4 takes 9 poker or 16 mini cards a page, "
                             "Letter 8 poker (landscape) or 12 mini: where cards with their own bleed fit "
                             "fewer, they share cut lines, with bleed around the block")
    parser.add_argument("--sheets", default="shared", choices=SHEET_MODES,
                        help="shared: decks of one card size continue on the same sheets and a small deck "
                             "fills the room left below another; per-deck: every deck starts a new sheet")
    parser.add_argument("--cut-lines", action="store_true", help="draw dashed cut lines along every trim edge")
    parser.add_argument("--no-marks", action="store_true", help="leave out the crop marks")
    parser.add_argument("--changed-since", metavar="REF",
                        help="also write reprint-LANG-PAPER.pdf holding only the cards whose faces changed since "
                             "REF (a git revision of the game, or the build.json of an earlier build), with their "
                             "backs")
    parser.add_argument("--out", type=Path, default=OUTPUT_DIR, help="output directory (default: output/)")
    parser.add_argument("--jobs", "-j", type=int, default=default_jobs(), help="processes for rendering")
    parser.add_argument("--no-cache", action="store_true", help="render every face again")
    parser.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when the build finds any problem: what `pnpgen validate` reports, text "
                             "overflowing past its box, the safe area, the trim or the cut, or onto other text (every "
                             "text of every card, token, aid, board and rule sheet), and text printed in the source "
                             "language for want of a translation")
    parser.set_defaults(run=run)


def run(args) -> int:
    progress = Progress(args.quiet)
    game_dirs = [resolve_game(name) for name in args.games] or list_games()
    if not game_dirs:
        raise InputError(Problem(None, None, "no games to build", hint="give a game directory or run `pnpgen new NAME`"))
    with progress.task("loading", len(game_dirs), "game(s)") as task:
        games = []
        for game_dir in game_dirs:  # every game is read before anything is written
            yamlio.remember_in(None if args.no_cache else cache_dir(game_dir, args.out))
            games.append(load_game(game_dir))
            task.advance()
    images.remember_in(None if args.no_cache else args.out / ".cache")
    for game, builder in ((g, b) for g in games for b in BUILDERS if hasattr(b, "check")):
        builder.check(game)  # a builder's own input (rules.yaml...) is checked before anything is written
    papers = list(PAPERS) if args.paper == "all" else [args.paper]
    problems = BuildProblems(progress)
    with progress.task("checking the data", len(games), "game(s)") as task:
        for game in games:
            problems.extend(data_problems(game, select_languages(game, args.lang)), "data")  # before rendering: they are fast and say what is wrong
            task.advance()
    with OutputSet(args.out):  # every file of the build replaced together, or none (build.json last)
        for game in games:
            build_game(game, papers, progress, args, problems)
    return problems.finish(args.strict)


def build_game(game: Game, papers: list[str], progress: Progress, args, problems: BuildProblems) -> None:
    """Every output of one game (staged in the command's OutputSet); what it finds goes to `problems`."""
    context = BuildContext(
        game=game, langs=select_languages(game, args.lang), out_dir=args.out / game.id,
        sheets=[SheetOptions(paper, args.duplex, args.layout, not args.no_marks, args.cut_lines,
                             check_margin(args.margin), args.sheets) for paper in papers],
        cache=FaceCache(None if args.no_cache else face_cache_dir(game.dir, args.out)),
        jobs=args.jobs, progress=progress, args=args, problems=problems)
    files = []
    for builder in BUILDERS:
        files += builder(context)
    write_report(context.out_dir, game, files, context.fits, context.untranslated)
    report_untranslated(context)
    progress.say(f"{game.id}: {len(files)} files in {context.out_dir} "
                 f"({context.cache.hits} faces from the cache, {context.cache.misses} rendered)")


SHOWN_UNTRANSLATED = 12  # strings listed on the terminal per language; build.json has them all


def report_untranslated(context: "BuildContext") -> None:
    """Report, per language, the strings printed in the source language (no translation yet): one problem
    of the build per language (so --strict fails), then the first strings by name."""
    game = context.game
    for lang, strings in context.untranslated.items():
        if not strings:
            continue
        flagged = context.flagged.get(lang, 0)
        context.problems.add(Problem(game.files["game"], None,
                                     f"{game.id}: {lang}: {len(strings)} text(s) have no {lang} translation and are "
                                     f"printed in {game.source_language}"
                                     + (f"; {flagged} card(s) carry the corner flag" if flagged else "")),
                             "untranslated")
        for string_id in list(strings)[:SHOWN_UNTRANSLATED]:
            context.progress.warn(f"  {strings[string_id]}: {string_id}")
        if len(strings) > SHOWN_UNTRANSLATED:
            context.progress.warn(f"  ... and {len(strings) - SHOWN_UNTRANSLATED} more: all in build.json; translate "
                                  f"them with `pnpgen i18n export {game.id} --lang {lang}`")


def overflow_problem(game: Game, fit: CardFit) -> Problem:
    """A text box that overflows, located at the card field it shows (at the card when it shows none)."""
    file, line = fit_location(game, fit)
    return Problem(file, line, f"{fit.describe()}: {fit.overflow_text()}")


def fit_location(game: Game, fit: CardFit) -> tuple[Path, int | None]:
    """File and line of the text a box shows (of the piece when the text was not found in the YAML)."""
    if not fit.file:
        return game.decks[fit.deck].file, None
    return Path(fit.file), fit.line or None


def report_fits(context: "BuildContext", fits: list[CardFit]) -> None:
    """Keep the measured text boxes for build.json; report what overflowed, say what shrank. A finding
    made again (the same aid on another paper measures the same) is said once."""
    fresh = []
    for fit in fits:
        said = (fit.kind, str(fit_location(context.game, fit)), fit.describe(), fit.overflow_text(), fit.scale)
        if said not in context.said:
            context.said.add(said)
            fresh.append(fit)
    context.fits += fresh
    for fit in fresh:
        if fit.overflow_mm > 0:
            context.problems.add(overflow_problem(context.game, fit), "overflow")
        elif fit.scale < 1:
            context.progress.say(f"{context.game.id}: {fit.describe()}: font shrunk to {fit.scale:.0%} to fit")


def location(text) -> str:
    return f"{display_path(text.file)}:{text.line}" if text.file and text.line else (
        display_path(text.file) if text.file else "?")


@dataclass
class BuildContext:
    """What every builder of a game gets: the game, the languages and papers asked for, where to write."""

    game: Game
    langs: list[str]
    out_dir: Path
    sheets: list[SheetOptions]   # one per paper size, with the duplex/layout/marks options
    cache: FaceCache
    jobs: int
    progress: Progress
    args: argparse.Namespace
    fits: list[CardFit] = field(default_factory=list)  # measured text boxes and text findings of every face built
    problems: BuildProblems | None = None  # what the build reports without stopping (see --strict)
    said: set = field(default_factory=set)

    def __post_init__(self):
        if self.problems is None:
            self.problems = BuildProblems(self.progress)

    def report(self, fits: list[CardFit]) -> None:
        report_fits(self, fits)
    untranslated: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> string id -> file:line
    flagged: dict[str, int] = field(default_factory=dict)  # lang -> faces carrying the untranslated flag

    def note_untranslated(self, faces: DeckFaces) -> None:
        """Record the strings a deck's faces print in the fallback language, and the flagged faces."""
        ids = self.string_ids()
        found = self.untranslated.setdefault(faces.lang, {})
        for card_id, printed in faces.untranslated.items():
            self.flagged[faces.lang] = self.flagged.get(faces.lang, 0) + 1
            for value in printed:
                string_id = ids.get(id(value.text), f"deck '{faces.deck.id}', card '{card_id}'")
                found.setdefault(string_id, location(value.text))

    def note_rules(self, fallbacks: dict[str, dict]) -> None:
        for lang, printed in fallbacks.items():
            found = self.untranslated.setdefault(lang, {})
            for string_id, text in printed.items():
                found.setdefault(string_id, location(text))

    def string_ids(self) -> dict[int, str]:
        if self._ids is None:
            self._ids = {id(text): label for label, text in texts(self.game)}
        return self._ids

    _ids: dict | None = None

    @property
    def papers(self) -> list[str]:
        return [option.paper for option in self.sheets]


def select_languages(game: Game, wanted: str) -> list[str]:
    if wanted == "all":
        return list(game.languages)
    langs = [lang.strip() for lang in wanted.split(",") if lang.strip()]
    for lang in langs:
        if lang not in game.languages:
            raise InputError(Problem(game.files["game"], None, f"the game has no language '{lang}'",
                                     "languages", hint=f"choose from {', '.join(game.languages)} or all"))
    return langs


@dataclass
class RenderedDeck:
    faces: DeckFaces
    pages: list = field(default_factory=list)  # pikepdf pages, one per distinct face
    sources: list = field(default_factory=list)  # the open PDFs those pages belong to
    fits: list[CardFit] = field(default_factory=list)  # its measured text boxes
    keys: list[str] = field(default_factory=list)  # the face cache key of each distinct face
    request: tuple = ()  # what render_faces needs to render the faces (see face_request)


def prepare_game(game: Game, langs: list[str], memo: FaceMemo | None = None,
                 progress: Progress | None = None) -> dict[str, list[RenderedDeck]]:
    """Every deck's distinct faces (HTML and cache keys) per language, nothing rendered yet; with a memo,
    the templates run only for the cards that changed since it was written."""
    decks_by_lang: dict[str, list[RenderedDeck]] = {}
    cards = len(langs) * sum(len(deck.cards) for deck in game.decks.values())
    with (progress or Progress(quiet=True)).task(f"{game.id}: preparing card faces", cards, "cards") as task:
        for lang in langs:
            renderer = GameRenderer(game, lang, memo)
            decks_by_lang[lang] = []
            for deck in game.decks_in_box_order():
                faces = renderer.deck_faces(deck, task.advance)
                request = face_request(renderer, faces)
                decks_by_lang[lang].append(RenderedDeck(faces, keys=request[2], request=request))
    return decks_by_lang


def render_game(game: Game, langs: list[str], cache: FaceCache, jobs: int,
                progress: Progress) -> dict[str, list[RenderedDeck]]:
    """Every distinct face of every deck, for each language; the uncached ones rendered in one pool."""
    decks_by_lang = prepare_game(game, langs)
    render_prepared(game, decks_by_lang, cache, jobs, progress)
    return decks_by_lang


def render_prepared(game: Game, decks_by_lang: dict[str, list[RenderedDeck]], cache: FaceCache, jobs: int,
                    progress: Progress) -> None:
    """Give prepared decks their pages (from the cache, or rendered in one pool) and measured text boxes."""
    decks = [deck for lang_decks in decks_by_lang.values() for deck in lang_decks]
    requests = [deck.request for deck in decks]
    progress.say(f"{game.id}: {sum(len(deck.keys) for deck in decks)} distinct faces "
                 f"({', '.join(decks_by_lang)})")
    result = render_faces(requests, cache, jobs, progress)
    for deck, deck_pages in zip(decks, result.pages):
        deck.pages, deck.sources = deck_pages, result.sources
        deck.fits = card_fits(deck.faces, [cache.face_fits(key) for key in deck.keys])


def sheet_inputs(game: Game, lang: str, decks: list[RenderedDeck], option: SheetOptions) -> str:
    """Hash of everything a card sheet PDF is made from: its faces' keys, the copies, the sheet options and
    the code that imposes them. An output whose recorded hash matches is up to date and not written again."""
    digest = hashlib.sha256()
    for module in (sheets_module, labels_module, sys.modules[__name__]):
        digest.update(Path(module.__file__).read_bytes())
    parts = [game.title.get(lang, game.source_language), lang, asdict(option)]
    for deck in decks:
        parts.append([deck.faces.deck.id, deck_name(game, deck.faces.deck.id, lang), deck.faces.deck.size_mm, deck.faces.deck.bleed_mm, deck.keys,
                      deck.faces.front_of, deck.faces.back_of, [card.count for card in deck.faces.deck.cards]])
    digest.update(json.dumps(parts, sort_keys=True).encode("utf-8"))
    return digest.hexdigest()


def previous_entries(out_dir: Path) -> dict[str, dict]:
    """The files the last build wrote here, by path (nothing when there is no readable build.json)."""
    try:
        report = json.loads((out_dir / "build.json").read_text(encoding="utf-8"))
        return {entry["path"]: entry for entry in report.get("files", []) if isinstance(entry, dict)}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def build_cards(context: BuildContext) -> list[dict]:
    """The card sheets: one PDF per language and paper, every deck in box-contents order.

    A sheet PDF whose inputs (faces, copies, options, code) are those of the file already written is kept
    as it is: a rebuild with nothing changed renders and writes nothing.
    """
    game, langs, options, out_dir, progress = (context.game, context.langs, context.sheets, context.out_dir,
                                               context.progress)
    prepared = prepare_game(game, langs, FaceMemo(context.cache.directory), progress)
    since = getattr(context.args, "changed_since", None)
    before = reference_keys(since, game, langs) if since else None   # a bad REF stops the build before any write
    previous = previous_entries(out_dir)
    planned = []
    for lang in langs:
        for option in options:
            suffix = "-gutterfold" if option.layout == "gutterfold" else ""
            name = f"cards-{lang}-{option.paper}{suffix}.pdf"
            inputs = sheet_inputs(game, lang, prepared[lang], option)
            old = previous.get(name, {})
            current = old.get("inputs") == inputs and (out_dir / name).is_file()
            planned.append((lang, option, name, inputs, old if current else None))
    stale = {lang: prepared[lang] for lang in langs if any(p[0] == lang and p[4] is None for p in planned)}
    if stale:
        render_prepared(game, stale, context.cache, context.jobs, progress)
    for lang in langs:
        for deck in prepared[lang]:
            deck.fits = deck.fits or card_fits(deck.faces, [context.cache.face_fits(key) for key in deck.keys])
    report_fits(context, [fit for lang in langs for deck in prepared[lang] for fit in deck.fits])
    for lang in langs:
        for deck in prepared[lang]:
            context.note_untranslated(deck.faces)
    files = []
    with progress.task(f"{game.id}: writing card sheets", sum(1 for p in planned if p[4] is None), "files") as task:
        for lang, option, name, inputs, kept in planned:
            if kept is not None:
                files.append(kept)
                continue
            entry = write_card_file(context, prepared[lang], option, lang, name)
            files.append({**entry, "kind": "cards", "inputs": inputs, "face_keys": card_keys(prepared[lang])})
            task.advance()
    if len(files) > sum(1 for p in planned if p[4] is None):
        progress.say(f"{game.id}: {sum(1 for p in planned if p[4] is not None)} card sheet file(s) up to date")
    if before is not None:
        files += build_reprint(context, prepared, context.args.changed_since, before)
    return files


def write_card_file(context: BuildContext, decks: list[RenderedDeck], option: SheetOptions, lang: str, name: str,
                    only: set[str] | None = None) -> dict:
    """Impose the decks' copies (only the `deck/card`s in `only` when given) with their sheet labels, write
    the PDF and return its build.json entry."""
    game = context.game
    writer = SheetWriter()
    pages, _texts = write_labelled(writer, copy_groups(decks, option, only), option,
                                   plain(game.title.get(lang, game.source_language)),
                                   {deck_id: deck_name(game, deck_id, lang) for deck_id in game.decks},
                                   lang, context.cache, context.jobs)
    write_pdf(writer, context.out_dir / name, game, lang)
    faces_count = {d.faces.deck.id: len(deck_copies(d, only)) for d in decks if deck_copies(d, only)}
    context.progress.say(f"{game.id}: wrote {name} ({len(writer.pdf.pages)} pages)")
    return {"path": name, "lang": lang, "paper": option.paper, "pages": len(writer.pdf.pages),
            "faces": faces_count, "decks": list(faces_count),
            "sheets": [page.decks for page in pages if page.side != "back"],
            "duplex": option.duplex if option.layout == "duplex" else "gutterfold"}


def build_reprint(context: BuildContext, prepared: dict[str, list[RenderedDeck]], since: str,
                  before: dict[str, dict[str, str]]) -> list[dict]:
    """--changed-since: a file per language and paper holding only the cards whose faces changed, with their
    backs, as many copies as the deck has of each."""
    files = []
    for lang in context.langs:
        changed = changed_cards(card_keys(prepared[lang]), before[lang])
        if not changed:
            context.progress.say(f"{context.game.id}: no card face changed in {lang} since {since}: no reprint")
            for option in context.sheets:   # an older reprint would read as this one
                (context.out_dir / f"reprint-{lang}-{option.paper}.pdf").unlink(missing_ok=True)
            continue
        if any(not deck.pages for deck in prepared[lang]):   # its card sheets were up to date: nothing loaded
            render_prepared(context.game, {lang: prepared[lang]}, context.cache, context.jobs, context.progress)
        for option in context.sheets:
            name = f"reprint-{lang}-{option.paper}.pdf"
            entry = write_card_file(context, prepared[lang], option, lang, name, changed)
            files.append({**entry, "kind": "reprint", "since": since, "cards": sorted(changed)})
    return files


def deck_name(game: Game, deck_id: str, lang: str) -> str:
    return plain(game.decks[deck_id].name.get(lang, game.source_language))


def check_margin(margin: float) -> float:
    if not 0 <= margin <= 40:
        raise InputError(Problem(None, None, f"--margin {margin:g}: the printable margin must be 0 to 40 mm",
                                 hint="home printers need about 3-5 mm; the default is 5"))
    return margin


def copy_groups(decks: list[RenderedDeck], option: SheetOptions, only: set[str] | None = None) -> list[CopyGroup]:
    """The copies to impose: one group per deck, or (shared sheets) one per card size and bleed, in the
    order the sizes first appear in the box contents; with `only`, the copies of those `deck/card`s."""
    groups: dict = {}
    for index, rendered in enumerate(decks):
        deck = rendered.faces.deck
        key = (tuple(deck.size_mm), deck.bleed_mm) if option.sheets == "shared" else index
        group = groups.setdefault(key, CopyGroup(tuple(deck.size_mm), deck.bleed_mm, []))
        group.copies += [(front, back, deck.id) for front, back in deck_copies(rendered, only)]
    return [group for group in groups.values() if group.copies]


def deck_copies(rendered: RenderedDeck, only: set[str] | None = None) -> list:
    """(front page, back page) for every printed copy, in deck order (of the `deck/card`s in `only`)."""
    faces, pages = rendered.faces, rendered.pages
    copies = []
    for card, front, back in zip(faces.deck.cards, faces.front_of, faces.back_of):
        if only is not None and f"{faces.deck.id}/{card.id}" not in only:
            continue
        pair = (pages[front], pages[back] if back is not None else None)
        copies.extend([pair] * card.count)
    return copies


CARD_FILE_TITLES = {"en": "{title}: card sheets", "ja": "{title} カードシート"}


def write_pdf(writer: SheetWriter, path: Path, game: Game, lang: str) -> None:
    title = CARD_FILE_TITLES.get(lang, CARD_FILE_TITLES["en"]).format(title=game.title.get(lang, game.source_language))
    write_atomic(path, save_pdf_bytes(writer.pdf, title, lang))


def write_report(out_dir: Path, game: Game, files: list[dict], fits: list[CardFit] = (),
                 untranslated: dict[str, dict[str, str]] | None = None) -> None:
    report = {"game": game.id, "files": files,
              "overflows": [asdict(fit) for fit in fits if fit.overflow_mm > 0],
              "shrunk": [asdict(fit) for fit in fits if fit.scale < 1],
              "untranslated": {lang: [{"id": string_id, "where": where} for string_id, where in strings.items()]
                               for lang, strings in (untranslated or {}).items() if strings}}
    write_atomic(out_dir / "build.json", json.dumps(report, ensure_ascii=False, indent=2) + "\n")


# Each builder makes one kind of output for a game and returns its build.json entries.
BUILDERS = [build_cards, build_boards, build_aids, build_tokens, build_rules]
