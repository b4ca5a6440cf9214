"""Rooms and keys: rooms, the teacher's and projector's keys and pages, students joining, their
names (one name per look: ``name_skeleton``), freed seats and their one-time codes.

``Rooms`` is a part of ``registry.Registry``: it uses the registry's ``store``, ``rooms``,
``sessions``, ``teacher_key`` and ``clock``, and its ``_seat_late`` (``seating``) for a student who
comes while a game round runs."""

from __future__ import annotations

import hmac
import hashlib
import logging
import secrets
import unicodedata

from ...core.errors import short
from .. import classroom
from .gate import Refusal, fields
from .model import CLAIM, CLAIM_CHARS, LANGS, Room, Session, Student, freed, token_hash
from .words import both

log = logging.getLogger("spieltisch.live")

ROOM_CHARS = 5
MAX_ROOMS = 100
MAX_STUDENTS = classroom.MAX_NUMBER  # a student's number rides in their result code
NAME_MAX = 24
TOKEN_MAX = 64
EXPIRE_HOURS = 12.0


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


class Rooms:
    """The registry's rooms, pages and students."""

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

    def online_counts(self, room: str) -> dict:
        """The students of ``room`` with a page open: student id -> pages (``online`` for all at once)."""
        out: dict = {}
        for s in self.sessions:
            if s.room == room and s.role == "student" and s.student is not None:
                out[s.student] = out.get(s.student, 0) + 1
        return out

    def notify(self, room: str | None, targets: set) -> None:
        for s in list(self.sessions):
            if s.room == room and s.wants(targets):
                s.push()

    # --- student events ---
    def _hello(self, session: Session, ev: dict) -> None:
        fields(ev, {"type": str, "n": int, "token": str, "room": str})
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
        fields(ev, {"type": str, "n": int, "room": str, "name": str, "claim": str})
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
            if not freed(existing):
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

    def _lang(self, session: Session, ev: dict) -> None:
        fields(ev, {"type": str, "n": int, "lang": str})
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
        fields(ev, {"type": str, "n": int})
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
        fields(ev, {"type": str, "n": int, "room": str})
        code = self._room_code(ev.get("room"))
        if code not in self.rooms:
            raise Refusal("no_such_room", room=short(ev.get("room"), 20, str))
        session.room = code

    def _room_delete(self, session: Session, ev: dict) -> None:
        fields(ev, {"type": str, "n": int, "room": str})
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
        fields(ev, {"type": str, "n": int, "student": int})
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
