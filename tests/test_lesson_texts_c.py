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


# --- 3. Skip-Bo question 3: the other reading's range is "right in the other reading" ------------------------
def test_skip_bo_q3_marks_the_own_cards_only_range_apart_in_key_and_reveal():
    q = registry.question("skip-bo-masters-q3")
    reading = q.readings[0]
    other = q.reading_indexes(reading)
    value = Fraction(reading.value())
    assert other and all(lo <= value < hi for lo, hi in (q.bins[i] for i in other))
    assert not set(other) & set(q.right_indexes())
    for lang, words in (("de", "richtig in der Lesart „nur eigene“"), ("en", "right in the reading “own cards only”")):
        counts = [0] * len(q.bins)
        counts[q.right_indexes()[0]], counts[other[0]] = 4, 3
        r = q.reveal(counts, lang)
        assert r["hits"] == 4 and f"3 {words}" in r["class_text"], r["class_text"]
        assert [d.get("right_in") is not None for d in r["distribution"]] == [i in other for i in range(len(q.bins))]
        label = q.labels(lang)[other[0]]
        assert re.search(rf"{re.escape(words[0].upper() + words[1:])}\s*{re.escape(label)}", key_text("skip-bo-masters", lang))
    # a reading without a name marks nothing: the mark is the declaration's, not guessed
    from spieltisch.core.questions import Reading
    assert q.reading_indexes(Reading(reading.label, reading.value)) == []


# --- 4. the keys' counted fractions, from the game's own functions ----------------------------------------
COUNTED = {"scratch-island-q2": ["27615024/36060024 = 1150626/1502501"],
           "scratch-island-q3": ["342930/421800 = 11431/14060", "685860/1265400 = 11431/21090"],
           "skip-bo-masters-q1": ["14280/23562 = 20/33", "9282/23562 = 13/33"],
           "skip-bo-masters-q2": ["22869362880/81119253600 = 44486/157795"],
           "skip-bo-masters-q3": ["14019392520/81119253600 ="]}


@pytest.mark.parametrize("qid", sorted(COUNTED))
def test_the_reviews_unreduced_fractions_are_in_the_keys(qid):
    q = registry.question(qid)
    shown = [sheet.fraction(c.value()) for c in q.by_hand.checks if isinstance(c.value(), Counted)]
    for want in COUNTED[qid]:
        assert any(s.startswith(want) for s in shown), (qid, want, shown)
        assert all(want in key_text(q.family, lang) for lang in LANGS)


def test_the_counted_fractions_are_the_games_own_numbers():
    """Each count is the product the tree multiplies, checked against the game's reduced value."""
    from spieltisch.games.skip_bo_masters import analysis

    q1 = registry.question("skip-bo-masters-q1")
    none = next(c.value() for c in q1.by_hand.checks if c.label["en"] == "P(none fits)")
    n = next(c.value() for c in q1.by_hand.checks if c.label["en"] == "N")
    g = next(c.value() for c in q1.by_hand.checks if c.label["en"] == "g")
    assert (none.total, none.of) == ((n - g) * (n - g - 1), n * (n - 1))
    assert 1 - none == q1.exact_value() == analysis.hypergeometric_at_least_one(int(n), int(g), 2)
