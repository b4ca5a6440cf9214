"""Würfel Joker's lesson questions (notebooks/*/wuerfel-joker.ipynb), declared once: every exact
value asks the games' own analysis (spiel1, spiel2), every simulation is seeded.

The lesson and the worksheet read the rules as the engine does: a difference is the larger die
minus the smaller (never a negative intermediate result), and with slide 5 up the ± 5 comes after
the first operation, whose result may exceed 9 (6 · 2 − 5 = 7)."""

from __future__ import annotations

from fractions import Fraction

from ...core.questions import ByHand, Check, Counted, Option, Question, Rounded, Simulation, share_bins
from ...core.rng import Rng
from .spiel1 import analysis as game1
from .spiel2 import analysis as game2
from .spiel2 import engine as rules2

SLIDES = range(1, 10)
FAMILY = "wuerfel-joker"


def _up_but(*down):
    return [v for v in SLIDES if v not in down]


def _pushes(up) -> Counted:
    """P(a roll pushes) as the grid counts it: pushing rolls of the rolls that count (useless doubles are
    rolled again), e.g. 14 of 32 with only 9 down: the analysis's own counts and chance."""
    c = game2.throw_counts(up)
    out = Counted(c["push"], c["push"] + c["bust"])
    assert out == game2.counted_push_chance(up)
    return out


def _roll_again(*down) -> Counted:
    """E(roll again) as the by-hand work adds it up: the points of every roll that counts, over their
    number (−820/32 with only 9 down); the solver's throw value, checked equal."""
    table = game2.throw_table(_up_but(*down))
    counted = [value for kind, _, value in table.values() if kind != "again"]
    exact = game2.solve({}).throw_value(game2.mask_of(_up_but(*down)))
    total = sum(counted)
    if Fraction(total).denominator != 1:  # the values after a push are themselves means: no count by hand
        return exact
    out = Counted(int(total), len(counted))
    assert out == exact
    return out


def _better_with_9_down() -> set:
    """Question 2's right option: roll again where best play goes on with only 9 down, else stop."""
    return {"throw" if game2.solve({}).goes_on(game2.mask_of(_up_but(9))) else "stop"}


def _push_fills() -> dict:
    """Question 1's worksheet lines filled in: ticked and empty cells, then P = ticked : counted."""
    p = _pushes(_up_but(9))
    return {0: (_grid_marks("push"), _grid_marks("bust")), 1: (p.total, p.of, Rounded(p))}


def _roll_again_fills() -> dict:
    """Question 2's worksheet lines filled in: ( pushes · 45 + the busts' points ) : rolls that count,
    from the game's own table of the rolls (every push is worth 45, checked)."""
    table = game2.throw_table(_up_but(9))
    pushes = [value for kind, _, value in table.values() if kind == "push"]
    busts = [value for kind, _, value in table.values() if kind == "bust"]
    assert all(v == 45 for v in pushes), pushes
    mean = _roll_again(9)
    assert Fraction(45 * len(pushes) + sum(busts), len(pushes) + len(busts)) == mean
    better = _better(_better_with_9_down(), CHOICE_STOP)
    return {0: (len(pushes), Fraction(sum(busts)), len(pushes) + len(busts), Rounded(mean)), 1: (better,)}


def _joker_fills() -> dict:
    chances = game1.joker_throw_chances(3)
    return {0: (chances["no_1"],), 1: (chances["no_1"], chances["at_least_one_1"])}


def _grid_marks(kind: str) -> int:
    """Question 1's grid with only 9 down: the rolls ticked ("push") or left empty ("bust"), the game's counts."""
    return game2.throw_counts(_up_but(9))[kind]


def _better(right: set, options) -> dict:
    """The worksheet's "Besser ist: ___": the right option's label, from the declaration."""
    return {lang: ", ".join(o.label[lang] for o in options if o.key in right) for lang in ("de", "en")}


def _last_slide_chances() -> dict:
    """P(the last slide goes up) per last slide, useless doubles not counted (they are rolled again)."""
    return {v: _pushes(_up_but(v)) for v in SLIDES}


def _easiest() -> set:
    chance = _last_slide_chances()
    best = max(chance.values())
    return {str(v) for v in SLIDES if chance[v] == best}


def _last_slide_rolls(n: int, seed: int) -> list:
    """n rolls that count, with only the (first) easiest slide down: does it go up?"""
    table = game2.throw_table(_up_but(min(int(v) for v in _easiest())))
    rng = Rng(seed)
    out = []
    while len(out) < n:
        kind = table[(rng.die(), rng.die())][0]
        if kind != "again":  # a useless double is rolled again
            out.append(kind == "push")
    return out


def _turn_points(down: tuple, n: int, seed: int) -> list:
    """n turns from the throw with ``down`` still down (slide 5 up), then played best: their points."""
    best = game2.solve({})
    rng = Rng(seed)
    out = []
    for _ in range(n):
        state = rules2.Spiel2Game(1, {"rounds": 1}).position(up=_up_but(*down))  # the dice are about to roll
        while not state.is_terminal():
            if state.current_player() < 0:
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(best.best_action(state))
        out.append(state.totals[0])
    return out


CHOICE_STOP = (Option("stop", {"de": "aufhören", "en": "stop"}),
               Option("throw", {"de": "weiterwürfeln", "en": "roll again"}))

READING = {
    "de": "Lesart des Programms: Minus heißt größere minus kleinere Augenzahl (nie ein negatives Zwischenergebnis); "
          "mit der 5 oben kommt ± 5 nach der ersten Rechnung, deren Ergebnis größer als 9 sein darf (6 · 2 − 5 = 7). "
          "Ein Pasch ohne Nutzen wird neu gewürfelt und zählt nicht mit.",
    "en": "The program's reading: minus means the larger die minus the smaller (never a negative intermediate "
          "result); with slide 5 up, ± 5 comes after the first operation, whose result may exceed 9 "
          "(6 × 2 − 5 = 7). A useless double is rolled again and does not count.",
}

QUESTIONS = (
    Question(
        game="wuerfel-joker-2", family=FAMILY, id="wuerfel-joker-q1", key="q1", kind="choice", core=True,
        title={"de": "Würfel Joker, Frage 1: der leichteste letzte Schieber",
               "en": "Würfel Joker, question 1: the easiest last slide"},
        prompt={"de": "Spiel 2: Nur noch ein Schieber ist unten, alle anderen (auch die 5) sind oben. Welcher geht mit "
                      "einem Wurf am leichtesten hoch? (Minus: größere minus kleinere Augenzahl, kein negatives "
                      "Zwischenergebnis.)",
                "en": "Game 2: only one slide is left down, all others (slide 5 too) are up. Which one is easiest to "
                      "push with one roll? (Minus: the larger die minus the smaller, no negative intermediate result.)"},
        notes=READING,
        options=tuple(Option(str(v), {"de": str(v), "en": str(v)}) for v in SLIDES),
        right=_easiest,
        values=lambda: {str(v): p for v, p in _last_slide_chances().items()},
        unit="share",
        exact=lambda: max(_last_slide_chances().values()),
        exact_of={"de": "P(der leichteste letzte Schieber geht hoch)", "en": "P(the easiest last slide goes up)"},
        simulation=Simulation(_last_slide_rolls, n=5000, seed=2026,
                              what={"de": "ein zählender Wurf, nur der leichteste Schieber unten",
                                    "en": "one roll that counts, only the easiest slide down"}),
        by_hand=ByHand(
            "grid",
            {"de": "Nur die 9 ist unten, die 5 ist oben: Kreuze die Würfe an, die die 9 schieben können (+, −, ·, :, "
                   "dann ± 5; Minus: größere minus kleinere Augenzahl, nie ein negatives Zwischenergebnis; ein Pasch auch "
                   "seine Augenzahl). Kreise die Pasche ein, die sie nicht schieben können: "
                   "Sie werden neu gewürfelt und zählen nicht.",
             "en": "Only 9 is down, slide 5 is up: tick the rolls that can push the 9 (+, −, ×, ÷, then ± 5; minus: the "
                   "larger die minus the smaller, never a negative intermediate result; a double also its own number). Circle the doubles that cannot push it: they are rolled again and do not "
                   "count."},
            spec={"grid": {"labels": "sum", "title": {"de": "Nur die 9 ist unten, die 5 ist oben",
                                                       "en": "Only 9 is down, slide 5 is up"}}},
            checks=(Check({"de": "angekreuzt", "en": "ticked"}, lambda: _grid_marks("push"), line=0),
                    Check({"de": "leer gelassen", "en": "left empty"}, lambda: _grid_marks("bust"), line=0),
                    Check({"de": "P(die 9 geht hoch)", "en": "P(the 9 goes up)"},
                          lambda: _pushes(_up_but(9)), line=1)),
            fills=_push_fills),
        worksheet={"de": ["Angekreuzt: ______   leer gelassen: ______",
                          "P(die 9 geht hoch) = ______ : ______ ≈ ______ %"],
                   "en": ["Ticked: ______   left empty: ______", "P(the 9 goes up) = ______ ÷ ______ ≈ ______%"]},
    ),
    Question(
        game="wuerfel-joker-2", family=FAMILY, id="wuerfel-joker-q2", key="q2", kind="choice", core=True,
        title={"de": "Würfel Joker, Frage 2: aufhören oder weiterwürfeln?",
               "en": "Würfel Joker, question 2: stop or roll again?"},
        prompt={"de": "Spiel 2: Nur die 9 ist unten, die 5 ist oben. Was bringt auf lange Sicht mehr Punkte: aufhören "
                      "(−9) oder weiterwürfeln (+45, wenn die 9 hochgeht; sonst −(9 + Augensumme) · 5)?",
                "en": "Game 2: only 9 is down, slide 5 is up. Which gives more points in the long run: stop (−9) or "
                      "roll again (+45 if the 9 goes up; else −(9 + the roll's total) × 5)?"},
        notes=READING,
        options=CHOICE_STOP,
        right=_better_with_9_down,
        values=lambda: {"stop": game2.solve({}).stop_value(game2.mask_of(_up_but(9))),
                        "throw": _roll_again(9)},
        unit="points",
        exact=lambda: _roll_again(9),
        exact_of={"de": "E(weiterwürfeln) mit nur der 9 unten", "en": "E(roll again) with only 9 down"},
        simulation=Simulation(lambda n, seed: _turn_points((9,), n, seed), n=2000, seed=2026,
                              what={"de": "ein Zug ab „nur die 9 unten“, weitergewürfelt, dann bestens gespielt",
                                    "en": "one turn from “only 9 down”, rolled on, then played best"}),
        by_hand=ByHand(
            "calc",
            {"de": "Der Mittelwert der Punkte aller zählenden Würfe (Gitter von Frage 1): +45, wenn die 9 hochgeht, "
                   "sonst −(9 + Augensumme) · 5; mit dem Aufhören (−9) vergleichen.",
             "en": "The mean of the points of all rolls that count (grid of question 1): +45 if the 9 goes up, else "
                   "−(9 + the roll's total) × 5; compare with stopping (−9)."},
            spec={"grid": {"labels": "points", "from": "wuerfel-joker-q1"}},
            checks=(Check({"de": "E(weiterwürfeln) in Punkten", "en": "E(roll again) in points"},
                          lambda: _roll_again(9), line=0),
                    Check({"de": "besser ist", "en": "better"},
                          lambda: _better(_better_with_9_down(),
                                          CHOICE_STOP), line=1)),
            fills=_roll_again_fills),
        worksheet={"de": ["E(weiterwürfeln) = ( ______ · 45 + ____________ ) : ______ ≈ ______ Punkte",
                          "Besser ist: ______________"],
                   "en": ["E(roll again) = ( ______ × 45 + ____________ ) ÷ ______ ≈ ______ points",
                          "Better: ______________"]},
    ),
    Question(
        game="wuerfel-joker-1", family=FAMILY, id="wuerfel-joker-q3", key="q3", kind="share", core=True,
        title={"de": "Würfel Joker, Frage 3: mindestens eine 1", "en": "Würfel Joker, question 3: at least one 1"},
        prompt={"de": "Spiel 1, in die Joker: Wie wahrscheinlich ist mindestens eine 1 unter drei Würfeln?",
                "en": "Game 1, into the jokers: how likely is at least one 1 among three dice?"},
        bins=share_bins(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100),
        unit="share",
        exact=lambda: game1.joker_throw_chances(3)["at_least_one_1"],
        exact_of={"de": "P(mindestens eine 1 unter drei Würfeln)", "en": "P(at least one 1 among three dice)"},
        simulation=Simulation(lambda n, seed: (lambda rng: [1 in (rng.die(), rng.die(), rng.die()) for _ in range(n)])(Rng(seed)),
                              n=4000, seed=7, what={"de": "ein Jokerwurf mit drei Würfeln",
                                                    "en": "one joker roll with three dice"}),
        by_hand=ByHand(
            "tree",
            {"de": "Trage an jedem Ast die Wahrscheinlichkeit ein. Pfadregel: entlang eines Pfades multiplizieren; "
                   "dann das Gegenereignis.",
             "en": "Write the probability on every branch. Multiplication rule: multiply along a path; then the "
                   "complement."},
            spec={"tree": {"label": {"de": "Wurf", "en": "roll"}, "depth": 3,
                           "branches": [{"de": "1", "en": "1"}, {"de": "keine 1", "en": "no 1"}]}},
            checks=(Check({"de": "P(keine 1)", "en": "P(no 1)"}, lambda: game1.joker_throw_chances(3)["no_1"], line=0),
                    Check({"de": "P(mindestens eine 1)", "en": "P(at least one 1)"},
                          lambda: game1.joker_throw_chances(3)["at_least_one_1"], line=1)),
            fills=_joker_fills),
        worksheet={"de": ["P(keine 1) = ______", "P(mindestens eine 1) = 1 − ______ = ______"],
                   "en": ["P(no 1) = ______", "P(at least one 1) = 1 − ______ = ______"]},
    ),
    Question(
        game="wuerfel-joker-2", family=FAMILY, id="wuerfel-joker-q4", key="q4", kind="choice", core=False,
        title={"de": "Würfel Joker, Erweiterung A: 8 und 9 unten", "en": "Würfel Joker, extension A: 8 and 9 down"},
        prompt={"de": "Spiel 2: Nur 8 und 9 sind unten, die 5 ist oben. Was bringt auf lange Sicht mehr Punkte?",
                "en": "Game 2: only 8 and 9 are down, slide 5 is up. Which gives more points in the long run?"},
        notes=READING,
        options=CHOICE_STOP,
        right=lambda: {"throw" if game2.solve({}).goes_on(game2.mask_of(_up_but(8, 9))) else "stop"},
        values=lambda: {"stop": game2.solve({}).stop_value(game2.mask_of(_up_but(8, 9))),
                        "throw": game2.solve({}).throw_value(game2.mask_of(_up_but(8, 9)))},
        unit="points",
        exact=lambda: game2.solve({}).throw_value(game2.mask_of(_up_but(8, 9))),
        exact_of={"de": "E(weiterwürfeln) mit 8 und 9 unten", "en": "E(roll again) with 8 and 9 down"},
        simulation=Simulation(lambda n, seed: _turn_points((8, 9), n, seed), n=2000, seed=8,
                              what={"de": "ein Zug ab „8 und 9 unten“, weitergewürfelt, dann bestens gespielt",
                                    "en": "one turn from “8 and 9 down”, rolled on, then played best"}),
    ),
)
