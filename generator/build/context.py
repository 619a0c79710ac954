"""What every builder of a game gets (BuildContext), and how it reports what it measured and found."""

from __future__ import annotations

import hashlib
from urllib.parse import unquote, urlsplit

from dataclasses import dataclass, field
from pathlib import Path

from generator.build.options import BuildOptions, select_languages
from generator.build.outputs import FileEntry, OutputKind
from generator.build.problems import BuildProblems
from generator.errors import Problem, display_path
from generator.model import Game
from generator.model.texts import texts
from generator.paths import face_cache_dir
from generator.progress import Progress
from generator.render.faces import DeckFaces
from generator.render.fit_report import PICTURE_KINDS, CardFit
from generator.render.pipeline import FaceCache
from generator.model.game import Text
from generator.render.sheet_plan import SheetOptions


@dataclass
class BuildContext:
    """What every builder of a game gets: the game, the languages and papers asked for, where to write."""

    game: Game
    langs: list[str]
    out_dir: Path
    sheets: list[SheetOptions]  # one per paper size, with the duplex/layout/marks options
    cache: FaceCache
    jobs: int
    progress: Progress
    options: BuildOptions = field(default_factory=BuildOptions)
    fits: list[CardFit] = field(default_factory=list)  # measured text boxes and text findings of every face built
    # what the build reports without stopping (see --strict); None given: __post_init__ makes one
    problems: BuildProblems = None  # type: ignore[assignment]
    said: set[tuple[object, ...]] = field(default_factory=set)  # the findings said (report_fits)
    untranslated: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> string id -> file:line
    flagged: dict[str, int] = field(default_factory=dict)  # lang -> faces carrying the untranslated flag
    written: list[FileEntry] = field(default_factory=list)  # the build.json entries of the builders that ran before
    outputs: list[OutputKind] = field(default_factory=list)  # the output kinds this build makes
    _ids: dict[int, str] | None = None

    def __post_init__(self) -> None:
        if self.problems is None:
            self.problems = BuildProblems(self.progress)

    @classmethod
    def for_game(
        cls, game: Game, options: BuildOptions, progress: Progress, problems: BuildProblems | None = None
    ) -> BuildContext:
        return cls(
            game=game,
            langs=select_languages(game, options.languages),
            out_dir=options.out / game.id,
            sheets=options.sheet_options(),
            cache=FaceCache(face_cache_dir(game.dir, options.out), index=cache_index_name(game))
            if options.use_cache
            else FaceCache.scratch(),
            jobs=options.jobs,
            progress=progress,
            options=options,
            problems=problems if problems is not None else BuildProblems(progress),
        )

    def report(self, fits: list[CardFit]) -> None:
        report_fits(self, fits)

    def note_untranslated(self, faces: DeckFaces) -> None:
        """Record the strings a deck's faces print in the fallback language, and the flagged faces."""
        ids = self.string_ids()
        found = self.untranslated.setdefault(faces.lang, {})
        for card_id, printed in faces.untranslated.items():
            self.flagged[faces.lang] = self.flagged.get(faces.lang, 0) + 1
            for value in printed:
                string_id = ids.get(id(value.text), f"deck '{faces.deck.id}', card '{card_id}'")
                found.setdefault(string_id, location(value.text))

    def note_rules(self, fallbacks: dict[str, dict[str, Text]]) -> None:
        for lang, printed in fallbacks.items():
            found = self.untranslated.setdefault(lang, {})
            for string_id, text in printed.items():
                found.setdefault(string_id, location(text))

    def string_ids(self) -> dict[int, str]:
        if self._ids is None:
            self._ids = {id(text): label for label, text in texts(self.game)}
        return self._ids

    @property
    def papers(self) -> list[str]:
        return [option.paper for option in self.sheets]


def location(text: Text) -> str:
    return (
        f"{display_path(text.file)}:{text.line}"
        if text.file and text.line
        else (display_path(text.file) if text.file else "?")
    )


def overflow_problem(game: Game, fit: CardFit) -> Problem:
    """A text box that overflows, located at the card field it shows (at the card when it shows none)."""
    file, line = fit_location(game, fit)
    return Problem(file, line, f"{fit.describe()}: {fit.overflow_text()}")


def fit_location(game: Game, fit: CardFit) -> tuple[Path, int | None]:
    """File and line of the text a box shows (of the piece when the text was not found in the YAML)."""
    if not fit.file:
        return game.decks[fit.deck].file, None
    return Path(fit.file), fit.line or None


def report_fits(context: BuildContext, fits: list[CardFit]) -> None:
    """Keep the measured text boxes for build.json; report what overflowed, say what shrank, and every raster
    picture printed below the game's resolution (a warning; under half of it, an error with --strict). A finding
    made again (the same aid on another paper measures the same) is said once."""
    fresh = []
    min_dpi = context.game.min_dpi
    for fit in fits:
        text = fit.picture_text(picture_name(context.game, fit.image), min_dpi) if fit.kind in PICTURE_KINDS else ""
        if fit.kind in PICTURE_KINDS and not text:
            continue  # sharp enough: measured, nothing to say
        said = (fit.kind, str(fit_location(context.game, fit)), fit.describe(), text or fit.overflow_text(), fit.scale)
        if said not in context.said:
            context.said.add(said)
            fresh.append(fit)
            if text:
                report_picture(context, fit, f"{fit.describe()}: {text}")
    context.fits += fresh
    for fit in fresh:
        if fit.kind in PICTURE_KINDS:
            continue
        if fit.overflow_mm > 0:
            context.problems.add(overflow_problem(context.game, fit), "overflow")
        elif fit.scale < 1:
            context.progress.say(f"{context.game.id}: {fit.describe()}: font shrunk to {fit.scale:.0%} to fit")


def report_picture(context: BuildContext, fit: CardFit, message: str) -> None:
    """A picture printed too coarse (a warning under half the game's min_dpi, else advice) or stopping at the trim."""
    file, line = fit_location(context.game, fit)
    if fit.kind == "bleed":
        hint = "let the picture's box run on into the bleed (`.bleed`, or a box 2 x bleed larger than the piece)"
        context.problems.add(Problem(file, line, message, hint=hint), "picture_bleed")
    else:
        severity = "warning" if fit.dpi < context.game.min_dpi / 2 else "advice"
        context.problems.add(Problem(file, line, message), "resolution", severity)


def picture_name(game: Game, url: str) -> str:
    """A picture's file as messages name it: its path in the game's folder (else as the page named it)."""
    if url.startswith("data:"):
        return "a picture pnpgen made (a pictured card)"
    parts = urlsplit(url)
    path = Path(unquote(parts.path)) if parts.scheme in ("file", "") else None
    if path is not None and path.is_relative_to(game.dir.resolve()):
        return path.relative_to(game.dir.resolve()).as_posix()
    return display_path(path) if path is not None else url


def cache_index_name(game: Game) -> str:
    """The name of a game's index in a face cache several games may share."""
    return f"{game.id}-{hashlib.sha256(str(game.dir).encode()).hexdigest()[:12]}"
