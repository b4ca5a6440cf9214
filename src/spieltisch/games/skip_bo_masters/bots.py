"""Bots for Skip-Bo Masters. Both decide from the observation of the player to move only (their hand,
what lies open on the table, counts and coins); neither ever reads a state.

- ``greedy``: fixed priorities: the stock top whenever it fits; a wild card, a bought card or a
  replaced card only where the stock top can follow at once; every numbered card that fits (discard
  tops first); pays every toll it can; discards the card it needs least.
- ``strong``: plans the whole turn (``planner.plan``): every sequence of plays up to the first
  unknown card — buying and replacing on a pile up to 3 cards below its stock top's place —
  valued by stock cards played, coins, wild cards kept, and the danger of leaving a building pile
  that needs an opponent's stock top; decides a toll by planning both answers.
"""

from __future__ import annotations

from ...core.bots import Bot
from .engine import DECLINE, FOLLOW, TOLL, Buy, DeclineToll, Discard, EndTurn, PayToll, Play
from .planner import View, discard_choice, evaluate, forced_play, greedy_move, plan


def _same(move, legal):
    """The legal action equal to the planner's ``move`` (the very object the game handed out)."""
    if move is None:
        return None
    form = move.to_json()
    for a in legal:
        if type(a) is type(move) and a.to_json() == form:
            return a
    return None


def _end(obs, legal):
    for a in legal:
        if type(a) is EndTurn:
            return a
    return discard_choice(obs, legal) or forced_play(obs, legal)


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, game=None):
        self.game = game

    def act(self, obs, legal, rng):
        return greedy_move(obs, legal)


class StrongBot(Bot):
    name = "strong"

    def __init__(self, game=None, budget: int | None = None):
        self.game = game
        self.budget = budget

    def act(self, obs, legal, rng):
        if len(legal) == 1:
            return legal[0]
        view = View.of(self.game, obs)
        phase = obs["phase"]
        kw = {} if self.budget is None else {"budget": self.budget}
        if phase == TOLL:
            pay = next((a for a in legal if type(a) is PayToll), None)
            if pay is None:
                return DECLINE if DECLINE in legal else legal[-1]
            return pay if self.toll_worth(obs, view, kw) else next(a for a in legal if type(a) is DeclineToll)
        follow = obs["follow_pile"] if phase == FOLLOW else None
        _, move = plan(view, follow, **kw)
        a = _same(move, legal)
        if a is not None:
            return a
        if phase == FOLLOW:
            return next(a for a in legal if type(a) in (Play, Buy))
        return _end(obs, legal)

    @staticmethod
    def toll_worth(obs, view, kw) -> bool:
        """Pay when the best plan after paying beats stopping now (the coins count in both)."""
        toll = obs["toll_due"]
        stop = evaluate(view, view.vals, view.hand, view.discards, view.coins, 0, False, 0)
        view.coins -= toll
        pc = list(view.pile_coins)
        pc[obs["toll_pile"]] += toll
        view.pile_coins = tuple(pc)
        if view.vals[obs["toll_pile"]] >= 12:
            return True  # the pile completes and pays out: paying costs little
        go, _ = plan(view, None, **kw)
        return go >= stop


BOTS = {"greedy": GreedyBot, "strong": StrongBot}

__all__ = ["BOTS", "Discard", "GreedyBot", "StrongBot"]
