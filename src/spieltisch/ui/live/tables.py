"""One game of the live class, shared by its seats: ``LiveTable`` draws it for one seat at a time.

The design choice: **one ``Table`` per game, drawn per seat**, not one ``Table`` per seat over a
shared session. A game has one session, one log and one step counter, and ``Table._record``
already writes every log line for each human seat and the spectator as that viewer could see it
(docs/hidden-information.md); one table per seat would have to share or copy all of that. What does
belong to a seat is small: its language, its half-made selection (``ui``), its last refusal, its
projector switch. ``LiveTable.seat(s)`` swaps those in, fixes the viewer to ``s`` (the plain
``Table`` shows the screen of whoever is to move: right for a hot seat, a leak on a server), turns
the hot seat's cover off (every seat has its own device) and swaps them out again. Every screen is
``Table.state()`` drawn from that seat's observation, the same as on a Play page.

A seat acts only at its own turn (``act``), takes back only its own last move (``undo``), and every
move is reported to ``on_move`` (the store) before anyone is shown it. The server's copy of the
game never leaves it: the seed, the secret and the class code are taken out of what a seat receives
(a student who knew the seed could compute the throws and cards to come).
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import partial

from ...core.errors import IllegalActionError
from ...core.game import SPECTATOR, record_key
from ...core.registry import make_bot
from ..session import reveal_job
from ..table import HUMAN, MAX_STEPS, Table
from .words import word

# what each seat keeps of its own; everything else of the table is the game's, shared (the advisor's
# switch too: a round that allows the advisor leaves it to each student, off until they turn it on)
SEAT_FIELDS = ("lang", "ui", "message", "projector", "spectator", "exact", "advisor_on")


class LiveTable(Table):
    def __init__(self, names: dict | None = None, note: dict | None = None, on_move=None, on_undo=None,
                 check=None, **settings):
        """``names``: seat -> a student's display name; ``note``: {de, en}, the line that replaces
        the class round's note; ``on_move(seat, action)`` / ``on_undo(n)``: the store, called
        before the change is shown; ``settings``: ``Table``'s (a class round's, always with a
        ``class_round`` so that the game cannot be changed from a seat)."""
        self.nicknames = dict(names or {})
        self.note = note
        self._seat = SPECTATOR
        self._own: dict = {}
        self.on_move = None  # not during the set-up
        self.on_undo = None
        self.fixed = 0  # the actions before this one cannot be taken back (a seat changed hands there)
        super().__init__(**settings)
        self.on_move = on_move
        self.on_undo = on_undo
        # ``check((index, entry))``: the host runs Undo's check of a move elsewhere (``check_hook``);
        # None: the check runs here, when a screen asks
        self.check = check

    # --- whose screen ---
    def viewer(self):
        # a seat's own "Spectator" switch hides its hand, as on a Play page
        return SPECTATOR if self.spectator and self.hidden else self._seat

    def covered(self):
        return None  # every seat has its own device: nothing to pass on, nothing to cover

    def names(self, lang: str, viewer=SPECTATOR) -> list[str]:
        out = super().names(lang, viewer)
        for seat, name in self.nicknames.items():
            if seat != viewer:
                out[seat] = name
        return out

    @contextmanager
    def seat(self, seat, lang: str | None = None):
        """Everything inside happens as ``seat`` (a seat number or ``SPECTATOR``): its viewer, its
        language, its selection and message."""
        key = "s" if seat is SPECTATOR else seat
        own = self._own.setdefault(key, {"lang": self.lang, "ui": {}, "message": None, "projector": False,
                                         "spectator": seat is SPECTATOR, "exact": False, "advisor_on": False,
                                         "step": self.step_id})
        if own["step"] != self.step_id:  # a refusal is about the position it was made in
            own["message"], own["step"] = None, self.step_id
        saved = (self._seat, *(getattr(self, f) for f in SEAT_FIELDS))
        self._seat = seat
        for f in SEAT_FIELDS:
            setattr(self, f, own[f])
        if lang is not None:
            self.lang = lang
        try:
            yield self
        finally:
            for f in SEAT_FIELDS:
                own[f] = getattr(self, f)
            own["step"] = self.step_id
            self._seat = saved[0]
            for f, v in zip(SEAT_FIELDS, saved[1:]):
                setattr(self, f, v)

    def state_for(self, seat, lang: str) -> dict:
        """``Table.state()`` as ``seat`` sees it, with the server's secrets taken out."""
        with self.seat(seat, lang):
            state = self.state()
            state["seed"] = ""
            state["secret"] = None
            state["open_game"] = None
            state["review"] = None  # a review can take minutes: the live server does not offer it
            if self.note is not None:
                allowed = self.advisor_allowed()
                text = self.note[lang] + (" " + word("advisor_allowed_note", lang) if allowed else "")
                state["class_round"] = {"code": "", "advisor": allowed, "text": text}
            # (Undo is offered for the seat's own last move only: ``_can_undo``) the throw to the seat
            # whose throw it is
            if self.session.chance_player() != seat:
                state["buttons"] = [b for b in state["buttons"] if b["token"] != "throw"]
        return state

    # --- moves ---
    def _dispatch(self, kind, ev: dict) -> None:
        if kind in ("step", "finish") and not self.pending():
            return  # a human's throw waits for that human's click; nothing else is pending
        if kind == "act" and str(ev.get("token", "")) == "throw" and self.session.chance_player() != self._seat:
            raise IllegalActionError("turn order", "it is not your throw", "du bist gerade nicht am Wurf", "Reihenfolge")
        super()._dispatch(kind, ev)

    def _can_undo(self) -> bool:
        # only the seat that made the last move can take it back: no other seat's screen asks
        if self._seat is SPECTATOR or self._last_human() != self._seat or self._class_undo_refusal() is not None:
            return False
        if self.check is not None:
            pending = self.session.pending_reveal()
            if pending is not None:
                self.check(pending)  # Undo appears when the answer is back (if it allows it)
                return False
        return self.session.undo_refusal() is None

    def _last_human(self):
        movers = self.session.match.movers
        # a move made before the seat changed hands is not the new occupant's to take back
        return movers[-1] if movers and movers[-1] in self.humans and len(movers) > self.fixed else None

    # --- a seat changes hands mid-game ---
    def set_seat(self, seat: int, who: str, name: str | None = None) -> None:
        """``seat`` goes on with ``who``: a bot's name (a bot takes over a student's seat: the game goes
        on where it stands) or ``HUMAN`` with the student's ``name`` (a late student takes a bot's
        seat and its hand). Nothing before this point can be taken back, and the new occupant reads
        the earlier log lines as the spectator did: the lines written for the seat's last occupant
        may tell what only they saw."""
        self.seats[seat] = who
        if who == HUMAN:
            self.session.bots.pop(seat, None)
            self.session.bot_names.pop(seat, None)
            self.nicknames[seat] = name or ""
        else:
            self.session.bots[seat] = make_bot(self.game, who)
            self.session.bot_names[seat] = who
            self.nicknames.pop(seat, None)
        self.humans = tuple(p for p, s in enumerate(self.seats) if s == HUMAN)
        key = str(seat)
        for entry in self.log:  # (a game without hidden parts keeps no spectator's lines: nothing is hidden)
            if "s" in entry["texts"]:
                entry["texts"][key] = entry["texts"]["s"]
        self._own.pop(seat, None)  # the last occupant's selection, message and language
        self.fixed = len(self.session.match.actions)
        self.step_id += 1

    def act(self, action) -> None:
        p = self.session.current_player()
        if p in self.humans and p != self._seat:
            raise IllegalActionError("turn order", "it is not your turn", "du bist gerade nicht am Zug", "Reihenfolge")
        super().act(action)
        if self.on_move is not None:
            self.on_move(p, action)

    def undo(self) -> None:
        if self._last_human() != self._seat or self._seat is SPECTATOR:
            raise IllegalActionError("undo", "only your own last move can be taken back",
                                     "nur dein eigener letzter Zug kann zurückgenommen werden", "Zurücknehmen")
        human_moves = self.human_moves()
        super().undo()
        if self.on_undo is not None:
            self.on_undo(human_moves - 1)

    def human_moves(self) -> int:
        return sum(1 for p in self.session.match.movers if p in self.humans)

    # --- a restart ---
    def replay(self, moves, changes=()) -> None:
        """Play the stored ``moves`` ((seat, action record), in order) again: bots and chance in
        between run as they did (they follow from the seed, the secret and these moves), so the
        game is the one that was played. ``changes``: (actions made, seat, who, name) — a seat that
        changed hands there (``set_seat``), applied at the same point, so the bots draw from their
        generator as they did. A stored move that is not legal where it comes (a store that does
        not belong to this game) raises, naming it."""
        on_move, self.on_move = self.on_move, None
        changes = sorted(changes, key=lambda c: c[0])

        def advance(last=False):
            for _ in range(MAX_STEPS):
                while changes and changes[0][0] <= len(self.session.match.actions):
                    at, seat, who, name = changes.pop(0)
                    if at < len(self.session.match.actions):
                        raise ValueError(f"seat {seat} changed hands after {at} actions, but the replay passed it")
                    self.set_seat(seat, who, name)
                # after the last stored move only up to the last change: the bots go on at their pace
                if self.session.waiting_for_human() or (last and not changes):
                    return
                if changes:  # a change ahead: one action at a time, so as not to step past it
                    if not self.pending() and not self.human_throw_pending():
                        return
                    self._step_once()
                elif not self.step():
                    return

        try:
            for i, (seat, record) in enumerate(moves):
                advance()
                if self.session.current_player() != seat:
                    raise ValueError(f"stored move {i} is seat {seat}'s, but seat {self.session.current_player()} "
                                     "is to move there")
                key = record_key(record)
                action = next((a for a in self.session.legal_actions() if record_key(a.to_json()) == key), None)
                if action is None:
                    raise ValueError(f"stored move {i} ({record!r:.60}) is not legal in this game")
                with self.seat(seat):
                    self.act(action)
            if changes:
                advance(last=True)
            if changes:
                raise ValueError(f"seat {changes[0][1]} changed hands after {changes[0][0]} actions, "
                                 "which the replay did not reach")
        finally:
            self.on_move = on_move

    def advisor_allowed(self) -> bool:
        """Whether the round lets a seat turn the advisor on (the teacher's "Berater erlaubt")."""
        return bool(self.class_round and self.class_round.get("advisor"))

    def is_human(self, seat) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat] == HUMAN


def advice_hook(registry, room, game):
    """A live table's ``Table.advise``: the advice goes to the registry's ``advise(job, done)`` (the
    server's advice worker, off the event loop), and when it is back and still for the position
    the table is in, the mover's page redraws. At most one job per table waits: a table that moved
    on cancels its job if it has not started. A registry without ``advise`` (the tests' stand-in
    registries) computes the advice at once, as a Play page does."""
    if getattr(registry, "advise", None) is None:
        return None
    waiting = [None]

    def advise(job, deliver):
        if waiting[0] is not None:  # (a position the table has left: a running job just finishes unread)
            waiting[0].cancel()

        def done(result):
            if not deliver(result) or registry.rooms.get(room.code) is not room:
                return  # for a position the game has left, or a room deleted meanwhile
            student = game.students().get(game.table.session.current_player())
            if student is not None:
                registry.notify(room.code, {f"student:{student}"})
        waiting[0] = registry.advise(job, done)  # a future (or None: nothing to cancel)
    return advise


def check_hook(registry, room, game):
    """A live table's ``check``: whether a student's move showed anyone something hidden (the check
    Undo waits for, ``reveals_hidden``: 32 redrawn positions per human seat, tens of milliseconds)
    runs in the server's worker, not on the loop that serves every page; when the answer is back and
    the move is still the last, the mover's page redraws (with Undo where the answer allows it). A
    failed check runs here once instead. A registry without ``advise`` (the tests' stand-in
    registries) has no worker: the check runs when a screen asks, as on a Play page."""
    if getattr(registry, "advise", None) is None:
        return None
    started = [None]

    def check(pending):
        i, entry = pending
        if started[0] is entry:
            return  # asked already: the answer is on its way
        started[0] = entry
        session = game.table.session
        job = partial(reveal_job, *entry, session.match.seed ^ i)

        def done(answer):
            if registry.rooms.get(room.code) is not room:
                return
            if answer is None:  # (the worker failed: logged there) the answer is found here
                answer = job()
            if session.settle_reveal(i, entry, bool(answer)):
                student = game.students().get(session.match.movers[i])
                if student is not None:
                    registry.notify(room.code, {f"student:{student}"})
        registry.advise(job, done)
    return check
