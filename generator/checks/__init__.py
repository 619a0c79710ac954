"""Consistency checks of a loaded game: box contents, player counts, references, translations."""
