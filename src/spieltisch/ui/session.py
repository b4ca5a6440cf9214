"""A play session for front-ends: human seats, bot seats, and step-by-step progress (stdlib only).

The widgets and Panel apps drive a ``PlaySession``; it never decides a rule itself, it asks the
engine (``Match``/``State``) and reports what happened as log lines.
"""

from __future__ import annotations

from ..core.game import CHANCE, TERMINAL
from ..core.match import Match
from ..core.registry import make_bot
from ..core.rng import Rng


class PlaySession:
    def __init__(self, game_id: str, players: int, options: dict | None = None, seed: int = 0,
                 bots: dict[int, str] | None = None):
        self.match = Match(game_id, players, options, seed)
        self.bot_names = dict(bots or {})
        self.bots = {seat: make_bot(self.match.game, name) for seat, name in self.bot_names.items()}
        self.bot_rng = Rng(seed ^ 0x5EED)
        self.log: list[tuple[int, str]] = []  # (who, text); who = CHANCE for chance events

    @property
    def state(self):
        return self.match.state

    def current_player(self) -> int:
        return self.match.current_player()

    def is_over(self) -> bool:
        return self.match.current_player() == TERMINAL

    def waiting_for_human(self) -> bool:
        p = self.match.current_player()
        return p >= 0 and p not in self.bots

    def legal_actions(self) -> list:
        return self.match.legal_actions() if self.waiting_for_human() else []

    def step(self):
        """Advance by one chance event or one bot move; returns the action, or None if a human must act."""
        p = self.match.current_player()
        if p == TERMINAL or (p >= 0 and p not in self.bots):
            return None
        if p == CHANCE:
            a = self.match.step_chance()
        else:
            legal = self.match.legal_actions()
            a = self.bots[p].act(self.match.state.observation(p), legal, self.bot_rng)
            self.match.apply(a)
        self.log.append((p, str(a)))
        return a

    def run_until_human(self, max_steps: int = 10_000) -> list:
        done = []
        for _ in range(max_steps):
            a = self.step()
            if a is None:
                break
            done.append(a)
        return done

    def step_chance_only(self) -> list:
        """Resolve pending chance events (e.g. the human's own throw) but no bot moves."""
        done = []
        while self.match.current_player() == CHANCE:
            done.append(self.step())
        return done

    def act(self, action) -> None:
        """A human's move; an illegal one raises ``IllegalActionError`` and changes nothing."""
        p = self.match.current_player()
        self.match.apply(action)
        self.log.append((p, str(action)))

    def undo(self) -> None:
        self.match.undo()
        self.log.append((-9, "undo"))
