"""Würfel Joker (KRONE): Spiel 1 (push your luck with three dice and jokers) and Spiel 2 (slides 1-9).

Each game is one folder (``spiel1/``, ``spiel2/``) with the template's files: ``engine`` (rules,
no sibling imports), ``bots``, ``analysis`` (exact solver, advisor); its ``__init__`` registers it.
"""

from . import spiel1, spiel2  # noqa: F401  (each registers its game)

from ...core.registry import register_questions

register_questions("wuerfel-joker", "spieltisch.games.wuerfel_joker.questions:QUESTIONS")
