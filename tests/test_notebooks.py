"""Every notebook in notebooks/ (the lessons in notebooks/de and notebooks/en, and any other)
runs and reproduces its stored outputs (nbval).

Each notebook is checked by ``pytest --nbval`` in a subprocess (its own kernel, the current
environment, with this checkout's ``src`` first on the path), so a notebook added later is covered
without touching this file.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


LESSONS = sorted(p for p in NOTEBOOKS if p.parent.name in ("de", "en"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ has no .ipynb files"


def test_every_lesson_exists_in_both_languages_with_its_metadata():
    assert LESSONS, "no lessons in notebooks/de or notebooks/en"
    ids = {lang: {p.stem for p in LESSONS if p.parent.name == lang} for lang in ("de", "en")}
    assert ids["de"] == ids["en"], f"a lesson is missing in one language: {ids}"
    for path in LESSONS:
        meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]["spieltisch"]["lesson"]
        assert meta["id"] == path.stem and meta["lang"] == path.parent.name
        assert sum(step["minutes"] for step in meta["path"]) == meta["minutes"] == 45, path
        assert meta["goals"] and meta["worksheet"] and meta["grade"], path



def test_teacher_cells_are_text_so_the_student_version_runs_all_the_code():
    # the browser test runs the student version; the teacher version adds only these notes, so
    # the code a teacher runs is the code that test ran
    for path in LESSONS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        code = [i for i, c in enumerate(cells) if "teacher" in c.get("metadata", {}).get("tags", ())
                and c["cell_type"] != "markdown"]
        assert not code, f"{path.name}: cells {code} are tagged teacher but are not markdown"

@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[str(p.relative_to(ROOT / "notebooks")) for p in NOTEBOOKS])
def test_notebook_outputs_reproduce(notebook):
    pytest.importorskip("nbval")
    cmd = [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-p", "no:cacheprovider", "-q",
           "--rootdir", str(ROOT), str(notebook)]
    sanitize = ROOT / "notebooks" / "nbval-sanitize.cfg"
    if sanitize.exists():
        cmd[4:4] = ["--nbval-sanitize-with", str(sanitize)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
           "SPIELTISCH_LESSON_VERSION": "teacher"}  # the stored outputs hold the answers (the teacher version)
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, f"nbval failed for {notebook.name}:\n{proc.stdout[-6000:]}\n{proc.stderr[-2000:]}"


@pytest.mark.parametrize("notebook", LESSONS, ids=[str(p.relative_to(ROOT / "notebooks")) for p in LESSONS])
def test_a_lesson_speaks_one_language(notebook):
    """What a reader reads (Markdown and stored text outputs) has no word of the other language."""
    from harness.frontend import other_language_words

    lang = notebook.parent.name
    assert other_language_words("Wir würfeln and zählen", "de") == ["and"]  # the check can fail
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    texts = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            texts.append(cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"]))
        for out in cell.get("outputs", []):
            text = out.get("text") or out.get("data", {}).get("text/plain", "")
            texts.append(text if isinstance(text, str) else "".join(text))
    found = {w: t[:120] for t in texts for w in other_language_words(t, lang)}
    assert not found, f"{notebook.name} ({lang}) shows words of the other language: {found}"
    if lang == "de":  # German numbers: no decimal point between digits in what is read
        import re
        points = [m.group(0) for t in texts for m in re.finditer(r"(?<![\w.])\d+\.\d+(?![\w.])", t)]
        assert not points, points[:5]


# --- lessons of the second edition (metadata "edition": 2): predict first ----------------------------

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PREDICTION = {"de": "Vorhersage (", "en": "Prediction ("}  # the kit's text form of a prediction widget


def _lesson(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _edition(nb: dict) -> int:
    return int(nb["metadata"]["spieltisch"]["lesson"].get("edition", 1))


def _texts(cell: dict) -> list[str]:
    out = []
    for o in cell.get("outputs", []):
        data = o.get("data", {})
        for t in (o.get("text"), data.get("text/plain"), data.get("text/html")):
            if t:
                out.append(t if isinstance(t, str) else "".join(t))
    return out


def answer_leaks(nb: dict) -> list[str]:
    """Why the stored outputs of a second-edition lesson could answer a question before its
    prediction: a question's answer (metadata ``questions``) not printed by the notebook at all (so
    the browser test's "absent" would prove nothing), or printed in a cell before the question's
    prediction, or after the first prediction an output that is not a kit widget (the page would show
    it at once; a kit widget shows a gated answer only after the prediction)."""
    meta = nb["metadata"]["spieltisch"]["lesson"]
    cells = nb["cells"]
    word = PREDICTION[meta["lang"]]
    predict_at = [i for i, c in enumerate(cells) if any(t.startswith(word) for t in _texts(c))]
    problems = []
    if len(predict_at) != len(meta["questions"]):
        problems.append(f"{len(predict_at)} prediction widgets for {len(meta['questions'])} questions")
    for q, at in zip(meta["questions"], predict_at):
        found = [i for i, c in enumerate(cells) if any(q["answer"] in t for t in _texts(c))]
        if not found:
            problems.append(f"{q['key']}: its answer {q['answer']!r} is printed nowhere")
        elif min(found) < at:
            problems.append(f"{q['key']}: its answer {q['answer']!r} is in cell {min(found)}, before the prediction (cell {at})")
    for i, c in enumerate(cells[predict_at[0]:] if predict_at else [], predict_at[0] if predict_at else 0):
        source = c["source"] if isinstance(c["source"], str) else "".join(c["source"])
        if c["cell_type"] == "code" and "NBVAL_IGNORE_OUTPUT" not in source:
            loose = [o.get("output_type") for o in c.get("outputs", []) if WIDGET_VIEW not in o.get("data", {})]
            if loose:
                problems.append(f"cell {i} shows {loose} at once, not through a kit widget")
    return problems


SECOND = [p for p in LESSONS if _edition(_lesson(p)) >= 2]


@pytest.mark.parametrize("notebook", SECOND, ids=[str(p.relative_to(ROOT / "notebooks")) for p in SECOND])
def test_a_second_edition_lesson_answers_only_after_its_predictions(notebook):
    nb = _lesson(notebook)
    assert answer_leaks(nb) == []
    meta = nb["metadata"]["spieltisch"]["lesson"]
    keys = [q["key"] for q in meta["questions"]]
    assert len(set(keys)) == len(keys) and all(q["answer"].strip() for q in meta["questions"])
    assert all(item.get("predict") for item in meta["worksheet"]), "a prediction line for every worksheet question"
    assert all(step["minutes"] > 0 and step["cells"] for step in meta.get("extensions", ()))


def test_the_leak_check_finds_an_answer_shown_too_early():
    """Negative control: the same lesson, with its first answer printed before its prediction and a
    picture shown at once after it, is caught on both counts."""
    if not SECOND:
        pytest.skip("no lesson of the second edition yet")
    nb = _lesson(SECOND[0])
    meta = nb["metadata"]["spieltisch"]["lesson"]
    first = meta["questions"][0]
    code = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]
    nb["cells"][code[1]]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": f"P = {first['answer']}\n"}]
    nb["cells"][code[-1]]["outputs"].append({"output_type": "display_data", "metadata": {},
                                             "data": {"image/svg+xml": "<svg/>", "text/plain": "Bild"}})
    problems = answer_leaks(nb)
    assert any(p.startswith(f"{first['key']}: its answer") and "before the prediction" in p for p in problems), problems
    assert any(p.startswith(f"cell {code[-1]} shows ['display_data']") for p in problems), problems
    meta["questions"][0] = {**first, "answer": "nowhere to be found"}
    assert any("is printed nowhere" in p for p in answer_leaks(nb))
