"""Tüfteln (Walter / Staupe): write two shared dice per round into 2×2 squares; sides A and B."""

from .engine import Place, Throw, Tuefteln

GAMES = (Tuefteln,)

__all__ = ["GAMES", "Place", "Throw", "Tuefteln"]

from .bots import BOTS as _BOTS  # noqa: E402  (bots import the engine, so they attach afterwards)

Tuefteln.bots = dict(_BOTS)
