"""docs/cli.md: every command of `pnpgen`, with its arguments and options as tables, written from the parser
`pnpgen` runs with (commands/runner.parser), and the files `pnpgen build` writes, from the builders' declarations.

An option's default is the one its help states (`(default: one per core)`), else its value in the parser; a
default that depends on the machine (a path, the number of cores) must be stated in the help, or this fails.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

from generator.commands.parsing import Command, CommandParser
from generator.model.schemadoc import cell

CLI_DOC = "cli.md"
STATED_DEFAULT = re.compile(r"\s*\(default: ([^()]*(?:\([^()]*\)[^()]*)*)\)")


class UndocumentedOption(ValueError):
    """An option or command without a help text, or whose default cannot be written down as it is."""


def commands(parser: CommandParser, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Command]]:
    """Every command and sub-command, depth first, with the words that run it."""
    for command in parser.commands:
        words = (*prefix, command.name)
        yield words, command
        yield from commands(command.parser, words)


def anchor(words: tuple[str, ...]) -> str:
    return "-".join(words)


def cli_markdown(root: CommandParser | None = None, outputs: str | None = None) -> str:
    """The whole of docs/cli.md."""
    if root is None:
        from generator.commands.runner import parser

        root = parser()
    listed = list(commands(root))
    out = [
        "# The pnpgen command line",
        "",
        (
            "<!-- Written by `pnpgen schema --write-docs docs` from the parser pnpgen runs with. Do not edit: change a "
            "command's help texts in generator/commands/, then run `make docs`. -->"
        ),
        "",
        (
            f"{root.description} `pnpgen COMMAND --help` prints a command's own part of this page; `pnpgen --version` "
            "prints the version. A game is named by its folder under `cards/` or by a path to its folder."
        ),
        "",
        "| command | what it does |",
        "|---|---|",
        *[
            f"| [`pnpgen {' '.join(words)}`](#{anchor(words)}) | {cell(help_of(command))} |"
            for words, command in listed
            if not command.parser.commands
        ],
        "",
    ]
    for words, command in listed:
        out += command_section(words, command)
        if words == ("build",):
            out += [outputs if outputs is not None else outputs_section(), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def help_of(command: Command) -> str:
    if not command.help.strip():
        raise UndocumentedOption(f"`pnpgen {command.name}` has no help= in add_parser")
    return command.help


def command_section(words: tuple[str, ...], command: Command) -> list[str]:
    parser = command.parser
    level = "#" * (len(words) + 1)
    out = [f'{level} <a id="{anchor(words)}"></a>`pnpgen {" ".join(words)}`', ""]
    if parser.commands:
        out += [expand(parser.description or help_of(command), parser), ""]
        out += [f"`pnpgen {' '.join(words)}` is followed by one of:", ""]
        out += [f"- [`{sub.name}`](#{anchor((*words, sub.name))}): {help_of(sub)}" for sub in parser.commands]
        return [*out, ""]
    out += ["```", synopsis(words, parser), "```", ""]
    out += [expand(parser.description or help_of(command), parser), ""]
    options = parser.options or []
    positionals = [action for action in options if not action.option_strings]
    flags = [action for action in options if action.option_strings]
    if positionals:
        out += ["| argument | meaning |", "|---|---|"]
        out += [f"| `{cell(value_name(action))}` | {cell(meaning(action, parser)[0])} |" for action in positionals]
        out.append("")
    if flags:
        out += options_table(flags, parser)
    for group in parser.groups:
        out += [f"{level}# {group.title}", "", expand(group.description, parser), ""]
        out += options_table(group.options, parser) if group.options else ["No options of its own.", ""]
    return out


def options_table(flags: list[argparse.Action], parser: CommandParser) -> list[str]:
    out = ["| option | value | default | meaning |", "|---|---|---|---|"]
    for action in flags:
        text, default = meaning(action, parser)
        names = ", ".join(f"`{name}`" for name in sorted(action.option_strings, key=lambda n: -len(n)))
        out.append(f"| {names} | {cell(option_value(action))} | {cell(default)} | {cell(text)} |")
    return [*out, ""]


def synopsis(words: tuple[str, ...], parser: CommandParser) -> str:
    parts = ["pnpgen", *words]
    options = parser.options or []
    for action in options:
        if action.option_strings:
            continue
        name = value_name(action)
        parts.append({"*": f"[{name} ...]", "?": f"[{name}]", "+": f"{name} [{name} ...]"}.get(str(action.nargs), name))
    if any(action.option_strings for action in options) or any(group.options for group in parser.groups):
        parts.append("[options]")
    return " ".join(parts)


def value_name(action: argparse.Action) -> str:
    if action.metavar is not None:
        return str(action.metavar)
    if action.choices is not None and not action.option_strings:
        return "|".join(str(choice) for choice in action.choices)
    return action.dest.upper()


def option_value(action: argparse.Action) -> str:
    """What follows the option: nothing for a switch, its choices, or the name of its value."""
    if action.nargs == 0:
        return ""
    if action.choices is not None:
        return ", ".join(f"`{choice}`" for choice in action.choices)
    return f"`{value_name(action)}`"


def expand(text: str, parser: argparse.ArgumentParser, action: argparse.Action | None = None) -> str:
    """A help text as `--help` prints it: an option's with argparse's `%(default)s` and `%%` filled in, a description's
    with `%(prog)s` only."""
    if action is not None:
        text = text % {**vars(action), "prog": parser.prog}
    elif "%(prog)" in text:
        text = text % {"prog": parser.prog}
    return " ".join(text.split())


def meaning(action: argparse.Action, parser: argparse.ArgumentParser) -> tuple[str, str]:
    """(what the option does, its default as the reader should see it)."""
    if not (action.help or "").strip():
        raise UndocumentedOption(f"{parser.prog} {'/'.join(action.option_strings) or action.dest}: give it a help=")
    text = expand(action.help or "", parser, action)
    stated = STATED_DEFAULT.search(text)
    if stated:
        default, _, rest = stated.group(1).partition("; ")
        shown = default if " " in default else f"`{default}`"  # a value as written, else words
        return text[: stated.start()] + (f" ({rest})" if rest else "") + text[stated.end() :], shown
    return text, shown_default(action, parser)


def shown_default(action: argparse.Action, parser: argparse.ArgumentParser) -> str:
    value = action.default
    if value is None or value is False or value == argparse.SUPPRESS or value == [] or action.nargs == 0:
        return ""
    if isinstance(value, Path):
        raise UndocumentedOption(
            f"{parser.prog} {action.option_strings[0]}: its default is a path on this machine: state it in its help "
            "as `(default: ...)`"
        )
    return f"`{value:g}`" if isinstance(value, float) else f"`{value}`"


def outputs_section() -> str:
    """The files `pnpgen build` writes into OUT/<game>/, from each builder's declaration, build.json last."""
    from generator.build.engine import BUILDERS
    from generator.build.report import REPORT_FILE

    files = [file for builder in BUILDERS for file in builder.files] + [REPORT_FILE]
    return "\n".join(
        [
            '### <a id="build-outputs"></a>What `pnpgen build` writes',
            "",
            (
                "Into `OUT/<game>/` (`output/<game>/` by default), for each language (`<lang>`) and paper (`<paper>`: "
                "`a4`, `letter`) asked for; a part in brackets is in some names only. Every name is the kind of file, "
                "the id of its board, aid or token sheet, its language and its paper, joined by `-`; a file of several "
                "languages names them in the order it prints them joined by `+` (`ja+en`), as its `lang` in "
                "build.json does."
            ),
            "",
            "| file | what it holds |",
            "|---|---|",
            *[f"| `{cell(file.name)}` | {cell(file.doc)} |" for file in files],
            "",
            (
                "The files of a build replace the previous ones all together, build.json last, or not at all. The "
                "folder holds what the last build made: a file the previous build.json lists that this build was "
                "asked for and did not write again (an aid renamed or removed, a language the game no longer has, "
                "a volume a shorter deck no longer needs, a reprint not asked for again) is removed with the "
                "commit, and the build's summary names it. A build asked for some of the files only (`--lang`, "
                "`--paper`, `pnpgen rules`) leaves the others as they are, and build.json goes on listing them. "
                "A file build.json does not list is never removed: pnpgen removes only what it wrote."
            ),
        ]
    )
