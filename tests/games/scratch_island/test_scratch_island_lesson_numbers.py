"""The numbers the Scratch Island lesson states: exact counts against a hand count from the rulebook
or an independent count, and the generator's own samples against the exact values (fixed seeds,
Wilson 95 % intervals)."""

import base64
import json
import re
from fractions import Fraction
from itertools import combinations
from math import comb, prod
from pathlib import Path

import pytest
from si_helpers import layout, position, roll

from spieltisch.core.errors import SpieltischError
from spieltisch.core.stats import mean_ci, proportion_ci
from spieltisch.games.scratch_island import lesson as S
from spieltisch.games.scratch_island.analysis import MapView, advise, snake_chance
from spieltisch.games.scratch_island.engine import (
    SHAPES, Choose, Place, Scratch, face_name, layout_for, orientations, placements,
)
from spieltisch.lesson import fmt

ROOT = Path(__file__).resolve().parents[3]


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


# --- the lesson's positions and numbers (notebooks/*/scratch-island.ipynb) ----------------------------------

def test_near_lists_what_is_printed_around_a_cell():
    """A hand-built map: the boat F10, a rock H9 (3 steps), a cross F7 (3 steps), a cross F6 (4 steps:
    out of reach), a wall between F9 and G9 (both within reach) and one east of H8 (H8 is 4 steps away)."""
    rows = ["b........r"] + ["." * 10] * 4 + [".....x...."] + [".....x...."] + ["." * 10] + [".......#.."] + ["g....A...y"]
    lay = layout(rows, walls=(("F9", "east"), ("H8", "east")))
    got = S.near(lay, S.cell("F10"), 3)
    assert got == {"rocks": ["H9"], "crosses": ["F7"], "chests": [], "walls": [("F9", "G9")]}
    assert S.near(lay, S.cell("F10"), 5)["chests"] == ["A10", "J10"]  # A10 is 5 steps from F10


def test_the_boat_on_the_lessons_map_and_the_4_t_counted_by_hand():
    """The lesson's map (page 1, player 1): within three steps of the boat only the rock H9. The boat
    lies in the bottom row, so a try fits only if its cell on the boat is in the motif's bottom row;
    counted by hand from the shapes (each orientation: the cells of its lowest row), and no fitting T
    covers H9."""
    lay = S.start_view(1).layout
    assert lay.to_json() == layout_for(1, 0).to_json()
    assert S.cell("F10") == lay.boat
    assert S.near(lay, lay.boat, 3) == {"rocks": ["H9"], "crosses": [], "chests": [], "walls": []}
    shapes = orientations("T4", False)
    by_hand = sum(1 for shape in shapes for r, _ in shape if r == max(rr for rr, _ in shape))
    got = S.boat_covers(lay, "T4")
    assert (len(shapes), by_hand) == (4, 6)
    assert (got["legal"], got["total"], got["share"]) == (by_hand, 4 * 4, Fraction(6, 16))
    assert all(S.cell("H9") not in t["cells"] for t in got["tries"] if not t["why"])


def test_question_2_is_a_legal_turn_and_its_order_is_forced():
    """Question 2: as the roller, "1 Feld" on the boat first, then the 4-line C9-F9 on the real map.
    The engine scratches F9, E9, D9, C9 in that order (each the only cell next to the path)."""
    lays = [layout_for(1, 0), layout_for(1, 1)]
    s = position(2, maps=lays)
    roll(s, "mono", "I2", "I4", "pickaxe")
    s.apply_action(Choose(0, 2, False))
    s.apply_action(Place((S.cell("F10"),)))
    line = tuple(sorted(S.cell(n) for n in ("C9", "D9", "E9", "F9")))
    assert line in [a.cells for a in s.legal_actions()]
    s.apply_action(Place(line))
    dug = [e["cell"] for e in s.events if e["event"] == "scratch"]
    assert dug == [S.cell(n) for n in ("F10", "F9", "E9", "D9", "C9")]


def test_question_3_is_a_legal_turn_the_order_is_the_players_and_the_advisor_takes_the_cross_first():
    """Question 3: the roller takes both orange dice, both 4-lines: F7-F10 over the boat first (the
    engine scratches F10, F9, F8, F7: each the only next cell), then G7-G10, whose four cells all
    touch the path (the order is the player's). G7 is a cross, G8-G10 plain cells; the advisor (the
    strong bot's evaluation) scratches the cross first."""
    lays = [layout_for(1, 0), layout_for(1, 1)]
    s = position(2, maps=lays)
    roll(s, "mono", "I2", "I4", "I4")
    s.apply_action(Choose(2, 3, False))
    s.apply_action(Place(tuple(sorted(S.cell(n) for n in ("F7", "F8", "F9", "F10")))))
    assert [e["cell"] for e in s.events if e["event"] == "scratch"] == [S.cell(n) for n in ("F10", "F9", "F8", "F7")]
    line = tuple(sorted(S.cell(n) for n in ("G7", "G8", "G9", "G10")))
    assert line in [a.cells for a in s.legal_actions()]
    s.apply_action(Place(line))
    assert sorted(a.cell for a in s.legal_actions()) == sorted(line)
    lay = lays[0]
    assert lay.cross_mask >> S.cell("G7") & 1
    assert all(S.cell(n) in lay.plain for n in ("G8", "G9", "G10", "F7", "F8", "F9"))
    best = [o.action for o in advise(s.game, s.observation(0)).options if o.best]
    assert best == [Scratch(S.cell("G7"))]


def test_question_2_numbers_in_the_lessons_order():
    """P(at least one snake under F9, E9, D9, C9) with only the boat scratched: 1 − (74·73·72·71)/(79·78·77·76)."""
    v = S.start_view(1)
    now = v.after([v.layout.boat])
    cells = [S.cell(n) for n in ("F9", "E9", "D9", "C9")]
    assert (now.plain_left, now.snakes_left) == (79, 5)
    assert snake_chance(now, cells) == 1 - Fraction(74 * 73 * 72 * 71, 79 * 78 * 77 * 76)
    assert [s["snake"] for s in S.snake_steps(now, cells)] == [Fraction(5, 79 - i) for i in range(4)]


def _small_world(cells_kept: int):
    """The lesson's map with all but ``cells_kept`` plain cells scratched and empty: u = cells_kept,
    s = 5 (every snake still hidden), small enough to count every placement of the snakes."""
    v = S.start_view(1)
    plain = list(v.layout.plain)
    return v.after(plain[cells_kept:]), plain[:cells_kept]


def test_snake_count_is_the_hypergeometric_distribution_counted():
    """Every placement of the 5 snakes among 9 plain cells (C(9, 5) = 126), counted by how many fall
    under 4 chosen cells; the mean is 4·5/9 and equals the sum of the tails; ``independent`` is
    1 − (4/9)^4."""
    small, cells = _small_world(9)
    assert (small.plain_left, small.snakes_left) == (9, 5)
    chosen = cells[:4]
    sets = list(combinations(cells, 5))
    counted = {k: Fraction(sum(1 for snakes in sets if len(set(snakes) & set(chosen)) == k), len(sets))
               for k in range(5)}
    got = S.snake_count(small, chosen)
    assert got["distribution"] == counted
    assert got["mean"] == Fraction(4 * 5, 9) == sum(got["at_least"].values())
    assert got["at_least_one"] == 1 - counted[0] == snake_chance(small, chosen)
    assert got["single"] == Fraction(5, 9) and got["independent"] == 1 - Fraction(4, 9) ** 4


def test_snake_count_on_the_lessons_four_cells_against_the_generator():
    """Extension A: E(X) = 4·5/79 (the sum of the single chances) is more than P(X ≥ 1); the
    generator's own maps (2000, seed 7) agree with P(X = 1) and the mean (95 % intervals)."""
    v = S.start_view(1)
    now = v.after([v.layout.boat])
    cells = [S.cell(n) for n in ("F9", "E9", "D9", "C9")]
    got = S.snake_count(now, cells)
    assert got["mean"] == 4 * Fraction(5, 79) > got["at_least_one"]
    assert got["distribution"][1] == Fraction(5 * comb(74, 3), comb(79, 4))
    assert got["independent"] == 1 - Fraction(74, 79) ** 4 < got["at_least_one"]
    samples = S.hidden_samples(1, 0, 2000, seed=7)
    x = [sum(h[c] == "S" for c in cells) for h in samples]
    assert proportion_ci(sum(k == 1 for k in x), len(x)).contains(got["distribution"][1])
    assert mean_ci(x).contains(got["mean"])
    with pytest.raises(SpieltischError):
        S.snake_count(now, [S.cell("G7")])  # a cross hides no snake
    with pytest.raises(SpieltischError):
        S.snake_count(now, [cells[0], cells[0]])


def test_safe_cells_variance_counted_and_by_formula():
    """The variance of the free cells before the first snake: in a world of 9 cells with 5 snakes by
    counting every snake set; on the whole map by the closed form (u − s)(u + 1)s / ((s + 1)²(s + 2))."""
    small, cells = _small_world(9)
    firsts = [min(cells.index(c) for c in snakes) for snakes in combinations(cells, 5)]
    mean = Fraction(sum(firsts), len(firsts))
    var = Fraction(sum(j * j for j in firsts), len(firsts)) - mean ** 2
    got = S.safe_cells(small, cells)
    assert (got["mean"], got["variance"]) == (mean, var)
    v = S.start_view(1)
    full = S.safe_cells(v, S.dig_order(v))
    u, s = 79, 5
    assert full["variance"] == Fraction((u - s) * (u + 1) * s, (s + 1) ** 2 * (s + 2))


def test_a_setting_is_an_image_of_the_picture_not_an_svg_element():
    """A map that only sets the scene goes in as <img> (the predict-first checks allow no drawn <svg>
    before a prediction); the image is the picture itself, its alt text the picture's text."""
    v = S.start_view(1)
    pic = S.map_picture(v, "en", title="The map")
    shown = S.Setting(pic)
    data = shown._repr_mimebundle_()
    assert "<svg" not in data["text/html"] and data["text/html"].startswith("<img ")
    src = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', data["text/html"]).group(1)
    assert base64.b64decode(src).decode("utf-8") == pic.svg
    assert 'alt="The map"' in data["text/html"] and data["text/plain"] == str(shown) == "The map"
    face = S.face_picture("T4", "de")
    assert face.text == "4er-T" and 'data-face="T4"' in face.svg


def test_the_worksheets_data_are_the_engines():
    """The worksheets state the data the questions use (no notebook at hand): they must be the
    engine's (the rock near the boat, the snakes and plain cells, keys and crosses after the path)."""
    v = S.start_view(1)
    now3 = v.after([S.cell(n) for n in ("F10", "F9", "F8", "F7")])
    rock = S.near(v.layout, v.layout.boat, 3)["rocks"]
    for lang, words in (("de", ("Schlangen unter", "normalen Feldern", "Schlüssel", "Kreuzen")),
                        ("en", ("snakes under", "plain cells", "keys", "crosses"))):
        nb = json.loads((ROOT / "notebooks" / lang / "scratch-island.ipynb").read_text(encoding="utf-8"))
        sheet = nb["metadata"]["spieltisch"]["lesson"]["worksheet"]
        assert f"({rock[0]})" in sheet[0]["task"] and len(rock) == 1
        assert f"{v.snakes_left} {words[0]} {v.plain_left} {words[1]}" in sheet[1]["task"]
        assert f"{now3.snakes_left} {words[0]} {now3.plain_left} {words[1]}" in sheet[2]["task"]
        assert f"{len(now3.keys_left)} {words[2]} " in sheet[2]["task"]
        assert f"{now3.crosses_left} {words[3]}" in sheet[2]["task"]


# --- the review's findings (second pass) ---------------------------------------------------------------------

# the motifs drawn by hand ("#" a cell), independent of the engine's data
_DRAWN = {"mono": ["#"], "I2": ["##"], "I3": ["###"], "L3": ["#.", "##"], "I4": ["####"],
          "L4": ["#.", "#.", "##"], "T4": ["###", ".#."], "S4": [".##", "##."], "O4": ["##", "##"]}


def _fits_over_the_boat(drawing, mirror):
    """Every (position, cell on the boat) over F10 (row 9, col 5) on a map whose only obstacle within
    three steps is the rock H9 (row 8, col 7): (positions, tries that fit)."""
    cells = [(r, c) for r, row in enumerate(drawing) for c, ch in enumerate(row) if ch == "#"]
    shapes = set()
    for base in (cells, [(r, -c) for r, c in cells]) if mirror else (cells,):
        for _ in range(4):
            base = [(c, -r) for r, c in base]
            mr, mc = min(r for r, _ in base), min(c for _, c in base)
            shapes.add(tuple(sorted((r - mr, c - mc) for r, c in base)))
    fit = 0
    for shape in shapes:
        for ar, ac in shape:
            placed = [(9 + r - ar, 5 + c - ac) for r, c in shape]
            fit += all(0 <= r < 10 and 0 <= c < 10 for r, c in placed) and (8, 7) not in placed
    return len(shapes), fit


def test_the_motif_table_and_which_motifs_mirroring_changes_named_in_the_teachers_note():
    """Question 1's table (turned; turned or mirrored) against an independent count from the drawn
    motifs; mirroring changes the count for the 4-L (5 → 12) and the 4-S (2 → 5) only, and the
    teacher's note names exactly those."""
    lay = S.start_view(1).layout
    table = {}
    for face, drawing in _DRAWN.items():
        a, b = S.boat_covers(lay, face), S.boat_covers(lay, face, reflect=True)
        assert (a["orientations"], a["legal"]) == _fits_over_the_boat(drawing, False), face
        assert (b["orientations"], b["legal"]) == _fits_over_the_boat(drawing, True), face
        table[face] = (a["legal"], b["legal"])
    changed = {f: t for f, t in table.items() if t[0] != t[1]}
    assert changed == {"L4": (5, 12), "S4": (2, 5)}
    for lang in ("de", "en"):
        nb = json.loads((ROOT / "notebooks" / lang / "scratch-island.ipynb").read_text(encoding="utf-8"))
        note = next("".join(c["source"]) for c in nb["cells"]  # question 1's note: the one on decision D1
                    if "teacher" in c["metadata"].get("tags", []) and "D1" in "".join(c["source"]))
        note = " ".join(note.split())
        for face in changed:
            assert face_name(face, lang) in note, (lang, face)


def test_extension_a_by_hand_every_term_of_the_expected_value():
    """Extension A's by-hand step: P(X = k) = C(5, k)·C(74, 4 − k) / C(79, 4), counted out:
    C(79, 4) = 1502501; C(74, 4) = 1150626, 5·C(74, 3) = 5·64824, 10·C(74, 2) = 10·2701, 10·74, 5.
    E(X) = (324120 + 2·27010 + 3·740 + 4·5) / 1502501 = 380380/1502501 = 20/79 = 4·5/79. Typed to three
    decimals (0,253) the check accepts it; leaving out P(X = 3) and P(X = 4) (0,2517 → 0,252) it does not."""
    v = S.start_view(1)
    now = v.after([v.layout.boat])
    got = S.snake_count(now, [S.cell(n) for n in ("F9", "E9", "D9", "C9")])
    n = 1502501
    assert got["distribution"] == {0: Fraction(1150626, n), 1: Fraction(324120, n), 2: Fraction(27010, n),
                                   3: Fraction(740, n), 4: Fraction(5, n)}
    assert Fraction(324120 + 2 * 27010 + 3 * 740 + 4 * 5, n) == got["mean"] == Fraction(20, 79)
    assert fmt.matches("0,253", got["mean"]) and fmt.matches("0.253", got["mean"])
    assert fmt.matches("0,252", got["mean"]) is False


def test_question_2s_cells_are_plain_and_the_worksheet_says_so():
    """C9 is four steps from the boat (outside the three-step list): the lesson and the worksheet
    state that F9, E9, D9 and C9 are plain cells, and on the map they are."""
    lay = S.start_view(1).layout
    assert all(S.cell(n) in lay.plain for n in ("F9", "E9", "D9", "C9"))
    for lang, words in (("de", "F9, E9, D9 und C9 sind normale Felder"), ("en", "F9, E9, D9 and C9 are plain cells")):
        nb = json.loads((ROOT / "notebooks" / lang / "scratch-island.ipynb").read_text(encoding="utf-8"))
        assert words in nb["metadata"]["spieltisch"]["lesson"]["worksheet"][1]["task"]


def test_the_teachers_page_asks_the_class_after_the_prediction():
    """A question to the class that points to an answer ("what is lost when a snake comes up…"
    points to the cross first) is asked after the show of hands: every question's and extension's
    "ask" says so."""
    for lang, mark in (("de", "(nach der Vorhersage)"), ("en", "(after the prediction)")):
        nb = json.loads((ROOT / "notebooks" / lang / "scratch-island.ipynb").read_text(encoding="utf-8"))
        meta = nb["metadata"]["spieltisch"]["lesson"]
        rows = [r for r in meta["path"] if r["cells"].startswith(("Frage", "Question"))] + meta["extensions"]
        assert len(rows) == 5
        assert all(r["ask"].endswith(mark) for r in rows), lang  # the mark every lesson uses
