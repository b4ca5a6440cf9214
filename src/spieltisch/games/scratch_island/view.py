"""The Scratch Island view: the viewer's treasure map as an SVG picture that gets scratched, the
dice as motif pictures, the treasure track, keys and the other players' maps (standard library only).

Drawn from the observation only: printed features (boat, walls, rocks, red crosses, chests) always;
a scratched cell shows what was under it, an unscratched cell only its silver scratch layer. The
motifs, dice and maps are the project's reconstruction, and the picture says so.

Clicks: a die (``d<i>``; the roller clicks two in the order to use them, there are no buttons for
the pairs), "combine" under a die (``k<i>``: the pickaxe with the motif clicked first, or the pickaxe
clicked first with this motif), a map cell (``c<cell>``;
placing: the first click previews the current rotation of the motif over that cell, a second click on
the same cell tries the next position; "rotate" turns it; "place" commits the preview; scratching:
the next cell to scratch). The preview and the first die chosen live in ``ctx.ui`` only.
"""

from __future__ import annotations

from html import escape

from ...core.view import View
from .engine import (
    CELLS, COLOUR_NAMES, COLOURS, KEY_ITEMS, MAP, PICKAXE, SHAPES, SIZE, SNAKES, TREASURES, Choose, Place,
    Scratch, Take, cell_name, describe, face_name,
)

SAND, SILVER, ROCK = "#fff6dc", "#b9bec4", "#8d8479"  # a scratched cell, an unscratched one, a rock
PAGE, INK, EDGE_INK = "#ffffff", "#1d232b", "#555"  # the page, a title on it, the A–J / 1–10 edges
# Chests and keys: red and green would differ in hue only, so every chest and key also carries its
# colour as a word; the greens and yellows are light (dark writing), blue and red dark (white).
CHEST = {"blue": "#2f5fc4", "red": "#c0392b", "green": "#5cc46a", "yellow": "#f2c230"}
CHEST_INK = {"blue": "#ffffff", "red": "#ffffff", "green": "#1a1a1a", "yellow": "#1a1a1a"}
FOUND_INK, KEY_INK = "#7a5200", "#3b2a14"  # a treasure symbol, a key on a scratched (sand) cell
CROSS, SNAKE_INK = "#b00000", "#1d7a1d"
DIE_EDGE = {"blue": "#3b6fd8", "orange": "#e67e22", "yellow": "#d4a20a"}  # the die's colour (no meaning)
DIE_FILL, DIE_CHOSEN, DIE_RING = "#fffdf5", "#fff1c9", "#1d232b"
# The marks on cells, each told by its shape, not only its colour: "fits" a dashed outline,
# "preview" (and the placed motif still to scratch) a tinted cell with a solid outline, "next" the
# same with a dot. The outlines are dark enough for 3:1 on silver, rock and the tint.
FIT, PREVIEW, PLACED, NEXT = "fit", "preview", "placed", "next"
MARK_INK = {FIT: "#4a148c", PREVIEW: "#08306b", PLACED: "#08306b", NEXT: "#033d0f"}
TINT, TINT_ALPHA = "#7fb2ff", 0.5
MARK_WORDS = {FIT: ("passt", "fits"), PREVIEW: ("Vorschau", "preview"),
              PLACED: ("Motiv, noch zu rubbeln", "motif, still to scratch"),
              NEXT: ("Motiv, als Nächstes rubbeln möglich", "motif, can be scratched next")}
SYMBOLS = "◆●▲♛"  # treasure kinds 1..4 as drawn on a scratched cell
LETTERS = "ABCDEFGHIJ"
# the words the dice carry (the how-to box uses the same)
ROLE = {"first": ("1. zuerst", "1. first"), "then": ("2. dann", "2. then"), "now": ("jetzt", "now")}
COMBINE = ("kombinieren", "combine")
COMBINE_TIP = ("„kombinieren“: Spitzhacke und Motiv als ein Motiv, in dem ein Feld ein Fels sein darf.",
               "“combine”: pickaxe and motif as one motif in which one cell may be a rock.")
KEY_OF = {"B": "blue", "R": "red", "G": "green", "Y": "yellow"}
CHEST_OF = {"b": "blue", "r": "red", "g": "green", "y": "yellow"}


def _blend(fg: str, bg: str, alpha: float) -> str:
    """The colour ``fg`` drawn with opacity ``alpha`` over ``bg`` (what the eye sees under the tint)."""
    f = [int(fg[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(bg[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(alpha * x + (1 - alpha) * y):02x}" for x, y in zip(f, b))


def _colour_word(colour: str, lang: str) -> str:
    return COLOUR_NAMES[colour][0 if lang == "de" else 1]


def declared_colours() -> tuple:
    """Every colour pair the boards draw text or a state marker with (``View.colours``)."""
    unscratched = (SILVER, ROCK)  # marks lie on unscratched cells only
    tinted = tuple(_blend(TINT, bg, TINT_ALPHA) for bg in unscratched)
    pairs = [(EDGE_INK, PAGE, "text"), (INK, PAGE, "text"), (FOUND_INK, SAND, "text"), (KEY_INK, SAND, "text")]
    pairs += [(CHEST_INK[c], CHEST[c], "text") for c in CHEST]
    pairs += [(MARK_INK[FIT], bg, "marker") for bg in unscratched]
    pairs += [(MARK_INK[k], bg, "marker") for k in (PREVIEW, NEXT) for bg in unscratched + tinted]
    pairs += [(CROSS, SILVER, "marker"), (CROSS, SAND, "marker"), (SNAKE_INK, SAND, "marker"),
              (DIE_RING, PAGE, "marker"), (DIE_RING, DIE_CHOSEN, "marker")]
    return tuple(pairs)


def _shapes(face: str, reflect: bool) -> list:
    return [((0, 0),)] if face == PICKAXE else [s for s, _ in SHAPES[reflect][face]]


def motif_svg(face, size: int = 46, colour: str = "blue", state: str = "free", act: str | None = None,
              selected: bool = False, shape=None, title: str = "", picked: bool = False,
              pressed: bool | None = None) -> str:
    """One die as a picture: its motif's squares (a pickaxe as a pick), the die colour as its edge;
    greyed when taken or lost; ``act``: the click token; ``picked``: the roller's first choice;
    ``selected`` (chosen or in use): a dark ring around it; ``pressed``: ``aria-pressed``."""
    muted = state != "free"
    fill = "#ddd" if muted else (DIE_CHOSEN if selected else DIE_FILL)
    edge = "#999" if muted else DIE_EDGE.get(colour, "#333")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" '
           f'class="sp-die" data-face="{escape(str(face))}" data-state="{escape(state)}"'
           + (f' data-act="{act}" style="cursor:pointer"' if act else "") + (' data-picked="1"' if picked else "")
           + (f' aria-pressed="{str(bool(pressed)).lower()}"' if pressed is not None else "")
           + f' role="img" aria-label="{escape(title or str(face))}">',
           f'<title>{escape(title)}</title>' if title else "",
           f'<rect x="4" y="4" width="{size - 8}" height="{size - 8}" rx="6" fill="{fill}" stroke="{edge}" '
           f'stroke-width="3"/>']
    if selected:
        out.append(f'<rect x="1.5" y="1.5" width="{size - 3}" height="{size - 3}" rx="8" fill="none" '
                   f'stroke="{DIE_RING}" stroke-width="3" class="sp-die-ring"/>')
    ink = "#999" if muted else "#5a3d1e"
    if face == PICKAXE:
        s = size
        out.append(f'<path d="M{s * .22} {s * .42} Q{s * .5} {s * .12} {s * .78} {s * .42}" fill="none" '
                   f'stroke="{ink}" stroke-width="{s * .09:.1f}" stroke-linecap="round"/>'
                   f'<line x1="{s * .5}" y1="{s * .27}" x2="{s * .5}" y2="{s * .84}" stroke="{ink}" '
                   f'stroke-width="{s * .08:.1f}" stroke-linecap="round"/>')
    elif face:
        cells = shape or _shapes(face, False)[0]
        span = max(max(r for r, _ in cells), max(c for _, c in cells)) + 1
        q = (size - 16) / max(span, 2)
        h, w = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
        ox, oy = (size - w * q) / 2, (size - h * q) / 2
        for r, c in cells:
            out.append(f'<rect x="{ox + c * q:.1f}" y="{oy + r * q:.1f}" width="{q:.1f}" height="{q:.1f}" '
                       f'fill="{ink}" stroke="{fill}" stroke-width="1.5"/>')
    out.append("</svg>")
    return "".join(out)


def _walls(m: dict, c: int, lang: str) -> str:
    """The walls on a cell's sides in words ("Wände: oben, rechts"); "" without walls."""
    east, south = "".join(m["layout"]["walls_east"]), "".join(m["layout"]["walls_south"])
    r, k = divmod(c, SIZE)
    sides = [("oben", "top") if r and south[c - SIZE] == "1" else None,
             ("rechts", "right") if east[c] == "1" else None,
             ("unten", "bottom") if south[c] == "1" else None,
             ("links", "left") if k and east[c - 1] == "1" else None]
    words = [s[0 if lang == "de" else 1] for s in sides if s]
    if not words:
        return ""
    head = ("Wand" if len(words) == 1 else "Wände") if lang == "de" else ("wall" if len(words) == 1 else "walls")
    return f"{head}: {', '.join(words)}"


def cell_label(m: dict, c: int, lang: str, mark: str | None = None) -> str:
    """A cell as a screen reader says it, from the map the viewer sees: its name, what is printed
    there, its walls, whether it is scratched and what it showed, and its mark ("E8: rotes Kreuz,
    Wand: rechts, noch nicht gerubbelt, passt")."""
    de = lang == "de"
    lay = m["layout"]
    t, f = "".join(lay["terrain"])[c], "".join(m["found"])[c]
    points = {d["cell"]: d["points"] for d in lay["chests"]}
    parts = []
    if t == "A":
        parts.append("Boot" if de else "boat")
    elif t in CHEST_OF:
        col = CHEST_OF[t]
        opened = f != "?"
        parts.append(f"Truhe {COLOUR_NAMES[col][0]}, {points[c]} Punkte, "
                     + ("geöffnet" if opened else f"verschlossen (Schlüssel {COLOUR_NAMES[col][0]} nötig)")
                     if de else f"{col} chest, {points[c]} points, "
                     + ("open" if opened else f"locked (needs the {col} key)"))
    elif t == "x":
        parts.append("rotes Kreuz" if de else "red cross")
    elif t == "#":
        parts.append("Fels (nur mit der Spitzhacke)" if de and f == "?" else "Fels" if de
                     else "rock (pickaxe only)" if f == "?" else "rock")
    parts.append(_walls(m, c, lang))
    if f == "?":
        parts.append("noch nicht gerubbelt" if de else "not scratched yet")
    elif t in CHEST_OF:
        pass  # an open chest: said above
    elif f == "S":
        parts.append("freigerubbelt: Schlange" if de else "scratched: snake")
    elif f in KEY_OF:
        col = KEY_OF[f]
        parts.append(f"freigerubbelt: Schlüssel {COLOUR_NAMES[col][0]}" if de else f"scratched: {col} key")
    elif f.isdigit():
        parts.append(("freigerubbelt: " if de else "scratched: ") + TREASURES[int(f) - 1][lang])
    else:
        parts.append("freigerubbelt, leer" if de else "scratched, empty")
    if mark is not None and mark in MARK_WORDS:
        parts.append(MARK_WORDS[mark][0 if de else 1])
    return f"{cell_name(c)}: " + ", ".join(p for p in parts if p)


def map_summary(m: dict, name: str, lang: str) -> str:
    """A map in one sentence, for a map drawn too small to read cell by cell: points, keys, open
    chests, cells scratched and snakes met ("Ben: 9 Punkte, Schlüssel: rot, blau, ...")."""
    de = lang == "de"
    found = "".join(m["found"])
    keys = ", ".join(_colour_word(k, lang) for k in m["keys"]) or ("keine" if de else "none")
    opened = ", ".join(_colour_word(k, lang) for k in m["opened"]) or ("keine" if de else "none")
    scratched = sum(1 for f in found if f != "?")
    snakes = found.count("S")
    if de:
        return (f"{name}: {m['score']} Punkte, Schlüssel: {keys}, offene Truhen: {opened}, "
                f"{scratched} von {CELLS} Feldern freigerubbelt, {snakes} Schlange{'n' if snakes != 1 else ''}")
    return (f"{name}: {m['score']} points, keys: {keys}, open chests: {opened}, "
            f"{scratched} of {CELLS} cells scratched, {snakes} snake{'s' if snakes != 1 else ''}")


def _squeeze(word: str, width: float) -> str:
    """SVG attributes that fit a long word into ``width`` by narrowing its letters (not its size)."""
    return f' textLength="{width:.1f}" lengthAdjust="spacingAndGlyphs"' if len(word) > 4 else ""


SVG_KEPT = 512  # drawn maps kept (``map_svg``)
_drawn: dict = {}


def map_svg(m: dict, cell: int = 44, lang: str = "de", marks: dict | None = None, clickable=(),
            title: str | None = None, edges: bool = True, name: str | None = None,
            summary: str | None = None, pressed=None, big_words: bool = False) -> str:
    """``draw_map``, each map drawn once for the same arguments: a screen shows every player's map,
    and a live class's table draws every seat's screen after each move (a map takes about a
    millisecond; its arguments are plain data, so their ``repr`` is the key)."""
    key = repr((m, cell, lang, marks, sorted(clickable), title, edges, name, summary,
                None if pressed is None else sorted(pressed), big_words))
    svg = _drawn.get(key)
    if svg is None:
        svg = draw_map(m, cell, lang, marks, clickable, title, edges, name, summary, pressed, big_words)
        if len(_drawn) >= SVG_KEPT:
            del _drawn[next(iter(_drawn))]  # (the oldest)
        _drawn[key] = svg
    return svg


def draw_map(m: dict, cell: int = 44, lang: str = "de", marks: dict | None = None, clickable=(),
             title: str | None = None, edges: bool = True, name: str | None = None,
             summary: str | None = None, pressed=None, big_words: bool = False) -> str:
    """One map of the observation (``maps[i]``) as a complete ``<svg>``. ``marks``: cell -> FIT,
    PREVIEW, PLACED or NEXT (another value: an outline in that colour); ``clickable``: cells that
    carry ``data-act``; ``pressed``: the clickable cells chosen now (None: the clicks choose
    nothing; else every clickable cell says with ``aria-pressed`` whether it is chosen).

    Read cell by cell (``summary`` None): the map is a group named ``name`` and every cell is an
    image (or, clickable, a button) named by ``cell_label``. With a ``summary`` the map is one
    image with that text (a small map of another player). ``big_words``: the colour words as large
    as the chests' points (the projector, whose zoom the window's height limits: small words would
    come out under 24 px), squeezed into the cell where a word is long."""
    lay, found = m["layout"], "".join(m["found"])
    terrain = "".join(lay["terrain"])
    east, south = "".join(lay["walls_east"]), "".join(lay["walls_south"])
    points = {d["cell"]: d["points"] for d in lay["chests"]}
    marks, clickable = marks or {}, set(clickable)
    per_cell = summary is None
    left = round(cell * 0.6) if edges else 2
    top = (round(cell * 0.55) if edges else 2) + (round(cell * 0.6) if title else 0)
    w, h = left + SIZE * cell + 3, top + SIZE * cell + 3
    label = summary or name or title or ("Schatzkarte" if lang == "de" else "treasure map")
    role = "group" if per_cell else "img"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           f'font-family="sans-serif" role="{role}" aria-label="{escape(label)}" class="sp-map">']
    hide = ' aria-hidden="true"' if per_cell else ""  # the cells' names say it all
    if title:
        out.append(f'<text x="2" y="{round(cell * 0.5)}" font-size="{round(cell * 0.45)}" font-weight="bold" '
                   f'fill="{INK}"{hide}>{escape(title)}</text>')
    fs = round(cell * 0.42)
    if edges:
        for i in range(SIZE):
            out.append(f'<text x="{left + i * cell + cell / 2}" y="{top - 4}" font-size="{fs}" text-anchor="middle" '
                       f'fill="{EDGE_INK}"{hide}>{LETTERS[i]}</text><text x="{left - 3}" '
                       f'y="{top + i * cell + cell * .65:.1f}" font-size="{fs}" text-anchor="end" '
                       f'fill="{EDGE_INK}"{hide}>{i + 1}</text>')
    words = cell >= 30  # colour words fit on a chest or key of a map drawn this large
    g = ' pointer-events="none"'
    for c in range(CELLS):
        r, k = divmod(c, SIZE)
        x, y = left + k * cell, top + r * cell
        t, f = terrain[c], found[c]
        scratched = f != "?"
        fill = SAND if scratched else (ROCK if t == "#" else SILVER)
        name_attr = ""
        if per_cell:
            text = escape(cell_label(m, c, lang, marks.get(c)))
            if c in clickable:
                name_attr = (f' data-act="c{c}" style="cursor:pointer" aria-label="{text}"'
                             + (f' aria-pressed="{str(c in pressed).lower()}"' if pressed is not None else ""))
            else:
                name_attr = f' role="img" aria-label="{text}"'
        out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#8c7b5a" '
                   f'stroke-width="0.6" class="sp-cell" data-cell="{c}" data-scratched="{int(scratched)}"{name_attr}/>')
        art = []
        cx, cy = x + cell / 2, y + cell / 2
        if t == "A":
            art.append(f'<path d="M{x + cell * .15} {y + cell * .55} L{x + cell * .85} {y + cell * .55} L{x + cell * .7} '
                       f'{y + cell * .8} L{x + cell * .3} {y + cell * .8} Z M{cx} {y + cell * .55} L{cx} {y + cell * .15} '
                       f'L{x + cell * .75} {y + cell * .45} L{cx} {y + cell * .45}" fill="#8b5a2b" stroke="#5a3d1e"/>')
        elif t in CHEST_OF:
            col = CHEST_OF[t]
            ink = CHEST_INK[col]
            art.append(f'<rect x="{x + cell * .14:.1f}" y="{y + cell * .14:.1f}" width="{cell * .72:.1f}" '
                       f'height="{cell * .72:.1f}" rx="3" fill="{CHEST[col]}" stroke="#333" '
                       f'stroke-width="{1.5 if not scratched else 3}" class="sp-chest" data-colour="{col}"/>')
            if words:
                word = _colour_word(col, lang)
                size, at, fit = (round(cell * .34), .4, _squeeze(word, cell * .7)) if big_words else \
                    (round(cell * .2), .36, "")
                art.append(f'<text x="{cx}" y="{y + cell * at:.1f}" font-size="{size}" '
                           f'text-anchor="middle" fill="{ink}"{fit}>{escape(word)}</text>'
                           f'<text x="{cx}" y="{y + cell * (.8 if big_words else .74):.1f}" font-size="{round(cell * .36)}" '
                           f'text-anchor="middle" fill="{ink}" font-weight="bold">{points[c]}</text>')
            else:
                art.append(f'<text x="{cx}" y="{cy + fs * .35:.1f}" font-size="{fs}" text-anchor="middle" '
                           f'fill="{ink}" font-weight="bold">{points[c]}</text>')
        elif t == "x":
            d = cell * .3
            art.append(f'<path d="M{cx - d} {cy - d} L{cx + d} {cy + d} M{cx + d} {cy - d} L{cx - d} {cy + d}" '
                       f'stroke="{CROSS}" stroke-width="{cell * .1:.1f}" opacity="{0.35 if scratched else 1}"/>')
        elif t == "#":
            art.append(rock_path(x, y, cell))
        if f == "S":
            art.append(snake_path(x, y, cell))
        elif scratched and f in KEY_OF:
            col = KEY_OF[f]
            # the key's colour as a swatch and a word; the key itself in dark ink (4.5:1 on sand)
            art.append(f'<circle cx="{x + cell * .2:.1f}" cy="{y + cell * .2:.1f}" r="{cell * .13:.1f}" '
                       f'fill="{CHEST[col]}" stroke="#333" stroke-width="0.8"/>'
                       f'<text x="{cx}" y="{y + cell * (.6 if words else .75):.1f}" font-size="{round(cell * .5)}" '
                       f'text-anchor="middle" fill="{KEY_INK}" font-weight="bold" class="sp-found" '
                       f'data-found="{f}">⚷</text>')
            if words:
                word = _colour_word(col, lang)
                size, fit = (round(cell * .34), _squeeze(word, cell * .9)) if big_words else (round(cell * .2), "")
                art.append(f'<text x="{cx}" y="{y + cell * .95:.1f}" font-size="{size}" '
                           f'text-anchor="middle" fill="{KEY_INK}"{fit}>{escape(word)}</text>')
        elif scratched and f not in ".-":
            art.append(f'<text x="{cx}" y="{cy + cell * .2:.1f}" font-size="{round(cell * .6)}" text-anchor="middle" '
                       f'fill="{FOUND_INK}" font-weight="bold" class="sp-found" data-found="{f}">'
                       f'{SYMBOLS[int(f) - 1]}</text>')
        kind = marks.get(c)
        if kind is not None:
            art.append(_mark(kind, x, y, cell))
        if art:
            out.append(f'<g{g}{hide}>{"".join(art)}</g>')
    for c in range(CELLS):
        r, k = divmod(c, SIZE)
        x, y = left + k * cell, top + r * cell
        if east[c] == "1":
            out.append(f'<line x1="{x + cell}" y1="{y}" x2="{x + cell}" y2="{y + cell}" stroke="#222" stroke-width="4" '
                       'pointer-events="none"/>')
        if south[c] == "1":
            out.append(f'<line x1="{x}" y1="{y + cell}" x2="{x + cell}" y2="{y + cell}" stroke="#222" stroke-width="4" '
                       'pointer-events="none"/>')
    out.append(f'<rect x="{left}" y="{top}" width="{SIZE * cell}" height="{SIZE * cell}" fill="none" stroke="#333" '
               'stroke-width="2" pointer-events="none"/></svg>')
    return "".join(out)


def _mark(kind: str, x: float, y: float, cell: float) -> str:
    """A cell's mark: "fits" dashed, "preview"/"placed" tinted with a solid outline, "next" the
    same with a dot (a shape for each, so no state is told by colour alone)."""
    box = f'x="{x + 2.5}" y="{y + 2.5}" width="{cell - 5}" height="{cell - 5}"'
    if kind == FIT:
        return (f'<rect {box} fill="none" stroke="{MARK_INK[FIT]}" stroke-width="3" stroke-dasharray="5 3" '
                f'class="sp-mark" data-mark="{FIT}"/>')
    if kind in (PREVIEW, PLACED, NEXT):
        ink = MARK_INK[kind]
        out = (f'<rect {box} fill="{TINT}" fill-opacity="{TINT_ALPHA}" stroke="{ink}" stroke-width="3" '
               f'class="sp-mark" data-mark="{kind}"/>')
        if kind == NEXT:
            out += (f'<circle cx="{x + cell * .78:.1f}" cy="{y + cell * .22:.1f}" r="{cell * .11:.1f}" '
                    f'fill="{ink}" class="sp-mark-dot"/>')
        return out
    return (f'<rect {box} fill="none" stroke="{escape(kind)}" stroke-width="3" class="sp-mark" '
            f'data-mark="other"/>')


def rock_path(x: float, y: float, cell: float) -> str:
    """A rock drawn in a cell at (x, y) (the legend draws the same, so a rock is not read as ▲)."""
    return (f'<path d="M{x + cell * .15} {y + cell * .8} L{x + cell * .35} {y + cell * .3} L{x + cell * .6} '
            f'{y + cell * .2} L{x + cell * .85} {y + cell * .8} Z" fill="#5f574e"/>')


def snake_path(x: float, y: float, cell: float, colour: str = SNAKE_INK) -> str:
    """A snake drawn in a cell at (x, y): a wave with a head (no font needs to know a snake)."""
    q = cell / 8
    d = (f"M{x + q} {y + 5 * q} Q{x + 2 * q} {y + 2 * q} {x + 3 * q} {y + 4 * q} T{x + 5 * q} {y + 4 * q} "
         f"T{x + 6.3 * q} {y + 3.4 * q}")
    return (f'<g class="sp-found" data-found="S" pointer-events="none"><path d="{d}" fill="none" stroke="{colour}" '
            f'stroke-width="{q * 1.1:.1f}" stroke-linecap="round"/><circle cx="{x + 6.6 * q:.1f}" '
            f'cy="{y + 3.3 * q:.1f}" r="{q * 0.9:.1f}" fill="{colour}"/></g>')


def _face(ctx, face) -> str:
    return face_name(face, ctx.lang) if face else "?"


class ScratchIslandView(View):
    """The map to click, the dice to choose, rotate / place buttons, track, keys and small maps."""

    reconstruction = True
    default_bot = "strong"
    bot_delay = 0.3
    bot_names = {"greedy": {"de": "gierig", "en": "greedy"}, "strong": {"de": "stark", "en": "strong"}}
    colours = declared_colours()

    def how_to(self, game, lang: str) -> dict | None:
        """The How-to-play box, written from the game in force: its players (dice, the die left
        over), ``reflect`` (mirror images), ``end`` (D9) and ``rounds`` (the cap), and the
        reconstructed content (crosses, keys, snakes, treasure kinds, chest points). "Runde" means
        one roll everywhere, as in the status line: the roller takes 2 dice, the others one each."""
        if lang not in ("de", "en"):
            return None
        de = lang == "de"
        n = game.num_players
        dice = len(game.dice_colours)
        left = dice - 2 - (n - 1)  # the roller takes 2, everybody else 1
        chest_points = sorted(MAP["chest_points"])
        best = sum(chest_points) + sum(t["points"] for t in TREASURES)
        kinds = "; ".join(
            f"{SYMBOLS[k]} {t[lang]}: {t['symbols']} "
            + (("Symbol" if t["symbols"] == 1 else "Symbole") if de else ("symbol" if t["symbols"] == 1 else "symbols"))
            + f", {t['points']} " + ("Punkte" if de else "points") for k, t in enumerate(TREASURES))
        colours = ", ".join(_colour_word(c, lang) for c in COLOURS)
        pts = ", ".join(map(str, chest_points))
        if de:
            others = ("nimmt die andere Person" if n == 2 else "nehmen die anderen im Uhrzeigersinn je")
            rest = (f" {left} Würfel bleib{'t' if left == 1 else 'en'} liegen." if left
                    else " Damit sind alle Würfel vergeben.")
            turn_mirror = ("Drehen ist erlaubt, Spiegeln auch (das Motiv als Spiegelbild)." if game.options["reflect"]
                           else "Drehen ist erlaubt, Spiegeln nicht (kein Spiegelbild).")
            end = {"all_rolled": "Spielende: Wer die 4. Truhe öffnet, nutzt noch die eigenen Würfel. Dann wird "
                                 "weitergespielt, bis alle gleich oft gewürfelt haben: wer seltener gewürfelt hat "
                                 "als die anderen, würfelt noch einmal, jede davon in einer eigenen Runde. Dann ist "
                                 "das Spiel vorbei.",
                   "this_roll": "Spielende: Wer die 4. Truhe öffnet, nutzt noch die eigenen Würfel; die anderen "
                                "nehmen noch ihren Würfel aus diesem Wurf (diese Runde). Dann ist das Spiel vorbei.",
                   }[game.options["end"]]
            if game.options["rounds"]:
                end += f" Diese Partie endet spätestens nach Runde {game.options['rounds']}."
            return {"title": "Scratch Island",
                    "goal": "Die meisten Punkte gewinnen. Punkte bringen die vier Truhen in den Ecken (die Zahl "
                            "auf der Truhe) und die Schatzarten der Schatzleiste: Wer als Erste alle Symbole "
                            f"einer Schatzart findet, bekommt deren Punkte. Höchstens {best} Punkte.",
                    "turn": [
                        "Alle rubbeln auf der eigenen Schatzkarte einen Weg frei, der am Boot beginnt. Was unter "
                        "einem silbernen Feld liegt, sieht niemand, bevor es freigerubbelt ist – auch du nicht.",
                        f"Eine Runde: Wer würfelt, wirft alle {dice} Würfel und nimmt 2 Würfel – zuerst den "
                        "Würfel anklicken, den du zuerst nutzt („1. zuerst“), dann den zweiten („2. dann“). "
                        f"Danach {others} einen der übrigen Würfel (anklicken).{rest} Die nächste Runde "
                        "würfelt die nächste Person im Uhrzeigersinn.",
                        "Ein Würfel zeigt ein Motiv (Felder in einer Form) oder die Spitzhacke. Ein Motiv wird "
                        "ganz oder gar nicht freigerubbelt: alle Felder auf der Karte und noch nicht "
                        f"freigerubbelt, kein Fels darunter und keine Wand zwischen seinen Feldern. {turn_mirror}",
                        "Ein Feld des Motivs muss an deinen Weg grenzen, ohne Wand dazwischen; dein erstes Motiv "
                        "muss das Boot abdecken. Passt das Motiv irgendwo, musst du es platzieren; passt es "
                        "nirgends, ist der Würfel ohne Wirkung verbraucht.",
                        "Platzieren: ein gestrichelt umrandetes Feld („passt“) anklicken zeigt eine Vorschau "
                        "(blau gefüllt, durchgehend umrandet); dasselbe Feld nochmal: die nächste Lage dort. "
                        "„drehen“ dreht das Motiv, „platzieren“ setzt es.",
                        "Dann rubbelst du Feld für Feld frei, jedes an deinem Weg; die Reihenfolge wählst du "
                        "(Felder mit Punkt kommen als Nächstes in Frage; geht nur eins, wird es gleich "
                        f"gerubbelt). Auf jeder Karte liegen {SNAKES} Schlangen versteckt. Eine Schlange beendet "
                        "deinen Zug sofort: der Rest des Motivs und dein 2. Würfel verfallen. Was du vorher "
                        "gefunden hast, zählt.",
                        "Spitzhacke allein: ein Feld an deinem Weg freirubbeln, auch einen Fels. Spitzhacke mit "
                        "einem Motiv (nur wer würfelt, hat 2 Würfel): „kombinieren“ – dann darf ein Feld des "
                        "Motivs ein Fels sein.",
                        f"Unter {KEY_ITEMS} der {MAP['crosses']} roten Kreuze liegt je ein Schlüssel ({colours}). "
                        "Eine Truhe lässt sich nur mit dem Schlüssel ihrer Farbe freirubbeln (die Farbe steht "
                        f"als Wort auf Truhe und Schlüssel); dann ist sie offen und bringt ihre Punkte ({pts}).",
                        f"Schatzsymbole kommen auf die Schatzleiste ({kinds}). Wer alle Symbole einer Schatzart "
                        "als Erste hat, bekommt ihre Punkte (★); wer sie später vollständig hat, bekommt 0 (✗).",
                        end,
                        "Wertung: Punkte der offenen Truhen plus Punkte der Schatzarten. Bei Gleichstand "
                        "gewinnt, wer zuerst alle 4 Truhen geöffnet hat; sonst teilen sich die Punktgleichen "
                        "den Sieg.",
                    ]}
        others = "the other player takes" if n == 2 else "each other player, clockwise, takes"
        rest = (f" {left} {'die stays' if left == 1 else 'dice stay'} unused." if left
                else " That uses up all the dice.")
        turn_mirror = ("Turning it is allowed, and so is mirroring it (the motif as its mirror image)."
                       if game.options["reflect"] else "Turning it is allowed, mirroring it is not (no mirror image).")
        end = {"all_rolled": "End: whoever opens their 4th chest still uses their dice. Play goes on until "
                             "everyone has rolled equally often: whoever has rolled fewer times than the others "
                             "rolls once more, each in a round of their own. Then the game is over.",
               "this_roll": "End: whoever opens their 4th chest still uses their dice; the others still take "
                            "their die of this roll (this round). Then the game is over.",
               }[game.options["end"]]
        if game.options["rounds"]:
            end += f" This game ends after round {game.options['rounds']} at the latest."
        return {"title": "Scratch Island",
                "goal": "The most points win. Points come from the four chests in the corners (the number on "
                        "the chest) and from the kinds of treasure on the treasure track: whoever is first to "
                        f"find all symbols of a kind gets its points. At most {best} points.",
                "turn": [
                    "Everyone scratches a path on their own treasure map, starting at the boat. Nobody sees "
                    "what lies under a silver cell before it is scratched – not even you.",
                    f"A round: the roller throws all {dice} dice and takes 2 dice – first click the die you use "
                    "first (“1. first”), then the second (“2. then”). Then "
                    f"{others} one of the remaining dice (click it).{rest} The next player clockwise rolls "
                    "the next round.",
                    "A die shows a motif (cells in a shape) or the pickaxe. A motif is scratched whole or not "
                    "at all: all its cells on the map and not yet scratched, no rock under it and no wall "
                    f"between its cells. {turn_mirror}",
                    "One cell of the motif must touch your path, with no wall between; your first motif must "
                    "cover the boat. If the motif fits somewhere, you must place it; if it fits nowhere, the "
                    "die is used up with no effect.",
                    "Placing: clicking a cell with a dashed outline (“fits”) shows a preview (filled blue, "
                    "solid outline); the same cell again: the next position there. “rotate” turns the "
                    "motif, “place” puts it down.",
                    "Then you scratch cell by cell, each next to your path; you choose the order (cells with "
                    "a dot can come next; if only one can, it is scratched at once). Every map hides "
                    f"{SNAKES} snakes. A snake ends your turn at once: the rest of the motif and your 2nd die "
                    "are lost. What you found before counts.",
                    "Pickaxe alone: scratch one cell next to your path, even a rock. Pickaxe with a motif "
                    "(only the roller has 2 dice): “combine” – then one cell of the motif may be a rock.",
                    f"A key lies under {KEY_ITEMS} of the {MAP['crosses']} red crosses ({colours}). A chest can "
                    "only be scratched with the key of its colour (the colour is written on chest and key); "
                    f"then it is open and scores its points ({pts}).",
                    f"Treasure symbols go onto the treasure track ({kinds}). Whoever is first to have all "
                    "symbols of a kind gets its points (★); whoever completes it later gets 0 (✗).",
                    end,
                    "Scoring: points of the open chests plus points of the treasure kinds. A tie goes to "
                    "whoever was first to open all 4 chests; otherwise the tied players share the win.",
                ]}

    # --- placing: the preview in ctx.ui ------------------------------------------------------
    @staticmethod
    def _pending(ctx):
        pend = ctx.observation["pending"]
        return pend[0] if pend else None

    def _preview(self, ctx, cell: int, step: int = 0):
        """The legal placement over ``cell`` in the current rotation (else any rotation); ``step``
        picks among several."""
        shapes = _shapes(self._pending(ctx)["face"], ctx.observation["reflect"])
        rot = ctx.ui.get("rot", 0) % len(shapes)
        legal = [a.cells for a in ctx.legal if isinstance(a, Place) and cell in a.cells]
        own = [cells for cells in legal if _norm(cells) == shapes[rot]]
        pool = own or legal
        return pool[step % len(pool)] if pool else None, shapes[rot]

    def board(self, ctx) -> str:
        obs = ctx.observation
        me = ctx.viewer if ctx.viewer is not None else (obs["to_move"] if obs["to_move"] is not None else 0)
        m = obs["maps"][me]
        if m["layout"] is None:
            return f"<div class='sp-note'>{ctx.t('Die Schatzkarten werden gedruckt …', 'The maps are being printed …')}</div>"
        phase = obs["phase"] if ctx.legal else None
        marks, clickable, pressed = {}, (), None
        if phase == "place":
            fit = {c for a in ctx.legal for c in a.cells}
            marks = {c: FIT for c in fit}
            clickable = fit
            pressed = set(ctx.ui.get("preview") or ())  # the previewed cells are the chosen ones
            for c in pressed:
                marks[c] = PREVIEW
        elif phase == "scratch":
            marks = {c: PLACED for c in obs["placement"]}
            nxt = [a.cell for a in ctx.legal]
            marks.update({c: NEXT for c in nxt})
            clickable = nxt
        whose = ctx.names[me] if me < len(ctx.names) else ""
        name = (ctx.t("Deine Schatzkarte", "Your treasure map") if me == ctx.viewer
                else ctx.t(f"Schatzkarte von {whose}", f"{whose}'s treasure map"))
        svg = map_svg(m, lang=ctx.lang, marks=marks, clickable=clickable, name=name, pressed=pressed,
                      big_words=ctx.projector)
        if ctx.projector:
            return self._projector_board(ctx, svg)
        return f"{self._dice(ctx)}<div class='sp-map-main' style='margin-top:6px'>{svg}</div>"

    def _projector_board(self, ctx, svg: str) -> str:
        """The projector's board: the dice beside the map, not above it (the screen's height limits the
        zoom, its width does not), their words at 16 px (24 px and more once zoomed at 1920×1080)."""
        dice = self._dice(ctx)
        for small, large in (("width:84px", "width:118px"), ("font-size:11px", "font-size:16px"),
                             ("font-size:13px;max-width:260px", "font-size:16px;max-width:240px")):
            dice = dice.replace(small, large)
        return (f"<div style='display:flex;align-items:flex-start;gap:16px'>"
                f"<div style='max-width:250px'>{dice}</div><div class='sp-map-main'>{svg}</div></div>")

    def _dice(self, ctx) -> str:
        """The roll: every die as its motif, with what it is for. Choosing (the roller): click the
        die to use first ("1. zuerst"), then the one to use then ("2. dann"); a pickaxe and a motif
        may instead be combined ("kombinieren" under the second die). Taking: click a die."""
        obs = ctx.observation
        phase = obs["phase"] if ctx.legal else None
        picks = ctx.ui.get("dice", []) if phase == "choose" else []
        pend = self._pending(ctx)
        order = {p["die"]: k for k, p in enumerate(obs["pending"])} if phase in ("place", "scratch") else {}
        parts = []
        for i, d in enumerate(obs["dice"]):
            act = f"d{i}" if phase in ("choose", "take") and d["state"] == "free" else None
            who = d["state"]
            state = "free" if who == "free" else "lost" if who == "lost" else "taken"
            tip = _face(ctx, d["face"])
            if who.startswith("seat "):
                tip += ": " + ctx.names[int(who[5:])]
            elif who == "lost":
                tip += ctx.t(": verloren", ": lost")
            shape = None
            if phase == "place" and pend and pend["die"] == i and d["face"] != PICKAXE:
                shapes = _shapes(d["face"], obs["reflect"])
                shape = shapes[ctx.ui.get("rot", 0) % len(shapes)]
            now = order.get(i) == 0  # the die in use
            role = ""
            if i in picks:
                role = ROLE["first"]
            elif i in order:
                role = ROLE["now" if now else "then"]
            name = tip + (f", {ctx.t(*role)}" if role else "")
            if i in picks:
                name += ctx.t(" (gewählt; nochmal anklicken: aufheben)", " (chosen; click again: undo)")
            pic = motif_svg(d["face"], colour=d["colour"], state="free" if i in order else state, act=act,
                            selected=i in picks or now, shape=shape, title=name, picked=i in picks,
                            pressed=(i in picks) if phase == "choose" and act else None)
            role = f"<b class='sp-die-role'>{escape(ctx.t(*role))}</b><br>" if role else ""
            chip = ""
            if picks and act and i not in picks and self._combine(ctx, picks[0], i) is not None:
                label = ctx.t(f"kombinieren: {_face(ctx, d['face'])} mit {_face(ctx, obs['dice'][picks[0]]['face'])}",
                              f"combine: {_face(ctx, d['face'])} with {_face(ctx, obs['dice'][picks[0]]['face'])}")
                chip = (f"<br><span class='sp-die-chip' data-act='k{i}' role='button' aria-label='{escape(label)}' "
                        f"title='{escape(ctx.t(*COMBINE_TIP))}' style='display:inline-block;margin-top:2px;"
                        f"padding:1px 5px;border:2px solid {DIE_RING};border-radius:9px;background:#fff3e0;"
                        f"font-weight:bold'>{escape(ctx.t(*COMBINE))}</span>")
            parts.append(f"<span class='sp-die-box' data-die='{i}' style='display:inline-block;width:84px;"
                         f"text-align:center;vertical-align:top;font-size:11px;line-height:1.2'>{pic}<br>"
                         f"{role}{escape(tip)}{chip}</span>")
        if not parts:
            return ""
        hint = ""
        if phase == "choose":
            hint = ctx.t("Du würfelst: Nimm 2 Würfel. Klicke den Würfel an, den du zuerst nutzt (1. zuerst), "
                         "dann den, den du danach nutzt (2. dann).",
                         "You rolled: take 2 dice. Click the die you use first (1. first), then the one you "
                         "use then (2. then).")
            if picks:
                hint = ctx.t("Jetzt den Würfel anklicken, den du dann nutzt (2.). Nochmal auf den ersten: "
                             "Auswahl aufheben.",
                             "Now click the die you use then (2.). The first one again: undo.")
                if any(self._combine(ctx, picks[0], j) is not None for j in range(len(obs["dice"]))):
                    hint += " " + ctx.t(*COMBINE_TIP)
        elif phase == "take":
            hint = ctx.t("Nimm einen der übrigen Würfel: anklicken.", "Take one of the remaining dice: click it.")
        elif phase == "place":
            hint = ctx.t("Gestrichelt umrandete Felder („passt“): hier passt das Motiv. Feld anklicken = "
                         "Vorschau (gefüllt, durchgehend umrandet).",
                         "Cells with a dashed outline (“fits”): the motif fits there. Click a cell = preview "
                         "(filled, solid outline).")
        elif phase == "scratch":
            hint = ctx.t("Felder mit Punkt: diese kannst du als Nächstes freirubbeln.",
                         "Cells with a dot: you can scratch these next.")
        return (f"<div class='sp-dice-row' style='display:flex;align-items:flex-start;flex-wrap:wrap;gap:4px'>"
                f"{''.join(parts)}<span class='sp-dice-hint' style='font-size:13px;max-width:260px'>"
                f"{escape(hint)}</span></div>")

    @staticmethod
    def _combine(ctx, first: int, second: int):
        """The roller's choice that combines dice ``first`` and ``second`` (a pickaxe with a motif,
        in either order of clicking), if it is legal; else None."""
        dice = ctx.observation["dice"]
        if dice[second]["face"] == PICKAXE:
            action = Choose(first, second, True)
        else:
            action = Choose(second, first, True)
        return action if action in ctx.legal else None

    def buttons(self, ctx) -> list[dict]:
        obs = ctx.observation
        phase = obs["phase"]
        if phase == "take":
            return [{"token": f"a{i}", "label": ctx.t("nimm ", "take ") + _face(ctx, obs["dice"][a.die]["face"])}
                    for i, a in enumerate(ctx.legal)]
        if phase == "place":
            out = []
            if ctx.ui.get("preview"):
                # after a preview the player needs "place" next: the front-end moves the focus there
                out.append({"token": "confirm", "label": ctx.t("platzieren", "place"), "focus": True})
            if len(_shapes(self._pending(ctx)["face"], obs["reflect"])) > 1:
                out.append({"token": "rotate", "label": ctx.t("drehen ↻", "rotate ↻")})
            if ctx.ui.get("preview"):
                out.append({"token": "cancel", "label": ctx.t("Vorschau weg", "clear preview")})
            return out
        if phase == "scratch":
            return [{"token": f"c{a.cell}", "label": ctx.t(f"{cell_name(a.cell)} freirubbeln",
                                                          f"scratch {cell_name(a.cell)}")} for a in ctx.legal]
        return []  # choosing two dice: on the dice themselves

    def click(self, ctx, token: str):
        if not ctx.legal:
            return super().click(ctx, token)
        phase = ctx.observation["phase"]
        if phase == "take" and token.startswith("a"):
            return super().click(ctx, token)
        if phase in ("choose", "take") and token[:1] in "dk" and token[1:].isdigit():
            i = int(token[1:])
            if phase == "take":
                return Take(i) if Take(i) in ctx.legal else ctx.refuse(Take(i))
            picks = ctx.ui.setdefault("dice", [])
            if token[0] == "k":  # combine the die clicked first with this one
                if not picks:
                    return {"de": "Erst den ersten Würfel anklicken.", "en": "Click the first die first."}
                action = self._combine(ctx, picks[0], i)
                return action if action is not None else ctx.refuse(Choose(picks[0], i, True))
            if i in picks:
                picks.remove(i)
                return {"de": "Auswahl aufgehoben.", "en": "Choice undone."}
            if not picks:
                if not any(a.first == i for a in ctx.legal):
                    ctx.refuse(Choose(i, i, False))
                picks.append(i)
                face = ctx.observation["dice"][i]["face"]
                return {"de": f"1. zuerst: {face_name(face, 'de')}. Jetzt den Würfel anklicken, den du dann nutzt (2.).",
                        "en": f"1. first: {face_name(face, 'en')}. Now click the die you use then (2.)."}
            action = Choose(picks[0], i, False)
            return action if action in ctx.legal else ctx.refuse(action)
        if phase == "place" and token in ("rotate", "cancel", "confirm"):
            if token == "confirm":
                cells = ctx.ui.get("preview")
                if not cells:
                    return {"de": "Erst ein Feld anklicken (Vorschau).", "en": "Click a cell first (preview)."}
                return Place(tuple(cells))
            if token == "cancel":
                ctx.ui.pop("preview", None)
                return {"de": "Vorschau entfernt.", "en": "Preview cleared."}
            ctx.ui["rot"] = ctx.ui.get("rot", 0) + 1
            anchor = ctx.ui.get("anchor")
            if anchor is not None:
                cells, _ = self._preview(ctx, anchor)
                ctx.ui["preview"] = list(cells) if cells else None
            return {"de": "Motiv gedreht.", "en": "Motif rotated."}
        if token[:1] == "c" and token[1:].isdigit():
            c = int(token[1:])
            if phase == "scratch":
                return Scratch(c) if Scratch(c) in ctx.legal else ctx.refuse(Scratch(c))
            if phase == "place":
                step = ctx.ui.get("step", 0) + 1 if ctx.ui.get("anchor") == c else 0
                cells, shape = self._preview(ctx, c, step)
                if cells is None:  # the engine says why the motif does not fit here
                    ctx.refuse(Place(_over(c, shape)))
                ctx.ui.update(anchor=c, step=step, preview=list(cells))
                where = " ".join(cell_name(x) for x in cells)
                return {"de": f"Vorschau: {where}. „platzieren“ setzt das Motiv.",
                        "en": f"Preview: {where}. “place” puts the motif down."}
        return super().click(ctx, token)

    # --- words ------------------------------------------------------------------------------------
    def hidden_move(self, ctx, who) -> str:
        return ctx.t("Etwas wird auf einer Karte versteckt.", "Something is hidden on a map.")

    def explain(self, before, action, after) -> str:
        obs = after.observation
        old = before.observation["events"]
        new = obs["events"][len(old):]
        if obs["events"][:len(old)] != old:  # a new round began: this one's events moved on
            new = obs["last_events"][len(old):] + obs["events"]
        found = [self._found(after, e) for e in new if e["event"] == "scratch"]
        dice = before.observation["dice"]  # this round's (a new round rolls afresh)
        nowhere = [_face(after, dice[e["die"]]["face"]) for e in new if e["event"] == "no_fit"]
        lost = [_face(after, dice[e["die"]]["face"]) for e in new if e["event"] == "lost"]
        if not isinstance(action, (Place, Scratch, Choose, Take)):
            return action.label(after.lang) + "."
        text = describe(action, before.observation, after.lang)
        if found:
            text += ": " + ", ".join(found)
        if lost:
            text += after.t(" – 2. Würfel verfällt: ", " – 2nd die lost: ") + ", ".join(lost)
        if nowhere:
            text += after.t(" – passt nirgends: ", " – fits nowhere: ") + ", ".join(nowhere)
        return text + "."

    def _found(self, ctx, e) -> str:
        f, c = e["found"], cell_name(e["cell"])
        if "chest" in e:
            return ctx.t(f"{c} Truhe {COLOUR_NAMES[e['chest']][0]} geöffnet", f"{c} {e['chest']} chest opened")
        if f == "S":
            return ctx.t(f"{c} Schlange – Zug vorbei", f"{c} snake – turn over")
        if f in "BRGY":
            col = {"B": "blue", "R": "red", "G": "green", "Y": "yellow"}[f]
            return ctx.t(f"{c} Schlüssel {COLOUR_NAMES[col][0]}", f"{c} {col} key")
        if f.isdigit():
            t = TREASURES[int(f) - 1]
            return f"{c} {t[ctx.lang]}"
        return ctx.t(f"{c} leer", f"{c} empty")

    def status(self, ctx, whose_turn) -> str:
        obs = ctx.observation
        if obs["round"] == 0:
            return ctx.t("Die Schatzkarten werden gedruckt und die Schätze versteckt …",
                         "The treasure maps are printed and the treasures hidden …")
        who = ctx.names[whose_turn] if whose_turn is not None else "–"
        roller = ctx.names[obs["roller"]]
        left = obs["rounds_left"]
        if left == 0:
            end = ctx.t(" · letzte Runde", " · last round")
        elif obs["end_triggered"]:
            end = ctx.t(f" · 4. Truhe offen: noch {left} Runde{'n' if left > 1 else ''}, bis alle gleich oft "
                        "gewürfelt haben",
                        f" · 4th chest open: {left} more round{'s' if left > 1 else ''} until everyone has rolled "
                        "equally often")
        else:
            end = ""
        return ctx.t(f"Runde {obs['round']} · würfelt: {roller} · am Zug: {who}{end}",
                     f"Round {obs['round']} · roller: {roller} · to play: {who}{end}")

    def scores(self, ctx, totals) -> dict:
        maps = ctx.observation["maps"]
        rows = [[ctx.t("Schlüssel", "keys"), *[" ".join(_colour(ctx, k) for k in m["keys"]) or "–" for m in maps]],
                [ctx.t("Truhen", "chests"), *[str(m["score"] - m["set_points"]) for m in maps]],
                [ctx.t("Schatz-Sets", "treasure sets"), *[str(m["set_points"]) for m in maps]],
                [ctx.t("Summe", "Total"), *[str(m["score"]) for m in maps]]]
        return {"title": ctx.t("Wertung", "Scoring"), "headers": ["", *ctx.names], "rows": rows, "highlight": 3}

    def extra(self, ctx) -> str:
        obs = ctx.observation
        me = ctx.viewer if ctx.viewer is not None else (obs["to_move"] if obs["to_move"] is not None else 0)
        first = obs["sets_first"]
        head = "".join(f"<th title='{escape(t[ctx.lang])}'>{SYMBOLS[k]} {escape(t[ctx.lang])} "
                       f"({t['points']})</th>" for k, t in enumerate(TREASURES))
        rows = []
        for p, m in enumerate(obs["maps"]):
            cells = []
            for k, t in enumerate(TREASURES):
                mark = " ★" if first[k] == p else (" ✗" if first[k] is not None else "")
                cells.append(f"<td>{m['track'][k]}/{t['symbols']}{mark}</td>")
            rows.append(f"<tr><td>{escape(ctx.names[p])}</td>{''.join(cells)}</tr>")
        parts = [f"<div class='sp-track'><b>{ctx.t('Schatzleiste', 'Treasure track')}</b> "
                 f"<span style='font-size:12px'>{ctx.t('★ zuerst vollständig (zählt), ✗ zu spät', '★ complete first (scores), ✗ too late')}</span>"
                 f"<table class='sp-track-table'><tr><th></th>{head}</tr>{''.join(rows)}</table></div>",
                 f"<div class='sp-note'><i>{ctx.t('Würfel, Motive und Karten: Rekonstruktion', 'Dice, motifs and maps: reconstruction')}</i>"
                 f" · <svg width='16' height='14' viewBox='0 0 16 16' aria-hidden='true'>{snake_path(0, 0, 16)}</svg> "
                 f"{ctx.t('Schlange, ⚷ Schlüssel, ✕ rotes Kreuz, ', 'snake, ⚷ key, ✕ red cross, ')}"
                 f"<svg width='16' height='14' viewBox='0 0 16 16' aria-hidden='true'>{rock_path(0, 0, 16)}</svg> "
                 f"{ctx.t('Fels, Balken: Wand', 'rock, bar: wall')}"
                 f", {' '.join(f'{SYMBOLS[k]} {escape(t[ctx.lang])}' for k, t in enumerate(TREASURES))}"
                 f" · {ctx.t('gestrichelt: passt, gefüllt: Vorschau, Punkt: als Nächstes', 'dashed: fits, filled: preview, dot: next')}"
                 "</div>"]
        for p, m in enumerate(obs["maps"]):
            if p == me or m["layout"] is None:
                continue
            # too small to read cell by cell: one image with a summary, and the keys and chests in words;
            # on the projector at a size the back row reads (its smallest text 18 px)
            summary = map_summary(m, ctx.names[p], ctx.lang)
            pic = map_svg(m, cell=54 if ctx.projector else 13, lang=ctx.lang, title=f"{ctx.names[p]}: {m['score']}",
                          edges=False, summary=summary, big_words=ctx.projector)
            keys = ", ".join(_colour(ctx, k) for k in m["keys"]) or "–"
            opened = ", ".join(_colour(ctx, k) for k in m["opened"]) or "–"
            caption = ctx.t(f"Schlüssel: {keys} · Truhen offen: {opened}", f"keys: {keys} · chests open: {opened}")
            size = 18 if ctx.projector else 12
            parts.append(f"<div class='sp-other-map' data-player='{p}' style='display:inline-block;margin:4px 8px 4px 0;"
                         f"vertical-align:top'>{pic}<div class='sp-other-caption' aria-hidden='true' "
                         f"style='font-size:{size}px;max-width:{'none' if ctx.projector else '140px'}'>{escape(caption)}"
                         f"</div></div>")
        return "".join(parts)

    def advice_columns(self, game) -> list[dict]:
        return [{"settings": {}, "kind": "points",
                 "title": {"de": "Wert (Punkte + Fortschritt)", "en": "value (points + progress)"},
                 "unit": {"de": "Punkte", "en": "points"}}]

    def option_label(self, ctx, action) -> str:
        return describe(action, ctx.observation, ctx.lang)


def _norm(cells) -> tuple:
    r0, c0 = min(c // SIZE for c in cells), min(c % SIZE for c in cells)
    return tuple(sorted((c // SIZE - r0, c % SIZE - c0) for c in cells))


def _over(cell: int, shape) -> tuple:
    """``shape`` laid over ``cell`` (one of its squares on it), inside the map where it can be."""
    r, k = divmod(cell, SIZE)
    for ar, ac in shape:
        spots = [(r - ar + dr, k - ac + dc) for dr, dc in shape]
        if all(0 <= a < SIZE and 0 <= b < SIZE for a, b in spots):
            return tuple(sorted(a * SIZE + b for a, b in spots))
    return (cell,)


def _colour(ctx, colour: str) -> str:
    return COLOUR_NAMES[colour][0] if ctx.de else colour

