"""Rounds and polls: a new round (a poll, a lesson poll, a shared game, tables), answers, the
reveal, the next round; a shared game's result codes and the board's summary, computed off the
event loop (``board_summary``, ``lesson_reveal`` run in the server's worker process).

``Rounds`` is a part of ``registry.Registry``: it uses the registry's ``store``, ``rooms``,
``offload``, ``online`` and ``notify``, and ``seating``'s ``_new_game``/``_new_table``."""

from __future__ import annotations

import math
import secrets
from functools import partial

from ...core.errors import SpieltischError, short
from ...core.match import Match
from ...core.questions import QuestionError
from ...core.registry import get_game_class, question, questions
from ...core.rng import MAX_SEED
from .. import classroom
from ..table import resolve_game
from .gate import NUMBER_MAX_CHARS, Refusal, fields, parse_number
from .model import LANGS, Round, Room, Session

MAX_ROUNDS = 300  # per room
QUESTION_MAX = 200
OPTION_MAX = 60
MAX_OPTIONS = 8
TABLE_GAMES = ("wuerfel-joker-1", "wuerfel-joker-2", "tuefteln", "schraube-locker", "skip-bo-masters",
               "scratch-island")


class Rounds:
    """The registry's rounds: polls and games."""

    def _answer(self, session: Session, ev: dict) -> None:
        fields(ev, {"type": str, "n": int, "value": (str, int, float)})
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

    def _round_new(self, session: Session, ev: dict) -> None:
        fields(ev, {"type": str, "n": int, "spec": dict})
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
        fields(spec, {"kind": str, "question": str, "type": str, "options": list})
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
        fields(spec, {"kind": str, "question_id": str})
        try:
            q = question(spec.get("question_id"))
        except QuestionError as e:
            raise Refusal("bad_round", why=str(e)[:200]) from None
        return {"kind": "poll", "type": "choice", "question_id": q.id, "question": q.prompt["de"],
                "options": q.labels("de")}

    def _game_spec(self, spec: dict):
        fields(spec, {"kind": str, "game": str, "players": int})
        game_id = resolve_game(spec.get("game"))
        if game_id not in classroom.class_games():
            raise Refusal("bad_round", why=f"{game_id} has no class round")
        # a seed no student sees and no one can search: the game's throws and cards stay unknown
        round_ = classroom.new_round(game_id, spec.get("players"), seed=secrets.randbelow(MAX_SEED + 1))
        if len(round_.humans) != 1:
            raise Refusal("bad_round", why="a shared game has one student seat")
        return {"kind": "game", "game": game_id, "class": round_.code}, round_

    def _table_spec(self, spec: dict) -> dict:
        fields(spec, {"kind": str, "game": str, "players": int, "humans": int, "advisor": bool})
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
        fields(ev, {"type": str, "n": int, "truth": (str, int, float)})
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
        fields(ev, {"type": str, "n": int})
        room = self._teacher_room(session)
        if room.current is None:
            raise Refusal("no_round")
        self._close(room, room.current)
        self.notify(room.code, {"all"})

    def _close(self, room: Room, rnd: Round) -> None:
        self.store.set_round(rnd.id, "closed")
        rnd.status = "closed"

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
