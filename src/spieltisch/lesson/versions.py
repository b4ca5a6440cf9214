"""Student and teacher versions of one lesson notebook (plain JSON, standard library only).

One source notebook per lesson and language, stored with its outputs (nbval checks them):

- cells tagged ``teacher`` (answers, timing, questions to ask) appear only in the teacher version;
- cells tagged ``solution`` are collapsed in the student version (source and output hidden until
  the student opens them) and open in the teacher version;
- the student version has no stored outputs at all, and its metadata has no answers (``questions``)
  and no teaching plan (``path``, ``extensions``); the teacher version keeps them, without the
  widget-view data (no widget state is stored, so the answer's text form is what a teacher reads
  before running the notebook) and marked trusted so stored SVG pictures render.

    python -m spieltisch.lesson.versions notebooks/de/<id>.ipynb OUT/de
    # writes OUT/de/<id>.ipynb (student) and OUT/de/lehrkraefte/<id>.ipynb (teacher; en: teachers/)
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
TAGS = ("teacher", "solution")
# the lesson metadata a student's file leaves out: the answers (``questions``) and the teacher's plan
# (what to ask, how long); the teachers' page and the tests read them from the source notebook
TEACHER_META = ("questions", "path", "extensions")
TEACHER_DIR = {"de": "lehrkraefte", "en": "teachers"}  # folder names a reader of that language reads


def tags(cell: dict) -> list:
    return list(cell.get("metadata", {}).get("tags", []))


def info(nb: dict) -> dict:
    """The lesson's metadata (``metadata.spieltisch.lesson``): id, lang, title, grade, minutes, goals,
    path, worksheet (docs/lessons.md)."""
    meta = nb.get("metadata", {}).get("spieltisch", {}).get("lesson")
    if not meta:
        raise ValueError("not a lesson notebook: metadata.spieltisch.lesson is missing (see docs/lessons.md)")
    return meta


def _reader_source(cell: dict) -> None:
    """Drop the test's markers (``# NBVAL_IGNORE_OUTPUT``: for nbval, not for a reader)."""
    if cell["cell_type"] == "code":
        src = cell["source"]
        lines = src.splitlines(keepends=True) if isinstance(src, str) else list(src)
        kept = [line for line in lines if not line.lstrip().startswith("# NBVAL_")]
        cell["source"] = "".join(kept) if isinstance(src, str) else kept


def student(nb: dict) -> dict:
    out = copy.deepcopy(nb)
    cells = []
    for cell in out["cells"]:
        if "teacher" in tags(cell):
            continue
        _reader_source(cell)
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        md = cell.setdefault("metadata", {})
        md.pop("trusted", None)
        if "solution" in tags(cell):
            md["jupyter"] = {**md.get("jupyter", {}), "source_hidden": True, "outputs_hidden": True}
        cells.append(cell)
    out["cells"] = cells
    out["metadata"].pop("widgets", None)
    lesson = out["metadata"]["spieltisch"].get("lesson", {})
    for key in TEACHER_META:
        lesson.pop(key, None)
    out["metadata"]["spieltisch"]["version"] = "student"
    return out


def teacher(nb: dict) -> dict:
    out = copy.deepcopy(nb)
    for cell in out["cells"]:
        _reader_source(cell)
        md = cell.setdefault("metadata", {})
        md.pop("jupyter", None)
        if cell["cell_type"] == "code":
            md["trusted"] = True
            for o in cell.get("outputs", []):
                o.get("data", {}).pop(WIDGET_VIEW, None)
    out["metadata"]["spieltisch"]["version"] = "teacher"
    return out


def write(source: Path, out_dir: Path) -> tuple[Path, Path]:
    nb = json.loads(Path(source).read_text(encoding="utf-8"))
    meta = info(nb)
    paths = (out_dir / f"{meta['id']}.ipynb", out_dir / TEACHER_DIR[meta["lang"]] / f"{meta['id']}.ipynb")
    for path, version in zip(paths, (student(nb), teacher(nb))):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(version, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return paths


if __name__ == "__main__":
    for p in write(Path(sys.argv[1]), Path(sys.argv[2])):
        print(p)
