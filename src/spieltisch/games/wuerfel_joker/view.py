"""The Würfel Joker view: the Tableau and the dice as SVG text (standard library only), for the widget,
the notebooks and the Panel app.

``board_svg(game_id, observation)`` draws a position from an observation alone (both games);
``slide_pictures`` and ``dice_picture`` are its parts, so the widget can put a button under each
slide. The pieces (``die``, ``dice_row``, ``slide``, ``slides_row``, ``badge``) draw plain values.
"""

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


# --- from observations ---------------------------------------------------------------------------
GAME1, GAME2 = "wuerfel-joker-1", "wuerfel-joker-2"
SLIDE_ACCENT = "#c0392b"
FIVE_ACCENT = "#27ae60"  # Spiel 2: slide 5 plays a special part
JOKER_ACCENT = "#d4a017"
NUM_DICE = {GAME1: 3, GAME2: 2}
_JOKER_TITLE = {"de": "Joker (oben = in den Jokern; jede 1 schiebt einen nach unten)",
                "en": "joker (up = in the jokers; every 1 pushes one down)"}


def slide_pictures(game_id: str, observation: dict, lang: str = "de") -> list[dict]:
    """Every slide of the Tableau as the observation shows it: ``label``, ``up``, ``accent``,
    ``title``. Spiel 1: slides 1-6, then the three jokers (as on the device: going into the jokers
    pushes all three up, each 1 thrown pushes one back down); Spiel 2: slides 1-9."""
    if game_id == GAME2:
        up = set(observation["up"])
        return [{"label": str(v), "up": v in up, "accent": FIVE_ACCENT if v == 5 else SLIDE_ACCENT, "title": ""}
                for v in range(1, 10)]
    if game_id != GAME1:
        raise ValueError(f"not a Würfel Joker game: {game_id!r}")
    up = set(observation["pushed"])
    out = [{"label": str(v), "up": v in up, "accent": SLIDE_ACCENT, "title": ""} for v in range(1, 7)]
    title = _JOKER_TITLE["de" if lang == "de" else "en"]
    for i in range(3):
        out.append({"label": "J", "up": observation["in_jokers"] and i >= observation["jokers"],
                    "accent": JOKER_ACCENT, "title": title})
    return out


def dice_picture(game_id: str, observation: dict) -> tuple[list[int], tuple]:
    """The dice to draw: ``(values, muted)``, blanks (0) greyed out. Spiel 1 shows the throw being
    decided on and greys out the dice no longer in play; Spiel 2 shows the throw on the table."""
    n = NUM_DICE[game_id]
    if game_id == GAME2:
        dice = observation["dice"]
        return (list(dice), ()) if dice else ([0] * n, tuple(range(n)))
    throw = observation["throw"]
    if throw and observation["phase"] in ("assign", "joker_decide"):
        return list(throw) + [0] * (n - len(throw)), tuple(range(len(throw), n))
    in_play = observation["dice_in_play"] if observation["phase"] in ("throw", "joker_throw", "decide") else n
    return [0] * n, tuple(range(in_play, n))


def board_svg(game_id: str, observation: dict, lang: str = "de", size: int = 48) -> str:
    """The Tableau and the dice of ``observation`` side by side (HTML holding two SVGs)."""
    slides = slide_pictures(game_id, observation, lang)
    row = slides_row([s["label"] for s in slides], [s["up"] for s in slides], width=34, height=76,
                     accents={i: s["accent"] for i, s in enumerate(slides)},
                     titles={i: s["title"] for i, s in enumerate(slides) if s["title"]})
    values, muted = dice_picture(game_id, observation)
    return (f"<div style='display:flex;align-items:flex-end;gap:18px;flex-wrap:wrap'>{row}"
            f"{dice_row(values, size=size, muted=muted)}</div>")
