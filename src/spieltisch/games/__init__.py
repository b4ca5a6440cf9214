"""The registered games. To add a game: copy a folder under ``games/``, then add its module here.

Each module exposes ``GAMES``, a tuple of ``Game`` subclasses.
"""

GAME_MODULES = (
    "spieltisch.games.wuerfel_joker",
    "spieltisch.games.tuefteln",
)
