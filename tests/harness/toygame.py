"""A tiny dice game (Pig with a round limit) that exercises the core without any real game's rules."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from spieltisch.core.errors import IllegalActionError
from spieltisch.core.game import CHANCE, TERMINAL, Game, State
from spieltisch.core.options import OptionSpec


@dataclass(frozen=True)
class Roll:
    value: int

    def to_json(self):
        return ["roll", self.value]

    def __str__(self):
        return f"rolled {self.value}"

    def label(self, lang="en"):
        return f"würfelt {self.value}" if lang == "de" else str(self)


@dataclass(frozen=True)
class Choice:
    what: str

    def to_json(self):
        return self.what

    def __str__(self):
        return self.what

    def label(self, lang="en"):
        return GERMAN[self.what] if lang == "de" else self.what


GERMAN = {"roll": "würfeln", "hold": "aufhören"}
ROLL, HOLD = Choice("roll"), Choice("hold")
ROLLS = [Roll(v) for v in range(1, 7)]


class PigState(State):
    def __init__(self, game):
        super().__init__(game)
        self.totals = [0] * self.num_players
        self.turn_total = 0
        self.player = 0
        self.turns_done = 0
        self.awaiting_roll = True

    def current_player(self):
        if self.turns_done >= self.options["rounds"] * self.num_players:
            return TERMINAL
        return CHANCE if self.awaiting_roll else self.player

    def chance_outcomes(self):
        return [(r, Fraction(1, 6)) for r in ROLLS]

    def _legal_actions(self):
        return [ROLL, HOLD]

    def _end_turn(self):
        self.turn_total = 0
        self.player = (self.player + 1) % self.num_players
        self.turns_done += 1
        self.awaiting_roll = True

    def _apply(self, action):
        if isinstance(action, Roll):
            if action.value == 1:
                self._end_turn()
            else:
                self.turn_total += action.value
                self.awaiting_roll = False
        elif action is ROLL:
            self.awaiting_roll = True
        else:
            self.totals[self.player] += self.turn_total
            self._end_turn()

    def why_illegal(self, action):
        if self.awaiting_roll:
            return IllegalActionError("pig: roll first", f"{_en(action)} is not possible before the die is rolled",
                                      f"{_de(action)} geht nicht, bevor gewürfelt ist", "Schwein: erst würfeln")
        return IllegalActionError("pig: roll or hold", f"{_en(action)} is neither roll nor hold",
                                  f"{_de(action)} ist weder würfeln noch aufhören",
                                  "Schwein: würfeln oder aufhören")

    def scores(self):
        return list(self.totals)

    def observation(self, player):
        return {"totals": list(self.totals), "turn_total": self.turn_total, "player": self.player,
                "turns_done": self.turns_done, "awaiting_roll": self.awaiting_roll}

    def __str__(self):
        return f"totals {self.totals}, player {self.player} has {self.turn_total}"


def _cut(text: str) -> str:
    # a refusal never echoes a hostile input whole
    return text if len(text) <= 60 else text[:57] + "..."


def _en(action) -> str:
    return _cut(str(action))


def _de(action) -> str:
    label = getattr(action, "label", None)
    return _cut(label("de") if callable(label) else str(action))


class Pig(Game):
    id = "test-pig"
    name = {"de": "Schwein", "en": "Pig"}
    min_players, max_players, default_players = 1, 4, 2
    option_specs = (OptionSpec("rounds", 3, "turns per player", min=1, max=50),)
    state_class = PigState
