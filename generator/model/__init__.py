"""The game model: YAML files checked against schemas and turned into typed objects."""

from generator.model.game import Card, Component, Deck, Game, Text
from generator.model.loader import load_game

__all__ = ["Card", "Component", "Deck", "Game", "Text", "load_game"]
