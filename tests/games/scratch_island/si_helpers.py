"""Hand-built Scratch Island positions: a map drawn in text, its hidden content named by cell."""

from __future__ import annotations

from spieltisch.games.scratch_island.engine import (
    CELLS, KEY_CHAR, SIZE, Booklet, Layout, Roll, ScratchIsland, _empty_content, cell_name,
)

# "A" boat, "b r g y" chests (points in CHEST_POINTS), "x" cross, "#" rock, "." plain
OPEN_MAP = [
    "b........r",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "g....A...y",
]
CHEST_POINTS = {"blue": 3, "red": 4, "green": 5, "yellow": 6}
COLOUR_OF = {"b": "blue", "r": "red", "g": "green", "y": "yellow"}


def cell(name: str) -> int:
    """"A1" -> 0, "J10" -> 99."""
    c = "ABCDEFGHIJ".index(name[0])
    r = int(name[1:]) - 1
    return r * SIZE + c


def layout(rows=OPEN_MAP, walls=(), points=CHEST_POINTS) -> Layout:
    """``walls``: ("E5", "east") puts a wall east of E5, ("E5", "south") south of it."""
    text = "".join(rows)
    assert len(text) == CELLS
    chests = {c: (COLOUR_OF[ch], points[COLOUR_OF[ch]]) for c, ch in enumerate(text) if ch in "brgy"}
    east = south = 0
    for name, side in walls:
        if side == "east":
            east |= 1 << cell(name)
        else:
            south |= 1 << cell(name)
    return Layout(text.index("A"), chests, [c for c, ch in enumerate(text) if ch == "x"],
                  [c for c, ch in enumerate(text) if ch == "#"], east, south)


def content(lay: Layout, items: dict) -> str:
    """Hidden content: ``{"E5": "S", "F5": "1", "C3": "B"}`` (snake, treasure kind 1, blue key)."""
    out = list(_empty_content(lay))
    for name, it in items.items():
        out[cell(name)] = it
    return "".join(out)


def position(players=2, maps=None, contents=None, reflect=False, roller=0, end="all_rolled"):
    """A state at the start of round 1 (dice not rolled) on hand-built maps."""
    game = ScratchIsland(players, {"reflect": reflect, "end": end})
    s = game.new_initial_state()
    s._apply(Booklet(0))
    maps = maps or [layout() for _ in range(players)]
    s._lay = tuple(maps)
    s.content = [content(maps[p], (contents or {}).get(p, {})) for p in range(players)]
    s.hide_seat = players
    s.roller = roller
    s._start_round()
    return s


def roll(state, *faces):
    for f in faces:
        state.apply_action(Roll(f))


def names(cells) -> list:
    return [cell_name(c) for c in cells]


def key(colour: str) -> str:
    return KEY_CHAR[colour]


def random_match(seed: int, players: int, steps: int, move_seed: int):
    """A match of ``players`` after up to ``steps`` random moves (moves drawn from ``move_seed``),
    with any pending chance events (a roll, hidden items) resolved."""
    from spieltisch.core.match import Match
    from spieltisch.core.rng import Rng

    m = Match("scratch-island", players, {}, seed)
    rng = Rng(move_seed)
    for _ in range(steps):
        if m.is_terminal():
            break
        if m.current_player() < 0:
            m.step_chance()
        else:
            la = m.legal_actions()
            m.apply(la[rng.below(len(la))])
    m.resolve_chance()
    return m
