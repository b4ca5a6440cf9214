"""Negative controls for the property harness (tests/harness/properties.py): the hidden-hand toy
game ("Höher", hiddentoy.py) with a planted bug each. The property tests must fail on them.

``SloppyToy``: its moves compare loosely (``==`` takes 4.0, True and "4" for 4) and its state
checks legality with ``in`` instead of the core's type-exact ``is_legal``, so ``Play(4.0)`` gets
into the game and leaves a float on the pile.

``ForgetfulToy``: its moves' record form loses what kind of move it is (``["card", 4]`` for both
playing and discarding a 4), so a record cannot tell them apart and replay picks the wrong one.

``ChattyToy``: its refusals echo the refused input in full (a 200 000-character string too).
"""

from __future__ import annotations

from dataclasses import dataclass

from spieltisch.core.errors import IllegalActionError
from spieltisch.core.game import TERMINAL

from harness.hiddentoy import Discard, HiddenToy, HiddenToyState, Play


def _loose(value):
    try:
        return int(float(value))
    except (TypeError, ValueError, OverflowError):
        return value


@dataclass(frozen=True, eq=False)
class LoosePlay(Play):
    def __eq__(self, other):  # the planted bug: 4.0, True and "4" all count as 4
        return isinstance(other, type(self)) and _loose(other.card) == _loose(self.card)

    def __hash__(self):
        return hash(("play", _loose(self.card)))


@dataclass(frozen=True, eq=False)
class LooseDiscard(Discard):
    def __eq__(self, other):
        return isinstance(other, type(self)) and _loose(other.card) == _loose(self.card)

    def __hash__(self):
        return hash(("discard", _loose(self.card)))


class SloppyToyState(HiddenToyState):
    def _legal_actions(self):
        return [LoosePlay(a.card) if isinstance(a, Play) else LooseDiscard(a.card)
                for a in super()._legal_actions()]

    def apply_action(self, action):
        # the planted bug: its own legality test, with ``in`` (that is, the loose ``==``)
        if self.current_player() == TERMINAL or action not in self.legal_actions():
            raise IllegalActionError("legal moves", "not a legal move now", "jetzt kein erlaubter Zug",
                                     "erlaubte Züge")
        self._apply(action)


class SloppyToy(HiddenToy):
    id = "test-sloppy"
    state_class = SloppyToyState


@dataclass(frozen=True)
class ForgetfulPlay(Play):
    def to_json(self):
        return ["card", self.card]  # the planted bug: the kind of move is lost


@dataclass(frozen=True)
class ForgetfulDiscard(Discard):
    def to_json(self):
        return ["card", self.card]


class ForgetfulToyState(HiddenToyState):
    def _legal_actions(self):
        return [ForgetfulPlay(a.card) if isinstance(a, Play) else ForgetfulDiscard(a.card)
                for a in super()._legal_actions()]


class ForgetfulToy(HiddenToy):
    id = "test-forgetful"
    state_class = ForgetfulToyState


class ChattyToyState(HiddenToyState):
    def why_illegal(self, action):
        # the planted bug: the refusal echoes the input in full, however long
        return IllegalActionError("moves", f"{action!r} is not a move", f"{action!r} ist kein Zug", "Züge")


class ChattyToy(HiddenToy):
    id = "test-chatty"
    state_class = ChattyToyState
