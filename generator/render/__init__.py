"""Rendering: card faces (WeasyPrint), sheets (pikepdf imposition and marks)."""
