"""Bots see only ``observation(player)`` and the legal actions, never the hidden state."""

from __future__ import annotations

from collections.abc import Sequence


class Bot:
    name = "bot"
    # False for bots that never look at the position (the random bot): the play loop then does
    # not build an observation for them.
    uses_observation = True

    def act(self, observation: dict, legal_actions: Sequence, rng):
        """One of ``legal_actions`` (a list or tuple the bot must not change)."""
        raise NotImplementedError


class RandomBot(Bot):
    name = "random"
    uses_observation = False

    def act(self, observation, legal_actions, rng):
        return legal_actions[rng.below(len(legal_actions))]


RANDOM_BOT = RandomBot()  # stateless, so one instance serves every seat and game
