"""The Tüfteln view: sheets as SVG text (standard library only) for notebooks, the widget's bot
sheets and the play page, drawn from observations (``observation_svg``) or from plain numbers.

Drawn as on paper: 6 × 6 fields in 3 × 3 squares of 2 × 2 with thick square borders; pre-printed
numbers bold on grey; side A white and blue fields with each bridge drawn as a connector between its
two blue fields; side B five colours. Under each row of squares a strip names every complete square's
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
PEN = "#1b3f91"  # numbers written by the player
BRIDGE = "#1f5fa8"
HAND = "Comic Sans MS, cursive, sans-serif"  # written numbers look handwritten
COLOURS = {"Y": "#f6e05e", "R": "#f2998f", "G": "#95d595", "U": "#8db7ec", "V": "#c9a6e4",
           "W": WHITE, "B": BLUE}
HIGHLIGHT = "#ffd54f"
HIGHLIGHT_EDGE = "#e67e22"
CAT_COLOURS = {"mix": "#6d8f3a", "pair": "#2f7fb5", "two_pairs": "#7b4fb0", "cross": "#c0392b",
               "four": "#b8860b", "straight": "#1e8449", "none": "#888888"}
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


def field_label(layout, f: int, value: int, lang: str, selected: bool = False) -> str:
    """A field as a screen reader says it: its name, its number or "frei", the bridge it belongs to,
    whether it is chosen ("B3: frei, Brücke mit C3")."""
    de = lang == "de"
    text = f"{field_name(f)}: {value if value else ('frei' if de else 'free')}"
    b = layout.bridge_of[f]
    if b is not None:
        other = next(x for x in layout.bridges[b] if x != f)
        text += f", {'Brücke mit' if de else 'bridge with'} {field_name(other)}"
    if selected:
        text += ", gewählt" if de else ", chosen"
    return text


def square_label(category, lang: str = "de", short: bool = False) -> str:
    if category is None:
        return ""
    words = SHORT if short else scoring.LABELS
    return f"{words[lang][category]} {scoring.POINTS[category]}"


def sheet_svg(side: str = "A", values=None, categories=None, cell: int = 40, lang: str = "de",
              highlight=(), title: str | None = None, note: bool = True, edges: bool = True,
              clickable: bool = False, selected=None) -> str:
    """A complete ``<svg>`` of one sheet.

    ``values``: 36 numbers (0 = empty; the pre-printed ones are taken from the layout anyway);
    ``categories``: nine categories or None per square (from ``scoring.square_categories``; computed
    from ``values`` when omitted); ``highlight``: field indices to mark (e.g. the last placement);
    ``edges``: column letters above and row numbers to the left, as in the fields' names;
    ``clickable``: every field carries ``data-act="f<index>"`` for the front-end; ``selected``: a
    field chosen by a first click.
    """
    layout = layout_for(side)
    values = list(values) if values is not None else list(layout.printed)
    if categories is None:
        categories = scoring.square_categories(values)
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

    sheet_name = f"Tüfteln, Blatt {side}" if lang == "de" else f"Tüfteln sheet, side {side}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
           f'aria-label="{sheet_name}">']
    if title:
        out.append(f'<text x="{pad}" y="{top - 6}" font-size="{round(cell * 0.36)}" font-weight="bold">'
                   f'{escape(title)}</text>')
    if edges:
        for c in range(SIZE):
            x, y = xy(c)
            out.append(f'<text x="{x + cell / 2}" y="{y - round(edge_font * 0.35)}" font-size="{edge_font}" '
                       f'text-anchor="middle" fill="#555" class="sp-col-label">{column_name(c)}</text>')
        for r in range(SIZE):
            x, y = xy(r * SIZE)
            out.append(f'<text x="{x - round(edge_font * 0.3)}" y="{y + cell / 2 + edge_font * 0.35:.1f}" '
                       f'font-size="{edge_font}" text-anchor="end" fill="#555" class="sp-row-label">'
                       f'{row_name(r)}</text>')
    hl = set(highlight)
    for f in range(SIZE * SIZE):
        x, y = xy(f)
        fill = HIGHLIGHT if f == selected else field_fill(layout, f)
        act = f' class="sp-field" data-field="{f}" data-value="{values[f] or layout.printed[f]}"' \
            + (f' data-act="f{f}" aria-label="{field_label(layout, f, values[f] or layout.printed[f], lang, f == selected)}"'
               if clickable else "")
        out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                   f'stroke="#555" stroke-width="1"{act}/>')
        if f in hl:
            w = max(2, cell // 10)
            out.append(f'<rect x="{x + w}" y="{y + w}" width="{cell - 2 * w}" height="{cell - 2 * w}" '
                       f'fill="none" stroke="{HIGHLIGHT_EDGE}" stroke-width="{w}" pointer-events="none"/>')
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
        if not v:
            continue
        printed = bool(layout.printed[f])
        style = 'font-weight="bold" fill="#000"' if printed else f'fill="{PEN}" font-family="{HAND}"'
        out.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.7:.1f}" font-size="{round(cell * 0.56)}" '
                   f'text-anchor="middle" pointer-events="none" {style}>{v}</text>')
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
        out.append(f'<text x="{pad}" y="{height - pad - 2}" font-size="{round(foot * 0.62)}" fill="#666" '
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


class TueftelnView(View):
    """The sheet to click (first field for the first number, second field for the second; one click
    for a bridge), the throw, every player's score by category, the other players' sheets."""

    human_throws = False
    bot_delay = 0.35
    reconstruction = True
    default_bot = "strong"
    howto = {
        "de": {"title": "Tüfteln", "goal": "Möglichst viele Punkte: Jedes 2 × 2-Quadrat zählt nach seinen vier "
               "Zahlen (Paar, zwei Paare, Cross, Vierling, Straße, Mix). Sind alle neun Quadrate verschieden "
               "gewertet, gibt es 7 Bonuspunkte.",
               "turn": ["Zwei Würfel werden geworfen – alle schreiben denselben Wurf.",
                        "Klicke ein freies Feld für die erste Zahl, dann ein Feld für die zweite "
                        "(„tauschen“ dreht die Reihenfolge um).",
                        "Seite A: zwei weiße Felder oder die beiden Felder einer Brücke; Seite B: zwei Felder "
                        "derselben Farbe.",
                        "Wenn alle Felder voll sind, ist das Spiel vorbei."]},
        "en": {"title": "Tüfteln", "goal": "Score as many points as you can: every 2 × 2 square scores by its four "
               "numbers (pair, two pairs, cross, four of a kind, straight, mix). If all nine squares score "
               "differently, you get 7 bonus points.",
               "turn": ["Two dice are thrown – everybody writes the same throw.",
                        "Click a free field for the first number, then a field for the second "
                        "(“swap” turns the order round).",
                        "Side A: two white fields or the two fields of one bridge; side B: two fields of the "
                        "same colour.",
                        "When every field is full, the game is over."]},
    }

    @staticmethod
    def _order(ctx):
        a, b = ctx.observation["throw"]
        return (b, a) if ctx.ui.get("swapped") else (a, b)

    def board(self, ctx) -> str:
        if ctx.projector:
            return self._projector_board(ctx)
        obs = ctx.observation
        me = ctx.viewer if ctx.viewer is not None else 0
        sheet = observation_svg(obs, me, lang=ctx.lang, clickable=bool(ctx.legal), selected=ctx.ui.get("first"))
        if obs["throw"] is not None and not obs["terminal"]:
            v1, v2 = self._order(ctx)
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
        rows.append([ctx.t("Bonus (alle verschieden)", "bonus (all different)"),
                     *[str(scoring.BONUS) if sh["bonus"] else "–" for sh in sheets]])
        rows.append([ctx.t("Summe", "Total"), *[str(sh["score"]) for sh in sheets]])
        return {"title": ctx.t("Wertung", "Scoring"), "headers": ["", *ctx.names], "rows": rows,
                "highlight": len(rows) - 1}

    def extra(self, ctx) -> str:
        obs = ctx.observation
        me = ctx.viewer if ctx.viewer is not None else 0
        rule = ctx.t("Zwei freie weiße Felder oder die beiden Felder einer Brücke." if obs["side"] == "A" else
                     "Zwei freie Felder derselben Farbe.",
                     "Two free white fields or the two fields of one bridge." if obs["side"] == "A" else
                     "Two free fields of the same colour.")
        parts = [f"<div class='sp-note'>{ctx.t('Seite', 'Side')} {obs['side']}: {escape(rule)} "
                 f"<i>{ctx.t('Feldbelegung: Rekonstruktion', 'Layout: reconstruction')}</i></div>"]
        for p in range(len(obs["sheets"])):
            if p == me:
                continue
            title = f"{ctx.names[p]}: {obs['sheets'][p]['score']}"
            # on the projector at a size the back row reads (its smallest text 18 px)
            pic = observation_svg(obs, p, cell=54 if ctx.projector else 22, lang=ctx.lang, title=title, note=False)
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
        return {"n_rollouts": 2, "seed": 0}

    def option_label(self, ctx, action) -> str:
        squares = " + ".join(sorted({square_name(action.f1, ctx.lang), square_name(action.f2, ctx.lang)}))
        return f"{action} ({squares})"

    def final_words(self, ctx, scores, winners):
        if len(scores) != 1:
            return None
        r = scoring.rating(scores[0])
        return ctx.t(f"{scores[0]} Punkte – Solo-Wertung: „{r['de']}“.",
                     f"{scores[0]} points – solo rating: “{r['en']}”.")
