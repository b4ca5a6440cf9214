"""Numbers the Schraube Locker lesson needs (notebooks/*/schraube-locker.ipynb), each exact or from
the engine itself.

* ``number_in_roll``: one roll of k dice and one wanted number, counted over all 6^k ordered rolls.
* ``first_card_tree``: the tree "up to three rolls until the next card's number shows".
* ``move_on_probability``: the rules' best chance (turn solver) that the pawn gets at least one card.
* ``one_roll_covers``: how many ordered rolls of six dice cover all six cards at once.
* ``turn_card_choice``: the chance of "einmal komplett rum" after a given roll, without and with
  one *Würfel drehen* (every die turned to every face), from the turn solver.
* ``cards_covered``, ``toy_throws``, ``toy_tree``: the small version of "einmal komplett rum" (two
  cards, two dice, two rolls), counted throw by throw, for the grid and the tree drawn by hand.
* ``circle_probability``: the rules' best chance (turn solver) that every card of a circle of one to
  six cards gets a die, with as many dice as cards (the small version and the real six).
* ``reach_distribution``: the exact distribution of how far the pawn gets when every matching die is
  laid on the nearest free card showing its number (the play the simulations use).
* ``lesson_table`` / ``engine_turn`` / ``engine_turns``: a table set up through the engine's own
  chance events (the face-up cards chosen) and turns played by the engine with a stated policy,
  for simulations.
* ``advised_steps`` / ``laid_all``: what the advisor (expected points of this turn's card) does at
  the lesson's table after a given first roll, and what laying every matching die is worth there.

The deck is a reconstruction (deck.json); these numbers use only the cards' die numbers.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache

from ...core.errors import SpieltischError, short
from ...core.rng import Rng
from .analysis import SCALE, TurnSolver, exact, roll_table, turn_options
from .engine import CHANCE, DICE, DICE_BY_VALUES, MAX_ROLLS, STACKS, PawnAt, Place, Reveal, Roll, SchraubeLocker, Stop

CIRCLE = (0,) * STACKS + (1,)  # value of the pawn's reach: 1 only for a full circle
MOVE_ON = (0,) + (1,) * STACKS  # 1 for any reach of at least one card


def _numbers(numbers) -> tuple:
    nums = tuple(numbers)
    if len(nums) != STACKS or any(type(v) is not int or not 1 <= v <= 6 for v in nums):
        raise SpieltischError(f"six die numbers 1-6 are needed, got {short(numbers)}")
    return nums


def number_in_roll(dice: int = DICE, wanted: int = 4) -> dict:
    """One roll of ``dice`` dice: how many of the 6^dice ordered rolls show ``wanted`` at least once."""
    if type(dice) is not int or not 1 <= dice <= DICE:
        raise SpieltischError(f"1-6 dice, got {short(dice)}")
    total = 6 ** dice
    hit = sum(c for roll, c in roll_table(dice) if wanted in roll)
    return {"total": total, "with": hit, "without": total - hit,
            "hit": Fraction(hit, total), "miss": Fraction(total - hit, total)}


def first_card_tree(rolls: int = MAX_ROLLS, dice: int = DICE) -> dict:
    """Rolling all ``dice`` dice again until the next card's number shows, at most ``rolls`` times:
    ``first[i]`` is P(it shows first in roll i+1), ``never`` P(it never shows)."""
    one = number_in_roll(dice)
    first, miss = [], Fraction(1)
    for _ in range(rolls):
        first.append(miss * one["hit"])
        miss *= one["miss"]
    return {"hit": one["hit"], "miss": one["miss"], "first": first, "never": miss, "some": 1 - miss}


def move_on_probability(numbers, rolls: int = MAX_ROLLS) -> Fraction:
    """The best chance under the rules (turn solver) that the pawn gets at least one card this turn
    (no card functions), the cards showing ``numbers`` clockwise from the pawn."""
    solver = TurnSolver(_numbers(numbers), MOVE_ON)
    return exact(solver.roll_value(0, DICE, DICE, rolls - 1), rolls)[0]


def one_roll_covers(numbers) -> dict:
    """How many of the 6^6 ordered rolls of six dice cover all six cards at once (the roll is the
    cards' numbers in some order)."""
    target = tuple(sorted(_numbers(numbers)))
    count = sum(c for roll, c in roll_table(DICE) if roll == target)
    return {"count": count, "total": 6 ** DICE, "p": Fraction(count, 6 ** DICE)}


def turn_card_choice(numbers, roll, rolls_left: int) -> dict:
    """The chance of "einmal komplett rum" right after the roll ``roll`` (six dice, nothing placed
    yet), with ``rolls_left`` rolls still to come, under best play (turn solver): ``without`` the
    card, and ``turns[(from, to)]`` after one *Würfel drehen* turning a die showing ``from`` to
    ``to``; ``best`` is the best turn, ``turned`` the roll after it, ``gain`` what it adds."""
    nums = _numbers(numbers)
    roll = tuple(sorted(roll))
    if len(roll) != DICE or any(type(v) is not int or not 1 <= v <= 6 for v in roll):
        raise SpieltischError(f"a roll of six dice is needed, got {short(roll)}")
    if type(rolls_left) is not int or not 0 <= rolls_left < MAX_ROLLS:
        raise SpieltischError(f"0-2 rolls can follow, got {short(rolls_left)}")
    solver = TurnSolver(nums, CIRCLE)

    def chance(r):
        return exact(solver.after_placing(*solver.settle(0, DICE, r), rolls_left), rolls_left)[0]

    turns = {}
    for v in sorted(set(roll)):
        for w in range(1, 7):
            if w != v:
                r = list(roll)
                r.remove(v)
                turns[(v, w)] = chance(tuple(sorted(r + [w])))
    best = max(turns, key=lambda k: (turns[k], -k[0], -k[1]))
    r = list(roll)
    r.remove(best[0])
    without = chance(roll)
    return {"without": without, "turns": turns, "best": best, "with": turns[best],
            "turned": tuple(sorted(r + [best[1]])), "gain": turns[best] - without}


# --- the small version: two cards, two dice, two rolls -------------------------------------------

def _circle(numbers) -> tuple:
    nums = tuple(numbers)
    if not 1 <= len(nums) <= STACKS or any(type(v) is not int or not 1 <= v <= 6 for v in nums):
        raise SpieltischError(f"one to six die numbers 1-6 are needed, got {short(numbers)}")
    return nums


def cards_covered(numbers, roll) -> int:
    """How many of the cards showing ``numbers`` one roll can cover: every matching die laid, at
    most one die per card (a 1 and a 1 cover two cards showing 1, but only one showing 1 and 2)."""
    return sum((Counter(_circle(numbers)) & Counter(roll)).values())


def toy_throws(numbers=(1, 2)) -> dict:
    """The small version (two cards, two dice): ``{(first die, second die): cards covered}`` for the
    36 ordered throws of the first roll."""
    nums = _circle(numbers)
    if len(nums) != 2:
        raise SpieltischError(f"the small version has two cards, got {short(numbers)}")
    return {(a, b): cards_covered(nums, (a, b)) for a in range(1, 7) for b in range(1, 7)}


def toy_tree(numbers=(1, 2)) -> dict:
    """The tree of the small version (two cards, two dice, up to two rolls), every branch counted
    over the throws: the first roll covers ``both`` cards, ``one`` or ``none``; after ``one`` the
    last die has one roll for the missing card (``one_then``), after ``none`` both dice roll again
    (``none_then``: both cards covered). ``total``: P(both cards covered) by the path rules."""
    throws = toy_throws(numbers)
    first = {k: Fraction(sum(1 for v in throws.values() if v == k), 36) for k in (2, 1, 0)}
    one_then = number_in_roll(1, wanted=numbers[0])["hit"]  # one die for the one card left (any number: 1/6)
    tree = {"both": first[2], "one": first[1], "none": first[0], "one_then": one_then, "none_then": first[2]}
    tree["total"] = tree["both"] + tree["one"] * tree["one_then"] + tree["none"] * tree["none_then"]
    return tree


def circle_probability(numbers, rolls: int = MAX_ROLLS) -> Fraction:
    """The rules' best chance (turn solver: MUST chain, free CAN choices, roll again or stop) that
    every card of a circle showing ``numbers`` (one to six cards, clockwise from the pawn) gets a
    die within ``rolls`` rolls, with as many dice as cards. Six cards: "einmal komplett rum"."""
    nums = _circle(numbers)
    if type(rolls) is not int or not 1 <= rolls <= MAX_ROLLS:
        raise SpieltischError(f"a turn has 1-3 rolls, got {short(rolls)}")
    return _circle_solved(nums, rolls)


@lru_cache(maxsize=None)
def _circle_solved(nums: tuple, rolls: int) -> Fraction:
    k = len(nums)
    vals = [0] * (STACKS + 1)
    vals[k] = 1  # the pawn reaches the last card: every card has a die
    solver = TurnSolver(nums + (None,) * (STACKS - k), tuple(vals))
    return exact(solver.roll_value(0, k, k, rolls - 1), rolls)[0]


# --- how far the pawn gets with every matching die laid -------------------------------------------

def lay_nearest(numbers, on: tuple, roll) -> tuple:
    """Every die of ``roll`` that matches a free card is laid on the nearest free card (from the
    pawn) showing its number; ``on[i]``: card i+1 has a die. This obeys the MUST rule (the next free
    card gets a matching die first) and covers as many cards as the roll can."""
    nums = _numbers(numbers)
    on = list(on)
    for v in roll:
        for i in range(STACKS):
            if not on[i] and nums[i] == v:
                on[i] = True
                break
    return tuple(on)


def _reach(on: tuple) -> int:
    d = 0
    while d < STACKS and on[d]:
        d += 1
    return d


@lru_cache(maxsize=None)
def _reach_scaled(nums: tuple, on: tuple, rolls: int) -> tuple:
    """P(the pawn gets d cards) × 6^(6·rolls), d = 0..6, laying every matching die on the nearest
    free card and rolling the free dice again while rolls are left."""
    free = on.count(False)
    out = [0] * (STACKS + 1)
    if not free or not rolls:
        out[_reach(on)] = SCALE ** rolls
        return tuple(out)
    up = 6 ** (DICE - free)  # a roll of fewer dice, scaled to one roll of six
    for roll, c in roll_table(free):
        after = _reach_scaled(nums, lay_nearest(nums, on, roll), rolls - 1)
        for d in range(STACKS + 1):
            out[d] += c * up * after[d]
    return tuple(out)


def reach_distribution(numbers, rolls: int = MAX_ROLLS) -> list:
    """The exact chances that the pawn gets 0, 1, …, 6 cards far in one turn when every matching
    die is laid on the nearest free card showing its number and the free dice are rolled again
    while rolls are left (no card functions). 6: "einmal komplett rum"."""
    nums = _numbers(numbers)
    if type(rolls) is not int or not 1 <= rolls <= MAX_ROLLS:
        raise SpieltischError(f"a turn has 1-3 rolls, got {short(rolls)}")
    scaled = _reach_scaled(nums, (False,) * STACKS, rolls)
    return [Fraction(x, SCALE ** rolls) for x in scaled]


def mean_reach(numbers, rolls: int = MAX_ROLLS) -> Fraction:
    """The expected number of cards the pawn gets (``reach_distribution``'s expected value)."""
    return sum(d * p for d, p in enumerate(reach_distribution(numbers, rolls)))


# --- simulations with the engine itself -------------------------------------------------------------

@lru_cache(maxsize=None)
def _table(nums: tuple, players: int):
    game = SchraubeLocker(players)
    s = game.new_initial_state()
    for p in range(players):
        s.apply_action(PawnAt(p, 0 if p == 0 else 3))
    while s.current_player() == CHANCE and type(s.chance_outcomes()[0][0]) is Reveal:
        outcomes = s.chance_outcomes()
        stack = outcomes[0][0].stack
        want = nums[(stack - 1) % STACKS]
        s.apply_action(next(a for a, _ in outcomes if type(a) is Reveal and game.deck.die[a.card] == want))
    return s


def lesson_table(numbers, players: int = 2):
    """A fresh game whose set-up is chosen: player 1's pawn beside stack 1, the others' beside stack
    4 (D0: the players place their pawns), and the face-up cards showing ``numbers`` clockwise from
    player 1's pawn (the reveals are chance events of the engine, chosen). A copy of one table per
    ``numbers``: setting it up is the slow part of a simulated turn."""
    if type(players) is not int or not 2 <= players <= 4:
        raise SpieltischError(f"2-4 players, got {short(players)}")
    return _table(_numbers(numbers), players).clone()


POLICIES = ("place_all", "move_on")


def engine_turn(numbers, rng, policy: str = "place_all", first_roll=None, farthest: bool = False) -> int:
    """One turn of player 1 played by the engine; returns how many cards the pawn moved (6: einmal
    komplett rum). ``place_all``: every matching die is laid, each on the nearest free card (from
    the pawn) showing its number, and the free dice are rolled again while rolls are left;
    ``move_on``: no CAN die, all dice rolled again until the next card has a die, then stop.
    ``first_roll``: the first roll's six values (else rolled). ``farthest``: a CAN die goes on the
    farthest free card showing its number instead (what that choice changes: the reach)."""
    if policy not in POLICIES:
        raise SpieltischError(f"unknown policy {short(policy)}")
    side = max if farthest else min
    s = lesson_table(numbers)
    pawn = s.pawns[0]
    first = None if first_roll is None else DICE_BY_VALUES[tuple(sorted(first_roll))]
    while s.turn == 0 and s.last_move is None:
        if s.current_player() == CHANCE:
            if first is not None:
                s.apply_action(first)
                first = None
            else:
                s.apply_action(s.sample_chance(rng))
            continue
        legal = s.legal_actions()
        if policy == "place_all":
            places = [a for a in legal if type(a) is Place]
            rolls = [a for a in legal if type(a) is Roll]
            if places:
                s.apply_action(side(places, key=lambda a: (a.stack - pawn - 1) % STACKS))
            else:
                s.apply_action(rolls[0] if rolls else Stop())
        else:
            moved = bool(s.on_card[(pawn + 1) % STACKS])
            rolls = [a for a in legal if type(a) is Roll]
            s.apply_action(Stop() if moved or not rolls else rolls[0])
    return s.last_move or 0  # None: the next card got no die, the turn ended at once


def engine_turns(numbers, n: int, seed: int, policy: str = "place_all", first_roll=None) -> list:
    """``n`` turns of ``engine_turn`` from one seeded generator: how far the pawn got in each."""
    if type(n) is not int or not 1 <= n <= 100_000:
        raise SpieltischError(f"1-100000 turns, got {short(n)}")
    rng = Rng(seed)
    return [engine_turn(numbers, rng, policy, first_roll) for _ in range(n)]


# --- what the advisor does ----------------------------------------------------------------------------

def _after_first_roll(numbers, first_roll):
    s = lesson_table(numbers)
    roll = tuple(sorted(first_roll))
    if roll not in DICE_BY_VALUES or len(roll) != DICE:
        raise SpieltischError(f"a roll of six dice is needed, got {short(first_roll)}")
    s.apply_action(DICE_BY_VALUES[roll])
    return s


def _options(s) -> list:
    """The advisor's valuation of every dice decision (``analysis.turn_options``, from the
    observation), best first: ``[(action, expected points, [P(reach d)])]``."""
    rows = turn_options(s.game, s.observation(0), s.legal_actions())
    return sorted(rows, key=lambda r: -r[1])


def advised_steps(numbers, first_roll) -> list:
    """At the lesson's table (``lesson_table``) right after the first roll ``first_roll``: the
    advisor's best choice step by step until dice are rolled again or the pawn moves, each as
    ``(action, expected points of this turn's card, [P(the pawn gets d cards)])``."""
    s = _after_first_roll(numbers, first_roll)
    steps = []
    while s.current_player() == 0 and s.last_move is None:
        best = _options(s)[0]
        steps.append(best)
        s.apply_action(best[0])
        if type(best[0]) in (Roll, Stop):
            break
    return steps


def laid_all(numbers, first_roll) -> tuple:
    """The same table and roll, every matching die laid on the nearest free card showing its
    number (the play of ``engine_turn``): the advisor's best option then, ``(action, expected
    points, [P(the pawn gets d cards)])``."""
    s = _after_first_roll(numbers, first_roll)
    pawn = s.pawns[0]
    while True:
        places = [a for a in s.legal_actions() if type(a) is Place]
        if not places or s.current_player() != 0:
            break
        s.apply_action(min(places, key=lambda a: (a.stack - pawn - 1) % STACKS))
    return _options(s)[0]
