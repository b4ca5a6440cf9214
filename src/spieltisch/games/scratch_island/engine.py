"""Scratch Island: roll motif dice, scratch a path on your own treasure map, find keys, open chests.

Cells are indexed ``row * 10 + col`` (rows and columns 0–9); people read them as column letter and
row number, "A1" top left to "J10" bottom right (``cell_name``). The boat lies in the bottom row.

Content the rulebook shows only in lost pictures (dice faces, motifs, maps, treasure track) is a
reconstruction in ``scratch_island.json``; the maps come from a seeded generator (``generate_layout``)
in two stages, so that hidden content has a simple law given what is printed:

1. the printed layout (boat, chests, crosses, rocks, walls) from one booklet page number and the
   player's seat — a chance outcome of the game (``Booklet``), public;
2. the hidden content, drawn by chance nodes (``Hide``) one item at a time, uniformly among the cells
   allowed for it: the four keys under four of the six crosses, the snakes and the treasure symbols
   on the plain cells (never the boat, a cross, a chest or a rock).

Stage 2 makes every arrangement of the hidden items over the allowed cells equally likely, so given
what is visible the unscratched items are spread uniformly over the unscratched allowed cells: that
is what ``resample_hidden`` draws and what the bots and the advisor count with. Nobody, the owner
included, sees an unscratched cell's content in any observation.
"""

from __future__ import annotations

import json
from fractions import Fraction
from importlib import resources
from typing import NamedTuple

from ...core.errors import IllegalActionError, SpieltischError, short
from ...core.game import CHANCE, TERMINAL, Game, State
from ...core.options import OptionSpec
from ...core.rng import Rng

DATA_FILE = "scratch_island.json"


# --- data ------------------------------------------------------------------------------------------
def _bad(field: str, msg: str):
    raise SpieltischError(f"{DATA_FILE}: field {field!r}: {msg}")


def validate_data(data) -> dict:
    """Check the reconstructed content; a clear error naming the file and the field."""
    if not isinstance(data, dict):
        _bad("<top>", "must be an object")
    if data.get("provenance") != "reconstruction":
        _bad("provenance", "must be 'reconstruction' (the dice and maps are not from the rulebook)")
    if not isinstance(data.get("note"), str) or not data["note"].strip():
        _bad("note", "must say what is reconstructed")
    if data.get("size") != 10:
        _bad("size", "the maps are 10 × 10")
    motifs = data.get("motifs")
    if not isinstance(motifs, dict) or not motifs:
        _bad("motifs", "must map motif names to cell lists")
    for name, cells in motifs.items():
        if (not isinstance(cells, list) or not cells
                or not all(isinstance(c, list) and len(c) == 2 and all(type(v) is int and 0 <= v < 4 for v in c)
                           for c in cells)):
            _bad(f"motifs.{name}", "must be a list of [row, col] pairs (0..3)")
        if len({tuple(c) for c in cells}) != len(cells) or not _connected([tuple(c) for c in cells]):
            _bad(f"motifs.{name}", "cells must be distinct and connected")
    dice = data.get("dice")
    if not isinstance(dice, dict):
        _bad("dice", "must map die colours to six faces")
    for colour, faces in dice.items():
        if not isinstance(faces, list) or len(faces) != 6:
            _bad(f"dice.{colour}", "a die has six faces")
        for f in faces:
            if f != "pickaxe" and f not in motifs:
                _bad(f"dice.{colour}", f"unknown face {f!r}")
    names = data.get("motif_names", {})
    for f in [*motifs, "pickaxe"]:
        if not isinstance(names.get(f), dict) or not names[f].get("de") or not names[f].get("en"):
            _bad(f"motif_names.{f}", "needs a German and an English name")
    dfp = data.get("dice_for_players")
    if not isinstance(dfp, dict) or set(dfp) != {"2", "3", "4"}:
        _bad("dice_for_players", "needs the dice for 2, 3 and 4 players")
    for n, cols in dfp.items():
        if not isinstance(cols, list) or any(c not in dice for c in cols) or len(cols) < int(n) + 1:
            _bad(f"dice_for_players.{n}", "unknown die colour, or fewer dice than the round uses")
    m = data.get("map")
    if not isinstance(m, dict):
        _bad("map", "must hold the generator's parameters")
    for key in ("booklet", "boat_row", "crosses", "cross_min_boat_distance", "rocks_min", "rocks_max",
                "wall_segments_min", "wall_segments_max", "wall_length_max", "snakes", "max_tries"):
        if type(m.get(key)) is not int or m[key] < 0:
            _bad(f"map.{key}", "must be a whole number ≥ 0")
    if not 1 <= m["booklet"] <= 65536:
        _bad("map.booklet", "must be 1..65536 pages")
    if m["crosses"] < 4:
        _bad("map.crosses", "four keys need at least four crosses")
    if m["rocks_min"] > m["rocks_max"] or m["wall_segments_min"] > m["wall_segments_max"]:
        _bad("map", "a minimum is above its maximum")
    if m.get("chest_colours") != ["blue", "red", "green", "yellow"]:
        _bad("map.chest_colours", "the four chests are blue, red, green and yellow")
    if not isinstance(m.get("chest_points"), list) or len(m["chest_points"]) != 4:
        _bad("map.chest_points", "four chests, four point values")
    if not m.get("boat_columns") or any(type(c) is not int or not 0 <= c < 10 for c in m["boat_columns"]):
        _bad("map.boat_columns", "columns 0..9")
    tr = data.get("treasures")
    if not isinstance(tr, list) or not 1 <= len(tr) <= 9:
        _bad("treasures", "a list of 1..9 treasure kinds")
    for i, t in enumerate(tr):
        if not isinstance(t, dict) or type(t.get("symbols")) is not int or t["symbols"] < 1 \
                or type(t.get("points")) is not int or not t.get("de") or not t.get("en"):
            _bad(f"treasures[{i}]", "needs symbols ≥ 1, points, de and en")
    return data


def _connected(cells) -> bool:
    cells = set(cells)
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def load_data() -> dict:
    text = resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")
    return validate_data(json.loads(text))


DATA = load_data()
SIZE = DATA["size"]
CELLS = SIZE * SIZE
MAP = DATA["map"]
BOOKLET = MAP["booklet"]
MOTIFS = {k: tuple(tuple(c) for c in v) for k, v in DATA["motifs"].items()}
FACE_NAMES = DATA["motif_names"]
PICKAXE = "pickaxe"
COLOURS = ("blue", "red", "green", "yellow")
CHEST_CHAR = {"blue": "b", "red": "r", "green": "g", "yellow": "y"}
KEY_CHAR = {"blue": "B", "red": "R", "green": "G", "yellow": "Y"}
KEY_COLOUR = {v: k for k, v in KEY_CHAR.items()}
COLOUR_NAMES = {"blue": ("blau", "blue"), "red": ("rot", "red"), "green": ("grün", "green"), "yellow": ("gelb", "yellow")}
TREASURES = tuple(DATA["treasures"])
KINDS = len(TREASURES)
TREASURE_CHARS = "123456789"[:KINDS]
SNAKES = MAP["snakes"]
# content characters of a cell (hidden until scratched): "." nothing, "S" snake, "1".. treasure kind,
# "B" "R" "G" "Y" a key under a cross, "-" an empty cross
SNAKE, NOTHING, EMPTY_CROSS = "S", ".", "-"
# the hidden items of one map in the order the chance nodes place them: keys, snakes, treasures
ITEMS = tuple([KEY_CHAR[c] for c in COLOURS] + [SNAKE] * SNAKES
              + [TREASURE_CHARS[i] for i, t in enumerate(TREASURES) for _ in range(t["symbols"])])
KEY_ITEMS = len(COLOURS)


def cell_name(cell: int) -> str:
    r, c = divmod(cell, SIZE)
    return "ABCDEFGHIJ"[c] + str(r + 1)


def _cell_text(cell) -> str:
    return cell_name(cell) if type(cell) is int and 0 <= cell < CELLS else short(cell, 20)


def face_name(face: str, lang: str) -> str:
    names = FACE_NAMES.get(face)
    if names is None:
        return short(face, 20)
    return names["de" if lang == "de" else "en"]


# --- motifs -----------------------------------------------------------------------------------------
def orientations(motif: str, reflect: bool) -> tuple:
    """The motif's distinct shapes under rotation (and mirroring with ``reflect``): each a sorted
    tuple of (row, col) offsets with minimum row and column 0."""
    shapes = set()
    cells = MOTIFS[motif]
    variants = [cells]
    if reflect:
        variants.append(tuple((r, -c) for r, c in cells))
    for base in variants:
        cur = base
        for _ in range(4):
            mr, mc = min(r for r, _ in cur), min(c for _, c in cur)
            shapes.add(tuple(sorted((r - mr, c - mc) for r, c in cur)))
            cur = tuple((c, -r) for r, c in cur)
    return tuple(sorted(shapes))


def _shape_table(reflect: bool) -> dict:
    out = {}
    for m in MOTIFS:
        table = []
        for shape in orientations(m, reflect):
            pairs = tuple((i, j) for i in range(len(shape)) for j in range(i + 1, len(shape))
                          if abs(shape[i][0] - shape[j][0]) + abs(shape[i][1] - shape[j][1]) == 1)
            table.append((shape, pairs))
        out[m] = tuple(table)
    return out


SHAPES = {False: _shape_table(False), True: _shape_table(True)}


# --- the printed map ---------------------------------------------------------------------------------
class Layout:
    """The printed (public) part of one treasure map. Immutable; ``nbr[c]`` is the bit mask of the
    cells next to ``c`` with no wall between."""

    __slots__ = ("boat", "chests", "crosses", "rocks", "wall_east", "wall_south", "nbr", "nbrs",
                 "terrain", "plain", "cross_mask", "chest_mask", "_json", "key")

    def __init__(self, boat: int, chests: dict, crosses, rocks, wall_east: int, wall_south: int):
        self.boat = boat
        self.chests = dict(chests)  # cell -> (colour, points)
        self.crosses = tuple(sorted(crosses))
        self.rocks = sum(1 << c for c in rocks)
        self.wall_east = wall_east  # bit c: a wall between c and c + 1
        self.wall_south = wall_south  # bit c: a wall between c and c + SIZE
        nbr, nbrs = [], []
        for c in range(CELLS):
            r, k = divmod(c, SIZE)
            ns = []
            if r > 0 and not wall_south >> (c - SIZE) & 1:
                ns.append(c - SIZE)
            if k > 0 and not wall_east >> (c - 1) & 1:
                ns.append(c - 1)
            if k + 1 < SIZE and not wall_east >> c & 1:
                ns.append(c + 1)
            if r + 1 < SIZE and not wall_south >> c & 1:
                ns.append(c + SIZE)
            nbrs.append(tuple(ns))
            nbr.append(sum(1 << n for n in ns))
        self.nbr = tuple(nbr)
        self.nbrs = tuple(nbrs)
        self.cross_mask = sum(1 << c for c in self.crosses)
        self.chest_mask = sum(1 << c for c in self.chests)
        t = []
        for c in range(CELLS):
            if c == boat:
                t.append("A")
            elif c in self.chests:
                t.append(CHEST_CHAR[self.chests[c][0]])
            elif self.cross_mask >> c & 1:
                t.append("x")
            elif self.rocks >> c & 1:
                t.append("#")
            else:
                t.append(".")
        self.terrain = "".join(t)
        # where snakes and treasure symbols may lie
        self.plain = tuple(c for c in range(CELLS) if t[c] == ".")
        self._json = None
        self.key = (self.terrain, wall_east, wall_south, tuple(sorted(self.chests.items())))

    def to_json(self) -> dict:
        """The printed map as JSON data (built once): ``terrain`` rows ("A" boat, "b r g y" chests,
        "x" cross, "#" rock, "." plain), ``walls_east``/``walls_south`` rows ("1": a wall on that
        side of the cell), the chests' colours and points."""
        if self._json is None:
            rows = lambda s: [s[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]  # noqa: E731
            self._json = {
                "terrain": rows(self.terrain),
                "walls_east": rows("".join("1" if self.wall_east >> c & 1 else "0" for c in range(CELLS))),
                "walls_south": rows("".join("1" if self.wall_south >> c & 1 else "0" for c in range(CELLS))),
                "chests": [{"cell": c, "colour": col, "points": p} for c, (col, p) in sorted(self.chests.items())],
            }
        return self._json

    @classmethod
    def from_json(cls, data: dict) -> "Layout":
        """The layout an observation shows (bots and the advisor rebuild it from there)."""
        terrain = "".join(data["terrain"])
        east = sum(1 << c for c, ch in enumerate("".join(data["walls_east"])) if ch == "1")
        south = sum(1 << c for c, ch in enumerate("".join(data["walls_south"])) if ch == "1")
        chests = {d["cell"]: (d["colour"], d["points"]) for d in data["chests"]}
        return cls(terrain.index("A"), chests, [c for c, ch in enumerate(terrain) if ch == "x"],
                   [c for c, ch in enumerate(terrain) if ch == "#"], east, south)

    def __eq__(self, other):
        return isinstance(other, Layout) and self.key == other.key

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        return f"Layout({self.terrain!r}, {self.wall_east}, {self.wall_south}, {sorted(self.chests.items())})"

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def reachable(self, start: int, through: int) -> int:
        """Bit mask of the cells reachable from ``start`` over open edges, entering only cells in
        the mask ``through``."""
        seen = 1 << start
        todo = [start]
        nbrs = self.nbrs
        while todo:
            c = todo.pop()
            for n in nbrs[c]:
                b = 1 << n
                if through & b and not seen & b:
                    seen |= b
                    todo.append(n)
        return seen


def _manhattan(a: int, b: int) -> int:
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


def check_layout(layout: Layout) -> list[str]:
    """The generator's guarantees for a printed map; the list of broken ones (empty: all hold).

    Every cell that is not a chest is reachable from the boat without passing a chest (so every
    cross, and every hidden item, can be reached; rocks may need a pickaxe); every chest has an open
    edge to such a cell; the boat has a neighbour that is neither a rock nor behind a wall (the
    first motif always has room)."""
    broken = []
    full = (1 << CELLS) - 1
    non_chest = full & ~layout.chest_mask
    reach = layout.reachable(layout.boat, non_chest)
    if reach != non_chest:
        broken.append("some cells are walled off from the boat")
    for c in layout.chests:
        if not layout.nbr[c] & non_chest:
            broken.append(f"chest {cell_name(c)} is walled in")
    if not layout.nbr[layout.boat] & ~layout.rocks & ~layout.chest_mask:
        broken.append("the boat has no free neighbour")
    if layout.boat // SIZE != MAP["boat_row"]:
        broken.append("the boat is not in the bottom row")
    if len(layout.crosses) != MAP["crosses"] or len(layout.chests) != 4:
        broken.append("wrong number of crosses or chests")
    if {col for col, _ in layout.chests.values()} != set(COLOURS):
        broken.append("the chests are not one of each colour")
    return broken


def generate_layout(page: int, seat: int) -> Layout:
    """The printed map of booklet page ``page`` for seat ``seat``: deterministic (the project's
    ``Rng``, the same numbers in CPython and Pyodide), different for every seat of a page."""
    if type(page) is not int or not 0 <= page < BOOKLET or type(seat) is not int or not 0 <= seat < 16:
        raise SpieltischError(f"no map for page {short(page)} seat {short(seat)}")
    rng = Rng((0x5C2A7C4 << 32) | (page << 4) | seat)
    boat = MAP["boat_row"] * SIZE + rng.choice(MAP["boat_columns"])
    corners = [0, SIZE - 1, CELLS - SIZE, CELLS - 1]
    colours = _shuffled(list(COLOURS), rng)
    points = _shuffled(list(MAP["chest_points"]), rng)
    chests = {corners[i]: (colours[i], points[i]) for i in range(4)}
    taken = set(corners) | {boat}
    crosses: list[int] = []
    while len(crosses) < MAP["crosses"]:
        c = rng.below(CELLS)
        if c in taken or _manhattan(c, boat) < MAP["cross_min_boat_distance"]:
            continue
        if any(_manhattan(c, x) < 2 for x in crosses) or any(_manhattan(c, k) < 2 for k in corners):
            continue
        crosses.append(c)
        taken.add(c)
    n_rocks = MAP["rocks_min"] + rng.below(MAP["rocks_max"] - MAP["rocks_min"] + 1)
    rocks: list[int] = []
    while len(rocks) < n_rocks:
        c = rng.below(CELLS)
        if c in taken or _manhattan(c, boat) < 2:
            continue
        rocks.append(c)
        taken.add(c)
    for _ in range(MAP["max_tries"]):
        east, south = _walls(rng)
        layout = Layout(boat, chests, crosses, rocks, east, south)
        if not check_layout(layout):
            return layout
    # no wall set worked (never seen): a map without walls keeps every guarantee
    return Layout(boat, chests, crosses, rocks, 0, 0)


def _shuffled(items: list, rng) -> list:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _walls(rng) -> tuple[int, int]:
    east = south = 0
    n = MAP["wall_segments_min"] + rng.below(MAP["wall_segments_max"] - MAP["wall_segments_min"] + 1)
    for _ in range(n):
        length = 1 + rng.below(MAP["wall_length_max"])
        if rng.below(2):  # a vertical segment: walls east of cells (r..r+len-1, c)
            c = rng.below(SIZE - 1)
            r0 = rng.below(SIZE - length + 1)
            for r in range(r0, r0 + length):
                east |= 1 << (r * SIZE + c)
        else:  # horizontal: walls south of cells (r, c..c+len-1)
            r = rng.below(SIZE - 1)
            c0 = rng.below(SIZE - length + 1)
            for c in range(c0, c0 + length):
                south |= 1 << (r * SIZE + c)
    return east, south


_LAYOUTS: dict = {}


def layout_for(page: int, seat: int) -> Layout:
    key = (page, seat)
    got = _LAYOUTS.get(key)
    if got is None:
        if len(_LAYOUTS) > 4096:
            _LAYOUTS.clear()
        got = _LAYOUTS[key] = generate_layout(page, seat)
    return got


# --- placements -------------------------------------------------------------------------------------
def frontier(layout: Layout, scratched: int) -> list[int]:
    """Unscratched cells next to the path with no wall between (the boat on an empty map)."""
    if not scratched:
        return [layout.boat]
    nbr = layout.nbr
    return [c for c in range(CELLS) if not scratched >> c & 1 and nbr[c] & scratched]


def placements(layout: Layout, scratched: int, keys: str, face: str, reflect: bool, rocks_allowed: int) -> list:
    """Every legal placement of ``face`` (sorted cell tuples): all cells on the map and unscratched,
    at most ``rocks_allowed`` rocks, chests only with their key, no wall between two of its
    neighbouring cells, one cell next to the path (on an empty map: covering the boat)."""
    shapes = ((((0, 0),), ()),) if face == PICKAXE else SHAPES[reflect][face]
    front = frontier(layout, scratched)
    locked = 0
    for c, (col, _) in layout.chests.items():
        if KEY_CHAR[col] not in keys:
            locked |= 1 << c
    blocked = scratched | locked
    rocks, nbr = layout.rocks, layout.nbr
    seen = set()
    out = []
    for shape, pairs in shapes:
        for f in front:
            fr, fc = divmod(f, SIZE)
            for dr, dc in shape:
                r0, c0 = fr - dr, fc - dc
                if r0 < 0 or c0 < 0:
                    continue
                cells = []
                mask = 0
                for sr, sc in shape:
                    r, c = r0 + sr, c0 + sc
                    if r >= SIZE or c >= SIZE:
                        break
                    cell = r * SIZE + c
                    cells.append(cell)
                    mask |= 1 << cell
                else:
                    if mask in seen:
                        continue
                    seen.add(mask)
                    if mask & blocked:
                        continue
                    if rocks_allowed < 2 and (mask & rocks) and bin(mask & rocks).count("1") > rocks_allowed:
                        continue
                    if any(not nbr[cells[i]] >> cells[j] & 1 for i, j in pairs):
                        continue
                    out.append(tuple(sorted(cells)))
    out.sort()
    return out


def next_cells(layout: Layout, scratched: int, remaining) -> list[int]:
    """The cells of a placement that may be scratched next: next to the path with no wall between
    (the boat first on an empty map)."""
    if not scratched:
        return [layout.boat] if layout.boat in remaining else []
    nbr = layout.nbr
    return [c for c in remaining if nbr[c] & scratched]


# --- actions ----------------------------------------------------------------------------------------
class Booklet(NamedTuple):
    """Chance: the booklet page every player's map comes from (each seat gets its own map)."""

    page: int

    def label(self, lang: str = "en") -> str:
        return f"Schatzkarten von Seite {self.page}" if lang == "de" else f"treasure maps of page {self.page}"

    def to_json(self):
        return ["booklet", self.page]


class Hide(NamedTuple):
    """Chance: the next hidden item of a map goes under ``cell`` (the label does not say where)."""

    cell: int

    def label(self, lang: str = "en") -> str:
        return "etwas wird versteckt" if lang == "de" else "something is hidden"

    def to_json(self):
        return ["hide", self.cell]


class Roll(NamedTuple):
    """Chance: the next die shows ``face``."""

    face: str

    def label(self, lang: str = "en") -> str:
        return f"Würfel zeigt {face_name(self.face, 'de')}" if lang == "de" else f"die shows {face_name(self.face, 'en')}"

    def to_json(self):
        return ["roll", self.face]


class Choose(NamedTuple):
    """The roller takes dice ``first`` and ``second`` (indices into the roll) and uses them in that
    order; ``combine``: the pickaxe (``second``) joins the motif (``first``) as one placement."""

    first: int
    second: int
    combine: bool

    def label(self, lang: str = "en") -> str:
        if lang == "de":
            return (f"Würfel {self.first + 1} mit Spitzhacke {self.second + 1} kombiniert" if self.combine
                    else f"Würfel {self.first + 1}, dann {self.second + 1}")
        return (f"die {self.first + 1} combined with pickaxe {self.second + 1}" if self.combine
                else f"die {self.first + 1}, then {self.second + 1}")

    def to_json(self):
        return ["choose", self.first, self.second, self.combine]


class Take(NamedTuple):
    """A player after the roller takes die ``die`` of the rest."""

    die: int

    def label(self, lang: str = "en") -> str:
        return f"nimmt Würfel {self.die + 1}" if lang == "de" else f"takes die {self.die + 1}"

    def to_json(self):
        return ["take", self.die]


class Place(NamedTuple):
    """Put the die's motif on these cells (sorted); they are then scratched one at a time."""

    cells: tuple

    def label(self, lang: str = "en") -> str:
        where = " ".join(_cell_text(c) for c in self.cells) if isinstance(self.cells, tuple) else short(self.cells)
        return f"Motiv auf {where}" if lang == "de" else f"motif on {where}"

    def to_json(self):
        return ["place", list(self.cells) if isinstance(self.cells, tuple) else self.cells]


class Scratch(NamedTuple):
    """Scratch ``cell`` next (one cell at a time: a snake ends the turn)."""

    cell: int

    def label(self, lang: str = "en") -> str:
        return f"{_cell_text(self.cell)} freirubbeln" if lang == "de" else f"scratch {_cell_text(self.cell)}"

    def to_json(self):
        return ["scratch", self.cell]


def describe(action, observation: dict, lang: str) -> str:
    """What a player's action chose, in the words of the board: the motifs of the dice (an action
    itself knows only die numbers), the motif placed and where. One text for the log, the advisor's
    options and the review; ``observation`` is the one the player decided on."""
    de = lang == "de"
    faces = [d["face"] for d in observation["dice"]]

    def face(i):
        return face_name(faces[i], lang) if faces[i] else "?"

    t = type(action)
    if t is Choose:
        if action.combine:
            return (f"{face(action.first)} mit Spitzhacke kombiniert" if de
                    else f"{face(action.first)} combined with the pickaxe")
        return f"{face(action.first)}, {'dann' if de else 'then'} {face(action.second)}"
    if t is Take:
        return f"{'nimmt' if de else 'takes'} {face(action.die)}"
    if t is Place:
        pend = observation["pending"]
        motif = face_name(pend[0]["face"], lang) if pend else ("Motiv" if de else "motif")
        where = " ".join(_cell_text(c) for c in action.cells) if isinstance(action.cells, tuple) else short(action.cells)
        return f"{'platziert' if de else 'places'} {motif} {'auf' if de else 'on'} {where}"
    if t is Scratch:
        return f"rubbelt {_cell_text(action.cell)} frei" if de else f"scratches {_cell_text(action.cell)}"
    return action.label(lang) if hasattr(action, "label") else short(action)


BOOKLET_OUTCOMES = tuple((Booklet(p), Fraction(1, BOOKLET)) for p in range(BOOKLET))


def _roll_outcomes(colour: str) -> tuple:
    faces = DATA["dice"][colour]
    seen = []
    for f in faces:
        if f not in seen:
            seen.append(f)
    return tuple((Roll(f), Fraction(faces.count(f), 6)) for f in seen)


ROLL_OUTCOMES = {colour: _roll_outcomes(colour) for colour in DATA["dice"]}


# --- game -------------------------------------------------------------------------------------------
class ScratchIsland(Game):
    id = "scratch-island"
    # v2: the game ends when every seat has rolled equally often (D9, option ``end``); v1 ended after
    # the roll in which a fourth chest was opened
    version = 2
    name = {"de": "Scratch Island", "en": "Scratch Island"}
    summary = {
        "de": "Würfeln, Motive auf der eigenen Schatzkarte freirubbeln, Schlüssel unter roten Kreuzen "
              "finden, Truhen öffnen – und den Schlangen ausweichen (Karten und Würfel: Rekonstruktion).",
        "en": "Roll motif dice, scratch them free on your own treasure map, find keys under red crosses, "
              "open the chests and beware of snakes (maps and dice: reconstruction).",
    }
    min_players = 2
    max_players = 4
    default_players = 2
    option_specs = (
        # D1: the rulebook shows the motifs only as pictures; the project lets them rotate, and
        # mirror images only with this option.
        OptionSpec("reflect", False, "motifs may also be placed as mirror images (rotations are always allowed)"),
        # not in the rulebook: a cap for short games (tests, lessons); 0 is the rulebook's end only
        # D9: "Alle, die in dieser Runde noch am Zug sind, können würfeln" – the round (every seat
        # rolls once) is finished, so every seat has rolled equally often; "this_roll" ends after the
        # roll in which the fourth chest was opened
        OptionSpec("end", "all_rolled", "D9: after a fourth chest, play on until every player has rolled "
                   "equally often (all_rolled) or only until everybody has used a die of the current roll "
                   "(this_roll)", choices=("all_rolled", "this_roll")),
        OptionSpec("rounds", 0, "end after this many rounds at the latest (0: only the rulebook's end, "
                   "when someone opens their fourth chest)", min=0, max=10_000),
    )
    #: what the options are called on a screen (the class-round form), German and English
    option_labels = {
        "reflect": {"de": "Motive auch gespiegelt legen", "en": "motifs may be mirrored"},
        "end": {"de": "Ende nach der vierten Truhe", "en": "end after a fourth chest", "choices": {
            "all_rolled": {"de": "wenn alle gleich oft gewürfelt haben", "en": "when everyone has rolled equally often"},
            "this_roll": {"de": "nach diesem Wurf", "en": "after this roll"},
        }},
        "rounds": {"de": "höchstens so viele Runden (0: ohne Grenze)", "en": "at most this many rounds (0: no limit)"},
    }
    class_code_number = 5  # (ui.classroom: given once, never changed)
    # the generic tests play 2 rounds with 2 players (the roller moves on) and 1 round with 3 and 4:
    # hiding the items of every map takes 17 chance events per player before the first roll
    test_configs = ((2, {}), (3, {"reflect": True, "rounds": 1}), (4, {"rounds": 1}))
    # 20 games per setting, not 60: each one checks every one of its 35 to 69 hiding events and the
    # rounds after them at full depth (60 took about 2 minutes of CPU for the three settings)
    test_games = 20

    def __init__(self, num_players=None, options=None):
        super().__init__(num_players, options)
        self.dice_colours = tuple(DATA["dice_for_players"][str(self.num_players)])
        self.reflect = self.options["reflect"]

    def render_observation(self, observation: dict, lang: str = "en") -> str:
        de = lang == "de"
        lines = []
        for p, m in enumerate(observation["maps"]):
            head = ("Spieler" if de else "Player") + f" {p + 1}"
            if observation["player"] == p:
                head += " (du)" if de else " (you)"
            lines.append(f"{head}: {m['score']} " + ("Punkte" if de else "points")
                         + f", {'Schlüssel' if de else 'keys'}: {', '.join(m['keys']) or '-'}"
                         + f", {'Truhen' if de else 'chests'}: {', '.join(m['opened']) or '-'}")
            if m["layout"] is None:
                continue
            lines.extend(_map_text(m["layout"], m["found"]))
        if observation["maps"] and observation["maps"][0]["layout"] is not None:
            lines.append("A " + ("Boot" if de else "boat") + ", b r g y " + ("Truhen" if de else "chests")
                         + ", x " + ("Kreuz" if de else "cross") + ", # " + ("Fels" if de else "rock")
                         + ", ~ " + ("frei, leer" if de else "scratched, empty") + ", S "
                         + ("Schlange" if de else "snake") + ", 1-4 " + ("Schätze" if de else "treasures")
                         + ", B R G Y " + ("Schlüssel" if de else "keys") + ", | - " + ("Wände" if de else "walls"))
        dice = ", ".join(f"{i + 1}:{face_name(d['face'], lang) if d['face'] else '?'}({d['state']})"
                         for i, d in enumerate(observation["dice"]))
        lines.append(("Runde" if de else "Round") + f" {observation['round']}, "
                     + ("Würfler" if de else "roller") + f" {observation['roller'] + 1}; "
                     + ("Würfel" if de else "dice") + f": {dice or '-'}")
        left = observation["rounds_left"]
        if left is not None and not observation["terminal"]:
            lines.append(("letzte Runde" if de else "last round") if left == 0
                         else (f"noch {left} Runde{'n' if left > 1 else ''} danach" if de
                               else f"{left} more round{'s' if left > 1 else ''} after this one"))
        if observation["terminal"]:
            lines.append(("Ende." if de else "Game over."))
        elif observation["to_move"] is not None:
            lines.append(("am Zug: Spieler " if de else "to move: player ") + str(observation["to_move"] + 1)
                         + f" ({observation['phase']})")
        return "\n".join(lines)


class ScratchIslandState(State):
    def __init__(self, game: ScratchIsland):
        super().__init__(game)
        n = self.num_players
        self.page = None  # booklet page: the printed maps (built lazily from it, see ``layouts``)
        self._lay = None
        self.content = [None] * n  # hidden content per map ("." where nothing is), once hiding starts
        self.hide_seat = 0
        self.hide_item = 0
        self.scratched = [0] * n  # bit masks of scratched cells (the path)
        self.keys = [""] * n  # key colour letters found ("BRGY")
        self.opened = [()] * n  # chest colours opened, in order
        self.track = [(0,) * KINDS for _ in range(n)]  # treasure symbols found per kind
        self.set_first = [None] * KINDS  # who completed each kind first
        self.set_points = [0] * n
        self.four_chests: list = []  # seats in the order they opened their fourth chest
        self.end_triggered = False
        self.round = 0
        self.roller = 0  # D6: seat 0 begins ("wer zuletzt einen echten Schatz gefunden hat")
        self.rolls = [0] * n  # how often each seat has rolled (D9: the game ends with these equal)
        self.phase = "booklet"
        self.dice: list = [None] * len(game.dice_colours)  # faces of this round's roll
        self.dice_state: list = ["free"] * len(game.dice_colours)  # free / seat that took it / lost
        self.actor = None
        self.takers: tuple = ()  # seats after the roller, in clockwise order
        self.taker_index = 0
        self.pending: list = []  # (die index, rocks allowed) still to use by the actor
        self.placement: tuple = ()  # cells of the current motif still to scratch
        self.events: list = []  # this round's public events, JSON data
        self.last_events: list = []  # the previous round's
        self._cache = None

    @property
    def layouts(self) -> tuple:
        """The printed maps of the booklet page (built on first use: a chance node tries every page
        on copies of the state, and only the page played needs its maps)."""
        lay = self._lay
        if lay is None:
            if self.page is None:
                return ()
            lay = self._lay = tuple(layout_for(self.page, s) for s in range(self.num_players))
        return lay

    def _content(self, s: int) -> str:
        c = self.content[s]
        return _empty_content(self.layouts[s]) if c is None else c

    # --- protocol ---------------------------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph in ("booklet", "hide", "roll"):
            return CHANCE
        if ph == "over":
            return TERMINAL
        return self.actor

    def chance_player(self):
        return self.roller if self.phase == "roll" else None

    def chance_outcomes(self):
        ph = self.phase
        if ph == "booklet":
            return list(BOOKLET_OUTCOMES)
        if ph == "hide":
            cells = self._hide_cells()
            q = Fraction(1, len(cells))
            return [(Hide(c), q) for c in cells]
        if ph == "roll":
            i = self.dice.index(None)
            return list(ROLL_OUTCOMES[self.game.dice_colours[i]])
        raise SpieltischError("not a chance node")

    def is_legal(self, action) -> bool:
        """Fast at chance nodes (the booklet has thousands of pages), the same answer as the core's
        type-exact check; player nodes use the core's check on the cached legal actions."""
        ph = self.phase
        t = type(action)
        if ph == "booklet":
            return t is Booklet and type(action.page) is int and 0 <= action.page < BOOKLET
        if ph == "hide":
            return t is Hide and type(action.cell) is int and action.cell in self._hide_cells()
        if ph == "roll":
            i = self.dice.index(None)
            return t is Roll and type(action.face) is str and action.face in DATA["dice"][self.game.dice_colours[i]]
        if ph == "over":
            return False
        return super().is_legal(action)

    def sample_chance(self, rng):
        ph = self.phase
        if ph == "booklet":
            return BOOKLET_OUTCOMES[rng.below(BOOKLET)][0]
        if ph == "hide":
            cells = self._hide_cells()
            return Hide(cells[rng.below(len(cells))])
        return super().sample_chance(rng)

    def _hide_cells(self) -> list:
        layout = self.layouts[self.hide_seat]
        content = self._content(self.hide_seat)
        if self.hide_item < KEY_ITEMS:
            return [c for c in layout.crosses if content[c] == EMPTY_CROSS]
        return [c for c in layout.plain if content[c] == NOTHING]

    def _legal_actions(self):
        cache = self._cache
        if cache is not None:
            return cache
        ph, p = self.phase, self.actor
        if ph == "choose":
            out = []
            free = [i for i, s in enumerate(self.dice_state) if s == "free"]
            for a in free:
                for b in free:
                    if a != b:
                        out.append(Choose(a, b, False))
                        if self.dice[b] == PICKAXE and self.dice[a] != PICKAXE:
                            out.append(Choose(a, b, True))
        elif ph == "take":
            out = [Take(i) for i, s in enumerate(self.dice_state) if s == "free"]
        elif ph == "place":
            out = [Place(c) for c in self._placements()]
        elif ph == "scratch":
            out = [Scratch(c) for c in next_cells(self.layouts[p], self.scratched[p], self.placement)]
        else:
            out = []
        self._cache = out = tuple(out)
        return out

    def _placements(self) -> list:
        p = self.actor
        die, rocks_allowed = self.pending[0]
        return placements(self.layouts[p], self.scratched[p], self.keys[p], self.dice[die], self.game.reflect,
                          rocks_allowed)

    def _apply(self, action) -> None:
        self._cache = None
        ph = self.phase
        if ph == "booklet":
            self.page = action.page
            self._lay = None
            self.phase = "hide"
        elif ph == "hide":
            s = self.hide_seat
            c = action.cell
            content = self._content(s)
            self.content[s] = content[:c] + ITEMS[self.hide_item] + content[c + 1:]
            self.hide_item += 1
            if self.hide_item == len(ITEMS):
                self.hide_item = 0
                self.hide_seat += 1
                if self.hide_seat == self.num_players:
                    self._start_round()
        elif ph == "roll":
            i = self.dice.index(None)
            self.dice[i] = action.face
            if None not in self.dice:
                self.phase = "choose"
                self.actor = self.roller
        elif ph == "choose":
            # D2: the roller fixes both dice and their order with the choice ("wählt 2 beliebige davon
            # aus"); D7: combined with the pickaxe, the motif may cover one rock
            a, b = action.first, action.second
            self.dice_state[a] = self.dice_state[b] = self.roller
            self.pending = [(a, 1)] if action.combine else [(a, self._rocks(a)), (b, self._rocks(b))]
            self.events.append({"seat": self.roller, "event": "choose", "dice": [a, b], "combine": action.combine})
            self._use_next()
        elif ph == "take":
            self.dice_state[action.die] = self.actor
            self.pending = [(action.die, self._rocks(action.die))]
            self.events.append({"seat": self.actor, "event": "take", "die": action.die})
            self._use_next()
        elif ph == "place":
            die, _ = self.pending[0]
            self.placement = action.cells
            self.events.append({"seat": self.actor, "event": "place", "die": die, "cells": list(action.cells)})
            self.phase = "scratch"
            self._forced_scratches()
        elif ph == "scratch":
            self._scratch(action.cell)
            self._forced_scratches()
        else:
            raise SpieltischError("the game is over")

    def _rocks(self, die: int) -> int:
        """How many rocks a die's placement may cover: the pickaxe alone breaks one."""
        return 1 if self.dice[die] == PICKAXE else 0

    # D3: on an empty map the boat is the only cell "next to the path", so it is scratched first
    def _forced_scratches(self) -> None:
        """Scratch on while only one cell can come next (there is no choice of order to make)."""
        while self.phase == "scratch":
            p = self.actor
            nxt = next_cells(self.layouts[p], self.scratched[p], self.placement)
            if len(nxt) != 1:
                return
            self._scratch(nxt[0])

    def _scratch(self, cell: int) -> None:
        p = self.actor
        layout = self.layouts[p]
        self.scratched[p] |= 1 << cell
        self.placement = tuple(c for c in self.placement if c != cell)
        what = self.content[p][cell]
        ev = {"seat": p, "event": "scratch", "cell": cell, "found": what}
        self.events.append(ev)
        if cell in layout.chests:
            colour, _ = layout.chests[cell]
            self.opened[p] = self.opened[p] + (colour,)
            ev["chest"] = colour
            if len(self.opened[p]) == 4:
                # "Das Spiel endet, wenn jemand die 4. und letzte farbige Truhe ... öffnet": the round
                # is played to its end
                self.end_triggered = True
                self.four_chests.append(p)
        elif what in KEY_COLOUR:
            self.keys[p] = "".join(sorted(self.keys[p] + what))
        elif what == SNAKE:
            # "endet dein Zug sofort - unabhängig von anderen Feldern ... oder verbleibenden Würfeln"
            # D5: the roller's second die is lost, not given to the others
            for die, _ in self.pending[1:]:
                self.dice_state[die] = "lost"
                self.events.append({"seat": p, "event": "lost", "die": die})
            self.pending = [self.pending[0]]
            self.placement = ()
        elif what in TREASURE_CHARS:
            k = TREASURE_CHARS.index(what)
            t = list(self.track[p])
            t[k] += 1
            self.track[p] = tuple(t)
            if t[k] == TREASURES[k]["symbols"]:
                # D8: "first" is earlier in play (play is sequential: no ties)
                if self.set_first[k] is None:
                    self.set_first[k] = p
                    self.set_points[p] += TREASURES[k]["points"]
                    ev["set"] = "scored"
                else:  # "Andere können die Belohnung ... nicht mehr sammeln": the crossed-out symbol
                    ev["set"] = "crossed"
        if not self.placement:
            self.pending.pop(0)
            self._use_next()

    def _use_next(self) -> None:
        """The actor uses their next die; a die that fits nowhere is used up with no effect; with
        no die left the next player takes one, or the round ends. D4: a die that fits must be used
        (no pass: the rulebook ends the turn only when nothing fits)."""
        p = self.actor
        while self.pending:
            opts = self._placements()
            if opts:
                self.phase = "place"
                self._cache = tuple(Place(c) for c in opts)  # the legal actions, computed once
                return
            die, _ = self.pending.pop(0)
            self.events.append({"seat": p, "event": "no_fit", "die": die})
        self.placement = ()
        if self.taker_index < len(self.takers):
            self.actor = self.takers[self.taker_index]
            self.taker_index += 1
            self.phase = "take"
            return
        if self.rounds_left() == 0:
            self.phase = "over"
            self.actor = None
            return
        self.roller = (self.roller + 1) % self.num_players
        self.round += 1
        self._start_round()

    def _start_round(self) -> None:
        n = self.num_players
        self.round = max(self.round, 1)
        self.phase = "roll"
        self.actor = None
        self.dice = [None] * len(self.game.dice_colours)
        self.dice_state = ["free"] * len(self.game.dice_colours)
        self.takers = tuple((self.roller + i) % n for i in range(1, n))
        self.rolls[self.roller] += 1
        self.taker_index = 0
        self.last_events = self.events
        self.events = []

    def rounds_left(self):
        """How many rounds (rolls) follow the current one for sure: None while the end is open.
        D9 (option ``end``): once a fourth chest is open, "all_rolled" plays on until every seat has
        rolled equally often (the seats that rolled less than the others roll once more each);
        "this_roll" ends with the current roll. Option ``rounds`` caps the game."""
        left = None
        if self.end_triggered:
            if self.game.options["end"] == "this_roll":
                left = 0
            else:
                most = max(self.rolls)
                left = sum(1 for r in self.rolls if r < most)
        cap = self.game.options["rounds"]
        if cap:
            left = cap - self.round if left is None else min(left, cap - self.round)
        return left

    # --- scores -------------------------------------------------------------------------------------
    def chest_points(self, p: int) -> int:
        if not self.layouts:
            return 0
        pts = {col: pt for col, pt in self.layouts[p].chests.values()}
        return sum(pts[c] for c in self.opened[p])

    def scores(self) -> list:
        return [self.chest_points(p) + self.set_points[p] for p in range(self.num_players)]

    def winners(self) -> list[int]:
        """Most points; "Bei Gleichstand gewinnt, wer zuerst alle 4 Schatztruhen geöffnet hat";
        otherwise the tied players share."""
        s = self.scores()
        best = max(s)
        tied = [p for p, v in enumerate(s) if v == best]
        for p in self.four_chests:
            if p in tied:
                return [p]
        return tied

    # --- hidden information -----------------------------------------------------------------------
    def resample_hidden(self, viewer, rng) -> "ScratchIslandState":
        """Nobody sees unscratched content, so for every viewer the same: on every map the items
        under unscratched allowed cells are dealt afresh over those cells (keys over crosses,
        snakes and treasure symbols over plain cells), uniformly — the generator's law given what
        is visible."""
        c = self.clone()
        for s, layout in enumerate(self.layouts):
            if self.content[s] is None:
                continue
            content = list(self.content[s])
            scr = self.scratched[s]
            for cells in (layout.crosses, layout.plain):
                open_cells = [x for x in cells if not scr >> x & 1]
                items = _shuffled([content[x] for x in open_cells], rng)
                for x, it in zip(open_cells, items):
                    content[x] = it
            c.content[s] = "".join(content)
        return c

    def clone(self) -> "ScratchIslandState":
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        for name in ("content", "scratched", "keys", "opened", "track", "set_first", "set_points",
                     "four_chests", "dice", "dice_state", "pending", "rolls"):
            setattr(c, name, list(getattr(self, name)))
        c.events = [dict(e) for e in self.events]
        c.last_events = [dict(e) for e in self.last_events]
        return c

    def snapshot(self):
        d = {k: v for k, v in vars(self).items() if k not in ("game", "_cache", "_lay")}
        return repr(sorted(d.items()))

    def outcome_visible(self, action, viewer) -> bool | None:
        """The booklet page is public (every map is printed face up: its 4096 alternatives need not
        be compared); where an item is hidden is seen by nobody (tests compare both with the
        observations)."""
        if self.phase == "booklet":
            return True
        if self.phase == "hide":
            return False
        return None

    # --- observation ----------------------------------------------------------------------------------
    def observation(self, player) -> dict:
        """Public: every map's printed layout, its scratched cells and what they showed ("?" for
        unscratched), keys, opened chests, treasure track, points; the dice, whose turn it is, this
        round's events. Unscratched content is in nobody's observation, the owner's included."""
        if player is not None and (type(player) is not int or not 0 <= player < self.num_players):
            raise SpieltischError(f"no player {short(player)} in a game of {self.num_players} players")
        maps = []
        scores = self.scores()
        for p in range(self.num_players):
            if self.layouts:
                lay = self.layouts[p].to_json()
                rows = _found_rows(self.scratched[p], self.content[p])
            else:
                lay, rows = None, None
            maps.append({
                "layout": lay,
                "found": rows,
                "keys": [KEY_COLOUR[k] for k in self.keys[p]],
                "opened": list(self.opened[p]),
                "track": list(self.track[p]),
                "set_points": self.set_points[p],
                "score": scores[p],
            })
        cp = self.current_player()
        phase = self.phase
        return {
            "game": self.game.id,
            "reflect": self.game.reflect,
            "player": player,
            "round": self.round,
            "roller": self.roller,
            "phase": phase,
            "to_move": cp if cp >= 0 else None,
            "terminal": cp == TERMINAL,
            "dice": [{"colour": col, "face": self.dice[i],
                      "state": s if isinstance(s, str) else f"seat {s}"}
                     for i, (col, s) in enumerate(zip(self.game.dice_colours, self.dice_state))],
            "pending": [{"die": d, "face": self.dice[d], "rocks_allowed": r} for d, r in self.pending]
            if phase in ("place", "scratch") else [],
            "placement": list(self.placement) if phase == "scratch" else [],
            "sets_first": list(self.set_first),
            "end_triggered": self.end_triggered,
            "rounds_left": self.rounds_left(),
            "four_chests": list(self.four_chests),
            "events": [dict(e) for e in self.events],
            "last_events": [dict(e) for e in self.last_events],
            "maps": maps,
        }

    # --- refusals ---------------------------------------------------------------------------------------
    def why_illegal(self, action) -> IllegalActionError:
        def no(rule, en, de, rule_de):
            return IllegalActionError(rule, en, de, rule_de)

        ph = self.phase
        kinds = {"choose": Choose, "take": Take, "place": Place, "scratch": Scratch}
        want = kinds.get(ph)
        if ph in ("booklet", "hide", "roll"):
            return no("chance", f"{short(action)} is not an outcome of this chance event",
                      f"{short(action)} ist kein Ergebnis dieses Zufallsereignisses", "Zufall")
        if type(action) is not want:
            rule, en, de, rule_de = {
                "choose": ("die choice", "the roller chooses two dice", "wer würfelt, wählt 2 Würfel", "Würfelwahl"),
                "take": ("remaining dice", "take one of the remaining dice", "einen der übrigen Würfel nehmen",
                         "übrige Würfel"),
                "place": ("motif", "place the die's motif", "das Motiv des Würfels platzieren", "Motiv"),
                "scratch": ("one cell at a time", "scratch the next cell of the motif",
                            "das nächste Feld des Motivs freirubbeln", "ein Feld nach dem anderen")}[ph]
            return no(rule, f"now: {en}; {short(action)} does not fit", f"jetzt: {de}; {short(action)} passt nicht",
                      rule_de)
        p = self.actor
        if ph in ("choose", "take"):
            idx = [action.first, action.second] if ph == "choose" else [action.die]
            for i in idx:
                if type(i) is not int or not 0 <= i < len(self.dice):
                    return no("dice", f"there is no die {short(i)}", f"es gibt keinen Würfel {short(i)}", "Würfel")
                if self.dice_state[i] != "free":
                    return no("remaining dice", f"die {i + 1} is already taken",
                              f"Würfel {i + 1} ist schon vergeben", "übrige Würfel")
            if ph == "choose":
                if action.first == action.second:
                    return no("two dice", "the roller chooses two different dice",
                              "wer würfelt, wählt 2 verschiedene Würfel", "2 Würfel")
                if action.combine is True and not (self.dice[action.second] == PICKAXE
                                                   and self.dice[action.first] != PICKAXE):
                    return no("pickaxe with a motif", "only a pickaxe (second) combines with a motif (first)",
                              "nur eine Spitzhacke (zweiter Würfel) lässt sich mit einem Motiv (erster) kombinieren",
                              "Spitzhacke mit Motiv")
            return super().why_illegal(action)
        layout, scr = self.layouts[p], self.scratched[p]
        if ph == "scratch":
            c = action.cell
            if c not in self.placement:
                return no("whole motif", f"{_cell_text(c)} is not a cell of the placed motif",
                          f"{_cell_text(c)} gehört nicht zum platzierten Motiv", "ganzes Motiv")
            return no("next to the path", f"{_cell_text(c)} is not yet next to the scratched path",
                      f"{_cell_text(c)} grenzt noch nicht an den freigerubbelten Weg",
                      "angrenzend an den Weg")
        cells = action.cells
        if not isinstance(cells, tuple) or not cells or not all(type(c) is int and 0 <= c < CELLS for c in cells):
            return no("cells of the map", f"{short(cells)} are not cells of the 10 × 10 map",
                      f"{short(cells)} sind keine Felder der 10 × 10-Karte", "Felder der Karte")
        if list(cells) != sorted(set(cells)):
            return no("normal form", "list the cells once each, in increasing order",
                      "die Felder einmal und aufsteigend angeben", "Normalform")
        for c in cells:
            if scr >> c & 1:
                return no("scratched once", f"{cell_name(c)} is already scratched",
                          f"{cell_name(c)} ist schon freigerubbelt", "nur einmal freirubbeln")
        for c in cells:
            if c in layout.chests and KEY_CHAR[layout.chests[c][0]] not in self.keys[p]:
                col = layout.chests[c][0]
                return no("chest needs its key", f"the {col} chest at {cell_name(c)} needs the {col} key",
                          f"die {COLOUR_NAMES[col][0]}e Truhe auf {cell_name(c)} braucht den passenden Schlüssel",
                          "passender Schlüssel")
        die, rocks_allowed = self.pending[0]
        nrocks = sum(1 for c in cells if layout.rocks >> c & 1)
        if nrocks > rocks_allowed:
            return no("rocks", "you cannot scratch through rocks unless the pickaxe allows it",
                      "durch Felsen kann man nicht rubbeln, es sei denn, die Spitzhacke erlaubt es", "Felsen")
        if not scr and layout.boat not in cells:
            return no("boat", f"the first motif must cover the boat ({cell_name(layout.boat)})",
                      f"das Bootsfeld ({cell_name(layout.boat)}) muss Teil des ersten Motivs sein", "Bootsfeld")
        face = self.dice[die]
        shapes = ((((0, 0),), ()),) if face == PICKAXE else SHAPES[self.game.reflect][face]
        rel = None
        r0, c0 = min(c // SIZE for c in cells), min(c % SIZE for c in cells)
        rel = tuple(sorted((c // SIZE - r0, c % SIZE - c0) for c in cells))
        match = [pairs for shape, pairs in shapes if shape == rel]
        if not match:
            name_en, name_de = face_name(face, "en"), face_name(face, "de")
            return no("whole motif", f"these cells do not form the die's motif ({name_en}, rotations allowed)",
                      f"diese Felder bilden nicht das Motiv des Würfels ({name_de}, gedreht erlaubt)", "ganzes Motiv")
        if scr and not any(layout.nbr[c] & scr for c in cells):
            return no("next to the path", "one cell of the motif must lie next to your path with no wall between",
                      "das erste Feld des Motivs muss direkt an ein freigerubbeltes Feld angrenzen",
                      "angrenzend an den Weg")
        return no("walls", "there is a wall between two cells of the motif",
                  "zwischen zwei Feldern des Motivs liegt eine Wand", "Wände")


_MAP_TEXT: dict = {}


def _map_text(lay: dict, found: list) -> list:
    """The text lines of one map (cached: every viewer and language draws the same map)."""
    key = (tuple(lay["terrain"]), tuple(lay["walls_east"]), tuple(lay["walls_south"]), tuple(found))
    got = _MAP_TEXT.get(key)
    if got is None:
        terrain, east, south = lay["terrain"], lay["walls_east"], lay["walls_south"]
        lines = ["   " + " ".join("ABCDEFGHIJ")]
        for r in range(SIZE):
            row = ""
            for c in range(SIZE):
                f = found[r][c]
                row += terrain[r][c] if f == "?" else ("~" if f == "." else f)
                row += "|" if east[r][c] == "1" else " "
            lines.append(f"{r + 1:>2} " + row.rstrip())
            if "1" in south[r]:  # walls below this row
                lines.append("   " + "".join("- " if w == "1" else "  " for w in south[r]).rstrip())
        if len(_MAP_TEXT) > 5000:
            _MAP_TEXT.clear()
        got = _MAP_TEXT[key] = tuple(lines)
    return list(got)


_FOUND: dict = {}


def _found_rows(scratched: int, content) -> list:
    """What a map shows: the content of scratched cells, "?" elsewhere, as rows (cached: the same
    map is shown to every viewer at every step)."""
    if not scratched:
        return list(_UNSCRATCHED)
    key = (scratched, content)
    rows = _FOUND.get(key)
    if rows is None:
        if len(_FOUND) > 20_000:
            _FOUND.clear()
        found = "".join(content[c] if scratched >> c & 1 else "?" for c in range(CELLS))
        rows = _FOUND[key] = tuple(found[r * SIZE:(r + 1) * SIZE] for r in range(SIZE))
    return list(rows)


_UNSCRATCHED = tuple("?" * SIZE for _ in range(SIZE))


def _empty_content(layout: Layout) -> str:
    return "".join(EMPTY_CROSS if layout.cross_mask >> c & 1 else NOTHING for c in range(CELLS))


ScratchIsland.state_class = ScratchIslandState
