"""Pictures as SVG text (standard library only), shared by the widgets, notebooks and Panel apps."""

from __future__ import annotations

from html import escape

PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def die(value: int, size: int = 48, x: float = 0, y: float = 0, fill: str = "#fffdf5",
        pip: str = "#222", muted: bool = False) -> str:
    """One die face as an SVG group (no <svg> wrapper)."""
    if muted:
        fill, pip = "#ddd", "#999"
    r = size * 0.09
    parts = [f'<g transform="translate({x},{y})" role="img" aria-label="die showing {value}">',
             f'<rect x="1" y="1" width="{size - 2}" height="{size - 2}" rx="{size * 0.18}" '
             f'fill="{fill}" stroke="#333" stroke-width="2"/>']
    step = size / 4
    for cx, cy in PIPS.get(value, []):
        parts.append(f'<circle cx="{step * (cx + 1)}" cy="{step * (cy + 1)}" r="{r}" fill="{pip}"/>')
    parts.append("</g>")
    return "".join(parts)


def dice_row(values, size: int = 48, gap: int = 10, muted=()) -> str:
    """A row of dice as a complete <svg> element; ``muted`` lists indices drawn greyed out."""
    values = list(values)
    width = max(1, len(values)) * (size + gap)
    body = "".join(die(v, size, i * (size + gap), 0, muted=i in muted) for i, v in enumerate(values))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{size}" '
            f'viewBox="0 0 {width} {size}">{body}</svg>')


def slide(label: str, up: bool, width: int = 40, height: int = 90, accent: str = "#c0392b",
          x: float = 0, title: str = "") -> str:
    """A two-position slide (Schieber): up = pushed, drawn raised and coloured."""
    y = 4 if up else height * 0.42
    knob_h = height * 0.54
    fill = accent if up else "#f4f1e8"
    text = "#fff" if up else "#333"
    t = f"<title>{escape(title)}</title>" if title else ""
    return (f'<g transform="translate({x},0)">{t}'
            f'<rect x="2" y="2" width="{width - 4}" height="{height - 4}" rx="6" fill="#5b4636"/>'
            f'<rect x="6" y="{y}" width="{width - 12}" height="{knob_h}" rx="5" fill="{fill}" '
            f'stroke="#222" stroke-width="1.5"/>'
            f'<text x="{width / 2}" y="{y + knob_h / 2 + 6}" font-size="18" font-family="sans-serif" '
            f'font-weight="bold" text-anchor="middle" fill="{text}">{escape(label)}</text></g>')


def slides_row(labels, up_flags, width: int = 40, height: int = 90, accents=None, titles=None) -> str:
    labels = list(labels)
    total = len(labels) * (width + 4)
    body = "".join(
        slide(str(lab), bool(up), width, height, (accents or {}).get(i, "#c0392b"), i * (width + 4),
              (titles or {}).get(i, ""))
        for i, (lab, up) in enumerate(zip(labels, up_flags))
    )
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{height}" '
            f'viewBox="0 0 {total} {height}">{body}</svg>')


def badge(text: str, colour: str = "#2c3e50") -> str:
    return (f'<span style="display:inline-block;padding:2px 8px;border-radius:10px;background:{colour};'
            f'color:#fff;font-size:12px">{escape(text)}</span>')
