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
    CELLS, COLOUR_NAMES, PICKAXE, SHAPES, SIZE, TREASURES, Choose, Place, Scratch, Take, cell_name,
    describe, face_name,
)

PAPER, SAND, SILVER, ROCK = "#f3e3b5", "#fff6dc", "#b9bec4", "#8d8479"
CHEST = {"blue": "#3b6fd8", "red": "#d64541", "green": "#2e9b4f", "yellow": "#e7b416"}
DIE_EDGE = {"blue": "#3b6fd8", "orange": "#e67e22", "yellow": "#d4a20a"}
PREVIEW, NEXT, FIT = "#2f6fd6", "#1e9e3a", "#e67e22"
SYMBOLS = "◆●▲♛"  # treasure kinds 1..4 as drawn on a scratched cell
LETTERS = "ABCDEFGHIJ"
# the words the dice carry (the how-to box uses the same)
ROLE = {"first": ("1. zuerst", "1. first"), "then": ("2. dann", "2. then"), "now": ("jetzt", "now")}
COMBINE = ("kombinieren", "combine")
COMBINE_TIP = ("„kombinieren“: Spitzhacke und Motiv als ein Motiv, in dem ein Feld ein Fels sein darf.",
               "“combine”: pickaxe and motif as one motif in which one cell may be a rock.")


def _shapes(face: str, reflect: bool) -> list:
    return [((0, 0),)] if face == PICKAXE else [s for s, _ in SHAPES[reflect][face]]


def motif_svg(face, size: int = 46, colour: str = "blue", state: str = "free", act: str | None = None,
              selected: bool = False, shape=None, title: str = "", picked: bool = False) -> str:
    """One die as a picture: its motif's squares (a pickaxe as a pick), the die colour as its edge;
    greyed when taken or lost; ``act``: the click token; ``picked``: the roller's first choice."""
    muted = state != "free"
    fill = "#ddd" if muted else ("#fff1c9" if selected else "#fffdf5")
    edge = "#999" if muted else DIE_EDGE.get(colour, "#333")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" '
           f'class="sp-die" data-face="{escape(str(face))}" data-state="{escape(state)}"'
           + (f' data-act="{act}" style="cursor:pointer"' if act else "") + (' data-picked="1"' if picked else "")
           + f' role="img" aria-label="{escape(title or str(face))}">',
           f'<title>{escape(title)}</title>' if title else "",
           f'<rect x="2" y="2" width="{size - 4}" height="{size - 4}" rx="7" fill="{fill}" stroke="{edge}" '
           f'stroke-width="{4 if selected else 3}"/>']
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
        q = (size - 14) / max(span, 2)
        h, w = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
        ox, oy = (size - w * q) / 2, (size - h * q) / 2
        for r, c in cells:
            out.append(f'<rect x="{ox + c * q:.1f}" y="{oy + r * q:.1f}" width="{q:.1f}" height="{q:.1f}" '
                       f'fill="{ink}" stroke="{fill}" stroke-width="1.5"/>')
    out.append("</svg>")
    return "".join(out)


def cell_label(m: dict, c: int, lang: str, mark: str | None = None) -> str:
    """A cell as a screen reader says it, from the map the viewer sees: its name, what is printed
    there, what was scratched free, and its mark ("E8: rotes Kreuz, noch nicht gerubbelt, passt")."""
    de = lang == "de"
    lay = m["layout"]
    t, f = "".join(lay["terrain"])[c], "".join(m["found"])[c]
    points = {d["cell"]: d["points"] for d in lay["chests"]}
    parts = []
    if t == "A":
        parts.append("Boot" if de else "boat")
    elif t in "brgy":
        col = {"b": "blue", "r": "red", "g": "green", "y": "yellow"}[t]
        parts.append(f"Truhe {COLOUR_NAMES[col][0]}, {points[c]} Punkte" if de else f"{col} chest, {points[c]} points")
    elif t == "x":
        parts.append("rotes Kreuz" if de else "red cross")
    elif t == "#":
        parts.append("Fels" if de else "rock")
    if f == "?":
        if t != "#":
            parts.append("noch nicht gerubbelt" if de else "not scratched yet")
    elif f == "S":
        parts.append("Schlange" if de else "snake")
    elif f in "BRGY":
        col = {"B": "blue", "R": "red", "G": "green", "Y": "yellow"}[f]
        parts.append(f"Schlüssel {COLOUR_NAMES[col][0]}" if de else f"{col} key")
    elif f.isdigit():
        parts.append(TREASURES[int(f) - 1][lang])
    else:
        parts.append("gerubbelt, leer" if de else "scratched, empty")
    if mark is not None:
        parts.append({PREVIEW: ("Vorschau", "preview"), FIT: ("passt", "fits"),
                      NEXT: ("als Nächstes rubbeln", "scratch next")}.get(mark, ("", ""))[0 if de else 1])
    return f"{cell_name(c)}: " + ", ".join(p for p in parts if p)


def map_svg(m: dict, cell: int = 44, lang: str = "de", marks: dict | None = None, clickable=(),
            title: str | None = None, edges: bool = True) -> str:
    """One map of the observation (``maps[i]``) as a complete ``<svg>``. ``marks``: cell -> colour
    (a preview, the cells to scratch next); ``clickable``: cells that carry ``data-act`` and a name
    for screen readers (``cell_label``)."""
    lay, found = m["layout"], "".join(m["found"])
    terrain = "".join(lay["terrain"])
    east, south = "".join(lay["walls_east"]), "".join(lay["walls_south"])
    points = {d["cell"]: d["points"] for d in lay["chests"]}
    marks, clickable = marks or {}, set(clickable)
    left = round(cell * 0.6) if edges else 2
    top = (round(cell * 0.55) if edges else 2) + (round(cell * 0.6) if title else 0)
    w, h = left + SIZE * cell + 3, top + SIZE * cell + 3
    name = title or ("Schatzkarte" if lang == "de" else "treasure map")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           f'font-family="sans-serif" role="img" aria-label="{escape(name)}" class="sp-map">']
    if title:
        out.append(f'<text x="2" y="{round(cell * 0.5)}" font-size="{round(cell * 0.45)}" font-weight="bold">'
                   f'{escape(title)}</text>')
    fs = round(cell * 0.42)
    if edges:
        for i in range(SIZE):
            out.append(f'<text x="{left + i * cell + cell / 2}" y="{top - 4}" font-size="{fs}" text-anchor="middle" '
                       f'fill="#555">{LETTERS[i]}</text><text x="{left - 3}" y="{top + i * cell + cell * .65:.1f}" '
                       f'font-size="{fs}" text-anchor="end" fill="#555">{i + 1}</text>')
    for c in range(CELLS):
        r, k = divmod(c, SIZE)
        x, y = left + k * cell, top + r * cell
        t, f = terrain[c], found[c]
        scratched = f != "?"
        fill = SAND if scratched else (ROCK if t == "#" else SILVER)
        act = (f' data-act="c{c}" style="cursor:pointer" aria-label="{escape(cell_label(m, c, lang, marks.get(c)))}"'
               if c in clickable else "")
        out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#8c7b5a" '
                   f'stroke-width="0.6" class="sp-cell" data-cell="{c}" data-scratched="{int(scratched)}"{act}/>')
        cx, cy = x + cell / 2, y + cell / 2
        g = ' pointer-events="none"'
        if t == "A":
            out.append(f'<path d="M{x + cell * .15} {y + cell * .55} L{x + cell * .85} {y + cell * .55} L{x + cell * .7} '
                       f'{y + cell * .8} L{x + cell * .3} {y + cell * .8} Z M{cx} {y + cell * .55} L{cx} {y + cell * .15} '
                       f'L{x + cell * .75} {y + cell * .45} L{cx} {y + cell * .45}" fill="#8b5a2b" stroke="#5a3d1e"{g}/>')
        elif t in "brgy":
            col = {"b": "blue", "r": "red", "g": "green", "y": "yellow"}[t]
            out.append(f'<rect x="{x + cell * .14}" y="{y + cell * .22}" width="{cell * .72}" height="{cell * .56}" '
                       f'rx="3" fill="{CHEST[col]}" stroke="#333" stroke-width="{1.5 if not scratched else 3}"{g}/>'
                       f'<text x="{cx}" y="{cy + fs * .35:.1f}" font-size="{fs}" text-anchor="middle" fill="#fff" '
                       f'font-weight="bold"{g}>{points[c]}</text>')
        elif t == "x":
            d = cell * .3
            out.append(f'<path d="M{cx - d} {cy - d} L{cx + d} {cy + d} M{cx + d} {cy - d} L{cx - d} {cy + d}" '
                       f'stroke="#d11" stroke-width="{cell * .1:.1f}" opacity="{0.35 if scratched else 1}"{g}/>')
        elif t == "#":
            out.append(f'<path d="M{x + cell * .15} {y + cell * .8} L{x + cell * .35} {y + cell * .3} L{x + cell * .6} '
                       f'{y + cell * .2} L{x + cell * .85} {y + cell * .8} Z" fill="#5f574e"{g}/>')
        if f == "S":
            out.append(snake_path(x, y, cell))
        elif scratched and f not in ".-":
            if f in "BRGY":
                text, colour = "⚷", CHEST[{"B": "blue", "R": "red", "G": "green", "Y": "yellow"}[f]]
            else:
                text, colour = SYMBOLS[int(f) - 1], "#b8860b"
            out.append(f'<text x="{cx}" y="{cy + cell * .2:.1f}" font-size="{round(cell * .6)}" text-anchor="middle" '
                       f'fill="{colour}" font-weight="bold" class="sp-found" data-found="{f}"{g}>{text}</text>')
        if c in marks:
            # the preview is filled (the motif as it would lie), the other marks are outlines
            fill = f'fill="{marks[c]}" fill-opacity="0.45"' if marks[c] == PREVIEW else 'fill="none"'
            out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" {fill} '
                       f'stroke="{marks[c]}" stroke-width="3" class="sp-mark"{g}/>')
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


def snake_path(x: float, y: float, cell: float, colour: str = "#1d7a1d") -> str:
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
    howto = {
        "de": {"title": "Scratch Island",
               "goal": "Die meisten Punkte gewinnen. Punkte bringen die vier Truhen in den Ecken (die Zahl auf "
                       "der Truhe) und die Schatzarten der Schatzleiste: Wer als Erste alle Symbole einer "
                       "Schatzart findet, bekommt deren Punkte. Höchstens 30 Punkte.",
               "turn": [
                   "Alle rubbeln auf der eigenen Schatzkarte einen Weg frei, der am Boot beginnt. Was unter "
                   "einem silbernen Feld liegt, sieht niemand, bevor es freigerubbelt ist – auch du nicht.",
                   "Eine Runde: Wer würfelt, nimmt 2 Würfel – zuerst den Würfel anklicken, den du zuerst "
                   "nutzt („1. zuerst“), dann den zweiten („2. dann“). Danach nehmen die anderen im "
                   "Uhrzeigersinn je einen der übrigen Würfel (anklicken); zu zweit bleibt ein Würfel liegen. "
                   "Die nächste Runde würfelt die nächste Person.",
                   "Ein Würfel zeigt ein Motiv (Felder in einer Form) oder die Spitzhacke. Ein Motiv wird ganz "
                   "oder gar nicht freigerubbelt: alle Felder auf der Karte und noch nicht freigerubbelt, "
                   "kein Fels darunter und keine Wand zwischen seinen Feldern. Drehen ist erlaubt.",
                   "Ein Feld des Motivs muss an deinen Weg grenzen, ohne Wand dazwischen; dein erstes Motiv "
                   "muss das Boot abdecken. Passt das Motiv nirgends, ist der Würfel ohne Wirkung verbraucht.",
                   "Platzieren: ein orange umrandetes Feld anklicken zeigt eine Vorschau, „drehen“ dreht das "
                   "Motiv, „platzieren“ setzt es.",
                   "Dann rubbelst du Feld für Feld frei, jedes an deinem Weg; die Reihenfolge wählst du "
                   "(grün markiert). Eine Schlange beendet deinen Zug sofort: der Rest des Motivs und dein "
                   "2. Würfel verfallen. Was du vorher gefunden hast, zählt.",
                   "Spitzhacke allein: ein Feld an deinem Weg freirubbeln, auch einen Fels. Spitzhacke mit "
                   "einem Motiv (nur wer würfelt, hat 2 Würfel): „kombinieren“ – dann darf ein Feld des "
                   "Motivs ein Fels sein.",
                   "Unter 4 der 6 roten Kreuze liegt je ein Schlüssel. Eine Truhe lässt sich nur mit dem "
                   "Schlüssel ihrer Farbe freirubbeln; dann ist sie offen und bringt ihre Punkte.",
                   "Schatzsymbole kommen auf die Schatzleiste. Wer alle Symbole einer Schatzart als Erste hat, "
                   "bekommt ihre Punkte (★); wer sie später vollständig hat, bekommt 0 (✗).",
                   "{end}",
                   "Wertung: Punkte der offenen Truhen plus Punkte der Schatzarten. Bei Gleichstand gewinnt, "
                   "wer zuerst alle 4 Truhen geöffnet hat; sonst teilen sich die Punktgleichen den Sieg.",
               ]},
        "en": {"title": "Scratch Island",
               "goal": "The most points win. Points come from the four chests in the corners (the number on the "
                       "chest) and from the kinds of treasure on the treasure track: whoever is first to find "
                       "all symbols of a kind gets its points. At most 30 points.",
               "turn": [
                   "Everyone scratches a path on their own treasure map, starting at the boat. Nobody sees "
                   "what lies under a silver cell before it is scratched – you neither.",
                   "A round: the roller takes 2 dice – first click the die you use first (“1. first”), then "
                   "the second (“2. then”). Then, clockwise, each other player takes one of the remaining dice "
                   "(click it); with two players one die stays unused. The next player rolls the next round.",
                   "A die shows a motif (cells in a shape) or the pickaxe. A motif is scratched whole or not "
                   "at all: all its cells on the map and not yet scratched, no rock under it and no wall "
                   "between its cells. Turning it is allowed.",
                   "One cell of the motif must touch your path, with no wall between; your first motif must "
                   "cover the boat. If the motif fits nowhere, the die is used up with no effect.",
                   "Placing: clicking a cell outlined in orange shows a preview, “rotate” turns the motif, "
                   "“place” puts it down.",
                   "Then you scratch cell by cell, each next to your path; you choose the order (marked "
                   "green). A snake ends your turn at once: the rest of the motif and your 2nd die are lost. "
                   "What you found before counts.",
                   "Pickaxe alone: scratch one cell next to your path, even a rock. Pickaxe with a motif "
                   "(only the roller has 2 dice): “combine” – then one cell of the motif may be a rock.",
                   "A key lies under 4 of the 6 red crosses. A chest can only be scratched with the key of "
                   "its colour; then it is open and scores its points.",
                   "Treasure symbols go onto the treasure track. Whoever is first to have all symbols of a "
                   "kind gets its points (★); whoever completes it later gets 0 (✗).",
                   "{end}",
                   "Scoring: points of the open chests plus points of the treasure kinds. A tie goes to "
                   "whoever was first to open all 4 chests; otherwise the tied players share the win.",
               ]},
    }
    # D9: the end as the table's option ``end`` has it
    howto_end = {
        "all_rolled": ("Spielende: Wer die 4. Truhe öffnet, nutzt noch die eigenen Würfel; dann wird "
                       "weitergespielt, bis alle gleich oft gewürfelt haben (die Runde ist abgeschlossen). "
                       "Dann ist das Spiel vorbei.",
                       "End: whoever opens their 4th chest still uses their dice; play goes on until everyone "
                       "has rolled equally often (the round is finished). Then the game is over."),
        "this_roll": ("Spielende: Wer die 4. Truhe öffnet, nutzt noch die eigenen Würfel; die anderen nehmen "
                      "noch ihren Würfel aus diesem Wurf. Dann ist das Spiel vorbei.",
                      "End: whoever opens their 4th chest still uses their dice; the others still take their "
                      "die of this roll. Then the game is over."),
    }

    def how_to(self, game, lang: str) -> dict | None:
        box = self.howto.get(lang)
        if box is None:
            return None
        de, en = self.howto_end[game.options["end"]]
        end = de if lang == "de" else en
        cap = game.options["rounds"]
        if cap:
            end += (f" Diese Partie endet spätestens nach Runde {cap}." if lang == "de"
                    else f" This game ends after round {cap} at the latest.")
        return {**box, "turn": [end if step == "{end}" else step for step in box["turn"]]}

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
        marks, clickable = {}, ()
        if phase == "place":
            fit = {c for a in ctx.legal for c in a.cells}
            marks = {c: FIT for c in fit}
            clickable = fit
            for c in ctx.ui.get("preview") or ():
                marks[c] = PREVIEW
        elif phase == "scratch":
            marks = {c: PREVIEW for c in obs["placement"]}
            nxt = [a.cell for a in ctx.legal]
            marks.update({c: NEXT for c in nxt})
            clickable = nxt
        svg = map_svg(m, lang=ctx.lang, marks=marks, clickable=clickable)
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
            pic = motif_svg(d["face"], colour=d["colour"], state="free" if i in order else state, act=act,
                            selected=i in picks or now, shape=shape, title=tip, picked=i in picks)
            role = ""
            if i in picks:
                role = ROLE["first"]
            elif i in order:
                role = ROLE["now" if now else "then"]
            role = f"<b class='sp-die-role'>{escape(ctx.t(*role))}</b><br>" if role else ""
            chip = ""
            if picks and act and i not in picks and self._combine(ctx, picks[0], i) is not None:
                chip = (f"<br><span class='sp-die-chip' data-act='k{i}' role='button' title='"
                        f"{escape(ctx.t(*COMBINE_TIP))}' style='display:inline-block;margin-top:2px;padding:1px 5px;"
                        f"border:2px solid {FIT};border-radius:9px;background:#fff3e0;font-weight:bold'>"
                        f"{escape(ctx.t(*COMBINE))}</span>")
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
            hint = ctx.t("Orange umrandete Felder: hier passt das Motiv. Feld anklicken = Vorschau.",
                         "Cells outlined in orange: the motif fits there. Click a cell = preview.")
        elif phase == "scratch":
            hint = ctx.t("Grün markiert: diese Felder kannst du als Nächstes freirubbeln.",
                         "Marked green: you can scratch these cells next.")
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
                out.append({"token": "confirm", "label": ctx.t("platzieren", "place")})
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
                 f" · <svg width='16' height='14' viewBox='0 0 16 16'>{snake_path(0, 0, 16)}</svg> "
                 f"{ctx.t('Schlange, ⚷ Schlüssel, ✕ rotes Kreuz, ▲ Fels, Balken: Wand', 'snake, ⚷ key, ✕ red cross, ▲ rock, bar: wall')}"
                 f", {' '.join(f'{SYMBOLS[k]} {escape(t[ctx.lang])}' for k, t in enumerate(TREASURES))}</div>"]
        for p, m in enumerate(obs["maps"]):
            if p == me or m["layout"] is None:
                continue
            # on the projector at a size the back row reads (its smallest text 18 px)
            pic = map_svg(m, cell=44 if ctx.projector else 13, lang=ctx.lang, title=f"{ctx.names[p]}: {m['score']}",
                          edges=False)
            parts.append(f"<div class='sp-other-map' data-player='{p}' style='display:inline-block;margin:4px 8px 4px 0'>"
                         f"{pic}</div>")
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

