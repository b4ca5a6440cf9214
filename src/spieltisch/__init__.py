"""spieltisch: German tabletop games with exact chance, replayable records and bots.

The engine (``spieltisch.core`` and ``spieltisch.games``) uses only the standard library, so the
same wheel runs in CPython and in Pyodide.
"""

__version__ = "0.1.0"

from .core.registry import game_ids, get_game_class, make_game  # noqa: E402
from .core.match import Match  # noqa: E402
from . import games  # noqa: E402,F401  (registers every game)

__all__ = ["__version__", "game_ids", "get_game_class", "make_game", "Match"]
