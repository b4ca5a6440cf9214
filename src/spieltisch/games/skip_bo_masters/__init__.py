"""Skip-Bo Masters (Mattel): empty your stock pile first; shared building piles 1-12, wild cards and
coins (replace, buy, toll). Assembled here from ``engine`` (rules), ``analysis`` (exact chances and the
advisor) and ``bots``; registered with the core (no view yet: the front-end is being rebuilt)."""

from ...core.registry import register
from . import analysis, bots
from .engine import SkipBoMasters

# no view= yet: the game stays on its "planned" landing card until the front-end draws it
register(SkipBoMasters, bots=bots.BOTS, advisor=analysis.advise, analyzer=analysis.analyze)

__all__ = ["SkipBoMasters"]
