"""Every registered game runs the generic conformance test (tests/conformance.py)."""

import pytest

from harness.conformance import check_game, configs
from spieltisch import game_ids

CASES = [(gid, n, opts) for gid in game_ids() for n, opts in configs(gid)]
GAMES_PER_CASE = 60


@pytest.mark.parametrize("game_id,players,options", CASES, ids=[f"{g}-{n}p-{o}" for g, n, o in CASES])
def test_random_playthroughs(game_id, players, options):
    for seed in range(GAMES_PER_CASE):
        check_game(game_id, players, options, seed, check_all_actions=seed < 5)


def test_toy_game_conformance(pig):
    for seed in range(100):
        check_game("test-pig", 2, {}, seed, check_all_actions=True)
