"""Games by id."""

from __future__ import annotations

import importlib

from .bots import RANDOM_BOT
from .errors import UnknownGameError

_REGISTRY: dict[str, type] | None = None


def _load() -> dict[str, type]:
    global _REGISTRY
    if _REGISTRY is None:
        from ..games import GAME_MODULES

        reg = {}
        for module_name in GAME_MODULES:
            for cls in importlib.import_module(module_name).GAMES:
                if cls.id in reg:
                    raise RuntimeError(f"two games registered as {cls.id!r}")
                reg[cls.id] = cls
        _REGISTRY = reg
    return _REGISTRY


def register(cls: type) -> type:
    """Add a game class (used by tests and by experiments outside ``games/``)."""
    reg = _load()
    if cls.id in reg and reg[cls.id] is not cls:
        raise RuntimeError(f"a different game is already registered as {cls.id!r}")
    reg[cls.id] = cls
    return cls


def unregister(game_id: str) -> None:
    _load().pop(game_id, None)


def game_ids() -> list[str]:
    return list(_load())


def get_game_class(game_id: str) -> type:
    reg = _load()
    if not isinstance(game_id, str) or game_id not in reg:
        known = ", ".join(reg)
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {known}")
    return reg[game_id]


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
        raise UnknownGameError(f"{game.id} has no bot {name!r}; bots: {known}")
    return factory(game)
