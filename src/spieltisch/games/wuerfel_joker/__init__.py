"""Würfel Joker (KRONE): Spiel 1 (push your luck with three dice and jokers) and Spiel 2 (slides 1-9)."""

from .spiel1 import Spiel1Game
from .spiel2 import Spiel2Game

GAMES = (Spiel1Game, Spiel2Game)
