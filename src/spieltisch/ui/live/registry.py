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
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import math
import secrets
import time
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

from ...core.errors import SpieltischError, short
from ...core.game import SPECTATOR
from ...core.match import Match, json_depth
from ...core.questions import QuestionError
from ...core.registry import get_game_class, question, questions
from ...core.rng import MAX_SEED
from .. import classroom
from ..table import HUMAN, load_view, resolve_game
from .store import Store
from .tables import LiveTable, advice_hook
from .words import both, word

log = logging.getLogger("spieltisch.live")

LANGS = ("de", "en")
ROOM_CHARS = 5
MAX_ROOMS = 100
MAX_STUDENTS = classroom.MAX_NUMBER  # a student's number rides in their result code
MAX_ROUNDS = 300  # per room
NAME_MAX = 24
QUESTION_MAX = 200
OPTION_MAX = 60
MAX_OPTIONS = 8
NUMBER_MAX_CHARS = 20
TOKEN_MAX = 64
MAX_EVENT_DEPTH = 8  # lists and objects inside each other in one event (the deepest real one: 3)
MAX_EVENT_CHARS = 4000  # the longest real event (a question with eight options) is far shorter
RATE_PER_S = 10.0  # events a page may send per second, on average ...
BURST = 30  # ... and at once
EXPIRE_HOURS = 12.0
TABLE_GAMES = ("wuerfel-joker-1", "wuerfel-joker-2", "tuefteln", "schraube-locker", "skip-bo-masters",
               "scratch-island")

# the table events a seat may send (the shared front-end's); the others (new game, seed, seats,
# players, variant, advisor) reach the table, which refuses them with the class round's reason
SEAT_EVENTS = {"act", "cancel", "step", "finish", "lang", "projector", "exact", "spectator", "undo",
               "new", "seed", "seat", "players", "variant", "advisor"}
# ... and their fields (with their types): anything else in an event is refused
SEAT_FIELDS = {"type": str, "token": str, "at": int, "on": bool, "lang": str, "n": int, "seed": (str, int),
               "seat": int, "who": str, "players": int, "id": str}
PROJECTOR_EVENTS = {"lang", "projector", "step"}


class Refusal(SpieltischError):
    """An event that is refused; ``text`` says why in German and English."""

    def __init__(self, key: str, **kw):
        self.key = key
        self.text = both(key, **kw)
        super().__init__(self.text["en"])


# --- the gate every event passes ------------------------------------------------------------------
class Gate:
    """One page's events: at most ``MAX_EVENT_CHARS`` characters, a JSON object with a ``type``, a
    counter ``n`` above the last one accepted (a replayed or reordered event is refused), and at
    most ``BURST`` at once and ``RATE_PER_S`` a second on average (a token bucket)."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.last_n = 0
        self.tokens = float(BURST)
        self.at = clock()

    def check(self, raw) -> dict:
        now = self.clock()
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE_PER_S)
        self.at = now
        if self.tokens < 1:
            raise Refusal("too_fast")
        self.tokens -= 1
        if not isinstance(raw, str):
            raise Refusal("malformed")
        if len(raw) > MAX_EVENT_CHARS:
            raise Refusal("too_long", n=len(raw), max=MAX_EVENT_CHARS)
        # nested lists deeper than any real event (a round spec: 3 levels) would overflow the parser's
        # stack (``"[" * 1990 + "]" * 1990`` fits the length bound): refused before parsing
        if json_depth(raw) > MAX_EVENT_DEPTH:
            raise Refusal("malformed")
        try:
            event = json.loads(raw)
        except (ValueError, RecursionError):
            raise Refusal("malformed") from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise Refusal("malformed")
        n = event.get("n")
        if isinstance(n, bool) or not isinstance(n, int):
            raise Refusal("field_type", field="n")
        if n <= self.last_n:
            raise Refusal("replayed")
        self.last_n = n
        return event


def _fields(event: dict, allowed: dict) -> dict:
    """The event's fields, each of its allowed type; any other field is refused by name."""
    for key, value in event.items():
        if key not in allowed:
            raise Refusal("field", field=short(key, 30, str))
        if value is None:
            continue
        kinds = allowed[key] if isinstance(allowed[key], tuple) else (allowed[key],)
        ok = (bool in kinds) if isinstance(value, bool) else isinstance(value, kinds)
        if not ok or (isinstance(value, str) and len(value) > 200):
            raise Refusal("field_type", field=key)
    return event


def _inner(ev: dict, kinds) -> tuple[dict, str]:
    """A page's table event (``{"type": "table", "event": {...}}``): the shared front-end's own
    event inside, its fields checked, of one of ``kinds``."""
    _fields(ev, {"type": str, "n": int, "event": dict})
    inner = ev.get("event")
    if not isinstance(inner, dict):
        raise Refusal("field_type", field="event")
    _fields(inner, SEAT_FIELDS)
    kind = inner.get("type")
    if kind not in kinds:
        raise Refusal("table_event", kind=short(kind, 30, str))
    return inner, kind


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


def _freed(student) -> bool:
    """A seat the teacher freed (its device's token dropped): taken back with its one-time code."""
    return student.token_hash is None or student.token_hash.startswith(CLAIM)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# Letters of other scripts that look like Latin ones (Unicode's confusables, the ones a keyboard
# layout or a copied name brings in): a name's skeleton reads them as the Latin letter, so "Аna"
# (Cyrillic А) is the same name as "Ana". Digits that look like letters count as those letters.
_LOOKALIKE = str.maketrans({
    **dict(zip("АВЕЗКМНОРСТХаеорсуххіјѕԁԛԝ", "ABE3KMHOPCTXaeopcyxxijsdqw")),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαβεικνορτυχ", "ABEZHIKMNOPTYXaBeikvoptux")),
    "0": "o", "1": "l", "I": "l", "|": "l", "5": "s",
})
# what the pages say themselves: a student so named would read as another ("am Zug: Du")
_RESERVED = ("du", "you", "lehrkraft", "teacher", "lehrer", "lehrerin", "ich", "me", "bot", "zuschauer", "spectator")
_RESERVED_PATTERN = ("bot", "spieler", "player", "platz", "seat", "tisch", "table")


def _script(ch: str) -> str | None:
    """The script of a letter ("LATIN", "CYRILLIC", …) as its Unicode name starts; None for others."""
    if not ch.isalpha():
        return None
    try:
        script = unicodedata.name(ch).split()[0]
    except ValueError:
        return None
    return "CJK" if script in ("HIRAGANA", "KATAKANA") else script  # Japanese writes them together


def name_skeleton(name: str) -> str:
    """What a name looks like: NFKC, look-alike letters and digits read as Latin, case folded, spaces
    and - _ . dropped. Two names with one skeleton cannot both be in a room."""
    text = unicodedata.normalize("NFKC", name).translate(_LOOKALIKE).casefold()
    return "".join(ch for ch in text if ch not in " -_.").translate(_LOOKALIKE)


def check_name(name) -> str:
    """A nickname: 1 to ``NAME_MAX`` letters, digits, spaces and - _ . (nothing a page could read
    as markup, nothing to mistake for personal data beyond a name), in one script, and none of the
    words the pages say themselves ("Du", "You", "Bot 3", "Lehrkraft", "Teacher")."""
    if not isinstance(name, str):
        raise Refusal("bad_name", max=NAME_MAX)
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not 1 <= len(name) <= NAME_MAX or not all(ch.isalnum() or ch in " -_." for ch in name):
        raise Refusal("bad_name", max=NAME_MAX)
    if len({_script(ch) for ch in name} - {None}) > 1:
        raise Refusal("name_mixed", name=name)
    skeleton = name_skeleton(name)
    bare = skeleton.rstrip("0123456789ols")  # "Bot 3" -> "bot" (3 may read as a letter: o, l, s)
    if skeleton in _RESERVED or (bare in _RESERVED_PATTERN and bare != skeleton):
        raise Refusal("name_reserved", name=name)
    return name


def parse_number(value) -> Fraction:
    """A typed number: 12, -3,5 (German comma), 3.25, 7/2."""
    if isinstance(value, bool):
        raise Refusal("bad_number", max=NUMBER_MAX_CHARS)
    if isinstance(value, int):
        value = str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise Refusal("bad_number", max=NUMBER_MAX_CHARS)
        value = repr(value)
    if not isinstance(value, str) or not 0 < len(value.strip()) <= NUMBER_MAX_CHARS:
        raise Refusal("bad_number", max=NUMBER_MAX_CHARS)
    text = value.strip().replace(",", ".").replace("−", "-").replace(" ", "")
    if not all(ch in "0123456789.-/+" for ch in text) or "e" in text.lower():
        raise Refusal("bad_number", max=NUMBER_MAX_CHARS)
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise Refusal("bad_number", max=NUMBER_MAX_CHARS) from None


def fraction_text(f: Fraction, lang: str) -> str:
    if f.denominator == 1:
        text = str(f.numerator)
    elif 10 ** 6 % f.denominator == 0 or f.denominator in (2, 4, 5, 8, 10, 20, 25, 50, 100):
        text = f"{float(f):g}"
        text = text.replace(".", ",") if lang == "de" else text
    else:
        text = f"{f.numerator}/{f.denominator}"
    return text.replace("-", "−")


# --- the registry ------------------------------------------------------------------------------------
class Registry:
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

    def expire(self) -> list[str]:
        gone = self.store.expired_rooms(self.clock())
        for code in gone:
            self._delete_room(code)
        return gone

    # --- sessions ---
    def attach(self, session: Session) -> None:
        self.sessions.append(session)

    def detach(self, session: Session) -> None:
        if session in self.sessions:
            self.sessions.remove(session)
            if session.role == "student" and session.student is not None:
                self.notify(session.room, {"board"})

    def teacher_session(self, key, lang: str = "de", room: str | None = None, table_no=None,
                        role: str = "teacher") -> Session:
        """A board (or projector) page: its role only with the right key, else ``denied``."""
        ok = isinstance(key, str) and hmac.compare_digest(key.encode(), self.teacher_key.encode())
        if not ok:
            log.warning("a %s page was opened without a valid teacher key", role)
        code = self._room_code(room) if ok and room else None
        if ok and code is None and len(self.rooms) == 1:  # one room: the board opens it
            code = next(iter(self.rooms))
        return Session(role if ok else "denied", code if code in self.rooms else None, lang, table_no)

    def projector_token(self, room: str, table_no: int) -> str:
        """The projector link's own token: it opens that one table's spectator view and nothing else.
        An HMAC of the teacher key, the room and the table, so it needs no storage and holds after a
        restart, and the key itself never leaves the teacher's board (issue 33: a link with the key
        opened the whole board by changing ``/beamer`` to ``/klasse``)."""
        msg = f"beamer:{room}:{table_no}".encode()
        return hmac.new(self.teacher_key.encode(), msg, hashlib.sha256).hexdigest()[:32]

    def projector_session(self, token, lang: str = "de", room: str | None = None, table_no=None) -> Session:
        """A projector page: the spectator view of ``table_no`` in ``room`` with that table's token,
        else ``denied``."""
        code = self._room_code(room) if isinstance(room, str) else None
        ok = (code is not None and type(table_no) is int and isinstance(token, str) and len(token) <= 64
              and hmac.compare_digest(token.encode(), self.projector_token(code, table_no).encode()))
        if not ok:
            log.warning("a projector page was opened without its table's token")
            return Session("denied", None, lang, None)
        return Session("projector", code if code in self.rooms else None, lang, table_no)

    def online(self, room: str, student: int) -> int:
        return sum(1 for s in self.sessions if s.room == room and s.student == student and s.role == "student")

    def notify(self, room: str | None, targets: set) -> None:
        for s in list(self.sessions):
            if s.room == room and s.wants(targets):
                s.push()

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
            log.warning("refused %s event from %s page %s (room %s, student %s): %s", short(_kind(raw), 30, str),
                        session.role, session.id, session.room, session.student, e.text["en"])
            session.tell("refused", {lang: word("refused", lang, why=e.text[lang]) for lang in LANGS})
        except classroom.CodeError as e:
            log.warning("refused event from %s page %s: %s", session.role, session.id, e.text["en"])
            session.tell("refused", {lang: word("refused", lang, why=e.text[lang]) for lang in LANGS})
        session.push()

    # --- student events ---
    def _hello(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int, "token": str, "room": str})
        if session.student is not None:
            return  # the page asked again (a redraw): it is bound already
        if ev.get("room"):
            session.prefill = ev["room"][:20]
        token = ev.get("token")
        if not token:
            return
        if len(token) > TOKEN_MAX:
            raise Refusal("field_type", field="token")
        h = token_hash(token)
        for room in self.rooms.values():
            for s in room.students.values():
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                    self._bind(session, room, s)
                    return
        raise Refusal("token_unknown")

    def _join(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int, "room": str, "name": str, "claim": str})
        if session.student is not None:
            raise Refusal("already_joined", room=session.room)
        code = self._room_code(ev.get("room"))
        room = self.rooms.get(code)
        if room is None:
            raise Refusal("no_room", room=short(ev.get("room"), 20, str))
        name = check_name(ev.get("name"))
        key = name_skeleton(name)
        token = secrets.token_urlsafe(24)
        existing = next((s for s in room.students.values() if name_skeleton(s.name) == key), None)
        if existing is not None:
            if not _freed(existing):
                raise Refusal("name_taken", name=name)
            claim = existing.token_hash[len(CLAIM):] if existing.token_hash else ""
            typed = ev.get("claim")
            try:
                typed = classroom.normalize(typed, "seat code") if isinstance(typed, str) and typed.strip() else ""
            except classroom.CodeError:
                typed = ""
            if not claim or not hmac.compare_digest(typed.encode(), claim.encode()):
                session.claim_needed = True  # the join page opens its seat-code field
                raise Refusal("seat_claim", name=existing.name)
            # a freed seat: this device takes it over (the old device's token was dropped)
            self.store.set_token(existing.id, token_hash(token))
            existing.token_hash = token_hash(token)
            student = existing
        else:
            if len(room.students) >= MAX_STUDENTS:
                raise Refusal("room_full", max=MAX_STUDENTS)
            sid = self.store.add_student(room.code, name, key, token_hash(token))
            student = Student(sid, name, token_hash(token), len(room.students) + 1)
            room.students[sid] = student
        session.token = token
        self._bind(session, room, student)

    def _bind(self, session: Session, room: Room, student: Student) -> None:
        session.room, session.student = room.code, student.id
        rnd = room.current
        if rnd is not None and rnd.status == "open" and rnd.kind in ("game", "table") and rnd.game_of(student.id) is None:
            self._seat_late(room, rnd, student)
        self.notify(room.code, {"board"})

    def _answer(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int, "value": (str, int, float)})
        room, student = self._student(session)
        rnd = room.current
        if rnd is None:
            raise Refusal("no_round")
        if rnd.kind != "poll":
            raise Refusal("not_poll")
        if rnd.status != "open":
            raise Refusal("poll_closed")
        value = self._poll_value(rnd, ev.get("value"))
        self.store.set_answer(rnd.id, student.id, value)
        rnd.answers[student.id] = value
        self.notify(room.code, {"board", "projector", f"student:{student.id}"})

    def _poll_value(self, rnd: Round, value):
        if rnd.spec["type"] == "choice":
            n = len(rnd.spec["options"])
            if isinstance(value, str) and value.strip().isdigit() and len(value) < 4:
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
                raise Refusal("bad_choice", n=n)
            return value
        f = parse_number(value)
        if abs(f) > 10 ** 12:
            raise Refusal("bad_number", max=NUMBER_MAX_CHARS)
        return str(f)

    def _table_event(self, session: Session, ev: dict) -> None:
        room, student = self._student(session)
        inner, kind = _inner(ev, SEAT_EVENTS)
        if kind == "lang":
            self._set_lang(session, inner.get("lang"))
            return
        rnd = room.current
        game = rnd.game_of(student.id) if rnd is not None and rnd.kind in ("game", "table") else None
        if game is None:
            raise Refusal("no_game")
        seat = game.seat_of(student.id)
        table = game.table
        before = (table.step_id, table.human_moves())
        with table.seat(seat, session.lang):
            table.handle(inner)
        self._changed(room, rnd, game, moved=(table.step_id, table.human_moves()) != before,
                      also={f"student:{student.id}"})

    def _lang(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int, "lang": str})
        self._set_lang(session, ev.get("lang"))

    def _set_lang(self, session: Session, lang) -> None:
        if lang not in LANGS:
            raise Refusal("field_type", field="lang")
        session.lang = lang

    def _student(self, session: Session) -> tuple[Room, Student]:
        room = self.rooms.get(session.room) if session.room else None
        student = room.students.get(session.student) if room is not None and session.student is not None else None
        if student is None:
            raise Refusal("not_joined")
        return room, student

    # --- teacher events (a teacher page exists only with the key: see ``teacher_session``) ---
    def _room_new(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int})
        room = self.create_room()
        session.room = room.code
        self.notify(None, {"board"})

    def create_room(self) -> Room:
        if len(self.rooms) >= MAX_ROOMS:
            raise Refusal("too_many_rooms", max=MAX_ROOMS)
        while True:
            code = "".join(secrets.choice(classroom.ALPHABET) for _ in range(ROOM_CHARS))
            if code not in self.rooms:
                break
        now = self.clock()
        self.store.add_room(code, now + self.expire_s)
        room = Room(code, now, now + self.expire_s)
        self.rooms[code] = room
        log.info("room %s opened", code)
        return room

    def _room_open(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int, "room": str})
        code = self._room_code(ev.get("room"))
        if code not in self.rooms:
            raise Refusal("no_such_room", room=short(ev.get("room"), 20, str))
        session.room = code

    def _room_delete(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int, "room": str})
        code = self._room_code(ev.get("room"))
        if code not in self.rooms:
            raise Refusal("no_such_room", room=short(ev.get("room"), 20, str))
        self._delete_room(code)
        if session.room == code:
            session.room = None

    def _delete_room(self, code: str) -> None:
        self.store.delete_room(code)
        self.rooms.pop(code, None)
        for s in list(self.sessions):
            if s.room == code:
                if s.role == "student":
                    s.student = None
                    s.tell("info", both("room_gone"))
                s.room = None
                s.push()
        log.info("room %s deleted with everything in it", code)

    def _free(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int, "student": int})
        room = self._teacher_room(session)
        student = room.students.get(ev.get("student"))
        if student is None:
            raise Refusal("no_such_student", id=short(ev.get("student"), 12, str))
        # the seat (and its hidden hand) goes back only with a one-time code the board shows: not to
        # whoever types the nickname first
        claim = "".join(secrets.choice(classroom.ALPHABET) for _ in range(CLAIM_CHARS))
        self.store.set_token(student.id, CLAIM + claim)
        student.token_hash = CLAIM + claim
        for s in list(self.sessions):
            if s.role == "student" and s.room == room.code and s.student == student.id:
                s.student = None
                s.prefill = room.code
                s.tell("info", both("seat_freed"))
                s.push()
        self.notify(room.code, {"board"})

    def _round_new(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int, "spec": dict})
        room = self._teacher_room(session)
        if len(room.rounds) >= MAX_ROUNDS:
            raise Refusal("bad_round", why=f"at most {MAX_ROUNDS} rounds in a room")
        spec = ev.get("spec")
        if not isinstance(spec, dict):
            raise Refusal("field_type", field="spec")
        self.new_round(room, spec)

    def new_round(self, room: Room, spec: dict) -> Round:
        kind = spec.get("kind")
        try:
            if kind == "poll":
                stored, class_round = self._poll_spec(spec), None
            elif kind == "game":
                stored, class_round = self._game_spec(spec)
            elif kind == "table":
                stored, class_round = self._table_spec(spec), None
            else:
                raise Refusal("bad_round", why=f"kind is poll, game or table, not {short(kind, 20)}")
        except (SpieltischError, ValueError) as e:
            if isinstance(e, Refusal):
                raise
            raise Refusal("bad_round", why=str(e)[:200]) from None
        if room.current is not None:
            self._close(room, room.current)
        rid = self.store.add_round(room.code, kind, stored)
        rnd = Round(rid, kind, stored, class_round=class_round)
        room.rounds.append(rnd)
        if kind == "game":
            for student in room.students.values():
                self._new_game(room, rnd, [{"student": student.id}], len(rnd.games) + 1)
        elif kind == "table":
            # the tables are planned for the whole class, so a student who comes later (offline when
            # the round started) finds a bot's seat at a table of classmates
            present = [s for s in room.students.values() if self.online(room.code, s.id)]
            tables = _table_count(len(present), len(room.students), stored["humans"])
            for group in _groups(present, stored["humans"], tables):
                self._new_table(room, rnd, group)
        self.notify(room.code, {"all"})
        return rnd

    def _poll_spec(self, spec: dict) -> dict:
        if "question_id" in spec:
            return self._lesson_poll_spec(spec)
        _fields(spec, {"kind": str, "question": str, "type": str, "options": list})
        question = " ".join(str(spec.get("question") or "").split())
        if not 1 <= len(question) <= QUESTION_MAX:
            raise Refusal("bad_round", why=f"a question has 1 to {QUESTION_MAX} characters")
        kind = spec.get("type")
        if kind == "choice":
            options = spec.get("options")
            if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
                raise Refusal("bad_round", why="options are a list of texts")
            options = [" ".join(o.split())[:OPTION_MAX] for o in options if o.strip()]
            if not 2 <= len(options) <= MAX_OPTIONS:
                raise Refusal("bad_round", why=f"a choice has 2 to {MAX_OPTIONS} options")
            return {"kind": "poll", "question": question, "type": "choice", "options": options}
        if kind == "number":
            return {"kind": "poll", "question": question, "type": "number"}
        raise Refusal("bad_round", why="a poll is of type choice or number")

    def _lesson_poll_spec(self, spec: dict) -> dict:
        """A poll of a lesson question, as its game's package declares it (``core.registry``): the
        students choose one of its options or ranges; the texts are read in each page's language."""
        _fields(spec, {"kind": str, "question_id": str})
        try:
            q = question(spec.get("question_id"))
        except QuestionError as e:
            raise Refusal("bad_round", why=str(e)[:200]) from None
        return {"kind": "poll", "type": "choice", "question_id": q.id, "question": q.prompt["de"],
                "options": q.labels("de")}

    def _game_spec(self, spec: dict):
        _fields(spec, {"kind": str, "game": str, "players": int})
        game_id = resolve_game(spec.get("game"))
        if game_id not in classroom.class_games():
            raise Refusal("bad_round", why=f"{game_id} has no class round")
        # a seed no student sees and no one can search: the game's throws and cards stay unknown
        round_ = classroom.new_round(game_id, spec.get("players"), seed=secrets.randbelow(MAX_SEED + 1))
        if len(round_.humans) != 1:
            raise Refusal("bad_round", why="a shared game has one student seat")
        return {"kind": "game", "game": game_id, "class": round_.code}, round_

    def _table_spec(self, spec: dict) -> dict:
        _fields(spec, {"kind": str, "game": str, "players": int, "humans": int, "advisor": bool})
        game_id = resolve_game(spec.get("game"))
        if game_id not in TABLE_GAMES:
            raise Refusal("bad_round", why=f"{game_id} cannot be played at a live table")
        cls = get_game_class(game_id)
        players = spec.get("players") or max(2, cls.min_players)
        humans = spec.get("humans") or players
        if not (cls.min_players <= players <= cls.max_players and 2 <= players <= 6):
            raise Refusal("bad_round", why=f"{game_id} is played by {cls.min_players} to {cls.max_players} "
                                           f"(a live table: 2 to 6)")
        if not 1 <= humans <= players:
            raise Refusal("bad_round", why=f"1 to {players} students per table")
        return {"kind": "table", "game": game_id, "players": players, "humans": humans,
                "advisor": bool(spec.get("advisor"))}

    def _reveal(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int, "truth": (str, int, float)})
        room = self._teacher_room(session)
        rnd = room.current
        if rnd is None or rnd.status != "open":
            raise Refusal("no_round")
        spec = dict(rnd.spec)
        truth = ev.get("truth")
        lesson = rnd.kind == "poll" and "question_id" in spec
        if lesson:
            # the class's answers as they stand now, binned by the question's options or ranges
            spec["counts"] = [sum(1 for v in rnd.answers.values() if v == i) for i in range(len(spec["options"]))]
        elif rnd.kind == "poll" and truth not in (None, ""):
            spec["truth"] = self._poll_value(rnd, truth)
        self.store.set_round(rnd.id, "revealed", spec)
        rnd.status, rnd.spec = "revealed", spec
        self.notify(room.code, {"all"})
        if lesson:
            self._reveal_lesson(room, rnd)

    def _reveal_lesson(self, room: Room, rnd: Round) -> None:
        """The exact value and the seeded simulation of a lesson poll, off the event loop (a simulation
        may take a few hundred ms); stored with the round, so a restart shows it again."""
        def done(result):
            if self.rooms.get(room.code) is not room or rnd.status == "closed":
                return
            rnd.spec = {**rnd.spec, "lesson": result}
            self.store.set_round(rnd.id, rnd.status, rnd.spec)
            self.notify(room.code, {"all"})

        self.offload(partial(lesson_reveal, rnd.spec["question_id"], list(rnd.spec["counts"])), done)

    def _next(self, session: Session, ev: dict) -> None:
        _fields(ev, {"type": str, "n": int})
        room = self._teacher_room(session)
        if room.current is None:
            raise Refusal("no_round")
        self._close(room, room.current)
        self.notify(room.code, {"all"})

    def _close(self, room: Room, rnd: Round) -> None:
        self.store.set_round(rnd.id, "closed")
        rnd.status = "closed"

    def _teacher_room(self, session: Session) -> Room:
        room = self.rooms.get(session.room) if session.room else None
        if room is None:
            raise Refusal("no_room_open")
        return room

    def _room_code(self, text) -> str | None:
        """A typed room code, forgiving as a class code is (lower case, O for 0, spaces)."""
        try:
            code = classroom.normalize(text, "room code")
        except classroom.CodeError:
            return None
        return code if len(code) == ROOM_CHARS else None

    # --- games ---
    def _new_game(self, room: Room, rnd: Round, seats: list, table_no: int) -> Game:
        if rnd.kind == "game":
            seed, secret = rnd.class_round.seed, rnd.class_round.secret
        else:
            seed = secrets.randbelow(MAX_SEED + 1)
            cls = get_game_class(rnd.spec["game"])
            secret = secrets.randbits(64) if classroom._hidden(cls) else None
        gid = self.store.add_game(rnd.id, table_no, seats, seed, secret)
        game = self._build_game(room, rnd, gid, table_no, seats, seed, secret)
        rnd.games.append(game)
        return game

    def _new_table(self, room: Room, rnd: Round, students: list) -> Game:
        players = rnd.spec["players"]
        view = load_view(get_game_class(rnd.spec["game"]))
        seats = [{"student": s.id} for s in students] + [{"bot": view.default_bot}] * (players - len(students))
        game = self._new_game(room, rnd, seats, len(rnd.games) + 1)
        self._pace(room, game)
        return game

    def _seat_late(self, room: Room, rnd: Round, student: Student) -> None:
        """A student who comes after the round started (late, or offline when it started, or back
        after a bot took their seat over): their own shared game; at tables, a bot's seat at a
        table that is still going and has fewer students than the round's "students per table" —
        their own seat back if a bot still has it, else at the table with the fewest students (a
        table of bots alone last) — and only if there is none a new table with bots."""
        if rnd.kind == "game":
            self._new_game(room, rnd, [{"student": student.id}], len(rnd.games) + 1)
            return
        spot = self._bot_seat(rnd, student.id)
        if spot is None:
            self._new_table(room, rnd, [student])
        else:
            self._hand_seat(room, rnd, *spot, {"student": student.id})

    def _bot_seat(self, rnd: Round, student: int) -> tuple | None:
        """(game, seat) of the bot seat a late student takes, or None."""
        best = None
        for game in rnd.games:
            if game.table.is_over():
                continue
            bots = [p for p, s in enumerate(game.seats) if "bot" in s]
            n = len(game.students())
            if not bots:
                continue
            own = next((p for p in bots if had_seat(game.seats[p], student)), None)
            if own is None and n >= rnd.spec["humans"]:
                continue
            key = (own is None, n == 0, n, game.table_no)
            if best is None or key < best[0]:
                best = (key, game, own if own is not None else bots[0])
        return None if best is None else best[1:]

    def _occupant(self, room: Room, seat: dict) -> tuple:
        """(the table's seat setting, the student's name) for a seat's occupant."""
        if "student" in seat:
            student = room.students.get(seat["student"])
            return HUMAN, student.name if student is not None else ""
        return seat["bot"], None

    def _hand_seat(self, room: Room, rnd: Round, game: Game, p: int, new: dict) -> None:
        """Seat ``p`` of a running ``game`` goes to ``new`` (a student or a bot) where the game stands:
        stored first (with who had it before and from which action on), then the table goes on."""
        table = game.table
        seats = list(game.seats)
        seats[p] = {**new, "from": len(table.session.match.actions), "before": game.seats[p]}
        self.store.set_seats(game.id, seats)
        game.seats = seats
        who, name = self._occupant(room, new)
        table.set_seat(p, who, name)
        self._pace(room, game)
        left = seats[p]["before"].get("student")
        targets = {f"student:{s}" for s in game.students().values()} | {"board", "projector"}
        if left is not None:
            targets.add(f"student:{left}")
        self.notify(room.code, targets)

    def _takeover(self, session: Session, ev: dict) -> None:
        """The board's "bot takes over": a student's seat at a table goes on with the game's bot
        (a student who left would stop the table); their page says so, and they get a seat again
        (this one, if a bot still has it) when their page comes back."""
        _fields(ev, {"type": str, "n": int, "student": int})
        room = self._teacher_room(session)
        rnd = room.current
        sid = ev.get("student")
        game = rnd.game_of(sid) if rnd is not None and rnd.kind == "table" and rnd.status == "open" else None
        if game is None or game.table.is_over():
            raise Refusal("no_seat_to_take", id=short(sid, 12, str))
        bot = load_view(get_game_class(rnd.spec["game"])).default_bot
        self._hand_seat(room, rnd, game, game.seat_of(sid), {"bot": bot})

    def _build_game(self, room: Room, rnd: Round, gid: int, table_no: int, seats: list, seed: int, secret) -> Game:
        """The game as it began (a seat that changed hands since: as its first occupant had it; the
        replay hands it on where it did)."""
        start = [first_seat(s) for s in seats]
        names = {p: room.students[s["student"]].name for p, s in enumerate(start)
                 if "student" in s and s["student"] in room.students}
        who = [HUMAN if "student" in s else s["bot"] for s in start]
        if rnd.kind == "game":
            settings = rnd.class_round.table_settings()
            # (the server takes the result itself: no result code on the student's page)
            settings["class_round"] = {**settings["class_round"], "result_code": False}
            note = both("live_note_game")
        else:
            settings = {"game": rnd.spec["game"], "players": rnd.spec["players"], "seats": who, "seed": seed,
                        "secret": secret, "options": {}, "advisor": False,
                        "class_round": {"code": f"{room.code}-{table_no}", "advisor": bool(rnd.spec.get("advisor"))}}
            note = both("live_note_table", n=table_no)
        game = Game(gid, table_no, seats, None)
        store = self.store

        # the moves are numbered as they are stored (not by the table's count of its humans' moves,
        # which changes when a seat changes hands)
        def on_move(seat, action):
            store.add_move(gid, game.stored, seat, action.to_json())
            game.stored += 1

        def on_undo(n):  # (Undo takes back one move: the last one stored)
            game.stored -= 1
            store.drop_moves_from(gid, game.stored)

        game.table = LiveTable(names=names, note=note, on_move=on_move, on_undo=on_undo,
                               advise=advice_hook(self, room, game), **settings)
        return game

    def _changed(self, room: Room, rnd: Round, game: Game, moved: bool, also: set = frozenset()) -> None:
        """After a change of ``game``: its seats, the board and the projector redraw; bots go on; a
        finished shared game becomes a result."""
        targets = set(also)
        if moved:
            targets |= {f"student:{s}" for s in game.students().values()} | {"board", "projector"}
            if game.table.is_over() and rnd.kind == "game" and game.students():
                self._summarize(room, rnd)
            self._pace(room, game)
        self.notify(room.code, targets)

    def _pace(self, room: Room, game: Game) -> None:
        """Bots and chance go on by themselves, one step at a time at the view's pace (the seats'
        pages may step sooner: a step already taken is not taken twice)."""
        table = game.table
        if not table.pending():
            return
        at = table.step_id

        def step():
            if self.rooms.get(room.code) is not room or table.step_id != at:
                return
            rnd = next((r for r in room.rounds if game in r.games), None)
            if rnd is None or rnd.status == "closed":
                return
            with table.seat(SPECTATOR):
                table.handle({"type": "step", "at": at})
            self._changed(room, rnd, game, moved=table.step_id != at)

        self.schedule(table.view.bot_delay, step)

    def _summarize(self, room: Room, rnd: Round) -> None:
        """The shared games that ended become result codes (the ones a student would type on the
        serverless board), verified by replay on the class's board, and the board's summary: all
        of it off the event loop (``board_summary``), one computation at a time per round. The
        codes are then stored; the moves they come from were stored already."""
        if rnd.summarizing:
            rnd.stale = True
            return
        games = []
        for game in rnd.games:
            sid = next(iter(game.students().values()), None)
            student = room.students.get(sid)
            if student is not None and game.table.is_over():
                number = student.number if student.number <= classroom.MAX_NUMBER else None
                games.append((sid, student.name, number, game.table.session.match.to_json()))
        if not games:
            return
        rnd.summarizing = True

        def done(out):
            rnd.summarizing = False
            if self.rooms.get(room.code) is not room:
                return
            for sid, code in out["codes"].items():
                if rnd.results.get(sid) != code:
                    game = rnd.game_of(sid)
                    self.store.add_result(rnd.id, sid, code, game.table.session.state.scores()[game.seat_of(sid)])
                    rnd.results[sid] = code
            rnd.summary = out["summary"]
            self.notify(room.code, {"board", "projector", "all"} if rnd.status == "revealed" else {"board"})
            if rnd.stale:
                rnd.stale = False
                self._summarize(room, rnd)

        self.offload(partial(board_summary, rnd.class_round.code, games), done)

    # --- what a page shows ---
    def view(self, session: Session) -> dict:
        lang = session.lang
        out = {"page": None, "lang": lang, "notice": None, "ack": session.ack}
        if session.notice is not None:
            out["notice"] = {"n": session.notice["n"], "kind": session.notice["kind"],
                             "text": session.notice["text"][lang]}
        if session.role == "student":
            out.update(self._student_view(session))
        elif session.role == "teacher":
            out.update(self._board_view(session))
        elif session.role == "projector":
            out.update(self._projector_view(session))
        else:
            out.update({"page": "denied", "text": word("key_needed", lang)})
        if session.token is not None:
            out["token"] = session.token  # once: the page keeps it in the browser
            session.token = None
        return out

    def _words(self, lang: str, keys) -> dict:
        return {k: word(k, lang) for k in keys}

    def _student_view(self, session: Session) -> dict:
        lang = session.lang
        room = self.rooms.get(session.room) if session.room else None
        student = room.students.get(session.student) if room is not None and session.student is not None else None
        if student is None:
            return {"page": "join", "room": session.prefill if session.room is None else session.room,
                    "claim_needed": getattr(session, "claim_needed", False),
                    "words": self._words(lang, ("join_title", "room_code", "your_name", "name_help", "join",
                                                "seat_code", "language", "live_region"))}
        base = {"room": room.code, "name": student.name,
                "words": self._words(lang, ("language", "live_region", "poll", "your_answer", "send", "revealed",
                                            "class_answers", "mean", "count", "class_result", "best_expected"))}
        rnd = room.current
        if rnd is None:
            return {**base, "page": "lobby", "text": word("lobby", lang, room=room.code, name=student.name)}
        if rnd.kind == "poll":
            mine = rnd.answers.get(student.id)
            text, options = self._poll_texts(rnd, lang)
            out = {**base, "page": "poll", "question": text, "type": rnd.spec["type"],
                   "options": options, "mine": mine, "status": rnd.status,
                   "saved": None if mine is None else word("answer_saved", lang, answer=self._answer_text(rnd, mine, lang))}
            if rnd.status == "revealed":
                out["result"] = self._poll_result(rnd, lang)
            return out
        game = rnd.game_of(student.id)
        if game is None:
            left = next((g for g in rnd.games if any(had_seat(s, student.id) for s in g.seats)), None)
            if left is not None and rnd.kind == "table":
                return {**base, "page": "lobby", "text": word("taken_over", lang, n=left.table_no)}
            return {**base, "page": "lobby", "text": word("lobby", lang, room=room.code, name=student.name)}
        out = {**base, "page": "game", "table": game.table.state_for(game.seat_of(student.id), lang)}
        if rnd.kind == "table":
            out["title"] = word("table_no", lang, n=game.table_no)
        if rnd.status == "revealed":
            out["result"] = self._game_result(rnd, lang)
        return out

    def _poll_texts(self, rnd: Round, lang: str) -> tuple:
        """A poll's question and options in ``lang``: a lesson question's from its declaration."""
        if "question_id" in rnd.spec:
            try:
                q = question(rnd.spec["question_id"])
                return q.prompt[lang], q.labels(lang)
            except QuestionError:  # a question since withdrawn: the texts stored with the round
                pass
        return rnd.spec["question"], rnd.spec.get("options")

    def _answer_text(self, rnd: Round, value, lang: str) -> str:
        if rnd.spec["type"] == "choice":
            return self._poll_texts(rnd, lang)[1][value]
        return fraction_text(Fraction(value), lang)

    def _poll_result(self, rnd: Round, lang: str) -> dict:
        values = list(rnd.answers.values())
        out = {"count": len(values)}
        lesson = rnd.spec.get("lesson")
        if rnd.spec["type"] == "choice":
            right = set(lesson["right"]) if lesson else {rnd.spec.get("truth")}
            out["counts"] = [{"label": o, "count": values.count(i), "truth": i in right}
                             for i, o in enumerate(self._poll_texts(rnd, lang)[1])]
        else:
            numbers = [Fraction(v) for v in values]
            truth = Fraction(rnd.spec["truth"]) if "truth" in rnd.spec else None
            out["histogram"] = classroom.histogram(numbers, [truth] if truth is not None else [])
            out["mean"] = fraction_text(sum(numbers, Fraction(0)) / len(numbers), lang) if numbers else None
            out["values"] = [float(x) for x in numbers]
        if lesson:
            shown = lesson[lang]
            out["lesson"] = {k: shown.get(k) for k in ("exact_text", "values_text", "readings_text",
                                                      "simulation_text", "class_text")}
            out["lesson"].update({"exact": shown["exact"], "simulation": shown["simulation"],
                                  "distribution": shown["distribution"], "right": lesson["right"]})
            out["truth"] = shown["exact_text"]
        elif "question_id" in rnd.spec and rnd.status == "revealed":
            out["truth"] = word("computing", lang)
        if "truth" in rnd.spec:
            out["truth"] = word("truth", lang, truth=self._answer_text(rnd, rnd.spec["truth"], lang))
            out["truth_value"] = (float(Fraction(rnd.spec["truth"])) if rnd.spec["type"] == "number"
                                  else rnd.spec["truth"])
        return out

    def _game_result(self, rnd: Round, lang: str) -> dict | None:
        if rnd.kind == "game":
            s = (rnd.summary or {}).get(lang)
            if s is None:
                return None
            return {"count": s["count"], "mean": s["mean"], "best_expected": s["best_expected"],
                    "histogram": s["histogram"], "values": [r["points"] for r in s["results"]]}
        return {"tables": [self._table_row(g, lang) for g in rnd.games]}

    def _table_row(self, game: Game, lang: str) -> dict:
        table = game.table
        with table.seat(SPECTATOR, lang):
            names = table.names(lang, SPECTATOR)
        over = table.is_over()
        scores = table.session.state.scores() if over else None
        turn = table.session.whose_turn()
        return {"no": game.table_no, "id": game.id, "seats": names, "over": over, "scores": scores,
                "moves": table.human_moves(),
                "winners": [names[p] for p in table.session.state.winners()] if over else None,
                "turn": None if over or turn is None else names[turn]}

    def _board_view(self, session: Session) -> dict:
        lang = session.lang
        keys = ("board_title", "rooms", "new_room", "open_room", "online", "offline", "new_round", "round_kind",
                "kind_choice", "kind_number", "kind_game", "kind_table", "question", "options", "game", "players",
                "humans", "start", "reveal", "truth_input", "next_round", "progress", "moves", "points", "finished",
                "playing", "not_started", "computing", "histogram", "ranking", "decisions", "best", "bots_in_game",
                "tables", "over", "projector", "language", "live_region", "mean", "count", "best_expected",
                "class_answers", "stored", "lesson_question", "lesson_poll", "round_now", "no_round_now",
                "room_admin", "qr_show", "all_rooms", "advisor_allowed")
        out = {"page": "board", "words": self._words(lang, keys), "lesson_questions": lesson_questions(lang),
               "rooms": [{"code": r.code, "students": len(r.students), "current": r.code == session.room,
                          "expires": time.strftime("%d.%m. %H:%M" if lang == "de" else "%b %d, %H:%M",
                                                   time.localtime(r.expires))}
                         for r in self.rooms.values()],
               "games": [{"id": g, "name": get_game_class(g).name[lang]} for g in TABLE_GAMES],
               "room": None}
        room = self.rooms.get(session.room) if session.room else None
        if room is None:
            return out
        url = f"{self.join_url}?room={room.code}" if self.join_url else None
        students = []
        rnd = room.current
        for s in room.students.values():
            row = {"id": s.id, "name": s.name, "online": bool(self.online(room.code, s.id)), "freed": _freed(s),
                   "free": word("free_seat", lang, name=s.name), "free_short": word("free_short", lang),
                   "free_ask": word("free_seat_ask", lang, name=s.name)}
            if _freed(s) and s.token_hash:
                row["claim"] = word("seat_claim_code", lang, code=s.token_hash[len(CLAIM):])
            if rnd is not None and rnd.kind == "poll":
                row["answer"] = self._answer_text(rnd, rnd.answers[s.id], lang) if s.id in rnd.answers else None
            elif rnd is not None:
                row.update(self._student_status(rnd, s.id, lang))
            students.append(row)
        online = sum(r["online"] for r in students)
        out["room"] = {"code": room.code, "join_url": url, "qr": self.qr_svg(url) if url and self.qr_svg else None,
                       "qr_label": word("qr_label", lang, url=url or ""),
                       "join_text": word("join_link", lang, url=url or room.code),
                       "delete": word("delete_room", lang, room=room.code),
                       "students_title": word("students", lang, n=len(students)), "students": students,
                       "online_text": word("online_of", lang, n=online, of=len(students)),
                       "round": self._board_round(room, rnd, lang) if rnd is not None else None}
        return out

    def _student_status(self, rnd: Round, sid: int, lang: str) -> dict:
        """A student's place in a game round, for their cell on the board: "status" (a short text) and
        "mark" ("turn": a table waits on them, "done", "out": no seat, "bot": a bot has their seat)."""
        game = rnd.game_of(sid)
        if game is None:
            left = next((g for g in rnd.games if any(had_seat(x, sid) for x in g.seats)), None)
            if left is not None:
                return {"status": word("bot_has_seat", lang, n=left.table_no), "mark": "bot"}
            return {"status": word("no_seat", lang), "mark": "out"}
        t = game.table
        seat = game.seat_of(sid)
        if t.is_over():
            points = str(t.session.state.scores()[seat]).replace("-", "−")
            text = word("points_n", lang, points=points)
            return {"status": text if rnd.kind == "game" else f"{word('table_no', lang, n=game.table_no)} · {text}",
                    "mark": "done"}
        turn = t.session.whose_turn() == seat
        if rnd.kind == "game":
            text = word("moves_n", lang, n=t.human_moves())
        else:
            text = word("table_no", lang, n=game.table_no)
        if turn:
            text += " · " + word("to_move", lang)
        return {"status": text, "mark": "turn" if turn else None, "table": game.table_no}

    def _board_round(self, room: Room, rnd: Round, lang: str) -> dict:
        out = {"id": rnd.id, "kind": rnd.kind, "status": rnd.status,
               "status_text": word("status_revealed" if rnd.status == "revealed" else "status_open", lang)}
        if rnd.kind == "poll":
            text, options = self._poll_texts(rnd, lang)
            out.update({"question": text, "type": rnd.spec["type"], "question_id": rnd.spec.get("question_id"),
                        "options": options, "answers": word("answers", lang, n=len(rnd.answers)),
                        "result": self._poll_result(rnd, lang)})
            return out
        if rnd.kind == "game":
            cr = rnd.class_round
            # a game with hidden parts: the class code fixes every hidden card (and the seed and the
            # secret follow from it), so the server keeps it — not even the board shows it
            out.update({"game": cr.cls.name[lang],
                        "class_code": word("class_code_kept", lang) if cr.hidden
                        else word("class_code", lang, code=classroom.grouped(cr.code))})
            rows = []
            for g in rnd.games:
                sid = next(iter(g.students().values()))
                if sid not in room.students:
                    continue
                t = g.table
                rows.append({"name": room.students[sid].name, "moves": t.human_moves(), "over": t.is_over(),
                             "points": t.session.state.scores()[g.seat_of(sid)] if t.is_over() else None})
            out["progress"] = rows
            out["summary"] = (rnd.summary or {}).get(lang)
            out["finished"] = sum(r["over"] for r in rows)
            return out
        out.update({"game": get_game_class(rnd.spec["game"]).name[lang],
                    "tables": [{**self._table_row(g, lang), **self._table_watch(room, rnd, g, lang),
                                "title": word("table_no", lang, n=g.table_no),
                                "projector": word("projector_of", lang, n=g.table_no),
                                "beamer": self.projector_token(room.code, g.table_no)} for g in rnd.games]})
        playing = [t for t in out["tables"] if not t["over"]]
        out["tables_text"] = word("tables_summary", lang, n=len(out["tables"]), playing=len(playing),
                                  waiting=sum(1 for t in playing if t["waiting_offline"]))
        return out

    def _table_watch(self, room: Room, rnd: Round, game: Game, lang: str) -> dict:
        """What the board shows of a table beyond its row: whom it waits on (a student to move, and
        whether they are connected), and a "bot takes over" button for the student it waits on and
        for every student of it who is not connected."""
        t = game.table
        turn = None if t.is_over() else t.session.whose_turn()
        students = game.students()
        waiting = students.get(turn) if turn is not None else None
        out = {"waiting": None, "waiting_offline": False, "takeover": []}
        if waiting is not None:
            name = room.students[waiting].name if waiting in room.students else "?"
            offline = not self.online(room.code, waiting)
            out["waiting"] = word("waiting_offline" if offline else "waiting_on", lang, who=name)
            out["waiting_offline"] = offline
        if rnd.status == "open" and not t.is_over():
            for p, sid in students.items():
                if sid == waiting or not self.online(room.code, sid):
                    name = room.students[sid].name if sid in room.students else "?"
                    out["takeover"].append({"student": sid, "label": word("takeover", lang, name=name)})
        return out

    def _projector_view(self, session: Session) -> dict:
        lang = session.lang
        room = self.rooms.get(session.room) if session.room else None
        if room is None:
            return {"page": "projector", "text": word("room_gone", lang)}
        rnd = room.current
        game = None
        if rnd is not None and rnd.kind in ("game", "table") and session.table_no is not None:
            game = next((g for g in rnd.games if g.table_no == session.table_no), None)
        if game is not None:
            return {"page": "game", "title": word("table_no", lang, n=game.table_no),
                    "table": game.table.state_for(SPECTATOR, lang),
                    "words": self._words(lang, ("language", "live_region"))}
        what = word("no_round_now", lang) if rnd is None else (
            self._poll_texts(rnd, lang)[0] if rnd.kind == "poll" else get_game_class(rnd.spec["game"]).name[lang])
        out = {"page": "projector", "text": word("projector_wait", lang, room=room.code, round=what),
               "words": self._words(lang, ("language", "live_region", "class_answers", "mean", "count"))}
        if rnd is not None and rnd.kind == "poll" and rnd.status == "revealed":
            out["result"] = self._poll_result(rnd, lang)
        return out

    def projector_table(self, session: Session, ev: dict) -> None:
        """A projector page's own settings (language, projector size): nothing of any game changes."""
        inner, kind = _inner(ev, PROJECTOR_EVENTS)
        if kind == "lang":
            self._set_lang(session, inner.get("lang"))
        elif kind == "projector":
            room = self.rooms.get(session.room)
            rnd = room.current if room else None
            game = next((g for g in rnd.games if g.table_no == session.table_no), None) if rnd else None
            if game is not None:
                with game.table.seat(SPECTATOR):
                    game.table.projector = bool(inner.get("on"))


def _kind(raw) -> str:
    if not isinstance(raw, str) or len(raw) > MAX_EVENT_CHARS:
        return "?"
    try:
        return str(json.loads(raw).get("type"))
    except Exception:  # noqa: BLE001 - whatever arrived, the log names it short
        return "?"


def _table_count(present: int, everyone: int, size: int) -> int:
    """How many tables a round starts with: enough for the whole class at ``size`` students a table
    (those offline now take a bot's seat when they come), but none with fewer than two students
    while there are students enough (then the late ones fill the bots' seats, or a new table)."""
    if present == 0:
        return 0
    need = math.ceil(present / size)
    return max(need, min(math.ceil(everyone / size), present // 2 if size > 1 else present))


def _groups(students: list, size: int, tables: int | None = None) -> list[list]:
    """Students split into ``tables`` tables (at least as many as it takes at ``size`` a table), as
    even as possible (7 by 3: 3, 2, 2)."""
    if not students:
        return []
    tables = max(math.ceil(len(students) / size), tables or 0)
    out, start = [], 0
    for i in range(tables):
        n = len(students) // tables + (1 if i < len(students) % tables else 0)
        out.append(students[start:start + n])
        start += n
    return out


# The class boards of the process that computes summaries (a worker process of the server): each
# keeps its results and caches (the solver's table, the bots' points, the advisor's values).
_BOARDS: dict = {}


def board_summary(class_code: str, games: list) -> dict:
    """``games``: (student id, name, number, match JSON) of the finished shared games of a class
    round. Each new one becomes its result code and is verified by replaying it on the class's
    ``classroom.Board``, exactly as the serverless board does with a typed code. Returns
    ``{"codes": {student id: code}, "summary": {lang: Board.summary(lang)}}``."""
    round_ = classroom.parse_class(class_code)
    board, codes = _BOARDS.setdefault(class_code, (classroom.Board(class_code), {}))
    for sid, name, number, record in games:
        if sid in codes:
            continue
        code = classroom.result_code(round_, Match.from_json(record), number, verify=False)
        # each student played their own game here (the server saw it): equal decisions count for each
        added = board.add(code, same_decisions_once=False)["added"]
        for r in board.results:
            if r.code == code:
                r.label = name
        if added:
            codes[sid] = code
    summaries = {lang: board.summary(lang) for lang in LANGS}
    if round_.hidden:  # the class code (and its link) would give away every hidden card: kept here
        for summary in summaries.values():
            summary["class"] = {k: v for k, v in summary["class"].items() if k not in ("code", "shown", "link")}
    return {"codes": dict(codes), "summary": summaries}


HANDLERS = {
    "student": {"hello": Registry._hello, "join": Registry._join, "answer": Registry._answer,
                "table": Registry._table_event, "lang": Registry._lang},
    "teacher": {"room_new": Registry._room_new, "room_open": Registry._room_open, "room_delete": Registry._room_delete,
                "round_new": Registry._round_new, "reveal": Registry._reveal, "next": Registry._next,
                "free": Registry._free, "takeover": Registry._takeover, "lang": Registry._lang},
    "projector": {"lang": Registry._lang, "table": Registry.projector_table},
    "denied": {},
}


def lesson_reveal(question_id: str, counts: list) -> dict:
    """A lesson poll's reveal in both languages (the worker process's side): the class's counts per
    option or range, the exact value (or the labelled estimate), one seeded simulation for both."""
    q = question(question_id)
    sim = q.simulate()
    out = {lang: q.reveal(counts, lang, simulated=sim) for lang in ("de", "en")}
    out["right"] = out["de"]["right"]
    return out


def lesson_questions(lang: str) -> list:
    """The lesson questions a teacher can start a poll from: id, lesson, title, core or not."""
    return [{"id": q.id, "family": q.family, "title": q.title[lang], "core": q.core} for q in questions()]
