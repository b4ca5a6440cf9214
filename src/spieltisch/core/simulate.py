"""Many seeded bot games: win rates and score statistics with confidence intervals."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SpieltischError
from .match import Match
from .registry import get_game_class, make_bot
from .rng import Rng, check_seed
from .stats import Estimate, mean_ci, proportion_ci


@dataclass
class SimulationResult:
    game_id: str
    players: int
    bots: list[str]
    options: dict
    games: int
    seed: int
    win_rate: list[Estimate]  # ties share the win: a k-way tie counts 1/k for each
    mean_score: list[Estimate]
    all_scores: list[list]

    def to_json(self) -> dict:
        return {
            "game": self.game_id,
            "players": self.players,
            "bots": self.bots,
            "options": self.options,
            "games": self.games,
            "seed": self.seed,
            "seats": [
                {"seat": i, "bot": self.bots[i], "win_rate": w.to_json(), "mean_score": s.to_json()}
                for i, (w, s) in enumerate(zip(self.win_rate, self.mean_score))
            ],
            # pooled over seats: the mean score of one player's game
            "mean_score": mean_ci([float(v) for seat in self.all_scores for v in seat]).to_json(),
        }


# The most games one ``simulate`` call plays (every score is kept for the statistics).
MAX_GAMES = 1_000_000


def iter_game_seeds(seed: int, games: int):
    """Per game: (chance seed, bot seed), derived from one master seed, one game at a time."""
    master = Rng(check_seed(seed))
    for _ in range(games):
        yield master.spawn(), master.spawn()


def game_seeds(seed: int, games: int) -> list[tuple[int, int]]:
    """``iter_game_seeds`` as a list."""
    return list(iter_game_seeds(seed, games))


def play_one(game, num_players, options, bot_names, chance_seed, bot_seed) -> Match:
    """One seeded bot game. ``game`` is an id (validated with players and options) or a
    configured ``Game`` (then players and options are None)."""
    match = Match(game, num_players, options, chance_seed)
    bots = [make_bot(match.game, name) for name in bot_names]
    match.play(bots, Rng(bot_seed))
    return match


def simulate(game_id: str, num_players: int, bot_names: list[str], games: int, seed: int = 0,
             options: dict | None = None, progress=None) -> SimulationResult:
    """Play ``games`` seeded bot games; every argument is checked before anything is built."""
    cls = get_game_class(game_id)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise SpieltischError(f"simulate plays 1 to {MAX_GAMES:,} games, not {str(games)[:20]}")
    check_seed(seed)
    game = cls(num_players, options)  # validates players and options before the long run
    num_players = game.num_players
    if len(bot_names) == 1:
        bot_names = bot_names * num_players
    if len(bot_names) != num_players:
        raise SpieltischError(f"give one bot for all seats or one per seat ({num_players}), got {len(bot_names)}")
    for name in set(bot_names):
        make_bot(game, name)
    wins = [0.0] * num_players
    scores: list[list] = [[] for _ in range(num_players)]
    every = max(1, games // 50)
    for i, (cs, bs) in enumerate(iter_game_seeds(seed, games)):
        m = play_one(game, None, None, bot_names, cs, bs)
        final = m.state.scores()
        winners = m.state.winners()
        for w in winners:
            wins[w] += 1 / len(winners)
        for p in range(num_players):
            scores[p].append(final[p])
        if progress and ((i + 1) % every == 0 or i + 1 == games):
            progress(i + 1, games)
    return SimulationResult(
        game_id, num_players, list(bot_names), dict(game.options), games, seed,
        [proportion_ci(w, games) for w in wins],
        [mean_ci([float(v) for v in s]) for s in scores],
        scores,
    )
