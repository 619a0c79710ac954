"""build(): every output of the games asked for, staged together, with one report of what was found."""

from __future__ import annotations

from generator.build import aids, boards, bundle, cards, rules, tokens
from generator.build.builder import Builder
from generator.build.context import BuildContext
from generator.build.options import BuildOptions, select_languages
from generator.build.problems import BuildProblems
from generator.build.report import (
    build_scope,
    carry_over,
    previous_report,
    report_of,
    report_untranslated,
    stale_files,
    write_report,
)
from generator.checks.art import placeholder_art
from generator.checks.validate import data_problems
from generator.fsutil import OutputSet, remove_output
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
            problems.extend(placeholder_art(game), "art")
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
    """The game's outputs of `builders` (staged in the build's OutputSet); what it finds goes to `problems`.
    build.json lists this build's files and what the previous one listed outside this build's scope (other
    languages, papers or outputs); the files the previous one listed within it and this one did not write are
    removed with the commit."""
    context = BuildContext.for_game(game, options, progress, problems)
    context.outputs = list(builders)
    previous = previous_report(context.out_dir)
    for builder in builders:
        written = builder.build(context)
        undeclared = [entry["path"] for entry in written if not any(f.matches(entry["path"]) for f in builder.files)]
        assert not undeclared, (
            f"declare these files in the {builder.kind} builder's `files` (docs/cli.md): {undeclared}"
        )
        context.written += written  # what the next builders (the bundle) may read
    files = context.written
    scope = build_scope(context)
    report = report_of(game, files, context.fits, context.untranslated)
    stale = stale_files(previous, report, scope, context.out_dir)
    for path in stale:
        remove_output(context.out_dir / path)
    write_report(context.out_dir, carry_over(report, previous, scope))
    some = len(builders) < len(BUILDERS)
    context.cache.save_index(keep_others=some)
    report_untranslated(context)
    counted = context.cache.hits + context.cache.misses or not some  # the rule sheets count their own
    progress.say(
        f"{game.id}: {len(files)} files in {context.out_dir}"
        + (f" ({context.cache.hits} faces from the cache, {context.cache.misses} rendered)" if counted else "")
    )
    if stale:
        removed = ", ".join(stale)
        progress.say(f"{game.id}: removed {len(stale)} file(s) the last build wrote and this one does not: {removed}")
