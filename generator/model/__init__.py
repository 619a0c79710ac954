"""The game model: YAML files checked against schemas and turned into typed objects."""

from generator.model.game import Card, Component, Deck, Game, Text  # noqa: F401
from generator.model.loader import load_game  # noqa: F401
