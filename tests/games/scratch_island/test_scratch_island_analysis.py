"""Scratch Island: exact chances against sampling, the advisor and the bots never peek."""

import json
from fractions import Fraction
from math import prod

import pytest
from si_helpers import cell, position, random_match, roll

from spieltisch.core.match import Match
from spieltisch.core.registry import make_bot
from spieltisch.core.rng import Rng
from spieltisch.core.stats import proportion_ci
from spieltisch.games.scratch_island import analysis
from spieltisch.games.scratch_island.analysis import MapView, cell_chances, legal_from_observation, snake_chance
from spieltisch.games.scratch_island.engine import CELLS, SNAKE, TREASURE_CHARS, Choose, ScratchIsland


def midgame(seed=4, players=3, steps=150):
    return random_match(seed, players, steps, move_seed=seed + 100)


def test_exact_cell_chances_match_sampling_from_resample_hidden():
    """P(snake), P(treasure kind) under an unscratched plain cell and P(key) under a cross: the
    exact counts against 3000 resamples of what is hidden (Wilson 95 % intervals, fixed seed)."""
    m = midgame()
    s = m.state
    view = MapView.of(s.observation(0), 0)
    lay = view.layout
    plain = next(c for c in lay.plain if not s.scratched[0] >> c & 1)
    cross = next(c for c in lay.crosses if not s.scratched[0] >> c & 1)
    exact = cell_chances(view, plain)
    key_exact = cell_chances(view, cross)
    assert sum(exact["treasure"]) + exact["snake"] + exact["nothing"] == 1
    n, rng = 3000, Rng(77)
    snakes = ring = keys = 0
    for _ in range(n):
        r = s.resample_hidden(0, rng)
        snakes += r.content[0][plain] == SNAKE
        ring += r.content[0][plain] == TREASURE_CHARS[3]
        keys += r.content[0][cross] not in "-"
    for hits, q in ((snakes, exact["snake"]), (ring, exact["treasure"][3]),
                    (keys, sum(key_exact["key"].values()))):
        assert proportion_ci(hits, n).contains(q), (hits, n, q)


def test_snake_chance_of_a_motif_is_the_hypergeometric_count():
    m = midgame()
    view = MapView.of(m.state.observation(None), 1)
    free = [c for c in view.layout.plain if not view.scratched >> c & 1][:4]
    u, s = view.plain_left, view.snakes_left
    for k in range(1, 5):
        no_snake = prod(Fraction(u - s - i, u - i) for i in range(k))  # one cell after the other
        assert snake_chance(view, free[:k]) == 1 - no_snake
    # a cross or a chest never hides a snake
    assert snake_chance(view, [c for c in view.layout.crosses]) == 0


def test_order_value_counts_a_cell_only_if_no_snake_came_before():
    """The evaluation of a motif in a given order against a simulation of that order on resampled maps:
    the expected treasure points found before the first snake."""
    s = position(2, contents={0: {"E9": "S", "G9": "1", "F9": "2", "F8": "3", "C3": "S", "D3": "S",
                                  "E3": "S", "F3": "S", "A5": "2", "B5": "3", "C5": "4", "D5": "4", "E5": "4"}})
    s.scratched[0] = 1 << cell("F10")
    roll(s, "I3", "mono", "pickaxe", "pickaxe")
    s.apply_action(Choose(0, 1, False))
    obs = s.observation(0)
    view = MapView.of(obs, 0)
    ev = analysis.Evaluator(view, obs["sets_first"], 0, exact=True, nearest_only=True)
    order = [cell("F9"), cell("E9"), cell("D9")]
    exact = sum(ev.cell_gain(view, c) * analysis._reach_chance(view.plain_left - 1, view.snakes_left, j, Fraction)
                for j, c in enumerate(order))
    n, rng, total = 4000, Rng(5), Fraction(0)
    values = [ev.symbol[k] for k in range(4)]
    for _ in range(n):
        r = s.resample_hidden(0, rng)
        for c in order:
            it = r.content[0][c]
            if it == SNAKE:
                break
            if it in TREASURE_CHARS:
                total += values[TREASURE_CHARS.index(it)]
    mean = float(total) / n
    assert abs(mean - float(exact)) < 0.05, (mean, float(exact))


def test_advisor_lists_exactly_the_legal_actions():
    # how fast it answers is measured in benchmarks/ (a timed test depends on the machine)
    m = Match("scratch-island", 4, {}, 11)
    rng = Rng(2)
    seen, asked = set(), 0
    while not m.is_terminal() and (len(seen) < 4 or asked < 40):
        if m.current_player() < 0:
            m.step_chance()
            continue
        obs = m.state.observation(m.current_player())
        legal = m.legal_actions()
        assert sorted(map(repr, legal_from_observation(m.game, obs))) == sorted(map(repr, legal))
        adv = m.game.advise(obs)
        assert adv.exact and sorted(map(repr, (o.action for o in adv.options))) == sorted(map(repr, legal))
        assert all(isinstance(o.value, Fraction) for o in adv.options)
        json.dumps(adv.to_json())
        seen.add(obs["phase"])
        asked += 1
        m.apply(legal[rng.below(len(legal))])
    assert seen == {"choose", "take", "place", "scratch"}


@pytest.mark.parametrize("bot", ["greedy", "strong"])
def test_bots_and_advisor_never_peek(bot):
    """A bot's choice and the advisor's values do not change when only hidden content changes:
    the same position with the unscratched content dealt afresh gives the same answers."""
    game = ScratchIsland(3)
    b = make_bot(game, bot)
    checked = 0
    for seed in range(3):
        m = midgame(seed=seed, steps=40 + 30 * seed)
        s = m.state
        while s.is_chance_node():
            s.apply_action(s.sample_chance(Rng(seed)))
        if s.is_terminal():
            continue
        p = s.current_player()
        choice = b.act(s.observation(p), tuple(s.legal_actions()), Rng(9))
        advice = m.game.advise(s.observation(p)).to_json()
        for k in range(5):
            r = s.resample_hidden(p, Rng(k))
            assert r.content != s.content  # the hidden content did change
            assert b.act(r.observation(p), tuple(r.legal_actions()), Rng(9)) == choice
            assert m.game.advise(r.observation(p)).to_json() == advice
            checked += 1
    assert checked >= 10


def test_a_peeking_bot_would_be_caught():
    """Negative control: a chooser that reads the true content (the snake cells) changes its choice
    when the hidden content is redrawn, so the test above can fail."""
    m = midgame(seed=1, steps=70)
    s = m.state
    def peek(state):
        return sum(1 << c for c in range(CELLS) if state.content[0][c] == SNAKE)
    assert any(peek(s.resample_hidden(0, Rng(k))) != peek(s) for k in range(5))


@pytest.mark.parametrize("bot", ["greedy", "strong"])
def test_bots_play_legal_games(bot):
    m = Match("scratch-island", 2, {"rounds": 8}, 3)
    m.play([make_bot(m.game, bot), make_bot(m.game, "random")], Rng(4))
    assert m.is_terminal()


def test_analyze_is_json_and_exact():
    out = ScratchIsland(4).analyze()
    json.dumps(out)
    plain = out["reference_map"]["plain_cells"]
    assert out["prior_chances"]["snake_under_a_plain_cell"]["fraction"] == str(Fraction(5, plain))
    assert out["sampled_check"]["contains_exact"]
    assert out["max_points"] == 30
    assert out["roll_has_a_pickaxe"]["fraction"] == str(1 - Fraction(5, 6) ** 5)
    assert out["provenance"]["en"].startswith("reconstruction")


def test_die_report_counts_placements_and_orders_exactly():
    """A 3-line next to the path F10-F9 on an open map, orders counted by hand: F8-F7-F6 has one
    order (F8 first, it alone touches the path); E8-F8-G8 has two (F8 first, then E8 and G8 either
    way round). Every placement's count against a brute force over all permutations."""
    from itertools import permutations

    s = position(2)
    s.scratched[0] = (1 << cell("F10")) | (1 << cell("F9"))
    rep = analysis.die_report(s.observation(0), 0, "I3")
    by_cells = {tuple(r["cells"]): r for r in rep["options"]}
    assert by_cells[("F6", "F7", "F8")]["orders"] == 1
    assert by_cells[("E8", "F8", "G8")]["orders"] == 2
    view = MapView.of(s.observation(0), 0)
    # every count against a brute force over all permutations
    for r in rep["options"]:
        cells = [cell(n) for n in r["cells"]]
        ok = 0
        for perm in permutations(cells):
            scr = view.scratched
            good = True
            for c in perm:
                if not view.layout.nbr[c] & scr:
                    good = False
                    break
                scr |= 1 << c
            ok += good
        assert r["orders"] == ok
    assert rep["placements"] == len(rep["options"]) and rep["orders"] == sum(r["orders"] for r in rep["options"])
    assert all(r["snake"] == snake_chance(view, [cell(n) for n in r["cells"]]) for r in rep["options"])
    assert rep["pickaxe_adds_placements"] == 0  # an open map has no rocks


def test_map_chances_add_up_to_what_is_hidden():
    """Over all unscratched cells the chances add up to the items still hidden: 5 snakes minus those
    found, the treasure symbols not found, the keys not found (linearity of expectation)."""
    m = midgame()
    obs = m.state.observation(2)
    for seat in range(3):
        ch = analysis.map_chances(obs, seat)
        view = MapView.of(obs, seat)
        assert sum(v["snake"] for v in ch.values()) == view.snakes_left
        assert sum(v["treasure"] for v in ch.values()) == sum(view.treasure_left)
        assert sum(v["key"] for v in ch.values()) == (len(view.keys_left) if view.crosses_left else 0)


def test_pickaxe_value_with_a_rock_in_the_way():
    """A rock wall in row 9 next to the path: the 2-line alone cannot go up, with the pickaxe it can;
    the combination adds placements and value."""
    from si_helpers import OPEN_MAP, layout

    rows = list(OPEN_MAP)
    rows[8] = "####.#####"
    s = position(2, maps=[layout(rows), layout()])
    s.scratched[0] = sum(1 << cell(n) for n in ("C10", "D10", "E10", "F10", "G10", "H10"))
    rep = analysis.die_report(s.observation(0), 0, "I2")
    assert rep["pickaxe_adds_placements"] > 0
    assert rep["pickaxe_value"] > 0


def test_advisor_refuses_what_is_not_a_decision():
    from spieltisch.core.errors import SpieltischError

    game = ScratchIsland(2)
    m = midgame(players=2, steps=30)
    obs = m.state.observation(0)
    for bad in ({}, None, "x", dict(obs, game="tuefteln"), dict(obs, maps=[]), dict(obs, to_move=None)):
        with pytest.raises(SpieltischError):
            game.advise(bad)


def last_round_take(end: str):
    """Three players on open maps; player 0 opens the fourth chest with the 1-cell die and uses the
    pickaxe; player 1 (path: the boat F10) takes a die next. The observation of that decision."""
    from si_helpers import cell, position

    from spieltisch.games.scratch_island.engine import Place

    s = position(3, end=end)
    s.keys[0] = "BGRY"
    s.opened[0] = ("blue", "red", "yellow")
    s.scratched[0] = sum(1 << c for c in range(91, 96))
    s.scratched[1] = 1 << cell("F10")
    roll(s, "mono", "I2", "I4", "pickaxe")
    s.apply_action(Choose(0, 3, False))
    s.apply_action(Place((cell("A10"),)))
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() == 1 and s.phase == "take" and s.end_triggered
    return s.observation(1)


def test_in_the_last_round_the_advisor_counts_points_only():
    """D9 ``this_roll``: player 1's die is their last use of dice (``rounds_left`` 0), so progress
    and keys are worth nothing and a treasure symbol counts only where it completes its kind – here
    the ring (1 symbol, 2 points). Hand count: u = 95 unscratched plain cells, 5 snakes; a cell
    after j plain cells holds the ring and is reached with (1/u)·C(u-1-j, 5)/C(u-1, 5). With the
    default end (two more rolls follow) the same dice are also worth their progress."""
    from math import comb

    obs = last_round_take("this_roll")
    assert obs["rounds_left"] == 0
    game = ScratchIsland(3, {"end": "this_roll"})
    values = {o.action.die: o.value for o in game.advise(obs).options}
    u, s = 95, 5

    def ring(cells):
        return sum(Fraction(2, u) * Fraction(comb(u - 1 - j, s), comb(u - 1, s)) for j in range(cells))

    assert values == {1: ring(2), 2: ring(4)}
    later = last_round_take("all_rolled")
    assert later["rounds_left"] == 2
    more = {o.action.die: o.value for o in ScratchIsland(3).advise(later).options}
    assert all(more[d] > values[d] for d in values)


def test_the_advisor_and_the_review_name_the_motifs_chosen():
    """The review shows the advisor's option labels: the roller's choice names the two motifs in
    their order ("4er-L, dann 2er-Linie"), a taken die its motif, a placement its motif and cells –
    never "die 4, then 3". Checked against the faces each decision's observation shows."""
    from spieltisch.core.advice import review
    from spieltisch.games.scratch_island.engine import Place, Take, cell_name, face_name

    m = Match("scratch-island", 2, {"rounds": 3}, 8)
    m.play([make_bot(m.game, "strong"), make_bot(m.game, "greedy")], Rng(2))
    rv = review(m)
    state = m.game.new_initial_state()
    before = {}
    for i, a in enumerate(m.actions):
        before[i] = state.observation(state.current_player()) if state.current_player() >= 0 else None
        state.apply_action(a)
    kinds = set()
    for d in rv.decisions:
        obs, action = before[d.index], m.actions[d.index]
        faces = [x["face"] for x in obs["dice"]]
        for lang, then in (("de", "dann"), ("en", "then")):
            label = d.chosen.label[lang]
            if isinstance(action, Choose) and not action.combine:
                assert label == f"{face_name(faces[action.first], lang)}, {then} {face_name(faces[action.second], lang)}"
            elif isinstance(action, Choose):
                assert label.startswith(face_name(faces[action.first], lang) + " ")
            elif isinstance(action, Take):
                assert label.endswith(" " + face_name(faces[action.die], lang))
            elif isinstance(action, Place):
                assert face_name(obs["pending"][0]["face"], lang) in label
                assert label.endswith(" ".join(cell_name(c) for c in action.cells))
            assert "Würfel 1" not in label and "die 1" not in label
        kinds.add(type(action).__name__)
    assert {"Choose", "Take", "Place"} <= kinds
