"""The live class's rooms in the server's memory: the one authority every page talks to.

Pages (Panel sessions) only carry strings: an event a page sends goes to ``Registry.handle(session,
text)``, and what a page shows is ``Registry.view(session)``. Everything else happens here, in one
thread (the server's event loop), so there are no races between pages:

1. ``Gate.check``: the event's size, form, order (a counter that only goes up: a replayed event is
   refused) and rate; then the handler for the page's role checks every field (an unknown field, a
   seat, a room or a round that is not the page's own is refused, never looked at).
2. The handler changes the room and writes the change to the store (``store.Store``) before
   anything is shown; a refused event changes nothing, is logged, and its page gets the reason.
3. ``notify`` tells the pages concerned to redraw: the student's own page, the other seats of a
   table, the board, a projector. Each page's view is built for it alone: a seat's screen is
   ``LiveTable.state_for(seat)``, drawn from that seat's observation.

Rounds use the class model (``ui.classroom``) for everything a class round computes: a shared game
is a ``ClassRound`` (its class code, its seats and bots), each finished game becomes the result code
the serverless board would verify, and the board's summary (histogram, exact expected value of best
play, bots in the same game, where the class lost points) is ``classroom.Board.summary``, computed
by replaying the codes — the same numbers as the serverless board, computed by the same code.


The registry is one class in parts, each a module of one concern: ``gate`` (``Gate``, ``Refusal``,
the field checks), ``model`` (``Session``, the room model), ``rooms`` (rooms, keys, joining,
names), ``rounds`` (polls and rounds, the board's summary), ``seating`` (the games of a round, seats,
bots) and ``views`` (what each page shows). This module joins them and routes the events.
"""

from __future__ import annotations

import logging
import time

from ...core.errors import short
from .. import classroom
from .gate import (BURST, MAX_EVENT_CHARS, MAX_EVENT_DEPTH, PROJECTOR_EVENTS, RATE_PER_S, SEAT_EVENTS,
                   SEAT_FIELDS, Gate, Refusal, event_kind, parse_number)
from .model import (LANGS, Game, Room, Round, Session, Student, first_seat, had_seat,
                    seat_changes)
from .rooms import EXPIRE_HOURS, MAX_STUDENTS, NAME_MAX, Rooms, check_name, name_skeleton
from .rounds import (TABLE_GAMES, Rounds, _groups, _table_count, board_summary, lesson_questions,
                     lesson_reveal)
from .seating import Seating
from .store import Store
from .views import Views, fraction_text
from .words import word

log = logging.getLogger("spieltisch.live")

# what the server, the tests and the harness take from here (each defined in its part)
__all__ = ["BURST", "EXPIRE_HOURS", "Game", "Gate", "HANDLERS", "LANGS", "MAX_EVENT_CHARS", "MAX_EVENT_DEPTH",
           "MAX_STUDENTS", "NAME_MAX", "PROJECTOR_EVENTS", "RATE_PER_S", "Refusal", "Registry", "Room", "Round",
           "SEAT_EVENTS", "SEAT_FIELDS", "Session", "Student", "TABLE_GAMES", "_groups", "_table_count",
           "board_summary", "check_name", "first_seat", "fraction_text", "had_seat", "lesson_questions",
           "lesson_reveal", "name_skeleton", "parse_number", "seat_changes"]


# --- the registry ------------------------------------------------------------------------------------
class Registry(Rooms, Rounds, Seating, Views):
    """Every room of the server, rebuilt from the store at start.

    ``schedule(delay_s, fn)`` runs ``fn`` later on the event loop (bots' pacing); ``offload(fn,
    done)`` runs ``fn`` off the loop and ``done(result)`` back on it (the board's summary, which
    replays games and asks the advisor). Tests pass synchronous stand-ins."""

    def __init__(self, store: Store, teacher_key: str, join_url: str = "", schedule=None, offload=None,
                 clock=time.time, expire_hours: float = EXPIRE_HOURS, advise=None):
        self.store = store
        self.teacher_key = teacher_key
        self.join_url = join_url
        self.schedule = schedule or (lambda delay, fn: fn())
        self.offload = offload or (lambda fn, done: done(fn()))
        self.advise = advise  # a table's advisor off the loop (tables.advice_hook); None: at once
        self.clock = clock
        self.expire_s = expire_hours * 3600
        self.rooms: dict[str, Room] = {}
        self.sessions: list[Session] = []
        self.qr_svg = None  # set by the host: join URL -> SVG (or None)
        self.load()

    # --- start-up: everything from the store ---
    def load(self) -> None:
        self.rooms = {}
        for data in self.store.load():
            room = Room(data["code"], data["created"], data["expires"])
            for i, s in enumerate(data["students"]):
                room.students[s["id"]] = Student(s["id"], s["name"], s["token_hash"], i + 1)
            for r in data["rounds"]:
                rnd = Round(r["id"], r["kind"], r["spec"], r["status"])
                rnd.answers = dict(r["answers"])
                rnd.results = dict(r["results"])
                if rnd.kind == "game":
                    rnd.class_round = classroom.parse_class(rnd.spec["class"])
                for g in r["games"]:
                    game = self._build_game(room, rnd, g["id"], g["table_no"], g["seats"], g["seed"], g["secret"])
                    game.table.replay([(seat, action) for _, seat, action in g["moves"]],
                                      [(at, p, *self._occupant(room, who)) for at, p, who in seat_changes(g["seats"])])
                    game.stored = len(g["moves"])
                    rnd.games.append(game)
                room.rounds.append(rnd)
            self.rooms[room.code] = room
            for rnd in room.rounds:
                for game in rnd.games:
                    self._pace(room, game)
                if rnd.kind == "game" and any(g.table.is_over() for g in rnd.games):
                    self._summarize(room, rnd)
        self.expire()

    # --- events ---
    def handle(self, session: Session, raw) -> None:
        """One event of a page. A refused one changes nothing, is logged and told to the page."""
        try:
            event = session.gate.check(raw)
            session.ack = event["n"]
            session.notice = None  # the last refusal is answered by the next event that gets through
            handler = HANDLERS.get(session.role, {}).get(event["type"])
            if handler is None:
                if session.role == "denied":
                    raise Refusal("no_key")
                raise Refusal("not_here", kind=short(event["type"], 30, str))
            handler(self, session, event)
        except Refusal as e:
            log.warning("refused %s event from %s page %s (room %s, student %s): %s", short(event_kind(raw), 30, str),
                        session.role, session.id, session.room, session.student, e.text["en"])
            session.tell("refused", {lang: word("refused", lang, why=e.text[lang]) for lang in LANGS})
        except classroom.CodeError as e:
            log.warning("refused event from %s page %s: %s", session.role, session.id, e.text["en"])
            session.tell("refused", {lang: word("refused", lang, why=e.text[lang]) for lang in LANGS})
        session.push()


HANDLERS = {
    "student": {"hello": Registry._hello, "join": Registry._join, "answer": Registry._answer,
                "table": Registry._table_event, "lang": Registry._lang},
    "teacher": {"room_new": Registry._room_new, "room_open": Registry._room_open, "room_delete": Registry._room_delete,
                "round_new": Registry._round_new, "reveal": Registry._reveal, "next": Registry._next,
                "free": Registry._free, "takeover": Registry._takeover, "lang": Registry._lang},
    "projector": {"lang": Registry._lang, "table": Registry.projector_table},
    "denied": {},
}
