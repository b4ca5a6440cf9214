"""The numbers the Scratch Island lesson states: exact counts against a hand count from the rulebook
or an independent count, and the generator's own samples against the exact values (fixed seeds,
Wilson 95 % intervals)."""

from fractions import Fraction
from itertools import combinations
from math import comb, prod

import pytest
from si_helpers import layout

from spieltisch.core.stats import proportion_ci
from spieltisch.games.scratch_island import lesson as S
from spieltisch.games.scratch_island.analysis import MapView, snake_chance
from spieltisch.games.scratch_island.engine import SHAPES, layout_for, placements


def test_boat_covers_on_an_open_map_is_the_rulebooks_example():
    """The rulebook: a 2-line over the boat on an open map fits in three ways (2 orientations × 2
    cells on the boat = 4 tries, the one reaching below the bottom row is off the map). The 4-T:
    4 orientations × 4 cells = 16 tries; the boat must be in the motif's bottom row: 1 + 3 + 1 + 1."""
    lay = layout()
    two = S.boat_covers(lay, "I2")
    assert (two["legal"], two["total"]) == (3, 4)
    tee = S.boat_covers(lay, "T4")
    assert (tee["legal"], tee["total"], tee["share"]) == (6, 16, Fraction(3, 8))
    assert [t["why"] for t in tee["tries"]].count("off") == 10


@pytest.mark.parametrize("page", [0, 1, 7, 300])
@pytest.mark.parametrize("reflect", [False, True])
def test_boat_covers_agree_with_the_engines_placements(page, reflect):
    lay = layout_for(page, 0)
    for face in SHAPES[reflect]:
        got = S.boat_covers(lay, face, reflect)
        legal = sorted(t["cells"] for t in got["tries"] if not t["why"])
        assert legal == placements(lay, 0, "", face, reflect, 0), face
        assert got["total"] == got["orientations"] * len(SHAPES[reflect][face][0][0])


def test_walls_and_rocks_near_the_boat_are_reasons():
    lay = layout(walls=(("F10", "east"),))
    why = {t["why"] for t in S.boat_covers(lay, "I2")["tries"]}
    assert why == {"", "off", "wall"}
    rows = ["b........r"] + ["." * 10] * 7 + ["....#....."] + ["g....A...y"]
    assert "rock" in {t["why"] for t in S.boat_covers(layout(rows), "L3")["tries"]}


def test_random_tries_share_against_exact():
    lay = layout_for(1, 0)
    got = S.random_tries(lay, "T4", 2000, seed=3)
    est = proportion_ci(sum(got), len(got))
    assert est.contains(S.boat_covers(lay, "T4")["share"])


def test_snake_steps_are_the_hand_computed_tree():
    v = S.start_view(1)
    u = len(v.layout.plain)
    cells = [S.cell(n) for n in ("C9", "D9", "E9", "F9")]
    steps = S.snake_steps(v, cells)
    assert [s["snake"] for s in steps] == [Fraction(5, u - i) for i in range(4)]
    assert [(s["free_left"], s["plain_left"]) for s in steps] == [(u - 5 - i, u - i) for i in range(4)]
    assert steps[-1]["all_free"] == prod(Fraction(u - 5 - i, u - i) for i in range(4))
    assert 1 - steps[-1]["all_free"] == snake_chance(v, cells)


def test_safe_cells_against_an_independent_count():
    """A small world: u plain cells, s snakes; the distribution of cells dug before the first snake
    by counting every snake set; the mean is (u - s) / (s + 1) on a full dig."""
    v = S.start_view(1)
    order = S.dig_order(v)
    assert len(order) == len(v.layout.plain)
    got = S.safe_cells(v, order)
    u, s = len(order), 5
    assert got["mean"] == Fraction(u - s, s + 1)
    assert sum(got["distribution"].values()) == 1
    # independent count on the first 12 cells of the dig: the snake sets whose first cell in the dig
    # order is the (j+1)-th are C(u - 1 - j, s - 1) of all C(u, s); none among the first 12: C(u - 12, s)
    short = S.safe_cells(v, order[:12])
    total = comb(u, s)
    expected = {j: Fraction(comb(u - 1 - j, s - 1), total) for j in range(12)}
    expected[12] = Fraction(comb(u - 12, s), total)
    assert short["distribution"] == expected
    # and by enumeration in a small world of 9 cells and 2 snakes (the formula above, counted)
    firsts = [min(snakes) for snakes in combinations(range(9), 2)]
    assert [firsts.count(j) for j in range(8)] == [comb(9 - 1 - j, 1) for j in range(8)]


def test_samples_of_the_generator_against_exact_snake_chances():
    v = S.start_view(1)
    cells = [S.cell(n) for n in ("C9", "D9", "E9", "F9")]
    samples = S.hidden_samples(1, 0, 2000, seed=5)
    assert all(h.count("S") == 5 for h in samples)
    hits = sum(any(h[c] == "S" for c in cells) for h in samples)
    assert proportion_ci(hits, len(samples)).contains(snake_chance(v, cells))


def test_order_report_by_hand_and_against_the_generator():
    """Three plain cells F9 F8 F7 scratched with nothing under them; the 4-line G7-G10 with the
    cross G7 on top. Cross first: a key for sure with 4/6. Cross last: 4/6 times no snake under the
    three plain cells, (71·70·69)/(76·75·74). The generator, kept only where F9-F7 hide nothing,
    agrees (2000 maps, 95 % intervals)."""
    v = S.start_view(1)
    path = [S.cell(n) for n in ("F9", "F8", "F7")]
    after = v.after(path)
    assert (after.plain_left, after.snakes_left, after.crosses_left) == (76, 5, 6)
    line = [S.cell(n) for n in ("G7", "G8", "G9", "G10")]
    first, last = S.order_report(after, line), S.order_report(after, line[::-1])
    assert first["keys"] == Fraction(2, 3)
    assert last["keys"] == Fraction(2, 3) * Fraction(71 * 70 * 69, 76 * 75 * 74)
    assert first["symbols"] == last["symbols"]  # the plain cells' order among themselves does not matter
    assert first["whole"] == last["whole"] == Fraction(71 * 70 * 69, 76 * 75 * 74)
    samples = S.hidden_samples(1, 0, 2000, seed=6, empty=path)
    assert all(all(h[c] in ".-" for c in path) for h in samples)
    for order, exact in ((line, first), (line[::-1], last)):
        keys = sum(S.dig(h, order)["keys"] for h in samples)
        assert proportion_ci(keys, len(samples)).contains(exact["keys"])


def test_order_report_symbols_against_a_brute_force():
    """Expected treasure symbols found in order on a tiny count: u plain cells, s snakes, t symbols
    (items placed uniformly); every placement of snakes and symbols counted."""
    v = S.start_view(1)
    cells = [S.cell(n) for n in ("C9", "D9")]
    rep = S.order_report(v, cells)
    u, s, t = v.plain_left, v.snakes_left, sum(v.treasure_left)
    # P(symbol under the 2nd cell and no snake under the 1st): (t/u) · C(u-2, s)/C(u-1, s)
    by_hand = Fraction(t, u) * Fraction(u - 1 - s, u - 1)
    assert rep["cells"][1]["symbols"] == by_hand
    assert rep["cells"][0]["symbols"] == Fraction(t, u)


def test_pictures_are_svg_with_a_text():
    v = S.start_view(1)
    pic = S.map_picture(v, "de", marks=S.preview([S.cell("G7")]), labels={S.cell("G7"): 1}, title="Karte")
    data = pic._repr_mimebundle_()
    assert data["image/svg+xml"].startswith("<svg") and data["text/plain"] == "Karte"
    row = S.motif_pictures("T4", title="4er-T")._repr_mimebundle_()
    assert row["image/svg+xml"].count("<svg") == 5 and row["text/plain"] == "4er-T"
    assert isinstance(v, MapView)
