"""The students' lesson pages as the build writes them (site/build.py, no browser): the lesson's text as
HTML, an empty output slot per code cell, no line of code in the page, and the piplite install cell
left out by its rule (tests/site/test_lesson_page.py runs the pages in Chromium)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((p.parent.name, p.stem) for p in (ROOT / "notebooks").glob("*/*.ipynb"))


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("site_build_lesson", ROOT / "site" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def student(build, lang, lesson):
    nb = json.loads((ROOT / "notebooks" / lang / f"{lesson}.ipynb").read_text(encoding="utf-8"))
    return build.lesson_kit().student(nb)


def test_markdown_the_lessons_use(build):
    text = ("# Würfel & Joker\n\nEin Absatz mit **fett**, *kursiv*, `code` und [Link](https://example.org/a)\n"
            "über zwei Zeilen.\n\n1. **Vorhersage** – erst\n   weiter im Punkt.\n2. Zweiter\n\n* a < b\n* _c_\n\n"
            "| x | P |\n|---|--:|\n| 1 | 1/6 |\n\n<div class=\"note\">roh</div>\n\n## Frage 1: A?\n## Frage 1: A?")
    out = build.markdown_html(text)
    assert '<h1 id="würfel-joker">Würfel &amp; Joker</h1>' in out
    assert ("<p>Ein Absatz mit <strong>fett</strong>, <em>kursiv</em>, <code>code</code> und "
            '<a href="https://example.org/a">Link</a> über zwei Zeilen.</p>') in out
    assert "<ol><li><strong>Vorhersage</strong> – erst weiter im Punkt.</li><li>Zweiter</li></ol>" in out
    assert "<ul><li>a &lt; b</li><li><em>c</em></li></ul>" in out
    assert "<table><thead><tr><th>x</th><th>P</th></tr></thead><tbody><tr><td>1</td><td>1/6</td></tr></tbody></table>" in out
    assert '<div class="note">roh</div>' in out  # HTML passes through
    assert '<h2 id="frage-1-a">' in out and '<h2 id="frage-1-a-2">' in out  # ids stay unique


def test_the_install_cell_rule(build):
    first = 'import sys\nif sys.platform == "emscripten":  # im Browser\n    import piplite\n    await piplite.install(["spieltisch", "ipywidgets"])\n'
    assert build.is_install_cell(first)
    assert build.is_install_cell("%pip install spieltisch\n")
    # anything besides the install keeps the cell (it would fail loudly in the page, not vanish)
    assert not build.is_install_cell(first + "L = 'de'\n")
    assert not build.is_install_cell('import piplite\nawait piplite.install("x")\nprint(1)\n')
    assert not build.is_install_cell('import sys\nif sys.platform == "emscripten":\n    import piplite\nelse:\n    x = 1\n')
    assert not build.is_install_cell("import sys\nprint(sys.platform)\n")
    assert not build.is_install_cell("from spieltisch.lesson import widgets as w\n")


@pytest.mark.parametrize("lang,lesson", LESSONS, ids=[f"{lang}-{lesson}" for lang, lesson in LESSONS])
def test_a_lesson_page_holds_the_text_and_no_code(build, lang, lesson):
    nb = student(build, lang, lesson)
    page, code = build.render_lesson_page(nb, lesson, lang)
    sources = [build._source_text(c) for c in nb["cells"] if c["cell_type"] == "code"]
    # the install cell (each lesson's first code cell) is left out, every other code cell runs
    assert build.is_install_cell(sources[0]) and code == [s for s in sources[1:] if s.strip()]
    assert not any("piplite" in c for c in code)
    slots = re.findall(r'<div class="out" data-cell="(\d+)"></div>', page)
    assert slots == [str(k) for k in range(len(code))]
    # no line of code is in the page (the sources go to <id>.cells.json, which only the worker reads)
    lines = {line.strip() for s in sources for line in s.splitlines() if len(line.strip()) >= 12}
    assert [line for line in lines if line in page] == []
    assert "import " not in page and "piplite" not in page
    # every heading of the lesson's text is there
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for heading in re.findall(r"^#{1,6}\s+(.*)$", build._source_text(cell), re.M):
                assert re.sub(r"<[^>]+>", "", build._inline(heading)) in re.sub(r"<[^>]+>", "", page)
    meta = build.lesson_kit().info(nb)
    assert f'<html lang="{lang}" data-lesson="loading">' in page
    assert f"<title>{build.html.escape(meta['title'])} – Spieltisch</title>" in page
    assert '<a class="skip" href="#lesson">' in page and '<main id="lesson"' in page
    notebook = "../../" + build.lite_url("notebooks", build.student_path(lesson, lang))
    assert f'href="{build.html.escape(notebook)}"' in page and 'href="../../index.html"' in page
    assert ("Als Notebook öffnen (mit Python)" if lang == "de" else "Open as a notebook (with Python)") in page
    assert "{{" not in page
