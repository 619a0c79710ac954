"""Every text of every printed piece is checked: planted over-long texts are found, named by their piece,
with no attribute in the templates; the kits as shipped report nothing."""

import io
import json

import pytest

from conftest import copy_game, seeded_out
from generator.build.engine import build
from generator.build.options import BuildOptions
from generator.model import load_game
from generator.progress import Progress
from generator.yamlio.round_trip import load_yaml_round_trip, round_trip_yaml

LONG = {
    "en": "Extraordinarily Overlong Name Written By A Very Enthusiastic Translator Indeed " * 4,
    "ja": "とてつもなく長い名前が翻訳者によってここに書かれてしまいましたとさ" * 4,
}


def rewrite(path, change):
    data = load_yaml_round_trip(path)
    planted = change(data)
    with path.open("w", encoding="utf-8") as stream:
        round_trip_yaml().dump(data, stream)
    return planted


def plant_deck(data):
    """An over-long English name on the first card, a Japanese one on the last."""
    first, last = data["cards"][0], data["cards"][-1]
    first["name"]["en"] = LONG["en"]
    last["name"]["ja"] = LONG["ja"]
    return [(first["id"], "en"), (last["id"], "ja")]


def plant_tokens(data):
    first, last = data["tokens"][0], data["tokens"][-1]
    first["label"] = {**first.get("label", {}), "en": LONG["en"]}
    last["label"] = {**last.get("label", {}), "ja": LONG["ja"]}
    return [(first["id"], "en"), (last["id"], "ja")]


def plant_title(data):
    """An aid is laid out in flow and shrinks its text down to 70% before it overflows: text too long for it
    has to fill the whole aid at that size and more."""
    data["title"]["en"] = LONG["en"] * 30
    data["sections"][-1]["heading"]["ja"] = LONG["ja"] * 30
    return "title"


def written_labels(data):
    """The board's labels written in every language (a text's, an area's), texts first."""
    labelled = [e for e in data["elements"] if isinstance(e.get("label"), dict)]
    return sorted(labelled, key=lambda e: e.get("kind") != "text")


def plant_board(data):
    labels = written_labels(data)
    labels[0]["label"]["en"] = LONG["en"]
    labels[-1]["label"]["ja"] = LONG["ja"]
    return "label"


PLANTED_IN = ("cards", "tokens", "aids", "boards")  # the kinds of output planted_game plants in (build's kinds)


def planted_game(name, tmp_path):
    """A copy of the kit with an over-long text in each language on every deck, token sheet, aid and board;
    what is expected: (build.json deck, piece id, language)."""
    game = copy_game(name, tmp_path)
    expected = []
    for path in sorted((game / "decks").glob("*.yaml")):
        expected += [(path.stem, card, lang) for card, lang in rewrite(path, plant_deck)]
    for path in sorted((game / "tokens").glob("*.yaml")) if (game / "tokens").is_dir() else []:
        expected += [(f"tokens-{path.stem}", token, lang) for token, lang in rewrite(path, plant_tokens)]
    for path in sorted((game / "aids").glob("*.yaml")) if (game / "aids").is_dir() else []:
        rewrite(path, plant_title)
        expected += [(f"aid-{path.stem}", path.stem, "en"), (f"aid-{path.stem}", path.stem, "ja")]
    for path in sorted((game / "boards").glob("*.yaml")) if (game / "boards").is_dir() else []:
        if written_labels(load_yaml_round_trip(path)):
            rewrite(path, plant_board)
            expected += [(f"board-{path.stem}", path.stem, "en"), (f"board-{path.stem}", path.stem, "ja")]
    return game, expected


@pytest.mark.slow
@pytest.mark.parametrize("name", ["greed-inc", "ikkin", "mint-rails"])
def test_an_overlong_text_planted_in_every_piece_is_found_with_its_id(tmp_path, name, kits):
    """The copy renders only what the planted texts changed; its other faces come from the kits' build with the
    text boxes measured there, and are checked all the same. Only the pieces planted in are built: the rule
    sheets, which name the renamed cards, would be laid out again for nothing planted in them."""
    game, expected = planted_game(name, tmp_path)
    said = io.StringIO()
    options = BuildOptions(out=seeded_out(kits, tmp_path / "out"), papers=("a4",), strict=True, outputs=PLANTED_IN)
    assert build(load_game(game), options, Progress(quiet=True, stream=said, terminal=False)) == 1, said.getvalue()
    err = said.getvalue()
    found = json.loads((tmp_path / "out" / name / "build.json").read_text())["overflows"]
    missing = [
        want
        for want in expected
        if not any(o["deck"] == want[0] and want[1] in o["cards"] and o["lang"] == want[2] for o in found)
    ]
    assert not missing, (missing, [(o["deck"], o["cards"][:2], o["lang"], o["kind"]) for o in found])
    assert "--strict:" in err
    if name == "greed-inc":  # the cases, as --strict names them
        assert "en: card 'small-land-owner' of deck 'assets', name, assets.html:" in err
        assert "ja: token 'start-player' of sheet 'start-player', label" in err
    if name == "mint-rails":
        assert "en: card 'draft-black' of deck 'draft-certificates', name" in err


def test_text_past_a_round_cut_and_onto_other_text_is_found():
    import weasyprint
    from generator.render.weasy.fit import render_measured

    html = (
        '<html data-cut="round" data-safe="1"><style>@page { size: 30mm 30mm; margin: 0 }'
        "body { margin: 0; font-size: 8pt } div { position: absolute; white-space: nowrap }</style>"
        '<div data-src="t.html:1" style="left: 1mm; top: 2mm">Corner</div>'
        '<div data-src="t.html:2" style="left: 9mm; top: 13mm">Middle</div>'
        '<div data-src="t.html:3" style="left: 10mm; top: 13.5mm">Overlap</div>'
        '<div data-overflow="allow" style="left: 0; top: 26mm">Bleeds</div></html>'
    )
    _, found = render_measured(weasyprint.HTML(string=html))
    by_source = {fit.source: fit for fit in found}
    assert by_source["t.html:1"].kind == "cut" and by_source["t.html:1"].overflow_mm > 2
    assert by_source["t.html:2"].kind == "overlap" and by_source["t.html:3"].kind == "overlap"
    assert "Bleeds" not in {fit.text for fit in found}
    assert all(fit.overflow_mm > 0 for fit in found) and len(found) == 3


def test_a_long_word_past_its_box_and_the_safe_area_of_a_card():
    import weasyprint
    from generator.render.weasy.fit import render_measured

    html = (
        '<html data-safe="3" data-corner="3"><style>@page { size: 63mm 88mm; margin: 0 }'
        "body { margin: 0; font-size: 8pt } .n { position: absolute; left: 3mm; top: 3mm; width: 20mm }"
        '</style><div class="n" data-src="t.html:1">Supercalifragilisticexpialidocious</div>'
        '<div class="n" style="top: 40mm" data-src="t.html:2">fits here</div></html>'
    )
    _, [fit] = render_measured(weasyprint.HTML(string=html))
    assert (fit.source, fit.kind) == ("t.html:1", "box")
    assert fit.overflow_mm == pytest.approx(fit.area[2] - 20, abs=0.1)


def test_text_hidden_under_a_box_painted_after_it_is_found():
    """A label wrapping onto a second line that a panel drawn after it hides (the Greed Inc status cards'
    "Victory points"): neither past its box nor on other text, but out of sight. Text on top of a panel, inside
    it, or under a box that CSS paints first (flow content, a lower z-index, a faint background) is not."""
    import weasyprint
    from generator.render.weasy.fit import render_measured

    html = (
        '<html data-safe="1"><style>@page { size: 63mm 88mm; margin: 0 }'
        "body { margin: 0; font-size: 7pt } div { position: absolute }"
        ".label { left: 40mm; top: 10mm; width: 14mm; line-height: 1; text-align: center }"
        ".panel { left: 2mm; top: 12.5mm; width: 57mm; height: 60mm; background: #fffdf7 }"
        ".faint { left: 2mm; top: 75mm; width: 57mm; height: 6mm; background: rgba(0, 0, 0, 0.2) }"
        "</style>"
        '<div class="label" data-src="t.html:1">Victory points</div>'
        '<div class="label" style="top: 40mm; z-index: 1" data-src="t.html:2">Raised above it</div>'
        '<div class="panel" data-src="t.html:3"><div style="left: 2mm; top: 5mm" data-src="t.html:4">Inside</div></div>'
        '<div class="label" style="top: 20mm" data-src="t.html:5">Painted after it</div>'
        '<div class="label" style="top: 76mm" data-src="t.html:6">Under a faint box</div>'
        '<div class="faint"></div></html>'
    )
    _, found = render_measured(weasyprint.HTML(string=html))
    assert [(fit.source, fit.kind) for fit in found] == [("t.html:1", "covered")]
    assert found[0].other == "div.panel, t.html:3" and found[0].overflow_mm > 0.3


def test_the_check_can_be_measured_off(monkeypatch):
    import weasyprint
    from generator.render.weasy.fit import render_measured

    html = '<html data-safe="3"><style>@page { size: 20mm 20mm; margin: 0 }</style><p>x</p></html>'
    assert render_measured(weasyprint.HTML(string=html))[1]  # body margin puts the text past the safe area
    monkeypatch.setenv("PNPGEN_TEXT_CHECK", "0")
    assert render_measured(weasyprint.HTML(string=html))[1] == []


def test_a_face_running_onto_a_second_page_keeps_one_page_per_face():
    """WeasyPrint gives a face whose text runs past its page another page: it is taken out (the faces after
    it keep their pages) and its text reported past the trim on the face it belongs to."""
    import weasyprint
    from generator.render.weasy.fit import render_measured

    faces = [
        '<div class="face"><p>short</p></div>',
        '<div class="face"><p>' + "many words " * 400 + "</p></div>",
        '<div class="face"><p>third</p></div>',
    ]
    html = (
        '<html data-cut="rect" data-safe="1"><style>@page { size: 40mm 40mm; margin: 0 } body { margin: 0 }'
        ".face { break-after: page; font-size: 8pt; padding: 2mm }</style>" + "".join(faces) + "</html>"
    )
    document, found = render_measured(weasyprint.HTML(string=html))
    assert len(document.pages) == 3
    spilled = [fit for fit in found if fit.kind == "trim"]
    assert spilled and {fit.page for fit in spilled} == {1}
    assert not [fit for fit in found if fit.page != 1]
