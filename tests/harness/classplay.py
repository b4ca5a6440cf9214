"""Class-round games played as a clever student would (tests of the class board's ranking)."""

from __future__ import annotations

import copy

from spieltisch.core.registry import make_bot
from spieltisch.core.rng import Rng


def finish_with_bot(session, bot, rng):
    """``session`` played to its end, every human decision the bot's."""
    while not session.is_over():
        if session.waiting_for_human():
            p = session.current_player()
            session.act(bot.act(session.state.observation(p), session.legal_actions(), rng))
        else:
            session.step()
    return session.match


def searched_with_the_throws_known(round_):
    """A game played by someone who knows the class round's throws (they follow from the class code):
    at each decision, every option is played on to the end on the same throws (the optimal bot after
    it), and the one that ends with the most points is taken."""
    bot = make_bot(round_.game(), "optimal")
    s = round_.session()
    while not s.is_over():
        if s.waiting_for_human():
            legal = s.legal_actions()
            ends = [finish_with_bot(_copy(s, a), bot, Rng(0)).state.scores()[0] for a in legal]
            s.act(legal[ends.index(max(ends))])
        else:
            s.step()
    return s.match


def _copy(session, action):
    t = copy.deepcopy(session)
    t.act(action)
    return t
