"""A lesson's printable worksheet (one A4 page), from the lesson's metadata (``worksheet``).

Each item is one question: its text, a line for the student's prediction (``"predict": true``), what to
fill in – a blank 6×6 grid of two-dice throws (``"grid"``: true, or ``{"labels": "sum", "title": …}``
to write the sum of the dice in each cell) or a tree diagram with empty boxes at the branches
(``"tree"``: nested ``{"label", "note", "branches": [...]}``) – a ``task`` beside it, and lines to write
on (``"lines"``: texts with gaps, or ``"space"``: a number of empty lines). No answer is typed into the
metadata: the worksheet carries the questions and the data they use, the teacher version the answers.

Standard library only: ``site/build.py`` renders the page with it.
"""

from __future__ import annotations

import html

from . import fmt
from .pictures import Node, tree

WORDS = {"de": {"predict": "Meine Vorhersage:", "first": "1. Würfel", "second": "2. Würfel"},
         "en": {"predict": "My prediction:", "first": "first die", "second": "second die"}}


def blank_grid(lang: str, labels: str | None = None, title: str = "", cell: int = 26) -> str:
    """An empty 6×6 grid of two-dice throws to mark by hand (SVG); ``labels="sum"`` writes the sum of
    the two dice small into each cell."""
    fmt.check_lang(lang)
    if labels not in (None, "sum"):
        raise ValueError(f"worksheet grid: labels must be 'sum' or absent, not {labels!r}")
    w = WORDS[lang]
    left, top, side = 34, 34 + (18 if title else 0), 6 * cell
    width, height = max(left + side + 6, round(7 * len(title))), top + side + 6  # 12 px bold: ~7 px a letter
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" class="grid" role="img" '
             f'aria-label="{html.escape(title or w["first"] + " × " + w["second"])}">']
    if title:
        parts.append(f'<text x="0" y="12" font-size="12" font-weight="bold">{html.escape(title)}</text>')
    parts.append(f'<text x="{left + side // 2}" y="{top - 22}" font-size="11" text-anchor="middle">{w["second"]}</text>')
    parts.append(f'<text x="9" y="{top + side // 2}" font-size="11" text-anchor="middle" '
                 f'transform="rotate(-90 9 {top + side // 2})">{w["first"]}</text>')
    for i in range(6):
        parts.append(f'<text x="{left + i * cell + cell // 2}" y="{top - 6}" font-size="11" text-anchor="middle">{i + 1}</text>')
        parts.append(f'<text x="{left - 8}" y="{top + i * cell + cell // 2 + 4}" font-size="11" text-anchor="middle">{i + 1}</text>')
        for j in range(6):
            x, y = left + j * cell, top + i * cell
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="white" stroke="black"/>')
            if labels == "sum":
                parts.append(f'<text x="{x + cell - 3}" y="{y + cell - 4}" font-size="8" fill="#777" '
                             f'text-anchor="end">{i + j + 2}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _node(spec: dict) -> Node:
    if not isinstance(spec, dict) or "label" not in spec:
        raise ValueError(f"worksheet tree: a node is {{'label': …, 'branches': [...]}}, not {spec!r}")
    return Node(str(spec["label"]), [(None, _node(child)) for child in spec.get("branches", ())], note=spec.get("note", ""))


def blank_tree(spec: dict, lang: str) -> str:
    """A tree diagram with an empty box at every branch (SVG), from nested ``{"label", "branches"}``."""
    fmt.check_lang(lang)
    svg = tree(_node(spec), lang, col=160, row=40).svg
    said = "Baumdiagramm zum Ausfüllen" if lang == "de" else "tree diagram to fill in"  # for screen readers
    return svg.replace('role="img">', f'role="img" class="tree" aria-label="{said}">', 1)


def item(q: dict, lang: str) -> str:
    """One question of the worksheet as an ``<li>``."""
    fmt.check_lang(lang)
    w = WORDS[lang]
    out = [f"<p class=\"q\">{html.escape(q['question'])}</p>"]
    if q.get("predict"):
        out.append(f'<p class="predict">{w["predict"]} <span class="gap"></span></p>')
    figure = ""
    grid = q.get("grid")
    if grid:
        spec = grid if isinstance(grid, dict) else {}
        figure = blank_grid(lang, spec.get("labels"), spec.get("title", ""))
    elif q.get("tree"):
        figure = blank_tree(q["tree"], lang)
    text = []
    if q.get("task"):
        text.append(f'<p class="task">{html.escape(q["task"])}</p>')
    text += [f'<p class="fill">{html.escape(line)}</p>' for line in q.get("lines", ())]
    text += ['<div class="line"></div>'] * int(q.get("space", 0 if q.get("lines") else 3))
    if figure:  # a grid beside its task, a (wide) tree above it
        kind = "grid" if grid else "tree"
        out.append(f'<div class="work {kind}"><div class="figure">{figure}</div><div class="text">{"".join(text)}</div></div>')
    else:
        out += text
    return f"<li>{''.join(out)}</li>"


def items(meta: dict) -> str:
    """Every question of a lesson's worksheet (``meta``: the lesson's metadata)."""
    return "\n".join(item(q, meta["lang"]) for q in meta["worksheet"])
