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
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
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
