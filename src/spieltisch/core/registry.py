"""Games by id.

The core imports no game: each game package registers its games from its ``__init__`` (see
``spieltisch.games``), which ``import spieltisch`` runs. Tests and experiments register their own.
"""

from __future__ import annotations

from .bots import RANDOM_BOT
from .errors import UnknownGameError, short

_REGISTRY: dict[str, type] = {}


def register(cls: type, *, bots: dict | None = None, advisor=None, analyzer=None, view: str | None = None) -> type:
    """Add a game class and attach what its package assembled around the engine: ``bots`` (name ->
    factory(game)), ``advisor(game, observation, **settings)``, ``analyzer(game, progress)`` and
    ``view`` ("module:attribute" of the front-end's drawing of an observation)."""
    if _REGISTRY.get(cls.id, cls) is not cls:
        raise RuntimeError(f"a different game is already registered as {cls.id!r}")
    if bots is not None:
        cls.bots = dict(bots)
    if advisor is not None:
        cls.advisor = staticmethod(advisor)
    if analyzer is not None:
        cls.analyzer = staticmethod(analyzer)
    if view is not None:
        cls.view = view
    _REGISTRY[cls.id] = cls
    return cls


def unregister(game_id: str) -> None:
    _REGISTRY.pop(game_id, None)


def game_ids() -> list[str]:
    return list(_REGISTRY)


def get_game_class(game_id: str) -> type:
    if not isinstance(game_id, str) or game_id not in _REGISTRY:
        known = ", ".join(_REGISTRY)
        raise UnknownGameError(f"unknown game {short(game_id)}; known games: {known}")
    return _REGISTRY[game_id]


def make_game(game_id: str, num_players: int | None = None, options: dict | None = None):
    """A configured ``Game``; raises a clear error for an unknown id, player count or option."""
    return get_game_class(game_id)(num_players, options)


def bot_names(game_id: str) -> list[str]:
    cls = get_game_class(game_id)
    return ["random", *[n for n in cls.bots if n != "random"]]


def make_bot(game, name: str):
    if name == "random":
        return RANDOM_BOT
    factory = type(game).bots.get(name)
    if factory is None:
        known = ", ".join(bot_names(game.id))
        raise UnknownGameError(f"{game.id} has no bot {short(name)}; bots: {known}")
    return factory(game)
