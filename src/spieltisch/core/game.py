"""The game protocol.

A ``Game`` holds the static facts of one configured game (ruleset, players, options); a ``State`` is
one mutable position. Chance is explicit: at a chance node ``chance_outcomes()`` lists every outcome
with its exact ``Fraction`` probability, so one model feeds both the sampler and the exact solvers.

Actions are small, hashable, immutable values with a readable ``str`` and a ``to_json()`` that
returns a JSON value. Records store ``to_json()``; replay matches it against the legal actions, so a
game never has to parse actions back.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from .dist import sample_exact
from .errors import IllegalActionError, OptionError, SpieltischError, short
from .options import OptionSpec, validate_options

CHANCE = -1
TERMINAL = -2
# The viewer of the projector: ``observation(SPECTATOR)`` holds only what every player may see.
SPECTATOR = None


class Game:
    """Static facts. Subclasses set the class attributes and ``state_class``."""

    id: ClassVar[str]
    version: ClassVar[int] = 1
    name: ClassVar[dict] = {}  # {"de": ..., "en": ...}
    summary: ClassVar[dict] = {}
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    default_players: ClassVar[int] = 2
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    state_class: ClassVar[type]
    # Attached by ``registry.register`` from the game package's ``__init__`` (the engine module
    # never imports its bots, advisor or analysis):
    # bots by name -> factory(game) -> Bot ("random" is added by the registry for every game);
    bots: ClassVar[dict] = {}
    # advisor(game, observation, **settings) -> advice.Advice, from the observation alone;
    advisor: ClassVar[Any] = None
    # analyzer(game, progress) -> JSON-ready dict of exact facts;
    analyzer: ClassVar[Any] = None
    # the game's view: "module:attribute" of what draws an observation (imported only by front-ends).
    view: ClassVar[str | None] = None
    # (players, options) settings the generic conformance test plays; empty = min, default and max players.
    test_configs: ClassVar[tuple] = ()
    # seeded random playthroughs per setting in the conformance test; None = the test's default
    test_games: ClassVar[int | None] = None

    def __init__(self, num_players: int | None = None, options: dict | None = None):
        if num_players is None:
            num_players = self.default_players
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise OptionError(f"number of players must be a whole number, got {short(num_players)}")
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.id} is for {self.min_players}-{self.max_players} players, got {num_players}"
            )
        self.num_players = num_players
        self.options = validate_options(self.option_specs, options, self.id)

    @property
    def ruleset(self) -> str:
        return f"{self.id}/v{self.version}"

    def new_initial_state(self) -> "State":
        return self.state_class(self)

    def analyze(self, progress=None) -> dict:
        """Exact facts about this configuration (``spieltisch analyze``)."""
        if self.analyzer is None:
            raise SpieltischError(f"{self.id} has no exact analysis")
        return self.analyzer(self, progress)

    def advise(self, observation: dict, **settings):
        """Every option of the decision ``observation`` shows, valued (``advice.Advice``).

        The advisor gets the observation only, never the state: it cannot read hidden parts."""
        if self.advisor is None:
            raise SpieltischError(f"{self.id} has no advisor")
        return self.advisor(self, observation, **settings)

    def render_observation(self, observation: dict, lang: str = "en") -> str:
        """``observation`` as text for a terminal. Reads the observation and the game's static facts
        only, so a rendering can never show what its viewer may not see."""
        return repr(observation)

    def __repr__(self):
        return f"{type(self).__name__}(players={self.num_players}, options={self.options})"


class State:
    """One position. Subclasses implement the underscored hooks."""

    def __init__(self, game: Game):
        self.game = game
        self.num_players = game.num_players
        self.options = game.options

    # --- to implement -------------------------------------------------------------------------
    def current_player(self) -> int:
        """Index of the player to act, ``CHANCE`` or ``TERMINAL``."""
        raise NotImplementedError

    def _legal_actions(self) -> Sequence:
        """Legal actions of the player to act (not called at chance or terminal nodes), as a list or
        tuple that nobody changes: a game may hand out one cached tuple every time."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """At a chance node: every outcome with its exact probability (they sum to 1)."""
        raise NotImplementedError

    def _apply(self, action) -> None:
        """Apply an action already known to be legal."""
        raise NotImplementedError

    def scores(self) -> list:
        """Running totals of every player (final totals at a terminal state)."""
        raise NotImplementedError

    def observation(self, player: int | None) -> dict:
        """What ``player`` may see, as JSON-serializable data, never the hidden parts;
        ``observation(SPECTATOR)`` is the public information only (the projector's view)."""
        raise NotImplementedError

    def chance_player(self) -> int | None:
        """At a chance node: the player whose throw or draw it is (front-ends show it as that
        player's move), or None where the event belongs to nobody (a shared shuffle)."""
        return None

    def resample_hidden(self, viewer: int | None, rng) -> "State":
        """A copy in which everything ``viewer`` may not see is drawn afresh from what is still
        possible (other players' hands, face-down cards, unscratched cells); what ``viewer`` sees
        stays. Games with hidden parts override it; the conformance test uses it to prove that an
        observation does not depend on what its viewer may not see."""
        return self.clone()

    def outcome_visible(self, action, viewer: int | None) -> bool | None:
        """Whether ``viewer`` can tell ``action`` (taken here) from the other possibilities, where the
        game knows it without comparing observations (a chance node with thousands of outcomes);
        None (the default): the front-end compares the observations every possibility leaves."""
        return None

    def why_illegal(self, action) -> IllegalActionError:
        """An error that names the rule ``action`` breaks here. Games refine this."""
        legal = self.legal_actions()[:12]
        en = ", ".join(action_label(a, "en") for a in legal)
        de = ", ".join(action_label(a, "de") for a in legal)
        return IllegalActionError("legal moves", f"{_text(action)} is not allowed now; allowed: {en}",
                                  f"{_text(action)} ist jetzt nicht erlaubt; erlaubt: {de}", "erlaubte Züge")

    # --- provided ------------------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def legal_actions(self) -> list:
        p = self.current_player()
        if p == TERMINAL:
            return []
        if p == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return list(self._legal_actions())  # a new list: the caller may change it

    def is_legal(self, action) -> bool:
        """True if ``action`` is one of the legal actions, type-exactly: a look-alike that merely
        compares equal (a float or a bool where the rules have an int, ``Dice((1.0, 2.0, 3.0))`` for
        ``Dice((1, 2, 3))``) is not legal, because it would be recorded differently and could poison
        caches keyed on it. The very objects the game handed out are found by identity; anything
        else is looked up by class and record form in an index of the legal actions (kept for a
        game's cached tuples). Games may override with a faster check of the same answer."""
        p = self.current_player()
        if p == TERMINAL:
            return False
        legal = [a for a, _ in self.chance_outcomes()] if p == CHANCE else self._legal_actions()
        for a in legal:
            if a is action:
                return True
        key = exact_key(action)
        return key is not None and (type(action), key) in _legal_index(legal)

    def apply_action(self, action) -> None:
        """Apply ``action`` or raise ``IllegalActionError``; the state is unchanged on error."""
        if self.current_player() == TERMINAL:
            raise IllegalActionError("end of game", f"the game is over; {_text(action)} cannot be played",
                                     f"das Spiel ist vorbei; {_text(action)} geht nicht mehr", "Spielende")
        if not self.is_legal(action):
            raise self.refusal(action)
        self._apply(action)

    def refusal(self, action) -> IllegalActionError:
        """``why_illegal(action)``, or the generic refusal where a hostile value trips the game's
        explanation (it must never end in a TypeError instead of the rule)."""
        try:
            look_alike = any(a == action for a in self.legal_actions())
        except Exception:  # noqa: BLE001
            look_alike = False
        if look_alike:
            return IllegalActionError(
                "exact values", f"{_text(action)} equals a legal move but holds values of another type "
                "(a float or a bool where the rules count whole numbers); use the legal action itself",
                f"{_text(action)} gleicht einem erlaubten Zug, enthält aber Werte eines anderen Typs "
                "(Kommazahl oder Wahrheitswert statt ganzer Zahl); bitte den erlaubten Zug selbst verwenden",
                "exakte Werte")
        try:
            err = self.why_illegal(action)
        except Exception:  # noqa: BLE001 - any value at all may arrive here
            err = None
        if not isinstance(err, IllegalActionError):
            err = State.why_illegal(self, action)
        return err

    def sample_chance(self, rng) -> Any:
        """Draw a chance outcome. Games may override with a faster sampler of the same law."""
        return sample_exact(self.chance_outcomes(), rng)

    def winners(self) -> list[int]:
        """Players with the highest total (ties share the win)."""
        s = self.scores()
        best = max(s)
        return [i for i, v in enumerate(s) if v == best]

    def clone(self) -> "State":
        game = self.game
        memo = {id(game): game}
        return copy.deepcopy(self, memo)

    def snapshot(self) -> Any:
        """A comparable value of the whole position (used to prove a rejected action changed nothing)."""
        d = {k: v for k, v in vars(self).items() if k != "game"}
        return repr(sorted(d.items()))

    def render(self, player: int | None = SPECTATOR, lang: str = "en") -> str:
        """What ``player`` sees (default: the projector's view), as text."""
        return self.game.render_observation(self.observation(player), lang)

    def __str__(self):
        return self.render()


def action_label(action, lang: str) -> str:
    """``action.label(lang)``, or the action's text cut short where it has no label (any value)."""
    label = getattr(action, "label", None)
    return label(lang) if callable(label) else _text(action)


def _text(value) -> str:
    """``str(value)`` for messages, cut short, for any value at all."""
    return short(value, 80, str)


_INDEX: dict = {}  # id(a game's cached tuple of legal actions) -> (the tuple, its index)
_INDEX_SIZE = 4096


def _legal_index(legal) -> dict:
    """``{(class, record form): action}`` of ``legal``. A tuple a game hands out again and again
    (its cached legal actions) is indexed once; the tuple is kept with its index, so its id cannot
    be reused while the entry lives."""
    hit = _INDEX.get(id(legal))
    if hit is not None and hit[0] is legal:
        return hit[1]
    index = {(type(a), exact_key(a)): a for a in legal}
    if type(legal) is tuple:
        if len(_INDEX) >= _INDEX_SIZE:
            _INDEX.clear()
        _INDEX[id(legal)] = (legal, index)
    return index


_FLAT = (int, str)


def record_key(value) -> str:
    """A text that tells record values apart exactly (1, 1.0, True and "1" all differ). Most actions
    are a word or a flat list of words and whole numbers: ``repr`` of those is exact and several
    times cheaper than JSON; anything else goes through canonical JSON. The prefixes keep the two
    forms apart."""
    t = type(value)
    if t in _FLAT or (t is list and all(type(x) in _FLAT for x in value)):
        return "r" + repr(value)
    return "j" + json.dumps(value, sort_keys=True, separators=(",", ":"))


def exact_key(action) -> str | None:
    """``record_key`` of the action's record form; None if it has none."""
    try:
        return record_key(action.to_json())
    except Exception:  # noqa: BLE001 - a hostile value may have no or a broken to_json
        return None

