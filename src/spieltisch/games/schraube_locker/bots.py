"""Schraube Locker bots. Both see only the observation (and the legal actions).

* ``greedy``: never uses a card function; rolls again until the row of dice reaches a card worth
  4 points or more (or no roll is left); never puts a CAN die anywhere; swaps for the most valuable
  card, gifts whenever it can, secures every combination.
* ``strong``: plays every dice decision (how many dice, card functions, CAN placements, roll or
  stop) by the exact turn solver of ``analysis`` for its own card values (points, plus what a card
  is worth in its display: a screw or nut that completes a combination, a function card's use),
  swaps for the card worth most to it, gifts to the leader, secures small combinations first.
"""

from __future__ import annotations

from ...core.bots import Bot
from . import analysis
from .engine import GIFT, NUTS, REROLL, SCREWS, SWAP, TURN, Gift, PlacePair, Proceed, Roll, Secure, Stop, Swap, TakeCard


def _phase_pick(observation, legal, rng):
    return legal[rng.below(len(legal))]


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, game=None):
        self.game = game

    def act(self, observation, legal_actions, rng):
        phase = observation["phase"]
        if phase == "setup":
            return _phase_pick(observation, legal_actions, rng)
        if phase == "start":
            return max((a for a in legal_actions if type(a) is Roll), key=lambda a: a.count)
        if phase == "cards":
            return next(a for a in legal_actions if type(a) is Proceed)
        if phase == "place":
            return self._place(observation, legal_actions)
        if phase == "exchange":
            swaps = [a for a in legal_actions if type(a) is Swap]
            best = None
            if swaps:
                pts = {c["id"]: c["points"] for p in observation["players"] for c in p["display"]}
                best = max(swaps, key=lambda a: pts[a.take] - pts[a.give])
                if pts[best.take] - pts[best.give] <= 0:
                    best = None
            gifts = [a for a in legal_actions if type(a) is Gift]
            return best or (gifts[0] if gifts else next(a for a in legal_actions if type(a) is TakeCard))
        secure = [a for a in legal_actions if type(a) is Secure]
        return secure[0] if secure else legal_actions[-1]

    @staticmethod
    def _place(obs, legal):
        me = obs["to_move"]
        pawn = obs["pawns"][me]
        on = obs["turn"]["on_card"]
        d = 0
        while d < 6 and on[(pawn + d + 1) % 6]:
            d += 1
        front = (pawn + d + 1) % 6
        pairs = [a for a in legal if type(a) is PlacePair and a.stack == front and d < 6]
        if pairs:
            return pairs[0]
        if d == 6:
            return next(a for a in legal if type(a) is Stop)
        if d > 0:
            top = obs["stacks"][(pawn + d) % 6]["top"]
            if top is not None and top["points"] >= 4:
                return next(a for a in legal if type(a) is Stop)
        rolls = [a for a in legal if type(a) is Roll]
        if rolls:
            return max(rolls, key=lambda a: a.count)
        return next(a for a in legal if type(a) is Stop)


class StrongBot(Bot):
    name = "strong"

    def __init__(self, game):
        self.game = game

    # how much a card is worth to the player to move, in half points (the solver needs whole numbers)
    def card_value(self, obs, card) -> int:
        me = obs["to_move"]
        mine = obs["players"][me]["display"]
        v = 2 * card["points"]
        f = card["function"]
        if f in SCREWS or f in NUTS:
            wants = NUTS if f in SCREWS else SCREWS
            v += 3 if any(c["function"] in wants for c in mine) else 1
        elif f in (REROLL, TURN):
            v += 1
        elif f == SWAP:
            v += 2
        elif f == GIFT:
            v += 3  # it can be passed on to a neighbour at the same stack
        return v

    def meeting_value(self, obs, stack) -> int:
        """What ending beside ``stack`` is worth beyond its card (half points): the best swap or
        gift with each other pawn there, with the swap/gift cards held now."""
        me = obs["to_move"]
        mine = obs["players"][me]["display"]
        swaps = [c for c in mine if c["function"] == SWAP]
        gifts = [c for c in mine if c["function"] == GIFT]
        if not swaps and not gifts:
            return 0
        gains = []
        for q, at in enumerate(obs["pawns"]):
            if q == me or at != stack:
                continue
            best = 0
            if gifts:
                best = -2 * gifts[0]["points"]
            if swaps:
                theirs = obs["players"][q]["display"]
                if theirs:
                    take = max(self.card_value(obs, c) for c in theirs)
                    best = max(best, take - self.card_value(obs, swaps[0]))
            gains.append(best)
        gains.sort(reverse=True)
        return sum(gains[:len(swaps) + len(gifts)])

    def act(self, observation, legal_actions, rng):
        phase = observation["phase"]
        if phase == "setup":
            return _phase_pick(observation, legal_actions, rng)
        if phase in analysis.DICE_PHASES:
            if len(legal_actions) == 1:
                return legal_actions[0]
            game = self.game
            value_of = lambda c: self.card_value(observation, c)  # noqa: E731
            # the engine lists each choice once (of equal function cards only the first)
            rows = analysis.turn_options(game, observation, legal_actions, value_of,
                                         lambda stack: self.meeting_value(observation, stack))
            best = max(rows, key=lambda r: r[1])
            return best[0]
        if phase == "exchange":
            cards = {c["id"]: c for p in observation["players"] for c in p["display"]}
            swaps = [a for a in legal_actions if type(a) is Swap]
            if swaps:
                best = max(swaps, key=lambda a: self.card_value(observation, cards[a.take])
                           - self.card_value(observation, cards[a.give]))
                if self.card_value(observation, cards[best.take]) > self.card_value(observation, cards[best.give]):
                    return best
            gifts = [a for a in legal_actions if type(a) is Gift]
            if gifts:
                vis = [p["visible_points"] for p in observation["players"]]
                return max(gifts, key=lambda a: vis[a.target])
            return next(a for a in legal_actions if type(a) is TakeCard)
        secure = [a for a in legal_actions if type(a) is Secure]
        if secure:
            return min(secure, key=lambda a: (len(a.cards), a.cards))
        return legal_actions[-1]


def greedy(game):
    return GreedyBot(game)


def strong(game):
    return StrongBot(game)


BOTS = {"greedy": greedy, "strong": strong}

__all__ = ["BOTS", "GreedyBot", "StrongBot"]
