"""The live class's store commits in groups and tells no page of a change before it is committed.

``Store.group_commits`` gathers the changes of a few milliseconds into one transaction with one sync
to the disk (store.py); the server (app.py) tells a page of a change only through
``Store.when_stored``. These tests drive the registry with several students' events in one group
and look at the database through a second connection, as a process that starts after a ``kill -9``
would: whatever a page is told must already be there. The kill itself is tested over the real
server in tests/test_live_server.py and tests/test_live_reconnect.py.
"""

from __future__ import annotations

import itertools
import json
import sqlite3

import pytest

from spieltisch.ui.live.registry import Gate, Registry, Session
from spieltisch.ui.live.store import DB_NAME, Store


class TellingFirst(Store):
    """Negative control: a host that tells the pages at once, before the group is committed."""

    def when_stored(self, fn) -> None:
        fn()


def stored_answers(folder) -> int:
    """The answers another process would find in the files now (committed ones only)."""
    db = sqlite3.connect(folder / DB_NAME)
    try:
        return db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
    finally:
        db.close()


def answer_in_one_group(folder, store_cls) -> dict:
    """Three students answer a poll within one group; returns what each page was told and when."""
    store = store_cls(folder)
    registry = Registry(store, "K3Y", "http://school:5007/join")
    n, clock = itertools.count(1), itertools.count(1)

    def page(role):
        s = registry.teacher_session("K3Y") if role == "teacher" else Session(role)
        s.gate = Gate(lambda: float(next(clock)))  # one event a second: never near the rate limit
        registry.attach(s)
        return s

    def send(s, event):
        registry.handle(s, json.dumps({**event, "n": next(n)}))

    teacher = page("teacher")
    send(teacher, {"type": "room_new"})
    code = registry.view(teacher)["room"]["code"]
    students = []
    for name in ("Ana", "Ben", "Cem"):
        s = page("student")
        send(s, {"type": "join", "room": code, "name": name})
        students.append(s)
    send(teacher, {"type": "round_new", "spec": {"kind": "poll", "type": "number", "question": "Wie viel?"}})

    # from here on the server's way: changes in groups, pages told through when_stored
    groups = []
    store.group_commits(lambda delay, fn: groups.append((delay, fn)))
    told = []  # (page, its answer, its ack, the answers another process finds at that moment)
    for s in students:
        def push(s=s):
            store.when_stored(lambda: told.append((s.id, registry.view(s).get("saved"), registry.view(s)["ack"],
                                                   stored_answers(folder))))
        s.push = push
    for i, s in enumerate(students):
        send(s, {"type": "answer", "value": str(i + 1)})
    out = {"told_in_group": list(told), "stored_in_group": stored_answers(folder), "groups": len(groups)}
    for delay, fn in groups:  # the loop's timer: the group is committed
        fn()
    out.update(told=told, stored=stored_answers(folder), commits=store.commits,
               delay=groups[0][0] if groups else None)
    store.close()
    return out


def test_several_events_in_one_group_are_all_stored_before_any_is_acknowledged(tmp_path):
    out = answer_in_one_group(tmp_path / "group", Store)
    # within the group: nothing committed, and no page told
    assert out["told_in_group"] == [] and out["stored_in_group"] == 0
    assert out["groups"] == 1 and 0 < out["delay"] <= 0.01  # one group, committed within milliseconds
    # the one commit: every page is told, and each finds all three answers already stored
    assert out["commits"] == 1 and out["stored"] == 3
    assert len({page for page, *_ in out["told"]}) == 3  # (a page may be asked to redraw twice)
    assert all(saved is not None and ack > 0 and stored == 3 for _, saved, ack, stored in out["told"]), out["told"]
    # negative control: a host that tells before committing is caught by the same check
    bad = answer_in_one_group(tmp_path / "telling-first", TellingFirst)
    assert bad["told_in_group"] and any(stored < 3 for *_, stored in bad["told"]), bad


def test_a_change_that_fails_in_a_group_is_taken_back_alone(tmp_path):
    store = Store(tmp_path)
    store.add_room("ABCD", 1e12)
    groups = []
    store.group_commits(lambda delay, fn: groups.append(fn))
    store.add_student("ABCD", "Ana", "ana", "h1")
    with pytest.raises(sqlite3.IntegrityError):  # the same name twice in a room
        store.add_student("ABCD", "ANA", "ana", "h2")
    store.add_student("ABCD", "Ben", "ben", "h3")
    told = []
    store.when_stored(lambda: told.append(True))
    assert told == [] and len(groups) == 1
    groups[0]()
    assert told == [True]
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert [r[0] for r in db.execute("SELECT name FROM students ORDER BY id")] == ["Ana", "Ben"]
    db.close()
    # with nothing open, when_stored runs at once and a commit is a no-op
    store.when_stored(lambda: told.append(True))
    store.commit()
    assert told == [True, True] and store.commits == 1
    store.close()
