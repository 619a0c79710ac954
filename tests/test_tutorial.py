"""docs/tutorial.md, run as a designer would follow it: every command and file of the walkthrough, in a folder of
its own, then its PDFs read back. A change of pnpgen that breaks the walkthrough fails here, so it cannot drift.

The walkthrough's fenced blocks say what they are in their info string:
- `sh`: commands, one a line, run in the folder (`pnpgen` is this checkout's); each must exit 0;
- `text output`: lines the commands just run printed (each, spaces normalised, within their output);
- `<lang> file=PATH`: a file written whole; `... file=PATH append`: lines added at its end;
- `diff file=PATH`: an edit: the `-` and context lines are found in the file and become the `+` and context lines;
- `python run`: a step done by hand in the walkthrough (a translator's spreadsheet), run as a script.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pikepdf
import pypdfium2
import pytest

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```\s*$", re.S | re.M)


@dataclass
class Block:
    kind: str
    options: list[str]
    body: str
    line: int


def blocks(text: str) -> list[Block]:
    found = []
    for match in FENCE.finditer(text):
        info = match.group(1).split()
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(info[0] if info else "", info[1:], match.group(2), line))
    return found


def option(block: Block, name: str) -> str | None:
    for item in block.options:
        if item.startswith(name + "="):
            return item.split("=", 1)[1]
    return None


def normalised(text: str) -> str:
    return " ".join(text.split())


def apply_diff(path: Path, diff: str, where: str) -> None:
    old, new = [], []
    for line in diff.splitlines():
        mark, rest = line[:1], line[1:]
        if mark in (" ", ""):
            old.append(rest)
            new.append(rest)
        elif mark == "-":
            old.append(rest)
        elif mark == "+":
            new.append(rest)
        else:
            raise AssertionError(f"{where}: a diff line must start with ' ', '-' or '+': {line!r}")
    text = path.read_text(encoding="utf-8")
    before = "\n".join(old) + "\n"
    assert text.count(before) == 1, f"{where}: the lines to change are not in {path.name} once:\n{before}"
    path.write_text(text.replace(before, "\n".join(new) + "\n"), encoding="utf-8")


def run_commands(folder: Path, block: Block) -> str:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", PNPGEN_DAEMON="0")
    printed = []
    for command in block.body.splitlines():
        if not command.strip() or command.startswith("#"):
            continue
        done = subprocess.run(command, shell=True, cwd=folder, env=env, capture_output=True, text=True, timeout=600)
        printed.append(done.stdout + done.stderr)
        assert done.returncode == 0, f"tutorial.md:{block.line}: `{command}` exited {done.returncode}:\n{printed[-1]}"
    return "".join(printed)


def follow(folder: Path) -> dict[int, str]:
    """Every step of the walkthrough in `folder`; what each command block printed, by its line."""
    printed: dict[int, str] = {}
    last = ""
    for block in blocks(TUTORIAL.read_text(encoding="utf-8")):
        where = f"tutorial.md:{block.line}"
        target = option(block, "file")
        if block.kind == "sh":
            last = printed[block.line] = run_commands(folder, block)
        elif block.kind == "text" and "output" in block.options:
            for line in filter(None, map(normalised, block.body.splitlines())):
                assert line in normalised(last), f"{where}: the output lacks {line!r}; it was:\n{last}"
        elif block.kind == "diff":
            assert target, f"{where}: a diff block names its file=PATH"
            apply_diff(folder / target, block.body, where)
        elif block.kind == "python" and "run" in block.options:
            done = subprocess.run([sys.executable, "-c", block.body], cwd=folder, capture_output=True, text=True)
            assert done.returncode == 0, f"{where}: {done.stderr}"
        elif target:
            path = folder / target
            path.parent.mkdir(parents=True, exist_ok=True)
            if "append" in block.options:
                path.write_text(path.read_text(encoding="utf-8") + block.body, encoding="utf-8")
            else:
                path.write_text(block.body, encoding="utf-8")
    return printed


def page_texts(path: Path) -> list[str]:
    document = pypdfium2.PdfDocument(str(path))
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


@pytest.fixture(scope="module")
def walked(tmp_path_factory) -> tuple[Path, dict[int, str]]:
    folder = tmp_path_factory.mktemp("tutorial")
    return folder, follow(folder)


def test_the_blocks_are_ones_the_walkthrough_understands():
    kinds = {(block.kind, "file" if option(block, "file") else "") for block in blocks(TUTORIAL.read_text())}
    unknown = {kind for kind in kinds if kind[0] not in ("sh", "text", "diff", "python") and not kind[1]}
    assert not unknown, f"blocks that are neither a command, an output, an edit nor a file: {unknown}"


def test_every_step_runs_and_prints_what_the_walkthrough_says(walked):
    folder, printed = walked
    assert printed, "the walkthrough ran no command"
    assert (folder / "orchard" / "game.yaml").is_file()
    for line, output in printed.items():  # what the walkthrough makes is clean: no text past its box
        assert "box(es) overflow" not in output and "runs past" not in output, f"tutorial.md:{line}:\n{output}"


@pytest.mark.slow
def test_the_printed_game_holds_what_the_walkthrough_made(walked):
    folder, _ = walked
    out = folder / "output" / "orchard"
    english = normalised(" ".join(page_texts(out / "cards-en-a4.pdf")))
    japanese = normalised(" ".join(page_texts(out / "cards-ja-a4.pdf")))
    for name in ("Apple", "Pear", "Market stall", "Bakery", "Juice bar", "Pay 3 grapes."):
        assert name in english, f"{name!r} is not on the English card sheets"
    for name in ("洋なし", "市場の屋台", "ジュースバー"):
        assert name in re.sub(r"\s", "", japanese), f"{name!r} is not on the Japanese card sheets"
    assert "art" not in re.findall(r"\bart\b", english), "a picture placeholder still prints on the English cards"

    rules_ja = re.sub(r"\s", "", "".join(page_texts(out / "rules-ja-a4.pdf")))
    assert "使うカードは4枚" in rules_ja, "the rule sheet's {deck.cards@2} did not print 4 in Japanese"
    rules_en = normalised(" ".join(page_texts(out / "rules-en-a4.pdf")))
    assert "4 of them are used" in rules_en

    with (folder / "orchard" / "decks" / "orders.csv").open(encoding="utf-8-sig", newline="") as sheet:
        rows = {row["id"]: row for row in csv.DictReader(sheet)}
    assert rows["market"].get("name.de") == "Marktstand" and rows["bakery"].get("name.de") == "Bäckerei"
    assert not rows["juice-bar"].get("name.de") and rows["juice-bar"]["name.en"] == "Juice bar"

    german = normalised(" ".join(page_texts(out / "cards-de-a4.pdf")))
    assert "Marktstand" in german and "Bäckerei" in german
    assert "Juice bar" in german, "an untranslated German card must print its English text, flagged"
    report = json.loads((out / "build.json").read_text(encoding="utf-8"))
    listed = {string["id"] for string in report["untranslated"]["de"]}
    assert {"cards[juice-bar].name", "labels[sheet_front].text", "labels[rules_players_range].text"} <= listed
    assert "Obstgarten-Eile · Cards, Orders · sheet 1 of" in german  # pnpgen's words in English until translated

    # the print-and-play file: the guide first, every component on its checklist; the ink-saving one lighter
    bundle = normalised(" ".join(page_texts(out / "pnp-en-a4.pdf")[:2]))
    for component in ("Cards", "Order cards", "Board", "Coins", "Player aid", "Rule sheet"):
        assert component in bundle, f"{component!r} is not on the print-and-play file's first pages"
    ink = {entry["path"]: entry["ink"]["mean_darkness"] for entry in report["files"] if "ink" in entry}
    assert ink["pnp-en-a4-ink-saver.pdf"] <= ink["pnp-en-a4.pdf"] / 2

    with pikepdf.open(out / "rules-de-a4.pdf") as pdf:
        assert "Obstgarten-Eile" in str(pdf.docinfo.get("/Title", "")) or "Obstgarten-Eile" in "".join(
            page_texts(out / "rules-de-a4.pdf")
        )
