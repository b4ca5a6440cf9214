"""A lesson's student version in the built site, as a student opens and runs it: shared by the
browser test (tests/site/test_site.py) and the measurement (`site/measure.py --lessons`).

Open it from the landing page's Explore in a language, open the collapsed solution cells, Run All,
and read each code cell's time from its prompt (no timing is asserted here: the test has a hang
bound, the measurement prints the times)."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KERNEL_TIMEOUT_MS = 180_000  # cold Pyodide + kernel start on a 2-core machine takes ~30-40 s
RUN_ALL_TIMEOUT_MS = 300_000

ERROR_OUTPUTS = (
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error'], "
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
)

# Done: the kernel is idle, no cell waits or runs ([*]), the last code cell has a count (or a cell failed).
# textContent: innerText is empty for cells JupyterLab does not render off screen.
RUN_ALL_DONE = """() => {
    // The toolbar's kernel status (JupyterLite does not expose window.jupyterapp).
    const indicator = document.querySelector('.jp-Notebook-ExecutionIndicator');
    const idle = indicator !== null && indicator.dataset.status === 'idle';
    const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
    const last = prompts[prompts.length - 1];
    // An error stops Run All: the cells after it lose their [*] and get no count.
    const failed = document.querySelector("%s");
    return idle && last && !prompts.some(p => p.textContent.includes('*'))
        && (/\\[\\d+\\]/.test(last.textContent) || failed !== null);
}""" % ERROR_OUTPUTS.replace('"', "'")

# Per cell: when its prompt first shows a count (polled; the kernel runs one cell at a time, so a
# cell's time is the gap to the previous cell's count, the first one's from the Run All click).
TIMING_START = """() => {
    window.__done = {};
    window.__start = performance.now();
    window.__poll = setInterval(() => {
        document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt').forEach((p, i) => {
            if (!(i in window.__done) && /\\[\\d+\\]/.test(p.textContent)) window.__done[i] = performance.now();
        });
    }, 50);
}"""
TIMING_READ = """() => { clearInterval(window.__poll);
    const ix = Object.keys(window.__done).map(Number).sort((a, b) => a - b);
    let last = window.__start;
    return ix.map(i => { const t = window.__done[i] - last; last = window.__done[i]; return [i, t / 1000]; });
}"""
KERNEL_IDLE = """() => { const i = document.querySelector('.jp-Notebook-ExecutionIndicator');
    return i !== null && i.dataset.status === 'idle'; }"""


def error_outputs(root) -> list[str]:
    """Texts of error outputs (JupyterLab 4.6 renders an error as application/vnd.jupyter.stderr
    with the traceback; the .error mime type is listed in case a renderer for it is added)."""
    # textContent, not innerText: JupyterLab skips rendering off-screen cells (content-visibility),
    # and innerText of a skipped element is empty.
    texts = root.locator(ERROR_OUTPUTS).all_text_contents()
    return [t for t in texts if "Traceback" in t or "Error" in t]


def source(lesson: str, lang: str) -> dict:
    """The lesson's source notebook (notebooks/<lang>/<id>.ipynb)."""
    return json.loads((ROOT / "notebooks" / lang / f"{lesson}.ipynb").read_text(encoding="utf-8"))


def metadata(lesson: str, lang: str) -> dict:
    return source(lesson, lang)["metadata"]["spieltisch"]["lesson"]


def code_cells(lesson: str, lang: str) -> list[str]:
    """The code cells' sources, in the order of the student version (teacher cells are Markdown)."""
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in source(lesson, lang)["cells"] if c["cell_type"] == "code"]


def open_lesson(page, site_url: str, lesson: str, lang: str) -> None:
    """The lesson's student version as a notebook, in ``lang``, from the teachers' page's link (the
    landing page's Explore opens the students' page without code: test_lesson_page.py)."""
    page.goto(site_url.rstrip("/") + "/lehrkraefte.html")
    href = page.locator(f"section.lesson#{lesson}-{lang} a.student-notebook").get_attribute("href")
    page.goto(site_url.rstrip("/") + "/" + href)
    title = metadata(lesson, lang)["title"]
    page.locator(".jp-Notebook .jp-MarkdownCell h1", has_text=title).first.wait_for(timeout=60_000)


def expand_all(page) -> None:
    for command in ("Expand All Code", "Expand All Outputs"):
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^View$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{command}$")).click()


def run_all(page, on_timeout=None) -> list[tuple[int, float]]:
    """Run → Run All Cells as a reader would; returns (code cell index, seconds) per cell."""
    page.wait_for_function(KERNEL_IDLE, timeout=KERNEL_TIMEOUT_MS, polling=500)
    page.evaluate(TIMING_START)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
    page.locator(".jp-Notebook .jp-CodeCell .jp-InputPrompt", has_text="*").first.wait_for(timeout=30_000)
    try:
        page.wait_for_function(RUN_ALL_DONE, timeout=RUN_ALL_TIMEOUT_MS, polling=1_000)
    except Exception:
        if on_timeout:
            on_timeout()
        raise
    return [(int(i), float(t)) for i, t in page.evaluate(TIMING_READ)]
