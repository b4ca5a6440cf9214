"""Scratch Island: roll motif dice, scratch a path on your treasure map, find keys, open chests.

Assembled here: ``engine`` (rules, map generator), ``analysis`` (exact chances, the shared
evaluation, the advisor, exact facts), ``bots``; registered with the core (no view yet: the
front-end is being rebuilt).
"""

from ...core.registry import register
from . import analysis, bots
from .engine import ScratchIsland

register(ScratchIsland, bots=bots.BOTS, advisor=analysis.advise, analyzer=analysis.analyze)

__all__ = ["ScratchIsland"]
