"""Issue 31, the second fresh review: answers readable on the students' page before their prediction, the
class board's reveal (interval misses, Scratch Island's labelled values), the English curriculum labels, no
code instructions on the code-free students' page, the worksheet's prediction box."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spieltisch.lesson import versions

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LANGS = ("de", "en")
LESSONS = sorted({p.stem for p in NOTEBOOKS.glob("*/*.ipynb")})


def notebook(lid: str, lang: str) -> dict:
    return json.loads((NOTEBOOKS / lang / f"{lid}.ipynb").read_text(encoding="utf-8"))


def static_text(nb: dict) -> str:
    """The student version's markdown: what a student reads by scrolling, before any prediction is made
    (the widgets' answers open only after it). Line breaks joined, as the page shows them."""
    student = versions.student(nb)
    text = "\n\n".join("".join(c["source"]) for c in student["cells"] if c["cell_type"] == "markdown")
    return re.sub(r"[ \t]*\n(?!\n)[ \t]*", " ", text)


# --- 1. answers visible before their prediction --------------------------------------------------------------
# (lesson, lang, the phrase that told the answer): Würfel Joker ext A told question 2's move, Tüfteln's
# "is rarer worth more" line told question 3's rarer pattern, Scratch Island ext A's question ruled out option 1
TOLD = [
    ("wuerfel-joker", "de", "Mit nur der 9 unten hört man auf"),
    ("wuerfel-joker", "en", "with only 9 down you stop"),
    ("tuefteln", "de", "Ein Cross bringt mehr Punkte als 2er + 2er"),
    ("tuefteln", "en", "A cross is worth more than two pairs"),
    ("scratch-island", "de", "bekommt mehr als P(mindestens eine Schlange)"),
    ("scratch-island", "en", "gives more than P(at least one snake)"),
]


@pytest.mark.parametrize("lid, lang, phrase", TOLD)
def test_the_students_page_does_not_tell_the_answer_before_the_prediction(lid, lang, phrase):
    assert phrase.lower() not in static_text(notebook(lid, lang)).lower()


def test_the_static_text_check_sees_a_told_answer():
    nb = notebook("tuefteln", "de")
    nb["cells"].insert(3, {"cell_type": "markdown", "metadata": {}, "id": "x",
                           "source": ["**Bringt Seltenes mehr Punkte?** Ein Cross bringt mehr Punkte\n",
                                      "als 2er + 2er."]})
    assert TOLD[2][2].lower() in static_text(nb).lower()
    # a teacher's cell is not on the students' page
    nb["cells"][3]["metadata"]["tags"] = ["teacher"]
    assert TOLD[2][2].lower() not in static_text(nb).lower()
