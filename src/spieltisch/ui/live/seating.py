"""Tables: the games of a round, seating (late joiners into a bot's seat, a bot taking a seat over),
the bots' pacing, and the events of a seat or a projector at a table.

``Seating`` is a part of ``registry.Registry``: it uses the registry's ``store``, ``rooms``,
``schedule``, ``notify`` and ``_student``, and ``rounds``' ``_summarize``."""

from __future__ import annotations

import secrets

from ...core.errors import short
from ...core.game import SPECTATOR
from ...core.registry import get_game_class
from ...core.rng import MAX_SEED
from .. import classroom
from ..table import HUMAN, load_view
from .gate import PROJECTOR_EVENTS, SEAT_EVENTS, Refusal, fields, inner_event
from .model import Game, Room, Round, Session, Student, first_seat, had_seat
from .tables import LiveTable, advice_hook, check_hook
from .words import both


class Seating:
    """The registry's tables."""

    def _table_event(self, session: Session, ev: dict) -> None:
        room, student = self._student(session)
        inner, kind = inner_event(ev, SEAT_EVENTS)
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
        fields(ev, {"type": str, "n": int, "student": int})
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
                               check=check_hook(self, room, game), advise=advice_hook(self, room, game), **settings)
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

    def projector_table(self, session: Session, ev: dict) -> None:
        """A projector page's own settings (language, projector size): nothing of any game changes."""
        inner, kind = inner_event(ev, PROJECTOR_EVENTS)
        if kind == "lang":
            self._set_lang(session, inner.get("lang"))
        elif kind == "projector":
            room = self.rooms.get(session.room)
            rnd = room.current if room else None
            game = next((g for g in rnd.games if g.table_no == session.table_no), None) if rnd else None
            if game is not None:
                with game.table.seat(SPECTATOR):
                    game.table.projector = bool(inner.get("on"))
