"""Issue 31 item 6, the fresh teacher review: one rounding everywhere, the keys answer every worksheet
line, the other reading of Skip-Bo's question 3, the keys' counted fractions, the English curriculum
labels, Scratch Island's drawing boards and the style of keys and board."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from spieltisch.core import registry
from spieltisch.core.questions import Counted, approx_text, show_value
from spieltisch.lesson import fmt, sheet

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LANGS = ("de", "en")
LESSONS = sorted({p.stem for p in NOTEBOOKS.glob("*/*.ipynb")})


def meta(lid: str, lang: str) -> dict:
    return json.loads((NOTEBOOKS / lang / f"{lid}.ipynb").read_text(encoding="utf-8"))["metadata"]["spieltisch"]["lesson"]


def key_text(lid: str, lang: str) -> str:
    page = sheet.answer_key(meta(lid, lang), registry.questions(lid, core=True))
    return re.sub(r"<[^>]+>", " ", page).replace("&#x27;", "'").replace("&quot;", '"')


# --- 1. one rounding: half away from zero, from the exact value -----------------------------------------------
@pytest.mark.parametrize("value, unit, de, en", [
    (Fraction(9, 16), "share", "56,3 %", "56.3%"),  # 56,25: half-even on the float would give 56,2
    (Fraction(-205, 8), "points", "−25,63 Punkte", "−25.63 points"),  # −25,625
    (Fraction(1, 8), "share", "12,5 %", "12.5%"),
    (Fraction(1, 3), "number", "0,33", "0.33"),
])
def test_the_board_and_key_round_as_the_notebook_does(value, unit, de, en):
    assert show_value(value, unit, "de") == de and show_value(value, unit, "en") == en
    # the notebook's formatter gives the same digits
    lesson = fmt.percent(value, "de") if unit == "share" else fmt.number(value, "de")
    assert de.startswith(lesson.replace("\xa0", " ").rstrip(" %")), (de, lesson)
    # and a float of the same value rounds alike (taken at its exact binary value)
    assert show_value(float(value), unit, "de") == de


def test_the_keys_print_the_reviews_values_rounded_half_up():
    wj = key_text("wuerfel-joker", "de")
    assert "9/16 ≈ 56,3 %" in wj and "−205/8 ≈ −25,63 Punkte" in wj
    assert "56,2 %" not in wj and "−25,62" not in wj
    q = registry.question("wuerfel-joker-q2").reveal([1, 1], "de")
    assert "−25,63" in q["values_text"] and "−25,62" not in q["values_text"]
