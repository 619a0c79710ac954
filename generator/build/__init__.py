"""The build engine: a game's card sheets, boards, aids, token sheets and rule sheets as PDFs.

`build(games, BuildOptions(...))` is the one entry point (commands, watch and tests call it); each kind of
output is a Builder (builder.py) in a module of its own; `render_game` gives the rendered faces that exports
and previews start from, `render_pieces` those of the token sheets, boards and aids as a print shop gets them.
Nothing here reads the command line.
"""

from generator.build.decks import RenderedDeck, render_game
from generator.build.engine import build
from generator.build.options import BuildOptions, select_languages
from generator.build.pieces import piece_faces, render_pieces

__all__ = ["BuildOptions", "RenderedDeck", "build", "piece_faces", "render_game", "render_pieces", "select_languages"]
