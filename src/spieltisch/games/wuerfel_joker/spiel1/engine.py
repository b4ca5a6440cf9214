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

With two or more players the game opens with the start throws (chance, ``StartDice``): everyone
throws three dice, the highest sum begins, players tied for it throw again (``..start``). Rounds then
go clockwise (in seat order) from the starting player.

The scoring table is data (``table.json``, a RECONSTRUCTION: the pad's picture is lost).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from itertools import product
from typing import ClassVar

from ....core.errors import IllegalActionError, SpieltischError, short
from ....core.game import CHANCE, TERMINAL, Game, State, action_label
from ....core.options import OptionSpec
from .. import start as start_rules

SLIDES = (1, 2, 3, 4, 5, 6)
ALL_SLIDES = 0b111111
NUM_DICE = 3
NUM_JOKERS = 3

# Phases. START, THROW and JOKER_THROW are chance nodes.
START = "start"  # a start throw: who begins (two or more players)
THROW = "throw"
ASSIGN = "assign"
DECIDE = "decide"
JOKER_THROW = "joker_throw"
JOKER_DECIDE = "joker_decide"
OVER = "over"
_CHANCE_PHASES = (START, THROW, JOKER_THROW)


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


def _dice_text(values) -> str:
    return " ".join(map(str, values))


@dataclass(frozen=True, slots=True)
class Dice:
    """Chance outcome: the dice thrown, in order."""

    values: tuple

    def __str__(self):
        return "dice " + _dice_text(self.values)

    def label(self, lang="en"):
        return f"{'Wurf' if lang == 'de' else 'throw'} {_dice_text(self.values)}"

    def to_json(self):
        return ["dice", *self.values]


@dataclass(frozen=True, slots=True)
class StartDice:
    """Chance outcome of a start throw: the three dice one player throws to see who begins."""

    values: tuple

    def __str__(self):
        return "start throw " + _dice_text(self.values)

    def label(self, lang="en"):
        return f"{'Anfangswurf' if lang == 'de' else 'start throw'} {_dice_text(self.values)}"

    def to_json(self):
        return ["start", *self.values]


def _how_de(how: str) -> str:
    """The grouping text in German: the sums are language-neutral, "6 stays" is not."""
    parts = []
    for part in how.split(", "):
        if part == "6 stays":
            part = "6 bleibt"
        elif part.endswith("×6 stay"):
            part = part[: -len(" stay")] + " bleiben"
        parts.append(part)
    return ", ".join(parts)


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
        return self.label("en")

    def label(self, lang="en"):
        de = lang == "de"
        slides = "+".join(map(str, self.pushed))
        if de:
            what = f"schiebe {slides}" if self.pushed else "schiebe nichts"
            keep = f"behalte {self.keep} Würfel"
        else:
            what = f"push {slides}" if self.pushed else "push nothing"
            keep = f"keep {self.keep} {'die' if self.keep == 1 else 'dice'}"
        how = f" ({_how_de(self.how) if de else self.how})" if self.how else ""
        return f"{what}{how}, {keep}"

    def to_json(self):
        return ["assign", list(self.pushed), self.keep]


@dataclass(frozen=True, slots=True)
class _Word:
    """A decision without parameters: one word in the record, a label in German and English."""

    code: ClassVar[str]
    en: ClassVar[str]
    de: ClassVar[str]

    def __str__(self):
        return self.code

    def label(self, lang="en"):
        return self.de if lang == "de" else self.en

    def to_json(self):
        return self.code


@dataclass(frozen=True, slots=True)
class Stop(_Word):
    """Stop and score (the best table row of the slides up, or the frozen row with its jokers)."""

    code: ClassVar[str] = "stop"
    en: ClassVar[str] = "stop"
    de: ClassVar[str] = "aufhören"


@dataclass(frozen=True, slots=True)
class Throw(_Word):
    """Throw the dice in play again."""

    code: ClassVar[str] = "throw"
    en: ClassVar[str] = "throw again"
    de: ClassVar[str] = "weiterwürfeln"


@dataclass(frozen=True, slots=True)
class Jokers(_Word):
    """Go into the jokers with the table row the slides up satisfy (no way back before a throw)."""

    code: ClassVar[str] = "jokers"
    en: ClassVar[str] = "go into the jokers"
    de: ClassVar[str] = "in die Joker"


STOP, THROW_AGAIN, JOKERS = Stop(), Throw(), Jokers()
_STOP_THROW = (STOP, THROW_AGAIN)
_STOP_THROW_JOKERS = (STOP, THROW_AGAIN, JOKERS)

DICE = {t: Dice(t) for n in range(1, NUM_DICE + 1) for t in product(range(1, 7), repeat=n)}
CHANCE_OUTCOMES = {
    n: tuple((DICE[t], Fraction(1, 6**n)) for t in product(range(1, 7), repeat=n)) for n in range(1, NUM_DICE + 1)
}
START_DICE = {t: StartDice(t) for t in product(range(1, 7), repeat=NUM_DICE)}
START_OUTCOMES = tuple((a, Fraction(1, 6**NUM_DICE)) for a in START_DICE.values())
_WORDS = {"stop": STOP, "throw": THROW_AGAIN, "jokers": JOKERS}


def action_from_json(value):
    """The action a JSON value stands for, or None (used to explain rejected record values)."""
    if isinstance(value, str):
        return _WORDS.get(value)
    if isinstance(value, list) and value and not any(type(v) is bool for v in value):
        if value[0] == "dice" and tuple(value[1:]) in DICE and all(type(v) is int for v in value[1:]):
            return DICE[tuple(value[1:])]
        if value[0] == "start" and tuple(value[1:]) in START_DICE and all(type(v) is int for v in value[1:]):
            return START_DICE[tuple(value[1:])]
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
    try:
        hit = _BY_THROW.get(key)
    except TypeError:  # an unhashable throw: refused below
        hit = None
    if hit is None:
        # only exact values enter the process-wide caches: (1.0, 2.0, 3.0) hashes and compares like
        # (1, 2, 3), and float moves cached under that key would be handed to every later game
        if not (type(throw) is tuple and 1 <= len(throw) <= NUM_DICE
                and all(type(v) is int and 1 <= v <= 6 for v in throw)
                and type(free) is int and 0 <= free <= ALL_SLIDES):
            raise SpieltischError(f"assignments need a throw of 1 to 3 whole numbers 1-6 and a slide mask 0-63, "
                                  f"got {short(throw)} and {short(free)}")
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
    # v2: the start throws decide who begins (v1 always began with seat 0)
    version = 2
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
    #: what the options are called on a screen (the class-round form), German and English
    option_labels = {
        "rounds": {"de": "Anzahl der Runden", "en": "number of rounds"},
        "must_assign_max": {"de": "möglichst viele Würfel setzen", "en": "set as many dice as possible"},
    }
    class_code_number = 0  # (ui.classroom: given once, never changed)
    result_code_bot = "optimal"  # a quick exact bot: a student who mostly plays well writes a short code
    solves_whole_game = True  # analyze() has best play's exact expected total
    ranks_decisions = True  # the review is exact over the whole game
    table = TABLE

    def render_observation(self, obs: dict, lang: str = "en") -> str:
        """The observation as text; besides it only the (static) table is read."""
        de = lang == "de"
        lines = start_rules.render_lines(obs, lang)
        phase = obs["phase"]
        if phase == OVER:
            lines.append("Spielende" if de else "Game over")
        elif phase == START:
            lines.append(f"{'Spieler' if de else 'player'} {obs['player'] + 1}: "
                         + ("Anfangswurf mit 3 Würfeln" if de else "start throw with 3 dice"))
        else:
            lines.append(f"{'Runde' if de else 'Round'} {obs['round']}/{obs['rounds']} · "
                         f"{'Spieler' if de else 'player'} {obs['player'] + 1} · {_PHASE_TEXT[de][phase]}")
            up = " ".join(map(str, obs["pushed"])) or "–"
            jokers = ""
            if obs["in_jokers"]:
                jokers = " (in den Jokern)" if de else " (in the jokers)"
            lines.append(f"{'oben' if de else 'slides up'}: {up} · Joker {obs['jokers']}/{NUM_JOKERS}{jokers}"
                         f" · {'Würfel im Spiel' if de else 'dice in play'}: {obs['dice_in_play']}")
            if obs["throw"]:
                lines.append(f"{'Wurf' if de else 'throw'}: {_dice_text(obs['throw'])}")
            if obs["row"] is not None:
                row = ROW_BY_ID[obs["row"]]
                lines.append(f"{'Kombination' if de else 'combination'}: {row.name['de' if de else 'en']}"
                             f" · {'Aufhören' if de else 'stop now'}: {obs['stop_value']}")
        t = obs["last_turn"]
        if t:
            lines.append(f"{'letzter Zug' if de else 'last turn'}: {'Spieler' if de else 'player'} {t['player'] + 1}"
                         f" +{t['score']} ({t['why']['de' if de else 'en']})")
        lines.append(f"{'Stand' if de else 'totals'}: " + " ".join(map(str, obs["totals"])))
        return "\n".join(lines)


ROW_BY_ID = {row.id: row for row in ROWS}
_PHASE_TEXT = {
    False: {THROW: "throw", ASSIGN: "assign the dice", DECIDE: "stop, throw again or jokers",
            JOKER_THROW: "joker throw", JOKER_DECIDE: "stop or throw again in the jokers"},
    True: {THROW: "würfeln", ASSIGN: "Würfel setzen", DECIDE: "aufhören, weiterwürfeln oder Joker",
           JOKER_THROW: "Joker-Wurf", JOKER_DECIDE: "in den Jokern aufhören oder weiterwürfeln"},
}
# How a turn ended (besides stopping with a row): English and German.
_END_TEXT = {
    "lost": ("no die could be set: everything is lost", "kein Würfel setzbar: alles verloren"),
    "jokers_all": ("all three jokers down", "alle drei Joker unten"),
    "jokers_lost": ("jokers: neither a 1 nor a 6, everything is lost",
                    "Joker: weder eine 1 noch eine 6, alles verloren"),
}


class Spiel1State(State):
    def __init__(self, game: Game):
        super().__init__(game)
        opts = game.options
        self._max = bool(opts["must_assign_max"])
        self.rounds = opts["rounds"]
        self.round = 0
        self.player = 0  # whose turn (in the start phase: who throws now)
        self.first = 0  # the starting player: a round ends when the turn comes back to them
        self.totals = [0] * self.num_players
        self.turn_scores = ()  # points of every finished turn, in the order played (see ``sheet``)
        self._last = None  # the last finished turn, raw (see ``last_turn``)
        self._new_turn()
        self.start = ()  # the start throws, (start round, player, dice) each: a list while they go on
        self._throwers = ()  # players still to throw in this start round, the first throws now
        self._start_round = 0
        if self.num_players > 1:
            self.phase = START
            self.start = []
            self.dice = 0  # no turn yet; the start throw is three dice of its own (``sample_chance``)
            self._throwers = tuple(range(self.num_players))
            self._start_round = 1

    def _new_turn(self):
        self.phase = THROW
        self.pushed = 0  # mask of slides up (bit v-1 for slide v)
        self.dice = NUM_DICE  # dice in play
        self.throw = None  # the last throw, in order
        self._acts = ()  # legal assignments of that throw (set with it)
        self.row = -1  # the row frozen when going into the jokers
        self.jokers = 0  # jokers pushed down (each by a 1)
        self.joker_throws = 0

    def _start_throw(self, a: StartDice):
        self.start.append((self._start_round, self._throwers[0], a.values))
        self._throwers, self._start_round, starter = start_rules.after_throw(
            self.start, self._start_round, self._throwers)
        if starter is None:
            self.player = self._throwers[0]
        else:
            self.start = tuple(self.start)  # settled: clones share it from now on
            self.player = self.first = starter
            self._new_turn()

    def _end_turn(self, score: int, why):
        """``why``: a key of ``_END_TEXT`` or "jokers_stop", or a row index (stopped with that row's
        combination, -1: without one)."""
        p = self.player
        self.totals[p] += score
        self.turn_scores += (score,)
        # kept raw; ``last_turn`` builds the dict when somebody asks (most simulated turns are never shown)
        self._last = (self.round + 1, p, score, why, self.pushed, self.jokers, self.throw, self.row)
        p += 1
        if p == self.num_players:
            p = 0
        if p == self.first:
            self.round += 1
        self.player = p
        if self.round >= self.rounds:
            self.phase = OVER
        else:
            self._new_turn()

    @property
    def last_turn(self) -> dict | None:
        """The last finished turn: round, player, score, how it ended (``end``, ``why`` in German and
        English, the ``row`` scored), pushed slides, jokers, last throw."""
        if self._last is None:
            return None
        rnd, p, score, why, pushed, jokers, throw, frozen = self._last
        row = None
        if type(why) is int:
            end = "stop"
            if why >= 0:
                row = ROWS[why]
                text = (f"stopped: {row.name['en']}", f"aufgehört: {row.name['de']}")
            else:
                text = ("stopped without a table combination", "aufgehört ohne Kombination der Tabelle")
        else:
            end = why
            if frozen >= 0:
                row = ROWS[frozen]
            if why == "jokers_stop":
                text = (f"stopped in the jokers with {jokers}", f"in den Jokern aufgehört mit {jokers}")
            else:
                text = _END_TEXT[why]
        return {"round": rnd, "player": p, "score": score, "end": end, "row": row.id if row else None,
                "why": {"en": text[0], "de": text[1]}, "pushed": list(slides_of(pushed)),
                "jokers": jokers, "throw": list(throw) if throw else None}

    # --- protocol ---------------------------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph is THROW or ph is JOKER_THROW:
            return CHANCE
        if ph is OVER:
            return TERMINAL
        if ph is START:
            return CHANCE
        return self.player

    def chance_player(self) -> int | None:
        """The player who throws: the one whose turn it is, or at the start the next start thrower."""
        return self.player if self.phase in _CHANCE_PHASES else None

    def chance_outcomes(self):
        ph = self.phase
        if ph is START:
            return list(START_OUTCOMES)
        if ph not in _CHANCE_PHASES:
            raise IllegalActionError("turn order", "no dice are being thrown now",
                                     "es wird gerade nicht gewürfelt", "Reihenfolge")
        return list(CHANCE_OUTCOMES[self.dice])

    def sample_chance(self, rng):
        b = rng.below  # b(6) + 1 is rng.die(): the same dice, one call fewer each
        n = self.dice
        if n == 3:
            return DICE[(b(6) + 1, b(6) + 1, b(6) + 1)]
        if n == 2:
            return DICE[(b(6) + 1, b(6) + 1)]
        if n == 1:
            return DICE[(b(6) + 1,)]
        if self.phase is START:  # no dice in play before the first turn: a start throw of three
            return START_DICE[(b(6) + 1, b(6) + 1, b(6) + 1)]
        raise IllegalActionError("turn order", "no dice are being thrown now",
                                 "es wird gerade nicht gewürfelt", "Reihenfolge")

    def is_legal(self, action) -> bool:
        """Throws checked directly (type-exact: a tuple of ints, as many as are thrown), the core's
        answer without indexing up to 216 outcomes; decisions go through the core."""
        ph = self.phase
        if ph is START:
            if type(action) is not StartDice:
                return False
            v, n = action.values, NUM_DICE
        elif ph is THROW or ph is JOKER_THROW:
            if type(action) is not Dice:
                return False
            v, n = action.values, self.dice
        else:
            return State.is_legal(self, action)
        return type(v) is tuple and len(v) == n and all(type(x) is int for x in v) and v in DICE

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
                self._end_turn(0, "lost")
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
                    self._end_turn(ROWS[self.row].points[NUM_JOKERS], "jokers_all")
                    return
                self.phase = JOKER_DECIDE
            elif 6 in v:
                self.dice = 1  # the 6 allows one more throw, with that one die only
                self.phase = JOKER_DECIDE
            else:
                self._end_turn(0, "jokers_lost")
        elif ph is JOKER_DECIDE:
            if type(a) is Stop:
                self._end_turn(ROWS[self.row].points[self.jokers], "jokers_stop")
            else:
                self.phase = JOKER_THROW
        elif ph is START:
            self._start_throw(a)

    def scores(self) -> list:
        return list(self.totals)

    def clone(self):
        # totals (and the start throws while they go on) are the only mutable attributes; the rest
        # are ints, strings and tuples
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c.totals = self.totals[:]
        if type(self.start) is list:
            c.start = self.start[:]
        return c

    def sheet(self) -> list[list[int]]:
        """The score pad (Spielblock): per player the points of each of their turns so far."""
        n, first, scores = self.num_players, self.first, self.turn_scores
        # turns go round from the starter, so seat p played every n-th turn from its place after them
        return [list(scores[(p - first) % n::n]) for p in range(n)]

    def stop_value(self) -> int:
        """What stopping now would score (0 at chance or terminal nodes)."""
        if self.phase is DECIDE:
            return STOP_POINTS[self.pushed]
        if self.phase is JOKER_DECIDE:
            return ROWS[self.row].points[self.jokers]
        return 0

    def observation(self, player: int | None) -> dict:
        """Everything is public in this game (only future dice are unknown): every viewer, the
        spectator too, sees the same apart from the ``viewer`` field."""
        r = self.row
        in_jokers = r >= 0
        if not in_jokers:
            r = BEST_ROW[self.pushed]
        row = ROWS[r] if r >= 0 else None
        obs = {
            "viewer": player,
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
            "sheet": self.sheet(),
            "last_turn": self.last_turn,  # a new dict on every call
        }
        obs.update(start_rules.observation(self.start, self._throwers,
                                           None if self.phase is START else self.first))
        return obs

    # --- errors -----------------------------------------------------------------------------------
    def why_illegal(self, action) -> IllegalActionError:
        if not isinstance(action, (Dice, StartDice, Assign, Stop, Throw, Jokers)):
            parsed = action_from_json(action)
            if parsed is None:
                return IllegalActionError("actions", f"{short(action)} is not a Würfel Joker action",
                                          f"{short(action)} ist kein Zug von Würfel Joker", "Züge")
            if parsed in self.legal_actions():
                if parsed.to_json() == action:
                    return IllegalActionError(
                        "actions", f"{short(action)} is the record form of {parsed}; play the action itself",
                        f"{short(action)} ist die Protokollform von „{parsed.label('de')}“; bitte den Zug "
                        "selbst verwenden", "Züge")
                return IllegalActionError("actions", f"write {short(action)} as {parsed.to_json()!r}",
                                          f"{short(action)} wird als {parsed.to_json()!r} geschrieben", "Züge")
            action = parsed
        ph = self.phase
        if ph is OVER:
            return IllegalActionError("end of game", "the game is over", "das Spiel ist vorbei", "Spielende")
        if ph is START:
            if isinstance(action, StartDice):
                return _bad_dice(action.values, NUM_DICE)
            return _start_refusal(self.player, action)
        if isinstance(action, StartDice):
            return IllegalActionError("start throw", "the start throws are over: the game is under way",
                                      "die Anfangswürfe sind vorbei: das Spiel läuft", "Wer beginnt")
        if ph in _CHANCE_PHASES:
            if isinstance(action, Dice):
                return _bad_dice(action.values, self.dice)
            if ph is JOKER_THROW and self.joker_throws == 0 and isinstance(action, Stop):
                return IllegalActionError(
                    "must throw at least once in the jokers",
                    "after going into the jokers there is no way back before the first throw",
                    "nach dem Gang in die Joker gibt es für den ersten Wurf kein Zurück", "Joker: kein Zurück")
            return IllegalActionError("turn order", "the dice must be thrown now; no player decision is pending",
                                      "jetzt wird gewürfelt; kein Spieler hat zu entscheiden", "Reihenfolge")
        if isinstance(action, Dice):
            return IllegalActionError("turn order", "dice outcomes come from the dice, not from a player",
                                      "was die Würfel zeigen, bestimmen die Würfel, nicht ein Spieler",
                                      "Reihenfolge")
        if ph is ASSIGN:
            if not isinstance(action, Assign):
                throw = _dice_text(self.throw)
                return IllegalActionError(
                    "assign after a throw",
                    f"assign the throw {throw} first; stop, throw or jokers come after assigning",
                    f"zuerst den Wurf {throw} setzen; aufhören, weiterwürfeln oder Joker kommen danach",
                    "Setzen nach dem Wurf")
            return self._why_bad_assign(action)
        if isinstance(action, Assign):
            return IllegalActionError(
                "one assignment per throw",
                "the dice are already assigned; stop or throw" + (" or go into the jokers" if ph is DECIDE else ""),
                "die Würfel sind schon gesetzt; aufhören oder weiterwürfeln" + (
                    " oder in die Joker gehen" if ph is DECIDE else ""),
                "einmal setzen pro Wurf")
        if isinstance(action, Jokers):
            if ph is JOKER_DECIDE:
                return IllegalActionError("jokers", "already in the jokers", "schon in den Jokern", "Joker")
            up = "+".join(map(str, slides_of(self.pushed)))
            return IllegalActionError(
                "jokers need a table combination",
                f"the slides up ({up or 'none'}) satisfy no row of the table",
                f"die geschobenen Slides ({up or 'keine'}) ergeben keine Kombination der Tabelle",
                "Joker nur mit einer Kombination der Tabelle")
        return super().why_illegal(action)

    def _why_bad_assign(self, a: Assign) -> IllegalActionError:
        pushed = a.pushed
        if not isinstance(pushed, tuple) or type(a.keep) is not int:
            return IllegalActionError("actions", f"{short(a)} is not a well-formed assignment",
                                      f"{short(a)} ist kein gültiges Setzen", "Züge")
        if any(type(v) is not int or not 1 <= v <= 6 for v in pushed):
            return IllegalActionError(
                "groups must add to 1–6", f"slides are numbered 1–6, got {list(pushed)}",
                f"die Slides tragen die Zahlen 1–6, nicht {list(pushed)}", "einzeln oder addiert 1–6")
        if len(set(pushed)) != len(pushed):
            return IllegalActionError("one slide per group", "each group must push a different slide",
                                      "jede Gruppe schiebt einen anderen Slide", "ein Slide pro Gruppe")
        for v in pushed:
            if self.pushed >> (v - 1) & 1:
                return IllegalActionError("slide already up", f"slide {v} is already up",
                                          f"Slide {v} ist schon oben", "Slide schon oben")
        n = len(self.throw)
        if not 0 <= a.keep <= n:
            return IllegalActionError(
                "dice in play", f"{n} dice were thrown; {a.keep} cannot stay in play",
                f"{n} Würfel wurden geworfen; {a.keep} können nicht im Spiel bleiben", "Würfel im Spiel")
        free = ALL_SLIDES ^ self.pushed
        every = assignments(self.throw, free, False)
        same = [b for b in every if b.pushed == tuple(sorted(pushed))]
        throw = _dice_text(self.throw)
        slides = "+".join(map(str, sorted(pushed)))
        if not same:
            if not pushed:
                return IllegalActionError(
                    "no die left", "pushing nothing eliminates every die; no 6 to keep (the turn would be lost)",
                    "nichts zu schieben ließe jeden Würfel ausscheiden; keine 6 bleibt (der Zug wäre verloren)",
                    "kein Würfel mehr im Spiel")
            return IllegalActionError(
                "groups must add to 1–6",
                f"the dice {throw} cannot be grouped to push exactly {slides}",
                f"die Würfel {throw} lassen sich nicht so einzeln oder addiert setzen, dass genau {slides} "
                "geschoben wird", "einzeln oder addiert 1–6")
        if a.keep == 0:
            return IllegalActionError("no die left", "an assignment must keep a die in play",
                                      "beim Setzen muss ein Würfel im Spiel bleiben", "kein Würfel mehr im Spiel")
        if not any(b.keep == a.keep for b in same):
            ks = " or ".join(str(b.keep) for b in same)
            ks_de = " oder ".join(str(b.keep) for b in same)
            return IllegalActionError(
                "unassigned dice are eliminated",
                f"pushing {slides} keeps {ks} dice in play, not {a.keep} "
                "(an unassigned die is out unless it shows a single 6)",
                f"wer {slides} schiebt, behält {ks_de} Würfel im Spiel, nicht {a.keep} "
                "(ein nicht gesetzter Würfel scheidet aus, außer einer gewürfelten 6)",
                "Würfel scheiden aus")
        if self._max:
            most = max(b.keep for b in every)
            return IllegalActionError(
                "must assign as many dice as possible",
                f"option must_assign_max: {most} dice can stay in play, not {a.keep}",
                f"Option must_assign_max: {most} Würfel können im Spiel bleiben, nicht {a.keep}",
                "so viele Würfel wie möglich setzen")
        return IllegalActionError("legal moves", f"{a} is not allowed now", f"„{a.label('de')}“ ist jetzt nicht erlaubt",
                                  "erlaubte Züge")


def _bad_dice(values, n: int) -> IllegalActionError:
    got = len(values) if isinstance(values, tuple) else None
    if got != n:
        return IllegalActionError("dice in play", f"{n} dice are thrown now, not {got}",
                                  f"jetzt werden {n} Würfel geworfen, nicht {got}", "Würfel im Spiel")
    return IllegalActionError("dice", f"dice show 1 to 6, not {short(values)}",
                              f"Würfel zeigen 1 bis 6, nicht {short(values)}", "Würfel")


def _start_refusal(thrower: int, action) -> IllegalActionError:
    return start_rules.refusal(thrower, NUM_DICE, action_label(action, "en"), action_label(action, "de"))


Spiel1Game.state_class = Spiel1State
