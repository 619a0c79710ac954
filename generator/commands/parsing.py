"""The `pnpgen` command line parser, keeping what each command declares: docs/cli.md is written from it."""

from __future__ import annotations

import argparse
from dataclasses import dataclass


@dataclass(frozen=True)
class OptionGroup:
    """A group of options a command declares together (`pnpgen export`'s options of one target): its title and
    description as `--help` shows them, and its options in the order they were declared."""

    title: str
    description: str
    options: list[argparse.Action]


@dataclass(frozen=True)
class Command:
    name: str
    help: str  # the one line `pnpgen --help` shows
    parser: CommandParser


class CommandParser(argparse.ArgumentParser):
    """An ArgumentParser that remembers, in the order they were declared, its options (the Actions add_argument
    returns), its groups of options and the commands added under it: docs/cli.md is written from the parser
    `pnpgen` runs with, through argparse's public API."""

    def __init__(self, *args, **kwargs):
        self.options: list[argparse.Action] | None = None  # not the -h that ArgumentParser adds to every parser
        self.commands: list[Command] = []
        self.groups: list[OptionGroup] = []  # each with its own options, not in `options`
        super().__init__(*args, **kwargs)
        self.options = []

    def add_argument(self, *args, **kwargs) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        if self.options is not None:
            self.options.append(action)
        return action

    def add_argument_group(self, *args, **kwargs):
        group = super().add_argument_group(*args, **kwargs)
        if self.options is None:
            return group  # argparse's own (positional arguments, options)
        noted = OptionGroup(group.title or "", group.description or "", [])
        self.groups.append(noted)
        add_argument = group.add_argument

        def add_option(*args, **kwargs) -> argparse.Action:
            action = add_argument(*args, **kwargs)
            noted.options.append(action)
            return action

        group.add_argument = add_option  # type: ignore[method-assign]  # the same call, noted
        return group

    def add_subparsers(self, **kwargs):
        subparsers = super().add_subparsers(**kwargs)
        add_parser = subparsers.add_parser

        def add_command(name: str, **options) -> CommandParser:
            parser = add_parser(name, **options)
            self.commands.append(Command(name, options.get("help", ""), parser))
            return parser

        subparsers.add_parser = add_command  # type: ignore[method-assign]  # the same call, noted
        return subparsers
