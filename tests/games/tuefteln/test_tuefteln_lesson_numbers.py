"""The numbers of the second-edition Tüfteln lessons (``lesson_numbers``), each checked against a
count by hand or an enumeration written here from the rulebook's words (not ``scoring.category``)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from spieltisch.core.errors import SpieltischError
from spieltisch.core.rng import Rng
from spieltisch.core.simulate import iter_game_seeds, play_one
from spieltisch.games.tuefteln import analysis, bots
from spieltisch.games.tuefteln import lesson_numbers as ln

# Places clockwise from the top left: 0 TL, 1 TR, 2 BR, 3 BL. "waagrecht oder senkrecht aneinandergrenzen":
SIDE_BY_SIDE = {(0, 1), (1, 2), (2, 3), (0, 3)}


def rulebook_points(v) -> int:
    """A full square's points from the rulebook's words: 4er four equal (5); Drilling (0); two pairs
    side by side 2er + 2er (3), diagonal Cross (4); one pair side by side 2er (2), diagonal 0; four
    different: Str (6) if 1-2-3-4, 2-3-4-5 or 3-4-5-6 ascend clockwise from some corner, else Mix (1)."""
    counts = Counter(v)
    shape = sorted(counts.values(), reverse=True)
    if shape == [4]:
        return 5
    if shape == [3, 1]:
        return 0
    if shape in ([2, 2], [2, 1, 1]):
        x = next(n for n, c in counts.items() if c == 2)
        places = tuple(i for i in range(4) if v[i] == x)
        if shape == [2, 2]:
            return 3 if places in SIDE_BY_SIDE else 4
        return 2 if places in SIDE_BY_SIDE else 0
    low = min(v)
    run = [low, low + 1, low + 2, low + 3]
    if any([v[(k + i) % 4] for i in range(4)] == run for k in range(4)):
        return 6
    return 1


def test_the_rulebook_enumeration_counts_the_1296_squares_by_hand():
    """The oracle against counts by hand: 6 4er; 3 runs × 4 corners = 12 Str; 6·5·4·3 − 12 = 348 Mix;
    15 number pairs × 4 places = 60 2er + 2er, × 2 = 30 Cross; 6 · 10 · 4 · 2 = 480 2er; 120 Drillinge +
    240 diagonal pairs = 360 with 0 points. The engine's exact chances agree."""
    by_hand = {5: 6, 6: 12, 1: 348, 3: 60, 4: 30, 2: 480, 0: 360}
    counted = Counter(rulebook_points(v) for v in product(range(1, 7), repeat=4))
    assert counted == by_hand and sum(by_hand.values()) == 6 ** 4
    engine = {analysis.scoring.POINTS[c]: p * 1296 for c, p in analysis.square_category_probabilities().items()}
    assert engine == by_hand


def test_the_one_across_the_corner():
    """1 top right and bottom left, the first die top left, the second bottom right: a double of 1s is
    a 4er, any other double a Cross, everything else 0 (a Drilling or a lone diagonal pair)."""
    grid = ln.fillings((0, 1, 0, 1), ("TL", "BR"))
    by_hand = {(a, b): ("four" if a == b == 1 else "cross" if a == b else "none")
               for a in range(1, 7) for b in range(1, 7)}
    assert grid == by_hand
    assert all(rulebook_points((a, 1, b, 1)) == analysis.scoring.POINTS[grid[(a, b)]] for a, b in grid)
    assert ln.points_distribution((0, 1, 0, 1)) == {0: Fraction(30, 36), 4: Fraction(5, 36), 5: Fraction(1, 36)}


def test_the_one_beside_it():
    """1 top left and top right, the first die bottom left, the second bottom right: two 1s a 4er,
    one 1 a Drilling, another double 2er + 2er, two different numbers without 1 a 2er."""
    grid = ln.fillings((1, 1, 0, 0), ("BL", "BR"))
    by_hand = {}
    for a, b in product(range(1, 7), repeat=2):
        ones = (a == 1) + (b == 1)
        by_hand[(a, b)] = "four" if ones == 2 else "none" if ones == 1 else "two_pairs" if a == b else "pair"
    assert grid == by_hand
    assert all(rulebook_points((1, 1, b, a)) == analysis.scoring.POINTS[grid[(a, b)]] for a, b in grid)
    assert Counter(grid.values()) == {"pair": 20, "none": 10, "two_pairs": 5, "four": 1}


@pytest.mark.parametrize("square,mean", [((0, 1, 0, 1), Fraction(25, 36)), ((1, 1, 0, 0), Fraction(5, 3))])
def test_expected_points_of_a_random_fill(square, mean):
    """The lesson's expected values, (5·4 + 1·5)/36 and (20·2 + 5·3 + 1·5)/36, against the mean over the
    36 fillings by the rulebook's points; variance and standard deviation likewise."""
    empty = [i for i, v in enumerate(square) if v == 0]
    points = []
    for a, b in product(range(1, 7), repeat=2):
        v = list(square)
        v[empty[0]], v[empty[1]] = a, b
        points.append(rulebook_points(v))
    assert Fraction(sum(points), 36) == mean
    var = Fraction(sum(p * p for p in points), 36) - mean ** 2
    summary = analysis.distribution_summary(ln.points_distribution(square))
    assert summary["mean"] == mean and summary["variance"] == var
    assert ln.standard_deviation(ln.points_distribution(square)) == pytest.approx(math.sqrt(var), rel=1e-12)


def test_the_greedy_bot_rates_the_lessons_squares_by_this_expected_value():
    """The lesson says the greedy bot values the squares of questions 1 and 2 by their expected points
    when random numbers come: its value table (n = 1) holds the same values there. It lets each random
    number go to the best free place, which for these two squares changes nothing (their two empty
    places are mirror images); for an empty square it does, so the lesson says "random numbers, each in
    the best free place", not "a random fill"."""
    table = bots.square_values(1.0)

    def value(square):
        fields = [0] * 36
        for f, v in zip(analysis.scoring.SQUARES[0], square):  # square 0: fields 0, 1, 7, 6 clockwise
            fields[f] = v
        return table[bots.square_codes(fields)[0]]

    for square in ((0, 1, 0, 1), (1, 1, 0, 0)):
        want = analysis.distribution_summary(ln.points_distribution(square))["mean"]
        assert value(square) == pytest.approx(float(want), abs=1e-9)
    empty = analysis.distribution_summary(ln.points_distribution((0, 0, 0, 0)))["mean"]
    assert empty == analysis.expected_square_points() and value((0, 0, 0, 0)) > float(empty) + 0.3


def test_random_fillings_match_the_exact_chances():
    """20000 seeded fillings of each square: the share of 0 points and the mean within 4 standard errors
    of the exact values (a fixed seed, so one fixed check); the same rng state gives the same squares."""
    n = 20000
    for square in ((0, 1, 0, 1), (1, 1, 0, 0)):
        got = ln.random_fillings(square, n, Rng(5))
        assert got == ln.random_fillings(square, n, Rng(5)) and len(got) == n
        dist = ln.points_distribution(square)
        p0 = float(dist[0])
        assert abs(got.count(0) / n - p0) <= 4 * math.sqrt(p0 * (1 - p0) / n)
        mean = float(analysis.distribution_summary(dist)["mean"])
        assert abs(sum(got) / n - mean) <= 4 * ln.standard_deviation(dist) / math.sqrt(n)
        assert set(got) <= set(dist)
    assert ln.random_fillings((4, 6, 5, 3), 3, Rng(1)) == [1, 1, 1]  # a full square: no die, a Mix


def test_fillings_and_squares_refuse_bad_input():
    with pytest.raises(SpieltischError, match="each empty place"):
        ln.fillings((0, 1, 0, 1), ("TL", "TR"))
    with pytest.raises(SpieltischError, match="each empty place"):
        ln.fillings((0, 1, 0, 1), ("TL", "TL", "BR"))
    with pytest.raises(SpieltischError, match="four numbers 0-6"):
        ln.points_distribution((0, 1, 7, 1))
    with pytest.raises(SpieltischError, match="whole number"):
        ln.random_fillings((0, 1, 0, 1), -1, Rng(1))


def test_six_chances_counted_and_the_complement():
    """One die: a 6 in 1 of 6. Two dice: 6 + 6 − 1 = 11 of 36 rolls show a 6, 5 · 5 = 25 none. The
    binomial route of ``at_least_one_six`` agrees (one throw is two dice), and a game's 30 dice have
    no 6 with (5/6)^30."""
    one, two = ln.six_chances(1), ln.six_chances(2)
    assert one == {"six": Fraction(1, 6), "some": Fraction(1, 6), "none": Fraction(5, 6)}
    assert two == {"six": Fraction(1, 6), "some": Fraction(11, 36), "none": Fraction(25, 36)}
    assert ln.at_least_one_six(1) == two["some"]
    assert ln.at_least_one_six(15) == 1 - Fraction(5, 6) ** 30
    assert ln.six_chances(3)["some"] == Fraction(216 - 125, 216)
    with pytest.raises(SpieltischError, match="1 to 6 dice"):
        ln.six_chances(0)


def test_pick_games_draws_different_games_evenly():
    picked = ln.pick_games(Rng(3), 10, 100)
    assert len(set(picked)) == 10 and all(0 <= i < 100 for i in picked)
    assert picked == ln.pick_games(Rng(3), 10, 100)
    assert sorted(ln.pick_games(Rng(4), 100, 100)) == list(range(100))
    # every game equally likely first: 4000 draws of one of 4, each count within 4 standard errors of 1000
    rng = Rng(9)
    counts = Counter(ln.pick_games(rng, 1, 4)[0] for _ in range(4000))
    assert all(abs(counts[i] - 1000) <= 4 * math.sqrt(4000 * 0.25 * 0.75) for i in range(4))
    with pytest.raises(SpieltischError, match="draw 0 to 100 games"):
        ln.pick_games(Rng(1), 101, 100)


def test_paired_games_share_their_throws():
    """The lesson compares the bots game by game on the same throws: game 1 of the stored seed throws
    the same dice for the greedy and the strong bot (and ends with the stored and the live score)."""
    games = ln.paired_games("A")
    stored = analysis.stored_bot_scores("strong", "A")
    assert games["strong"] == tuple(stored["scores"]) and len(games["greedy"]) == games["games"] == 100
    chance, bot = next(iter_game_seeds(stored["seed"], 1))
    played = {name: play_one("tuefteln", 1, {"side": "A"}, [name], chance, bot) for name in ("greedy", "strong")}
    throws = {name: [str(a) for a, who in zip(m.actions, m.movers) if who < 0] for name, m in played.items()}
    assert len(throws["greedy"]) == 15 and throws["greedy"] == throws["strong"]
    assert played["greedy"].state.scores()[0] == games["greedy"][0]
    assert played["strong"].state.scores()[0] == games["strong"][0]


def test_squares_html_draws_the_sheets_order():
    """Top row TL TR, bottom row BL BR (values come clockwise: TL, TR, BR, BL); empty fields blank."""
    pic = ln.squares_html([((4, 1, 2, 6), "Mix"), ((0, 1, 0, 1), "über Eck")])
    assert pic.text == "4 1 / 6 2: Mix\n· 1 / 1 ·: über Eck"
    cells = [c.split("</td>")[0].split(">")[-1] for c in pic.html.split("<td")[1:]]
    assert cells == ["4", "1", "6", "2", "", "1", "1", ""]
    assert pic._repr_mimebundle_()["text/html"] == pic.html and "<svg" not in pic.html
