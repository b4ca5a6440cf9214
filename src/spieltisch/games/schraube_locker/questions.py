"""Schraube Locker's lesson questions (notebooks/*/schraube-locker.ipynb), declared once: exact values
from the game's lesson numbers (its solver and counts), seeded simulations with the dice or the engine.
The probabilities depend only on the open cards' dice numbers, not on the reconstructed card points."""

from __future__ import annotations

import math

from ...core.questions import ByHand, Check, Counted, Option, Question, Rounded, Simulation, Term, share_bins
from ...core.rng import Rng
from . import lesson_numbers as numbers

FAMILY = "schraube-locker"
DIFFERENT = (1, 2, 3, 4, 5, 6)
PAIRS = (1, 1, 2, 2, 3, 3)
# the choices of question 1 and the share each one means
GUESSES = (("one_in_six", {"de": "in etwa 1 von 6 Würfen", "en": "in about 1 of 6 rolls"}, (1, 6)),
           ("half", {"de": "in etwa der Hälfte der Würfe", "en": "in about half of the rolls"}, (1, 2)),
           ("two_thirds", {"de": "in etwa 2 von 3 Würfen", "en": "in about 2 of 3 rolls"}, (2, 3)),
           ("always", {"de": "bei jedem Wurf (6 · 1/6 = 1)", "en": "every time (6 × 1/6 = 1)"}, (1, 1)))


def _nearest_guess() -> set:
    hit = numbers.number_in_roll(6, wanted=4)["hit"]
    gap = {key: abs(hit - a / b) for key, _, (a, b) in GUESSES}
    return {min(gap, key=gap.get)}


def _six_dice(n: int, seed: int) -> list:
    rng = Rng(seed)
    return [4 in [rng.die() for _ in range(6)] for _ in range(n)]


def _round_the_circle(cards):
    return lambda n, seed: [d == 6 for d in numbers.engine_turns(cards, n, seed)]


def _toy_round(cards) -> Counted:
    """P(round in the small game) as the tree adds it up over the 36 · 36 pairs of rolls (a die rolled
    alone counts 6 times): the lesson numbers' own tree, checked equal."""
    tree = numbers.toy_tree(cards)
    both, one, none = (int(tree[k] * 36) for k in ("both", "one", "none"))
    after_one = 36 * tree["one_then"]  # the last die alone: 6 of 36
    out = Counted(36 * both + one * int(after_one) + none * both, 36 * 36)
    assert out == tree["total"], (out, tree["total"])
    return out


def _first_roll_covers(cards) -> Counted:
    c = numbers.one_roll_covers(cards)
    return Counted(c["count"], c["total"])


POWERS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _never(rolls: int = 3):
    """P(no 4 in ``rolls`` rolls of six dice): the solver's tree, checked to be P(no 4 in one roll)^rolls."""
    miss, never = numbers.number_in_roll(6, wanted=4)["miss"], numbers.first_card_tree(rolls=rolls)["never"]
    assert never == miss ** rolls
    return never


def _never_form(lang: str, complement: bool = False, rolls: int = 3) -> str:
    """How a teacher reads the three-roll value: (15625/46656)³ ≈ 0,0376, or 1 − (15625/46656)³ ≈ 1 − 0,0376
    – the 32-digit fraction itself says nothing."""
    from ...lesson import fmt

    miss = numbers.number_in_roll(6, wanted=4)["miss"]
    power = f"({miss.numerator}/{miss.denominator}){str(rolls).translate(POWERS)}"
    approx = fmt.number(_never(rolls), lang, 4)
    return f"1 − {power} ≈ 1 − {approx}" if complement else f"{power} ≈ {approx}"


def _four_fills() -> dict:
    """Question 1's worksheet lines filled in: no 4, at least one 4, then three rolls as a power."""
    roll = numbers.number_in_roll(6, wanted=4)
    miss = roll["miss"]
    power = Term(f"({miss.numerator}/{miss.denominator})³", _never(3))
    return {0: (miss, miss, roll["hit"]), 1: (power, power, Rounded(1 - _never(3)))}


def _circle_fills() -> dict:
    """Question 2's worksheet lines filled in: the grid's groups, the small game's tree (both at once,
    one then the last die alone: 6 of 36, none then both) and the ordered rolls covering six cards."""
    both, one, none = (_groups((1, 2), k) for k in (2, 1, 0))
    tree = numbers.toy_tree((1, 2))
    alone = Counted(int(36 * tree["one_then"]), 36)
    assert alone == tree["one_then"]
    first = _first_roll_covers(DIFFERENT)
    return {0: (both.total, one.total, none.total), 1: (both, one, alone, none, both, _toy_round((1, 2))),
            2: (first.total,)}


def _pairs_fills() -> dict:
    """Question 3's worksheet lines filled in: cards 1 1 (of 36), then 6! over the swaps of each pair."""
    covers = numbers.one_roll_covers(PAIRS)["count"]
    swaps = tuple(math.factorial(PAIRS.count(n)) for n in sorted(set(PAIRS)))
    assert math.factorial(len(PAIRS)) == covers * math.prod(swaps), (covers, swaps)
    return {0: (_groups((1, 1), 2).total,), 1: (*swaps, covers)}


def _groups(cards, k: int) -> Counted:
    """The small game's first roll as the grid counts it: rolls covering ``k`` cards, of 36."""
    share = numbers.toy_tree(cards)[{2: "both", 1: "one", 0: "none"}[k]]
    assert (share * 36).denominator == 1
    return Counted(int(share * 36), 36)


def _pairs_compared() -> set:
    different, pairs = (numbers.circle_probability(c) for c in (DIFFERENT, PAIRS))
    return {"more" if pairs > different else "less" if pairs < different else "same"}


QUESTIONS = (
    Question(
        game="schraube-locker", family=FAMILY, id="schraube-locker-q1", key="q1", kind="choice", core=True,
        title={"de": "Schraube Locker, Frage 1: Kommt die Figur vom Fleck?",
               "en": "Schraube Locker, question 1: does the pawn move at all?"},
        prompt={"de": "Die nächste Karte vor deiner Figur zeigt eine 4. Du würfelst einmal mit sechs Würfeln. Wie oft "
                      "ist mindestens eine 4 dabei?",
                "en": "The next card in front of your pawn shows a 4. You roll all six dice once. How often is there "
                      "at least one 4?"},
        options=tuple(Option(key, label) for key, label, _ in GUESSES), right=_nearest_guess,
        unit="share",
        exact=lambda: numbers.number_in_roll(6, wanted=4)["hit"],
        exact_of={"de": "P(mindestens eine 4 unter sechs Würfeln)", "en": "P(at least one 4 among six dice)"},
        simulation=Simulation(_six_dice, n=4000, seed=7, what={"de": "ein Wurf mit sechs Würfeln",
                                                               "en": "one roll of six dice"}),
        by_hand=ByHand(
            "tree",
            {"de": "Pfadregel: „keine 4“ heißt sechsmal hintereinander „keine 4“; dann das Gegenereignis. Danach der "
                   "Baum für bis zu drei Würfe (ein ganzer Wurf je Ast).",
             "en": "Multiplication rule: “no 4” means six times “no 4” in a row; then the complement. Then the tree "
                   "for up to three rolls (one whole roll per branch)."},
            spec={"tree": {"label": {"de": "Zug", "en": "turn"}, "depth": 3,
                           "branches": [{"de": "4 dabei", "en": "a 4"}, {"de": "keine 4", "en": "no 4"}]}},
            checks=(Check({"de": "P(keine 4 unter sechs Würfeln)", "en": "P(no 4 among six dice)"},
                          lambda: numbers.number_in_roll(6, wanted=4)["miss"], line=0),
                    Check({"de": "P(mindestens eine 4 unter sechs Würfeln)", "en": "P(at least one 4 among six dice)"},
                          lambda: numbers.number_in_roll(6, wanted=4)["hit"], line=0),
                    Check({"de": "P(dreimal keine 4)", "en": "P(three times no 4)"}, _never, line=1,
                          form=lambda lang: _never_form(lang)),
                    Check({"de": "P(die Figur zieht in bis zu drei Würfen)", "en": "P(the pawn moves within three rolls)"},
                          lambda: numbers.first_card_tree(rolls=3)["some"], line=1,
                          form=lambda lang: _never_form(lang, complement=True))),
            fills=_four_fills),
        worksheet={"de": ["P(keine 4) = ______   P(mindestens eine 4) = 1 − ______ = ______",
                          "P(dreimal keine 4) = ______   P(die Figur zieht) = 1 − ______ = ______"],
                   "en": ["P(no 4) = ______   P(at least one 4) = 1 − ______ = ______",
                          "P(three times no 4) = ______   P(the pawn moves) = 1 − ______ = ______"]},
    ),
    Question(
        game="schraube-locker", family=FAMILY, id="schraube-locker-q2", key="q2", kind="share", core=True,
        title={"de": "Schraube Locker, Frage 2: einmal komplett rum", "en": "Schraube Locker, question 2: once round the circle"},
        prompt={"de": "Die Karten zeigen ab der Figur 1 2 3 4 5 6. Wie wahrscheinlich ist einmal komplett rum in einem "
                      "Zug (bis zu drei Würfe, jeder passende Würfel wird gelegt)?",
                "en": "From the pawn on, the cards show 1 2 3 4 5 6. How likely is going once round the circle in one "
                      "turn (up to three rolls, every fitting die placed)?"},
        bins=share_bins(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100),
        unit="share",
        exact=lambda: numbers.circle_probability(DIFFERENT),
        exact_of={"de": "P(einmal komplett rum), Karten 1 2 3 4 5 6", "en": "P(once round), cards 1 2 3 4 5 6"},
        simulation=Simulation(_round_the_circle(DIFFERENT), n=1000, seed=2,
                              what={"de": "ein Zug der Engine, Karten 1 2 3 4 5 6",
                                    "en": "one turn of the engine, cards 1 2 3 4 5 6"}),
        by_hand=ByHand(
            "grid",
            {"de": "Erst im Kleinen: Karten 1 und 2, zwei Würfel, zwei Würfe. Trage in jedes Feld ein, wie viele Karten "
                   "der erste Wurf belegt (2, 1 oder 0), dann der Baum. Danach: Wie viele der 6⁶ Würfe belegen alle "
                   "sechs Karten auf einmal?",
             "en": "Small first: cards 1 and 2, two dice, two rolls. Write in every cell how many cards the first roll "
                   "covers (2, 1 or 0), then the tree. Then: how many of the 6⁶ rolls cover all six cards at once?"},
            spec={"grid": {"title": {"de": "Karten 1 und 2: der erste Wurf", "en": "Cards 1 and 2: the first roll"}}},
            checks=(Check({"de": "beide", "en": "both"}, lambda: _groups((1, 2), 2), line=0),
                    Check({"de": "eine", "en": "one"}, lambda: _groups((1, 2), 1), line=0),
                    Check({"de": "keine", "en": "none"}, lambda: _groups((1, 2), 0), line=0),
                    Check({"de": "P(rum im kleinen Spiel)", "en": "P(round in the small game)"},
                          lambda: _toy_round((1, 2)), line=1),
                    Check({"de": "P(alle sechs Karten schon mit dem ersten Wurf)", "en": "P(all six cards with the first roll)"},
                          lambda: _first_roll_covers(DIFFERENT), line=2)),
            fills=_circle_fills),
        worksheet={"de": ["beide: ____ von 36   eine: ____ von 36   keine: ____ von 36",
                          "P(rum) = ______ + ______ · ______ + ______ · ______ = ______",
                          "Sechs Karten, erster Wurf: 6 · 5 · 4 · 3 · 2 · 1 = ______ von 6⁶ = 46656 Würfen"],
                   "en": ["both: ____ of 36   one: ____ of 36   none: ____ of 36",
                          "P(round) = ______ + ______ × ______ + ______ × ______ = ______",
                          "Six cards, first roll: 6 × 5 × 4 × 3 × 2 × 1 = ______ of 6⁶ = 46656 rolls"]},
    ),
    Question(
        game="schraube-locker", family=FAMILY, id="schraube-locker-q3", key="q3", kind="choice", core=True,
        title={"de": "Schraube Locker, Frage 3: Was ändern doppelte Zahlen?",
               "en": "Schraube Locker, question 3: what do repeated numbers change?"},
        prompt={"de": "Die Karten zeigen ab der Figur 1 1 2 2 3 3. Gelingt einmal komplett rum öfter oder seltener als "
                      "mit 1 2 3 4 5 6?",
                "en": "From the pawn on, the cards show 1 1 2 2 3 3. Does the pawn go once round more or less often "
                      "than with 1 2 3 4 5 6?"},
        options=(Option("more", {"de": "öfter", "en": "more often"}),
                 Option("same", {"de": "etwa gleich oft", "en": "about as often"}),
                 Option("less", {"de": "seltener", "en": "less often"})),
        right=_pairs_compared,
        unit="share",
        exact=lambda: numbers.circle_probability(PAIRS),
        exact_of={"de": "P(einmal komplett rum), Karten 1 1 2 2 3 3", "en": "P(once round), cards 1 1 2 2 3 3"},
        simulation=Simulation(_round_the_circle(PAIRS), n=1000, seed=3,
                              what={"de": "ein Zug der Engine, Karten 1 1 2 2 3 3",
                                    "en": "one turn of the engine, cards 1 1 2 2 3 3"}),
        by_hand=ByHand(
            "count",
            {"de": "Im Kleinen: Karten 1 und 1 statt 1 und 2 (dein Gitter). Bei sechs Karten: Vertauscht man zwei "
                   "Würfel mit derselben Zahl, entsteht derselbe Wurf – 6! durch die Vertauschungen teilen.",
             "en": "Small first: cards 1 and 1 instead of 1 and 2 (your grid). With six cards: swapping two dice with "
                   "the same number gives the same roll – divide 6! by the swaps."},
            checks=(Check({"de": "Karten 1 und 1: P(der erste Wurf belegt beide)", "en": "cards 1 and 1: P(the first roll covers both)"},
                          lambda: _groups((1, 1), 2), line=0),
                    Check({"de": "geordnete Würfe, die 1 1 2 2 3 3 auf einmal belegen", "en": "ordered rolls covering 1 1 2 2 3 3 at once"},
                          lambda: numbers.one_roll_covers(PAIRS)["count"], line=1)),
            fills=_pairs_fills),
        worksheet={"de": ["Karten 1 1: ____ von 36 Würfen belegen beide Karten",
                          "1 1 2 2 3 3 auf einmal: 6! : ( ____ · ____ · ____ ) = ______ von 46656 Würfen"],
                   "en": ["Cards 1 1: ____ of 36 rolls cover both cards",
                          "1 1 2 2 3 3 at once: 6! ÷ ( ____ × ____ × ____ ) = ______ of 46656 rolls"]},
    ),
)
