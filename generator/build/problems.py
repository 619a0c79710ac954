"""What a build finds wrong without stopping: located problems, each of a kind, summed up in one line.

Every check that runs while building (validate's data checks before rendering, text overflow after the
layout, ...) adds its problems to one BuildProblems. Each is printed as a located warning when found;
the build ends with one summary line, and `--strict` makes any problem exit status 1 (but advice: a picture
somewhat under the print resolution). A new check only
adds problems of its own kind (and a phrase for the summary in KIND_PHRASES).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.errors import Problem
from generator.progress import Progress

# kind -> how the summary counts it
KIND_PHRASES = {
    "data": "data problem(s) (`pnpgen validate` lists them)",
    "overflow": "text box(es) overflow",
    "untranslated": "edition(s) with text printed in the source language for want of a translation",
    "art": "picture(s) still to come, printed as marked placeholder boxes",
    "resolution": "picture(s) printed below the game's print resolution (game.yaml print: min_dpi)",
    "bleed": "page edge(s) whose bleed is white where the art meets the trim",
    "picture_bleed": "picture(s) stopping at the trim, the bleed white beyond them",
}


@dataclass
class BuildProblem:
    problem: Problem
    kind: str  # what found it: a key of KIND_PHRASES
    # warning: the output is written anyway, --strict makes the build fail; advice: said, never failing it
    severity: str = "warning"

    def __str__(self) -> str:
        return str(self.problem)


@dataclass
class BuildProblems:
    progress: Progress
    found: list[BuildProblem] = field(default_factory=list)

    def add(self, problem: Problem, kind: str, severity: str = "warning") -> None:
        self.found.append(BuildProblem(problem, kind, severity))
        self.progress.warn(str(problem))

    def extend(self, problems: list[Problem], kind: str) -> None:
        for problem in problems:
            self.add(problem, kind)

    def __len__(self) -> int:
        return len(self.found)

    def summary(self) -> str:
        """One line: how many problems of each kind, e.g. `2 data problem(s) (...); 1 text box(es) overflow`."""
        counts: dict[str, int] = {}
        for problem in self.found:
            counts[problem.kind] = counts.get(problem.kind, 0) + 1
        return "; ".join(f"{count} {KIND_PHRASES.get(kind, kind + ' problem(s)')}" for kind, count in counts.items())

    def finish(self, strict: bool) -> int:
        """Print the summary line; the exit status: 1 with --strict when anything but advice was found."""
        if not self.found:
            return 0
        failing = any(problem.severity != "advice" for problem in self.found)
        if strict and failing:
            print(f"error: --strict: {self.summary()}", file=self.progress.stream, flush=True)
            return 1
        said = "the files were written; --strict makes this an error" if failing else "the files were written"
        self.progress.warn(f"{self.summary()} ({said})")
        return 0
