"""The Tüfteln view: sheets as SVG text (standard library only) for notebooks, the widget's bot
sheets and the play page, drawn from observations (``observation_svg``) or from plain numbers.

Drawn as on paper: 6 × 6 fields in 3 × 3 squares of 2 × 2 with thick square borders; pre-printed
numbers bold on grey; side A white and blue fields with each bridge drawn as a connector between its
two blue fields; side B five colours, each with its sign (● ▲ ■ ◆ ★) so no field is told by
colour alone. Under each row of squares a strip names every complete square's
category and points. Column letters A–F run along the top edge and row numbers 1–6 down the left edge,
so a field is found by the name the engine gives it (``field_name``: "A1" top left). The layout is
the project's reconstruction, and the picture says so.
"""

from __future__ import annotations

from html import escape

from ...core.view import View, dice_row
from . import scoring
from .engine import SIZE, Place, Throw, column_name, field_name, layout_for, row_name

WHITE = "#ffffff"
BLUE = "#9cc8ee"
PRINTED = "#c9c9c9"
PEN = "#15357d"  # numbers written by the player: at least 4.5:1 on every field colour (#1b3f91 was 4.49 on red)
BRIDGE = "#1f5fa8"
HAND = "Comic Sans MS, cursive, sans-serif"  # written numbers look handwritten
COLOURS = {"Y": "#f6e05e", "R": "#f2998f", "G": "#95d595", "U": "#8db7ec", "V": "#c9a6e4",
           "W": WHITE, "B": BLUE}
# Side B's colours also carry a shape each, so a field's colour can be told without seeing colour
SYMBOLS = {"Y": "●", "R": "▲", "G": "■", "U": "◆", "V": "★"}
SYMBOL_INK = "#333333"
HIGHLIGHT = "#ffd54f"
# The outline of a state (the chosen field, the fields that fit it, the last placement): dark enough
# for 3:1 against every field colour and the page, since the yellow fill alone is 1.41:1 to white
MARK = "#6b3500"
PAGE = "#ffffff"  # the page behind the sheet (the category strip, the letters and numbers at the edges)
EDGE_INK = "#555555"
NOTE_INK = "#666666"
PRINTED_INK = "#000000"
# category words under the squares: each at least 4.5:1 on the page (the old #b8860b, #888, #6d8f3a,
# #2f7fb5 were 3.25, 3.54, 3.72, 4.35); the word itself names the category, the colour only helps
CAT_COLOURS = {"mix": "#4b6b20", "pair": "#1d6a9a", "two_pairs": "#7b4fb0", "cross": "#c0392b",
               "four": "#7a5a00", "straight": "#17693a", "none": "#555555"}
BRIDGE_MARKS = "abcdefghijklmnop"


def field_fill(layout, f: int) -> str:
    """Background colour of field ``f`` (index row * 6 + col) as printed on the sheet."""
    if layout.printed[f]:
        return PRINTED
    return COLOURS.get(layout.kind[f], WHITE)


def bridge_arrow(layout, f: int) -> str:
    """On side A: ``a▸`` / ``◂a`` / ``a▾`` / ``▴a`` — the bridge letter pointing at the partner field."""
    b = layout.bridge_of[f]
    if b is None:
        return ""
    g = [x for x in layout.bridges[b] if x != f][0]
    letter = BRIDGE_MARKS[b]
    if g == f + 1:
        return f"{letter}▸"
    if g == f - 1:
        return f"◂{letter}"
    if g == f + SIZE:
        return f"{letter}▾"
    return f"▴{letter}"


# Short words for small sheets (the other players' sheets), in both languages.
SHORT = {"de": scoring.LABELS["de"],
         "en": {"mix": "mix", "pair": "pair", "two_pairs": "2 pairs", "cross": "cross", "four": "four",
                "straight": "str.", scoring.NONE: "—"}}


POSITIONS = {"de": ("oben links", "oben rechts", "unten links", "unten rechts"),
             "en": ("top left", "top right", "bottom left", "bottom right")}


def field_place(f: int, lang: str) -> str:
    """Where field ``f`` lies as a screen reader says it: "B3, Quadrat 4 oben rechts"."""
    r, c = divmod(f, SIZE)
    square = (r // 2) * 3 + c // 2 + 1
    pos = POSITIONS["de" if lang == "de" else "en"][(r % 2) * 2 + c % 2]
    return f"{field_name(f)}, {'Quadrat' if lang == 'de' else 'square'} {square} {pos}"


def kind_word(layout, f: int, lang: str) -> str:
    """The printed kind of an empty field in words: "weiß", "blau, Brücke mit C1", "gelb ●"."""
    de = lang == "de"
    kind = layout.kind[f]
    word = layout.kinds[kind]["de" if de else "en"]
    b = layout.bridge_of[f]
    if b is not None:
        other = next(x for x in layout.bridges[b] if x != f)
        return f"{word}, {'Brücke mit' if de else 'bridge with'} {field_name(other)}"
    return f"{word} {SYMBOLS[kind]}" if kind in SYMBOLS else word


def field_label(layout, f: int, value: int, lang: str, selected: bool = False, fits: bool = False,
                preview: int | None = None, note: str = "") -> str:
    """A field as a screen reader says it: name, square and corner, what is in it (the pre-printed or
    written number, or "frei" and its kind), its state ("B3, Quadrat 4 oben rechts: frei, weiß,
    gewählt für die 5"), then ``note`` (what a click on it does, when that is not the usual)."""
    de = lang == "de"
    if layout.printed[f]:
        text = f"{'vorgedruckte' if de else 'pre-printed'} {layout.printed[f]}"
    elif value:
        text = f"{value} {'eingetragen' if de else 'written'}"
    else:
        text = f"{'frei' if de else 'free'}, {kind_word(layout, f, lang)}"
    if selected:
        text += (", gewählt" if de else ", chosen") + (
            "" if preview is None else (f" für die {preview}" if de else f" for the {preview}"))
    elif fits:
        text += ", passt" if de else ", fits"
    if note:
        text += f", {note}"
    return f"{field_place(f, lang)}: {text}"


def square_label(category, lang: str = "de", short: bool = False) -> str:
    if category is None:
        return ""
    words = SHORT if short else scoring.LABELS
    return f"{words[lang][category]} {scoring.POINTS[category]}"


def sheet_svg(side: str = "A", values=None, categories=None, cell: int = 40, lang: str = "de",
              highlight=(), title: str | None = None, note: bool = True, edges: bool = True,
              clickable: bool = False, selected=None, fits=(), preview=None, label: str | None = None,
              notes=None) -> str:
    """A complete ``<svg>`` of one sheet.

    ``values``: 36 numbers (0 = empty; the pre-printed ones are taken from the layout anyway);
    ``categories``: nine categories or None per square (from ``scoring.square_categories``; computed
    from ``values`` when omitted); ``highlight``: field indices to mark (e.g. the last placement);
    ``edges``: column letters above and row numbers to the left, as in the fields' names;
    ``clickable``: every field carries ``data-act="f<index>"`` and its name for the front-end;
    ``selected``: a field chosen by a first click (drawn with a thick outline, ``aria-pressed``);
    ``fits``: the fields that may take the second number (a dashed outline, named "passt");
    ``preview``: the number the chosen field would get (drawn in it, light); ``label``: the picture's
    name for a screen reader (default: the sheet's side); ``notes``: more words for some fields' names
    (field index -> text).
    """
    layout = layout_for(side)
    values = list(values) if values is not None else list(layout.printed)
    if categories is None:
        categories = scoring.square_categories(values)
    fits = set(fits)
    strip = round(cell * 0.5)  # label strip under each row of squares
    small = cell < 30  # small sheets: short words (4er, Str / four, str.)
    pad = 4
    top = round(cell * 0.55) if title else 0
    foot = round(cell * 0.42) if note else 0
    edge_font = max(9, round(cell * 0.34))
    left = round(edge_font * 1.1) if edges else 0  # row numbers
    head = round(edge_font * 1.3) if edges else 0  # column letters
    width = SIZE * cell + 2 * pad + left
    height = top + head + 3 * (2 * cell + strip) + foot + pad

    def xy(f):
        r, c = divmod(f, SIZE)
        return pad + left + c * cell, top + head + pad + (r // 2) * (2 * cell + strip) + (r % 2) * cell

    if label is None:
        label = f"Tüfteln, Blatt {side}" if lang == "de" else f"Tüfteln sheet, side {side}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
           f'aria-label="{escape(label)}">']
    if title:
        out.append(f'<text x="{pad}" y="{top - 6}" font-size="{round(cell * 0.36)}" font-weight="bold" '
                   f'fill="{PRINTED_INK}">{escape(title)}</text>')
    if edges:
        for c in range(SIZE):
            x, y = xy(c)
            out.append(f'<text x="{x + cell / 2}" y="{y - round(edge_font * 0.35)}" font-size="{edge_font}" '
                       f'text-anchor="middle" fill="{EDGE_INK}" class="sp-col-label">{column_name(c)}</text>')
        for r in range(SIZE):
            x, y = xy(r * SIZE)
            out.append(f'<text x="{x - round(edge_font * 0.3)}" y="{y + cell / 2 + edge_font * 0.35:.1f}" '
                       f'font-size="{edge_font}" text-anchor="end" fill="{EDGE_INK}" class="sp-row-label">'
                       f'{row_name(r)}</text>')
    hl = set(highlight)
    for f in range(SIZE * SIZE):
        x, y = xy(f)
        # the chosen field turns yellow on side A; on side B yellow is a field colour, so the field keeps
        # its own (the thick outline and the previewed number mark it on both sides)
        fill = HIGHLIGHT if f == selected and side == "A" else field_fill(layout, f)
        act = f' class="sp-field" data-field="{f}" data-value="{values[f] or layout.printed[f]}"'
        if clickable:
            name = field_label(layout, f, values[f] or layout.printed[f], lang, f == selected, f in fits,
                               preview if f == selected else None, (notes or {}).get(f, ""))
            act += f' data-act="f{f}" aria-label="{escape(name)}"'
            if f == selected:
                act += ' aria-pressed="true"'
        out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                   f'stroke="#555" stroke-width="1"{act}/>')
    # state outlines, drawn inside the field so neighbours' outlines never overlap
    for f in range(SIZE * SIZE):
        x, y = xy(f)
        if f == selected:
            w = max(3, cell // 8)
            dash = ""
        elif f in fits:
            w = max(2, cell // 14)
            dash = f' stroke-dasharray="{max(3, cell // 8)} {max(2, cell // 12)}"'
        elif f in hl:
            w = max(2, cell // 10)
            dash = ""
        else:
            continue
        out.append(f'<rect x="{x + w / 2 + 1}" y="{y + w / 2 + 1}" width="{cell - w - 2}" height="{cell - w - 2}" '
                   f'fill="none" stroke="{MARK}" stroke-width="{w}"{dash} pointer-events="none"/>')
    # the colour's sign on side B, in the corner of every field that is not pre-printed (drawn over the
    # outlines so they never hide it; left out on small sheets, where it would cover the number)
    if side == "B" and not small:
        size = round(cell * 0.24)
        for f in range(SIZE * SIZE):
            sym = SYMBOLS.get(layout.kind[f])
            if sym and not layout.printed[f]:
                x, y = xy(f)
                out.append(f'<text x="{x + cell * 0.15:.1f}" y="{y + cell * 0.15 + size * 0.85:.1f}" '
                           f'font-size="{size}" fill="{SYMBOL_INK}" pointer-events="none" aria-hidden="true">'
                           f'{sym}</text>')
    # bridges: a bar across the shared border, drawn under the numbers
    for a, b in layout.bridges:
        (xa, ya), (xb, yb) = xy(a), xy(b)
        ux, uy = (xb > xa) - (xb < xa), (yb > ya) - (yb < ya)  # unit step from a toward b
        cxa, cya = xa + cell / 2 + ux * cell * 0.3, ya + cell / 2 + uy * cell * 0.3
        cxb, cyb = xb + cell / 2 - ux * cell * 0.3, yb + cell / 2 - uy * cell * 0.3
        # decorations let clicks through to the field underneath
        out.append(f'<line x1="{cxa}" y1="{cya}" x2="{cxb}" y2="{cyb}" stroke="{BRIDGE}" pointer-events="none" '
                   f'stroke-width="{max(3, cell * 0.16):.1f}" stroke-linecap="round" opacity="0.55"/>')
        for cx, cy in ((cxa, cya), (cxb, cyb)):
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.1:.1f}" fill="{BRIDGE}" opacity="0.55" '
                       'pointer-events="none"/>')
    for f in range(SIZE * SIZE):
        x, y = xy(f)
        v = layout.printed[f] or values[f]
        shown = ' font-style="italic"' if not v and f == selected and preview else ""
        if not v and shown:
            v = preview  # the number the first click would write, until the second click writes it
        if not v:
            continue
        printed = bool(layout.printed[f])
        style = f'font-weight="bold" fill="{PRINTED_INK}"' if printed else f'fill="{PEN}" font-family="{HAND}"'
        out.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.7:.1f}" font-size="{round(cell * 0.56)}" '
                   f'text-anchor="middle" pointer-events="none" {style}{shown}>{v}</text>')
    # thick square borders and the category strip
    for sq in range(9):
        x, y = xy(scoring.SQUARES[sq][0])
        out.append(f'<rect x="{x}" y="{y}" width="{2 * cell}" height="{2 * cell}" fill="none" '
                   f'stroke="#111" stroke-width="{max(2, cell // 12)}" pointer-events="none"/>')
        cat = categories[sq]
        if cat is not None:
            out.append(f'<text x="{x + cell}" y="{y + 2 * cell + strip * 0.75:.1f}" '
                       f'font-size="{round(strip * 0.7)}" text-anchor="middle" font-weight="bold" '
                       f'fill="{CAT_COLOURS[cat]}">{escape(square_label(cat, lang, small))}</text>')
    if note:
        word = "Rekonstruktion" if lang == "de" else "reconstruction"
        out.append(f'<text x="{pad}" y="{height - pad - 2}" font-size="{round(foot * 0.62)}" fill="{NOTE_INK}" '
                   f'font-style="italic">{side}: {word}</text>')
    out.append("</svg>")
    return "".join(out)


def square_svg(values, cell: int = 30, caption: str = "", marks=()) -> str:
    """One 2 × 2 square (numbers top row left→right, then bottom row left→right, as in the rulebook);
    ``marks``: pairs of positions (0 TL, 1 TR, 2 BL, 3 BR) to join by a line, e.g. a pair."""
    pad = 3
    cap = round(cell * 0.55) if caption else 0
    w, h = 2 * cell + 2 * pad, 2 * cell + 2 * pad + cap
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           'font-family="sans-serif">']
    centre = {}
    for i, v in enumerate(values):
        x, y = pad + (i % 2) * cell, pad + (i // 2) * cell
        centre[i] = (x + cell / 2, y + cell / 2)
        out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#fff" stroke="#666"/>')
    for a, b in marks:
        (x1, y1), (x2, y2) = centre[a], centre[b]
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#e67e22" stroke-width="{cell * 0.5}" '
                   'stroke-linecap="round" opacity="0.35"/>')
    for i, v in enumerate(values):
        x, y = centre[i]
        out.append(f'<text x="{x}" y="{y + cell * 0.2:.1f}" font-size="{round(cell * 0.55)}" '
                   f'text-anchor="middle">{v}</text>')
    out.append(f'<rect x="{pad}" y="{pad}" width="{2 * cell}" height="{2 * cell}" fill="none" stroke="#111" '
               'stroke-width="3"/>')
    if caption:
        out.append(f'<text x="{w / 2}" y="{h - 4}" font-size="{round(cap * 0.7)}" text-anchor="middle">'
                   f'{escape(caption)}</text>')
    out.append("</svg>")
    return "".join(out)


def observation_fields(observation: dict, player: int) -> list[int]:
    """``player``'s 36 numbers in ``observation`` (index row * 6 + col; 0 = empty)."""
    return [v for row in observation["sheets"][player]["fields"] for v in row]


def observation_svg(observation: dict, player: int | None = None, lang: str = "de", cell: int = 40,
                    highlight=(), title: str | None = None, note: bool = True, **more) -> str:
    """``player``'s sheet as ``observation`` shows it (default: the viewer's own sheet, or the first
    one in the spectator's view). Every sheet is public, so any viewer may draw any player's sheet."""
    if player is None:
        player = observation["player"] if observation["player"] is not None else 0
    categories = [sq["category"] for sq in observation["sheets"][player]["squares"]]
    return sheet_svg(observation["side"], observation_fields(observation, player), categories, cell=cell,
                     lang=lang, highlight=highlight, title=title, note=note, **more)


def svg_row(*svgs: str, gap: int = 8) -> str:
    """Several ``<svg>`` pictures side by side in one ``<svg>`` (one picture output in a notebook)."""
    import re

    sizes = []
    for s in svgs:
        m = re.match(r'<svg[^>]*?width="([\d.]+)"[^>]*?height="([\d.]+)"', s)
        if m is None:
            raise ValueError("svg_row: each picture needs width and height on its <svg>")
        sizes.append((float(m.group(1)), float(m.group(2))))
    width = sum(w for w, _ in sizes) + gap * (len(svgs) - 1)
    height = max(h for _, h in sizes)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
           f'viewBox="0 0 {width:g} {height:g}">']
    x = 0.0
    for s, (w, _) in zip(svgs, sizes):
        out.append(s.replace("<svg ", f'<svg x="{x:g}" y="0" ', 1))
        x += w + gap
    out.append("</svg>")
    return "".join(out)


class SVG:
    """Shows SVG text as a picture in Jupyter (``image/svg+xml``) with a short text fallback."""

    def __init__(self, *svgs: str, alt: str = "sheet"):
        self.svgs = svgs
        self.alt = alt

    def _repr_mimebundle_(self, include=None, exclude=None):
        if len(self.svgs) == 1:
            return {"image/svg+xml": self.svgs[0], "text/plain": f"<{self.alt}>"}
        html = "".join(f'<div style="display:inline-block;margin:4px;vertical-align:top">{s}</div>'
                       for s in self.svgs)
        return {"text/html": html, "text/plain": f"<{self.alt}>"}


# --- the front-end's view --------------------------------------------------------------------------


def square_name(f: int, lang: str) -> str:
    r, c = divmod(f, SIZE)
    return ("Q" if lang == "de" else "S") + str((r // 2) * 3 + c // 2 + 1)


def sheet_summary(observation: dict, player: int, name: str, lang: str) -> str:
    """Another player's sheet in words, for a screen reader (the picture is one image): their points,
    how many fields they have written, every complete square with its category, the bonus."""
    de = lang == "de"
    layout = layout_for(observation["side"])
    seen = observation["sheets"][player]
    values = observation_fields(observation, player)
    empty = [f for f in range(SIZE * SIZE) if not layout.printed[f]]
    written = sum(1 for f in empty if values[f])
    words = scoring.LABELS["de" if de else "en"]
    done = [(i, sq["category"]) for i, sq in enumerate(seen["squares"]) if sq["category"] is not None]
    text = (f"{name}: {seen['score']} Punkte, {written} von {len(empty)} Feldern beschrieben. " if de else
            f"{name}: {seen['score']} points, {written} of {len(empty)} fields written. ")
    if done:
        text += ("Fertige Quadrate: " if de else "Complete squares: ") + ", ".join(
            f"{i + 1} {words[c]} {scoring.POINTS[c]}" for i, c in done) + ". "
    else:
        text += "Noch kein Quadrat fertig. " if de else "No square complete yet. "
    if seen["bonus"]:
        text += f"Bonus {scoring.BONUS} erreicht." if de else f"Bonus {scoring.BONUS} reached."
    else:
        missing = [words[c] for c in scoring.CATEGORIES if c not in {c for _, c in done}]
        text += ("Für den Bonus fehlen: " if de else "Missing for the bonus: ") + ", ".join(missing) + "."
    return text


def _square_text(tl: int, tr: int, br: int, bl: int, lang: str) -> str:
    """A square as the how-to box writes it: top row, then bottom row, left to right."""
    return f"oben {tl} {tr}, unten {bl} {br}" if lang == "de" else f"top {tl} {tr}, bottom {bl} {br}"


# The how-to box's example squares (numbers clockwise from the top left, as in ``scoring``): the
# rulebook's pictured squares; the tests score each one with the engine
EXAMPLES = {"mix": (4, 1, 2, 6), "pair": (6, 6, 3, 4), "two_pairs": (2, 5, 5, 2), "cross": (6, 3, 6, 3),
            "four": (2, 2, 2, 2), "straight": (4, 5, 2, 3)}
THREE_OF_A_KIND = (3, 3, 5, 3)
DIAGONAL_PAIR = (6, 1, 6, 2)
DESCENDING = (5, 4, 3, 2)

CONDITIONS = {
    "de": {"mix": "vier verschiedene Zahlen, die keine Straße sind",
           "pair": "zwei gleiche Zahlen, die waagrecht oder senkrecht nebeneinander liegen; die beiden "
                   "anderen Zahlen sind voneinander und vom Paar verschieden",
           "two_pairs": "zwei Paare, jedes waagrecht oder senkrecht nebeneinander",
           "cross": "zwei Paare, jedes über Kreuz, also diagonal",
           "four": "vier gleiche Zahlen",
           "straight": "vier aufeinanderfolgende Zahlen (1-2-3-4, 2-3-4-5 oder 3-4-5-6), im Uhrzeigersinn "
                       "aufsteigend, an einer beliebigen Ecke beginnend"},
    "en": {"mix": "four different numbers that are not a straight",
           "pair": "two equal numbers next to each other across or down, not diagonal; the other two "
                   "numbers differ from each other and from the pair",
           "two_pairs": "two pairs, each next to each other across or down",
           "cross": "two pairs, each diagonal",
           "four": "four equal numbers",
           "straight": "four consecutive numbers (1-2-3-4, 2-3-4-5 or 3-4-5-6) rising clockwise, starting "
                       "at any corner"},
}


def how_to_box(game, lang: str) -> dict:
    """The How-to-play box for the options in force: the side's placement rule, the rounds, every
    category with its condition and an example, what scores nothing, the bonus, the winner."""
    de = lang == "de"
    lg = "de" if de else "en"
    layout = game.layout
    side, descending = game.options["side"], game.options["descending_straights"]
    words = scoring.LABELS[lg]
    rounds = layout.rounds
    turn = [
        (f"Jede Runde werden zwei Würfel geworfen; alle tragen denselben Wurf auf dem eigenen Zettel ein: "
         f"beide Zahlen, jede in ein eigenes freies Feld. Nach {rounds} Runden sind alle Felder voll."
         if de else
         f"Every round two dice are thrown; everybody writes the same throw on their own sheet: both "
         f"numbers, each into its own free field. After {rounds} rounds every field is full."),
    ]
    if layout.placement == "white_or_bridge":
        turn.append(f"Seite {side}: die beiden Zahlen in zwei freie weiße Felder (beliebige Quadrate, auch "
                    "dasselbe) oder in die beiden Felder einer Brücke (zwei verbundene blaue Felder, beide "
                    "frei). Ein blaues Feld wird nur zusammen mit seinem Brückenpartner beschrieben."
                    if de else
                    f"Side {side}: the two numbers go into two free white fields (any squares, the same one "
                    "too) or into the two fields of one bridge (two joined blue fields, both free). A blue "
                    "field is only ever written together with its bridge partner.")
    else:
        key = ", ".join(f"{SYMBOLS[k]} {layout.kinds[k][lg]}" for k in layout.kinds)
        turn.append(f"Seite {side}: die beiden Zahlen in zwei freie Felder derselben Farbe. Jedes Feld zeigt "
                    f"das Zeichen seiner Farbe: {key}."
                    if de else
                    f"Side {side}: the two numbers go into two free fields of the same colour. Every field "
                    f"shows its colour's sign: {key}.")
    bridge = layout.placement == "white_or_bridge"
    turn.append("Klicke ein freies Feld für die erste Zahl, dann ein Feld für die zweite (die passenden "
                "Felder sind gestrichelt umrandet und heißen „passt“)"
                + ("; ein Brückenfeld trägt mit einem Klick beide Zahlen ein" if bridge else "")
                + ". „tauschen“ dreht die Reihenfolge der Zahlen um."
                if de else
                "Click a free field for the first number, then a field for the second (the fields that fit "
                "have a dashed outline and are named “fits”)"
                + ("; a bridge field takes both numbers with one click" if bridge else "")
                + ". “swap” turns the order of the numbers round."),
    turn.append("Am Ende zählt jedes der neun 2 × 2-Quadrate nach seinen vier Zahlen:" if de else
                "At the end every one of the nine 2 × 2 squares scores by its four numbers:")
    for c in scoring.CATEGORIES:
        example = _square_text(*EXAMPLES[c], lang)
        points = scoring.POINTS[c]
        item = (f"{words[c]} – {points} {'Punkt' if points == 1 else 'Punkte'}: {CONDITIONS[lg][c]} "
                f"(z. B. {example})." if de else
                f"{words[c][0].upper()}{words[c][1:]} – {points} point{'' if points == 1 else 's'}: "
                f"{CONDITIONS[lg][c]} (e.g. {example}).")
        if c == "straight":  # the option descending_straights (the rulebook's "im Uhrzeigersinn")
            down = _square_text(*DESCENDING, lang)
            if descending:
                item += (f" In dieser Partie zählt auch absteigend (z. B. {down})." if de else
                         f" In this game falling counts too (e.g. {down}).")
            else:
                item += (f" Absteigend ({down}) ist keine Straße." if de else
                         f" Falling ({down}) is not a straight.")
        turn.append(item)
    three, diagonal = _square_text(*THREE_OF_A_KIND, lang), _square_text(*DIAGONAL_PAIR, lang)
    turn.append(f"Keine Punkte: ein Drilling (drei gleiche Zahlen, z. B. {three}) und ein Paar, das nur diagonal "
                f"liegt (z. B. {diagonal})." if de else
                f"No points: three of a kind (e.g. {three}) and a pair that is only diagonal (e.g. {diagonal}).")
    turn.append(f"Jede Kombination zählt in jedem Quadrat, das sie hat. Bonus {scoring.BONUS} Punkte: mindestens "
                "ein Quadrat in jeder der sechs Kombinationen." if de else
                f"A combination counts again in every square that has it. Bonus {scoring.BONUS} points: at "
                "least one square of each of the six combinations.")
    if game.num_players == 1:
        first, last = scoring.RATINGS[0], scoring.RATINGS[-1]
        lo = scoring.RATINGS[-2][0] + 1
        turn.append(f"Allein: Am Ende steht eine Bewertung, von „{first[1]}“ (bis {first[0]} Punkte) bis "
                    f"„{last[1]}“ (ab {lo} Punkte)." if de else
                    f"Solo: the end gives a rating, from “{first[2]}” (up to {first[0]} points) to "
                    f"“{last[2]}” ({lo} points or more).")
    goal = ("Möglichst viele Punkte. Die meisten Punkte gewinnen; bei Gleichstand gewinnen alle mit den "
            "meisten Punkten." if de else
            "As many points as you can. The most points win; a tie shares the win.")
    return {"title": "Tüfteln", "goal": goal, "turn": turn}


class TueftelnView(View):
    """The sheet to click (first field for the first number, second field for the second; one click
    for a bridge), the throw, every player's score by category, the other players' sheets."""

    human_throws = False
    bot_delay = 0.35
    reconstruction = True
    default_bot = "strong"
    colours = (
        *((PEN, fill, "text") for fill in (*COLOURS.values(), HIGHLIGHT)),  # written and previewed numbers
        (PRINTED_INK, PRINTED, "text"),
        *((SYMBOL_INK, COLOURS[k], "text") for k in SYMBOLS),  # side B's colour signs
        *((ink, PAGE, "text") for ink in CAT_COLOURS.values()),  # category words under the squares
        (EDGE_INK, PAGE, "text"), (NOTE_INK, PAGE, "text"), (PRINTED_INK, PAGE, "text"),
        # the outline of the chosen field, of the fields that fit, of the last placement: against the
        # fill it is drawn on and the page around the sheet
        *((MARK, fill, "marker") for fill in (*COLOURS.values(), HIGHLIGHT, PAGE)),
    )

    def how_to(self, game, lang: str) -> dict:
        return how_to_box(game, lang)

    @staticmethod
    def _order(ctx):
        a, b = ctx.observation["throw"]
        return (b, a) if ctx.ui.get("swapped") else (a, b)

    @staticmethod
    def _fits(ctx, first) -> list[int]:
        """The fields the engine lets take the second number beside ``first``."""
        return sorted({a.f2 if a.f1 == first else a.f1 for a in ctx.legal if first in (a.f1, a.f2)})

    def board(self, ctx) -> str:
        if ctx.projector:
            return self._projector_board(ctx)
        obs = ctx.observation
        me = ctx.viewer if ctx.viewer is not None else 0
        first = ctx.ui.get("first") if ctx.legal else None
        v1 = v2 = None
        if obs["throw"] is not None and not obs["terminal"]:
            v1, v2 = self._order(ctx)
        fits = self._fits(ctx, first) if first is not None else ()
        notes = {}
        if v1 is not None and ctx.legal:
            free = {f for a in ctx.legal for f in (a.f1, a.f2)}
            for f in free:
                if first is not None:
                    if f != first and f not in fits:
                        notes[f] = ctx.t("passt nicht dazu", "does not fit")
                    continue
                partners = self._fits(ctx, f)
                if len(partners) == 1:  # a bridge, or the last two fields of a colour: one click writes both
                    other = field_name(partners[0])
                    notes[f] = ctx.t(f"ein Klick schreibt die {v1} hierher und die {v2} nach {other}",
                                     f"one click writes the {v1} here and the {v2} to {other}")
        if ctx.viewer is not None:
            name = ctx.t(f"Dein Zettel, Seite {obs['side']}", f"Your sheet, side {obs['side']}")
        else:  # the spectator's board is the first player's sheet: a picture, named in words
            name = sheet_summary(obs, me, ctx.names[me], ctx.lang)
        sheet = observation_svg(obs, me, lang=ctx.lang, clickable=bool(ctx.legal), selected=first, fits=fits,
                                preview=v1 if first is not None else None, label=name, notes=notes)
        if v1 is not None:
            if first is not None:
                hint = ctx.t(f"{v1} → {field_name(first)} (gewählt). 2. Klick: ein gestrichelt umrandetes Feld "
                             f"für die {v2}.",
                             f"{v1} → {field_name(first)} (chosen). 2nd click: a field with a dashed outline "
                             f"for the {v2}.")
            else:
                hint = ctx.t(f"1. Klick → {v1}, 2. Klick → {v2}", f"1st click → {v1}, 2nd click → {v2}")
            throw = (f"<div class='sp-throw' style='display:flex;align-items:center;gap:10px'>"
                     f"{dice_row([v1, v2], size=44, lang=ctx.lang)}<span>{escape(hint)}</span></div>")
        else:
            throw = ""
        return f"{throw}<div class='sp-sheet'>{sheet}</div>"

    def _projector_board(self, ctx) -> str:
        """The projector's board: the throw beside the sheet, not above it (the screen is wide, its
        height is what limits the zoom), and no reconstruction note on the sheet (its smallest text;
        the note stays in the box beside the board)."""
        obs = ctx.observation
        me = ctx.viewer if ctx.viewer is not None else 0
        sheet = observation_svg(obs, me, lang=ctx.lang, clickable=bool(ctx.legal), selected=ctx.ui.get("first"),
                                note=False)
        throw = ""
        if obs["throw"] is not None and not obs["terminal"]:
            v1, v2 = self._order(ctx)
            hint = ctx.t(f"1. Klick → {v1}, 2. Klick → {v2}", f"1st click → {v1}, 2nd click → {v2}")
            throw = (f"<div class='sp-throw' style='max-width:7em'>{dice_row([v1, v2], size=44, lang=ctx.lang)}"
                     f"<div>{escape(hint)}</div></div>")
        return (f"<div style='display:flex;align-items:flex-start;gap:16px'>{throw}"
                f"<div class='sp-sheet'>{sheet}</div></div>")

    def buttons(self, ctx) -> list[dict]:
        a, b = ctx.observation["throw"] or (0, 0)
        return [{"token": "swap", "label": ctx.t("tauschen", "swap")}] if a != b else []

    def click(self, ctx, token: str):
        if not ctx.legal:
            return super().click(ctx, token)  # not the viewer's turn: the shared refusal says so
        v1, v2 = self._order(ctx)
        if token == "swap":
            ctx.ui["swapped"] = not ctx.ui.get("swapped")
            ctx.ui.pop("first", None)
            v1, v2 = self._order(ctx)
            return {"de": f"Getauscht: 1. Klick → {v1}, 2. Klick → {v2}.",
                    "en": f"Swapped: 1st click → {v1}, 2nd click → {v2}."}
        if not (token.startswith("f") and token[1:].isdigit()):
            ctx.refuse(token)
        f = int(token[1:])
        first = ctx.ui.get("first")
        if first is None:
            partners = sorted({a.f2 if a.f1 == f else a.f1 for a in ctx.legal if f in (a.f1, a.f2)})
            if not partners:
                other = next(a.f1 if a.f1 != f else a.f2 for a in ctx.legal)
                ctx.refuse(Place.make(f, v1, other, v2))
            if len(partners) == 1:  # a bridge: its partner is the only choice
                return Place.make(f, v1, partners[0], v2)
            ctx.ui["first"] = f
            return {"de": f"{v1} kommt nach {field_name(f)}. Jetzt das Feld für die {v2} anklicken "
                          "(noch einmal klicken hebt die Auswahl auf).",
                    "en": f"{v1} goes to {field_name(f)}. Now click the field for the {v2} "
                          "(click it again to undo the choice)."}
        if f == first:
            ctx.ui.pop("first")
            return {"de": "Auswahl aufgehoben.", "en": "Choice undone."}
        action = Place.make(first, v1, f, v2)
        if action not in ctx.legal:
            ctx.refuse(action)
        return action

    def explain(self, before, action, after) -> str:
        if isinstance(action, Throw):
            return after.t(f"Wurf: {action.first} und {action.second}.", f"Throw: {action.first} and {action.second}.")
        mover = before.observation["to_move"]
        cats_before = [sq["category"] for sq in before.observation["sheets"][mover]["squares"]]
        cats = [sq["category"] for sq in after.observation["sheets"][mover]["squares"]]
        done = [square_label(c, after.lang) for c, old in zip(cats, cats_before) if c != old]
        text = after.t(f"schreibt {action}", f"writes {action}")
        if done:
            text += after.t(" – fertig: ", " – complete: ") + ", ".join(done)
        return text + "."

    def status(self, ctx, whose_turn) -> str:
        obs = ctx.observation
        if obs["throw"] is None:
            return ctx.t(f"Runde {obs['round'] + 1} von {obs['rounds']}: gleich wird gewürfelt",
                         f"Round {obs['round'] + 1} of {obs['rounds']}: the dice are about to be thrown")
        who = ctx.names[whose_turn] if whose_turn is not None else "–"
        return ctx.t(f"Runde {obs['round']} von {obs['rounds']} · schreibt: {who}",
                     f"Round {obs['round']} of {obs['rounds']} · writing: {who}")

    def scores(self, ctx, totals) -> dict:
        sheets = ctx.observation["sheets"]
        cats = [[sq["category"] for sq in sh["squares"]] for sh in sheets]
        rows = []
        for c in (*scoring.CATEGORIES, scoring.NONE):
            rows.append([f"{scoring.LABELS[ctx.lang][c]} ({scoring.POINTS[c]})",
                         *[f"{k.count(c)} × {scoring.POINTS[c]} = {k.count(c) * scoring.POINTS[c]}" if k.count(c) else "–" for k in cats]])
        rows.append([ctx.t("Bonus (alle sechs Kombinationen)", "bonus (all six combinations)"),
                     *[str(scoring.BONUS) if sh["bonus"] else "–" for sh in sheets]])
        rows.append([ctx.t("Summe", "Total"), *[str(sh["score"]) for sh in sheets]])
        return {"title": ctx.t("Wertung", "Scoring"), "headers": ["", *ctx.names], "rows": rows,
                "highlight": len(rows) - 1}

    def extra(self, ctx) -> str:
        obs = ctx.observation
        me = ctx.viewer if ctx.viewer is not None else 0
        layout = layout_for(obs["side"])
        if layout.placement == "white_or_bridge":
            rule = ctx.t("Zwei freie weiße Felder oder die beiden Felder einer Brücke.",
                         "Two free white fields or the two fields of one bridge.")
        else:
            lg = "de" if ctx.de else "en"
            key = ", ".join(f"{SYMBOLS[k]} {layout.kinds[k][lg]}" for k in layout.kinds)
            rule = ctx.t(f"Zwei freie Felder derselben Farbe ({key}).", f"Two free fields of the same colour ({key}).")
        parts = [f"<div class='sp-note'>{ctx.t('Seite', 'Side')} {obs['side']}: {escape(rule)} "
                 f"<i>{ctx.t('Feldbelegung: Rekonstruktion', 'Layout: reconstruction')}</i></div>"]
        for p in range(len(obs["sheets"])):
            if p == me:
                continue
            title = f"{ctx.names[p]}: {obs['sheets'][p]['score']}"
            # one picture per sheet: its name is the sheet in words (points, fields, squares, bonus); on
            # the projector at a size the back row reads (its smallest text 18 px)
            pic = observation_svg(obs, p, cell=54 if ctx.projector else 22, lang=ctx.lang, title=title, note=False,
                                  label=sheet_summary(obs, p, ctx.names[p], ctx.lang))
            parts.append(f"<div class='sp-other-sheet' data-player='{p}' style='display:inline-block;"
                         f"margin:4px 8px 4px 0'>{pic}</div>")
        return "".join(parts)

    def advice_columns(self, game) -> list[dict]:
        # the advisor's default: every placement screened, the best few played on towards 240 times
        # (one clearly behind stops early), all on the same throws; the options it cannot tell
        # apart from the best are shown as ties
        return [{"settings": {"seed": 0}, "kind": "points",
                 "title": {"de": "Ø Endpunkte (geschätzt)", "en": "mean final score (estimate)"},
                 "unit": {"de": "Punkte", "en": "points"}}]

    def review_settings(self, game) -> dict:
        # a whole game's decisions, closer to the live advisor than a few play-outs (whose ties hid
        # real losses): every placement screened 8 times, the 4 best and the chosen one played on to
        # 48 play-outs on the same throws, so the chosen move's loss is a paired difference. About
        # 3 s per solo game of 15 decisions on CPython (measured), 2-3 times that in a browser
        return {"seed": 0, "screen": 8, "n_rollouts": 48, "finalists": 4}

    def option_label(self, ctx, action) -> str:
        squares = " + ".join(sorted({square_name(action.f1, ctx.lang), square_name(action.f2, ctx.lang)}))
        return f"{action} ({squares})"

    def final_words(self, ctx, scores, winners):
        if len(scores) != 1:
            return None
        r = scoring.rating(scores[0])
        return ctx.t(f"{scores[0]} Punkte – Solo-Wertung: „{r['de']}“.",
                     f"{scores[0]} points – solo rating: “{r['en']}”.")
