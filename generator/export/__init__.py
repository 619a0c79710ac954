"""Exports for print services and virtual tabletops, one module per target.

Every target starts from the same distinct faces the card sheets use (rendered once, cached), as
card-size PDF pages with bleed: png, tgc and mpc rasterize them, tts lays them out as deck sheets,
pdfx converts them to CMYK and frames each one with Japanese crop marks.
"""
