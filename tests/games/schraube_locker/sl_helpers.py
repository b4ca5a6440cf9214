"""Hand-built positions of Schraube Locker (scenario tests start from a table set up by hand)."""

from __future__ import annotations

from spieltisch.core.chance import Deck
from spieltisch.games.schraube_locker.engine import CARDS, DICE_BY_VALUES, SchraubeLocker


def card(function: str, points: int | None = None, die: int | None = None, *, skip=()) -> int:
    """The id of a card of the reconstructed deck with that function (and points, die number)."""
    for c in range(CARDS.size):
        if c in skip or CARDS.function[c] != function:
            continue
        if points is not None and CARDS.points[c] != points:
            continue
        if die is not None and CARDS.die[c] != die:
            continue
        return c
    raise LookupError((function, points, die))


def any_card(die: int, skip=()) -> int:
    """A card showing die number ``die`` that no screw/nut/function test needs (a plain pick)."""
    for c in range(CARDS.size):
        if c not in skip and CARDS.die[c] == die:
            return c
    raise LookupError(die)


def table(players=2, *, numbers=(1, 2, 3, 4, 5, 6), pawns=None, displays=None, secured=None, turn=0,
          options=None, left=None, tops=None, bonus_left=None):
    """A state at the start of ``turn``'s turn (the first roll pending, or the roll-count choice
    with not_all_dice): stack ``s`` shows a card with die number ``numbers[s]`` (or ``tops[s]``)."""
    game = SchraubeLocker(players, options or {})
    s = game.new_initial_state()
    displays = [list(d) for d in (displays or [[] for _ in range(players)])]
    secured = [list(x) for x in (secured or [[] for _ in range(players)])]
    used = {c for d in displays for c in d} | {c for x in secured for t in x for c in t}
    if tops is None:
        tops = []
        for n in numbers:
            c = any_card(n, skip=used | set(tops))
            tops.append(c)
    used |= set(tops)
    s.pending = None
    s.pawns = list(pawns or [0] * players)
    s.top = list(tops)
    s.hidden = Deck.of(c for c in range(CARDS.size) if c not in used)
    s.display = displays
    s.secured = secured
    if left is not None:
        s.left = list(left)
    if bonus_left is not None:
        s.bonus_left = bonus_left
    s.turn = turn
    s._start_turn()
    s._cache = None
    return s


def roll(state, *values):
    """Apply the roll ``values`` at the pending chance node."""
    state.apply_action(DICE_BY_VALUES[tuple(sorted(values))])
    return state
