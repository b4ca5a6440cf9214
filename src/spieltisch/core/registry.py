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


# --- lesson questions ----------------------------------------------------------------------------------
# A game package registers where its questions live ("module:attribute", a tuple of
# core.questions.Question); they are imported on first use, so a page that never polls never builds them.
_QUESTION_SOURCES: dict[str, str] = {}
_QUESTIONS: dict[str, tuple] = {}


def register_questions(family: str, source: str) -> None:
    if _QUESTION_SOURCES.get(family, source) != source:
        raise RuntimeError(f"lesson {family!r} already has its questions in {_QUESTION_SOURCES[family]}")
    _QUESTION_SOURCES[family] = source


def _load_questions(family: str) -> tuple:
    if family not in _QUESTIONS:
        import importlib

        module, _, attr = _QUESTION_SOURCES[family].partition(":")
        found = tuple(getattr(importlib.import_module(module), attr))
        ids = [q.id for q in found]
        if len(set(ids)) != len(ids) or any(q.family != family for q in found):
            raise RuntimeError(f"{_QUESTION_SOURCES[family]}: question ids repeat or name another lesson")
        _QUESTIONS[family] = found
    return _QUESTIONS[family]


def question_families() -> list[str]:
    return list(_QUESTION_SOURCES)


def questions(game: str | None = None, core: bool | None = None) -> list:
    """The registered lesson questions, in lesson order: all, or those of one lesson (``game`` a card
    id such as "wuerfel-joker") or one game ("wuerfel-joker-2"); ``core`` filters core/extension."""
    if game is not None and not isinstance(game, str):
        raise UnknownGameError(f"a game is named by its id, got {short(game)}")
    out = [q for family in _QUESTION_SOURCES for q in _load_questions(family)
           if game is None or game in (q.family, q.game)]
    if game is not None and not out:
        known = sorted(set(_QUESTION_SOURCES) | {q.game for f in _QUESTION_SOURCES for q in _load_questions(f)})
        raise UnknownGameError(f"no lesson questions for {short(game)}; games with questions: {', '.join(known)}")
    return [q for q in out if core is None or q.core == core]


def question(question_id: str):
    """One lesson question by its id ("tuefteln-q1")."""
    if isinstance(question_id, str):
        for family in _QUESTION_SOURCES:
            if question_id.startswith(family + "-"):
                for q in _load_questions(family):
                    if q.id == question_id:
                        return q
    from .questions import QuestionError

    raise QuestionError(f"no lesson question {short(question_id)}", f"keine Frage {short(question_id)}")
