"""Tüfteln's lesson questions (notebooks/*/tuefteln.ipynb), declared once: exact values from the
game's analysis and lesson numbers, seeded simulations. A square's four numbers run clockwise from
the top left (0: an empty place); the lesson's assumption is that empty places are filled at random."""

from __future__ import annotations

from fractions import Fraction

from ...core.questions import ByHand, Check, Counted, Option, Question, Rounded, Simulation, whole_bins
from ...core.rng import Rng
from . import analysis
from . import lesson_numbers as numbers

FAMILY = "tuefteln"
ACROSS = (0, 1, 0, 1)  # the 1s top right and bottom left; the dice go top left, then bottom right
BESIDE = (1, 1, 0, 0)  # the 1s top left and top right; the dice go bottom left, then bottom right
SQUARES = {"ueber_eck": ACROSS, "daneben": BESIDE}

WHERE = (Option("daneben", {"de": "die 1 daneben", "en": "the 1 beside it"}),
         Option("ueber_eck", {"de": "die 1 über Eck", "en": "the 1 across the corner"}))
# "equal" as each question's poll in the notebook words it: as often (question 1), as many points (question 2)
WHERE_Q1 = WHERE + (Option("gleich", {"de": "gleich oft", "en": "equally often"}),)
WHERE_Q2 = WHERE + (Option("gleich", {"de": "gleich viel", "en": "the same"}),)

RANDOM_FILL = {"de": "Annahme: Die leeren Felder bekommen zufällige Würfelzahlen, ohne Plan (im Spiel wählt man).",
               "en": "Assumption: the empty places get random dice, no plan (in the game you choose)."}


def _counted(p, of: int) -> Counted:
    """``p`` as the lesson counts it: out of ``of`` equally likely fillings (30/36 = 5/6)."""
    total = p * of
    assert total.denominator == 1, (p, of)
    return Counted(int(total), of)


def _fillings(square) -> int:
    return 6 ** square.count(0)  # the grid: one fair die per empty place


def _zero_chance() -> dict:
    return {k: _counted(numbers.points_distribution(sq)[0], _fillings(sq)) for k, sq in SQUARES.items()}


def _mean_points() -> dict:
    return {k: _counted(analysis.distribution_summary(numbers.points_distribution(sq))["mean"], _fillings(sq))
            for k, sq in SQUARES.items()}


def _larger(values: dict) -> set:
    a, b = values["daneben"], values["ueber_eck"]
    return {"gleich"} if a == b else {"daneben" if a > b else "ueber_eck"}


def _fill_points(square, n: int, seed: int) -> list:
    return numbers.random_fillings(square, n, Rng(seed))


def _zeros() -> int:
    """Question 1's grid, the 1 across the corner: fillings that score 0, of 36."""
    return _zero_chance()["ueber_eck"].total


def _larger_words(values: dict) -> dict:
    """The worksheet's "Im Mittel mehr Punkte: ___": the option the values make right."""
    right = _larger(values)
    return {lang: ", ".join(o.label[lang] for o in WHERE_Q2 if o.key in right) for lang in ("de", "en")}


def _zero_fills() -> dict:
    """Question 1's worksheet lines filled in: the fillings that score 0 (of 36), then P(0 points)."""
    p = _zero_chance()["ueber_eck"]
    return {0: (p.total,), 1: (p, Rounded(p))}


def _mean_fills() -> dict:
    """Question 2's worksheet lines filled in: the points of the 36 fillings added up, over 36; across the
    corner as the grid of question 1 counts it (fillings worth 4 and worth 5, the only ones that score)."""
    means = _mean_points()
    across = numbers.points_distribution(ACROSS)
    assert set(across) <= {0, 4, 5}, across
    fours, fives = (int(across.get(k, 0) * 36) for k in (4, 5))
    assert Fraction(4 * fours + 5 * fives, 36) == means["ueber_eck"]
    return {0: (means["daneben"].total, Rounded(means["daneben"])), 1: (fours, fives, Rounded(means["ueber_eck"])),
            2: (_larger_words(means),)}


def _square_fills() -> dict:
    """Question 3's worksheet lines filled in: arrangements of 2, 2, 5, 5, pairs of numbers, fillings."""
    ways, twice = analysis.arrangements((2, 2, 5, 5)), analysis.two_numbers_twice()
    pairs = twice["number_pairs"]
    return {0: (ways["two_pairs"], ways["cross"]), 1: (pairs,),
            2: (ways["two_pairs"], pairs, twice["two_pairs"], ways["cross"], pairs, twice["cross"])}


def _pairs_or_cross() -> dict:
    p = analysis.square_category_probabilities()
    return {"two_pairs": _counted(p["two_pairs"], 6 ** 4), "cross": _counted(p["cross"], 6 ** 4)}


QUESTIONS = (
    Question(
        game="tuefteln", family=FAMILY, id="tuefteln-q1", key="q1", kind="choice", core=True,
        title={"de": "Tüfteln, Frage 1: daneben oder über Eck – wo öfter 0 Punkte?",
               "en": "Tüfteln, question 1: beside or across – where more often 0 points?"},
        prompt={"de": "In einem Quadrat steht oben rechts eine 1. Die zweite 1 kommt daneben (oben links) oder über Eck "
                      "(unten links); die beiden übrigen Felder werden zufällig gefüllt. Wo bringt das Quadrat öfter "
                      "0 Punkte?",
                "en": "A square has a 1 top right. The second 1 goes beside it (top left) or across the corner "
                      "(bottom left); the other two places are filled at random. Where does the square score 0 more "
                      "often?"},
        notes=RANDOM_FILL,
        options=WHERE_Q1, right=lambda: _larger(_zero_chance()), values=_zero_chance,
        unit="share",
        exact=lambda: _zero_chance()["ueber_eck"],
        exact_of={"de": "P(0 Punkte), die 1 über Eck", "en": "P(0 points), the 1 across the corner"},
        simulation=Simulation(lambda n, seed: [p == 0 for p in _fill_points(ACROSS, n, seed)], n=5000, seed=2026,
                              what={"de": "ein zufällig gefülltes Quadrat, die 1 über Eck",
                                    "en": "one square filled at random, the 1 across the corner"}),
        by_hand=ByHand(
            "grid",
            {"de": "Die Einsen stehen oben rechts und unten links. Der 1. Würfel kommt oben links hin, der 2. Würfel "
                   "unten rechts. Kreuze jede Füllung an, die Punkte bringt. 0 Punkte: ein Drilling oder ein Paar "
                   "über Eck.",
             "en": "The 1s are top right and bottom left. The first die goes top left, the second bottom right. "
                   "Tick every filling that scores. 0 points: three of a kind or a pair across the corner."},
            spec={"grid": {"title": {"de": "Die 1 über Eck", "en": "The 1 across the corner"}}},
            checks=(Check({"de": "0 Punkte, die 1 über Eck (von 36)", "en": "0 points, the 1 across the corner (of 36)"},
                          _zeros, line=0),
                    Check({"de": "P(0 Punkte), die 1 über Eck", "en": "P(0 points), the 1 across the corner"},
                          lambda: _zero_chance()["ueber_eck"], line=1)),
            fills=_zero_fills),
        worksheet={"de": ["0 Punkte: ______ von 36", "P(0 Punkte) = ______ ≈ ______ %"],
                   "en": ["0 points: ______ of 36", "P(0 points) = ______ ≈ ______%"]},
    ),
    Question(
        game="tuefteln", family=FAMILY, id="tuefteln-q2", key="q2", kind="choice", core=True,
        title={"de": "Tüfteln, Frage 2: daneben oder über Eck – wo im Mittel mehr Punkte?",
               "en": "Tüfteln, question 2: beside or across – where more points on average?"},
        prompt={"de": "Dieselben beiden Quadrate, die übrigen Felder zufällig gefüllt: Wo bringt das Quadrat im Mittel "
                      "mehr Punkte – die 1 daneben oder über Eck?",
                "en": "The same two squares, the other places filled at random: where does the square score more "
                      "points on average – the 1 beside it or across the corner?"},
        notes=RANDOM_FILL,
        options=WHERE_Q2, right=lambda: _larger(_mean_points()), values=_mean_points,
        unit="points",
        exact=lambda: _mean_points()["daneben"],
        exact_of={"de": "E(Punkte), die 1 daneben", "en": "E(points), the 1 beside it"},
        simulation=Simulation(lambda n, seed: _fill_points(BESIDE, n, seed), n=5000, seed=2026,
                              what={"de": "ein zufällig gefülltes Quadrat, die 1 daneben",
                                    "en": "one square filled at random, the 1 beside it"}),
        by_hand=ByHand(
            "grid",
            {"de": "Die Einsen stehen oben links und oben rechts. Der 1. Würfel kommt unten links hin, der 2. unten "
                   "rechts. Schreibe in jedes Feld die Punkte: 2er 2, 2er + 2er 3, 4er 5, Drilling 0. Dann den "
                   "Mittelwert; für die 1 über Eck mit dem Gitter von Frage 1.",
             "en": "The 1s are top left and top right. The first die goes bottom left, the second bottom right. "
                   "Write each filling's points in its cell: pair 2, two pairs 3, four of a kind 5, three of a kind "
                   "0. Then the mean; for the 1 across the corner with the grid of question 1."},
            spec={"grid": {"title": {"de": "Die 1 daneben", "en": "The 1 beside it"}}},
            checks=(Check({"de": "E(Punkte), die 1 daneben", "en": "E(points), the 1 beside it"},
                          lambda: _mean_points()["daneben"], line=0),
                    Check({"de": "E(Punkte), die 1 über Eck", "en": "E(points), the 1 across the corner"},
                          lambda: _mean_points()["ueber_eck"], line=1),
                    Check({"de": "im Mittel mehr Punkte", "en": "more points on average"},
                          lambda: _larger_words(_mean_points()), line=2)),
            fills=_mean_fills),
        worksheet={"de": ["E(daneben) = ______ : 36 ≈ ______ Punkte",
                          "E(über Eck) = ( ____ · 4 + ____ · 5 ) : 36 ≈ ______ Punkte (Gitter von Frage 1)",
                          "Im Mittel mehr Punkte: ______________"],
                   "en": ["E(beside) = ______ ÷ 36 ≈ ______ points",
                          "E(across) = ( ____ × 4 + ____ × 5 ) ÷ 36 ≈ ______ points (grid of question 1)",
                          "More points on average: ______________"]},
    ),
    Question(
        game="tuefteln", family=FAMILY, id="tuefteln-q3", key="q3", kind="choice", core=True,
        title={"de": "Tüfteln, Frage 3: 2er + 2er oder Cross?", "en": "Tüfteln, question 3: two pairs or a cross?"},
        prompt={"de": "Vier zufällige Zahlen in einem leeren Quadrat (6⁴ = 1296 Füllungen): Was ist häufiger, "
                      "2er + 2er oder Cross?",
                "en": "Four random numbers in an empty square (6⁴ = 1296 fillings): which is more common, two pairs "
                      "or a cross?"},
        notes=RANDOM_FILL,
        options=(Option("two_pairs", {"de": "2er + 2er", "en": "two pairs"}), Option("cross", {"de": "Cross", "en": "cross"}),
                 Option("gleich", {"de": "gleich häufig", "en": "equally common"})),
        right=lambda: (lambda v: {"gleich"} if v["two_pairs"] == v["cross"] else {max(v, key=v.get)})(_pairs_or_cross()),
        values=_pairs_or_cross,
        unit="share",
        exact=lambda: _pairs_or_cross()["two_pairs"],
        exact_of={"de": "P(2er + 2er) in einem zufällig gefüllten Quadrat",
                  "en": "P(two pairs) in a square filled at random"},
        simulation=Simulation(lambda n, seed: [k == "two_pairs" for k in analysis.random_squares(n, seed=seed)],
                              n=5000, seed=2024, what={"de": "ein zufällig gefülltes leeres Quadrat",
                                                       "en": "one empty square filled at random"}),
        by_hand=ByHand(
            "count",
            {"de": "Zeichne die sechs Möglichkeiten, zweimal die 2 und zweimal die 5 in ein Quadrat zu schreiben. "
                   "Zähle dann die Paare aus zwei verschiedenen Zahlen (1 und 2, 1 und 3, …) und multipliziere.",
             "en": "Draw the six ways to write two 2s and two 5s into a square. Then count the pairs of two "
                   "different numbers (1 and 2, 1 and 3, …) and multiply."},
            spec={"space": 2},
            checks=(Check({"de": "Anordnungen von 2, 2, 5, 5, die 2er + 2er sind", "en": "arrangements of 2, 2, 5, 5 that are two pairs"},
                          lambda: analysis.arrangements((2, 2, 5, 5))["two_pairs"], line=0),
                    Check({"de": "Anordnungen von 2, 2, 5, 5, die Cross sind", "en": "arrangements of 2, 2, 5, 5 that are a cross"},
                          lambda: analysis.arrangements((2, 2, 5, 5))["cross"], line=0),
                    Check({"de": "Paare verschiedener Zahlen", "en": "pairs of different numbers"},
                          lambda: analysis.two_numbers_twice()["number_pairs"], line=1),
                    Check({"de": "Füllungen mit 2er + 2er (von 1296)", "en": "fillings with two pairs (of 1296)"},
                          lambda: analysis.two_numbers_twice()["two_pairs"], line=2),
                    Check({"de": "Füllungen mit Cross (von 1296)", "en": "fillings with a cross (of 1296)"},
                          lambda: analysis.two_numbers_twice()["cross"], line=2)),
            fills=_square_fills),
        worksheet={"de": ["2er + 2er: ______ von 6 Anordnungen      Cross: ______ von 6",
                          "Paare verschiedener Zahlen: ______",
                          "2er + 2er: ____ · ____ = ______ Füllungen      Cross: ____ · ____ = ______ Füllungen"],
                   "en": ["Two pairs: ______ of 6 arrangements      Cross: ______ of 6",
                          "Pairs of different numbers: ______",
                          "Two pairs: ____ × ____ = ______ fillings      Cross: ____ × ____ = ______ fillings"]},
    ),
    Question(
        game="tuefteln", family=FAMILY, id="tuefteln-q4", key="q4", kind="number", core=False,
        title={"de": "Tüfteln, Erweiterung: Sechsen in einem Spiel", "en": "Tüfteln, extension: sixes in a game"},
        prompt={"de": "Wie viele Sechsen fallen im Mittel in einem Spiel (15 Würfe mit zwei Würfeln)?",
                "en": "How many sixes fall in a game on average (15 rolls of two dice)?"},
        bins=whole_bins(0, 2, 4, 5, 6, 8, 10, 31),
        unit="number",
        exact=lambda: analysis.distribution_summary(analysis.sixes_distribution())["mean"],
        exact_of={"de": "E(Sechsen in einem Spiel)", "en": "E(sixes in a game)"},
        simulation=Simulation(lambda n, seed: analysis.simulated_sixes(n, seed), n=2000, seed=15,
                              what={"de": "ein Spiel", "en": "one game"}),
    ),
)
