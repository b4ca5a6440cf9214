"""Numbers the Schraube Locker lesson needs (notebooks/*/schraube-locker.ipynb), each exact or from
the engine itself.

* ``number_in_roll``: one roll of k dice and one wanted number, counted over all 6^k ordered rolls.
* ``first_card_tree``: the tree "up to three rolls until the next card's number shows".
* ``move_on_probability``: the rules' best chance (turn solver) that the pawn gets at least one card.
* ``one_roll_covers``: how many ordered rolls of six dice cover all six cards at once.
* ``turn_card_choice``: the chance of "einmal komplett rum" after a given roll, without and with
  one *Würfel drehen* (every die turned to every face), from the turn solver.
* ``lesson_table`` / ``engine_turn``: a table set up through the engine's own chance events (the
  face-up cards chosen) and one turn played by the engine with a simple policy, for simulations.

The deck is a reconstruction (deck.json); these numbers use only the cards' die numbers.
"""

from __future__ import annotations

from fractions import Fraction

from ...core.errors import SpieltischError, short
from .analysis import TurnSolver, exact, roll_table
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


# --- simulations with the engine itself -------------------------------------------------------------

def lesson_table(numbers, players: int = 2):
    """A fresh game whose set-up chance events are chosen: player 1's pawn beside stack 1, the
    others' beside stack 4, and the face-up cards showing ``numbers`` clockwise from the pawn."""
    nums = _numbers(numbers)
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


def engine_turn(numbers, rng, policy: str = "place_all", first_roll=None) -> int:
    """One turn of player 1 played by the engine; returns how many cards the pawn moved (6: einmal
    komplett rum). ``place_all``: every matching die is placed, rolled again while dice are left;
    ``move_on``: no CAN die, all dice rolled again until the next card has a die, then stop.
    ``first_roll``: the first roll's six values (else rolled)."""
    if policy not in ("place_all", "move_on"):
        raise SpieltischError(f"unknown policy {short(policy)}")
    s = lesson_table(numbers)
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
        places = [a for a in legal if type(a) is Place]
        rolls = [a for a in legal if type(a) is Roll]
        if policy == "place_all":
            s.apply_action(places[0] if places else rolls[0] if rolls else legal[-1])
        else:
            moved = bool(s.on_card[(s.pawns[0] + 1) % STACKS])
            s.apply_action(Stop() if moved or not rolls else rolls[0])
    return s.last_move or 0  # None: the next card got no die, the turn ended at once
