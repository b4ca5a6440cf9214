"""The live class's durable store: one SQLite file in the server's data folder (stdlib ``sqlite3``).

Every change a student or the teacher makes is committed before anyone is told (``synchronous=FULL``
in WAL mode: a commit that returned survives a ``kill -9`` and a power cut). On the server the
changes are committed in groups (``group_commits``): a commit waits for the disk (several
milliseconds), and one per change held up the one event loop every page waits on. The changes of a few
milliseconds go into one transaction (each its own savepoint: a change that fails is taken back
alone) with one sync to the disk, and whatever would tell a page about them waits for that commit
(``when_stored``).
What is stored is what a restart needs to rebuild every room exactly, and nothing more:

- ``rooms``: the room code, when it was opened and when it expires;
- ``students``: the display name a student typed and a hash of their seat token (never the token);
- ``rounds``: each round's kind and settings (a poll's question, a game's class code and seed);
- ``answers``: a poll's answers, one per student (the last one counts);
- ``games``: each game of a round: its seats (a student or a bot, and who had a seat before if it
  changed hands mid-game), seed and secret;
- ``moves``: the students' moves in each game, in order. Bots and chance are not stored: they
  follow from the seed, the secret and the students' moves, so replaying the moves rebuilds the
  game exactly, and a game's record is its settings plus these moves;
- ``results``: each finished shared game's result code (the same code a student would type on the
  serverless board) and its points.

Deleting a room deletes everything in it (foreign keys cascade); ``secure_delete`` overwrites the
freed pages and the WAL is checkpointed, so the names are gone from the files too.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

SCHEMA_VERSION = 1
# how long the first change of a group waits for others before the group is committed: a page is
# told this much later at most, and a loop that handles hundreds of events a second syncs the disk
# about 200 times a second at most, not once per event
GROUP_S = 0.005
DB_NAME = "spieltisch-live.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS students (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    token_hash TEXT,
    joined REAL NOT NULL,
    UNIQUE (room, name_key)
);
CREATE TABLE IF NOT EXISTS rounds (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    spec TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS answers (
    round INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    student INTEGER NOT NULL REFERENCES students(id) ON DELETE CASCADE,
    value TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (round, student)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    round INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    table_no INTEGER NOT NULL,
    seats TEXT NOT NULL,
    seed TEXT NOT NULL,
    secret TEXT,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS results (
    round INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    student INTEGER NOT NULL REFERENCES students(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    points TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (round, student)
);
"""


class Store:
    """One SQLite database; every method is one change (or a read). A change is committed at once,
    or after ``group_commits`` with the others of its group."""

    def __init__(self, folder, clock=time.time):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / DB_NAME
        self.clock = clock
        self.schedule = None  # group commits: schedule(delay_s, fn) runs fn later on the loop
        self.group_s = GROUP_S
        self.open = False  # a group's transaction is open (changes not committed yet)
        self.waiting: list = []  # what waits for the open group's commit (when_stored)
        self.commits = 0
        # the server is one thread (Tornado's loop); check_same_thread stays on so a mistake shows
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA secure_delete=ON")
        with self.tx():  # (executescript would commit on its own: one statement at a time instead)
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
        version = self.meta("schema")
        if version is None:
            self.set_meta("schema", str(SCHEMA_VERSION))
        elif version != str(SCHEMA_VERSION):
            raise RuntimeError(f"{self.path} was written by another version of the live class (schema {version}, "
                               f"this one reads {SCHEMA_VERSION}); use another --data folder")

    def tx(self):
        return _Transaction(self)

    def group_commits(self, schedule, delay: float = GROUP_S) -> None:
        """From now on a change opens a group (or joins the open one), and ``schedule(delay, commit)``
        commits the group ``delay`` seconds after its first change. Until then nothing of the group
        is stored: whatever tells a page about a change must go through ``when_stored``."""
        self.schedule, self.group_s = schedule, delay

    def when_stored(self, fn) -> None:
        """``fn()`` once every change made so far is committed: at once if none is waiting."""
        if self.open:
            self.waiting.append(fn)
        else:
            fn()

    def commit(self) -> None:
        """Commit the open group (nothing if none is open), then run what waited for it. A commit
        that fails raises, the group is rolled back and nothing that waited for it runs: the
        server's memory is then ahead of its store, which the host must not go on with (app.py stops
        the server; a restart rebuilds the rooms from what was committed, and no page was told more)."""
        if not self.open:
            return
        self.open = False
        waiting, self.waiting = self.waiting, []
        try:
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        self.commits += 1
        for fn in waiting:
            fn()

    def close(self) -> None:
        self.commit()
        self.db.close()

    # --- meta ---
    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.tx():
            self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                            "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    # --- rooms and students ---
    def add_room(self, code: str, expires: float) -> None:
        with self.tx():
            self.db.execute("INSERT INTO rooms (code, created, expires) VALUES (?, ?, ?)",
                            (code, self.clock(), expires))

    def delete_room(self, code: str) -> None:
        with self.tx():
            self.db.execute("DELETE FROM rooms WHERE code = ?", (code,))
        self.commit()  # (a checkpoint cannot take what is not committed)
        # the deleted rows must leave the WAL as well, not only the database's pages
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def expired_rooms(self, now: float) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT code FROM rooms WHERE expires <= ?", (now,))]

    def add_student(self, room: str, name: str, name_key: str, token_hash: str) -> int:
        with self.tx():
            cur = self.db.execute("INSERT INTO students (room, name, name_key, token_hash, joined) VALUES (?, ?, ?, ?, ?)",
                                  (room, name, name_key, token_hash, self.clock()))
            return cur.lastrowid

    def set_token(self, student: int, token_hash: str | None) -> None:
        with self.tx():
            self.db.execute("UPDATE students SET token_hash = ? WHERE id = ?", (token_hash, student))

    # --- rounds ---
    def add_round(self, room: str, kind: str, spec: dict) -> int:
        with self.tx():
            cur = self.db.execute("INSERT INTO rounds (room, kind, spec, status, created) VALUES (?, ?, ?, 'open', ?)",
                                  (room, kind, json.dumps(spec, ensure_ascii=False), self.clock()))
            return cur.lastrowid

    def set_round(self, round_id: int, status: str, spec: dict | None = None) -> None:
        with self.tx():
            if spec is None:
                self.db.execute("UPDATE rounds SET status = ? WHERE id = ?", (status, round_id))
            else:
                self.db.execute("UPDATE rounds SET status = ?, spec = ? WHERE id = ?",
                                (status, json.dumps(spec, ensure_ascii=False), round_id))

    def set_answer(self, round_id: int, student: int, value) -> None:
        with self.tx():
            self.db.execute("INSERT INTO answers (round, student, value, at) VALUES (?, ?, ?, ?) "
                            "ON CONFLICT (round, student) DO UPDATE SET value = excluded.value, at = excluded.at",
                            (round_id, student, json.dumps(value), self.clock()))

    # --- games ---
    def add_game(self, round_id: int, table_no: int, seats: list, seed: int, secret: int | None) -> int:
        # 64-bit seeds and secrets do not fit SQLite's signed integers: they are stored as text
        with self.tx():
            cur = self.db.execute("INSERT INTO games (round, table_no, seats, seed, secret, created) VALUES (?, ?, ?, ?, ?, ?)",
                                  (round_id, table_no, json.dumps(seats), str(seed),
                                   None if secret is None else str(secret), self.clock()))
            return cur.lastrowid

    def set_seats(self, game: int, seats: list) -> None:
        """A seat changed hands mid-game (each seat keeps who had it before and from which action on)."""
        with self.tx():
            self.db.execute("UPDATE games SET seats = ? WHERE id = ?", (json.dumps(seats), game))

    def add_move(self, game: int, n: int, seat: int, action) -> None:
        with self.tx():
            self.db.execute("INSERT INTO moves (game, n, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                            (game, n, seat, json.dumps(action, ensure_ascii=False), self.clock()))

    def drop_moves_from(self, game: int, n: int) -> None:
        """Undo: the moves from the ``n``-th on are taken back."""
        with self.tx():
            self.db.execute("DELETE FROM moves WHERE game = ? AND n >= ?", (game, n))

    def add_result(self, round_id: int, student: int, code: str, points) -> None:
        with self.tx():
            self.db.execute("INSERT INTO results (round, student, code, points, at) VALUES (?, ?, ?, ?, ?) "
                            "ON CONFLICT (round, student) DO UPDATE SET code = excluded.code, points = excluded.points",
                            (round_id, student, code, str(points), self.clock()))

    # --- reading everything back (a restart) ---
    def load(self) -> list[dict]:
        """Every room with its students, rounds, answers, games (with their moves) and results."""
        q = self.db.execute
        rooms = []
        for code, created, expires in q("SELECT code, created, expires FROM rooms ORDER BY created"):
            room = {"code": code, "created": created, "expires": expires, "students": [], "rounds": []}
            for sid, name, token_hash, joined in q("SELECT id, name, token_hash, joined FROM students WHERE room = ? "
                                                   "ORDER BY id", (code,)):
                room["students"].append({"id": sid, "name": name, "token_hash": token_hash, "joined": joined})
            for rid, kind, spec, status in q("SELECT id, kind, spec, status FROM rounds WHERE room = ? ORDER BY id",
                                             (code,)):
                rnd = {"id": rid, "kind": kind, "spec": json.loads(spec), "status": status,
                       "answers": {s: json.loads(v) for s, v in q("SELECT student, value FROM answers WHERE round = ?",
                                                                 (rid,))},
                       "results": {s: c for s, c in q("SELECT student, code FROM results WHERE round = ?", (rid,))},
                       "games": []}
                for gid, table_no, seats, seed, secret in q("SELECT id, table_no, seats, seed, secret FROM games "
                                                            "WHERE round = ? ORDER BY id", (rid,)):
                    moves = [(n, seat, json.loads(a)) for n, seat, a in
                             q("SELECT n, seat, action FROM moves WHERE game = ? ORDER BY n", (gid,))]
                    rnd["games"].append({"id": gid, "table_no": table_no, "seats": json.loads(seats), "seed": int(seed),
                                         "secret": None if secret is None else int(secret), "moves": moves})
                room["rounds"].append(rnd)
            rooms.append(room)
        return rooms


class _Transaction:
    """One change: ``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on an error); with group commits a
    savepoint in the group's transaction (opened by the group's first change), released or rolled
    back alone. With ``isolation_level=None`` sqlite3 leaves transactions to us, so every write is
    exactly one explicit change."""

    def __init__(self, store: Store):
        self.store = store
        self.db = store.db

    def __enter__(self):
        store = self.store
        if store.schedule is None:
            self.db.execute("BEGIN IMMEDIATE")
        else:
            if not store.open:
                self.db.execute("BEGIN IMMEDIATE")
                store.open = True
                store.schedule(store.group_s, store.commit)
            self.db.execute("SAVEPOINT change")
        return self.db

    def __exit__(self, kind, value, tb):
        if self.store.schedule is None:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        elif kind is None:
            self.db.execute("RELEASE change")
        else:
            self.db.execute("ROLLBACK TO change")
            self.db.execute("RELEASE change")
        return False
