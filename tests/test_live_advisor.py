"""The advisor at the live class's tables (issue 33 item 4): allowed per table round, computed off
the event loop.

The first tests drive ``Table`` and the registry directly (fast): the synchronous path a Play page and
a notebook keep, the asynchronous one a host with a loop uses (``Table.advise``: the job, the
"Berater rechnet …" note, option tokens refused while it computes, a late result dropped), and the
round's "Berater erlaubt". The last starts ``spieltisch class serve`` and times another page's events
while five students use the advisor at Skip-Bo Masters and Tüfteln tables, with a negative control: the
same server with the advice computed inline, on the loop, as before.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import random
import time

import pytest

from harness.livewire import next_click
from spieltisch.core.errors import SpieltischError
from spieltisch.ui.live.words import word as live_word
from spieltisch.core.rng import Rng
from spieltisch.ui.session import reveal_job, reveals_hidden
from spieltisch.ui.table import Table, compute_advice, word


class Jobs:
    """A host's ``advise`` that keeps the jobs until the test runs them (as the server's worker
    would, later): ``run()`` runs each job (pickled there and back, as a process pool does) and
    delivers its result."""

    def __init__(self):
        self.todo = []
        self.ran = 0
        self.cancelled = 0

    def __call__(self, job, deliver):
        entry = (job, deliver)
        self.todo.append(entry)
        return Ticket(self, entry)

    def run(self, results=None):
        kept = []
        while self.todo:
            job, deliver = self.todo.pop(0)
            result = pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(job))()))
            self.ran += 1
            kept.append(deliver(result if results is None else results))
        return kept


class Ticket:
    """A job's future, as far as a host uses it: a job not yet run can be cancelled."""

    def __init__(self, jobs, entry):
        self.jobs, self.entry = jobs, entry

    def cancel(self) -> bool:
        if self.entry in self.jobs.todo:
            self.jobs.todo.remove(self.entry)
            self.jobs.cancelled += 1
            return True
        return False


def to_decision(table: Table) -> None:
    """Bots and throws on until the table's human has a decision."""
    for _ in range(200):
        table.finish()
        if table.context().legal:
            return
        if table.human_throw_pending():
            table.click("throw")
    raise AssertionError("no decision came")


def options(advice) -> list:
    return [[o.action.to_json(), str(o.value), o.best] for a in advice for o in a.options]


@pytest.mark.parametrize("game", ["skip-bo-masters", "tuefteln"])
def test_the_asynchronous_advice_is_the_synchronous_one_and_shows_thinking_until_it_is_back(game):
    jobs = Jobs()
    sync = Table(game, players=2, seats=["human", "random"], seed=7, advisor=True)
    table = Table(game, players=2, seats=["human", "random"], seed=7, advisor=True, advise=jobs)
    to_decision(sync)
    to_decision(table)
    expected = sync.advice_now()  # computed at once: no host hook
    assert expected is not None and sync._advice_key is not None
    # asked of the host, not computed: the screen says the advisor is thinking, nothing is starred yet
    state = table.state()
    assert table.advice_pending() and len(jobs.todo) == 1
    assert state["advice"]["rows"] == [] and state["advice"]["note"] == "Berater rechnet …"
    assert state["advice"]["pending"] and not any(b["best"] for b in state["buttons"])
    table.state()
    table.state()
    assert len(jobs.todo) == 1  # one job per position, however often the screen is drawn
    # the job holds the mover's observation, not the state: nothing of another seat goes out
    job = jobs.todo[0][0]
    assert job.func is compute_advice and job.args[3] == table.session.observation(0)
    assert assert_no_state(job)
    # an option token while it computes is refused, and nothing is computed for it
    before = len(table.session.match.actions)
    table.handle({"type": "act", "token": "opt0"})
    assert table.message["kind"] == "refused" and "rechnet noch" in table.message["text"]["de"]
    assert "still thinking" in table.message["text"]["en"] and len(table.session.match.actions) == before
    assert jobs.run() == [True]
    assert options(table.advice_now()) == options(expected)
    state = table.state()
    assert state["advice"]["rows"] and not state["advice"].get("pending")
    assert [r["label"] for r in state["advice"]["rows"]] == [r["label"] for r in sync.state()["advice"]["rows"]]
    table.handle({"type": "act", "token": "opt0"})
    assert len(table.session.match.actions) == before + 1 and table.message is None


def assert_no_state(job) -> bool:
    """The job's arguments are plain data (ids, counts, options, the observation, settings): no game
    state, no session, no table rides along."""
    from spieltisch.core.game import State

    def plain(x):
        if isinstance(x, State):
            return False
        if isinstance(x, dict):
            return all(plain(k) and plain(v) for k, v in x.items())
        if isinstance(x, (list, tuple, set, frozenset)):
            return all(plain(v) for v in x)
        return isinstance(x, (str, int, float, bool, type(None)))
    return all(plain(a) for a in job.args) and not job.keywords


def test_a_late_advice_for_a_position_the_table_left_is_dropped_and_a_failed_one_is_said():
    jobs = Jobs()
    table = Table("tuefteln", players=2, seats=["human", "random"], seed=3, advisor=True, advise=jobs)
    to_decision(table)
    table.state()
    assert len(jobs.todo) == 1
    stale = jobs.todo.pop()
    # the player moves on the board without the advisor (the sync table's first option is a legal move)
    table.act(table.session.legal_actions()[0])
    to_decision(table)
    job, deliver = stale
    assert deliver(job()) is False  # for the position before the move: not shown
    assert table.advice_now() is None and table.advice_pending()  # the new position's job was asked
    assert len(jobs.todo) == 1
    jobs.todo.clear()
    # a job that failed (the worker raised): the table says so and asks no job again for that position
    table._advice_wait = None
    table.state()
    (job, deliver), = jobs.todo
    jobs.todo.clear()
    assert deliver(None) is True
    state = table.state()
    assert state["advice"]["note"] == word("advice_failed", "de") and jobs.todo == []
    table.handle({"type": "act", "token": "opt0"})
    assert table.message["kind"] == "refused"


def test_after_an_undo_and_another_move_the_advice_for_the_first_move_is_dropped():
    """Undo and then another move: as many actions as after the first move, another position. The
    advice asked after the first move must not be shown after the second (the table's step counter
    tells them apart)."""
    jobs = Jobs()
    table = Table("skip-bo-masters", players=2, seats=["human", "random"], seed=5, advisor=True, advise=jobs)
    for _ in range(40):  # a decision with two moves after each of which the same player goes on
        to_decision(table)
        pair, moved = [], False
        for action in table.session.legal_actions():
            table.act(action)
            if table.session.undo_refusal() is not None:  # something was revealed: go on from here
                moved = True
                break
            keeps_turn = bool(table.context().legal)
            table.undo()
            if keeps_turn:
                pair.append(action)
            if len(pair) == 2:
                break
        if len(pair) == 2:
            break
        if not moved:
            table.act(table.session.legal_actions()[-1])
    assert len(pair) == 2, "no position with two moves that keep the turn"
    first, second = pair
    table.act(first)
    table.state()
    (job, deliver), = jobs.todo
    jobs.todo.clear()
    after_first = len(table.session.match.actions)
    table.undo()
    table.act(second)
    assert len(table.session.match.actions) == after_first
    assert deliver(job()) is False and table.advice_now() is None and table.advice_pending()


def test_the_synchronous_path_is_kept_for_hosts_without_a_loop():
    """A Play page's worker and a notebook pass no ``advise``: the advice is there at once, and an
    option token plays (the tests of every game's view and the Play page rely on this path)."""
    table = Table("skip-bo-masters", players=2, seats=["human", "random"], seed=2, advisor=True)
    to_decision(table)
    state = table.state()
    assert state["advice"]["rows"] and not table.advice_pending() and table.advise is None
    before = len(table.session.match.actions)
    table.handle({"type": "act", "token": "opt0"})
    assert len(table.session.match.actions) == before + 1


def test_compute_advice_refuses_what_the_game_refuses():
    with pytest.raises(SpieltischError):
        compute_advice("tuefteln", 2, {}, {"nonsense": 1}, [{}])


# --- the registry: the round allows the advisor, each seat has its own switch ------------------------
from test_live import Class  # noqa: E402  (the registry's test harness)


def advisor_class(tmp_path, allowed: bool, game="skip-bo-masters"):
    c = Class(tmp_path)
    jobs = Jobs()
    # (the same worker checks, for Undo, whether a move showed something hidden: those jobs run at
    # once here, so that the advisor's jobs are the ones counted)
    c.registry.advise = lambda job, done: done(job()) if getattr(job, "func", None) is reveal_job else jobs(job, done)
    code = c.room()
    ana, ben = c.join(code, "Ana", "Ben")
    c.send(c.teacher, {"type": "round_new", "spec": {"kind": "table", "game": game, "players": 2, "humans": 2,
                                                      "advisor": allowed}})
    rnd = c.registry.rooms[code].current
    return c, jobs, rnd, {rnd.games[0].seat_of(s.student): s for s in (ana, ben)}


def test_a_table_round_with_the_advisor_allowed_gives_each_seat_its_own_switch_and_the_advice_off_the_loop(tmp_path):
    c, jobs, rnd, by_seat = advisor_class(tmp_path, allowed=True)
    assert rnd.spec["advisor"] is True
    table = rnd.games[0].table
    c.loop.run()
    mover = table.session.whose_turn()
    me, other = by_seat[mover], by_seat[1 - mover]
    view = c.registry.view(me)["table"]
    assert view["class_round"]["advisor"] is True and not view["advisor_on"]
    assert live_word("advisor_allowed_note", "de") in view["class_round"]["text"]
    assert jobs.todo == []  # nobody asked
    view = c.send(me, {"type": "table", "event": {"type": "advisor", "on": True}})["table"]
    assert view["advisor_on"] and view["advice"]["note"] == "Berater rechnet …" and len(jobs.todo) == 1
    # the other seat's switch is its own (still off), and its screen asks nothing
    assert not c.registry.view(other)["table"]["advisor_on"] and len(jobs.todo) == 1
    refused = c.send(me, {"type": "table", "event": {"type": "act", "token": "opt0"}})["table"]
    assert refused["message"]["kind"] == "refused" and table.human_moves() == 0
    pushed = me.pushed, other.pushed
    assert jobs.run() == [None]  # (the hook's done: delivered, then the mover's page redraws)
    assert me.pushed == pushed[0] + 1 and other.pushed == pushed[1]
    view = c.registry.view(me)["table"]
    assert view["advice"]["rows"]
    c.send(me, {"type": "table", "event": {"type": "act", "token": "opt0"}})
    assert table.human_moves() == 1
    # a table that moves on before its job ran cancels that job: the worker gets no stale work
    for _ in range(300):
        c.loop.run()
        student = by_seat.get(table.session.whose_turn())
        click = next_click(c.registry.view(student)["table"]) if student is not None else None
        if click is None:
            continue
        c.send(student, {"type": "table", "event": click})  # a move on the board; the page's next screen asks
        if jobs.cancelled:
            break
    assert jobs.cancelled == 1 and len(jobs.todo) == 1 and table.advice_pending() is False
    with table.seat(mover):
        assert table.advice_pending()  # the job left is the one for the position Ana has now


def test_without_the_advisor_allowed_a_seat_cannot_switch_it_on_and_no_job_is_asked(tmp_path):
    c, jobs, rnd, by_seat = advisor_class(tmp_path, allowed=False)
    assert rnd.spec["advisor"] is False
    table = rnd.games[0].table
    c.loop.run()
    me = by_seat[table.session.whose_turn()]
    view = c.send(me, {"type": "table", "event": {"type": "advisor", "on": True}})["table"]
    assert not view["advisor_on"] and "Berater ausgeschaltet" in view["message"]["text"]
    assert view["class_round"]["advisor"] is False and view["advice"] is None
    view = c.send(me, {"type": "table", "event": {"type": "act", "token": "opt0"}})["table"]
    assert view["message"]["kind"] == "refused" and jobs.todo == [] and table.human_moves() == 0
    # the round form's field is a yes or no
    bad = c.send(c.teacher, {"type": "round_new", "spec": {"kind": "table", "game": "tuefteln", "advisor": "ja"}})
    assert "„advisor“ hat die falsche Form" in bad["notice"]["text"]


# --- the real server: another page's latency while five students use the advisor --------------------
# The same server with the advice computed on the event loop, as before issue 33: the negative control.
INLINE = """
import sys
from spieltisch.ui.live import registry
init = registry.Registry.__init__
def inline(self, *a, **kw):
    kw["advise"] = None
    init(self, *a, **kw)
registry.Registry.__init__ = inline
from spieltisch.cli import main
sys.exit(main(["class", "serve", "--port", sys.argv[1], "--data", sys.argv[2]]))
"""
P95_MS = 250
PACE_S = 0.15  # the other page's events: one every 150 ms (its rate limit is 10 a second)
GRACE_S = 3.0


def p95(values) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]


def refused(view) -> str | None:
    message = (view.get("table") or {}).get("message") or {}
    return message.get("text") if message.get("kind") == "refused" else None


async def use_the_advisor(page, stop, stats, rng) -> None:
    """A student at a table who switches the advisor on, waits for its advice and plays one of its
    options (mostly the best), switches it off and on again now and then, and once plays an option
    token while the advice is still being computed."""
    table_event = lambda ev: {"type": "table", "event": ev}  # noqa: E731
    tried_early, seen = False, set()
    while not stop.is_set():
        t = page.view.get("table") or {}
        if t.get("banner"):
            return
        adv = t.get("advice") or {}
        if t.get("decide"):
            if not t.get("advisor_on"):
                await page.act(table_event({"type": "advisor", "on": True}))
                stats["switched_on"] += 1
                continue
            if adv.get("rows"):
                if ("advised", t["step"]) not in seen:
                    seen.add(("advised", t["step"]))
                    stats["advised"] += 1
                if rng.random() < 0.15:
                    await page.act(table_event({"type": "advisor", "on": False}))
                    continue
                rows = adv["rows"]
                token = rows[0]["token"] if rng.random() < 0.7 else rng.choice(rows)["token"]
                view = await page.act(table_event({"type": "act", "token": token}))
                stats["refused" if refused(view) else "played"] += 1
                continue
            if adv.get("pending"):
                if ("pending", t["step"]) not in seen:
                    seen.add(("pending", t["step"]))
                    stats["pending"] += 1
                if not tried_early:
                    tried_early = True
                    view = await page.act(table_event({"type": "act", "token": "opt0"}))
                    why = refused(view) or ""
                    stats["refused_while_thinking"] += "rechnet noch" in why
                    continue
        elif t.get("buttons") and t["buttons"][0]["token"] == "throw":
            await page.act(table_event({"type": "act", "token": "throw"}))
            continue
        try:
            await page.wait_views(1, timeout=0.5)
        except TimeoutError:
            pass


async def busy_class(server, events: int, windows: int = 1):
    """Room A: three students, each at a Skip-Bo Masters table with a bot; room B: two students at
    one Tüfteln table; both rounds with the advisor allowed. Room C: one student answering a poll,
    ``events`` times, each timed from sending to the view that acknowledges it. Returns (the
    latencies in ms, what the advisor's users did). With ``windows`` > 1 a window of ``events``
    whose p95 is above the target is measured again while the five go on (at most ``windows``
    times): a moment when the machine is busy with other work is not the server's doing, a server
    that blocks its loop fails every window."""
    from harness.livewire import Page
    from test_live_server import join, teacher_page

    board = await teacher_page(server)
    rooms = [board.view["room"]["code"]]
    for _ in range(2):
        await board.send({"type": "room_new"})
        await board.wait(lambda v: v["room"]["code"] not in rooms)
        rooms.append(board.view["room"]["code"])
    a, b, c = rooms
    skipbo = await join(server, a, ["Ana", "Ben", "Cem"])
    tuefteln = await join(server, b, ["Dana", "Eli"])
    (other,) = await join(server, c, ["Fritz"])
    await board.act({"type": "round_new", "spec": {"kind": "poll", "type": "number", "question": "Wie viel?"}})
    for room, spec in ((a, {"kind": "table", "game": "skip-bo-masters", "players": 2, "humans": 1, "advisor": True}),
                       (b, {"kind": "table", "game": "tuefteln", "players": 2, "humans": 2, "advisor": True})):
        await board.send({"type": "room_open", "room": room})
        await board.wait(lambda v: v["room"]["code"] == room)
        await board.act({"type": "round_new", "spec": spec})
    for page in skipbo + tuefteln:
        await page.wait(lambda v: v["page"] == "game")
    await other.wait(lambda v: v["page"] == "poll")
    for page in skipbo + tuefteln + [other]:
        # as a browser does (Chromium sets TCP_NODELAY on its sockets): a Bokeh message is three frames,
        # and with Nagle's algorithm the last two wait for the server's delayed ACK (up to 40 ms)
        page.ws.protocol.stream.set_nodelay(True)
    stop = asyncio.Event()
    stats = dict.fromkeys(("switched_on", "advised", "played", "pending", "refused", "refused_while_thinking"), 0)
    rng = random.Random(5)
    users = [asyncio.ensure_future(use_the_advisor(p, stop, stats, random.Random(rng.random())))
             for p in skipbo + tuefteln]
    await asyncio.sleep(1.0)  # the advisor's users under way
    stats["windows"] = 0
    for _ in range(windows):
        stats["windows"] += 1
        latencies = await timed_events(other, events)
        if p95(latencies) <= P95_MS:
            break
    stop.set()
    await asyncio.gather(*users)
    for page in skipbo + tuefteln + [other, board]:
        await page.close()
    return latencies, stats


async def timed_events(other, events: int) -> list:
    """``events`` poll answers of ``other``, each timed from sending to the view that acknowledges it (ms)."""
    # the other page sends at its own pace, whatever the server does (a student does not wait for the
    # server to be quick); an event not acknowledged within ``GRACE_S`` of the last counts with the
    # time it waited until then (so a server that hangs still ends the measurement, in bounded time)
    acks = []
    other.listener = lambda view, t: acks.append((t, view.get("ack", 0)))
    sent = []
    for i in range(events):
        sent.append((await other.send({"type": "answer", "value": str(i)}), time.perf_counter()))
        await asyncio.sleep(PACE_S)
    end = time.perf_counter() + GRACE_S
    while time.perf_counter() < end and not (acks and acks[-1][1] >= sent[-1][0]):
        await asyncio.sleep(0.05)
    other.listener = None
    return [1000 * (next((t for t, ack in acks if ack >= n), time.perf_counter()) - at) for n, at in sent]


def test_five_students_using_the_advisor_do_not_slow_another_page_and_inline_advice_did(tmp_path):
    """Issue 33 "Done when": while five students use the advisor, another page's p95 stays ≤ 250 ms.
    The control runs the same class on a server that computes the advice on its event loop: there
    the other page's p95 is above 250 ms (issue 33 measured 722 ms with Skip-Bo Masters, 469 ms with
    Tüfteln), so the measurement can tell the two apart. (A window of 60 events over 250 ms is
    measured once more: on a machine shared with other work, a page alone can miss it now and then.)"""
    pytest.importorskip("panel")
    from harness.livewire import Server, run

    server = Server(tmp_path / "worker").start()
    try:
        latencies, stats = run(busy_class(server, 60, windows=3), 150)
    finally:
        server.stop()
    summary = (f"p50 {sorted(latencies)[len(latencies) // 2]:.0f} ms, p95 {p95(latencies):.0f} ms, "
               f"max {max(latencies):.0f} ms; {json.dumps(stats)}; load {os.getloadavg()[0]:.1f}")
    print("advice in the worker:", summary)
    # the five were at it: advice asked and shown, options played, the "thinking" note seen
    assert stats["advised"] >= 5 and stats["played"] >= 3 and stats["pending"] >= 5, summary
    assert stats["refused"] == 0 and stats["refused_while_thinking"] >= 1, summary
    assert p95(latencies) <= P95_MS, summary

    control = Server(tmp_path / "inline", script=INLINE).start()
    try:
        inline, inline_stats = run(busy_class(control, 20), 120)
    finally:
        control.stop()
    summary_inline = f"p95 {p95(inline):.0f} ms, max {max(inline):.0f} ms; {json.dumps(inline_stats)}"
    print("advice on the loop (control):", summary_inline)
    assert inline_stats["advised"] >= 3 and inline_stats["pending"] == 0, summary_inline
    assert p95(inline) > P95_MS and p95(inline) > 2 * p95(latencies), (summary, summary_inline)


# --- Undo's check of a move runs in the same worker, off the loop ----------------------------------------
def checked_table(tmp_path):
    """A Schraube Locker table of two students on a registry whose worker keeps its jobs (``Jobs``)."""
    c = Class(tmp_path)
    checks = Jobs()
    c.registry.advise = lambda job, done: checks(job, done)
    code = c.room()
    ana, ben = c.join(code, "Ana", "Ben")
    c.send(c.teacher, {"type": "round_new", "spec": {"kind": "table", "game": "schraube-locker", "players": 2,
                                                      "humans": 2}})
    game = c.registry.rooms[code].current.games[0]
    return c, checks, game.table, {game.seat_of(s.student): s for s in (ana, ben)}


def test_undos_check_of_a_move_runs_in_the_worker_and_undo_appears_only_when_it_is_back(tmp_path):
    """After a student's move at a table with hidden cards, whether it showed anyone something hidden
    (``reveals_hidden``) decides Undo. The server asks its worker; until the answer is back the mover's
    page offers no Undo, then redraws with the answer. Played until both answers came up: a move that
    showed nothing (Undo appears) and one that did (it stays off); each answer is the one the check
    gives on the loop."""
    c, checks, table, by_seat = checked_table(tmp_path)
    answers = set()
    # (a table's deal is new each run: where one game shows only one of the answers, another table
    # round is played, up to six)
    for game_no in range(6):
        if game_no:
            table, by_seat = next_table(c)
        play_and_check(c, checks, table, by_seat, answers)
        if answers == {True, False}:
            break
    assert answers == {True, False}, answers


def next_table(c):
    """Another Schraube Locker table round of the same two students (``checked_table``'s room)."""
    code = next(iter(c.registry.rooms))
    c.send(c.teacher, {"type": "round_new", "spec": {"kind": "table", "game": "schraube-locker", "players": 2,
                                                      "humans": 2}})
    room = c.registry.rooms[code]
    game = room.current.games[0]
    return game.table, {game.seat_of(s.student): s for s in c.students}


def play_and_check(c, checks, table, by_seat, answers):
    for _ in range(400):
        c.loop.run()
        mover = table.session.whose_turn()
        if mover not in by_seat:
            continue
        view = c.registry.view(by_seat[mover])["table"]
        click = next_click(view)
        if click is None:
            break
        c.send(by_seat[mover], {"type": "table", "event": click})
        pending = table.session.pending_reveal()
        if pending is None or table.session.match.movers[-1] != mover:
            checks.todo.clear()
            continue
        me, other = by_seat[mover], by_seat[1 - mover]
        assert not c.registry.view(me)["table"]["can_undo"] and len(checks.todo) == 1
        c.registry.view(me), c.registry.view(other)
        assert len(checks.todo) == 1  # asked once, and never for another seat's screen
        i, entry = pending
        expected = reveals_hidden(*entry, Rng(99))  # the check on the loop, with other redraws
        pushed = me.pushed, other.pushed
        checks.run()
        assert (me.pushed, other.pushed) == (pushed[0] + 1, pushed[1])
        assert table.session.pending_reveal() is None
        assert c.registry.view(me)["table"]["can_undo"] is (not expected)
        assert not c.registry.view(other)["table"]["can_undo"]
        answers.add(expected)
        if answers == {True, False}:
            return


def test_an_undo_clicked_before_the_check_is_back_checks_on_the_loop_and_the_late_answer_is_dropped(tmp_path):
    c, checks, table, by_seat = checked_table(tmp_path)
    for _ in range(400):
        c.loop.run()
        mover = table.session.whose_turn()
        click = next_click(c.registry.view(by_seat[mover])["table"]) if mover in by_seat else None
        if click is None:
            continue
        c.send(by_seat[mover], {"type": "table", "event": click})
        c.registry.view(by_seat[mover])
        pending = table.session.pending_reveal()
        if pending is None or table.session.match.movers[-1] != mover:
            checks.todo.clear()
            continue
        i, entry = pending
        if reveals_hidden(*entry, Rng(99)):
            checks.todo.clear()
            continue
        break
    else:
        raise AssertionError("no move that shows nothing came up")
    me = by_seat[mover]
    assert len(checks.todo) == 1 and not c.registry.view(me)["table"]["can_undo"]
    moves = table.human_moves()
    c.send(me, {"type": "table", "event": {"type": "undo"}})  # (a page that showed Undo a moment ago)
    assert table.human_moves() == moves - 1
    pushed = me.pushed
    checks.run()  # the answer for a move that is gone: nothing kept, nobody redrawn
    assert me.pushed == pushed and table.session.pending_reveal() is None
