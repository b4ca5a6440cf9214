"""The lesson kit: what every game's lesson notebook uses (no game is named here).

- ``fmt``: numbers per language (German 0,35 and 35,2 %; small exact fractions, long ones on request),
  and reading what a student types (``read``, ``matches``);
- ``pictures``: SVG pictures (6×6 dice grid, tree diagram and its skeleton, the law of large numbers
  as a funnel of series, bars of whole numbers; the first edition's running share and histogram);
- ``widgets``: predictions whose answers wait for them (``answer``, ``explore``, ``simulate`` with a
  question's key), work by hand (``grid``, ``tree``, ``check``), ``compare`` (the first prediction
  frozen) and ``reveal``. Needs anywidget (the ``widgets`` extra; in the site's kernel);
- ``sheet``: the printable worksheet; ``versions``: the student and the teacher version.

The format of a lesson is described in docs/lessons.md.
"""

from . import fmt, pictures
from .fmt import fraction, integer, number, percent, points, probability, ratio
from .pictures import Node, Picture, bars, dice_grid, funnel, histogram, running_share, tree

__all__ = ["fmt", "pictures", "fraction", "integer", "number", "percent", "points", "probability", "ratio",
           "Node", "Picture", "bars", "dice_grid", "funnel", "histogram", "running_share", "tree"]
