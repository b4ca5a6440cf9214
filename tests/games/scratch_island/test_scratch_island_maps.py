"""Scratch Island maps: the generator's guarantees on thousands of seeds, its data, hidden content."""

import json
from collections import Counter

import pytest
from si_helpers import layout, random_match

from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import SPECTATOR
from spieltisch.core.match import Match
from spieltisch.core.rng import Rng
from spieltisch.games.scratch_island import engine
from spieltisch.games.scratch_island.engine import (
    BOOKLET, CELLS, ITEMS, KEY_CHAR, SNAKE, SIZE, check_layout, generate_layout, validate_data,
)

PAGES = range(0, BOOKLET, 6)  # 683 pages × 3 seats = 2049 maps


def test_generator_guarantees_on_thousands_of_maps():
    """Every chest and cross reachable from the boat (rocks may need a pickaxe), one chest of each
    colour in the corners with points 3-6, six crosses, 8-10 rocks, the boat in the bottom row."""
    boats = Counter()
    walls = 0
    for page in PAGES:
        for seat in range(3):
            lay = generate_layout(page, seat)
            assert check_layout(lay) == [], (page, seat)
            assert sorted(lay.chests) == [0, SIZE - 1, CELLS - SIZE, CELLS - 1]
            assert sorted(p for _, p in lay.chests.values()) == [3, 4, 5, 6]
            assert len(lay.crosses) == 6
            assert 8 <= bin(lay.rocks).count("1") <= 10
            assert not lay.rocks >> lay.boat & 1 and lay.boat not in lay.crosses
            boats[lay.boat] += 1
            walls += bin(lay.wall_east | lay.wall_south).count("1") > 0
    assert set(boats) == {94, 95}
    assert walls == 3 * len(PAGES)  # the maps do have walls (the guarantee is not won by having none)


def test_check_layout_catches_a_walled_off_map():
    """Negative control: the guarantee check fails a map with an enclosed cross or chest."""
    rows = ["b........r", "..........", "..x....x..", "......x...", "....x.....", "..........",
            ".x......x.", "..........", "..........", "g....A...y"]
    enclosed = layout(rows, walls=[("D5", "east"), ("E5", "east"), ("E4", "south"), ("E5", "south")])
    assert any("walled off" in b for b in check_layout(enclosed))
    chest = layout(rows, walls=[("A1", "east"), ("A1", "south")])
    assert any("walled in" in b for b in check_layout(chest))
    assert check_layout(layout(rows)) == []


def test_maps_are_deterministic_and_differ_per_seat():
    """One game seed (the booklet page), a different map for every player."""
    a = [generate_layout(17, s) for s in range(4)]
    assert [generate_layout(17, s) for s in range(4)] == a
    assert len({lay.key for lay in a}) == 4
    assert generate_layout(18, 0) != a[0]
    with pytest.raises(SpieltischError):
        generate_layout(BOOKLET, 0)


def test_hidden_items_guarantees_on_many_games():
    """Keys for all four colours under four of the six crosses, nothing under the other two; snakes
    and treasure symbols never on the boat, a cross, a chest or a rock; the counts on every map."""
    for seed in range(300):
        m = Match("scratch-island", 4, {}, seed)
        m.resolve_chance()
        s = m.state
        for p in range(4):
            lay, content = s.layouts[p], s.content[p]
            under_crosses = sorted(content[c] for c in lay.crosses)
            assert under_crosses == sorted(["-", "-", *KEY_CHAR.values()])
            for c in range(CELLS):
                if c == lay.boat or c in lay.chests or lay.rocks >> c & 1:
                    assert content[c] == ".", (seed, p, c)
            assert Counter(content[c] for c in lay.plain) == Counter(
                {**Counter(i for i in ITEMS if i not in KEY_CHAR.values()),
                 ".": len(lay.plain) - len(ITEMS) + 4})


def test_hidden_placement_is_uniform_over_allowed_cells():
    """Each hide node offers every free allowed cell with the same exact probability."""
    m = Match("scratch-island", 2, {}, 5)
    m.step_chance()  # the booklet page
    s = m.state
    keys = s.chance_outcomes()
    assert len(keys) == 6 and {q for _, q in keys} == {engine.Fraction(1, 6)}
    for _ in range(4):
        m.step_chance()
    snakes = s.chance_outcomes()
    assert len(snakes) == len(s.layouts[0].plain)
    assert sum(q for _, q in snakes) == 1


def test_data_file_is_validated_naming_file_and_field():
    data = json.loads((engine.resources.files(engine.__package__) / engine.DATA_FILE).read_text())
    validate_data(data)
    for change, field in [({"provenance": "rulebook"}, "provenance"), ({"note": ""}, "note"),
                          ({"dice": {**data["dice"], "blue": ["mono"] * 5}}, "dice.blue"),
                          ({"motifs": {**data["motifs"], "I2": [[0, 0], [0, 2]]}}, "motifs.I2"),
                          ({"map": {**data["map"], "crosses": 3}}, "map.crosses")]:
        with pytest.raises(SpieltischError) as e:
            validate_data({**data, **change})
        assert engine.DATA_FILE in str(e.value) and field in str(e.value)


# --- hidden information --------------------------------------------------------------------------------
def started(seed=3, players=3, steps=60):
    return random_match(seed, players, steps, move_seed=seed)


def test_nobody_sees_unscratched_content_not_even_the_owner():
    m = started()
    s = m.state
    for viewer in (0, 1, 2, SPECTATOR):
        obs = s.observation(viewer)
        for p, mp in enumerate(obs["maps"]):
            found = "".join(mp["found"])
            for c in range(CELLS):
                assert (found[c] == "?") == (not s.scratched[p] >> c & 1)
                if found[c] != "?":
                    assert found[c] == s.content[p][c]
    # the observations of all viewers differ only in who is asking
    views = [dict(s.observation(v), player=None) for v in (0, 1, 2, SPECTATOR)]
    assert all(v == views[0] for v in views)


def test_resample_hidden_redeals_only_unscratched_content():
    m = started()
    s = m.state
    seen = set()
    for seed in range(30):
        r = s.resample_hidden(0, Rng(seed))
        for p in range(3):
            lay = s.layouts[p]
            for c in range(CELLS):
                if s.scratched[p] >> c & 1:
                    assert r.content[p][c] == s.content[p][c]
            assert Counter(r.content[p][c] for c in lay.plain) == Counter(s.content[p][c] for c in lay.plain)
            assert Counter(r.content[p][c] for c in lay.crosses) == Counter(s.content[p][c] for c in lay.crosses)
        assert r.observation(1) == s.observation(1)
        seen.add(tuple(r.content))
    assert len(seen) == 30  # it really redraws


def test_resample_hidden_keeps_snakes_off_forbidden_cells():
    m = started(steps=0)
    s = m.state
    for seed in range(20):
        r = s.resample_hidden(None, Rng(seed))
        for p, lay in enumerate(r.layouts):
            snakes = [c for c in range(CELLS) if r.content[p][c] == SNAKE]
            assert len(snakes) == engine.SNAKES and all(c in lay.plain for c in snakes)


def test_a_leaky_observation_would_be_caught():
    """Negative control: an observation that showed unscratched content differs after resampling."""
    m = started()
    s = m.state
    leak = lambda st: st.content[0]  # noqa: E731 - what a leaking view would show
    assert any(leak(s.resample_hidden(0, Rng(k))) != leak(s) for k in range(5))


def test_generic_hidden_information_check_is_not_vacuous_here():
    """The conformance harness's leak check, demanding that resample_hidden really changed states."""
    from harness.conformance import check_game

    for seed in range(2):
        check_game("scratch-island", 2, {"rounds": 1}, seed, hidden=True)
