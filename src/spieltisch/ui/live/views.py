"""What a page shows: the student's page (join, lobby, poll, game), the teacher's board (the class at
a glance, the round's controls, each table summarised) and the projector. Each view is built for its
page alone; a seat's game is ``LiveTable.state_for(seat)``, drawn from that seat's observation.

``Views`` is a part of ``registry.Registry``: it reads the registry's ``rooms``, ``online_counts``,
``join_url``, ``qr_svg`` and ``projector_token``, and changes nothing."""

from __future__ import annotations

import time
from fractions import Fraction

from ...core.game import SPECTATOR
from ...core.questions import QuestionError
from ...core.registry import get_game_class, question
from .. import classroom
from .model import CLAIM, Game, Room, Round, Session, freed, had_seat
from .rounds import TABLE_GAMES, lesson_questions
from .words import word


def fraction_text(f: Fraction, lang: str) -> str:
    if f.denominator == 1:
        text = str(f.numerator)
    elif 10 ** 6 % f.denominator == 0 or f.denominator in (2, 4, 5, 8, 10, 20, 25, 50, 100):
        text = f"{float(f):g}"
        text = text.replace(".", ",") if lang == "de" else text
    else:
        text = f"{f.numerator}/{f.denominator}"
    return text.replace("-", "−")


class Views:
    """The registry's views of its pages."""

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
            out["truth"] = word("computing_exact", lang)
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
        # (one pass over the pages and the games, not one per student: a board of thirty in a school's
        # ten rooms is redrawn at every move of its room)
        online = self.online_counts(room.code)
        games = rnd.games_by_student() if rnd is not None else {}
        free_short = word("free_short", lang)
        for s in room.students.values():
            row = {"id": s.id, "name": s.name, "online": s.id in online, "freed": freed(s),
                   "free": word("free_seat", lang, name=s.name), "free_short": free_short,
                   "free_ask": word("free_seat_ask", lang, name=s.name)}
            if freed(s) and s.token_hash:
                row["claim"] = word("seat_claim_code", lang, code=s.token_hash[len(CLAIM):])
            if rnd is not None and rnd.kind == "poll":
                row["answer"] = self._answer_text(rnd, rnd.answers[s.id], lang) if s.id in rnd.answers else None
            elif rnd is not None:
                row.update(self._student_status(rnd, s.id, lang, games.get(s.id)))
            students.append(row)
        connected = sum(r["online"] for r in students)
        out["room"] = {"code": room.code, "join_url": url, "qr": self.qr_svg(url) if url and self.qr_svg else None,
                       "qr_label": word("qr_label", lang, url=url or ""),
                       "join_text": word("join_link", lang, url=url or room.code),
                       "delete": word("delete_room", lang, room=room.code),
                       "students_title": word("students", lang, n=len(students)), "students": students,
                       "online_text": word("online_of", lang, n=connected, of=len(students)),
                       "round": self._board_round(room, rnd, lang, online) if rnd is not None else None}
        return out

    def _student_status(self, rnd: Round, sid: int, lang: str, game: Game | None) -> dict:
        """A student's place in a game round, for their cell on the board: "status" (a short text) and
        "mark" ("turn": a table waits on them, "done", "out": no seat, "bot": a bot has their seat).
        ``game``: the student's game in the round (``rnd.game_of(sid)``)."""
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

    def _board_round(self, room: Room, rnd: Round, lang: str, online: dict) -> dict:
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
                    "tables": [{**self._table_row(g, lang), **self._table_watch(room, rnd, g, lang, online),
                                "title": word("table_no", lang, n=g.table_no),
                                "projector": word("projector_of", lang, n=g.table_no),
                                "beamer": self.projector_token(room.code, g.table_no)} for g in rnd.games]})
        playing = [t for t in out["tables"] if not t["over"]]
        out["tables_text"] = word("tables_summary", lang, n=len(out["tables"]), playing=len(playing),
                                  waiting=sum(1 for t in playing if t["waiting_offline"]))
        return out

    def _table_watch(self, room: Room, rnd: Round, game: Game, lang: str, online: dict) -> dict:
        """What the board shows of a table beyond its row: whom it waits on (a student to move, and
        whether they are connected: ``online``, ``online_counts``), and a "bot takes over" button for
        the student it waits on and for every student of it who is not connected."""
        t = game.table
        turn = None if t.is_over() else t.session.whose_turn()
        students = game.students()
        waiting = students.get(turn) if turn is not None else None
        out = {"waiting": None, "waiting_offline": False, "takeover": []}
        if waiting is not None:
            name = room.students[waiting].name if waiting in room.students else "?"
            offline = waiting not in online
            out["waiting"] = word("waiting_offline" if offline else "waiting_on", lang, who=name)
            out["waiting_offline"] = offline
        if rnd.status == "open" and not t.is_over():
            for p, sid in students.items():
                if sid == waiting or sid not in online:
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
