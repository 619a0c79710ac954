"""WeasyPrint as pnpgen uses it: the only package that reaches into WeasyPrint's internals.

- patches.py: WeasyPrint loaded with its speed patches (SPEED_PATCHES: prebuilt C declarations, lazy font
  copies, fonts subset in parallel...; same bytes), each checked before it is installed and left off with one
  warning when its check fails; PNPGEN_PLAIN_WEASYPRINT=1 turns them all off, or names some. `load()` returns
  the module; `SharedFonts(html)` lays a document out with the process' one font configuration.
- compactfonts.py: CJK fonts (CID-keyed CFF) embedded as bare CFF with the used glyphs only, not as
  WeasyPrint's OpenType files that keep every glyph id below the highest used (a change to the output).
- tree.py: the ways into the laid-out boxes of a rendered document.
- fit.py (with furigana.py, phrases.py, lastlines.py, lastpage.py, justify.py): the passes that read the
  layout tree between `render()` and `write_pdf()`: text that does not fit, shrink and grow, readable
  furigana kept inside the column, display text's long phrases opened at their words, last lines set as
  JLReq sets them, no near-empty last page, and justified Japanese lines filled by spacing their
  characters (paragraphs.py: the paragraphs of a layout, their lines and text, for those passes).
- internals.py: every private or internal name those touch, and a check of each
  (tests/test_weasy_internals.py runs one test per name, and fails on a name the layer uses unlisted).

Other modules use WeasyPrint's public API only (`HTML`, `render()`, `write_pdf()`, `URLFetcher`) and import
what they need from here. Upgrading WeasyPrint: change the pin in pyproject.toml, run
`pytest tests/test_weasy_internals.py tests/test_weasy_patches.py tests/test_fit.py tests/test_text_check.py`;
a failing internals test names the one name that changed: adapt the code listed as its `used_by`.
"""

from __future__ import annotations

from generator.render.weasy.patches import SharedFonts, font_configuration, load

__all__ = ["SharedFonts", "font_configuration", "load"]
