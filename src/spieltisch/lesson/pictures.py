"""Pictures for lessons, drawn as SVG with the standard library: a coloured 6×6 grid of two-dice
throws, a tree diagram, a running-share plot (law of large numbers) and a histogram.

Every picture displays as SVG in JupyterLab/JupyterLite and carries a short ``text/plain`` form
(what nbval compares and a terminal shows). The kit draws what the notebook hands it: which throw
belongs to which class, a branch's probability, the exact value to converge to all come from the
engine, via the notebook. The only arithmetic here is drawing (positions, running shares, bin counts).
"""

from __future__ import annotations

import html
from fractions import Fraction

from . import fmt

PALETTE = ("#2e7d32", "#c62828", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f", "#9e9d24", "#5d4037")
LIGHT = "#eeeeee"
FONT = "font-family:sans-serif"


def _c(v: float) -> str:
    """A coordinate: at most one decimal, so the SVG text is the same everywhere."""
    return fmt.number(round(v, 1), "en", 1, strip=True).replace(",", "").replace(fmt.MINUS, "-")


def _t(text) -> str:
    return html.escape(str(text), quote=True)


class Picture:
    """An SVG picture with a text form."""

    def __init__(self, svg: str, text: str):
        self.svg = svg
        self.text = text

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"image/svg+xml": self.svg, "text/plain": self.text}

    def __repr__(self) -> str:
        return self.text


def _size(svg: str, name: str) -> int:
    """The ``width`` or ``height`` attribute of an ``<svg>``'s opening tag."""
    head = svg[:svg.index(">")]
    return int(float(head.split(f' {name}="')[1].split('"')[0]))


def side_by_side(pictures, text: str, gap: int = 10) -> Picture:
    """Pictures in one row, ``gap`` apart, as one SVG (each keeps its own size), with ``text``."""
    svgs = [p.svg for p in pictures]
    if len(svgs) == 1:
        return Picture(svgs[0], text)
    w = sum(_size(s, "width") for s in svgs) + gap * (len(svgs) - 1)
    h = max(_size(s, "height") for s in svgs)
    parts, x = [], 0
    for s in svgs:
        parts.append(f'<g transform="translate({x} 0)">{s}</g>')
        x += _size(s, "width") + gap
    return Picture(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                   f'viewBox="0 0 {w} {h}">{"".join(parts)}</svg>', text)


def _items(legend):
    if isinstance(legend, dict):
        return [(k, *v) for k, v in legend.items()]
    return list(legend)


def dice_grid(category, legend, lang: str = "de", labels=None, title: str = "", cell: int = 36) -> Picture:
    """The 36 ordered throws of two dice as a coloured 6×6 grid.

    ``category``: a mapping ``{(a, b): key}`` or a function ``(a, b) -> key`` (computed with the engine);
    ``legend``: ``{key: (text, colour or None)}`` in the order to list; ``labels``: optional mapping or
    function ``(a, b) -> short text`` written into the cell. The legend counts each class ("22 von 36").
    """
    fmt.check_lang(lang)
    get = category if callable(category) else category.__getitem__
    lab = None if labels is None else (labels if callable(labels) else labels.__getitem__)
    items = _items(legend)
    colours = {k: (col or PALETTE[i % len(PALETTE)]) for i, (k, _, col) in enumerate(items)}
    cls = {(a, b): get(a, b) if callable(category) else get((a, b)) for a in range(1, 7) for b in range(1, 7)}
    unknown = {v for v in cls.values() if v not in colours}
    if unknown:
        raise ValueError(f"dice_grid: classes {sorted(map(str, unknown))} have no legend entry")
    left, top = 44, 44 + (22 if title else 0)
    side = 6 * cell
    legend_h = 22 * len(items)
    counts = {k: sum(v == k for v in cls.values()) for k, _, _ in items}
    lines = [f"{text}: {fmt.ratio(counts[k], 36, lang)}" for k, text, _ in items]
    # wide enough for the title (14 px bold) and the legend (12 px): about 0.6 em per character
    width = max(left + side + 16, 8 + round(8.6 * len(title)), left + 24 + max(round(7.2 * len(t)) for t in lines))
    height = top + side + 16 + legend_h
    first, second = ("1. Würfel", "2. Würfel") if lang == "de" else ("first die", "second die")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" style="{FONT}" role="img">']
    if title:
        parts.append(f'<text x="4" y="16" font-size="14" font-weight="bold">{_t(title)}</text>')
    parts.append(f'<text x="{_c(left + side / 2)}" y="{top - 26}" font-size="12" text-anchor="middle">{_t(second)}</text>')
    parts.append(f'<text x="12" y="{_c(top + side / 2)}" font-size="12" text-anchor="middle" '
                 f'transform="rotate(-90 12 {_c(top + side / 2)})">{_t(first)}</text>')
    for i in range(1, 7):
        parts.append(f'<text x="{_c(left + (i - 0.5) * cell)}" y="{top - 8}" font-size="12" text-anchor="middle">{i}</text>')
        parts.append(f'<text x="{left - 10}" y="{_c(top + (i - 0.5) * cell + 4)}" font-size="12" text-anchor="middle">{i}</text>')
    for a in range(1, 7):
        for b in range(1, 7):
            x, y = left + (b - 1) * cell, top + (a - 1) * cell
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{colours[cls[(a, b)]]}" '
                         f'stroke="white" stroke-width="2"><title>{a}, {b}</title></rect>')
            if lab is not None:
                parts.append(f'<text x="{_c(x + cell / 2)}" y="{_c(y + cell / 2 + 4)}" font-size="11" fill="white" '
                             f'text-anchor="middle">{_t(lab(a, b) if callable(labels) else lab((a, b)))}</text>')
    for i, ((k, _, _), line) in enumerate(zip(items, lines)):
        y = top + side + 14 + 22 * i
        parts.append(f'<rect x="{left}" y="{y}" width="14" height="14" fill="{colours[k]}"/>')
        parts.append(f'<text x="{left + 20}" y="{y + 12}" font-size="12">{_t(line)}</text>')
    parts.append("</svg>")
    symbols = {k: "#*o+x%@=~"[i % 9] for i, (k, _, _) in enumerate(items)}
    grid = [("   " + " ".join(str(b) for b in range(1, 7)))]
    grid += [f"{a}  " + " ".join(symbols[cls[(a, b)]] for b in range(1, 7)) for a in range(1, 7)]
    key = [f"{symbols[k]} {line}" for (k, _, _), line in zip(items, lines)]
    text = "\n".join(([title] if title else []) + grid + key)
    return Picture("".join(parts), text)


class Node:
    """A node of a tree diagram: a label, branches ``[(probability, Node), ...]``, a note for leaves
    and a ``value`` a tree to fill in asks for at this node (e.g. the path's probability; computed by
    the engine, given by the notebook)."""

    def __init__(self, label: str, branches=(), note: str = "", value=None):
        self.label = label
        self.branches = list(branches)
        self.note = note
        self.value = value


def tree(root: Node, lang: str = "de", title: str = "", col: int = 170, row: int = 40) -> Picture:
    """A tree diagram, left to right; each branch is labelled with its probability as a fraction, or
    with an empty box to fill in where the probability is None (a skeleton for a worksheet)."""
    fmt.check_lang(lang)
    pos, leaves, depth = {}, [], [0]

    def place(node, d):
        depth[0] = max(depth[0], d)
        if not node.branches:
            pos[id(node)] = (d, len(leaves))
            leaves.append(node)
            return len(leaves) - 1
        ys = [place(child, d + 1) for _, child in node.branches]
        y = (ys[0] + ys[-1]) / 2
        pos[id(node)] = (d, y)
        return y

    place(root, 0)
    top = 28 if title else 8
    note_w = max((len(n.note) for n in leaves), default=0) * 7 + 20
    width = 40 + depth[0] * col + 40 + max((3.5 * len(n.label) + 8 for n in leaves), default=22) + note_w
    height = top + len(leaves) * row + 8
    xy = lambda n: (30 + pos[id(n)][0] * col, top + row / 2 + pos[id(n)][1] * row)  # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_c(width)}" height="{_c(height)}" '
             f'viewBox="0 0 {_c(width)} {_c(height)}" style="{FONT}" role="img">']
    if title:
        parts.append(f'<text x="4" y="16" font-size="14" font-weight="bold">{_t(title)}</text>')
    lines = [title] if title else []

    half = lambda n: max(22, 3.5 * len(n.label) + 8)  # noqa: E731

    def draw(node, indent):
        x, y = xy(node)
        for p, child in node.branches:
            cx, cy = xy(child)
            x1, x2 = x + half(node), cx - half(child)
            parts.append(f'<line x1="{_c(x1)}" y1="{_c(y)}" x2="{_c(x2)}" y2="{_c(cy)}" stroke="#555"/>')
            mx, my = x1 + (x2 - x1) * 0.7, y + (cy - y) * 0.7  # near the child: labels of close branches stay apart
            if p is None:  # a skeleton: a box on the branch to write its probability in
                bx, by = x1 + (x2 - x1) * 0.5, y + (cy - y) * 0.5
                parts.append(f'<rect x="{_c(bx - 22)}" y="{_c(by - 9)}" width="44" height="18" fill="white" '
                             f'stroke="#1565c0"/>')
            else:
                parts.append(f'<text x="{_c(mx)}" y="{_c(my - 5)}" font-size="12" fill="#1565c0" '
                             f'text-anchor="middle">{_t(fmt.fraction(p, lang))}</text>')
        parts.append(f'<rect x="{_c(x - half(node))}" y="{_c(y - 11)}" width="{_c(2 * half(node))}" height="22" rx="6" '
                     f'fill="white" stroke="#333"/>')
        parts.append(f'<text x="{_c(x)}" y="{_c(y + 4)}" font-size="12" text-anchor="middle">{_t(node.label)}</text>')
        if node.note:
            parts.append(f'<text x="{_c(x + half(node) + 8)}" y="{_c(y + 4)}" font-size="12">{_t(node.note)}</text>')
        for p, child in node.branches:
            lines.append(f"{'  ' * indent}{'?' if p is None else fmt.fraction(p, lang)} → {child.label}"
                         + (f"   {child.note}" if child.note else ""))
            draw(child, indent + 1)

    lines.append(root.label)
    draw(root, 1)
    parts.append("</svg>")
    return Picture("".join(parts), "\n".join(lines))


def _axes(parts, x0, y0, w, h, xticks, yticks, xlabel, ylabel):
    parts.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#999"/>')
    for x, text in xticks:
        parts.append(f'<text x="{_c(x)}" y="{y0 + h + 14}" font-size="11" text-anchor="middle">{_t(text)}</text>')
    for y, text in yticks:
        parts.append(f'<line x1="{x0}" y1="{_c(y)}" x2="{x0 + w}" y2="{_c(y)}" stroke="{LIGHT}"/>')
        parts.append(f'<text x="{x0 - 4}" y="{_c(y + 4)}" font-size="11" text-anchor="end">{_t(text)}</text>')
    parts.append(f'<text x="{_c(x0 + w / 2)}" y="{y0 + h + 30}" font-size="12" text-anchor="middle">{_t(xlabel)}</text>')
    parts.append(f'<text x="12" y="{_c(y0 + h / 2)}" font-size="12" text-anchor="middle" '
                 f'transform="rotate(-90 12 {_c(y0 + h / 2)})">{_t(ylabel)}</text>')


def running_share(outcomes, exact, n: int | None = None, lang: str = "de", title: str = "",
                  ylabel: str | None = None, as_percent: bool = True, width: int = 520, height: int = 260) -> Picture:
    """The law of large numbers: the running mean of the first ``n`` simulated outcomes (0/1 or numbers)
    against the exact value (a line), on a logarithmic n axis."""
    fmt.check_lang(lang)
    values = [Fraction(v) if not isinstance(v, float) else v for v in outcomes]
    n = len(values) if n is None else n
    if not 1 <= n <= len(values):
        raise ValueError(f"running_share: n must be between 1 and {len(values)}, not {n}")
    running, total = [], 0
    for v in values[:n]:
        total += v
        running.append(total / (len(running) + 1))
    lo = min(min(running), Fraction(exact))
    hi = max(max(running), Fraction(exact))
    if as_percent:
        lo, hi = Fraction(0), max(Fraction(1), hi)
    pad = (hi - lo) / 10 or 1
    lo, hi = (lo, hi) if as_percent else (lo - pad, hi + pad)
    x0, y0, w, h = 60, 30 if title else 10, width - 80, height - 60 - (20 if title else 0)
    import math
    lmax = math.log10(max(n, 10))
    X = lambda i: x0 + w * math.log10(i) / lmax  # noqa: E731
    Y = lambda v: y0 + h - h * float((Fraction(v) - lo) / (hi - lo))  # noqa: E731
    show = (lambda v: fmt.percent(v, lang, 0)) if as_percent else (lambda v: fmt.number(v, lang, 1))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" style="{FONT}" role="img">']
    if title:
        parts.append(f'<text x="4" y="16" font-size="14" font-weight="bold">{_t(title)}</text>')
    xt = [(X(10 ** k), fmt.integer(10 ** k, lang)) for k in range(0, int(lmax) + 1)]
    yt = [(Y(lo + (hi - lo) * k / 4), show(lo + (hi - lo) * k / 4)) for k in range(5)]
    _axes(parts, x0, y0, w, h, xt, yt, "n" + (" (Anzahl Versuche)" if lang == "de" else " (number of trials)"),
          ylabel or ("relative Häufigkeit" if lang == "de" else "relative frequency"))
    step = max(1, n // 400)  # every early trial (the log axis spreads them), then every step-th
    pts = " ".join(f"{_c(X(i + 1))},{_c(Y(r))}" for i, r in enumerate(running) if i < 100 or i % step == 0 or i == n - 1)
    parts.append(f'<polyline points="{pts}" fill="none" stroke="#1565c0" stroke-width="1.5"/>')
    parts.append(f'<line x1="{x0}" y1="{_c(Y(exact))}" x2="{x0 + w}" y2="{_c(Y(exact))}" stroke="#c62828" '
                 f'stroke-dasharray="6 4" stroke-width="2"/>')
    ex_word = "exakt" if lang == "de" else "exact"
    parts.append(f'<text x="{x0 + w - 4}" y="{_c(Y(exact) - 6)}" font-size="12" fill="#c62828" text-anchor="end">'
                 f'{ex_word} {_t(show(exact) if not as_percent else fmt.percent(exact, lang))}</text>')
    parts.append("</svg>")
    last = running[-1]
    if as_percent:
        text = (f"n = {fmt.integer(n, lang)}: {'relative Häufigkeit' if lang == 'de' else 'relative frequency'} "
                f"{fmt.percent(last, lang)}, {ex_word} {fmt.percent(exact, lang)}")
    else:
        text = (f"n = {fmt.integer(n, lang)}: {'Mittelwert' if lang == 'de' else 'mean'} {fmt.number(last, lang)}, "
                f"{ex_word} {fmt.number(exact, lang)}")
    return Picture("".join(parts), (title + "\n" if title else "") + text)


def _marks_and_legend(parts, names, colours, marks, X, x0, y0, h, lang, below, say_dashed=False) -> None:
    """Dashed lines at the ``marks`` (e.g. exact expected values), and a legend ``below`` the plot
    naming each group (and its mark)."""
    for g, v in (marks or {}).items():
        parts.append(f'<line x1="{_c(X(v))}" y1="{y0}" x2="{_c(X(v))}" y2="{y0 + h}" stroke="{colours.get(g, "#000")}" '
                     f'stroke-dasharray="5 3" stroke-width="2"/>')
    dashed = (", gestrichelt" if lang == "de" else ", dashed") if say_dashed else ""
    for j, g in enumerate(names):
        y = y0 + h + below + 18 * j
        parts.append(f'<rect x="{x0}" y="{y - 10}" width="12" height="12" fill="{colours[g]}"/>')
        label = g + (f" ({'Erwartungswert' if lang == 'de' else 'expected value'} {fmt.number(marks[g], lang)}{dashed})"
                     if marks and g in marks else "")
        parts.append(f'<text x="{x0 + 18}" y="{y}" font-size="12">{_t(label)}</text>')


def histogram(groups: dict, bins: list, lang: str = "de", title: str = "", xlabel: str = "",
              marks: dict | None = None, width: int = 560, height: int = 280) -> Picture:
    """Shares of ``groups`` ({name: values}) in the bins ``[lo, hi)`` given by the edges ``bins``
    (the last bin includes its right edge); ``marks`` ({name: value}, e.g. exact expected values)
    are drawn as dashed lines in the group's colour."""
    fmt.check_lang(lang)
    if len(bins) < 2 or any(b >= c for b, c in zip(bins, bins[1:])):
        raise ValueError("histogram: bins must be at least two increasing edges")
    names = list(groups)
    shares = {}
    for g in names:
        vals = list(groups[g])
        counts = [0] * (len(bins) - 1)
        for v in vals:
            for i in range(len(bins) - 1):
                if bins[i] <= v < bins[i + 1] or (i == len(bins) - 2 and v == bins[-1]):
                    counts[i] += 1
                    break
        shares[g] = [Fraction(c, len(vals)) if vals else Fraction(0) for c in counts]
    top = max(max(s) for s in shares.values()) or Fraction(1)
    x0, y0, w, h = 60, 30 if title else 10, width - 80, height - 60 - (20 if title else 0) - 18 * len(names)
    X = lambda v: x0 + w * float((Fraction(v) - Fraction(bins[0])) / (Fraction(bins[-1]) - Fraction(bins[0])))  # noqa: E731
    Y = lambda s: y0 + h - h * float(Fraction(s) / top)  # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" style="{FONT}" role="img">']
    if title:
        parts.append(f'<text x="4" y="16" font-size="14" font-weight="bold">{_t(title)}</text>')
    every = max(1, len(bins) // 10)
    xt = [(X(b), fmt.number(b, lang, 0)) for i, b in enumerate(bins) if i % every == 0]
    yt = [(Y(top * k / 4), fmt.percent(top * k / 4, lang, 0)) for k in range(5)]
    _axes(parts, x0, y0, w, h, xt, yt, xlabel, "Anteil" if lang == "de" else "share")
    colours = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(names)}
    for j, g in enumerate(names):
        for i, s in enumerate(shares[g]):
            if not s:
                continue
            bx, bw = X(bins[i]), X(bins[i + 1]) - X(bins[i])
            sub = bw / len(names)
            parts.append(f'<rect x="{_c(bx + j * sub)}" y="{_c(Y(s))}" width="{_c(max(sub - 0.5, 0.5))}" '
                         f'height="{_c(y0 + h - Y(s))}" fill="{colours[g]}" opacity="0.8"/>')
    _marks_and_legend(parts, names, colours, marks, X, x0, y0, h, lang, below=40)
    parts.append("</svg>")
    head = ("von", "bis") if lang == "de" else ("from", "to")
    rows = [f"{head[0]:>6} {head[1]:>6}  " + "  ".join(f"{g:>12}" for g in names)]
    for i in range(len(bins) - 1):
        rows.append(f"{fmt.number(bins[i], lang, 0):>6} {fmt.number(bins[i + 1], lang, 0):>6}  "
                    + "  ".join(f"{fmt.percent(shares[g][i], lang):>12}" for g in names))
    return Picture("".join(parts), "\n".join(([title] if title else []) + rows))


def _nice_step(span: float, most: int = 5) -> Fraction:
    """A round step (1, 2, 2,5 or 5 times a power of ten) giving at most ``most`` steps over ``span``."""
    import math
    k = math.floor(math.log10(span / most)) if span > 0 else 0
    for m in (1, 2, Fraction(5, 2), 5, 10):
        step = Fraction(m) * Fraction(10) ** k
        if span / step <= most:
            return step
    return Fraction(10) ** (k + 1)


def _ticks(lo: float, hi: float, most: int = 5) -> list[Fraction]:
    """Round values between ``lo`` and ``hi`` (both included when round)."""
    import math
    step = _nice_step(hi - lo, most)
    first = math.ceil(Fraction(lo) / step)
    out = []
    k = first
    while k * step <= Fraction(hi):
        out.append(k * step)
        k += 1
    return out


def _running_means(values, n: int) -> list[float]:
    """Running means of the first ``n`` values (numbers or booleans), as floats: a sum of integers
    divided by a count is correctly rounded everywhere, so CPython and Pyodide draw the same."""
    out, total = [], 0
    for k, v in enumerate(values[:n], start=1):
        total += v
        out.append(total / k if isinstance(total, int) else float(Fraction(total) / k))
    return out


def _log_steps(n: int) -> list[int]:
    """The trials 1..n at which a running line is drawn: every one up to 50, then about 250 more,
    evenly spaced on the log axis, and n."""
    steps = list(range(1, min(n, 50) + 1))
    if n > 50:
        import math
        r = math.exp(math.log(n / 50) / 250)
        k = 50.0
        while k < n:
            k *= r
            if round(k) > steps[-1] and round(k) < n:
                steps.append(round(k))
        steps.append(n)
    return steps


def funnel(series, exact, n: int | None = None, lang: str = "de", title: str = "", as_percent: bool = True,
           sd=None, unit: str = "", ylabel: str | None = None, width: int = 560, height: int = 320) -> Picture:
    """The law of large numbers as a funnel: the running mean (relative frequency, or mean) of several
    simulated ``series`` over their first ``n`` trials, on a logarithmic n axis, around the ``exact``
    value; grey, where about 95 of 100 series lie at each n (for a share p: p ± 1,96·√(p(1 − p)/n); for a
    mean, given its standard deviation ``sd`` from the engine: exact ± 1,96·sd/√n)."""
    import math

    from ..core.stats import Z95

    fmt.check_lang(lang)
    series = [list(s) for s in series]
    if not series or not all(series):
        raise ValueError("funnel: at least one series with outcomes is needed")
    n = min(len(s) for s in series) if n is None else n
    if not 1 <= n <= min(len(s) for s in series):
        raise ValueError(f"funnel: n must be between 1 and {min(len(s) for s in series)}, not {n}")
    runs = [_running_means(s, n) for s in series]
    ex = float(Fraction(exact))
    spread = math.sqrt(ex * (1 - ex)) if as_percent else (None if sd is None else float(Fraction(sd)))

    def band(k):
        half = Z95 * spread / math.sqrt(k)
        return ex - half, ex + half

    start = min(n, 10)
    seen = [v for r in runs for v in r[start - 1:]] + [ex]
    if spread is not None:
        seen += list(band(start))
    lo, hi = min(seen), max(seen)
    pad = (hi - lo) / 12 or abs(ex) / 10 or 0.1
    lo, hi = lo - pad, hi + pad
    if as_percent:
        lo, hi = max(0.0, lo), min(1.0, hi)
    de = lang == "de"
    legend_h = 58
    x0, y0 = 64, 30 if title else 10
    w, h = width - x0 - 16, height - y0 - 44 - legend_h
    lmax = math.log10(max(n, 10))
    X = lambda k: x0 + w * math.log10(k) / lmax  # noqa: E731
    Y = lambda v: y0 + h - h * (v - lo) / (hi - lo)  # noqa: E731
    show = (lambda v: fmt.percent(Fraction(v), lang, 0)) if as_percent else (lambda v: fmt.number(Fraction(v), lang, 0))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" style="{FONT}" role="img">']
    if title:
        parts.append(f'<text x="4" y="16" font-size="14" font-weight="bold">{_t(title)}</text>')
    clip = "@CLIP@"  # named after the drawing below: ids are page-wide, several funnels share a page
    parts.append(f'<defs><clipPath id="{clip}"><rect x="{x0}" y="{y0}" width="{w}" height="{h}"/></clipPath></defs>')
    xt = [(X(10 ** k), fmt.integer(10 ** k, lang)) for k in range(0, int(lmax) + 1) if 10 ** k <= max(n, 10)]
    yt = [(Y(float(v)), show(v)) for v in _ticks(lo, hi)]
    what = unit or ("Versuche" if de else "trials")
    xlabel = (f"Anzahl der {what} n (logarithmische Achse)" if de else f"number of {what} n (logarithmic axis)")
    _axes(parts, x0, y0, w, h, xt, yt, xlabel,
          ylabel or (("relative Häufigkeit" if de else "relative frequency") if as_percent else ("Mittelwert" if de else "mean")))
    steps = _log_steps(n)
    if spread is not None:
        upper = [f"{_c(X(k))},{_c(Y(band(k)[1]))}" for k in steps]
        lower = [f"{_c(X(k))},{_c(Y(band(k)[0]))}" for k in reversed(steps)]
        parts.append(f'<polygon points="{" ".join(upper + lower)}" fill="#9e9e9e" opacity="0.3" clip-path="url(#{clip})"/>')
    colours = ("#1565c0", "#6a1b9a", "#00838f", "#ef6c00", "#2e7d32", "#5d4037", "#9e9d24", "#ad1457")
    for i, r in enumerate(runs):
        pts = " ".join(f"{_c(X(k))},{_c(Y(r[k - 1]))}" for k in steps)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{colours[i % len(colours)]}" stroke-width="1.4" '
                     f'opacity="0.85" clip-path="url(#{clip})"/>')
    parts.append(f'<line x1="{x0}" y1="{_c(Y(ex))}" x2="{x0 + w}" y2="{_c(Y(ex))}" stroke="#c62828" '
                 f'stroke-dasharray="6 4" stroke-width="2"/>')
    exact_text = (fmt.probability(exact, lang) if as_percent else
                  fmt.fraction(exact, lang) + ("" if Fraction(exact).denominator == 1 else f" ≈ {fmt.number(exact, lang)}"))
    ex_word = "exakt" if de else "exact"
    ly = y0 + h + 44
    parts.append(f'<line x1="{x0}" y1="{ly}" x2="{x0 + 24}" y2="{ly}" stroke="#c62828" stroke-dasharray="6 4" stroke-width="2"/>')
    parts.append(f'<text x="{x0 + 30}" y="{ly + 4}" font-size="12">{_t(f"{ex_word}: {exact_text}")}</text>')
    count = len(runs)
    lines_text = (f"{count} Reihen, je {fmt.integer(n, lang)} {what}" if de else f"{count} series of {fmt.integer(n, lang)} {what}")
    parts.append(f'<line x1="{x0}" y1="{ly + 18}" x2="{x0 + 24}" y2="{ly + 18}" stroke="#1565c0" stroke-width="2"/>')
    parts.append(f'<text x="{x0 + 30}" y="{ly + 22}" font-size="12">{_t(lines_text)}</text>')
    if spread is not None:
        band_text = ("grau: der 95-%-Trichter – bei jedem n liegen etwa 95 von 100 Reihen darin" if de else
                     "grey: the 95% funnel – at every n about 95 of 100 series lie inside it")
        parts.append(f'<rect x="{x0}" y="{ly + 30}" width="24" height="10" fill="#9e9e9e" opacity="0.3"/>')
        parts.append(f'<text x="{x0 + 30}" y="{ly + 40}" font-size="12">{_t(band_text)}</text>')
    parts.append("</svg>")
    import hashlib
    svg = "".join(parts)
    svg = svg.replace("@CLIP@", "funnel-" + hashlib.sha1(svg.encode("utf-8")).hexdigest()[:12])
    ends = sorted(r[-1] for r in runs)
    span = (fmt.percent(Fraction(ends[0]), lang), fmt.percent(Fraction(ends[-1]), lang)) if as_percent else \
        (fmt.number(Fraction(ends[0]), lang), fmt.number(Fraction(ends[-1]), lang))
    word = ("relative Häufigkeit" if de else "relative frequency") if as_percent else ("Mittelwert" if de else "mean")
    if count == 1:
        body = f"n = {fmt.integer(n, lang)}: {word} {span[0]}"
    else:
        body = (f"{lines_text}: {word} nach n = {fmt.integer(n, lang)} zwischen {span[0]} und {span[1]}" if de else
                f"{lines_text}: {word} after n = {fmt.integer(n, lang)} between {span[0]} and {span[1]}")
    return Picture(svg, (title + "\n" if title else "") + f"{body}; {ex_word} {exact_text}")


def bars(groups: dict, lang: str = "de", title: str = "", xlabel: str = "", marks: dict | None = None,
         width: int = 1, lo: int | None = None, hi: int | None = None, px: int = 560, height: int = 300) -> Picture:
    """Shares of whole-number values ``groups`` ({name: values}): one bar per whole number (``width``
    1), centred on it, or per block of ``width`` whole numbers k … k+width−1, drawn over exactly those
    numbers; ``marks`` ({name: value}, e.g. exact expected values) as dashed lines at their true place.
    ``lo``/``hi``: the smallest and largest value shown (default: those that occur); a value outside
    is an error, not dropped."""
    fmt.check_lang(lang)
    names = list(groups)
    values = {g: [Fraction(v) for v in groups[g]] for g in names}
    if not names or not all(values.values()):
        raise ValueError("bars: every group needs values")
    if any(v.denominator != 1 for vs in values.values() for v in vs):
        raise ValueError("bars: the values must be whole numbers (histogram() takes measured values)")
    if type(width) is not int or width < 1:
        raise ValueError("bars: width must be a whole number ≥ 1")
    every = [int(v) for vs in values.values() for v in vs]
    lo = min(every) if lo is None else lo
    hi = max(every) if hi is None else hi
    if min(every) < lo or max(every) > hi:
        raise ValueError(f"bars: values from {min(every)} to {max(every)} do not fit between {lo} and {hi}")
    first = lo - lo % width  # blocks start at multiples of width (…, −20, 0, 20, …)
    starts = list(range(first, hi + 1, width))
    shares = {g: [Fraction(sum(1 for v in values[g] if s <= v < s + width), len(values[g])) for s in starts]
              for g in names}
    top = max(max(s) for s in shares.values()) or Fraction(1)
    ystep = _nice_step(float(top), 5)
    top = -(-top // ystep) * ystep
    x0, y0 = 60, 30 if title else 10
    w, h = px - 80, height - (30 if title else 10) - 52 - 18 * len(names)
    left, right = Fraction(first) - Fraction(1, 2), Fraction(starts[-1] + width) - Fraction(1, 2)
    X = lambda v: x0 + w * float((Fraction(v) - left) / (right - left))  # noqa: E731
    Y = lambda s: y0 + h - h * float(Fraction(s) / top)  # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{px}" height="{height}" '
             f'viewBox="0 0 {px} {height}" style="{FONT}" role="img">']
    if title:
        parts.append(f'<text x="4" y="16" font-size="14" font-weight="bold">{_t(title)}</text>')
    span = starts[-1] + width - first
    step = next(width * m for m in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if span / (width * m) <= 12 or m == 1000)
    labelled = [k for k in range(first, starts[-1] + width) if (k - first) % step == 0] if width == 1 else \
        [s for s in starts if (s - first) % step == 0]
    xt = [(X(k), fmt.integer(k, lang)) for k in labelled]
    yt = [(Y(v), fmt.percent(v, lang, 0 if v * 100 == int(v * 100) else 1)) for v in _ticks(0, top)]
    _axes(parts, x0, y0, w, h, xt, yt, xlabel, "Anteil" if lang == "de" else "share")
    colours = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(names)}
    for j, g in enumerate(names):
        for s, share in zip(starts, shares[g]):
            if not share:
                continue
            bx, bw = X(Fraction(s) - Fraction(1, 2)), X(Fraction(s + width) - Fraction(1, 2)) - X(Fraction(s) - Fraction(1, 2))
            sub = bw / len(names)
            parts.append(f'<rect x="{_c(bx + j * sub + 0.5)}" y="{_c(Y(share))}" width="{_c(max(sub - 1, 0.5))}" '
                         f'height="{_c(y0 + h - Y(share))}" fill="{colours[g]}" opacity="0.8"/>')
    _marks_and_legend(parts, names, colours, marks, X, x0, y0, h, lang, below=48, say_dashed=True)
    parts.append("</svg>")
    head = "Wert" if lang == "de" else "value"
    to = " bis " if lang == "de" else " to "
    rows = [f"{head:>16}  " + "  ".join(f"{g:>14}" for g in names)]
    for i, s in enumerate(starts):
        key = fmt.integer(s, lang) if width == 1 else f"{fmt.integer(s, lang)}{to}{fmt.integer(s + width - 1, lang)}"
        rows.append(f"{key:>16}  " + "  ".join(f"{fmt.percent(shares[g][i], lang):>14}" for g in names))
    return Picture("".join(parts), "\n".join(([title] if title else []) + rows))
