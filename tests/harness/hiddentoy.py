"""A tiny card game with private hands ("Höher"), to test hidden information without a real game.

15 cards, 1-5 three times each; every player (2-3) is dealt 3 cards, one card per chance node
(``chance_player()`` is the player receiving it). In turn, a player either plays a card that is
higher than the top of the face-up pile (and scores its value) or discards any card onto the pile
(no points); then, while the deck lasts, draws a card. The game ends when every hand is empty.

A player sees their own hand, everyone's hand sizes, the pile and the deck's size; the spectator
sees no hand. ``resample_hidden`` redeals everything the viewer cannot see: the other hands and the
deck, from the cards the viewer cannot see, keeping every hand size.

``LeakyHiddenToy`` is the same game with a planted leak: a player's observation also shows the
next player's hand. The conformance harness must catch it.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass

from spieltisch.core.chance import Deck
from spieltisch.core.errors import IllegalActionError, short
from spieltisch.core.game import CHANCE, TERMINAL, Game, State

VALUES = (1, 2, 3, 4, 5)
COPIES = 3
HAND = 3


@dataclass(frozen=True)
class Draw:
    """Chance outcome: the card a player gets from the deck."""

    card: int

    def to_json(self):
        return ["draw", self.card]

    def label(self, lang="en"):
        return f"zieht eine {self.card}" if lang == "de" else f"draws a {self.card}"

    def __str__(self):
        return self.label("en")


@dataclass(frozen=True)
class Play:
    """Play ``card`` higher than the pile's top card and score its value."""

    card: int

    def to_json(self):
        return ["play", self.card]

    def label(self, lang="en"):
        return f"spiele {self.card} aus" if lang == "de" else f"play {self.card}"

    def __str__(self):
        return self.label("en")


@dataclass(frozen=True)
class Discard:
    """Put ``card`` onto the pile without scoring."""

    card: int

    def to_json(self):
        return ["discard", self.card]

    def label(self, lang="en"):
        return f"wirf {self.card} ab" if lang == "de" else f"discard {self.card}"

    def __str__(self):
        return self.label("en")


DRAWS = {v: Draw(v) for v in VALUES}
FULL_DECK = Deck({v: COPIES for v in VALUES})


class HiddenToyState(State):
    def __init__(self, game):
        super().__init__(game)
        self.deck = FULL_DECK
        self.hands: list[list[int]] = [[] for _ in range(self.num_players)]
        self.pile: list[int] = []
        self.points = [0] * self.num_players
        self.dealt = 0
        self.player = 0
        self.drawing: int | None = None  # the player who draws after their turn

    # --- whose move --------------------------------------------------------------------------
    def _dealing(self) -> bool:
        return self.dealt < HAND * self.num_players

    def current_player(self):
        if self._dealing() or self.drawing is not None:
            return CHANCE
        if not any(self.hands):
            return TERMINAL
        return self.player

    def chance_player(self):
        if self._dealing():
            return self.dealt % self.num_players
        return self.drawing

    def chance_outcomes(self):
        return [(DRAWS[v], p) for v, p in self.deck.outcomes()]

    def sample_chance(self, rng):
        return DRAWS[self.deck.sample(rng)]  # the same draw as sample_exact (tests/test_chance.py)

    def _legal_actions(self):
        mine = sorted(set(self.hands[self.player]))
        top = self.pile[-1] if self.pile else 0
        return [Play(c) for c in mine if c > top] + [Discard(c) for c in mine]

    # --- moves -------------------------------------------------------------------------------
    def _apply(self, action):
        if isinstance(action, Draw):
            self.deck = self.deck.without(action.card)
            insort(self.hands[self.chance_player()], action.card)
            if self._dealing():
                self.dealt += 1
            else:
                self.drawing = None
                self._next_player()
            return
        self.hands[self.player].remove(action.card)
        self.pile.append(action.card)
        if isinstance(action, Play):
            self.points[self.player] += action.card
        if self.deck:
            self.drawing = self.player
        else:
            self._next_player()

    def _next_player(self):
        n = self.num_players
        for step in range(1, n + 1):
            p = (self.player + step) % n
            if self.hands[p]:
                self.player = p
                return

    def why_illegal(self, action):
        if not isinstance(action, (Draw, Play, Discard)):
            shown = short(action)
            return IllegalActionError("actions", f"{shown} is not a move of this game",
                                      f"{shown} ist kein Zug dieses Spiels", "Spielzüge")
        p = self.current_player()
        if p == CHANCE:
            if not isinstance(action, Draw):
                return IllegalActionError("turn order", f"a card is being drawn now; '{action}' must wait",
                                          f"gerade wird eine Karte gezogen; „{action.label('de')}“ muss warten",
                                          "Reihenfolge")
            return IllegalActionError("deck", f"there is no {action.card} left in the deck",
                                      f"im Stapel ist keine {action.card} mehr", "Stapel")
        if isinstance(action, Draw):
            return IllegalActionError("turn order", "cards come from the deck, not from a player",
                                      "Karten kommen vom Stapel, nicht von einem Spieler", "Reihenfolge")
        if action.card not in self.hands[self.player]:
            return IllegalActionError("own cards", f"there is no {action.card} in your hand",
                                      f"du hast keine {action.card} auf der Hand", "eigene Karten")
        top = self.pile[-1]
        return IllegalActionError("higher", f"{action.card} is not higher than the {top} on the pile; discard it",
                                  f"{action.card} ist nicht höher als die {top} auf der Ablage; wirf sie ab",
                                  "höher")

    # --- views -------------------------------------------------------------------------------
    def scores(self):
        return list(self.points)

    def observation(self, player):
        cp = self.current_player()
        obs = {
            "viewer": player,
            "to_move": cp if cp >= 0 else None,
            "receiving": self.chance_player() if cp == CHANCE else None,
            "hand_sizes": [len(h) for h in self.hands],
            "pile": list(self.pile),
            "deck_size": self.deck.total,
            "scores": list(self.points),
            "terminal": cp == TERMINAL,
        }
        if player is not None:
            obs["hand"] = list(self.hands[player])
        return obs

    def resample_hidden(self, viewer, rng):
        out = self.clone()
        unseen = self.deck
        others = [p for p in range(self.num_players) if p != viewer]
        for p in others:
            unseen = unseen.plus_all(self.hands[p])
        for p in others:
            cards, unseen = unseen.deal(len(self.hands[p]), rng)
            out.hands[p] = sorted(cards)
        out.deck = unseen
        return out


class LeakyHiddenToyState(HiddenToyState):
    def observation(self, player):
        obs = super().observation(player)
        if player is not None:
            obs["next_hand"] = list(self.hands[(player + 1) % self.num_players])  # the planted leak
        return obs


class HiddenToy(Game):
    id = "test-hidden"
    name = {"de": "Höher (Testspiel)", "en": "Higher (test game)"}
    min_players, max_players, default_players = 2, 3, 2
    state_class = HiddenToyState

    def render_observation(self, obs, lang="en"):
        de = lang == "de"
        parts = []
        if "hand" in obs:
            parts.append(("Hand: " if de else "hand: ") + " ".join(map(str, obs["hand"])))
        parts.append(("Handkarten: " if de else "hand sizes: ") + " ".join(map(str, obs["hand_sizes"])))
        parts.append(("Ablage: " if de else "pile: ") + (" ".join(map(str, obs["pile"])) or "–"))
        parts.append(("Stapel: " if de else "deck: ") + str(obs["deck_size"]))
        parts.append(("Punkte: " if de else "points: ") + " ".join(map(str, obs["scores"])))
        return " | ".join(parts)


class LeakyHiddenToy(HiddenToy):
    id = "test-hidden-leaky"
    state_class = LeakyHiddenToyState
