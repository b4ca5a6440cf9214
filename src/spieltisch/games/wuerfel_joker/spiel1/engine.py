"""Würfel Joker, Spiel 1: push your luck with three dice, slides 1-6 and three jokers.

Rules as implemented: ``docs/rules/wuerfel-joker.md`` (Spiel 1). A turn:

1. *throw* (chance) all dice in play;
2. *assign* (player): groups of thrown dice, each adding to the number (1-6) of a distinct free slide,
   push those slides. Assigned dice stay in play; an unassigned die is eliminated unless it shows a
   single 6. One action per distinct successor: ``Assign(pushed, keep)``;
3. *decide* (player): ``stop`` (score the best table row the pushed slides satisfy), ``throw`` again,
   or go into the ``jokers`` (only if a row is satisfied);
4. in the jokers: *joker throw* (chance) with the dice in play; each 1 pushes a joker down; then
   ``stop`` or ``throw`` again (see ``_apply``).

The scoring table is data (``table.json``, a RECONSTRUCTION: the pad's picture is lost).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from itertools import product

from ....core.errors import IllegalActionError, SpieltischError
from ....core.game import CHANCE, TERMINAL, Game, State
from ....core.options import OptionSpec

SLIDES = (1, 2, 3, 4, 5, 6)
ALL_SLIDES = 0b111111
NUM_DICE = 3
NUM_JOKERS = 3

# Phases. THROW and JOKER_THROW are chance nodes.
THROW = "throw"
ASSIGN = "assign"
DECIDE = "decide"
JOKER_THROW = "joker_throw"
JOKER_DECIDE = "joker_decide"
OVER = "over"
_CHANCE_PHASES = (THROW, JOKER_THROW)


def mask_of(slides) -> int:
    m = 0
    for v in slides:
        m |= 1 << (v - 1)
    return m


def slides_of(mask: int) -> tuple:
    return _SLIDES_OF[mask]


_SLIDES_OF = tuple(tuple(v for v in SLIDES if m >> (v - 1) & 1) for m in range(64))


# --- the table (data) ------------------------------------------------------------------------------


class TableError(SpieltischError):
    """The scoring table file is malformed."""


@dataclass(frozen=True)
class Row:
    id: str
    name: dict
    slides: tuple
    exact: bool  # exact rows need the pushed set to equal ``slides``; others ("Schritt") a superset
    points: tuple  # points with 0, 1, 2, 3 jokers down
    mask: int

    def satisfied_by(self, pushed_mask: int) -> bool:
        if self.exact:
            return pushed_mask == self.mask
        return pushed_mask & self.mask == self.mask


@dataclass(frozen=True)
class Table:
    rows: tuple
    provenance: str
    note: str


def parse_table(data) -> Table:
    """Validate table data (as loaded from JSON); raise ``TableError`` saying what is wrong."""

    def bad(msg):
        raise TableError(f"Würfel Joker Spiel 1 table: {msg}")

    if not isinstance(data, dict):
        bad(f"must be a JSON object, got {type(data).__name__}")
    for key in ("provenance", "note", "rows"):
        if key not in data:
            bad(f"missing field {key!r}")
    if not isinstance(data["provenance"], str) or not isinstance(data["note"], str):
        bad("'provenance' and 'note' must be text")
    rows = data["rows"]
    if not isinstance(rows, list) or not rows:
        bad("'rows' must be a non-empty list")
    out, ids = [], set()
    for i, r in enumerate(rows):
        where = f"row {i}"
        if not isinstance(r, dict):
            bad(f"{where} must be an object")
        missing = [k for k in ("id", "name", "slides", "exact", "points") if k not in r]
        if missing:
            bad(f"{where} lacks {', '.join(missing)}")
        rid = r["id"]
        if not isinstance(rid, str) or not rid:
            bad(f"{where}: 'id' must be non-empty text")
        where = f"row {rid!r}"
        if rid in ids:
            bad(f"{where} appears twice")
        ids.add(rid)
        name = r["name"]
        if not isinstance(name, dict) or not all(isinstance(name.get(k), str) for k in ("de", "en")):
            bad(f"{where}: 'name' must have 'de' and 'en' texts")
        slides = r["slides"]
        if (not isinstance(slides, list) or not slides
                or not all(type(v) is int and 1 <= v <= 6 for v in slides) or len(set(slides)) != len(slides)):
            bad(f"{where}: 'slides' must be a non-empty list of distinct slide numbers 1-6, got {slides!r}")
        if not isinstance(r["exact"], bool):
            bad(f"{where}: 'exact' must be true or false")
        pts = r["points"]
        if (not isinstance(pts, list) or len(pts) != NUM_JOKERS + 1
                or not all(type(p) is int and p >= 0 for p in pts)):
            bad(f"{where}: 'points' must be {NUM_JOKERS + 1} whole numbers >= 0 (for 0-3 jokers), got {pts!r}")
        out.append(Row(rid, dict(name), tuple(sorted(slides)), r["exact"], tuple(pts), mask_of(slides)))
    return Table(tuple(out), data["provenance"], data["note"])


def load_table(text: str | None = None) -> Table:
    """The table from ``text`` (JSON) or from the packaged ``table.json``."""
    if text is None:
        text = resources.files(__package__).joinpath("table.json").read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except ValueError as e:
        raise TableError(f"Würfel Joker Spiel 1 table is not valid JSON: {e}") from None
    return parse_table(data)


TABLE = load_table()
ROWS = TABLE.rows


def _best_row(mask: int) -> int:
    """Index of the best-valued row ``mask`` satisfies (ties: better with jokers, then first), or -1."""
    best, key = -1, None
    for i, row in enumerate(ROWS):
        if row.satisfied_by(mask):
            k = row.points
            if key is None or k > key:
                best, key = i, k
    return best


BEST_ROW = tuple(_best_row(m) for m in range(64))
STOP_POINTS = tuple(ROWS[r].points[0] if r >= 0 else 0 for r in BEST_ROW)


# --- actions ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dice:
    """Chance outcome: the dice thrown, in order."""

    values: tuple

    def __str__(self):
        return "dice " + " ".join(map(str, self.values))

    def to_json(self):
        return ["dice", *self.values]


@dataclass(frozen=True, slots=True)
class Assign:
    """Push the slides ``pushed`` with the thrown dice; ``keep`` dice stay in play (assigned dice plus
    unassigned single 6s). ``how`` only explains one grouping; it is not part of the action's identity."""

    pushed: tuple
    keep: int
    how: str = field(default="", compare=False, hash=False)
    mask: int = field(default=0, compare=False, hash=False, repr=False)  # derived from ``pushed``

    def __post_init__(self):
        if isinstance(self.pushed, tuple) and all(type(v) is int and 1 <= v <= 6 for v in self.pushed):
            # the slides pushed form a set: (6, 1) and (1, 6) are the same assignment
            object.__setattr__(self, "pushed", tuple(sorted(self.pushed)))
            object.__setattr__(self, "mask", mask_of(self.pushed))

    def __str__(self):
        what = "push " + "+".join(map(str, self.pushed)) if self.pushed else "push nothing"
        how = f" ({self.how})" if self.how else ""
        return f"{what}{how}, keep {self.keep} {'die' if self.keep == 1 else 'dice'}"

    def to_json(self):
        return ["assign", list(self.pushed), self.keep]


@dataclass(frozen=True, slots=True)
class Stop:
    def __str__(self):
        return "stop"

    def to_json(self):
        return "stop"


@dataclass(frozen=True, slots=True)
class Throw:
    def __str__(self):
        return "throw"

    def to_json(self):
        return "throw"


@dataclass(frozen=True, slots=True)
class Jokers:
    def __str__(self):
        return "jokers"

    def to_json(self):
        return "jokers"


STOP, THROW_AGAIN, JOKERS = Stop(), Throw(), Jokers()
_STOP_THROW = (STOP, THROW_AGAIN)
_STOP_THROW_JOKERS = (STOP, THROW_AGAIN, JOKERS)

DICE = {t: Dice(t) for n in range(1, NUM_DICE + 1) for t in product(range(1, 7), repeat=n)}
CHANCE_OUTCOMES = {
    n: tuple((DICE[t], Fraction(1, 6**n)) for t in product(range(1, 7), repeat=n)) for n in range(1, NUM_DICE + 1)
}


def action_from_json(value):
    """The action a JSON value stands for, or None (used to explain rejected record values)."""
    if value == "stop":
        return STOP
    if value == "throw":
        return THROW_AGAIN
    if value == "jokers":
        return JOKERS
    if isinstance(value, list) and value:
        if value[0] == "dice" and tuple(value[1:]) in DICE:
            return DICE[tuple(value[1:])]
        if (value[0] == "assign" and len(value) == 3 and isinstance(value[1], list)
                and all(type(v) is int for v in value[1]) and type(value[2]) is int):
            return Assign(tuple(value[1]), value[2])
    return None


# --- assignments -----------------------------------------------------------------------------------


def _enumerate_assignments(throw: tuple) -> tuple:
    """Every distinct (pushed, keep) the sorted ``throw`` allows when all slides are free; assignments
    that keep no die are left out (they lose the turn, which stopping never does)."""
    n = len(throw)
    found: dict = {}
    # label 0: unassigned; label g >= 1: member of group g
    for labels in product(range(n + 1), repeat=n):
        sums = [0] * (n + 1)
        members: list = [[] for _ in range(n + 1)]
        for die, g in zip(throw, labels):
            sums[g] += die
            members[g].append(die)
        groups = [(sums[g], members[g]) for g in range(1, n + 1) if members[g]]
        values = [s for s, _ in groups]
        if any(s > 6 for s in values) or len(set(values)) != len(values):
            continue
        assigned = sum(len(m) for _, m in groups)
        keep = assigned + sum(1 for d, g in zip(throw, labels) if g == 0 and d == 6)
        if keep == 0:
            continue
        parts = [f"{'+'.join(map(str, m))}→{s}" for s, m in sorted(groups) if len(m) > 1]
        sixes = keep - assigned
        if sixes:
            parts.append("6 stays" if sixes == 1 else f"{sixes}×6 stay")
        how = ", ".join(parts)
        key = (tuple(sorted(values)), keep)
        if key not in found or len(how) < len(found[key]):
            found[key] = how
    acts = [Assign(p, k, h) for (p, k), h in found.items()]
    acts.sort(key=lambda a: (-a.keep, -len(a.pushed), a.pushed))
    return tuple(acts)


_RAW: dict = {}  # sorted throw -> its assignments with all slides free (filled on demand)
_BY_SORTED: dict = {}
_BY_THROW: dict = {}


def assignments(throw: tuple, free: int, must_assign_max: bool = False) -> tuple:
    """Legal assignments for ``throw`` (any order) and free-slide mask ``free`` (cached).

    With ``must_assign_max`` only those keeping the most dice in play are legal: a die that could be
    set must be set (a single 6 counts as kept either way, so it still need not be pushed).
    """
    key = (throw, free)
    hit = _BY_THROW.get(key)
    if hit is None:
        skey = (tuple(sorted(throw)), free)
        hit = _BY_SORTED.get(skey)
        if hit is None:
            used = ALL_SLIDES ^ free
            raw = _RAW.get(skey[0])
            if raw is None:
                raw = _RAW[skey[0]] = _enumerate_assignments(skey[0])
            acts = tuple(a for a in raw if not a.mask & used)
            most = max((a.keep for a in acts), default=0)
            hit = (acts, tuple(a for a in acts if a.keep == most))
            _BY_SORTED[skey] = hit
        _BY_THROW[key] = hit
    return hit[1] if must_assign_max else hit[0]


# --- game and state --------------------------------------------------------------------------------


class Spiel1Game(Game):
    id = "wuerfel-joker-1"
    version = 1
    name = {"de": "Würfel Joker – Spiel 1", "en": "Würfel Joker – Game 1"}
    summary = {
        "de": "Mit drei Würfeln Schieber 1–6 hochschieben, Kombinationen der Tabelle erreichen, "
              "rechtzeitig aufhören oder in die Joker gehen.",
        "en": "Push slides 1–6 with three dice to reach a table combination, then stop in time "
              "or go into the jokers to double it.",
    }
    min_players = 1
    max_players = 8
    default_players = 2
    option_specs = (
        OptionSpec("rounds", 10, "rounds: every player has one turn per round", min=1, max=100),
        OptionSpec(
            "must_assign_max", False,
            "a die that could be set must be set: only assignments keeping the most dice in play "
            "are legal (a single 6 still need not be pushed); off = assigning is free (decision D1)",
        ),
    )
    table = TABLE


class Spiel1State(State):
    def __init__(self, game: Game):
        super().__init__(game)
        opts = game.options
        self._max = bool(opts["must_assign_max"])
        self.rounds = opts["rounds"]
        self.round = 0
        self.player = 0
        self.totals = [0] * self.num_players
        self._last = None  # the last finished turn, raw (see ``last_turn``)
        self._new_turn()

    def _new_turn(self):
        self.phase = THROW
        self.pushed = 0  # mask of slides up (bit v-1 for slide v)
        self.dice = NUM_DICE  # dice in play
        self.throw = None  # the last throw, in order
        self._acts = ()  # legal assignments of that throw (set with it)
        self.row = -1  # the row frozen when going into the jokers
        self.jokers = 0  # jokers pushed down (each by a 1)
        self.joker_throws = 0

    def _end_turn(self, score: int, why):
        """``why``: text, or a row index (stopped with that row's combination, -1: without one)."""
        p = self.player
        self.totals[p] += score
        # kept raw; ``last_turn`` builds the dict when somebody asks (most simulated turns are never shown)
        self._last = (self.round + 1, p, score, why, self.pushed, self.jokers, self.throw)
        p += 1
        if p == self.num_players:
            p = 0
            self.round += 1
        self.player = p
        if self.round >= self.rounds:
            self.phase = OVER
        else:
            self._new_turn()

    @property
    def last_turn(self) -> dict | None:
        """The last finished turn: round, player, score, why (text), pushed slides, jokers, last throw."""
        if self._last is None:
            return None
        rnd, p, score, why, pushed, jokers, throw = self._last
        if type(why) is int:
            why = f"stopped: {ROWS[why].name['en']}" if why >= 0 else "stopped without a table combination"
        return {"round": rnd, "player": p, "score": score, "why": why, "pushed": list(slides_of(pushed)),
                "jokers": jokers, "throw": list(throw) if throw else None}

    # --- protocol ---------------------------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph is THROW or ph is JOKER_THROW:
            return CHANCE
        if ph is OVER:
            return TERMINAL
        return self.player

    def chance_outcomes(self):
        if self.phase not in _CHANCE_PHASES:
            raise IllegalActionError("turn order", "no dice are being thrown now")
        return list(CHANCE_OUTCOMES[self.dice])

    def sample_chance(self, rng):
        b = rng.below  # b(6) + 1 is rng.die(): the same dice, one call fewer each
        n = self.dice
        if n == 3:
            return DICE[(b(6) + 1, b(6) + 1, b(6) + 1)]
        if n == 2:
            return DICE[(b(6) + 1, b(6) + 1)]
        return DICE[(b(6) + 1,)]

    def _legal_actions(self):
        ph = self.phase
        if ph is ASSIGN:
            return self._acts
        if ph is DECIDE:
            if BEST_ROW[self.pushed] >= 0:
                return _STOP_THROW_JOKERS
            return _STOP_THROW
        if ph is JOKER_DECIDE:
            return _STOP_THROW
        return ()

    def _apply(self, a) -> None:
        ph = self.phase
        if ph is THROW:
            self.throw = a.values
            self._acts = acts = assignments(a.values, ALL_SLIDES ^ self.pushed, self._max)
            if not acts:
                self._end_turn(0, "no die could be set: everything is lost")
            else:
                self.phase = ASSIGN
        elif ph is ASSIGN:
            self.pushed |= a.mask
            self.dice = a.keep
            self.phase = DECIDE
        elif ph is DECIDE:
            # type, not ==: the dataclass __eq__ is a Python call, and these run on every decision
            t = type(a)
            if t is Stop:
                self._end_turn(STOP_POINTS[self.pushed], BEST_ROW[self.pushed])
            elif t is Throw:
                self.phase = THROW
            else:
                self.row = BEST_ROW[self.pushed]
                self.phase = JOKER_THROW
        elif ph is JOKER_THROW:
            self.throw = v = a.values
            self.joker_throws += 1
            ones = v.count(1)
            if ones:
                self.jokers = min(NUM_JOKERS, self.jokers + ones)
                if self.jokers == NUM_JOKERS:
                    self._end_turn(ROWS[self.row].points[NUM_JOKERS], "all three jokers down")
                    return
                self.phase = JOKER_DECIDE
            elif 6 in v:
                self.dice = 1  # the 6 allows one more throw, with that one die only
                self.phase = JOKER_DECIDE
            else:
                self._end_turn(0, "jokers: neither a 1 nor a 6, everything is lost")
        elif ph is JOKER_DECIDE:
            if type(a) is Stop:
                self._end_turn(ROWS[self.row].points[self.jokers], f"stopped in the jokers with {self.jokers}")
            else:
                self.phase = JOKER_THROW

    def scores(self) -> list:
        return list(self.totals)

    def clone(self):
        # totals is the only mutable attribute; the rest are ints, strings and tuples of frozen actions
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c.totals = self.totals[:]
        return c

    def stop_value(self) -> int:
        """What stopping now would score (0 at chance or terminal nodes)."""
        if self.phase is DECIDE:
            return STOP_POINTS[self.pushed]
        if self.phase is JOKER_DECIDE:
            return ROWS[self.row].points[self.jokers]
        return 0

    def observation(self, player: int) -> dict:
        """Everything is public in this game; the view is the same for every player."""
        r = self.row
        in_jokers = r >= 0
        if not in_jokers:
            r = BEST_ROW[self.pushed]
        row = ROWS[r] if r >= 0 else None
        return {
            "round": self.round + 1,
            "rounds": self.rounds,
            "player": self.player,
            "phase": self.phase,
            "pushed": list(_SLIDES_OF[self.pushed]),
            "jokers": self.jokers,
            "in_jokers": in_jokers,
            "dice_in_play": self.dice,
            "throw": list(self.throw) if self.throw else None,
            "row": row.id if row else None,
            "base": row.points[0] if row else None,
            "stop_value": self.stop_value(),
            "totals": self.totals[:],
            "last_turn": self.last_turn,  # a new dict on every call
        }

    # --- errors -----------------------------------------------------------------------------------
    def why_illegal(self, action) -> IllegalActionError:
        if not isinstance(action, (Dice, Assign, Stop, Throw, Jokers)):
            parsed = action_from_json(action)
            if parsed is None:
                return IllegalActionError("actions", f"{action!r} is not a Würfel Joker action")
            if self.current_player() >= 0 and parsed in self._legal_actions():
                return IllegalActionError("actions", f"write {action!r} as {parsed.to_json()!r}")
            action = parsed
        ph = self.phase
        if ph is OVER:
            return IllegalActionError("end of game", "the game is over")
        if ph in _CHANCE_PHASES:
            if isinstance(action, Dice):
                return IllegalActionError("dice in play", f"{self.dice} dice are thrown now, not {len(action.values)}")
            if ph is JOKER_THROW and self.joker_throws == 0 and isinstance(action, Stop):
                return IllegalActionError("must throw at least once in the jokers",
                                          "after going into the jokers there is no way back before the first throw")
            return IllegalActionError("turn order", "the dice must be thrown now; no player decision is pending")
        if isinstance(action, Dice):
            return IllegalActionError("turn order", "dice outcomes come from the dice, not from a player")
        if ph is ASSIGN:
            if not isinstance(action, Assign):
                return IllegalActionError("assign after a throw",
                                          f"assign the throw {' '.join(map(str, self.throw))} first; "
                                          "stop, throw or jokers come after assigning")
            return self._why_bad_assign(action)
        if isinstance(action, Assign):
            return IllegalActionError("one assignment per throw",
                                      "the dice are already assigned; stop or throw" +
                                      (" or go into the jokers" if ph is DECIDE else ""))
        if isinstance(action, Jokers):
            if ph is JOKER_DECIDE:
                return IllegalActionError("jokers", "already in the jokers")
            return IllegalActionError("jokers need a table combination",
                                      f"the slides up ({'+'.join(map(str, slides_of(self.pushed))) or 'none'}) "
                                      "satisfy no row of the table")
        return super().why_illegal(action)

    def _why_bad_assign(self, a: Assign) -> IllegalActionError:
        pushed = a.pushed
        if not isinstance(pushed, tuple) or not isinstance(a.keep, int):
            return IllegalActionError("actions", f"{a!r} is not a well-formed assignment")
        if any(type(v) is not int or not 1 <= v <= 6 for v in pushed):
            return IllegalActionError("groups must add to 1–6", f"slides are numbered 1–6, got {list(pushed)}")
        if len(set(pushed)) != len(pushed):
            return IllegalActionError("one slide per group", "each group must push a different slide")
        for v in pushed:
            if self.pushed >> (v - 1) & 1:
                return IllegalActionError("slide already up", f"slide {v} is already up")
        n = len(self.throw)
        if not 0 <= a.keep <= n:
            return IllegalActionError("dice in play", f"{n} dice were thrown; {a.keep} cannot stay in play")
        free = ALL_SLIDES ^ self.pushed
        every = assignments(self.throw, free, False)
        same = [b for b in every if b.pushed == tuple(sorted(pushed))]
        if not same:
            if not pushed:
                return IllegalActionError("no die left",
                                          "pushing nothing eliminates every die; no 6 to keep (the turn would be lost)")
            return IllegalActionError(
                "groups must add to 1–6",
                f"the dice {' '.join(map(str, self.throw))} cannot be grouped to push exactly "
                f"{'+'.join(map(str, sorted(pushed)))}")
        if a.keep == 0:
            return IllegalActionError("no die left", "an assignment must keep a die in play")
        if not any(b.keep == a.keep for b in same):
            ks = " or ".join(str(b.keep) for b in same)
            return IllegalActionError(
                "unassigned dice are eliminated",
                f"pushing {'+'.join(map(str, sorted(pushed)))} keeps {ks} dice in play, not {a.keep} "
                "(an unassigned die is out unless it shows a single 6)")
        if self._max:
            most = max(b.keep for b in every)
            return IllegalActionError("must assign as many dice as possible",
                                      f"option must_assign_max: {most} dice can stay in play, not {a.keep}")
        return IllegalActionError("legal moves", f"{a} is not allowed now")

    # --- text -------------------------------------------------------------------------------------
    def render(self, lang: str = "en") -> str:
        de = lang == "de"
        if self.phase is OVER:
            lines = ["Spielende" if de else "Game over"]
        else:
            lines = [f"{'Runde' if de else 'Round'} {self.round + 1}/{self.rounds} · "
                     f"{'Spieler' if de else 'player'} {self.player + 1} · {self.phase}"]
            up = " ".join(map(str, slides_of(self.pushed))) or "–"
            lines.append(f"{'oben' if de else 'slides up'}: {up} · Joker {self.jokers}/{NUM_JOKERS}"
                         f"{' (in den Jokern)' if de and self.row >= 0 else ' (in the jokers)' if self.row >= 0 else ''}"
                         f" · {'Würfel im Spiel' if de else 'dice in play'}: {self.dice}")
            if self.throw:
                lines.append(f"{'Wurf' if de else 'throw'}: {' '.join(map(str, self.throw))}")
            r = self.row if self.row >= 0 else BEST_ROW[self.pushed]
            if r >= 0:
                lines.append(f"{'Kombination' if de else 'combination'}: {ROWS[r].name[lang if de else 'en']}"
                             f" · {'Aufhören' if de else 'stop now'}: {self.stop_value()}")
        if self.last_turn:
            t = self.last_turn
            lines.append(f"{'letzter Zug' if de else 'last turn'}: {'Spieler' if de else 'player'} {t['player'] + 1}"
                         f" +{t['score']} ({t['why']})")
        lines.append(f"{'Stand' if de else 'totals'}: " + " ".join(map(str, self.totals)))
        return "\n".join(lines)

    def __str__(self):
        return self.render()


Spiel1Game.state_class = Spiel1State
