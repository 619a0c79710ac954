"""The output folder holds what the last build made: files the previous build listed in build.json and this one
was asked for but did not write are removed (an aid renamed, a language dropped, an old file name), files of
what a build was not asked for (`--lang`, `--paper`, `pnpgen rules`) stay listed, and nothing build.json does
not list is ever removed. One naming scheme: a file of several languages joins them with `+`."""

from __future__ import annotations

import json
from pathlib import Path

import pikepdf

from conftest import page_text
from generator.build.outputs import OutputFile
from generator.build.report import Scope, stale_files
from test_i18n import edit

AID = """\
name: {ja: エイド, en: Aid}
size: poker
copies: 1
title: {ja: 手番, en: Your turn}
sections:
  - heading: {ja: 引く, en: Draw}
    text: {ja: 1枚引く。, en: Draw a card.}
"""
AID_COMPONENT = """\
  - id: aids
    name: {ja: エイド, en: Aids}
    count: 1
    aid: turn
"""


def aided(game: Path) -> Path:
    (game / "aids").mkdir()
    (game / "aids" / "turn.yaml").write_text(AID, encoding="utf-8")
    with open(game / "components.yaml", "a", encoding="utf-8") as components:
        components.write(AID_COMPONENT)
    return game


def build(cli, game: Path, out: Path, *options):
    result = cli("build", game, "--out", out, "--paper", "a4", "--jobs", "1", *options)
    assert result.code == 0, result
    return result


def listed(out: Path) -> dict[str, dict]:
    return {entry["path"]: entry for entry in json.loads((out / "small" / "build.json").read_text())["files"]}


def pdfs(out: Path) -> set[str]:
    return {path.name for path in (out / "small").glob("*.pdf")}


def test_an_aid_renamed_between_two_builds_leaves_no_old_pdf_behind(cli, small_game, tmp_path):
    game, out = aided(small_game), tmp_path / "out"
    build(cli, game, out)
    assert {"aid-turn-ja-a4.pdf", "aid-turn-en-a4.pdf", "aid-turn-ja+en-a4.pdf"} <= pdfs(out)
    assert "Your turn" in page_text(out / "small" / "aid-turn-ja+en-a4.pdf", 0)  # both languages, one file
    (game / "aids" / "turn.yaml").rename(game / "aids" / "phases.yaml")
    edit(game / "components.yaml", "aid: turn", "aid: phases")
    result = build(cli, game, out)
    assert not {name for name in pdfs(out) if name.startswith("aid-turn-")}
    assert {"aid-phases-ja-a4.pdf", "aid-phases-en-a4.pdf", "aid-phases-ja+en-a4.pdf"} <= pdfs(out)
    assert set(listed(out)) == pdfs(out)  # every PDF in the folder is listed, and every listed one is there
    assert (
        "removed 3 file(s) the last build wrote and this one does not: "
        "aid-turn-en-a4.pdf, aid-turn-ja+en-a4.pdf, aid-turn-ja-a4.pdf" in result.err
    )


def test_a_new_language_replaces_the_old_bilingual_aid(cli, small_game, tmp_path):
    game, out = aided(small_game), tmp_path / "out"
    build(cli, game, out)
    edit(game / "game.yaml", "languages: [ja, en]", "languages: [ja, en, de]")
    build(cli, game, out)  # de is untranslated: printed in Japanese, flagged, listed; the build goes on
    aids = {name for name in pdfs(out) if name.startswith("aid-")}
    assert aids == {f"aid-turn-{lang}-a4.pdf" for lang in ("ja", "en", "de", "ja+en+de")}
    assert set(listed(out)) == pdfs(out)


def test_a_build_of_one_language_after_a_full_build_removes_nothing_of_the_others(cli, small_game, tmp_path):
    game, out = aided(small_game), tmp_path / "out"
    build(cli, game, out)
    before = pdfs(out)
    assert {"cards-ja-a4.pdf", "cards-en-a4.pdf", "aid-turn-ja+en-a4.pdf"} <= before
    ja_sheets = (out / "small" / "cards-ja-a4.pdf").read_bytes()
    edit(game / "decks" / "cards.yaml", "en: Draw 1 card.", "en: Draw one card.")
    result = build(cli, game, out, "--lang", "en")
    assert pdfs(out) == before and "removed" not in result.err
    assert (out / "small" / "cards-ja-a4.pdf").read_bytes() == ja_sheets  # untouched
    entries = listed(out)
    assert set(entries) == before  # the ja and ja+en files stay listed
    assert {entries[name]["lang"] for name in before} == {"ja", "en", "ja+en"}
    assert "Draw one card." in page_text(out / "small" / "cards-en-a4.pdf", 0)
    # a paper not asked for is left too
    build(cli, game, out, "--lang", "en", "--paper", "letter")
    assert pdfs(out) == before | {"cards-en-letter.pdf", "aid-turn-en-letter.pdf", "pnp-en-letter.pdf"}
    assert set(listed(out)) == pdfs(out)


def test_a_language_the_game_dropped_is_removed_even_by_a_build_of_one_language(cli, small_game, tmp_path):
    game, out = aided(small_game), tmp_path / "out"
    edit(game / "game.yaml", "languages: [ja, en]", "languages: [ja, en, de]")
    build(cli, game, out)
    edit(game / "game.yaml", "languages: [ja, en, de]", "languages: [ja, en]")
    build(cli, game, out, "--lang", "ja")
    assert {entry["lang"] for entry in listed(out).values()} == {"ja", "en"}  # en stays: not asked for
    assert set(listed(out)) == pdfs(out) and "cards-de-a4.pdf" not in pdfs(out)


def test_the_old_names_of_bilingual_files_are_cleaned_and_unlisted_files_are_never_removed(cli, small_game, tmp_path):
    game, out = aided(small_game), tmp_path / "out"
    build(cli, game, out)
    folder = out / "small"
    report = json.loads((folder / "build.json").read_text())
    for entry in report["files"]:  # as a build before the one naming scheme wrote it
        if entry["path"] == "aid-turn-ja+en-a4.pdf":
            entry["path"] = "aid-turn-ja-en-a4.pdf"
            (folder / "aid-turn-ja+en-a4.pdf").rename(folder / entry["path"])
    (folder / "build.json").write_text(json.dumps(report))
    (folder / "aid-mine-ja-a4.pdf").write_bytes(b"%PDF-1.4 the designer's own")  # a name like ours, not listed
    (folder / "notes.txt").write_text("keep me")
    result = build(cli, game, out)
    assert "aid-turn-ja-en-a4.pdf" in result.err and not (folder / "aid-turn-ja-en-a4.pdf").exists()
    assert len(pikepdf.open(folder / "aid-turn-ja+en-a4.pdf").pages) >= 1
    assert (folder / "aid-mine-ja-a4.pdf").read_bytes() == b"%PDF-1.4 the designer's own"
    assert (folder / "notes.txt").read_text() == "keep me"


def test_only_listed_regular_files_of_declared_names_inside_the_folder_are_stale(tmp_path):
    aids = OutputFile("aid-<aid>-<lang>-<paper>.pdf", "")
    scope = Scope(frozenset({"aid"}), False, None, frozenset({"ja", "en"}), None, (aids,))
    (tmp_path / "outside.pdf").write_bytes(b"x")
    (tmp_path / "out").mkdir()
    for name in ("aid-a-ja-a4.pdf", "aid-b-en-a4.pdf", "cards-ja-a4.pdf", "notes.pdf"):
        (tmp_path / "out" / name).write_bytes(b"x")
    (tmp_path / "out" / "aid-link-ja-a4.pdf").symlink_to(tmp_path / "outside.pdf")
    previous = {
        "files": [
            {"path": path, "kind": kind, "lang": "ja", "paper": "a4"}
            for path, kind in (
                ("aid-a-ja-a4.pdf", "aid"),  # stale
                ("aid-b-en-a4.pdf", "aid"),  # written again
                ("cards-ja-a4.pdf", "cards"),  # another output's
                ("notes.pdf", "aid"),  # not a name the builder writes
                ("../outside.pdf", "aid"),
                ("aid-link-ja-a4.pdf", "aid"),  # a link
                ("aid-gone-ja-a4.pdf", "aid"),  # not there any more
                ("build.json", "aid"),
            )
        ]
        + ["junk", {"kind": "aid"}]
    }
    report = {"files": [{"path": "aid-b-en-a4.pdf", "kind": "aid"}]}
    assert stale_files(previous, report, scope, tmp_path / "out") == ["aid-a-ja-a4.pdf"]
    english_only = Scope(frozenset({"aid"}), False, frozenset({"en"}), frozenset({"ja", "en"}), None, (aids,))
    assert stale_files(previous, report, english_only, tmp_path / "out") == []
    assert stale_files({"files": "junk"}, report, scope, tmp_path / "out") == []
