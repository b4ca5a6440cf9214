"""Scratch Island: the numbers and pictures the lesson needs (exact counts, the generator's own samples).

Everything starts from the printed map and what is visible, as the analysis does: chances are
counts of what is still hidden (``analysis.MapView``); samples come from the generator's own chance
events (``ScratchIslandState.sample_chance`` while it hides a map's items). Maps, dice and the
generator's parameters are the project's reconstruction (``scratch_island.json``).
"""

from __future__ import annotations

import base64
from fractions import Fraction
from html import escape
from math import comb

from ...core.errors import SpieltischError
from ...core.rng import Rng
from ...lesson.pictures import Picture, side_by_side
from .analysis import MapView, snake_chance
from .engine import (
    DATA, KEY_CHAR, PICKAXE, SIZE, SNAKE, TREASURE_CHARS, Booklet, Layout, ScratchIsland, cell_name, face_name,
    orientations,
)
from .view import PREVIEW, map_svg, motif_svg


def start_view(page: int, seat: int = 0, players: int = 2, seed: int = 0) -> MapView:
    """``seat``'s map on booklet page ``page`` as everybody sees it before the first roll: printed,
    nothing scratched (the generator hid the items with ``seed``; the view does not read them)."""
    state = ScratchIsland(players).new_initial_state()
    state._apply(Booklet(page))
    rng = Rng(seed)
    while state.phase == "hide":
        state._apply(state.sample_chance(rng))
    return MapView.of(state.observation(seat), seat)


def cell(name: str) -> int:
    """"A1" -> 0, "J10" -> 99 (column letter, row number)."""
    col = "ABCDEFGHIJ".index(name[0].upper())
    row = int(name[1:]) - 1
    if not 0 <= row < SIZE:
        raise SpieltischError(f"no cell {name!r}")
    return row * SIZE + col


def near(layout: Layout, centre: int, reach: int) -> dict:
    """What is printed within ``reach`` steps of ``centre`` (steps along rows and columns, as a motif
    grows from the boat): rocks, crosses and chests (cell names) and walls (pairs of neighbouring cells
    with a wall between them, both within reach). What a student needs to count the placements over
    the boat by hand."""
    cr, cc = divmod(centre, SIZE)
    inside = [c for c in range(SIZE * SIZE) if abs(c // SIZE - cr) + abs(c % SIZE - cc) <= reach]
    within = set(inside)
    walls = []
    for c in inside:
        for b in (c + 1, c + SIZE):  # east and south: each wall once
            if b in within and (b == c + SIZE or b % SIZE) and not layout.nbr[c] >> b & 1:
                walls.append((cell_name(c), cell_name(b)))
    return {"rocks": [cell_name(c) for c in inside if layout.rocks >> c & 1],
            "crosses": [cell_name(c) for c in inside if layout.cross_mask >> c & 1],
            "chests": [cell_name(c) for c in inside if c in layout.chests],
            "walls": walls}


# --- question 1: how many ways does a motif fit over the boat? ----------------------------------------
def boat_covers(layout: Layout, face: str, reflect: bool = False) -> dict:
    """Every way to lay ``face`` over the boat on an empty map, as a student counts them: each
    orientation with each of its cells on the boat. For each try its cells and why it is not legal
    ("" when legal; "off" off the map, "rock", "chest", "wall" between two of its cells); checked
    independently of ``engine.placements``, which the tests compare. ``legal``/``total`` count them."""
    if face == PICKAXE:
        raise SpieltischError("the pickaxe has no motif")
    br, bc = divmod(layout.boat, SIZE)
    tries = []
    for k, shape in enumerate(orientations(face, reflect)):
        for dr, dc in shape:
            spots = [(br - dr + r, bc - dc + c) for r, c in shape]
            if any(not (0 <= r < SIZE and 0 <= c < SIZE) for r, c in spots):
                tries.append({"orientation": k, "on_boat": (dr, dc), "cells": None, "why": "off"})
                continue
            cells = tuple(sorted(r * SIZE + c for r, c in spots))
            why = ""
            if any(layout.rocks >> c & 1 for c in cells):
                why = "rock"
            elif any(c in layout.chests for c in cells):
                why = "chest"
            else:
                for i, a in enumerate(cells):
                    for b in cells[i + 1:]:
                        ra, ca = divmod(a, SIZE)
                        rb, cb = divmod(b, SIZE)
                        if abs(ra - rb) + abs(ca - cb) == 1 and not layout.nbr[a] >> b & 1:
                            why = "wall"
            tries.append({"orientation": k, "on_boat": (dr, dc), "cells": cells, "why": why})
    legal = sum(1 for t in tries if not t["why"])
    return {"face": face, "orientations": len(orientations(face, reflect)), "tries": tries,
            "legal": legal, "total": len(tries), "share": Fraction(legal, len(tries))}


def random_tries(layout: Layout, face: str, n: int, seed: int, reflect: bool = False) -> list:
    """Simulation: ``n`` times one of the tries of ``boat_covers`` at random (uniformly, the
    project's ``Rng``); 1 where the try is a legal placement, else 0."""
    tries = boat_covers(layout, face, reflect)["tries"]
    rng = Rng(seed)
    return [0 if tries[rng.below(len(tries))]["why"] else 1 for _ in range(n)]


# --- question 2: snakes as you dig further --------------------------------------------------------------
def snake_steps(view: MapView, cells) -> list:
    """The tree of digging ``cells`` one after the other (plain, unscratched cells): for each step
    the chance of a snake under the next cell given that none was under the cells before (the
    counts of what is still hidden, ``view.after``: plain cells left, snakes left, cells left
    without a snake), and the chance that all cells so far were free."""
    out = []
    free = Fraction(1)
    for i, c in enumerate(cells):
        if c not in view.layout.plain or view.scratched >> c & 1:
            raise SpieltischError(f"{cell_name(c)} is not an unscratched plain cell")
        v = view.after(cells[:i])
        p = Fraction(v.snakes_left, v.plain_left)
        free *= 1 - p
        out.append({"cell": cell_name(c), "snake": p, "all_free": free, "plain_left": v.plain_left,
                    "snakes_left": v.snakes_left, "free_left": v.plain_left - v.snakes_left})
    return out


def dig_order(view: MapView) -> list:
    """The unscratched plain cells nearest the boat first (ties: by row, then column): a long dig."""
    b = view.layout.boat
    cells = [c for c in view.layout.plain if not view.scratched >> c & 1]
    return sorted(cells, key=lambda c: (abs(c // SIZE - b // SIZE) + abs(c % SIZE - b % SIZE), c))


def safe_cells(view: MapView, cells) -> dict:
    """Digging ``cells`` in this order until the first snake: the exact distribution of the number
    of cells dug before the first snake (``len(cells)`` when there is none), its mean and variance."""
    dist = {}
    before = Fraction(1)  # P(the first j cells are free)
    for j in range(len(cells) + 1):
        after = 1 - snake_chance(view, cells[:j + 1]) if j < len(cells) else Fraction(0)
        dist[j] = before - after
        before = after
    mean = sum(j * p for j, p in dist.items())
    return {"distribution": dist, "mean": mean, "variance": sum(j * j * p for j, p in dist.items()) - mean * mean}


def snake_count(view: MapView, cells) -> dict:
    """How many snakes lie under ``cells`` (unscratched plain cells), exactly: the hypergeometric
    distribution {k: C(s, k)·C(u − s, m − k) / C(u, m)} (u plain cells left, s snakes left, m cells),
    its mean m·s/u (the sum of the cells' single chances, ``single`` each), the tails P(X ≥ k) for
    k ≥ 1 (``at_least``; their sum is the mean: a map with k snakes under the cells counts k times)
    and, for comparison, what P(at least one) would be if every cell hid a snake independently with
    s/u, as when drawing with replacement (``independent``)."""
    m = len(cells)
    for c in cells:
        if c not in view.layout.plain or view.scratched >> c & 1:
            raise SpieltischError(f"{cell_name(c)} is not an unscratched plain cell")
    if len(set(cells)) != m:
        raise SpieltischError("a cell is named twice")
    u, s = view.plain_left, view.snakes_left
    dist = {k: Fraction(comb(s, k) * comb(u - s, m - k), comb(u, m)) for k in range(min(s, m) + 1)}
    tails = {k: sum(p for j, p in dist.items() if j >= k) for k in range(1, len(dist))}
    return {"distribution": dist, "mean": sum(k * p for k, p in dist.items()), "at_least_one": 1 - dist[0],
            "at_least": tails, "single": Fraction(s, u), "independent": 1 - (1 - Fraction(s, u)) ** m}


def hidden_samples(page: int, seat: int, n: int, seed: int, players: int = 2, empty=()) -> list:
    """The generator's own chance events, again and again: ``n`` hidden contents of ``seat``'s map
    on page ``page`` (one character per cell: "S" snake, "1".."4" treasure, "B" "R" "G" "Y" key,
    "." or "-" nothing). With ``empty``, only the maps with nothing under those cells are kept
    (the generator's law given that they were scratched and showed nothing)."""
    start = ScratchIsland(players).new_initial_state()
    start._apply(Booklet(page))
    rng = Rng(seed)
    out = []
    while len(out) < n:
        st = start.clone()
        while st.phase == "hide" and st.hide_seat <= seat:
            st._apply(st.sample_chance(rng))
        content = st.content[seat]
        if all(content[c] in ".-" for c in empty):
            out.append(content)
    return out


def dig(content: str, cells) -> dict:
    """Digging ``cells`` in this order on a map whose hidden content is ``content``: what is found
    before the turn ends (keys, treasure symbols), how many cells were dug, whether a snake ended it."""
    keys = symbols = dug = 0
    for c in cells:
        dug += 1
        got = content[c]
        if got == SNAKE:
            return {"keys": keys, "symbols": symbols, "dug": dug, "snake": True}
        keys += got in KEY_CHAR.values()
        symbols += got in TREASURE_CHARS
    return {"keys": keys, "symbols": symbols, "dug": dug, "snake": False}


# --- question 3: the order of the cells ---------------------------------------------------------------
def order_report(view: MapView, order) -> dict:
    """Scratching a placement's cells in ``order``: for each cell the chance to get there (no
    snake under the plain cells before it), the expected keys and treasure symbols found there in
    that order, and the totals, exactly. Keys lie under crosses only, snakes and treasure symbols
    under plain cells only (the generator), so a cross first is reached for sure."""
    lay = view.layout
    u, s = view.plain_left, view.snakes_left
    treasure = sum(view.treasure_left)
    key_share = Fraction(len(view.keys_left), view.crosses_left) if view.crosses_left else Fraction(0)
    rows = []
    j = 0  # plain cells before
    for c in order:
        if view.scratched >> c & 1:
            raise SpieltischError(f"{cell_name(c)} is already scratched")
        reach = Fraction(comb(u - j, s), comb(u, s))  # the s snakes all under other plain cells
        row = {"cell": cell_name(c), "reach": reach, "keys": Fraction(0), "symbols": Fraction(0)}
        if lay.cross_mask >> c & 1:
            row["keys"] = reach * key_share  # keys and snakes lie under different cells: independent
        elif c in lay.plain:
            # a symbol under c and no snake under the j plain cells before: the snakes lie among the
            # other u - 1 cells
            row["symbols"] = Fraction(treasure, u) * Fraction(comb(u - 1 - j, s), comb(u - 1, s))
            j += 1
        rows.append(row)
    return {"cells": rows, "keys": sum(r["keys"] for r in rows), "symbols": sum(r["symbols"] for r in rows),
            "whole": Fraction(comb(u - j, s), comb(u, s))}


# --- pictures -----------------------------------------------------------------------------------------------
def map_picture(view: MapView, lang: str = "de", marks: dict | None = None, labels: dict | None = None,
                title: str = "", cell: int = 30) -> Picture:
    """A map as everybody sees it (printed features, scratched cells), ``marks``: cell -> colour
    (filled in the preview colour, others as outlines), ``labels``: cell -> a short text written in
    the cell (e.g. the order of scratching)."""
    m = {"layout": view.layout.to_json(),
         "found": [view.found[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]}
    svg = map_svg(m, cell=cell, lang=lang, marks=marks or {}, title=title or None)
    if labels:
        left = round(cell * 0.6)
        top = round(cell * 0.55) + (round(cell * 0.6) if title else 0)
        extra = "".join(
            f'<text x="{left + (c % SIZE) * cell + cell / 2}" y="{top + (c // SIZE) * cell + cell * .7:.1f}" '
            f'font-size="{round(cell * .5)}" text-anchor="middle" font-weight="bold" fill="#0b3d91">'
            f'{escape(str(t))}</text>' for c, t in labels.items())
        svg = svg[:-len("</svg>")] + extra + "</svg>"
    return Picture(svg, title or ("Karte" if lang == "de" else "map"))


def face_picture(face: str, lang: str = "de", size: int = 56) -> Picture:
    """The die face showing ``face`` as on the board (the die's colour at its edge), named."""
    colour = next(c for c, faces in DATA["dice"].items() if face in faces)
    name = face_name(face, lang)
    return Picture(motif_svg(face, size=size, colour=colour, title=name), name)


def motif_pictures(face: str, reflect: bool = False, size: int = 56, title: str = "") -> Picture:
    """The motif's orientations (turned; mirrored too with ``reflect``), one die face each, in a row."""
    shapes = orientations(face, reflect)
    return side_by_side([Picture(motif_svg(face, size=size, shape=s), "") for s in shapes], title or face)


class Setting:
    """A picture of a question's situation (the map before anything is decided), shown at once: an
    ``<img>`` of the SVG with the title as its text. The lesson kit draws every SVG it shows as an
    answer and the predict-first checks allow no drawn picture before a prediction; a map that only
    sets the scene is not an answer, so it goes in as an image (and reads as its ``alt`` text)."""

    def __init__(self, picture: Picture, alt: str = ""):
        self.text = picture.text
        data = base64.b64encode(picture.svg.encode("utf-8")).decode("ascii")
        self.html = (f'<img src="data:image/svg+xml;base64,{data}" alt="{escape(alt or picture.text)}" '
                     f'style="max-width:100%">')

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/html": self.html, "text/plain": self.text}

    def __str__(self) -> str:
        return self.text


def preview(cells, colour: str = PREVIEW) -> dict:
    """Marks for ``map_picture``: these cells in one colour (the preview colour fills them)."""
    return {c: colour for c in cells}
