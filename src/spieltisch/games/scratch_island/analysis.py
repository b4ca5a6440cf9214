"""Scratch Island: exact chances from what is visible, the evaluation the bots and the advisor share,
and the exact facts of the game.

Hidden content (snakes, treasure symbols, keys) is placed by the generator uniformly over the
allowed cells given the printed map, so given an observation the unscratched items are spread
uniformly over the unscratched allowed cells of that map. Every single-cell chance is therefore a
count: P(snake under an unscratched plain cell) = snakes left / unscratched plain cells, and so on.
Orders of cells are counted exactly too (hypergeometric). Nothing here reads a state: everything
starts from an observation (``MapView.of``).
"""

from __future__ import annotations

import heapq
from dataclasses import replace
from fractions import Fraction
from math import comb

from ...core.advice import make_advice
from ...core.dist import exact_json
from ...core.errors import SpieltischError, short
from ...core.rng import Rng
from ...core.stats import proportion_ci
from .engine import (
    BOOKLET, CELLS, COLOURS, DATA, KEY_CHAR, KINDS, PICKAXE, SHAPES, SNAKE, SNAKES, TREASURES,
    TREASURE_CHARS, Choose, Layout, Place, Scratch, Take, face_name, cell_name, describe, layout_for,
    next_cells, orientations, placements,
)

RECONSTRUCTION = {"de": "Rekonstruktion: Würfel, Karten und Schatzleiste", "en": "reconstruction: dice, maps and treasure track"}
_LAYOUT_CACHE: dict = {}


def _layout(data: dict) -> Layout:
    key = (tuple(data["terrain"]), tuple(data["walls_east"]), tuple(data["walls_south"]),
           tuple((d["cell"], d["colour"], d["points"]) for d in data["chests"]))
    lay = _LAYOUT_CACHE.get(key)
    if lay is None:
        if len(_LAYOUT_CACHE) > 2000:
            _LAYOUT_CACHE.clear()
        lay = _LAYOUT_CACHE[key] = Layout.from_json(data)
    return lay


class MapView:
    """One map as an observation shows it: the printed layout, the scratched cells and what they
    showed, keys, opened chests, treasure track; and the counts of what is still hidden."""

    __slots__ = ("layout", "scratched", "found", "keys", "opened", "track", "snakes_left", "plain_left",
                 "treasure_left", "keys_left", "crosses_left")

    @classmethod
    def of(cls, observation: dict, seat: int) -> "MapView":
        m = observation["maps"][seat]
        if m["layout"] is None:
            raise SpieltischError("the maps are not printed yet")
        v = cls()
        v.layout = _layout(m["layout"])
        found = v.found = "".join(m["found"])
        v.scratched = sum(1 << c for c in range(CELLS) if found[c] != "?")
        v.keys = "".join(sorted(KEY_CHAR[c] for c in m["keys"]))
        v.opened = tuple(m["opened"])
        v.track = tuple(m["track"])
        v._count()
        return v

    def _count(self):
        lay, scr, found = self.layout, self.scratched, self.found
        plain_seen = [found[c] for c in lay.plain if scr >> c & 1]
        self.plain_left = len(lay.plain) - len(plain_seen)
        self.snakes_left = SNAKES - plain_seen.count(SNAKE)
        self.treasure_left = tuple(TREASURES[k]["symbols"] - plain_seen.count(TREASURE_CHARS[k]) for k in range(KINDS))
        self.crosses_left = sum(1 for c in lay.crosses if not scr >> c & 1)
        self.keys_left = tuple(col for col in COLOURS if KEY_CHAR[col] not in self.keys)

    def after(self, cells) -> "MapView":
        """This map with ``cells`` scratched and nothing found under them (for looking ahead)."""
        v = MapView()
        for name in MapView.__slots__:
            setattr(v, name, getattr(self, name))
        found = list(self.found)
        for c in cells:
            found[c] = "."
            v.scratched |= 1 << c
        v.found = "".join(found)
        v.opened = self.opened + tuple(self.layout.chests[c][0] for c in cells if c in self.layout.chests)
        v._count()
        return v


# --- exact chances ------------------------------------------------------------------------------------
def cell_chances(view: MapView, cell: int) -> dict:
    """What an unscratched ``cell`` hides, exactly: {"snake", "treasure": [per kind], "key": [per
    colour], "nothing"} as Fractions, from the counts of what is still hidden."""
    lay = view.layout
    if view.scratched >> cell & 1:
        raise SpieltischError(f"{cell_name(cell)} is already scratched")
    zero = Fraction(0)
    out = {"snake": zero, "treasure": [zero] * KINDS, "key": {c: zero for c in COLOURS}, "nothing": Fraction(1)}
    if cell in lay.plain:
        u = view.plain_left
        out["snake"] = Fraction(view.snakes_left, u)
        out["treasure"] = [Fraction(t, u) for t in view.treasure_left]
        out["nothing"] = 1 - out["snake"] - sum(out["treasure"])
    elif lay.cross_mask >> cell & 1:
        x = view.crosses_left
        out["key"] = {c: (Fraction(1, x) if c in view.keys_left else zero) for c in COLOURS}
        out["nothing"] = 1 - sum(out["key"].values())
    return out


def snake_chance(view: MapView, cells) -> Fraction:
    """P(a snake under at least one of ``cells``), exactly (only plain cells can hide one)."""
    m = sum(1 for c in cells if c in view.layout.plain and not view.scratched >> c & 1)
    u, s = view.plain_left, view.snakes_left
    return 1 - Fraction(comb(u - s, m), comb(u, m))


def _reach_chance(u: int, s: int, j: int, num):
    """P(no snake among j given unscratched plain cells): C(u-s, j) / C(u, j)."""
    return num(comb(u - s, j), comb(u, j))


# --- evaluation (shared by the bots and the advisor) --------------------------------------------------
GAMMA = Fraction(4, 5)  # a target one cell further away is worth 4/5 as much
ROCK_COST = 3  # a rock needs a pickaxe: counted as three cells of distance
KEY_SHARE = Fraction(1, 2)  # a key earns half of its chest's points, opening it the other half


# the strong bot's settings, which the advisor uses too
STRONG = {"nearest_only": True, "lookahead": True}


def _fracf(a, b=1):
    return Fraction(a, b)


def _floatf(a, b=1):
    return a / b


_DIST_CACHE: dict = {}


def target_distances(layout: Layout) -> dict:
    """For every chest and cross: the cost from each cell to reach it (plain 1, rock 3, other chests
    closed), by Dijkstra from the target. Cached per printed map."""
    got = _DIST_CACHE.get(layout.key)
    if got is not None:
        return got
    out = {}
    for t in (*layout.chests, *layout.crosses):
        dist = [10**6] * CELLS
        dist[t] = 0
        heap = [(0, t)]
        while heap:
            d, c = heapq.heappop(heap)
            if d > dist[c]:
                continue
            # stepping from c to n costs entering c (the target itself costs nothing more)
            step = 0 if c == t else (ROCK_COST if layout.rocks >> c & 1 else 1)
            for n in layout.nbrs[c]:
                if n in layout.chests:
                    continue
                nd = d + step
                if nd < dist[n]:
                    dist[n] = nd
                    heapq.heappush(heap, (nd, n))
        out[t] = tuple(dist)
    if len(_DIST_CACHE) > 2000:
        _DIST_CACHE.clear()
    _DIST_CACHE[layout.key] = out
    return out


class Evaluator:
    """The value of placements and dice for one map, from its ``MapView``: exact expectations
    (Fractions) of a heuristic potential when ``exact``, floats otherwise (the bots' speed).

    ``final``: this is the player's last use of dice (the observation's ``rounds_left`` is 0): only
    points count then – no progress, no keys, a treasure symbol only where it completes its kind."""

    def __init__(self, view: MapView, sets_first, seat: int, exact: bool = False, nearest_only: bool = False,
                 final: bool = False):
        self.view = view
        self.num = _fracf if exact else _floatf
        self.gamma = GAMMA if exact else float(GAMMA)
        self.nearest_only = nearest_only
        self.final = final
        lay = view.layout
        self.dist = target_distances(lay)
        num = self.num
        self.points = {c: p for c, (_, p) in lay.chests.items()}
        # what one treasure symbol of each kind is worth to this player
        if final:
            self.symbol = [num(t["points"]) if sets_first[k] is None and view.track[k] + 1 == t["symbols"]
                           else num(0) for k, t in enumerate(TREASURES)]
        else:
            self.symbol = [num(t["points"], t["symbols"]) if sets_first[k] is None else num(0)
                           for k, t in enumerate(TREASURES)]
        share = 0 if final else (KEY_SHARE if exact else float(KEY_SHARE))
        self.key_value = {col: num(p) * share for _, (col, p) in lay.chests.items()}
        self._memo: dict = {}

    @classmethod
    def of(cls, observation: dict, view: MapView, exact: bool = False, nearest_only: bool = False):
        """The evaluator of ``view`` (a map of ``observation``) for the player to move."""
        return cls(view, observation["sets_first"], observation["to_move"], exact, nearest_only,
                   final=observation.get("rounds_left") == 0)

    def targets(self, view: MapView) -> list:
        """(cell, weight) of every target still open on ``view``."""
        num, lay = self.num, view.layout
        share = KEY_SHARE if num is _fracf else float(KEY_SHARE)
        out = []
        for c, (col, p) in lay.chests.items():
            if col in view.opened:
                continue
            w = num(p) if KEY_CHAR[col] in view.keys else num(p) * share
            out.append((c, w))
        if view.keys_left and view.crosses_left:
            w = sum((self.key_value[col] for col in view.keys_left), num(0)) / view.crosses_left
            for c in lay.crosses:
                if not view.scratched >> c & 1:
                    out.append((c, w))
        return out

    def potential(self, view: MapView, extra=()) -> object:
        """Σ weight × γ^distance over the open targets (or the best single term with
        ``nearest_only``), the distance from the path plus the cells ``extra`` to each target;
        targets among ``extra`` count as reached (their gain is counted where they are scratched).
        Nothing in the last round: there is no later turn to profit from progress."""
        if self.final:
            return self.num(0)
        base = self._base(view)
        total = self.num(0)
        best = None
        gamma = self.gamma
        for t, w in self._targets(view):
            if t in extra:
                continue
            dd = base[t]
            if extra:
                d = self.dist[t]
                for c in extra:
                    if d[c] < dd:
                        dd = d[c]
            if dd >= 10**6:
                continue
            v = w * gamma ** dd
            if self.nearest_only:
                best = v if best is None or v > best else best
            else:
                total += v
        return best if self.nearest_only and best is not None else total

    def _base(self, view: MapView) -> dict:
        key = ("base", view.scratched)
        got = self._memo.get(key)
        if got is None:
            scr = view.scratched
            cells = [c for c in range(CELLS) if scr >> c & 1]
            got = {}
            for t in self.dist:
                d = self.dist[t]
                got[t] = min(d[c] for c in cells) if cells else d[view.layout.boat] + 1
            self._memo[key] = got
        return got

    def _targets(self, view: MapView) -> list:
        key = ("targets", view.scratched, view.opened, view.keys)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self.targets(view)
        return got

    def cell_gain(self, view: MapView, cell: int):
        """Expected points-equivalent found under ``cell`` (treasure, key, opened chest)."""
        lay, num = view.layout, self.num
        if cell in lay.chests:
            return num(self.points[cell])
        if lay.cross_mask >> cell & 1:
            x = view.crosses_left
            return sum((self.key_value[c] for c in view.keys_left), num(0)) / x if x else num(0)
        if cell in lay.plain:
            u = view.plain_left
            return sum((self.symbol[k] * view.treasure_left[k] for k in range(KINDS)), num(0)) / u
        return num(0)

    def order(self, view: MapView, cells) -> list:
        """A good scratching order: cells that cannot hide a snake first, then the rest; each next
        to the path scratched so far."""
        lay = view.layout
        scr = view.scratched
        left = list(cells)
        out = []
        while left:
            nxt = next_cells(lay, scr, left)
            if not nxt:
                break
            safe = [c for c in nxt if c not in lay.plain]
            c = (safe or nxt)[0]
            out.append(c)
            left.remove(c)
            scr |= 1 << c
        return out

    def placement_value(self, view: MapView, cells, base=None, ordered=None):
        """(value, P(no snake in the whole placement)): expected gains in the scratching order
        (a cell counts only if no snake came before it) plus the potential's change if the
        motif is scratched whole."""
        num = self.num
        order = ordered if ordered is not None else self.order(view, cells)
        u, s = view.plain_left, view.snakes_left
        gain = num(0)
        j = 0
        lay = view.layout
        for c in order:
            g = self.cell_gain(view, c)
            if g:
                if c in lay.plain:
                    # P(c holds it and no snake among the j plain cells before): by exchangeability
                    gain += g * _reach_chance(u - 1, s, j, num)
                else:
                    gain += g * _reach_chance(u, s, j, num)
            if c in lay.plain:
                j += 1
        whole = _reach_chance(u, s, j, num)
        base = self.potential(view) if base is None else base
        delta = self.potential(view, order) - base
        return gain + whole * delta, whole

    def best_placement(self, view: MapView, face: str, rocks: int, reflect: bool):
        """(value, survive chance, cells) of the best placement of ``face``; None if none fits."""
        opts = placements(view.layout, view.scratched, view.keys, face, reflect, rocks)
        if not opts:
            return None
        base = self.potential(view)
        best = None
        for cells in opts:
            v, w = self.placement_value(view, cells, base)
            if best is None or v > best[0]:
                best = (v, w, cells)
        return best


def decision_values(observation: dict, legal, exact: bool = False, nearest_only: bool = False,
                    lookahead: bool = True):
    """(action, value, note) for every legal action of the player to move, from the observation."""
    seat = observation["to_move"]
    view = MapView.of(observation, seat)
    ev = Evaluator.of(observation, view, exact, nearest_only)
    reflect = observation["reflect"]
    dice = observation["dice"]
    num = ev.num
    out = []
    phase = observation["phase"]
    if phase == "place":
        pend = observation["pending"]
        base = ev.potential(view)
        rest = None
        if len(pend) > 1 and lookahead:
            rest = pend[1]
        for a in legal:
            v, w = ev.placement_value(view, a.cells, base)
            if rest is not None:
                nxt = ev.best_placement(view.after(a.cells), rest["face"], rest["rocks_allowed"], reflect)
                if nxt is not None:
                    v += w * nxt[0]
            out.append((a, v, _place_note(view, ev, a.cells)))
    elif phase == "scratch":
        remaining = observation["placement"]
        base = ev.potential(view)
        for a in legal:
            rest = [c for c in remaining if c != a.cell]
            sub = view  # scratch a.cell first, then the evaluator's order for the rest
            order = [a.cell] + ev.order(view.after([a.cell]), rest)
            v, _ = ev.placement_value(sub, remaining, base, ordered=order)
            out.append((a, v, {"de": f"Schlange: {_pct(snake_chance(view, [a.cell]))}",
                               "en": f"snake: {_pct(snake_chance(view, [a.cell]))}"}))
    elif phase == "take":
        for a in legal:
            face = dice[a.die]["face"]
            best = ev.best_placement(view, face, 1 if face == PICKAXE else 0, reflect)
            v = best[0] if best else num(0)
            out.append((a, v, {"de": face_name(face, "de"), "en": face_name(face, "en")}))
    elif phase == "choose":
        firsts = {}
        for a in legal:
            fa, fb = dice[a.first]["face"], dice[a.second]["face"]
            if a.combine:
                best = ev.best_placement(view, fa, 1, reflect)
                v = best[0] if best else num(0)
            else:
                key = a.first
                if key not in firsts:
                    firsts[key] = ev.best_placement(view, fa, 1 if fa == PICKAXE else 0, reflect)
                b1 = firsts[key]
                if not lookahead:
                    b2 = ev.best_placement(view, fb, 1 if fb == PICKAXE else 0, reflect)
                    v = (b1[0] if b1 else num(0)) + (b2[0] if b2 else num(0))
                else:
                    v1, w1, cells = b1 if b1 else (num(0), num(1), ())
                    b2 = ev.best_placement(view.after(cells), fb, 1 if fb == PICKAXE else 0, reflect)
                    v = v1 + w1 * (b2[0] if b2 else num(0))
            out.append((a, v, {"de": f"{face_name(fa, 'de')} + {face_name(fb, 'de')}",
                               "en": f"{face_name(fa, 'en')} + {face_name(fb, 'en')}"}))
    else:
        raise SpieltischError(f"no decision to value in phase {short(phase)}")
    return out


def _pct(q) -> str:
    return f"{float(q) * 100:.1f} %"


def _place_note(view: MapView, ev: Evaluator, cells) -> dict:
    snake = snake_chance(view, cells)
    lay = view.layout
    sym = sum((Fraction(sum(view.treasure_left), view.plain_left) for c in cells
               if c in lay.plain and not view.scratched >> c & 1), Fraction(0))
    keys = sum((Fraction(len(view.keys_left), view.crosses_left) for c in cells
                if lay.cross_mask >> c & 1), Fraction(0))
    after = view.after(cells)
    dists = []
    for c, (col, _) in sorted(lay.chests.items()):
        if col in after.opened:
            continue
        d = ev.dist[c]
        dists.append(f"{col} {min(d[x] for x in range(CELLS) if after.scratched >> x & 1)}")
    return {"de": f"Schlange {_pct(snake)}, Schatzsymbole {float(sym):.2f}, Schlüssel {float(keys):.2f}; "
                  f"Abstand zu den Truhen: {', '.join(dists) or '-'}",
            "en": f"snake {_pct(snake)}, treasure symbols {float(sym):.2f}, keys {float(keys):.2f}; "
                  f"distance to the chests: {', '.join(dists) or '-'}"}


# --- a die on the current map ---------------------------------------------------------------------------
def scratch_orders(view: MapView, cells) -> int:
    """How many orders the cells of a placement can be scratched in (each next to the path so far;
    on an empty map the boat first), counted exactly."""
    lay = view.layout

    def count(scr, left):
        if not left:
            return 1
        return sum(count(scr | 1 << c, [x for x in left if x != c]) for c in next_cells(lay, scr, left))

    return count(view.scratched, list(cells))


def die_report(observation: dict, seat: int, face: str, combined: bool = False) -> dict:
    """Every legal placement of ``face`` on ``seat``'s map as the observation shows it, counted
    exactly: its cells, how many scratching orders it has, the chance of meeting a snake, the
    expected treasure symbols and keys uncovered, and the distance to each unopened chest it leaves;
    ``combined``: with the pickaxe (one cell may be a rock). Also the value of the pickaxe: how many
    more placements the combination allows."""
    view = MapView.of(observation, seat)
    ev = Evaluator(view, observation["sets_first"], seat, exact=True, nearest_only=STRONG["nearest_only"],
                   final=observation.get("rounds_left") == 0)
    rocks = 1 if combined or face == PICKAXE else 0
    opts = placements(view.layout, view.scratched, view.keys, face, observation["reflect"], rocks)
    rows = []
    for cells in opts:
        lay = view.layout
        plain = [c for c in cells if c in lay.plain]
        after = view.after(cells)
        dist = {}
        for c, (col, _) in sorted(lay.chests.items()):
            if col not in after.opened:
                d = ev.dist[c]
                dist[col] = min(d[x] for x in range(CELLS) if after.scratched >> x & 1)
        rows.append({
            "cells": [cell_name(c) for c in cells],
            "orders": scratch_orders(view, cells),
            "snake": snake_chance(view, cells),
            "treasure_symbols": Fraction(sum(view.treasure_left) * len(plain), view.plain_left),
            "keys": Fraction(len(view.keys_left) * sum(1 for c in cells if lay.cross_mask >> c & 1),
                             max(view.crosses_left, 1)),
            "chest_distance": dist,
            "value": ev.placement_value(view, cells)[0],
        })
    out = {"face": face, "combined": combined, "placements": len(rows),
           "orders": sum(r["orders"] for r in rows), "options": rows}
    if face != PICKAXE and not combined:
        with_pick = placements(view.layout, view.scratched, view.keys, face, observation["reflect"], 1)
        out["pickaxe_adds_placements"] = len(with_pick) - len(rows)
        best = ev.best_placement(view, face, 1, observation["reflect"])
        alone = max((r["value"] for r in rows), default=Fraction(0))
        # what combining the pickaxe with this motif adds to the best placement's value
        out["pickaxe_value"] = (best[0] if best else Fraction(0)) - alone
    return out


def map_chances(observation: dict, seat: int) -> dict:
    """For every unscratched cell of ``seat``'s map that can hide something: the exact chances of a
    snake, a treasure symbol (any kind) and a key, by cell name."""
    view = MapView.of(observation, seat)
    lay = view.layout
    out = {}
    for c in (*lay.plain, *lay.crosses):
        if view.scratched >> c & 1:
            continue
        ch = cell_chances(view, c)
        out[cell_name(c)] = {"snake": ch["snake"], "treasure": sum(ch["treasure"]), "key": sum(ch["key"].values())}
    return out


# --- advisor ------------------------------------------------------------------------------------------
def advise(game, observation: dict):
    """Every option of the decision in ``observation``, valued exactly (Fractions) by the strong
    bot's evaluation: expected points found in the scratching order (a cell counts only if no snake
    came before it), plus the change of a potential, the best open target's weight × (4/5)^distance,
    if the motif is scratched whole (in the last round points only); the roller's two dice in order,
    the second counted only if the first meets no snake. Options are named by their motifs
    (``engine.describe``). Chances come from the counts of what is still hidden: nothing is read from the true map."""
    if not isinstance(observation, dict) or observation.get("game") != game.id:
        raise SpieltischError(f"not an observation of {game.id}: {short(observation)}")
    if observation.get("terminal") or observation.get("to_move") is None:
        raise SpieltischError("there is no decision to advise on here")
    try:
        legal = legal_from_observation(game, observation)
        valued = decision_values(observation, legal, exact=True, **STRONG)
    except SpieltischError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise SpieltischError(f"a damaged observation of {game.id} ({type(e).__name__}: {short(e)})") from None
    advice = make_advice([(a, v) for a, v, _ in valued],
                         notes={a: n for a, _, n in valued},
                         method={"de": "exakte Erwartungswerte aus den sichtbaren Zählungen (" + RECONSTRUCTION["de"] + ")",
                                 "en": "exact expectations from the visible counts (" + RECONSTRUCTION["en"] + ")"},
                         objective={"de": "Punkte plus Fortschritt zu Truhen und Kreuzen (Heuristik); "
                                          "in der letzten Runde nur Punkte",
                                    "en": "points plus progress towards chests and crosses (heuristic); "
                                          "in the last round points only"})
    # the options named as the board names them (the motifs chosen, not die numbers): the review
    # shows these labels
    options = tuple(replace(o, label={lang: describe(o.action, observation, lang) for lang in ("de", "en")})
                    for o in advice.options)
    return replace(advice, options=options)


def legal_from_observation(game, observation: dict) -> list:
    """The legal actions of the player to move, rebuilt from the observation alone (the advisor
    gets no state)."""
    seat = observation["to_move"]
    phase = observation["phase"]
    dice = observation["dice"]
    free = [i for i, d in enumerate(dice) if d["state"] == "free"]
    if phase == "choose":
        out = []
        for a in free:
            for b in free:
                if a != b:
                    out.append(Choose(a, b, False))
                    if dice[b]["face"] == PICKAXE and dice[a]["face"] != PICKAXE:
                        out.append(Choose(a, b, True))
        return out
    if phase == "take":
        return [Take(i) for i in free]
    view = MapView.of(observation, seat)
    if phase == "place":
        p = observation["pending"][0]
        return [Place(c) for c in placements(view.layout, view.scratched, view.keys, p["face"],
                                             observation["reflect"], p["rocks_allowed"])]
    if phase == "scratch":
        return [Scratch(c) for c in next_cells(view.layout, view.scratched, observation["placement"])]
    raise SpieltischError(f"no decision in phase {short(phase)}")


# --- exact facts ----------------------------------------------------------------------------------------
def analyze(game, progress=None) -> dict:
    reflect = game.reflect
    faces = {}
    for colour, fs in DATA["dice"].items():
        faces[colour] = {f: exact_json(Fraction(fs.count(f), 6)) for f in dict.fromkeys(fs)}
    n = len(game.dice_colours)
    no_pick = Fraction(1)
    for colour in game.dice_colours:
        no_pick *= Fraction(6 - DATA["dice"][colour].count(PICKAXE), 6)
    lay = layout_for(0, 0)
    u = len(lay.plain)
    first = {m: len(placements(lay, 0, "", m, reflect, 0)) for m in SHAPES[reflect]}
    meet = {k: exact_json(1 - Fraction(comb(u - SNAKES, k), comb(u, k))) for k in range(1, 5)}
    # a sampled cross-check of the exact snake chance: the generator's own chance nodes hide the
    # items of the reference map again and again; how often is a snake under its first plain cell?
    from .engine import Booklet, ScratchIsland
    probe = ScratchIsland(2).new_initial_state()
    probe._apply(Booklet(0))
    rng = Rng(1)
    trials = 3000
    hits = 0
    target = lay.plain[0]
    for _ in range(trials):
        st = probe.clone()
        while st.hide_seat == 0:
            st._apply(st.sample_chance(rng))
        hits += st.content[0][target] == SNAKE
    est = proportion_ci(hits, trials)
    return {
        "game": game.ruleset,
        "options": dict(game.options),
        "provenance": RECONSTRUCTION,
        "players": game.num_players,
        "dice": list(game.dice_colours),
        "face_probabilities": faces,
        "roll_has_a_pickaxe": exact_json(1 - no_pick),
        "dice_rolled": n,
        "orientations": {m: len(orientations(m, reflect)) for m in SHAPES[reflect]},
        "reference_map": {"page": 0, "seat": 0, "plain_cells": u,
                          "first_placements_covering_the_boat": first},
        "prior_chances": {
            "snake_under_a_plain_cell": exact_json(Fraction(SNAKES, u)),
            "treasure_symbol_under_a_plain_cell": exact_json(Fraction(sum(t["symbols"] for t in TREASURES), u)),
            "key_under_a_cross": exact_json(Fraction(len(COLOURS), len(lay.crosses))),
            "motif_of_k_plain_cells_meets_a_snake": meet,
        },
        "sampled_check": {"snake_under_a_plain_cell": est.to_json(), "cell": cell_name(target), "trials": trials,
                          "contains_exact": est.contains(Fraction(SNAKES, u))},
        "booklet_pages": BOOKLET,
        "max_points": sum(DATA["map"]["chest_points"]) + sum(t["points"] for t in TREASURES),
    }
