"""A lesson's printable worksheet and its answer key, from the lesson's metadata (``worksheet``) and
the lesson's declared questions (``core.questions``).

The worksheet asks before it tells: a **prediction box** at the top holds every question and an empty
line for the student's prediction (``"predict": true``) – nothing of the answer's form – and the
**working part** below holds, per question, what to fill in – a blank 6×6 grid of two-dice throws
(``"grid"``: true, or ``{"labels": "sum", "title": …}`` to write the sum of the dice in each cell) or a
tree diagram with empty boxes at the branches (``"tree"``: nested ``{"label", "note", "branches": [...]}``)
– a ``task`` beside it, lines to write on (``"lines"``: texts with gaps, the form of the answer, or
``"space"``: a number of empty lines) and, where the task asks to draw, a drawing area the site builds
from the game's own data (``blank_squares``, ``blank_board``). No answer is typed into the metadata:
the worksheet carries the questions and the data they use, the answer key (``answer_key``) the
declared questions' exact values.

Standard library only, and no game imported: ``site/build.py`` renders the pages with it and hands it
the drawings and the questions.
"""

from __future__ import annotations

import html
import re
from fractions import Fraction

from ..core.questions import Counted
from . import fmt
from .pictures import Node, tree

WORDS = {"de": {"predict": "Meine Vorhersage:", "first": "1. Würfel", "second": "2. Würfel",
                "predictions": "Zuerst: deine Vorhersagen",
                "predictions_hint": "Schreibe zu jeder Frage auf, was du erwartest – bevor du rechnest oder zeichnest.",
                "working": "Dann: rechnen, zeichnen, prüfen", "question": "Frage",
                "squares": "{n} leere Quadrate zum Zeichnen", "board": "Zeichenfeld: {what}",
                "outside": "außerhalb der Karte", "right": "Richtig", "exact": "Exakt", "estimate": "Geschätzt",
                "each": "Je Antwort", "by_hand": "Von Hand", "reading": "Andere Lesart", "teacher": "Lehrerfassung",
                "form": "Zeilen des Arbeitsblatts", "filled": "Zeilen des Arbeitsblatts, ausgefüllt",
                "range": "Bereich",
                "right_in": "Richtig in der Lesart {name}", "line": "Zeile {n}"},
         "en": {"predict": "My prediction:", "first": "first die", "second": "second die",
                "predictions": "First: your predictions",
                "predictions_hint": "Write down what you expect for each question – before you calculate or draw.",
                "working": "Then: calculate, draw, check", "question": "Question",
                "squares": "{n} empty squares to draw in", "board": "drawing area: {what}",
                "outside": "off the map", "right": "Right", "exact": "Exact", "estimate": "Estimated",
                "each": "Each answer", "by_hand": "By hand", "reading": "Another reading", "teacher": "Teacher version",
                "form": "The worksheet's lines", "filled": "The worksheet's lines, filled in",
                "range": "range",
                "right_in": "Right in the reading {name}", "line": "line {n}"}}

# A task that asks the student to draw (a sentence starting "Zeichne …" / "Draw …"; not Skip-Bo's "draw
# pile") gets a drawing area: the site refuses a worksheet without one.
DRAW = re.compile(r"(?:^|[.:!?]\s+)(?:Zeichne|Draw)\b")


def asks_to_draw(q: dict) -> bool:
    return bool(DRAW.search(q.get("task", "")))


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
                parts.append(f'<text x="{x + cell - 3}" y="{y + cell - 4}" font-size="8" fill="#595959" '
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


# --- drawing areas -------------------------------------------------------------------------------------
def blank_squares(n: int, lang: str, side: int = 30) -> str:
    """``n`` empty 2×2 squares in a row (SVG), each with its number: room to draw the ways of writing
    numbers into a square."""
    fmt.check_lang(lang)
    if type(n) is not int or not 1 <= n <= 24:
        raise ValueError(f"worksheet squares: 1 to 24 of them, not {n!r}")
    gap, top = 16, 14
    width, height = n * (2 * side + gap), top + 2 * side + 2
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" class="draw squares" '
             f'role="img" aria-label="{html.escape(WORDS[lang]["squares"].format(n=n))}">']
    for k in range(n):
        x = 1 + k * (2 * side + gap)
        parts.append(f'<text x="{x}" y="{top - 3}" font-size="10">{k + 1}</text>')
        for r in range(2):
            for c in range(2):
                parts.append(f'<rect x="{x + c * side}" y="{top + r * side}" width="{side}" height="{side}" '
                             f'fill="white" stroke="black"/>')
    parts.append("</svg>")
    return "".join(parts)


def blank_board(columns, rows, lang: str, marks: dict | None = None, outside=(), walls=(), what: str = "",
                title: str = "", cell: int = 30) -> str:
    """A window of a square board to draw on (SVG): ``columns`` and ``rows`` name its cells ("F", 10);
    ``marks``: cell name -> a short text printed in the cell (filled grey: a feature of the board);
    ``outside``: cell names off the board (hatched); ``walls``: pairs of neighbouring cells with a wall
    between them (a thick line). Everything on it comes from the caller (the game's data)."""
    fmt.check_lang(lang)
    marks, outside = dict(marks or {}), set(outside)
    columns, rows = list(columns), list(rows)
    left, top = 22, 18 + (16 if title else 0)
    width, height = left + len(columns) * cell + 2, top + len(rows) * cell + 2
    where = {f"{c}{r}": (left + i * cell, top + j * cell) for j, r in enumerate(rows) for i, c in enumerate(columns)}
    unknown = [name for name in list(marks) + list(outside) if name not in where]
    if unknown:
        raise ValueError(f"worksheet board: {unknown} not in the window")
    said = WORDS[lang]["board"].format(what=what or title)
    uid = re.sub(r"[^a-z0-9]", "", (title or what).lower())[:20] or "board"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" class="draw board" '
             f'role="img" aria-label="{html.escape(said)}">',
             f'<defs><pattern id="off-{uid}" width="6" height="6" patternUnits="userSpaceOnUse" '
             f'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#8a8a8a" stroke-width="1.5"/>'
             f'</pattern></defs>']
    if title:
        parts.append(f'<text x="0" y="12" font-size="11" font-weight="bold">{html.escape(title)}</text>')
    for i, c in enumerate(columns):  # a column or row wholly off the board has no name
        if any(f"{c}{r}" not in outside for r in rows):
            parts.append(f'<text x="{left + i * cell + cell // 2}" y="{top - 5}" font-size="10" text-anchor="middle">{c}</text>')
    for j, r in enumerate(rows):
        if any(f"{c}{r}" not in outside for c in columns):
            parts.append(f'<text x="{left - 4}" y="{top + j * cell + cell // 2 + 4}" font-size="10" text-anchor="end">{r}</text>')
    for name, (x, y) in where.items():
        fill = f"url(#off-{uid})" if name in outside else ("#d9d9d9" if name in marks else "white")
        parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="black"/>')
        if name in marks:
            parts.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 3}" font-size="{9 if len(marks[name]) > 4 else 10}" '
                         f'text-anchor="middle" font-weight="bold">{html.escape(marks[name])}</text>')
    for a, b in walls:
        (xa, ya), (xb, yb) = where[a], where[b]
        if ya == yb:  # side by side: the wall is the shared vertical edge
            x = max(xa, xb)
            parts.append(f'<line x1="{x}" y1="{ya}" x2="{x}" y2="{ya + cell}" stroke="black" stroke-width="4"/>')
        else:
            y = max(ya, yb)
            parts.append(f'<line x1="{xa}" y1="{y}" x2="{xa + cell}" y2="{y}" stroke="black" stroke-width="4"/>')
    parts.append("</svg>")
    return "".join(parts)


# --- the worksheet ---------------------------------------------------------------------------------------
def _label(q: dict, index: int, lang: str) -> str:
    """How the working part names a question: the metadata's "Frage 1" before the colon, else the number."""
    m = re.match(r"^([^:]{1,24}):", q["question"])
    return m.group(1) if m else f"{WORDS[lang]['question']} {index}"


def prediction(q: dict, lang: str) -> str:
    """One question in the prediction box: its text and an empty line – never the answer's form."""
    fmt.check_lang(lang)
    return (f'<li><p class="q">{html.escape(q["question"])}</p>'
            f'<p class="predict">{WORDS[lang]["predict"]} <span class="gap"></span></p></li>')


def item(q: dict, lang: str, index: int = 1, drawing: str = "") -> str:
    """One question's working part as an ``<li>``: its task, the grid or tree, the lines (the form of
    the answer) and a drawing area."""
    fmt.check_lang(lang)
    out = [f'<p class="q">{html.escape(_label(q, index, lang))}</p>']
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
    if drawing:
        text.append(f'<div class="drawing">{drawing}</div>')
    text += [f'<p class="fill">{html.escape(line)}</p>' for line in q.get("lines", ())]
    text += ['<div class="line"></div>'] * int(q.get("space", 0 if q.get("lines") or drawing else 3))
    if figure:  # a grid beside its task, a (wide) tree above it
        kind = "grid" if grid else "tree"
        out.append(f'<div class="work {kind}"><div class="figure">{figure}</div><div class="text">{"".join(text)}</div></div>')
    else:
        out += text
    return f"<li>{''.join(out)}</li>"


def page(meta: dict, drawings: dict | None = None) -> str:
    """The worksheet's body: the prediction box with every question that asks for a prediction, then
    the working part. ``drawings``: question index (0-based) -> the drawing area (SVG) of a task that
    asks to draw; a task asking to draw without one, or a drawing without such a task, is refused."""
    lang, qs, drawings = meta["lang"], meta["worksheet"], dict(drawings or {})
    fmt.check_lang(lang)
    w = WORDS[lang]
    missing = [i for i, q in enumerate(qs) if asks_to_draw(q) and not drawings.get(i)]
    stray = [i for i in drawings if not (0 <= i < len(qs) and asks_to_draw(qs[i]))]
    if missing or stray:
        raise ValueError(f"worksheet {meta.get('id', '?')} ({lang}): questions {missing} ask to draw and have no "
                         f"drawing area; drawings {stray} belong to no task that asks to draw")
    predict = "\n".join(prediction(q, lang) for q in qs if q.get("predict"))
    work = "\n".join(item(q, lang, i + 1, drawings.get(i, "")) for i, q in enumerate(qs))
    box = (f'<section class="predictions" aria-labelledby="h-predict"><h2 id="h-predict">{w["predictions"]}</h2>\n'
           f'<p class="hint">{w["predictions_hint"]}</p>\n<ol class="predictions">\n{predict}\n</ol></section>\n'
           if predict else "")
    return (box + f'<section class="working" aria-labelledby="h-work"><h2 id="h-work">{w["working"]}</h2>\n'
            f'<ol class="questions">\n{work}\n</ol></section>')


# --- the answer key ----------------------------------------------------------------------------------------
def fraction(f) -> str:
    """A value as an exact fraction; where the declaration counts it by hand (``core.questions.Counted``:
    14 of the 32 throws that count) the unreduced fraction before it (14/32 = 7/16). Nothing is guessed
    from the denominator: 53/324 stays 53/324 even where the lesson counts out of 46656 elsewhere."""
    unreduced = f.unreduced() if isinstance(f, Counted) else None
    text = _frac(Fraction(f))
    return f"{unreduced.replace('-', fmt.MINUS)} = {text}" if unreduced else text


def _frac(f: Fraction) -> str:
    s = str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
    return s.replace("-", fmt.MINUS)


def _value(f, unit: str, lang: str, form: str = "") -> str:
    """``<span data-value="n/d">`` with the exact fraction (or the declaration's ``form`` of it, where
    the fraction is too long to read: 1 − (15625/46656)³) and the rounded value."""
    from ..core.questions import show_value

    shown = form or fraction(f)  # before Fraction(): a declared count keeps its unreduced form
    f = Fraction(f)
    if unit == "share" and not 0 <= f <= 1:  # a count the by-hand work reaches, not a share
        unit = "count"
    rounded = show_value(f, unit, lang)
    if f.denominator == 1 and unit == "points" and not form:
        shown, tail = rounded, ""  # a whole number of points: "−9 Punkte", not "−9 = −9 Punkte"
    elif f.denominator == 1 and unit != "share" and unit != "points":
        tail = ""
    else:
        tail = f" {'=' if _same(f, rounded, lang) and not form else '≈'} {rounded}"
    return f'<span class="value" data-value="{f.numerator}/{f.denominator}">{html.escape(shown + tail)}</span>'


def _same(f: Fraction, rounded: str, lang: str) -> bool:
    digits = rounded.replace(fmt.MINUS, "-").replace("\xa0", " ").split()[0].rstrip("%")
    try:
        x = Fraction(digits.replace(",", ".") if lang == "de" else digits.replace(",", ""))
    except ValueError:
        return False
    return x == (f * 100 if "%" in rounded else f)


BLANK = re.compile(r"_{3,}")
_OPERATORS = ("+", "−", "-", "·", "×", ":", "÷")


def filled_line(line: str, values, unit: str, lang: str, markup: bool = True) -> str:
    """A worksheet line with its blanks filled in (``ByHand.fills``): a number as the student writes it
    (a ``Counted`` unreduced: 2/36; a negative one after an operator in brackets), a ``Rounded`` as the
    lesson rounds it, a ``Term`` as its text, words in ``lang``. ``markup``: each filled blank in a
    ``<span class="fill">`` (the rest escaped), else plain text. One value per blank, or a ValueError."""
    from ..core.questions import Rounded, Term, is_shown_exactly, show_value

    blanks = list(BLANK.finditer(line))
    if len(blanks) != len(values):
        raise ValueError(f"the line {line!r} has {len(blanks)} blanks and {len(values)} values to fill them")
    out, at = [], 0
    for m, v in zip(blanks, values):
        before, after = line[at:m.start()], line[m.end():]
        if isinstance(v, dict):
            text = v[lang]
        elif isinstance(v, Term):
            text = v.text.replace("-", fmt.MINUS)
        elif isinstance(v, Rounded):
            x = Fraction(v.value)
            text = show_value(x, unit, lang)
            for tail in (" %", "%", " Punkte", " points"):  # the line writes the unit after the blank
                if text.endswith(tail) and after.startswith(tail):
                    text = text[:-len(tail)]
                    break
            if not is_shown_exactly(x, unit, lang) and before.rstrip().endswith("="):
                before = before.rstrip()[:-1] + "≈" + before[len(before.rstrip()):]
        elif isinstance(v, (int, Fraction)) and not isinstance(v, bool):
            text = (v.unreduced() if isinstance(v, Counted) else None) or _frac(Fraction(v))
            if v < 0 and before.rstrip().endswith(_OPERATORS):
                text = f"({text})"
        else:
            raise ValueError(f"a blank of {line!r} is filled with a number, Rounded, Term or words, not {v!r}")
        out.append(html.escape(before) if markup else before)
        out.append(f'<span class="fill">{html.escape(text)}</span>' if markup else text)
        at = m.end()
    out.append(html.escape(line[at:]) if markup else line[at:])
    return "".join(out)


def filled_lines(question, lang: str, markup: bool = True) -> list[str] | None:
    """Every worksheet line of ``question`` in ``lang`` with its blanks filled (None without ``fills``);
    a line without blanks stays as it is."""
    by_hand = question.by_hand
    if by_hand is None or by_hand.fills is None:
        return None
    fills = by_hand.fills()
    lines = question.worksheet[lang]
    stray = [i for i in fills if not (type(i) is int and 0 <= i < len(lines))]
    if stray:
        raise ValueError(f"{question.id}: fills for lines {stray}, which the worksheet does not have")
    return [filled_line(line, tuple(fills.get(i, ())), question.unit, lang, markup) for i, line in enumerate(lines)]


def key_item(q: dict, question, lang: str, answer: str = "") -> str:
    """One question of the answer key: the right option (or range), the exact value (or the estimate),
    each option's value, the by-hand checks, other readings and the teacher version's answer text."""
    fmt.check_lang(lang)
    w = WORDS[lang]
    unit = question.unit
    rows = []
    right = question.right_indexes()
    labels = question.labels(lang)
    if right:
        # a range of whole numbers one wide is the count itself: "Richtig | 6", not "Richtig (Bereich) | 6"
        ranged = question.kind != "choice" and not all(Fraction(hi) - Fraction(lo) == 1 and Fraction(lo).denominator == 1
                                                        for lo, hi in (question.bins[i] for i in right))
        what = f" ({w['range']})" if ranged else ""
        rows.append((w["right"] + what, html.escape(", ".join(labels[i] for i in right))))
    for r in question.readings:
        other = question.reading_indexes(r)
        if other:
            rows.append((html.escape(w["right_in"].format(name=r.name[lang])),
                         html.escape(", ".join(labels[i] for i in other))))
    vals = question.values() if question.values is not None else None
    if question.exact is not None and vals and question.values_of is not None:
        # both options' values, labelled, the right one first: the exact value alone (cross last) would
        # stand under "Richtig: Kreuz zuerst" as if it were the right option's
        keys = question.right()
        order = [o for o in question.options if o.key in keys] + [o for o in question.options if o.key not in keys]
        rows.append((w["exact"], f"{html.escape(question.values_of[lang])}: " + "; ".join(
            f"{html.escape(o.label[lang])}: {_value(vals[o.key], unit, lang)}" for o in order if o.key in vals)))
        vals = None
    elif question.exact is not None:
        rows.append((w["exact"], f"{html.escape(question.exact_of[lang])} = {_value(question.exact(), unit, lang)}"))
    else:
        est = question.estimate
        from ..core.questions import show_value

        got = "" if est.value is None else f" ≈ {html.escape(show_value(est.value(), unit, lang))}"
        rows.append((w["estimate"], f"{html.escape(question.exact_of[lang])}{got} – {html.escape(est.method[lang])}"))
    if vals:
        rows.append((w["each"], "; ".join(f"{html.escape(o.label[lang])}: {_value(vals[o.key], unit, lang)}"
                                           for o in question.options if o.key in vals)))
    if question.by_hand is not None:
        for c in question.by_hand.checks:
            v = c.value()
            shown = html.escape(v[lang]) if isinstance(v, dict) else _value(v, unit, lang, c.form(lang) if c.form else "")
            head = w["by_hand"] + ("" if c.line is None else f" ({w['line'].format(n=c.line + 1)})")
            rows.append((head, f"{html.escape(c.label[lang])}: {shown}" if isinstance(v, dict)
                         else f"{html.escape(c.label[lang])} = {shown}"))
    for r in question.readings:
        rows.append((w["reading"], f"{html.escape(r.label[lang])}: {_value(r.value(), unit, lang)}"))
    if answer:
        rows.append((w["teacher"], html.escape(answer)))
    table = "".join(f"<tr><th scope=\"row\">{head}</th><td>{body}</td></tr>" for head, body in rows)
    filled = filled_lines(question, lang)
    form = "".join(f"<li>{line}</li>" for line in filled) if filled is not None else \
        "".join(f"<li>{html.escape(line)}</li>" for line in q.get("lines", ()))
    title = w["filled"] if filled is not None else w["form"]
    form = f'<p class="form-title">{title}:</p><ul class="form">{form}</ul>' if form else ""
    return (f'<li data-question="{html.escape(question.id)}"><p class="q">{html.escape(q["question"])}</p>'
            f'<table class="key">{table}</table>{form}</li>')


def answer_key(meta: dict, questions) -> str:
    """The answer key's items: the worksheet's questions in order, each with its declared question
    (``questions``: the lesson's core questions, whose worksheet lines are the metadata's)."""
    lang, qs = meta["lang"], meta["worksheet"]
    questions = list(questions)
    if len(questions) != len(qs) or any(list(d.worksheet[lang]) != list(q.get("lines", ())) for q, d in zip(qs, questions)):
        raise ValueError(f"answer key {meta.get('id', '?')} ({lang}): the worksheet's questions are not the declared "
                         f"core questions {[d.id for d in questions]} (their lines differ)")
    answers = {a["key"]: a["answer"] for a in meta.get("questions", ())}
    return "\n".join(key_item(q, d, lang, answers.get(d.key, "")) for q, d in zip(qs, questions))
