"""build(): every output of the games asked for, staged together, with one report of what was found."""

from __future__ import annotations

from generator.build import aids, boards, bundle, cards, rules, tokens
from generator.build.builder import Builder
from generator.build.context import BuildContext
from generator.build.options import BuildOptions, select_languages
from generator.build.problems import BuildProblems
from generator.build.report import carry_over, previous_report, report_of, report_untranslated, write_report
from generator.checks.validate import data_problems
from generator.fsutil import OutputSet
from generator.heap import thaw
from generator.model import Game
from generator.progress import Progress
from generator.render import images

# Each builder makes one kind of output for a game and returns its build.json entries, in this order.
# The print-and-play bundle comes last: it combines the files the others wrote.
BUILDERS: list[Builder] = [
    cards.BUILDER,
    boards.BUILDER,
    aids.BUILDER,
    tokens.BUILDER,
    rules.BUILDER,
    bundle.BUILDER,
]


def build(games: Game | list[Game], options: BuildOptions, progress: Progress | None = None) -> int:
    """Build every output of the games into options.out/<game>/: every file of the build replaced together, or
    none. The problems found on the way are warned about; the result is the exit status (1: --strict and
    problems). Bad input raises InputError before anything is written."""
    games = [games] if isinstance(games, Game) else list(games)
    progress = progress or Progress(options.quiet)
    builders = chosen_builders(options)
    images.remember_in(options.cache_root)
    for game in games:
        for builder in builders:
            builder.check(game)  # a builder's own input (rules.yaml...) is checked before anything is written
    problems = BuildProblems(progress)
    with progress.task("checking the data", len(games), "game(s)") as task:
        for game in games:
            problems.extend(
                data_problems(game, select_languages(game, options.languages)), "data"
            )  # before rendering: they are fast and say what is wrong
            task.advance()
    try:
        with OutputSet(options.out):  # every file of the build replaced together, or none (build.json last)
            for game in games:
                build_game(game, options, progress, problems, builders)
    finally:
        thaw()
    return problems.finish(options.strict)


def chosen_builders(options: BuildOptions) -> list[Builder]:
    """The builders of the outputs asked for (options.outputs), in BUILDERS' order."""
    if options.outputs is None:
        return list(BUILDERS)
    unknown = set(options.outputs) - {builder.kind for builder in BUILDERS}
    if unknown:
        raise ValueError(f"no builder makes {', '.join(sorted(unknown))}")
    return [builder for builder in BUILDERS if builder.kind in options.outputs]


def build_game(
    game: Game, options: BuildOptions, progress: Progress, problems: BuildProblems, builders: list[Builder]
) -> None:
    """The game's outputs of `builders` (staged in the build's OutputSet); what it finds goes to `problems`. When
    only some of BUILDERS run, build.json keeps what the previous one said of the other outputs."""
    context = BuildContext.for_game(game, options, progress, problems)
    context.builders = builders
    for builder in builders:
        written = builder.build(context)
        undeclared = [entry["path"] for entry in written if not any(f.matches(entry["path"]) for f in builder.files)]
        assert not undeclared, (
            f"declare these files in the {builder.kind} builder's `files` (docs/cli.md): {undeclared}"
        )
        context.written += written  # what the next builders (the bundle) may read
    files = context.written
    report = report_of(game, files, context.fits, context.untranslated)
    some = len(builders) < len(BUILDERS)
    if some:
        rebuilt = {name for builder in builders for name in builder.reports}
        report = carry_over(report, previous_report(context.out_dir), rebuilt)
    write_report(context.out_dir, report)
    context.cache.save_index(keep_others=some)
    report_untranslated(context)
    counted = context.cache.hits + context.cache.misses or not some  # the rule sheets count their own
    progress.say(
        f"{game.id}: {len(files)} files in {context.out_dir}"
        + (f" ({context.cache.hits} faces from the cache, {context.cache.misses} rendered)" if counted else "")
    )
