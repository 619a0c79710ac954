"""YAML text to a document, every error in it a located problem: the line, and a hint for the common causes."""

from __future__ import annotations

import re
from pathlib import Path

import yaml as pyyaml

from generator.errors import InputError, Problem
from generator.yamlio.parse import BadValue, DuplicateKey, fast_load


def load_yaml_text(text: str, path: Path):
    """Parse YAML text read from path (named in errors), as load_yaml does."""
    try:
        return fast_load(text)
    except DuplicateKey as exc:
        raise InputError(
            Problem(
                path,
                exc.line,
                f"the key '{exc.key}' appears twice in this mapping",
                str(exc.key),
                hint="remove or rename one of them",
            )
        ) from None
    except BadValue as exc:
        raise InputError(Problem(path, exc.line, exc.message, hint=exc.hint)) from None
    except pyyaml.reader.ReaderError as exc:  # a character YAML does not allow: say on which line
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise InputError(
            Problem(
                path,
                line,
                f"a control character (U+{exc.character:04X}) in column {column}",
                hint='remove it, or write it as an escape in double quotes, like "\\t"',
            )
        ) from None
    except pyyaml.MarkedYAMLError as exc:
        raise InputError(syntax_problem(exc, text, path)) from None
    except pyyaml.YAMLError as exc:
        raise InputError(Problem(path, None, f"malformed YAML: {exc}")) from None


QUOTE_IT = 'quote the text ("...") or write one language a line (block style; docs/schema.md shows it)'
OPENS_COLLECTION = re.compile(r"(?:^|:\s|-\s)\s*[{\[]")


def syntax_problem(exc, text: str, path: Path) -> Problem:
    """A YAML syntax error at its line, with a hint for the common cause: a text YAML reads as syntax."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else None
    what = exc.problem or exc.context or "malformed YAML"
    lines = text.splitlines()
    in_flow = "flow mapping" in str(exc.context) or "flow sequence" in str(exc.context)
    if in_flow and exc.context_mark and (line is None or line > len(lines) or not lines[line - 1].strip()):
        line = exc.context_mark.line + 1  # the problem was found past the end: name the line the braces open on
    source = lines[line - 1] if line and line <= len(lines) else ""
    if in_flow:
        hint = (
            "inside {ja: ..., en: ...} a comma, `: `, ` #`, brackets or braces (furigana {漢字|かんじ}, "
            "placeholders) in a text break it: " + QUOTE_IT
        )
    elif "mapping values are not allowed" in what and source.count(": ") > 1:
        hint = 'a text holding `: ` (a colon and a space) must be quoted ("...")'
    elif "expected key" in what and OPENS_COLLECTION.search(source):
        hint = (
            "a text starting with { or [ (furigana {漢字|かんじ}, a placeholder {...}) is read as a mapping or a "
            'list: quote it, like ja: "{札|ふだ}を引く"'
        )
    else:
        hint = "check indentation, colons and quotes on this line or the one above"
    return Problem(path, line, f"malformed YAML: {what}", hint=hint)
