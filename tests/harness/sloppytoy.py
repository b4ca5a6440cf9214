"""Negative controls for the property harness (tests/harness/properties.py): the hidden-hand toy
game ("Höher", hiddentoy.py) with a planted bug each. The property tests must fail on them.

``SloppyToy``: its moves compare loosely (``==`` takes 4.0, True and "4" for 4) and its state
checks legality with ``in`` instead of the core's type-exact ``is_legal``, so ``Play(4.0)`` gets
into the game and leaves a float on the pile.

``ForgetfulToy``: its moves' record form loses what kind of move it is (``["card", 4]`` for both
playing and discarding a 4), so a record cannot tell them apart and replay picks the wrong one.

``ChattyToy``: its refusals echo the refused input in full (a 200 000-character string too).

``RecordFormToy``: its plays keep their points beside the card (derived by the constructor, as
Würfel Joker's assignments keep a mask), and it checks legality by class and record form alone, as
the core once did: a play built without its constructor, with other points, records like the legal
one, gets in and scores what it says.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spieltisch.core.errors import IllegalActionError
from spieltisch.core.game import TERMINAL, record_key

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


@dataclass(frozen=True)
class PointsPlay(Play):
    """Play ``card`` and score ``points``, which the constructor derives from the card."""

    points: int = field(default=0, init=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "points", self.card)


class RecordFormToyState(HiddenToyState):
    def _legal_actions(self):
        return [PointsPlay(a.card) if isinstance(a, Play) else a for a in super()._legal_actions()]

    def _apply(self, action):
        player = self.player
        super()._apply(action)  # a play scores its card
        if type(action) is PointsPlay:
            self.points[player] += action.points - action.card  # ... and this one its points

    def apply_action(self, action):
        # the planted bug: legal if a legal action has its class and record form
        try:
            key = record_key(action.to_json())
        except Exception:  # noqa: BLE001
            key = None
        if self.current_player() == TERMINAL or key is None or not any(
                type(a) is type(action) and record_key(a.to_json()) == key for a in self.legal_actions()):
            raise IllegalActionError("legal moves", "not a legal move now", "jetzt kein erlaubter Zug",
                                     "erlaubte Züge")
        self._apply(action)


class RecordFormToy(HiddenToy):
    id = "test-record-form"
    state_class = RecordFormToyState
