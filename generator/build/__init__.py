"""The build engine: a game's card sheets, boards, aids, token sheets and rule sheets as PDFs.

`build(games, BuildOptions(...))` is the one entry point (commands, watch and tests call it); each kind of
output is a Builder (builder.py) in a module of its own; `render_game` gives the rendered faces that exports
and previews start from. Nothing here reads the command line.
"""

from generator.build.decks import RenderedDeck, render_game
from generator.build.engine import build
from generator.build.options import BuildOptions, select_languages

__all__ = ["BuildOptions", "RenderedDeck", "build", "render_game", "select_languages"]
