"""Scratch Island's lesson questions (notebooks/*/scratch-island.ipynb), declared once. All play on
player 1's map of page 1 of the (reconstructed) map book; what lies under a cell is counted from what
anyone can see (snakes and plain cells left), and the simulations hide it anew with the map generator."""

from __future__ import annotations

from fractions import Fraction

from ...core.questions import ByHand, Check, Counted, Option, Question, Rounded, Simulation, share_bins, whole_bins
from . import lesson as si
from .analysis import snake_chance
from .engine import SNAKE

FAMILY = "scratch-island"
PAGE = 1
LINE = ("F9", "E9", "D9", "C9")  # question 2: the 4-line, dug in this order from the boat's row
PATH = ("F10", "F9", "F8", "F7")  # question 3: the first 4-line, nothing under F9, F8, F7
CROSS_LINE = ("G7", "G8", "G9", "G10")  # question 3: G7 is a cross


def _cells(names):
    return [si.cell(n) for n in names]


def _t4():
    return si.boat_covers(si.start_view(PAGE).layout, "T4")


def _why(reason: str) -> int:
    """Question 1's tries the student crosses out for ``reason`` ("off": over the edge, "rock")."""
    return sum(1 for t in _t4()["tries"] if t["why"] == reason)


def _all_free(view, cells) -> Counted:
    """P(no snake under ``cells``) as the tree multiplies it: the product of the cells' free-left
    counts over the product of their plain-left counts (the game's own steps), unreduced."""
    steps = si.snake_steps(view, cells)
    top = bottom = 1
    for step in steps:
        top, bottom = top * step["free_left"], bottom * step["plain_left"]
    out = Counted(top, bottom)
    assert out == steps[-1]["all_free"]
    return out


def _steps(view, cells) -> tuple:
    """The tree's factors along the path "free": free cells left over plain cells left, one per cell."""
    return tuple(Counted(step["free_left"], step["plain_left"]) for step in si.snake_steps(view, cells))


def _t4_fills() -> dict:
    """Question 1's worksheet lines filled in: orientations times cells, then the tries sorted out."""
    t4 = _t4()
    return {0: (t4["orientations"], len(t4["tries"]) // t4["orientations"], t4["total"]),
            1: (_why("off"), _why("rock"), t4["legal"])}


def _line_fills() -> dict:
    """Question 2's worksheet lines filled in: the four factors of "all four free", then the complement."""
    free = _free_line()
    return {0: (*_steps(_after_boat(), _cells(LINE)), Rounded(free)), 1: (Fraction(free), Rounded(_snake_under_line()))}


def _cross_fills() -> dict:
    """Question 3's worksheet lines filled in: cross first, keys left over crosses left; cross last,
    the three factors of "G10, G9, G8 free", then the key."""
    view = si.start_view(PAGE).after(_cells(PATH))
    first = Counted(len(view.keys_left), view.crosses_left)
    assert first == _key_chances()["first"]
    free = _free_before_cross()
    return {0: (first,), 1: (*_steps(view, _cells(CROSS_LINE)[:0:-1]), Rounded(free), Rounded(_key_cross_last()))}


def _free_line():
    return _all_free(_after_boat(), _cells(LINE))


def _free_before_cross():
    return _all_free(si.start_view(PAGE).after(_cells(PATH)), _cells(CROSS_LINE)[:0:-1])


def _key_cross_last() -> Counted:
    """Cross last: three free, then a key under the cross (keys left : crosses left), unreduced."""
    view = si.start_view(PAGE).after(_cells(PATH))
    free = _free_before_cross()
    share = Fraction(len(view.keys_left), view.crosses_left)  # as cross first: keys left : crosses left
    out = Counted(free.total * share.numerator, free.of * share.denominator)
    assert out == _key_chances()["last"]
    return out


def _after_boat():
    view = si.start_view(PAGE)
    return view.after([view.layout.boat])


def _snake_under_line():
    return snake_chance(_after_boat(), _cells(LINE))


def _snakes_sampled(n: int, seed: int) -> list:
    cells = _cells(LINE)
    return [any(k[c] == SNAKE for c in cells) for k in si.hidden_samples(PAGE, 0, n, seed)]


def _key_chances() -> dict:
    now = si.start_view(PAGE).after(_cells(PATH))
    line = _cells(CROSS_LINE)
    return {"first": si.order_report(now, line)["keys"], "last": si.order_report(now, line[::-1])["keys"]}


def _better_order() -> set:
    v = _key_chances()
    return {"same"} if v["first"] == v["last"] else {max(v, key=v.get)}


def _keys_cross_last(n: int, seed: int) -> list:
    order = _cells(CROSS_LINE)[::-1]
    return [bool(si.dig(k, order)["keys"]) for k in si.hidden_samples(PAGE, 0, n, seed, empty=_cells(PATH))]


RECONSTRUCTION = {"de": "Karten und Kartengenerator sind eine Rekonstruktion; die Schlangen liegen gleichmäßig unter "
                        "den normalen Feldern.",
                  "en": "The maps and the map generator are a reconstruction; the snakes lie uniformly under the "
                        "plain cells."}

QUESTIONS = (
    Question(
        game="scratch-island", family=FAMILY, id="scratch-island-q1", key="q1", kind="number", core=True,
        title={"de": "Scratch Island, Frage 1: das 4er-T über dem Boot", "en": "Scratch Island, question 1: the 4-T over the boat"},
        prompt={"de": "Dein erstes Motiv, das 4er-T, muss das Boot (F10, unterste Reihe) bedecken; drehen ja, spiegeln "
                      "nein, kein Fels, keine Wand, ganz auf der Karte. Auf wie viele verschiedene Arten passt es?",
                "en": "Your first motif, the 4-T, must cover the boat (F10, bottom row); turning yes, mirroring no, no "
                      "rock, no wall, all on the map. In how many different ways does it fit?"},
        notes={"de": "Entscheidung D1: Motive werden gedreht, nicht gespiegelt. Eine Art ist eine Lage mit einem ihrer "
                     "Felder auf dem Boot.",
               "en": "Decision D1: motifs are turned, not mirrored. A way is a placement: an orientation with one of its "
                     "cells on the boat."},
        bins=whole_bins(*range(1, 18)), unit="count",
        exact=lambda: _t4()["legal"],
        exact_of={"de": "passende Versuche, das 4er-T über dem Boot", "en": "tries that fit, the 4-T over the boat"},
        simulation=Simulation(lambda n, seed: [bool(x) for x in si.random_tries(si.start_view(PAGE).layout, "T4", n, seed)],
                              n=2000, seed=2026, scale=16,
                              what={"de": "blind gelegt (Anteil, der passt, mal 16 Versuche)",
                                    "en": "placed blind (share that fits, times 16 tries)"}),
        by_hand=ByHand(
            "count",
            {"de": "Zeichne das 4er-T in jeder Lage, die durch Drehen entsteht. Lagen mal Felder = Versuche; streiche "
                   "jeden Versuch, der über den Rand ragt oder einen Fels trifft.",
             "en": "Draw the 4-T in every orientation turning gives. Orientations times cells = tries; cross out every try "
                   "that sticks out over the edge or hits a rock."},
            checks=(Check({"de": "Lagen", "en": "orientations"}, lambda: _t4()["orientations"], line=0),
                    Check({"de": "Felder je Lage", "en": "cells per orientation"},
                          lambda: len(_t4()["tries"]) // _t4()["orientations"], line=0),
                    Check({"de": "Versuche insgesamt", "en": "tries in all"}, lambda: _t4()["total"], line=0),
                    Check({"de": "ragen über den Rand", "en": "stick out over the edge"}, lambda: _why("off"), line=1),
                    Check({"de": "treffen den Fels", "en": "hit the rock"}, lambda: _why("rock"), line=1),
                    Check({"de": "davon passen", "en": "of which fit"}, lambda: _t4()["legal"], line=1)),
            fills=_t4_fills),
        worksheet={"de": ["Lagen: ______ · Felder je Lage: ______ = ______ Versuche",
                          "ragen über den Rand: ______   treffen den Fels: ______   passen: ______"],
                   "en": ["Orientations: ______ × cells per orientation: ______ = ______ tries",
                          "stick out over the edge: ______   hit the rock: ______   fit: ______"]},
    ),
    Question(
        game="scratch-island", family=FAMILY, id="scratch-island-q2", key="q2", kind="share", core=True,
        title={"de": "Scratch Island, Frage 2: eine Schlange unter der 4er-Linie?",
               "en": "Scratch Island, question 2: a snake under the 4-line?"},
        prompt={"de": "Gerubbelt ist nur das Boot. Wie wahrscheinlich liegt unter der 4er-Linie F9, E9, D9, C9 "
                      "mindestens eine Schlange?",
                "en": "Only the boat is scratched. How likely is at least one snake under the 4-line F9, E9, D9, C9?"},
        notes=RECONSTRUCTION,
        bins=share_bins(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100), unit="share",
        exact=_snake_under_line,
        exact_of={"de": "P(mindestens eine Schlange unter F9, E9, D9, C9)",
                  "en": "P(at least one snake under F9, E9, D9, C9)"},
        simulation=Simulation(_snakes_sampled, n=1000, seed=22,
                              what={"de": "eine Karte aus dem Generator", "en": "one map from the generator"}),
        by_hand=ByHand(
            "tree",
            {"de": "Erst zwei Felder, F9 und E9: an jedem Ast Schlangen übrig : normale Felder übrig (Pfadregel, ohne "
                   "Zurücklegen); dann den Pfad „frei“ um D9 und C9 fortsetzen und das Gegenereignis.",
             "en": "Two cells first, F9 and E9: on every branch snakes left ÷ plain cells left (multiplication rule, "
                   "without replacement); then continue the path “free” over D9 and C9 and take the complement."},
            spec={"tree": {"label": {"de": "Start", "en": "start"}, "depth": 2,
                           "branches": [{"de": "Schlange", "en": "snake"}, {"de": "frei", "en": "free"}]}},
            checks=(Check({"de": "P(alle vier frei)", "en": "P(all four free)"}, _free_line, line=0),
                    Check({"de": "P(mindestens eine Schlange)", "en": "P(at least one snake)"}, _snake_under_line,
                          line=1)),
            fills=_line_fills),
        worksheet={"de": ["P(alle vier frei) = ______ · ______ · ______ · ______ ≈ ______",
                          "P(mindestens eine Schlange) = 1 − ______ ≈ ______"],
                   "en": ["P(all four free) = ______ × ______ × ______ × ______ ≈ ______",
                          "P(at least one snake) = 1 − ______ ≈ ______"]},
    ),
    Question(
        game="scratch-island", family=FAMILY, id="scratch-island-q3", key="q3", kind="choice", core=True,
        title={"de": "Scratch Island, Frage 3: Kreuz zuerst oder zuletzt?",
               "en": "Scratch Island, question 3: the cross first or last?"},
        prompt={"de": "Unter F9, F8, F7 lag nichts. Du rubbelst die 4er-Linie G7 bis G10; G7 ist ein Kreuz. Wann ist "
                      "die Chance größer, in diesem Zug unter G7 einen Schlüssel zu finden – Kreuz zuerst oder zuletzt?",
                "en": "There was nothing under F9, F8, F7. You scratch the 4-line G7 to G10; G7 is a cross. When is the "
                      "chance of finding a key under G7 in this turn higher – the cross first or last?"},
        notes={"de": "In diesem Zug: Eine Schlange unter G10, G9 oder G8 beendet den Zug, bevor G7 gerubbelt ist. "
                     + RECONSTRUCTION["de"],
               "en": "In this turn: a snake under G10, G9 or G8 ends the turn before G7 is scratched. "
                     + RECONSTRUCTION["en"]},
        options=(Option("first", {"de": "Kreuz zuerst", "en": "cross first"}),
                 Option("last", {"de": "Kreuz zuletzt", "en": "cross last"}),
                 Option("same", {"de": "egal", "en": "no difference"})),
        right=_better_order, values=_key_chances,
        values_of={"de": "P(Schlüssel unter G7 in diesem Zug)", "en": "P(a key under G7 in this turn)"},
        unit="share",
        exact=lambda: _key_chances()["last"],
        exact_of={"de": "P(Schlüssel unter G7 in diesem Zug), Kreuz zuletzt",
                  "en": "P(a key under G7 in this turn), cross last"},
        simulation=Simulation(_keys_cross_last, n=500, seed=31,
                              what={"de": "eine passende Karte aus dem Generator, Kreuz zuletzt gerubbelt",
                                    "en": "one fitting map from the generator, cross scratched last"}),
        by_hand=ByHand(
            "tree",
            {"de": "Kreuz zuerst: Schlüssel übrig : Kreuze übrig. Kreuz zuletzt: erst G10, G9, G8 ohne Schlange "
                   "(Pfadregel wie in Frage 2, neue Zahlen), dann der Schlüssel.",
             "en": "Cross first: keys left ÷ crosses left. Cross last: first G10, G9, G8 without a snake "
                   "(multiplication rule as in question 2, new numbers), then the key."},
            spec={"tree": {"label": {"de": "Start", "en": "start"}, "depth": 2,
                           "branches": [{"de": "Schlange", "en": "snake"}, {"de": "drei frei", "en": "all three free"}]}},
            checks=(Check({"de": "Kreuz zuerst: P(Schlüssel)", "en": "cross first: P(key)"}, lambda: _key_chances()["first"],
                          line=0),
                    Check({"de": "Kreuz zuletzt: P(G10, G9 und G8 frei)", "en": "cross last: P(G10, G9 and G8 free)"},
                          _free_before_cross, line=1),
                    Check({"de": "Kreuz zuletzt: P(Schlüssel)", "en": "cross last: P(key)"}, _key_cross_last, line=1)),
            fills=_cross_fills),
        worksheet={"de": ["Kreuz zuerst: P(Schlüssel) = ______",
                          "Kreuz zuletzt: P(drei frei) = ______ · ______ · ______ ≈ ______   P(Schlüssel) ≈ ______"],
                   "en": ["Cross first: P(key) = ______",
                          "Cross last: P(all three free) = ______ × ______ × ______ ≈ ______   P(key) ≈ ______"]},
    ),
)
