"""What a build is asked for, as typed values: the command line (or a test, watch, ...) fills BuildOptions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import InputError, Problem, unknown_language
from generator.model import Game
from generator.paths import OUTPUT_DIR
from generator.render.pipeline import default_jobs
from generator.render.paper import MARGIN_MM, PAPERS
from generator.render.sheet_plan import SheetOptions
from generator.render.volumes import VOLUME_SHEETS


@dataclass(frozen=True)
class BuildOptions:
    """Everything `pnpgen build` can be told, with its defaults (see `pnpgen build --help`)."""

    out: Path = OUTPUT_DIR
    languages: str = "all"  # "ja", "ja,en", ... or "all" (every language of the game)
    papers: tuple[str, ...] = tuple(PAPERS)
    duplex: str = "long"  # long | short | none (see render/sheet_plan.DUPLEX_MODES)
    layout: str = "duplex"  # duplex | gutterfold
    board_paper: str | None = None  # also print tiled boards on one sheet of this larger paper
    margin: float = MARGIN_MM  # the paper's outer edge a home printer cannot print, mm
    sheets: str = "shared"  # shared | per-deck
    cut_lines: bool = False
    marks: bool = True  # crop marks
    changed_since: str | None = None  # a git revision or an earlier build.json: also write reprint files
    jobs: int = field(default_factory=default_jobs)
    use_cache: bool = True
    quiet: bool = False
    strict: bool = False  # the build's problems make its exit status 1
    volume_sheets: int = VOLUME_SHEETS  # a card sheet file of more sheets is written in volumes of this many (0: never)
    outputs: tuple[str, ...] | None = None  # the kinds of output to build (engine.BUILDERS' kinds); None: every one
    pnp: bool = True  # the print-and-play files (pnp-<lang>-<paper>.pdf), which combine the others
    ink_saver: bool = False  # also their ink-saving version, from faces printed light

    def __post_init__(self) -> None:
        if self.volume_sheets < 0:
            raise InputError(
                Problem(
                    None,
                    None,
                    f"--volume-sheets {self.volume_sheets}: a volume holds 1 sheet or more",
                    hint="give 0 to write each card sheet file whole",
                )
            )

    def sheet_options(self) -> list[SheetOptions]:
        """One per paper, with the duplex, layout and marks options."""
        return [
            SheetOptions(
                paper, self.duplex, self.layout, self.marks, self.cut_lines, check_margin(self.margin), self.sheets
            )
            for paper in self.papers
        ]

    @property
    def cache_root(self) -> Path | None:
        """Where the caches of a build into `out` live (None: render everything again)."""
        return self.out / ".cache" if self.use_cache else None


def select_languages(game: Game, wanted: str) -> list[str]:
    if wanted == "all":
        return list(game.languages)
    langs = [lang.strip() for lang in wanted.split(",") if lang.strip()]
    for lang in langs:
        if lang not in game.languages:
            raise unknown_language(game, lang, all_allowed=True)
    return langs


def check_margin(margin: float) -> float:
    if not 0 <= margin <= 40:
        raise InputError(
            Problem(
                None,
                None,
                f"--margin {margin:g}: the printable margin must be 0 to 40 mm",
                hint="home printers need about 3-5 mm; the default is 5",
            )
        )
    return margin
