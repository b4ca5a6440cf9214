"""Bots see only ``observation(player)`` and the legal actions, never the hidden state."""

from __future__ import annotations


class Bot:
    name = "bot"

    def act(self, observation: dict, legal_actions: list, rng):
        raise NotImplementedError


class RandomBot(Bot):
    name = "random"

    def act(self, observation, legal_actions, rng):
        return legal_actions[rng.below(len(legal_actions))]
