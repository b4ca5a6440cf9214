"""Tüfteln (Walter / Staupe): write two shared dice per round into 2×2 squares; sides A and B."""

from .engine import Place, Throw, Tuefteln

GAMES = (Tuefteln,)

__all__ = ["GAMES", "Place", "Throw", "Tuefteln"]
