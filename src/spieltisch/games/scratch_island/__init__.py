"""Scratch Island: roll motif dice, scratch a path on your treasure map, find keys, open chests.

Assembled here: ``engine`` (rules, map generator), ``analysis`` (exact chances and the advisor),
``bots``; registered with the core (no view yet: the front-end is being rebuilt).
"""

from ...core.registry import register
from .engine import ScratchIsland

register(ScratchIsland)

__all__ = ["ScratchIsland"]
