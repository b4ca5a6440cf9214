"""Würfel Joker, Spiel 2: push the slides 1-9 up with arithmetic on two dice.

Rules as implemented: ``docs/rules/wuerfel-joker.md`` (Spiel 2), from the KRONE rulebook. A turn is
throw -> push one slide (or decline doubles) -> stop or throw again, until the player stops, a throw
pushes nothing ("bust"), or all nine slides are up (+45). With two or more players the game opens
with the start throws (chance, ``StartThrow``): everyone throws both dice, the highest sum begins,
players tied for it throw again (``..start``); rounds then go clockwise (in seat order) from the
starting player.

Slides are a 9-bit mask: bit ``v - 1`` set = slide ``v`` is up. Everything that depends only on a
throw and on whether slide 5 is up is precomputed in small tables, so the random-play loop allocates
almost nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from ....core.errors import IllegalActionError, short
from ....core.game import CHANCE, TERMINAL, Game, State
from ....core.options import OptionSpec
from .. import start as start_rules

FULL = 0b111111111
FIVE = 1 << 4  # bit of slide 5
ALL_UP_BONUS = 45
SUM_DOWN = tuple(sum(v for v in range(1, 10) if not m >> (v - 1) & 1) for m in range(512))
UP = tuple(tuple(v for v in range(1, 10) if m >> (v - 1) & 1) for m in range(512))

# Phases (strings, because they appear in observations).
START = "start"  # chance: a start throw, to see who begins (two or more players)
THROW = "throw"  # chance: the current player's dice are about to be thrown
CHOOSE = "choose"  # after a usable throw: push a slide (or decline doubles)
DOUBLES_BUST = "doubles_bust"  # doubles that push nothing: throw again or take the bust
STOP_OR_THROW = "stop_or_throw"  # after a push: stop and write minus points, or throw again
OVER = "over"

K_THROW, K_PUSH, K_STOP, K_ROLL, K_DECLINE, K_ACCEPT, K_START = range(7)


# --- actions -------------------------------------------------------------------------------------
class Action:
    """Base of the Spiel 2 actions; ``label(lang)`` gives the German or English text."""

    __slots__ = ()
    kind: ClassVar[int]

    def label(self, lang: str = "en") -> str:
        return str(self)


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """Chance outcome: the two dice (ordered, so each pair has probability 1/36)."""

    a: int
    b: int
    kind: ClassVar[int] = K_THROW

    def __str__(self):
        return f"throw {self.a}+{self.b}"

    def label(self, lang="en"):
        return f"{'Wurf' if lang == 'de' else 'throw'} {self.a}+{self.b}"

    def to_json(self):
        return ["throw", self.a, self.b]


@dataclass(frozen=True, slots=True)
class StartThrow(Action):
    """Chance outcome of a start throw: the two dice one player throws to see who begins."""

    a: int
    b: int
    kind: ClassVar[int] = K_START

    def __str__(self):
        return f"start throw {self.a}+{self.b}"

    def label(self, lang="en"):
        return f"{'Anfangswurf' if lang == 'de' else 'start throw'} {self.a}+{self.b}"

    def to_json(self):
        return ["start", self.a, self.b]


@dataclass(frozen=True, slots=True)
class Push(Action):
    """Push slide ``value`` up. One action per value, however the dice make it."""

    value: int
    kind: ClassVar[int] = K_PUSH

    def __str__(self):
        return f"push {self.value}"

    def label(self, lang="en"):
        return f"{'schiebe' if lang == 'de' else 'push'} {self.value}"

    def to_json(self):
        return ["push", self.value]


@dataclass(frozen=True, slots=True)
class _Simple(Action):
    kind: ClassVar[int]
    text: ClassVar[str]
    text_de: ClassVar[str]
    code: ClassVar[str]

    def __str__(self):
        return self.text

    def label(self, lang="en"):
        return self.text_de if lang == "de" else self.text

    def to_json(self):
        return self.code


@dataclass(frozen=True, slots=True)
class Stop(_Simple):
    """Stop after a push and write the slides still down as minus points."""

    kind: ClassVar[int] = K_STOP
    text: ClassVar[str] = "stop"
    text_de: ClassVar[str] = "aufhören"
    code: ClassVar[str] = "stop"


@dataclass(frozen=True, slots=True)
class Roll(_Simple):
    """Throw again after a push."""

    kind: ClassVar[int] = K_ROLL
    text: ClassVar[str] = "throw again"
    text_de: ClassVar[str] = "weiterwürfeln"
    code: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class Decline(_Simple):
    """Verzichten: decline a Pasch (usable or not) and throw again."""

    kind: ClassVar[int] = K_DECLINE
    text: ClassVar[str] = "decline doubles"
    text_de: ClassVar[str] = "auf den Pasch verzichten"
    code: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class Accept(_Simple):
    """Take an unusable Pasch as the end of the turn (minus points) instead of throwing again."""

    kind: ClassVar[int] = K_ACCEPT
    text: ClassVar[str] = "accept the doubles (end of turn)"
    text_de: ClassVar[str] = "Pasch annehmen (Zugende)"
    code: ClassVar[str] = "accept"


STOP, ROLL, DECLINE, ACCEPT = Stop(), Roll(), Decline(), Accept()
PUSH = (None,) + tuple(Push(v) for v in range(1, 10))  # PUSH[v]
THROWS = tuple(Throw(a, b) for a in range(1, 7) for b in range(1, 7))
THROW_OF = {(t.a, t.b): t for t in THROWS}
CHANCE_OUTCOMES = tuple((t, Fraction(1, 36)) for t in THROWS)
START_THROWS = tuple(StartThrow(a, b) for a in range(1, 7) for b in range(1, 7))
START_OF = {(t.a, t.b): t for t in START_THROWS}
START_OUTCOMES = tuple((t, Fraction(1, 36)) for t in START_THROWS)
ALL_ACTIONS = (*PUSH[1:], STOP, ROLL, DECLINE, ACCEPT, *THROWS, *START_THROWS)
_BY_CODE = {"stop": STOP, "roll": ROLL, "decline": DECLINE, "accept": ACCEPT}
_STOP_ROLL = (STOP, ROLL)
# Legal actions at a CHOOSE/DOUBLES_BUST node, by pushable-values mask: without / with doubles.
_PUSHES = tuple(tuple(PUSH[v] for v in range(1, 10) if m >> (v - 1) & 1) for m in range(512))
_PUSHES_DOUBLES = tuple(p + (DECLINE,) if p else (DECLINE, ACCEPT) for p in _PUSHES)


def action_from_json(value):
    """The action for a ``to_json()`` value, or None."""
    if isinstance(value, Action):
        return value
    if isinstance(value, str):
        return _BY_CODE.get(value)
    if isinstance(value, (list, tuple)) and value and not any(isinstance(x, bool) for x in value):
        if len(value) == 2 and value[0] == "push" and value[1] in range(1, 10):
            return PUSH[value[1]]
        if len(value) == 3 and value[0] == "throw" and isinstance(value[1], int) and isinstance(value[2], int):
            return THROW_OF.get((value[1], value[2]))
        if len(value) == 3 and value[0] == "start" and isinstance(value[1], int) and isinstance(value[2], int):
            return START_OF.get((value[1], value[2]))
    return None


# --- dice arithmetic -----------------------------------------------------------------------------
def formations(a: int, b: int, five_up: bool, five_ops: str = "plus_minus") -> list[tuple[int, str]]:
    """Every way the throw ``a, b`` makes a slide value 1-9: ``[(3, "6:2 = 3"), ...]``.

    First the two dice are combined by one operation (+, larger - smaller, x, exact larger : smaller);
    only then, with slide 5 up, 5 may be added or subtracted (``five_ops="all"``: also x5 and exact :5).
    The intermediate result may lie outside 1-9. A Pasch may also push its single die value.
    """
    hi, lo = max(a, b), min(a, b)
    base = [(hi + lo, f"{hi}+{lo}", True)]
    if hi != lo:
        base.append((hi - lo, f"{hi}−{lo}", True))
    base.append((hi * lo, f"{hi}×{lo}", False))
    if hi % lo == 0:
        base.append((hi // lo, f"{hi}:{lo}", False))
    out = [(r, f"{t} = {r}") for r, t, _ in base if 1 <= r <= 9]
    if a == b:
        out.append((a, f"{a} (Pasch)"))
    if five_up:
        for r, t, additive in base:
            if 1 <= r + 5 <= 9:
                out.append((r + 5, f"{t}+5 = {r + 5}"))
            if 1 <= r - 5 <= 9:
                out.append((r - 5, f"{t}−5 = {r - 5}"))
            if five_ops == "all":
                p = f"({t})" if additive else t
                if 1 <= r * 5 <= 9:
                    out.append((r * 5, f"{p}×5 = {r * 5}"))
                if r % 5 == 0 and 1 <= r // 5 <= 9:
                    out.append((r // 5, f"{p}:5 = {r // 5}"))
    return out


def ways(a: int, b: int, mask: int, five_ops: str = "plus_minus") -> dict[int, list[str]]:
    """For the advisor/UI: each value the throw can push with slides ``mask`` up -> how it is made."""
    out: dict[int, list[str]] = {}
    for v, text in formations(a, b, bool(mask & FIVE), five_ops):
        if not mask >> (v - 1) & 1:
            out.setdefault(v, []).append(text)
    return dict(sorted(out.items()))


def makeable(a: int, b: int, five_up: bool, five_ops: str = "plus_minus") -> set[int]:
    """The set of slide values 1-9 the throw makes (slides up or down alike)."""
    return {v for v, _ in formations(a, b, five_up, five_ops)}


def _make_table(five_ops):
    """[five_up][a][b] -> bitmask of the values the throw makes."""
    return tuple(
        tuple(
            tuple(sum(1 << (v - 1) for v in makeable(a, b, bool(f), five_ops)) if a and b else 0 for b in range(7))
            for a in range(7)
        )
        for f in (0, 1)
    )


MAKE = {"plus_minus": _make_table("plus_minus"), "all": _make_table("all")}


def _values_text(mask: int, de: bool = False) -> str:
    vals = [str(v) for v in range(1, 10) if mask >> (v - 1) & 1]
    if len(vals) <= 1:
        return "".join(vals) or ("nichts" if de else "nothing")
    return ", ".join(vals[:-1]) + (" oder " if de else " or ") + vals[-1]


def bust_points(mask: int, a: int, b: int) -> int:
    """Minus points of a throw that ends the turn: slides down + pips, x5 with slide 5 up."""
    return -(SUM_DOWN[mask] + a + b) * (5 if mask & FIVE else 1)


def stop_points(mask: int, x5_on_stop: bool = False) -> int:
    """Minus points of a voluntary stop (x5 with slide 5 up only under option ``x5_on_stop``)."""
    return -SUM_DOWN[mask] * (5 if x5_on_stop and mask & FIVE else 1)


def down_text(mask: int) -> str:
    """The slides still down as a sum for people: "1+2+9" ("0" when all are up)."""
    return "+".join(str(v) for v in range(1, 10) if not mask >> (v - 1) & 1) or "0"


def bust_formula(mask: int, a: int, b: int) -> tuple[int, str]:
    """``bust_points`` with how they come about, for people: ``(-60, "−(9 + 1+2) × 5")``."""
    times = " × 5" if mask & FIVE else ""
    return bust_points(mask, a, b), f"−({down_text(mask)} + {a}+{b}){times}"


def stop_formula(mask: int, x5_on_stop: bool = False) -> tuple[int, str]:
    """``stop_points`` with how they come about, for people: ``(-9, "−(9)")``."""
    times = " × 5" if x5_on_stop and mask & FIVE else ""
    return stop_points(mask, x5_on_stop), f"−({down_text(mask)}){times}"


# --- state ---------------------------------------------------------------------------------------
class Spiel2State(State):
    """Position: round, player to act, slides up (mask), dice, phase, totals, this turn, past turns.

    ``turn`` is a tuple of events of the current turn (``("throw", 6, 2)``, ``("push", 4)``,
    ``("decline",)``, ``("roll",)``); ``log`` is a tuple of finished turns
    ``(round, player, points, end, events)`` with ``end`` in stop / bust / all_up. Both are tuples,
    so clones share them and nobody can change them. ``start`` holds the start throws (a list while
    they go on, see ``..start``),
    ``((start round, player, (a, b)), ...)``; ``first`` is the player who began.
    """

    def __init__(self, game):
        super().__init__(game)
        opts = game.options
        self.rounds = opts["rounds"]
        self.five_ops = opts["five_ops"]
        self._make = MAKE[self.five_ops]
        self.x5_on_stop = opts["x5_on_stop"]
        self.round = 0
        self.player = 0  # whose turn (in the start phase: who throws now)
        self.first = 0  # the starting player: a round ends when the turn comes back to them
        self.mask = 0
        self.dice = None
        self.phase = THROW
        self.totals = (0,) * self.num_players
        self._events = []  # this turn's events; a list, since a turn may be long (declined doubles)
        self.log = ()
        self._legal = ()  # at CHOOSE / DOUBLES_BUST: the legal actions, set with the throw
        self.start = ()
        self._throwers = ()  # players still to throw in this start round, the first throws now
        self._start_round = 0
        if self.num_players > 1:
            self.phase = START
            self.start = []  # appended to while the start throws go on, a tuple once settled
            self._throwers = tuple(range(self.num_players))
            self._start_round = 1

    # --- protocol -----------------------------------------------------------------------------
    def current_player(self):
        ph = self.phase
        if ph == THROW:
            return CHANCE
        if ph == OVER:
            return TERMINAL
        if ph == START:
            return CHANCE
        return self.player

    def chance_player(self):
        """The player who throws: the one whose turn it is, or at the start the next start thrower."""
        return self.player if self.phase == THROW or self.phase == START else None

    def chance_outcomes(self):
        return list(START_OUTCOMES if self.phase == START else CHANCE_OUTCOMES)

    def sample_chance(self, rng):
        # Two fair dice, the same law as CHANCE_OUTCOMES (36 ordered pairs, 1/36 each).
        # (below(6) + 1) is rng.die(): the same dice, with one call fewer each
        below = rng.below
        if self.phase is START:
            return START_THROWS[below(6) * 6 + below(6)]
        return THROWS[below(6) * 6 + below(6)]

    def pushable(self) -> int:
        """Bitmask of the values the current dice can push now (0 without dice)."""
        if self.dice is None:
            return 0
        a, b = self.dice
        m = self.mask
        return self._make[m >> 4 & 1][a][b] & ~m

    def _legal_actions(self):
        return _STOP_ROLL if self.phase == STOP_OR_THROW else self._legal

    def _apply(self, action):
        k = action.kind
        m = self.mask
        if k == K_THROW:
            a, b = action.a, action.b
            self.dice = (a, b)
            self._events.append(("throw", a, b))
            pm = self._make[m >> 4 & 1][a][b] & ~m  # the values these dice can push now
            if pm:
                self._legal = _PUSHES_DOUBLES[pm] if a == b else _PUSHES[pm]
                self.phase = CHOOSE
            elif a == b:
                self._legal = _PUSHES_DOUBLES[0]  # decline, or accept the bust
                self.phase = DOUBLES_BUST
            else:
                self._end_turn(bust_points(m, a, b), "bust")
        elif k == K_PUSH:
            m |= 1 << (action.value - 1)
            self.mask = m
            self._events.append(("push", action.value))
            if m == FULL:
                self._end_turn(ALL_UP_BONUS, "all_up")
            else:
                self.phase = STOP_OR_THROW
        elif k == K_STOP:
            self._events.append(("stop",))
            self._end_turn(stop_points(m, self.x5_on_stop), "stop")
        elif k == K_ACCEPT:
            self._events.append(("accept",))
            a, b = self.dice
            self._end_turn(bust_points(m, a, b), "bust")
        elif k == K_START:
            self._start_throw(action)
        else:  # roll or decline: the next throw
            self._events.append(("roll",) if k == K_ROLL else ("decline",))
            self.dice = None
            self.phase = THROW

    def _start_throw(self, action):
        self.start.append((self._start_round, self._throwers[0], (action.a, action.b)))
        self._throwers, self._start_round, starter = start_rules.after_throw(
            self.start, self._start_round, self._throwers)
        if starter is None:
            self.player = self._throwers[0]
        else:
            self.start = tuple(self.start)  # settled: clones share it from now on
            self.player = self.first = starter
            self.phase = THROW

    def _end_turn(self, points, end):
        p = self.player
        t = self.totals
        self.totals = t[:p] + (t[p] + points,) + t[p + 1:]
        self.log += ((self.round + 1, p, points, end, tuple(self._events)),)
        self._events = []
        self.mask = 0
        self.dice = None
        p += 1
        if p == self.num_players:
            p = 0
        if p == self.first:
            self.round += 1
        self.player = p
        self.phase = OVER if self.round >= self.rounds else THROW

    def scores(self):
        return list(self.totals)

    def sheet(self) -> list[list[int]]:
        """The score pad (Spielblock): per player the points of each of their turns so far."""
        n, first, log = self.num_players, self.first, self.log
        # turns go round from the starter, so seat p played every n-th turn from its place after them
        return [[turn[2] for turn in log[(p - first) % n::n]] for p in range(n)]

    @property
    def turn(self) -> tuple:
        """This turn's events so far, e.g. ``(("throw", 6, 2), ("push", 8))``."""
        return tuple(self._events)

    def clone(self):
        # Every other attribute is immutable (ints, strings, tuples): a shallow copy of them is a copy.
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c._events = self._events[:]
        if type(self.start) is list:
            c.start = self.start[:]
        return c

    def observation(self, player):
        """Everything is public in Spiel 2 except the future throws: every viewer, the spectator
        too, sees the same apart from the ``viewer`` field."""
        over = self.phase == OVER
        last = None
        if self.log:
            r, p, pts, end, events = self.log[-1]
            last = {"round": r, "player": p, "score": pts, "end": end, "events": [list(e) for e in events]}
        # JSON data (lists, not the state's tuples), new on every call: a caller cannot change the
        # state. Past turns only as the score pad shows them, so an observation stays small.
        obs = {
            "viewer": player,
            "round": min(self.round + 1, self.rounds),
            "rounds": self.rounds,
            "current_player": None if over else self.player,
            "phase": self.phase,
            "mask": self.mask,
            "up": list(UP[self.mask]),
            "dice": list(self.dice) if self.dice else None,
            "totals": list(self.totals),
            "sheet": self.sheet(),
            "turn": [list(e) for e in self._events],
            "last_turn": last,
        }
        obs.update(start_rules.observation(self.start, self._throwers,
                                           None if self.phase == START else self.first))
        return obs

    # --- rejections ---------------------------------------------------------------------------
    def why_illegal(self, action):
        act = action_from_json(action)
        ph = self.phase
        if act is None:
            return IllegalActionError(
                "action format",
                f"{short(action)} is not a Würfel Joker 2 action (push N, stop, roll, decline, accept)",
                f"{short(action)} ist kein Zug von Würfel Joker 2 (schiebe N, aufhören, weiterwürfeln, "
                "Pasch verzichten, Pasch annehmen)", "Zugformat")
        if not isinstance(action, Action) and act in self.legal_actions():
            return IllegalActionError(
                "action format", f"{short(action)} is the JSON form of {act}; pass the action itself",
                f"{short(action)} ist die JSON-Form von „{act.label('de')}“; bitte den Zug selbst übergeben",
                "Zugformat")
        if ph == OVER:
            return IllegalActionError("end of game", f"the game is over; {act} cannot be played",
                                      f"das Spiel ist vorbei; „{act.label('de')}“ geht nicht mehr", "Spielende")
        k = act.kind
        if ph == START:
            return start_rules.refusal(self.player, 2, act.label("en"), act.label("de"))
        if k == K_START:
            return IllegalActionError("start throw", "the start throws are over: the game is under way",
                                      "die Anfangswürfe sind vorbei: das Spiel läuft", "Wer beginnt")
        p = self.player + 1
        if ph == THROW:
            return IllegalActionError(
                "turn order", f"player {p} must throw the dice first; {act} is not possible now",
                f"Spieler {p} muss zuerst würfeln; „{act.label('de')}“ geht jetzt nicht", "Reihenfolge")
        if k == K_THROW:
            return IllegalActionError("turn order", f"player {p} must decide now; no dice are thrown",
                                      f"Spieler {p} muss jetzt entscheiden; es wird nicht gewürfelt", "Reihenfolge")
        a, b = self.dice
        if ph == STOP_OR_THROW:
            if k == K_PUSH:
                return IllegalActionError(
                    "one slide per throw", f"a slide was already pushed with {a}+{b}; stop or throw again",
                    f"mit {a}+{b} wurde schon ein Slide geschoben; aufhören oder weiterwürfeln",
                    "ein Slide pro Wurf")
            if k == K_DECLINE:
                return IllegalActionError(
                    "Pasch", "the throw was used for a push; it can no longer be declined",
                    "der Wurf wurde zum Schieben genutzt; auf ihn kann man nicht mehr verzichten", "Pasch")
            return IllegalActionError(
                "Pasch", "only unusable doubles can be accepted as the end of the turn",
                "nur ein Pasch, der nichts schieben kann, lässt sich als Zugende annehmen", "Pasch")
        # CHOOSE or DOUBLES_BUST: the dice are on the table, nothing pushed with them yet
        m = self.mask
        if k == K_STOP:
            return IllegalActionError(
                "stop after a push",
                f"the throw {a}+{b} must be used first: stopping is allowed only after a push",
                f"der Wurf {a}+{b} muss erst genutzt werden: aufhören darf man erst nach dem Schieben",
                "aufhören nach dem Schieben")
        if k == K_ROLL:
            if a == b:
                return IllegalActionError(
                    "one slide per throw", "push a slide first, or decline the doubles",
                    "erst einen Slide schieben oder auf den Pasch verzichten", "ein Slide pro Wurf")
            return IllegalActionError(
                "one slide per throw", f"push a slide with {a}+{b} first, then throw again",
                f"erst mit {a}+{b} einen Slide schieben, dann weiterwürfeln", "ein Slide pro Wurf")
        if k == K_DECLINE:
            return IllegalActionError(
                "Pasch", f"only doubles may be declined; {a}+{b} is not a Pasch",
                f"verzichten darf man nur auf einen Pasch; {a}+{b} ist kein Pasch", "Pasch")
        if k == K_ACCEPT:
            if a != b:
                return IllegalActionError("Pasch", f"{a}+{b} is not a Pasch; push a slide",
                                          f"{a}+{b} ist kein Pasch; einen Slide schieben", "Pasch")
            return IllegalActionError(
                "Pasch", f"the Pasch {a}+{b} can push a slide: push one or decline it",
                f"der Pasch {a}+{b} kann einen Slide schieben: schieben oder verzichten", "Pasch")
        v = act.value
        if m >> (v - 1) & 1:
            return IllegalActionError("slide already up", f"slide {v} is already up",
                                      f"Slide {v} ist schon oben", "Slide schon oben")
        table = MAKE[self.five_ops]
        made = table[m >> 4 & 1][a][b]
        if not m & FIVE and table[1][a][b] >> (v - 1) & 1:
            how = [t for val, t in formations(a, b, True, self.five_ops) if val == v][0].split(" =")[0]
            return IllegalActionError(
                "the five", f"{how} needs slide 5 up; slide 5 is still down",
                f"{how} geht erst, wenn der Slide 5 oben ist; er ist noch unten", "Die Fünf")
        free = made & ~m
        detail = f"{a} and {b} make {_values_text(made)}"
        detail_de = f"{a} und {b} ergeben {_values_text(made, True)}"
        if made and not free:
            detail += " — all of them already up"
            detail_de += " – alle schon oben"
        elif made & m:
            detail += f" (free: {_values_text(free)})"
            detail_de += f" (frei: {_values_text(free, True)})"
        return IllegalActionError("dice arithmetic", f"{detail}; not {v}", f"{detail_de}; nicht {v}",
                                  "Grundrechenarten")


_PHASE_TEXT = {
    False: {THROW: "throw the dice", CHOOSE: "push a slide", DOUBLES_BUST: "unusable doubles: throw again or accept",
            STOP_OR_THROW: "stop or throw again", OVER: "game over"},
    True: {THROW: "würfeln", CHOOSE: "einen Schieber schieben", DOUBLES_BUST: "Pasch nicht schiebbar: neu würfeln oder annehmen",
           STOP_OR_THROW: "aufhören oder weiterwürfeln", OVER: "Spielende"},
}
_END_TEXT = {False: {"stop": "stop", "bust": "bust", "all_up": "all nine up"},
             True: {"stop": "aufgehört", "bust": "nichts schiebbar", "all_up": "alle neun oben"}}


# --- game ----------------------------------------------------------------------------------------
class Spiel2Game(Game):
    id = "wuerfel-joker-2"
    # v2: the start throws decide who begins (v1 always began with seat 0)
    version = 2
    name = {"de": "Würfel Joker – Spiel 2", "en": "Würfel Joker – game 2 (slides 1–9)"}
    summary = {
        "de": "Mit zwei Würfeln und den vier Grundrechenarten die Schieber 1–9 hochschieben; "
              "aufhören oder weiterwürfeln – wer nichts mehr schieben kann, zahlt.",
        "en": "Push slides 1–9 up with arithmetic on two dice; stop or push your luck — "
              "a throw that pushes nothing costs dearly.",
    }
    min_players = 1
    max_players = 8
    default_players = 2
    option_specs = (
        OptionSpec("rounds", 10, "number of rounds (each player has one turn per round)", min=1, max=100),
        OptionSpec("five_ops", "plus_minus",
                   "with slide 5 up: plus_minus = (a op b) ± 5, as in the rulebook's example; all = also ×5 and "
                   "exact :5 (decision D2)",
                   choices=("plus_minus", "all")),
        OptionSpec("x5_on_stop", False, "a voluntary stop with slide 5 up also counts ×5; off = only a throw that pushes "
                                            "nothing counts ×5 (decision D3)"),
    )
    #: what the options are called on a screen (the class-round form), German and English
    option_labels = {
        "rounds": {"de": "Anzahl der Runden", "en": "number of rounds"},
        "five_ops": {"de": "mit der 5 oben", "en": "with slide 5 up", "choices": {
            "plus_minus": {"de": "± 5", "en": "± 5"},
            "all": {"de": "± 5, × 5 und : 5", "en": "± 5, × 5 and : 5"},
        }},
        "x5_on_stop": {"de": "× 5 auch beim freiwilligen Aufhören", "en": "× 5 on a voluntary stop too"},
    }
    class_code_number = 1  # (ui.classroom: given once, never changed)
    result_code_bot = "optimal"  # a quick exact bot: a student who mostly plays well writes a short code
    solves_whole_game = True  # analyze() has best play's exact expected total
    ranks_decisions = True  # the review is exact over the whole game
    state_class = Spiel2State
    test_configs = ((1, {}), (2, {}), (8, {}), (2, {"five_ops": "all", "x5_on_stop": True}))

    def position(self, up=(), dice=None) -> Spiel2State:
        """A hand-built position for lessons and advisors: the first turn of seat 0 (the start throws
        left out) with the slides ``up`` already up, then the throw ``dice`` (a legal chance
        outcome) if given."""
        state = self.new_initial_state()
        if any(type(v) is not int or not 1 <= v <= 9 for v in up):
            raise IllegalActionError("slides", f"slides are numbered 1–9, got {list(up)}",
                                     f"die Slides tragen die Zahlen 1–9, nicht {list(up)}", "Slides")
        state._throwers, state.phase = (), THROW
        state.mask = sum(1 << (v - 1) for v in set(up))
        if state.mask == FULL:
            raise IllegalActionError("slides", "with all nine slides up the turn is already over",
                                     "mit allen neun Slides oben ist der Zug schon vorbei", "Slides")
        if dice is not None:
            throw = THROW_OF.get(tuple(dice)) if isinstance(dice, (tuple, list)) else None
            if throw is None or any(type(d) is not int for d in dice):
                raise IllegalActionError("dice", f"a throw is two dice 1–6, got {dice!r}",
                                         f"ein Wurf sind zwei Würfel 1–6, nicht {dice!r}", "Würfel")
            state.apply_action(throw)
        return state

    def render_observation(self, obs: dict, lang: str = "en") -> str:
        """The observation as text; besides it only the option ``five_ops`` is read."""
        de = lang == "de"
        rows = start_rules.render_lines(obs, lang)
        phase, mask = obs["phase"], obs["mask"]
        if phase == OVER:
            rows.append("Spielende" if de else "Game over")
        elif phase == START:
            rows.append(f"{'Spieler' if de else 'player'} {obs['current_player'] + 1}: "
                        + ("Anfangswurf mit beiden Würfeln" if de else "start throw with both dice"))
        else:
            who = f"{'Spieler' if de else 'player'} {obs['current_player'] + 1}"
            rows.append(f"{'Runde' if de else 'Round'} {obs['round']}/{obs['rounds']} — {who}: "
                        f"{_PHASE_TEXT[de][phase]}")
        slides = " ".join(f"[{v}]" if mask >> (v - 1) & 1 else f" {v} " for v in range(1, 10))
        rows.append(f"{'Schieber' if de else 'Slides'}: {slides}   ([n] = {'oben' if de else 'up'}; "
                    f"{'unten' if de else 'down'}: {SUM_DOWN[mask]})")
        if obs["dice"]:
            a, b = obs["dice"]
            forms = [t for v, t in formations(a, b, bool(mask & FIVE), self.options["five_ops"])
                     if not mask >> (v - 1) & 1]
            rows.append(f"{'Würfel' if de else 'Dice'}: {a} {b}   "
                        + ("; ".join(forms) or ("nichts schiebbar" if de else "nothing to push")))
        rows.append(("Punkte" if de else "Totals") + ": " + " | ".join(
            f"P{i + 1} {t}" for i, t in enumerate(obs["totals"])))
        last = obs["last_turn"]
        if last:
            rows.append(f"{'Letzter Zug' if de else 'Last turn'}: P{last['player'] + 1} {last['score']:+d} "
                        f"({_END_TEXT[de][last['end']]})")
        return "\n".join(rows)
