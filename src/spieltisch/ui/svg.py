"""Old home of the die and slide pictures, now ``spieltisch.games.wuerfel_joker.view`` (the Würfel Joker
view). Kept so that the Tüfteln widget's dice still import from here until it draws them elsewhere."""

from ..games.wuerfel_joker.view import badge, dice_row, die, slide, slides_row  # noqa: F401
