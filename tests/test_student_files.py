"""No answer in a student's notebook file (issue 31): every lesson's student version, run in a
student's kernel (Run All, as JupyterLite runs it) and saved with its widget state, holds none of the
lesson's answers – not in a stored output, not in a widget's text form (``text/plain``,
``text/html``: what a front-end without the widget shows), not in the widget state or the metadata.

The answers searched for come from two places, so neither can hide a leak of the other:

- the declared lesson questions (``spieltisch lesson questions --json``): each question's exact value
  and each by-hand check's value, in every written form a lesson prints (``13/36``, ``36,1 %``,
  ``36.1%``, ``0,3611``, ``−25,63``), and the lesson metadata's answer texts (``questions``);
- the source notebook's stored outputs (the teacher version): the answer text of every gated,
  by-hand, reveal and comparison widget.

The control: the same search finds the answers in the teacher version and in a student file given
one of the teacher version's outputs.
"""

import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from spieltisch.lesson import fmt, versions

WORDS = pytest.importorskip("spieltisch.lesson.widgets").WORDS

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted(p for p in (ROOT / "notebooks").glob("*/*.ipynb") if p.parent.name in ("de", "en"))
WIDGET_VIEW = versions.WIDGET_VIEW
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
# the kit's text forms a student's kernel writes; what follows them in the teacher version is an answer
BY_HAND = {"de": "Zum Ausfüllen", "en": "To fill in"}
SOLUTION = {"de": "Lösung:", "en": "Solution:"}


@pytest.fixture(scope="module")
def declared() -> dict:
    """The declared questions by lesson id (the landing page's card id)."""
    out = subprocess.run([sys.executable, "-m", "spieltisch", "lesson", "questions", "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert out.returncode == 0, out.stderr
    by_game: dict = {}
    for q in json.loads(out.stdout)["questions"]:
        by_game.setdefault(q["id"].rsplit("-", 1)[0], []).append(q)  # "wuerfel-joker-q1": the lesson's
    return by_game


def written_forms(f: Fraction, unit: str) -> set[str]:
    """Every way a lesson writes the exact value ``f`` (integers are too common to search for: their
    answer texts in the metadata name them)."""
    if f.denominator == 1:
        return set()
    forms = {f"{f.numerator}/{f.denominator}", f"{f.numerator}/{f.denominator}".replace("-", "\u2212")}
    for lang in ("de", "en"):
        for digits in (2, 3, 4):
            forms.add(fmt.number(f, lang, digits))
        if unit == "share":
            for digits in (1, 2):
                forms |= {fmt.percent(f, lang, digits), fmt.percent(f, lang, digits).replace("\u00a0", " ")}
    # a two-digit decimal of a share is a number like any other (0,39); its per cent is not
    return {x for x in forms if len(re.sub(r"\D", "", x)) >= 3}


def answers_of(source: dict, declared: dict, ran: dict | None = None) -> set[str]:
    """What a student's file of this lesson must not contain. ``ran``: the student version after Run
    All; a widget with a picture that writes the same text there is shown at once (``answer(None,
    …)``), not gated."""
    at_once = set()
    if ran is not None:
        for cell in ran["cells"]:
            for out in cell.get("outputs", ()):
                at_once.add("".join(out.get("data", {}).get("text/plain", "")))
    meta = source["metadata"]["spieltisch"]["lesson"]
    lang = meta["lang"]
    found = set()
    for q in declared.get(meta["id"], ()):
        unit = q.get("unit", "number")
        found |= written_forms(Fraction(q["exact"]["fraction"]), unit)
        for check in (q.get("by_hand") or {}).get("checks", ()):
            if "fraction" in check:  # a check in words (the smallest hands, the better option) names options, not numbers
                found |= written_forms(Fraction(check["fraction"]), unit)
        # a declared count's unreduced form (14/32) is the answer too
        found |= {v["counted"] for v in (q["exact"], *(q.get("by_hand") or {}).get("checks", ())) if v.get("counted")}
    texts = set()  # the answer texts of the widgets that hold one
    shown = set()  # what the lesson shows at once (its text, its ungated outputs): no answer
    lesson_text = json.dumps(meta.get("worksheet", []), ensure_ascii=False)
    for cell in source["cells"]:
        if "teacher" not in cell.get("metadata", {}).get("tags", ()):
            lesson_text += "".join(cell["source"])
        for out in cell.get("outputs", ()):
            data = out.get("data", {})
            plain = "".join(data.get("text/plain", "") or out.get("text", ""))
            lines = plain.splitlines()
            if WIDGET_VIEW in data and plain.startswith(BY_HAND[lang]):
                shown |= {lines[0], lines[0].split(": ", 1)[-1]}  # the question
                texts |= set(re.findall(r"<b>(.*?)</b>", "".join(data.get("text/html", ""))))  # a check's value
                texts |= set(lines[1:])
            elif WIDGET_VIEW in data and plain.startswith(SOLUTION[lang]):  # a reveal, a comparison
                texts |= set(lines[1:])
            elif WIDGET_VIEW in data and "text/html" in data and plain not in at_once:  # a gated widget
                texts |= set(lines)
            else:
                shown |= set(lines)
    # an answer text has a number in it (a legend's word alone is not one); the kit's own sentences
    # ("The exact value lies inside the 95% interval.") are in every widget's words
    words = {v for lang_words in WORDS.values() for v in lang_words.values() if isinstance(v, str)}
    texts = {t.strip() for t in texts}
    shown_text = "\n".join(shown | words) + lesson_text
    texts = {t for t in texts if re.search(r"\d", t) and len(t) >= 4 and t not in shown_text}
    return texts | found | {q["answer"] for q in meta["questions"]}


def searched(nb: dict) -> str:
    """A notebook file's text a reader or a front-end can see: outputs, widget state, metadata (the
    cells' sources are the lesson's text, checked by the notebook tests). The kit's own script in the
    widget state is the same for every widget and carries no lesson data."""
    nb = json.loads(json.dumps(nb))
    state = nb["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for model in state.values():
        for key in ("_esm", "_css"):
            model.get("state", {}).pop(key, None)
        if "spec" in model.get("state", {}):  # the kit's words ("like this: 5/6, 0.83 or 83%")
            spec = json.loads(model["state"]["spec"])
            spec.pop("words", None)
            model["state"]["spec"] = json.dumps(spec, ensure_ascii=False)
    outputs = [c.get("outputs", []) for c in nb["cells"]]
    return json.dumps([outputs, nb["metadata"]], ensure_ascii=False)


def leaks(nb: dict, answers: set[str]) -> list[str]:
    text = searched(nb)
    return sorted(a for a in answers if a in text or json.dumps(a, ensure_ascii=False)[1:-1] in text)


def run_as_a_student(source: Path) -> dict:
    """The student version after Run All in a student's kernel (no SPIELTISCH_LESSON_VERSION), saved
    with its widget state, as JupyterLab saves it."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    student = versions.student(json.loads(source.read_text(encoding="utf-8")))
    node = nbformat.reads(json.dumps(student), as_version=4)
    env = {k: v for k, v in os.environ.items() if k != "SPIELTISCH_LESSON_VERSION"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
    saved = os.environ.copy()
    os.environ.clear()
    os.environ.update(env)  # the kernel inherits this process's environment
    try:
        nbclient.NotebookClient(node, timeout=300, kernel_name="python3", store_widget_state=True,
                                resources={"metadata": {"path": str(source.parent)}}).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return json.loads(nbformat.writes(node))


@pytest.mark.parametrize("source", LESSONS, ids=[f"{p.parent.name}/{p.stem}" for p in LESSONS])
def test_a_student_file_holds_no_answer_after_run_all(source, declared):
    nb = json.loads(source.read_text(encoding="utf-8"))
    ran = run_as_a_student(source)
    answers = answers_of(nb, declared, ran)
    teacher = versions.teacher(nb)
    meta = nb["metadata"]["spieltisch"]["lesson"]
    # the control: the search finds every question's answer in the teacher version
    assert {q["answer"] for q in meta["questions"]} <= set(leaks(teacher, answers)), source
    assert meta["id"] in declared, "the lesson's questions are declared in its game's package"
    assert len(leaks(teacher, answers)) > len(meta["questions"])  # the declared values' forms too
    shipped = versions.student(nb)
    assert leaks(shipped, answers) == [] and all(not c.get("outputs") for c in shipped["cells"])
    assert ran["metadata"]["widgets"][WIDGET_STATE]["state"], "the widget state was saved"
    found = leaks(ran, answers)
    assert found == [], f"{source.name}: a student's file shows answers: {found}"
    # the control on the same file: the teacher version's widget output with the first answer is found
    first = meta["questions"][0]["answer"]
    gated = next(o for c in nb["cells"] for o in c.get("outputs", ())
                 if WIDGET_VIEW in o.get("data", {}) and first in json.dumps(o["data"], ensure_ascii=False))
    code = next(c for c in ran["cells"] if c["cell_type"] == "code" and c.get("outputs"))
    code["outputs"].append({**gated, "data": {k: v for k, v in gated["data"].items() if k != WIDGET_VIEW}})
    assert leaks(ran, answers), f"{source.name}: the search misses a gated widget's answer"
