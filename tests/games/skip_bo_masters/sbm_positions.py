"""Hand-built Skip-Bo Masters positions for the rule tests (scenario tests from a chosen table).

``position`` lays out the table as given; every card not shown anywhere is face down (the pool:
stocks below their tops and the draw pile), so all 168 cards are always accounted for.
"""

from __future__ import annotations

from spieltisch.core.game import CHANCE
from spieltisch.games.skip_bo_masters.engine import (
    COINS, DISCARDS, FULL_DECK, PILES, PLAY, Pile, SkipBoMasters, deck_of, TOTAL_CARDS,
)

WILD = 0


def toll(value: int, symbols: int) -> int:
    """The card of ``value`` with ``symbols`` coin symbols (0 = wild card)."""
    return symbols * 100 + value


def position(players=2, options=None, *, turn=0, hands=None, stock_tops=None, stock_down=None, piles=None,
             discards=None, coins=None, completed=()):
    """A state in ``turn``'s playing phase. ``piles``: one entry per building pile slot: None,
    a value (cards 1..value, no wild), or (cards, value, coins)."""
    game = SkipBoMasters(players, options or {})
    s = game.new_initial_state()
    n = players
    s.pending = []
    s.turn, s.phase = turn, PLAY
    s.hands = [sorted(h) for h in (hands or [[] for _ in range(n)])]
    s.filled = len(s.hands[turn])  # the hand was filled at the start of the turn
    s.stock_top = list(stock_tops or [None] * n)
    s.stock_down = list(stock_down if stock_down is not None else [game.stock_size - 1] * n)
    s.discards = [[list(d) for d in ds] for ds in (discards or [[[] for _ in range(DISCARDS)] for _ in range(n)])]
    s.building = [None] * PILES
    for i, p in enumerate(piles or ()):
        if p is None:
            continue
        pile = Pile()
        if isinstance(p, int):
            pile.cards, pile.value = list(range(1, p + 1)), p
        else:
            pile.cards, pile.value, pile.coins = list(p[0]), p[1], p[2]
        s.building[i] = pile
    s.coins = list(coins or [COINS] * n)
    s.completed = list(completed)
    seen = [c for h in s.hands for c in h] + [c for c in s.stock_top if c is not None]
    seen += [c for ds in s.discards for d in ds for c in d] + [c for b in s.building if b for c in b.cards]
    seen += s.completed
    s.pool = FULL_DECK.remove_all(seen)
    face_down = sum(s.stock_down)
    s.orig_left = s.pool.total - face_down  # the rest of the face-down cards is the draw pile
    assert s.orig_left >= 0
    s.draw = deck_of(())
    assert s.card_count() == TOTAL_CARDS
    return s


def resolve(state, rng):
    """Apply chance outcomes (drawn with ``rng``) until a player must act."""
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    return state
