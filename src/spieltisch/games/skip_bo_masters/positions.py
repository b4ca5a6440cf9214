"""Positions from real play for the lesson (``notebooks/*/skip-bo-masters.ipynb``): a seeded game of
two bots is played until a moment of the kind a question needs; the same seed gives the same
position every time. Each function returns the state; a lesson reads only an observation of it.
"""

from __future__ import annotations

from ...core.errors import SpieltischError
from ...core.game import CHANCE, TERMINAL
from ...core.match import Match
from ...core.registry import make_bot
from ...core.rng import Rng
from .engine import TOLL


def play_until(condition, seed: int, bots=("greedy", "greedy"), options=None, max_steps: int = 2000, log=None):
    """The state of a seeded game of ``bots`` (one per seat) at the first moment ``condition(state)``
    holds (chance events drawn from the match's generator, the bots from ``Rng(seed + 1)``); ``log``:
    a list that gets every player's move on the way, as (seat, action)."""
    match = Match("skip-bo-masters", len(bots), dict(options or {}), seed=seed)
    players = [make_bot(match.game, b) for b in bots]
    rng = Rng(seed + 1)
    for _ in range(max_steps):
        state = match.state
        p = state.current_player()
        if p == TERMINAL:
            break
        if condition(state):
            return state
        if p == CHANCE:
            match.step_chance()
        else:
            action = players[p].act(state.observation(p), state.legal_actions(), rng)
            if log is not None:
                log.append((p, action))
            match.apply(action)
    raise SpieltischError(f"no such moment in the game with seed {seed}")


def _waiting(state) -> bool:
    """Player 1 is about to fill the hand with 2 or 3 cards and needs one number: their stock top is
    two above a building pile, and neither the number between nor a wild card is in their hand or on
    top of their discard piles; player 2's stock top is at most 3 above a building pile."""
    if state.current_player() != CHANCE or state.turn != 0 or state.round_no != 1:
        return False
    if state.pending[0] != ("draw", 0) or not 2 <= len(state.pending) <= 3:
        return False
    top = state.stock_top[0]
    if top is None or top % 100 == 0:
        return False
    need = top % 100 - 1
    values = [b.value for b in state.building if b is not None]
    if need - 1 not in values:
        return False
    mine = state.hands[0] + [d[-1] for d in state.discards[0] if d]
    if any(c % 100 in (0, need) for c in mine):
        return False
    other = state.stock_top[1]
    return other is not None and other % 100 != 0 and any(0 < other % 100 - v <= 3 for v in values)


def waiting_for_a_card(seed: int = 2, log=None):
    """Two greedy bots; the first moment player 1 (seat 0) waits for one number (``_waiting``)."""
    return play_until(_waiting, seed, max_steps=300, log=log)


def needed_value(observation: dict) -> int:
    """The number the viewer needs for their stock top in ``waiting_for_a_card``'s position: the one
    below it (it goes on the building pile one below that)."""
    return observation["stock_tops"][observation["viewer"]] % 100 - 1


def toll_decision(seed: int = 31):
    """Two strong bots; the first moment player 1 (seat 0) must pay a toll or decline it."""
    return play_until(lambda s: s.current_player() == 0 and s.phase == TOLL and s.coins[0] >= s.toll_due,
                      seed, bots=("strong", "strong"), max_steps=400)
