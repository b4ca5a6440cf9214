"""The live class's model: who is on a page (``Session``) and what a room holds (students, rounds,
games), with the few rules of a seat that changed hands mid-game."""

from __future__ import annotations

import hashlib
import time
import secrets
from dataclasses import dataclass, field

from .. import classroom
from .gate import Gate
from .tables import LiveTable

LANGS = ("de", "en")


# --- who is on a page -------------------------------------------------------------------------------
class Session:
    """One page (a browser tab's Panel session): its role and what it is bound to. ``push`` is set
    by the host: it redraws the page (soon, on the page's own document)."""

    def __init__(self, role: str, room: str | None = None, lang: str = "de", table_no: int | None = None,
                 clock=time.monotonic):
        self.role = role  # "student", "teacher", "projector" or "denied" (a board without the key)
        self.room = room
        self.student: int | None = None
        self.lang = lang if lang in LANGS else "de"
        self.table_no = table_no
        self.gate = Gate(clock)
        self.notice: dict | None = None  # {"n", "kind", "text": {de, en}}
        self.notices = 0
        self.ack = 0  # the counter of the last event handled (refused or not): the page's receipt
        self.token: str | None = None  # a new seat token, sent once
        self.prefill = room or ""
        self.id = secrets.token_hex(4)  # for the log only
        self.push = lambda: None

    def tell(self, kind: str, text: dict) -> None:
        self.notices += 1
        self.notice = {"n": self.notices, "kind": kind, "text": text}

    def wants(self, targets: set) -> bool:
        if "all" in targets:
            return True
        if self.role == "student":
            return f"student:{self.student}" in targets
        if self.role == "teacher":
            return "board" in targets
        if self.role == "projector":
            return "projector" in targets or "board" in targets
        return False


# --- the room model ---------------------------------------------------------------------------------
@dataclass
class Student:
    id: int
    name: str
    token_hash: str | None
    number: int  # 1, 2, ... in the order of joining (the result code's student number)


@dataclass
class Game:
    """One game of a round: a shared game (one student and bots) or a table."""

    id: int
    table_no: int
    # per seat {"student": id} or {"bot": name}; a seat that changed hands mid-game also has "from" (the
    # number of actions made then) and "before" (who had it until then: a seat of the same form)
    seats: list
    table: LiveTable
    stored: int = 0  # the students' moves in the store (numbered 0, 1, ...)

    def students(self) -> dict:
        return {p: s["student"] for p, s in enumerate(self.seats) if "student" in s}

    def seat_of(self, student: int) -> int | None:
        return next((p for p, s in self.students().items() if s == student), None)


@dataclass
class Round:
    id: int
    kind: str  # "poll", "game", "table"
    spec: dict
    status: str = "open"  # "open", "revealed", "closed"
    answers: dict = field(default_factory=dict)  # poll: student -> value
    games: list = field(default_factory=list)
    class_round: classroom.ClassRound | None = None  # a shared game
    results: dict = field(default_factory=dict)  # a shared game: student -> result code
    summary: dict | None = None  # {lang: classroom.Board.summary}, computed off the event loop
    summarizing: bool = False  # a summary is being computed ...
    stale: bool = False  # ... and more games ended meanwhile

    def game_of(self, student: int) -> Game | None:
        return next((g for g in self.games if g.seat_of(student) is not None), None)

    def games_by_student(self) -> dict:
        """``game_of`` for every student at once: student id -> their (first) game."""
        out: dict = {}
        for g in self.games:
            for sid in g.students().values():
                out.setdefault(sid, g)
        return out


@dataclass
class Room:
    code: str
    created: float
    expires: float
    students: dict = field(default_factory=dict)  # id -> Student
    rounds: list = field(default_factory=list)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds and self.rounds[-1].status != "closed" else None


def first_seat(seat: dict) -> dict:
    """Who had a seat when its game began."""
    while "before" in seat:
        seat = seat["before"]
    return {k: v for k, v in seat.items() if k in ("student", "bot")}


def seat_changes(seats: list) -> list:
    """Every change of hands in a game's seats: (actions made, seat, the seat's new occupant)."""
    out = []
    for p, seat in enumerate(seats):
        while "before" in seat:
            out.append((seat["from"], p, {k: v for k, v in seat.items() if k in ("student", "bot")}))
            seat = seat["before"]
    return sorted(out, key=lambda c: c[0])


def had_seat(seat: dict, student: int) -> bool:
    """Whether ``student`` had this seat at some point of the game."""
    while True:
        if seat.get("student") == student:
            return True
        if "before" not in seat:
            return False
        seat = seat["before"]


CLAIM = "claim:"  # a freed seat's stored token: this prefix and the one-time code that takes it back
CLAIM_CHARS = 6


def freed(student) -> bool:
    """A seat the teacher freed (its device's token dropped): taken back with its one-time code."""
    return student.token_hash is None or student.token_hash.startswith(CLAIM)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
