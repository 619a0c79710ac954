"""Translations: localized strings, source hashes, checks, PO/XLIFF/CSV exchange."""
