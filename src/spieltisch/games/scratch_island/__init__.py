"""Scratch Island: roll motif dice, scratch a path on your treasure map, find keys, open chests.

Assembled here: ``engine`` (rules, map generator), ``analysis`` (exact chances, the shared
evaluation, the advisor, exact facts), ``bots``; registered with the core; ``view`` draws it on the shared front-end.
"""

from ...core.registry import register
from . import analysis, bots
from .engine import ScratchIsland

register(ScratchIsland, bots=bots.BOTS, advisor=analysis.advise, analyzer=analysis.analyze,
         view="spieltisch.games.scratch_island.view:ScratchIslandView")

__all__ = ["ScratchIsland"]

from ...core.registry import register_questions  # noqa: E402

register_questions("scratch-island", "spieltisch.games.scratch_island.questions:QUESTIONS")
