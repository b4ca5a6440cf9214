"""Tüfteln (Jannik Walter / Reinhard Staupe): 15 shared throws of two dice, written onto 2×2 squares.

Every round one throw of two dice (a chance node) is shared by all players; then each player in seat
order writes both numbers onto their own sheet. Fields are indexed ``row * 6 + col`` (rows and
columns 0–5); people see them named by column letter and row number, "A1" top left to "F6" bottom
right (``field_name``). The sheet layouts are data (``sheet_a.json``, ``sheet_b.json``) and checked on load.
"""

from __future__ import annotations

import json
from fractions import Fraction
from importlib import resources
from itertools import combinations
from typing import NamedTuple

from ...core.errors import IllegalActionError, SpieltischError, short
from ...core.game import CHANCE, TERMINAL, Game, State
from ...core.options import OptionSpec
from . import scoring

SIZE = 6
FIELDS = SIZE * SIZE


def column_name(c: int) -> str:
    """The letter of column ``c`` (0–5) as written above the sheet: A–F, left to right."""
    return "ABCDEF"[c]


def row_name(r: int) -> str:
    """The number of row ``r`` (0–5) as written beside the sheet: 1–6, top to bottom."""
    return str(r + 1)


def field_name(f: int) -> str:
    """The name people read off the drawn sheet: column letter and row number, "A1" (top left,
    index 0) to "F6" (bottom right, index 35). Records keep row and column numbers (``to_json``)."""
    r, c = divmod(f, SIZE)
    return column_name(c) + row_name(r)


class Throw(NamedTuple):
    """One throw of the two dice (ordered: first die, second die)."""

    first: int
    second: int

    def __str__(self):
        return f"🎲 {self.first} {self.second}"

    def label(self, lang: str = "en") -> str:
        if lang == "de":
            return f"Wurf {self.first} und {self.second}"
        return f"throw {self.first} and {self.second}"

    def to_json(self):
        return [self.first, self.second]


class Place(NamedTuple):
    """Write ``v1`` into field ``f1`` and ``v2`` into field ``f2`` (normal form: ``f1 < f2``).

    Putting the thrown numbers into the same two fields the other way round is a different action
    only when the numbers differ; with a double both orders are this one action. Build one with
    ``Place.make`` to get the normal form from any order.
    """

    f1: int
    v1: int
    f2: int
    v2: int

    @staticmethod
    def make(field_a, value_a: int, field_b, value_b: int) -> "Place":
        fa, fb = _field_index(field_a), _field_index(field_b)
        if fa <= fb:
            return Place(fa, value_a, fb, value_b)
        return Place(fb, value_b, fa, value_a)

    def __str__(self):
        return f"{self.v1}→{_field_text(self.f1)}, {self.v2}→{_field_text(self.f2)}"

    def label(self, lang: str = "en") -> str:
        """"5→F1, 4→A3": number → field, fields named as on the sheet; the same in both languages."""
        return str(self)

    def to_json(self):
        return [[self.f1 // SIZE, self.f1 % SIZE, self.v1], [self.f2 // SIZE, self.f2 % SIZE, self.v2]]


def _field_text(f) -> str:
    # a refused action is named too, and its fields may be anything
    return field_name(f) if type(f) is int and 0 <= f < FIELDS else repr(f)


def _field_index(field) -> int:
    if isinstance(field, tuple) and len(field) == 2:
        r, c = field
        if isinstance(r, int) and isinstance(c, int) and 0 <= r < SIZE and 0 <= c < SIZE:
            return r * SIZE + c
        return -1
    return field


# --- sheet layouts -------------------------------------------------------------------------------

class Layout:
    """One side of the sheet: pre-printed numbers, field kinds and the groups a pair may share.

    A placement is legal when its two fields are free and lie in one *group*: on side A the white
    fields form one group and every bridge is a group of two; on side B every colour is a group.
    """

    def __init__(self, data: dict, source: str = "layout"):
        def bad(msg):
            raise ValueError(f"{source}: {msg}")

        self.side = data.get("side")
        self.placement = data.get("placement")
        self.provenance = data.get("provenance")
        if self.placement not in ("white_or_bridge", "same_colour"):
            bad(f"placement must be 'white_or_bridge' or 'same_colour', got {self.placement!r}")
        if not self.provenance:
            bad("a layout must say where it comes from ('provenance')")
        rows = data.get("rows")
        if not isinstance(rows, list) or len(rows) != SIZE:
            bad(f"needs {SIZE} rows")
        tokens = []
        for i, row in enumerate(rows):
            t = row.split()
            if len(t) != SIZE:
                bad(f"row {i} has {len(t)} fields, not {SIZE}")
            tokens += t
        self.kinds = dict(data.get("kinds", {}))
        self.printed = [0] * FIELDS
        self.kind = [None] * FIELDS
        for f, t in enumerate(tokens):
            if t.isdigit():
                if not 1 <= int(t) <= 6:
                    bad(f"pre-printed number {t} at {field_name(f)} is not a die face")
                self.printed[f] = int(t)
            elif t in self.kinds:
                self.kind[f] = t
            else:
                bad(f"unknown field kind {t!r} at {field_name(f)}")
        empty = [f for f in range(FIELDS) if not self.printed[f]]
        if len(empty) % 2:
            bad("an odd number of empty fields cannot be filled two at a time")
        self.rounds = len(empty) // 2

        self.bridges: list[tuple[int, int]] = []
        self.bridge_of = [None] * FIELDS
        for pair in data.get("bridges", []):
            if len(pair) != 2:
                bad(f"a bridge joins two fields, got {pair!r}")
            fs = tuple(_field_index(tuple(p)) for p in pair)
            for f in fs:
                if not isinstance(f, int) or not 0 <= f < FIELDS or self.printed[f]:
                    bad(f"bridge {pair!r} uses a field that is not an empty field of the sheet")
                if self.bridge_of[f] is not None:
                    bad(f"field {field_name(f)} is in two bridges")
            if fs[0] == fs[1]:
                bad(f"bridge {pair!r} joins a field to itself")
            for f in fs:
                self.bridge_of[f] = len(self.bridges)
            self.bridges.append(tuple(sorted(fs)))

        groups: list[tuple[str, tuple[int, ...]]] = []
        if self.placement == "white_or_bridge":
            if set(self.kinds) != {"W", "B"}:
                bad("side with bridges needs exactly the kinds W (white) and B (blue)")
            for f in empty:
                if (self.kind[f] == "B") != (self.bridge_of[f] is not None):
                    bad(f"field {field_name(f)}: blue fields and bridge fields must be the same fields")
            groups.append(("W", tuple(f for f in empty if self.kind[f] == "W")))
            groups += [(f"bridge{i}", b) for i, b in enumerate(self.bridges)]
        else:
            if self.bridges:
                bad("a same-colour side has no bridges")
            for k in self.kinds:
                groups.append((k, tuple(f for f in empty if self.kind[f] == k)))
        for name, fs in groups:
            if len(fs) % 2:
                bad(f"group {name} has an odd number of fields, so a player could be stuck")
        self.groups = groups
        self.group_of = [None] * FIELDS
        for gi, (_, fs) in enumerate(groups):
            for f in fs:
                self.group_of[f] = gi
        # every pair of fields that may take one throw, with its bit mask
        self.pairs = tuple((a, b, (1 << a) | (1 << b)) for _, fs in groups for a, b in combinations(fs, 2))
        self.full_free = sum(1 << f for f in empty)
        self._pair_cache: dict[int, list] = {}

    def free_pairs(self, free: int) -> list:
        """Pairs (f1, f2, mask) of fields that may take the next throw, given the free-field mask."""
        cache = self._pair_cache
        got = cache.get(free)
        if got is None:
            if len(cache) > 200_000:
                cache.clear()
            got = cache[free] = [p for p in self.pairs if p[2] & free == p[2]]
        return got


def load_layout(side: str) -> Layout:
    name = f"sheet_{side.lower()}.json"
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    layout = Layout(json.loads(text), name)
    if layout.side != side:
        raise ValueError(f"{name}: says side {layout.side!r}, expected {side!r}")
    return layout


LAYOUTS: dict[str, Layout] = {}


def layout_for(side: str) -> Layout:
    if side not in LAYOUTS:
        LAYOUTS[side] = load_layout(side)
    return LAYOUTS[side]


# --- game and state --------------------------------------------------------------------------------

THROWS = tuple(Throw(a, b) for a in range(1, 7) for b in range(1, 7))
THROW_OUTCOMES = tuple((t, Fraction(1, 36)) for t in THROWS)


class Tuefteln(Game):
    id = "tuefteln"
    version = 1
    name = {"de": "Tüfteln", "en": "Tüfteln (Tinkering)"}
    summary = {
        "de": "15 Würfe mit zwei Würfeln, von allen geteilt: Zahlen in 2×2-Quadrate eintragen, "
              "um Mix, 2er, 2er + 2er, Cross, 4er und Straßen zu bilden.",
        "en": "15 shared throws of two dice: write the numbers into 2×2 squares to make mixes, pairs, "
              "two pairs, crosses, fours of a kind and straights.",
    }
    min_players = 1
    max_players = 15
    default_players = 1
    option_specs = (
        OptionSpec("side", "A", "sheet side: A (white fields and blue bridges) or B (same colour)",
                   choices=("A", "B")),
        OptionSpec("descending_straights", False,
                   "also count straights that run downward clockwise (the rulebook says clockwise, "
                   "which the project reads as ascending)"),
    )
    #: what the options are called on a screen (the class-round form), German and English
    option_labels = {
        "side": {"de": "Seite des Blocks", "en": "sheet side", "choices": {
            "A": {"de": "A (weiße Felder, blaue Brücken)", "en": "A (white fields, blue bridges)"},
            "B": {"de": "B (gleiche Farbe)", "en": "B (same colour)"},
        }},
        "descending_straights": {"de": "auch fallende Straßen zählen", "en": "falling straights count too"},
    }
    class_code_number = 2  # (ui.classroom: given once, never changed)
    ranks_decisions = True  # the review plays every option out to the game's end (expected final points)
    test_configs = ((1, {"side": "A"}), (2, {"side": "B"}), (5, {"side": "A", "descending_straights": True}))

    def __init__(self, num_players=None, options=None):
        super().__init__(num_players, options)
        self.layout = layout_for(self.options["side"])
        self.descending = self.options["descending_straights"]
        self.table = scoring.category_table(self.descending)

    # --- text (from an observation and the layout only) ---------------------------------------------
    def render_observation(self, observation: dict, lang: str = "en") -> str:
        """Every sheet, then one line: the round, the throw, who threw it and who writes."""
        sheets = "\n\n".join(self.render_sheet(observation, p, lang) for p in range(len(observation["sheets"])))
        return sheets + "\n" + self._status(observation, lang)

    def _status(self, obs: dict, lang: str) -> str:
        de = lang == "de"
        rounds = obs["rounds"]
        if obs["terminal"]:
            scores = ", ".join(str(s["score"]) for s in obs["sheets"])
            return ("Ende. Punkte: " if de else "Game over. Scores: ") + scores
        thrower = obs["thrower"] + 1
        if obs["throw"] is None:
            return (f"Runde {obs['round'] + 1}/{rounds}: Spieler {thrower} würfelt" if de
                    else f"Round {obs['round'] + 1}/{rounds}: player {thrower} throws the dice next")
        a, b = obs["throw"]
        writer = obs["to_move"] + 1
        return (f"Runde {obs['round']}/{rounds}, Wurf {a} und {b} (Würfler: Spieler {thrower}): "
                f"Spieler {writer} trägt ein" if de
                else f"Round {obs['round']}/{rounds}, throw {a} and {b} (thrown by player {thrower}): "
                     f"player {writer} writes")

    def render_sheet(self, observation: dict, player: int, lang: str = "en") -> str:
        """``player``'s sheet in ``observation`` as text: [n] pre-printed, n written; empty fields
        show their kind (· white; a–g bridge letters on side A; y r g u v colours on side B)."""
        layout = self.layout
        seen = observation["sheets"][player]
        sheet = [v for row in seen["fields"] for v in row]
        cats = [sq["category"] for sq in seen["squares"]]
        labels = scoring.LABELS.get(lang, scoring.LABELS["en"])

        def mark(f):
            if layout.placement == "white_or_bridge":
                b = layout.bridge_of[f]
                return "·" if b is None else "abcdefghijklmnop"[b]
            return layout.kind[f].lower()

        def cell(f):
            if layout.printed[f]:
                return f"[{layout.printed[f]}]"
            if sheet[f]:
                m = mark(f)
                return f" {sheet[f]}{' ' if m == '·' else m}"
            return f" {mark(f)} "

        border = "+" + "+".join(["-" * 7] * 3) + "+"
        head = ("Spieler" if lang == "de" else "Player") + f" {player + 1}"
        if observation["player"] == player:
            head += " (du)" if lang == "de" else " (you)"
        head += " — " + ("Seite" if lang == "de" else "side") + f" {layout.side}"
        lines = [head, "    " + "".join(f" {column_name(c)} " + (" " if c % 2 else "") for c in range(SIZE)),
                 "   " + border]
        for r in range(SIZE):
            row = "".join(cell(r * SIZE + c) + ("|" if c % 2 else "") for c in range(SIZE))
            note = ""
            if r % 2:
                parts = []
                for sq in range(3 * (r // 2), 3 * (r // 2) + 3):
                    c = cats[sq]
                    parts.append("…" if c is None else f"{labels[c]} {scoring.POINTS[c]}")
                note = "   " + " | ".join(parts)
            lines.append(f" {row_name(r)} |" + row + note)
            if r % 2:
                lines.append("   " + border)
        lines.append(("Bonus 7, " if seen["bonus"] else "") + ("Summe" if lang == "de" else "total")
                     + f": {seen['score']}")
        return "\n".join(lines)


class TueftelnState(State):
    def __init__(self, game: Tuefteln):
        super().__init__(game)
        layout = game.layout
        self.sheets = [list(layout.printed) for _ in range(self.num_players)]
        self.free = [layout.full_free] * self.num_players
        self.rounds_done = 0  # throws made so far
        self.throw: Throw | None = None
        self.turn = 0  # the player to write the current throw

    # --- protocol --------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.throw is None:
            return TERMINAL if self.rounds_done >= self.game.layout.rounds else CHANCE
        return self.turn

    def chance_outcomes(self):
        return list(THROW_OUTCOMES)

    def sample_chance(self, rng):
        return Throw(rng.die(), rng.die())

    def _legal_actions(self) -> list:
        a, b = self.throw
        pairs = self.game.layout.free_pairs(self.free[self.turn])
        if a == b:
            return [Place(f1, a, f2, a) for f1, f2, _ in pairs]
        out = []
        for f1, f2, _ in pairs:
            out.append(Place(f1, a, f2, b))
            out.append(Place(f1, b, f2, a))
        return out

    def is_legal(self, action) -> bool:
        """Fast check, same answer as ``action in legal_actions()``."""
        if self.throw is None:
            return (self.rounds_done < self.game.layout.rounds and type(action) is Throw
                    and type(action.first) is int and type(action.second) is int and action in THROWS)
        if type(action) is not Place:
            return False
        f1, v1, f2, v2 = action
        a, b = self.throw
        if type(v1) is not int or type(v2) is not int or not ((v1 == a and v2 == b) or (v1 == b and v2 == a)):
            return False
        if not (type(f1) is int and type(f2) is int and 0 <= f1 < f2 < FIELDS):
            return False
        layout = self.game.layout
        m = (1 << f1) | (1 << f2)
        g = layout.group_of[f1]
        return g is not None and g == layout.group_of[f2] and self.free[self.turn] & m == m

    def _apply(self, action) -> None:
        if self.throw is None:
            self.throw = action
            self.rounds_done += 1
            self.turn = 0
            return
        p = self.turn
        sheet = self.sheets[p]
        sheet[action.f1] = action.v1
        sheet[action.f2] = action.v2
        self.free[p] &= ~((1 << action.f1) | (1 << action.f2))
        self.turn = p + 1
        if self.turn == self.num_players:
            self.throw = None
            self.turn = 0

    def clone(self) -> "TueftelnState":
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c.sheets = [list(s) for s in self.sheets]
        c.free = list(self.free)
        return c

    # --- scores ------------------------------------------------------------------------------
    def square_categories(self, player: int) -> list:
        return scoring.square_categories(self.sheets[player], self.game.descending)

    def scores(self) -> list:
        return [scoring.total(self.square_categories(p))[0] for p in range(self.num_players)]

    def chance_player(self) -> int | None:
        """The thrower of the coming throw: round r (0-based) is thrown by player r mod n, so the
        dice go round clockwise ("Der Würfler wechselt nach jeder Runde im Uhrzeigersinn")."""
        if self.throw is None and self.rounds_done < self.game.layout.rounds:
            return self.rounds_done % self.num_players
        return None

    def observation(self, player: int | None) -> dict:
        """Everything on the table is public: every sheet, the throw, whose turn it is. Only the
        throws to come are unknown, so every viewer, the spectator (None) included, sees the same
        apart from ``player``."""
        if player is not None and (type(player) is not int or not 0 <= player < self.num_players):
            raise SpieltischError(f"no player {short(player)} in a game of {self.num_players} players")
        sheets = []
        for p in range(self.num_players):
            cats = self.square_categories(p)
            points, bonus = scoring.total(cats)
            s = self.sheets[p]
            sheets.append({
                "fields": [s[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)],
                "squares": [{"category": c, "points": None if c is None else scoring.POINTS[c]} for c in cats],
                "bonus": bonus,
                "score": points,
            })
        cp = self.current_player()
        if cp == CHANCE:
            thrower = self.chance_player()
        elif cp == TERMINAL:
            thrower = None
        else:  # the throw being written was made by the player of its round
            thrower = (self.rounds_done - 1) % self.num_players
        return {
            "game": self.game.id,
            "side": self.options["side"],
            "descending_straights": self.options["descending_straights"],
            "player": player,
            "round": self.rounds_done,
            "rounds": self.game.layout.rounds,
            "throw": None if self.throw is None else self.throw.to_json(),
            "thrower": thrower,
            "to_move": cp if cp >= 0 else None,
            "terminal": cp == TERMINAL,
            "sheets": sheets,
        }

    # --- explanations ------------------------------------------------------------------------
    def why_illegal(self, action) -> IllegalActionError:
        """The rule ``action`` breaks, with the detail in English and in German."""
        layout = self.game.layout

        # each refusal: the rule's English name, the detail in English, the detail in German, the
        # rule's German name
        def no(rule, en, de, rule_de):
            return IllegalActionError(rule, en, de, rule_de)

        if self.current_player() == TERMINAL:
            return no("end of game", "the game is over", "das Spiel ist vorbei", "Spielende")
        if self.throw is None:
            if isinstance(action, Place):
                return no("throw first", "the dice must be thrown before anyone writes",
                          "erst wird gewürfelt, dann eingetragen", "erst würfeln")
            return no("two dice", f"{short(action)} is not a throw of two dice",
                      f"{short(action)} ist kein Wurf mit zwei Würfeln", "zwei Würfel")
        if isinstance(action, Throw):
            a, b, p = self.throw.first, self.throw.second, self.turn + 1
            return no("one throw per round", f"the dice show {a} and {b}; player {p} must write them first",
                      f"die Würfel zeigen {a} und {b}; erst muss Spieler {p} sie eintragen",
                      "ein Wurf pro Runde")
        if not isinstance(action, Place):
            return no("placement", f"{short(action)} is not a placement of two numbers",
                      f"{short(action)} ist kein Eintrag von zwei Zahlen", "Eintrag")
        f1, v1, f2, v2 = action
        a, b = self.throw
        if type(v1) is not int or type(v2) is not int or sorted((v1, v2)) != sorted((a, b)):
            return no("write the throw", f"the dice show {a} and {b}; {short(v1)} and {short(v2)} cannot be written",
                      f"die Würfel zeigen {a} und {b}; {short(v1)} und {short(v2)} können nicht eingetragen werden",
                      "den Wurf eintragen")
        for f in (f1, f2):
            if type(f) is not int or not 0 <= f < FIELDS:
                return no("fields of the sheet", f"{short(f)} is not a field of the 6×6 sheet",
                          f"{short(f)} ist kein Feld des 6×6-Zettels", "Felder des Zettels")
        if f1 == f2:
            return no("two fields", "the two numbers go into two different fields",
                      "die beiden Zahlen kommen in zwei verschiedene Felder", "zwei Felder")
        sheet, free = self.sheets[self.turn], self.free[self.turn]
        for f in (f1, f2):
            name = field_name(f)
            if layout.printed[f]:
                n = layout.printed[f]
                return no("pre-printed field", f"field {name} has the pre-printed {n}",
                          f"in Feld {name} steht die vorgedruckte {n}", "vorgedruckte Felder")
            if not free >> f & 1:
                return no("free fields", f"field {name} already holds a {sheet[f]}",
                          f"in Feld {name} steht schon eine {sheet[f]}", "freie Felder")
        if layout.placement == "white_or_bridge":
            k1, k2 = layout.kind[f1], layout.kind[f2]
            if k1 == "B" or k2 == "B":
                if layout.bridge_of[f1] != layout.bridge_of[f2]:
                    blue = f1 if k1 == "B" else f2
                    partner = [f for f in layout.bridges[layout.bridge_of[blue]] if f != blue][0]
                    nb, np = field_name(blue), field_name(partner)
                    return no("bridge", f"blue field {nb} may only be filled together with its "
                                        f"bridge partner {np}",
                              f"das blaue Feld {nb} wird nur zusammen mit seinem Brückenpartner {np} beschrieben",
                              "Brücke")
        elif layout.group_of[f1] != layout.group_of[f2]:
            n1, n2 = field_name(f1), field_name(f2)
            c1, c2 = (layout.kinds[layout.kind[f]]["en"] for f in (f1, f2))
            d1, d2 = (layout.kinds[layout.kind[f]]["de"] for f in (f1, f2))
            return no("same colour", f"fields {n1} ({c1}) and {n2} ({c2}) are not of the same colour",
                      f"die Felder {n1} ({d1}) und {n2} ({d2}) haben nicht dieselbe Farbe", "gleiche Farbe")
        if f1 > f2:
            place = Place.make(f1, v1, f2, v2)
            return no("normal form", f"write it as {place!s} (fields in reading order; use Place.make)",
                      f"richtig geschrieben: {place!s} (Felder in Lesereihenfolge; Place.make ordnet sie)",
                      "Normalform")
        return super().why_illegal(action)  # "legal moves": the base class lists what is allowed


Tuefteln.state_class = TueftelnState
