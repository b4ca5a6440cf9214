"""Skip-Bo Masters (Mattel): empty your stock pile first; shared building piles 1-12, wild cards and
coins (replace, buy, toll). Assembled here from ``engine`` (rules), ``analysis`` (exact chances and the
advisor) and ``bots``; registered with the core with its view (``view``, the shared front-end's drawing)."""

from ...core.registry import register
from . import analysis, bots
from .engine import SkipBoMasters

register(SkipBoMasters, bots=bots.BOTS, advisor=analysis.advise, analyzer=analysis.analyze,
         view="spieltisch.games.skip_bo_masters.view:SkipBoMastersView")

__all__ = ["SkipBoMasters"]

from ...core.registry import register_questions  # noqa: E402

register_questions("skip-bo-masters", "spieltisch.games.skip_bo_masters.questions:QUESTIONS")
