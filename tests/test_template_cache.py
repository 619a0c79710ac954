"""Compiled templates kept in the user's cache: the next command reads a game's templates back compiled instead
of compiling them, renders the same HTML, and compiles a template again when it changed or its entry is damaged."""

from __future__ import annotations

import pickle

import pytest

from generator.render import templating
from generator.render.templating import CompiledTemplates, Templates


@pytest.fixture
def fresh_process(tmp_path, monkeypatch):
    """What a new command starts with: an empty compiled-templates store over the user's cache on disk, and
    no parse verdicts in memory."""
    cache = CompiledTemplates(tmp_path / "templates")
    monkeypatch.setattr(templating, "COMPILED", cache)
    monkeypatch.setattr(templating, "_PARSED", {})
    compiled: list[str] = []
    real = templating.TemplateSandbox.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return real(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(templating.TemplateSandbox, "compile", counting)

    def start():
        monkeypatch.setattr(templating, "COMPILED", CompiledTemplates(cache.directory))
        monkeypatch.setattr(templating, "_PARSED", {})
        compiled.clear()

    return start, compiled


def render(game_dir, text: str) -> str:
    templates = Templates(game_dir, "en")
    return templates.env.get_template("card.html").render(card={"name": text}, deck={}, game={})


@pytest.fixture
def game_dir(tmp_path):
    folder = tmp_path / "game" / "templates"
    folder.mkdir(parents=True)
    (folder / "card.html").write_text("<div>\n<h1>{{ card.name }}</h1>\n</div>\n", encoding="utf-8")
    return tmp_path / "game"


def test_the_next_process_reads_a_game_template_back_compiled(game_dir, fresh_process):
    start, compiled = fresh_process
    first = render(game_dir, "Apple")
    assert compiled == ["card.html"]
    start()
    assert (
        render(game_dir, "Apple")
        == first
        == '<div data-src="card.html:1">\n<h1 data-src="card.html:2">Apple</h1>\n</div>'
    )
    assert compiled == []  # neither compiled nor parsed again


def test_a_changed_template_or_a_damaged_entry_is_compiled_again(game_dir, fresh_process):
    start, compiled = fresh_process
    render(game_dir, "Apple")
    template = game_dir / "templates" / "card.html"
    template.write_text("<p>{{ card.name }}!</p>\n", encoding="utf-8")
    start()
    assert render(game_dir, "Pear") == '<p data-src="card.html:1">Pear!</p>'
    assert compiled == ["card.html"]
    for entry in templating.COMPILED.directory.glob("*.jinja"):
        entry.write_bytes(b"damaged")
    start()
    assert render(game_dir, "Plum") == '<p data-src="card.html:1">Plum!</p>'
    assert compiled == ["card.html"]


def test_a_template_that_does_not_parse_is_left_as_written_in_the_next_process_too(game_dir, fresh_process):
    start, _ = fresh_process
    written = "<div>\n{% if %}\n</div>\n"
    (game_dir / "templates" / "card.html").write_text(written, encoding="utf-8")
    for _ in range(2):  # the verdict computed, then read back from the cache
        env = Templates(game_dir, "en").env
        assert env.loader.get_source(env, "card.html")[0] == written  # no data-src marks in its error's lines
        start()
    assert list(templating.COMPILED.directory.glob("*.parses"))


class Planted:
    """A pickle that makes a file when loaded, as a hostile cache entry would run any code."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def test_a_compiled_template_this_user_did_not_store_is_never_run(game_dir, fresh_process, tmp_path):
    """An entry is code (Jinja's header holds a pickle, the template a marshalled code object): one planted in
    the cache, as a compiled template or after a sealed entry's header, runs nothing and is compiled again."""
    import marshal

    from jinja2.bccache import bc_magic

    from generator import fsutil

    start, compiled = fresh_process
    render(game_dir, "Apple")
    (entry,) = [p for p in templating.COMPILED.directory.glob("*.jinja") if fsutil.read_sealed_entry(p)]
    checksum = pickle.loads(bytes(fsutil.read_sealed_entry(entry))[len(bc_magic) :])  # ours: safe to load
    marker = tmp_path / "ran"
    code = compile(f"open({str(marker)!r}, 'w').close()", "card.html", "exec")
    plants = [
        bc_magic + pickle.dumps(Planted(marker)),  # runs when Jinja reads the header
        bc_magic + pickle.dumps(checksum, 2) + marshal.dumps(code),  # runs when the template renders
    ]
    for planted in [*plants, *(fsutil.SEALED + b"\0" * fsutil.MAC_BYTES + p for p in plants)]:
        entry.write_bytes(planted)
        start()
        assert render(game_dir, "Pear") == '<div data-src="card.html:1">\n<h1 data-src="card.html:2">Pear</h1>\n</div>'
        assert not marker.exists()
        assert compiled == ["card.html"]  # compiled again, and stored sealed
        assert fsutil.read_sealed_entry(entry) is not None
