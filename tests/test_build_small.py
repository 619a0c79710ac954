"""A game directory in, PDFs and a build report out: checked by opening the PDFs."""

import json

import pikepdf
import pytest

from conftest import fonts_of, is_embedded, page_size_mm, page_text, placements
from generator.build import BuildOptions, build
from generator.errors import InputError
from generator.model import load_game
from generator.render.paper import PAPERS


@pytest.fixture
def built(small_game, tmp_path, cli):
    out = tmp_path / "out"
    result = cli("build", small_game, "--out", out, "--quiet", "--jobs", "1")
    assert result.code == 0, result
    return out / "small"


def test_build_writes_a_pdf_per_language_and_paper_listed_in_build_json(built):
    report = json.loads((built / "build.json").read_text())
    assert report["game"] == "small"
    listed = {(f["lang"], f["paper"]) for f in report["files"]}
    assert listed == {(lang, paper) for lang in ("ja", "en") for paper in ("a4", "letter")}
    assert {entry["kind"] for entry in report["files"]} == {"cards", "pnp"}  # and the print-and-play file of each
    for entry in report["files"]:
        pdf = pikepdf.open(built / entry["path"])
        assert len(pdf.pages) == entry["pages"]
        if entry["kind"] == "pnp":
            continue
        assert entry["faces"] == {"cards": 6}


def test_the_command_drives_build_with_typed_options_and_writes_the_same_files(built, small_game, tmp_path):
    """build(game, BuildOptions) is the engine `pnpgen build` drives (watch and tests call it too): with the
    command's defaults it writes the same files, byte for byte, rendering into a cache of its own."""
    out = tmp_path / "engine"
    assert build(load_game(small_game), BuildOptions(out=out, jobs=1, quiet=True)) == 0
    written = sorted(path.name for path in (out / "small").glob("*.pdf"))
    assert written == sorted(path.name for path in built.glob("*.pdf")) and len(written) == 8  # cards and pnp
    for name in written:
        assert (out / "small" / name).read_bytes() == (built / name).read_bytes(), name
    with pytest.raises(InputError, match="--margin 50"):
        build(load_game(small_game), BuildOptions(out=out, margin=50, jobs=1, quiet=True))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_have_the_exact_paper_size(built, paper):
    pdf = pikepdf.open(built / f"cards-en-{paper}.pdf")
    expected = sorted(PAPERS[paper])
    for page in pdf.pages:
        assert sorted(page_size_mm(page)) == pytest.approx(expected, abs=0.01)


def test_every_copy_is_placed_at_card_size_with_bleed(built):
    pdf = pikepdf.open(built / "cards-ja-a4.pdf")
    fronts = placements(pdf.pages[0])
    assert len(fronts) == 6
    for _, _, _, w, h, _ in fronts:
        assert (w, h) == pytest.approx((63 + 6, 88 + 6), abs=0.01)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_n_prints_behind_face_n(small_game, tmp_path, cli, duplex):
    out = tmp_path / "out"
    assert cli("build", small_game, "--out", out, "-q", "--paper", "a4", "--duplex", duplex).code == 0
    pdf = pikepdf.open(out / "small" / "cards-en-a4.pdf")
    fronts, backs = placements(pdf.pages[0]), placements(pdf.pages[1])
    width, height = page_size_mm(pdf.pages[1])
    assert len(fronts) == len(backs) == 6
    # The sheet turns over about its long or its short edge: about a vertical axis x is mirrored, about a
    # horizontal one y. On portrait paper the long edge is vertical; on landscape paper it is horizontal.
    about_vertical_axis = (duplex == "long") == (height > width)
    for (_, fx, fy, w, h, _), (_, bx, by, _, _, _) in zip(fronts, backs):
        if about_vertical_axis:
            assert (bx, by) == pytest.approx((width - fx - w, fy), abs=0.01)
        else:
            assert (bx, by) == pytest.approx((fx, height - fy - h), abs=0.01)


def test_a_new_game_names_no_path_of_the_machine_it_was_made_on(tmp_path, cli):
    game = tmp_path / "made-in-q7" / "my-game"
    assert cli("new", game).code == 0
    for path in game.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert str(tmp_path) not in text and "made-in-q7" not in text, path
    assert "`pnpgen build .` in this folder" in (game / "game.yaml").read_text(encoding="utf-8")
    moved = tmp_path / "moved"
    game.rename(moved)
    assert cli("validate", moved).code == 0


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_on_portrait_paper(tmp_path, cli, duplex):
    """Nine poker cards fill an A4 page in portrait: the long edge is vertical, so a long-edge flip mirrors x."""
    game = tmp_path / "nine"
    assert cli("new", game).code == 0
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("count: 2", "count: 3"), encoding="utf-8")
    edit_count = game / "components.yaml"
    edit_count.write_text(edit_count.read_text(encoding="utf-8").replace("count: 6", "count: 9"), encoding="utf-8")
    out = tmp_path / "out"
    assert cli("build", game, "--out", out, "-q", "--paper", "a4", "--duplex", duplex, "--lang", "en").code == 0
    pdf = pikepdf.open(out / "nine" / "cards-en-a4.pdf")
    width, height = page_size_mm(pdf.pages[0])
    assert (width, height) == pytest.approx((210, 297), abs=0.01)
    fronts, backs = placements(pdf.pages[0]), placements(pdf.pages[1])
    assert len(fronts) == len(backs) == 9
    for (_, fx, fy, w, h, _), (_, bx, by, _, _, _) in zip(fronts, backs):
        expected = (width - fx - w, fy) if duplex == "long" else (fx, height - fy - h)
        assert (bx, by) == pytest.approx(expected, abs=0.01)


def test_no_duplex_prints_fronts_only(small_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("build", small_game, "--out", out, "-q", "--paper", "a4", "--duplex", "none").code == 0
    assert len(pikepdf.open(out / "small" / "cards-en-a4.pdf").pages) == 1


def test_gutterfold_puts_turned_backs_below_the_fold(small_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("build", small_game, "--out", out, "-q", "--paper", "a4", "--layout", "gutterfold").code == 0
    pdf = pikepdf.open(out / "small" / "cards-en-a4-gutterfold.pdf")
    height = page_size_mm(pdf.pages[0])[1]
    drawn = placements(pdf.pages[0])
    fronts = [p for p in drawn if not p[5]]
    backs = [p for p in drawn if p[5]]
    assert fronts and len(fronts) == len(backs)
    for (_, fx, fy, _, h, _), (_, bx, by, _, _, _) in zip(fronts, backs):
        assert fy >= height / 2 and by + h <= height / 2
        assert bx == pytest.approx(fx, abs=0.01)
        assert fy - height / 2 == pytest.approx(height / 2 - by - h, abs=0.01)


def test_every_font_is_embedded(built):
    for name in ("cards-ja-a4.pdf", "cards-en-letter.pdf"):
        pdf = pikepdf.open(built / name)
        fonts = fonts_of(pdf)
        assert fonts, "the card text must use a font"
        assert all(is_embedded(font) for font in fonts)


def test_card_text_is_in_the_page_text(built):
    assert "Draw 1 card." in page_text(built / "cards-en-a4.pdf", 0)
    assert "手札を" in page_text(built / "cards-ja-a4.pdf", 0)


def test_crop_marks_lie_outside_every_bleed_box(built):
    pdf = pikepdf.open(built / "cards-en-a4.pdf")
    page = pdf.pages[0]
    boxes = [(x, y, x + w, y + h) for _, x, y, w, h, _ in placements(page)]
    segments = []
    for operands, operator in pikepdf.parse_content_stream(page):
        if str(operator) in ("m", "l"):
            segments.append(tuple(float(v) * 25.4 / 72 for v in operands))
    assert len(segments) >= 8
    for x, y in segments:
        for x0, y0, x1, y1 in boxes:
            assert not (x0 + 0.01 < x < x1 - 0.01 and y0 + 0.01 < y < y1 - 0.01)


def test_rebuild_uses_the_cache_and_gives_the_same_pdf(small_game, tmp_path, cli):
    out = tmp_path / "out"
    cold = cli("build", small_game, "--out", out, "--paper", "a4")
    assert cold.code == 0 and "(0 faces from the cache," in cold.err  # sheet labels too: rendered, not found
    first = (out / "small" / "cards-ja-a4.pdf").read_bytes()
    again = cli("build", small_game, "--out", out, "--paper", "a4")
    assert "0 rendered" in again.err and "faces from the cache" in again.err
    assert (out / "small" / "cards-ja-a4.pdf").read_bytes() == first


def test_outputs_are_readable_like_any_new_file(built):
    import os
    import stat

    mask = os.umask(0)
    os.umask(mask)
    mode = stat.S_IMODE((built / "cards-en-a4.pdf").stat().st_mode)
    assert mode == 0o666 & ~mask


def test_an_up_to_date_sheet_is_not_written_again_and_a_changed_one_is(small_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("build", small_game, "--out", out, "--paper", "a4").code == 0
    sheet = out / "small" / "cards-en-a4.pdf"
    stamp, content = sheet.stat().st_mtime_ns, sheet.read_bytes()
    again = cli("build", small_game, "--out", out, "--paper", "a4")
    assert "2 card sheet file(s) up to date" in again.err and sheet.stat().st_mtime_ns == stamp
    deck = small_game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("Draw 1 card.", "Draw 2 cards."), encoding="utf-8")
    changed = cli("build", small_game, "--out", out, "--paper", "a4")
    assert "1 rendered" in changed.err and "wrote cards-en-a4.pdf" in changed.err
    assert "wrote cards-ja-a4.pdf" not in changed.err  # the Japanese faces did not change
    assert sheet.read_bytes() != content
    sheet.unlink()
    assert cli("build", small_game, "--out", out, "--paper", "a4").code == 0 and sheet.is_file()


def test_a_damaged_cache_entry_is_rendered_again_not_trusted(small_game, tmp_path, cli):
    out = tmp_path / "out"
    assert cli("build", small_game, "--out", out, "--paper", "a4").code == 0
    first = (out / "small" / "cards-ja-a4.pdf").read_bytes()
    batches = list((out / ".cache" / "faces").rglob("*.pdf"))
    assert batches
    for batch in batches:
        batch.write_bytes(batch.read_bytes()[:200])  # cut short, as by a full disk
    (out / "small" / "cards-ja-a4.pdf").unlink()
    (out / "small" / "cards-en-a4.pdf").unlink()
    again = cli("build", small_game, "--out", out, "--paper", "a4")
    assert again.code == 0 and "0 faces from the cache" in again.err
    assert (out / "small" / "cards-ja-a4.pdf").read_bytes() == first


def test_build_reports_what_validate_rejects_before_rendering_and_strict_fails(small_game, tmp_path, cli):
    components = small_game / "components.yaml"
    components.write_text(components.read_text(encoding="utf-8").replace("count: 6", "count: 7"), encoding="utf-8")
    cards = small_game / "decks" / "cards.yaml"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace("{ja: 洋なし, en: Pear}", "{ja: 洋なし}"), encoding="utf-8"
    )
    args = ("build", small_game, "--out", tmp_path / "out", "--quiet", "--jobs", "1", "--paper", "a4")
    result = cli(*args)
    assert result.code == 0, result
    lines = result.err.splitlines()
    assert any(
        line.startswith("warning: ") and "components.yaml:3" in line and "holds 7 cards" in line for line in lines
    ), lines
    assert any(
        line.startswith("warning: ") and "decks/cards.yaml:15" in line and "cards[pear].name has no en" in line
        for line in lines
    ), lines
    assert lines[-1].startswith("warning: 2 data problem(s)")
    strict = cli(*args, "--strict")
    assert strict.code == 1
    assert strict.err.splitlines()[-1].startswith("error: --strict: 2 data problem(s)")


def test_placeholders_in_card_text_are_resolved_as_in_the_rules(small_game, tmp_path, cli):
    cards = small_game / "decks" / "cards.yaml"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace(
            "en: Draw 1 card.}", 'en: "Draw {deck.cards @2} cards or take {card:pear}."}'
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = cli("build", small_game, "--out", out, "-q", "--jobs", "1", "--paper", "a4", "--lang", "en")
    assert result.code == 0, result
    text = page_text(out / "small" / "cards-en-a4.pdf", 0)
    assert "Draw 4 cards or take Pear." in " ".join(text.split())  # 6 cards, grapes removed with 2 players
    assert "{" not in text


def test_an_unknown_placeholder_in_card_text_fails_naming_the_deck_file(small_game, tmp_path, cli):
    cards = small_game / "decks" / "cards.yaml"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace("en: Draw 1 card.}", 'en: "Draw {deck.crads} cards."}'),
        encoding="utf-8",
    )
    result = cli("build", small_game, "--out", tmp_path / "out", "-q", "--jobs", "1", "--paper", "a4")
    assert result.code == 2, result
    assert "decks/cards.yaml:13:" in result.err and "placeholder {deck.crads}" in result.err
    assert "Traceback" not in result.err
    validated = cli("validate", small_game)
    assert validated.code == 1 and "cards[apple].text.en" in validated.out and "deck.crads" in validated.out


def test_nothing_is_drawn_in_the_printers_margin_unless_it_is_turned_off(small_game, tmp_path, cli):
    from inkcheck import ink_near_edge

    out = tmp_path / "out"
    assert cli("build", small_game, "--out", out, "-q", "--paper", "a4", "--lang", "en").code == 0
    assert ink_near_edge(out / "small" / "cards-en-a4.pdf") == []
    assert ink_near_edge(out / "small" / "cards-en-a4.pdf", edge_mm=5.5) != []  # the label sits just inside
    assert cli("build", small_game, "--out", out, "-q", "--paper", "a4", "--lang", "en", "--margin", "0").code == 0
    assert ink_near_edge(out / "small" / "cards-en-a4.pdf") != []


def test_a_margin_out_of_range_is_a_clear_error(small_game, tmp_path, cli):
    result = cli("build", small_game, "--out", tmp_path / "out", "--margin", "-2")
    assert result.code == 2 and "--margin" in result.err and "Traceback" not in result.err


def test_per_deck_sheets_and_build_json_lists_the_decks_of_each_sheet(small_game, tmp_path, cli):
    out = tmp_path / "out"
    assert (
        cli("build", small_game, "--out", out, "-q", "--paper", "a4", "--lang", "en", "--sheets", "per-deck").code == 0
    )
    entry = json.loads((out / "small" / "build.json").read_text())["files"][0]
    assert entry["decks"] == ["cards"] and entry["sheets"] == [["cards"]]


def test_changed_since_a_revision_or_a_build_json_reprints_only_the_changed_card(small_game, tmp_path, cli):
    import subprocess

    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-C", str(small_game)]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "first"], check=True)
    out = tmp_path / "out"
    assert cli("build", small_game, "--out", out, "-q", "--paper", "a4", "--lang", "en").code == 0
    earlier = tmp_path / "earlier.json"
    earlier.write_text((out / "small" / "build.json").read_text())
    result = cli("build", small_game, "--out", out, "--paper", "a4", "--lang", "en", "--changed-since", "HEAD")
    assert result.code == 0 and "no card face changed" in result.err
    assert not (out / "small" / "reprint-en-a4.pdf").exists()
    deck = small_game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("en: Pear}", "en: Green Pear}"), encoding="utf-8")
    for ref in ("HEAD", str(earlier)):
        assert (
            cli("build", small_game, "--out", out, "-q", "--paper", "a4", "--lang", "en", "--changed-since", ref).code
            == 0
        )
        entry = next(
            f for f in json.loads((out / "small" / "build.json").read_text())["files"] if f["kind"] == "reprint"
        )
        assert entry["cards"] == ["cards/pear"] and entry["since"] == ref
        pdf = pikepdf.open(out / "small" / entry["path"])
        fronts, backs = placements(pdf.pages[0]), placements(pdf.pages[1])
        assert len(fronts) == len(backs) == entry["faces"]["cards"] == 2  # the card's copies, with backs
        text = page_text(out / "small" / entry["path"], 0)
        assert "Green Pear" in text and "Apple" not in text and "Grapes" not in text


@pytest.mark.parametrize("ref", ["no-such-revision", "cards.yaml"])
def test_changed_since_something_that_is_no_reference_is_a_clear_error(small_game, tmp_path, cli, ref):
    result = cli(
        "build",
        small_game,
        "--out",
        tmp_path / "out",
        "--changed-since",
        str(small_game / "decks" / ref) if ref.endswith("yaml") else ref,
    )
    assert result.code == 2 and "--changed-since" in result.err and "Traceback" not in result.err
    assert not (tmp_path / "out" / "small").exists()  # nothing written
