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
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from .dist import sample_exact
from .errors import IllegalActionError
from .options import OptionSpec, validate_options

CHANCE = -1
TERMINAL = -2


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
    # Bots by name -> factory(game) -> Bot; "random" is added by the registry for every game.
    bots: ClassVar[dict] = {}
    # (players, options) settings the generic conformance test plays; empty = min, default and max players.
    test_configs: ClassVar[tuple] = ()

    def __init__(self, num_players: int | None = None, options: dict | None = None):
        from .errors import OptionError

        if num_players is None:
            num_players = self.default_players
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise OptionError(f"number of players must be a whole number, got {num_players!r}")
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

    def observation(self, player: int) -> dict:
        """What ``player`` may see, as JSON-serializable data. Never the hidden parts."""
        raise NotImplementedError

    def why_illegal(self, action) -> IllegalActionError:
        """An error that names the rule ``action`` breaks here. Games refine this."""
        legal = ", ".join(str(a) for a in self.legal_actions()[:12])
        return IllegalActionError("legal moves", f"{action!s} is not allowed now; allowed: {legal}",
                                  f"{action!s} ist jetzt nicht erlaubt; erlaubt: {legal}")

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

    def apply_action(self, action) -> None:
        """Apply ``action`` or raise ``IllegalActionError``; the state is unchanged on error."""
        if self.current_player() == TERMINAL:
            raise IllegalActionError("end of game", f"the game is over; {action!s} cannot be played",
                                     f"das Spiel ist vorbei; {action!s} geht nicht mehr")
        if action not in self.legal_actions():
            raise self.why_illegal(action)
        self._apply(action)

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

    def render(self, lang: str = "en") -> str:
        return str(self)

