"""The lesson kit: what every game's lesson notebook uses (no game is named here).

- ``fmt``: numbers per language (German 0,35 and 35,2 %; small exact fractions, long ones on request);
- ``pictures``: SVG pictures (6×6 dice grid, tree diagram, running share, histogram);
- ``widgets``: predictions (choice, slider, number), ``compare`` and ``reveal`` buttons, ``explore``
  (a slider that redraws a picture). Needs ipywidgets (the ``widgets`` extra; in the site's kernel).

The format of a lesson is described in docs/lessons.md.
"""

from . import fmt, pictures
from .fmt import fraction, integer, number, percent, points, probability, ratio
from .pictures import Node, Picture, dice_grid, histogram, running_share, tree

__all__ = ["fmt", "pictures", "fraction", "integer", "number", "percent", "points", "probability", "ratio",
           "Node", "Picture", "dice_grid", "histogram", "running_share", "tree"]
