"""A live page's frames: its whole view once, then only what changed (spieltisch.ui.live.frames).

What a page shows is the view its frames add up to: the patch of two views turns the first into the
second, a page that misses a frame asks again, and the registry's views never share a dict or a list
with an earlier view (else a change made in place would look like no change, and the page would keep
showing what was). Through the real server and its websockets: tests/test_live_server.py (every
page's views are read from its frames there), and the real pages (live.js) in tests/test_live_site.py.
"""

from __future__ import annotations

import json
import random

from harness.livewire import Page, run, running, views_in
from spieltisch.ui.live.frames import Frames, apply, patch, read
from test_live import Class, play, start_tables


def random_value(rng, depth=0):
    """A JSON value: a dict of dicts more often near the top, as a view is."""
    if depth < 3 and rng.random() < 0.6 - 0.15 * depth:
        return {rng.choice("abcd"): random_value(rng, depth + 1) for _ in range(rng.randrange(1, 5))}
    return rng.choice([rng.randrange(4), rng.choice(["a", "b", "ß", ""]), None,
                       [rng.randrange(3) for _ in range(rng.randrange(3))]])


def mutate(rng, value, depth=0):
    """``value`` changed here and there (a key dropped, added or changed, at any depth)."""
    if not isinstance(value, dict) or rng.random() < 0.15:
        return random_value(rng, depth)
    out = dict(value)
    for _ in range(rng.randrange(3)):
        key = rng.choice([*out, *"abcde"])
        if key in out and rng.random() < 0.3:
            del out[key]
        else:
            out[key] = mutate(rng, out.get(key), depth + 1)
    return out


def test_a_patch_turns_the_old_view_into_the_new_one_and_leaves_the_old_one_as_it_was():
    rng = random.Random(7)
    seen_inner = seen_drop = seen_same = 0
    for _ in range(3000):
        old = {"page": "x", "v": random_value(rng, 1)}
        new = mutate(rng, old, 1)
        if not isinstance(new, dict):
            new = {"v": new}
        before = json.dumps(old, sort_keys=True)
        p = patch(old, new)
        assert apply(old, p) == new
        assert json.dumps(old, sort_keys=True) == before  # (apply makes a new view)
        assert json.loads(json.dumps(p)) == p  # a patch travels as JSON
        seen_inner += "in" in p
        seen_drop += "drop" in p
        seen_same += p == {}
        assert patch(new, new) == {}
    assert min(seen_inner, seen_drop, seen_same) > 50, (seen_inner, seen_drop, seen_same)  # the cases a patch has were all tried


def test_a_patch_carries_only_what_changed():
    old = {"page": "game", "lang": "de", "table": {"board": "<svg>…</svg>", "howto": "x" * 3000, "log": ["a"]}}
    new = {"page": "game", "lang": "de", "table": {"board": "<svg>!</svg>", "howto": "x" * 3000, "log": ["a", "b"]},
           "ack": 3}
    assert patch(old, new) == {"set": {"ack": 3}, "in": {"table": {"set": {"board": "<svg>!</svg>", "log": ["a", "b"]}}}}
    assert patch(new, old) == {"drop": ["ack"], "in": {"table": {"set": {"board": "<svg>…</svg>", "log": ["a"]}}}}


def test_frames_send_the_whole_view_first_then_changes_and_the_whole_view_again_when_asked():
    f = Frames()
    first = json.loads(f.next({"page": "lobby", "text": "a"}))
    assert first == {"n": 1, "view": {"page": "lobby", "text": "a"}}
    assert f.next({"page": "lobby", "text": "a"}) is None  # nothing changed: nothing sent
    second = json.loads(f.next({"page": "lobby", "text": "b"}))
    assert second == {"n": 2, "base": 1, "patch": {"set": {"text": "b"}}}
    # another page kind: the whole view (a patch would be as long)
    third = json.loads(f.next({"page": "poll", "question": "?"}))
    assert third == {"n": 3, "view": {"page": "poll", "question": "?"}}
    f.resync()
    again = json.loads(f.next({"page": "poll", "question": "?"}))
    assert again == {"n": 4, "view": {"page": "poll", "question": "?"}}
    # a page follows the frames; one it cannot follow it does not apply
    shown = read(first, None, 0)
    shown = read(second, shown, 1)
    assert shown == {"page": "lobby", "text": "b"}
    assert read(second, shown, 2) is None  # (frame 2 again: its base is 1, the page shows 2)
    assert read(third, None, 0) == {"page": "poll", "question": "?"}


def shared_containers(views) -> list:
    """The dicts and lists that two of ``views`` (all kept alive) hold in common, by path."""
    owner, out = {}, []

    def walk(value, path, i):
        if isinstance(value, (dict, list)):
            if id(value) in owner and owner[id(value)][0] != i:
                out.append((owner[id(value)], (i, path)))
            owner.setdefault(id(value), (i, path))
            for k, v in (value.items() if isinstance(value, dict) else enumerate(value)):
                walk(v, path + (k,), i)
    for i, view in enumerate(views):
        walk(view, (), i)
    return out


def test_the_registrys_views_never_share_a_dict_or_a_list_with_an_earlier_view(tmp_path):
    """A change made in place to something an earlier view holds would look like no change to
    ``Frames``: each page's views, over polls, a shared game and tables, are built anew."""
    c = Class(tmp_path)
    code = c.room()
    students = c.join(code, "Ana", "Ben", "Cem", "Dan", "Eva")
    projector = c.page("projector", room=code, table_no=1)
    pages = [c.teacher, projector, *students]
    views = {id(p): [] for p in pages}

    def look():
        for p in pages:
            views[id(p)].append(c.registry.view(p))

    look()
    c.send(c.teacher, {"type": "round_new", "spec": {"kind": "poll", "type": "number", "question": "Wie viel?"}})
    look()
    for s, answer in zip(students, ("1", "2", "3/2", "4", "2")):
        c.send(s, {"type": "answer", "value": answer})
        look()
    c.send(c.teacher, {"type": "reveal", "truth": "2"})
    look()
    n = [0]

    def until():  # (after every move: 40 moves of each round)
        look()
        n[0] += 1
        return n[0] % 40 == 0
    c.send(c.teacher, {"type": "round_new", "spec": {"kind": "game", "game": "wuerfel-joker-2"}})
    play(c, students, until=until, rng=random.Random(2))
    start_tables(c, code, game="skip-bo-masters", players=3, humans=3)
    play(c, students, until=until, rng=random.Random(3))
    for p in pages:
        assert len(views[id(p)]) > 60
        assert shared_containers(views[id(p)]) == []
    # the check finds what it looks for: two views that hold the same list
    kept = c.registry.view(c.teacher)
    again = c.registry.view(c.teacher)
    again["room"]["students"] = kept["room"]["students"]
    assert shared_containers([kept, again])


def view_frames(texts) -> list[dict]:
    """The frames (parsed) of a page's ``view`` among its raw websocket texts."""
    out = []
    for text in texts:
        if '"view"' in text:
            content = json.loads(text)
            out += [json.loads(ev["new"]) for ev in content.get("events", []) if ev.get("attr") == "view"]
    return out


def test_a_page_that_missed_a_frame_asks_and_gets_its_whole_view_again(tmp_path):
    """Through the real server: a student page that takes its frames as not following (as when one
    was lost) asks for its whole view, gets it, and follows the frames after it."""
    async def main(server):
        board = await Page(server.base, f"/klasse?key={server.key}").open()
        code = (await board.act({"type": "room_new"}))["room"]["code"]
        ana = await Page(server.base, "/join").open()
        await ana.act({"type": "join", "room": code, "name": "Ana"})
        ben = await Page(server.base, "/join").open()
        await ben.act({"type": "join", "room": code, "name": "Ben"})
        await board.act({"type": "round_new", "spec": {"kind": "poll", "type": "number", "question": "Wie viel?"}})
        await ana.wait(lambda v: v["page"] == "poll")
        before = len(ana.frames)
        ana._frame_n += 100  # as if a frame had been lost: the next one does not follow
        await ana.act({"type": "answer", "value": "3"})
        assert ana.resyncs == 1
        sent = view_frames(ana.texts()[before:])
        assert "patch" in sent[0] and "view" in sent[-1]  # a patch not applied, then the whole view
        assert ana.view["page"] == "poll" and ana.view["mine"] == "3"
        await ben.act({"type": "answer", "value": "2"})
        await board.act({"type": "reveal", "truth": "3"})
        view = await ana.wait(lambda v: v["status"] == "revealed")
        assert view["result"]["count"] == 2 and ana.resyncs == 1  # the frames after it follow
        assert "patch" in view_frames(ana.texts())[-1]
        # the server's frames themselves always followed: put together in order, they give the view
        assert views_in(ana.texts())[-1] == ana.view
        for p in (board, ana, ben):
            await p.close()

    with running(tmp_path) as server:
        run(main(server), timeout=120)


# A server whose pages change right after they are made, before their browser pulls the document:
# every view counts how often it was drawn, and each new page is redrawn at once.
CHANGES_BEFORE_THE_PULL = """
import sys
from spieltisch.ui.live import app, views
drawn = {}
view = views.Views.view
def counted(self, session):
    drawn[id(session)] = drawn.get(id(session), 0) + 1
    return {**view(self, session), "drawn": drawn[id(session)]}
views.Views.view = counted
page = app.LiveServer._page
def redrawn(self, session):
    out = page(self, session)
    session.push()
    return out
app.LiveServer._page = redrawn
from spieltisch.cli import main
sys.exit(main(["class", "serve", "--port", sys.argv[1], "--data", sys.argv[2]]))
"""


def test_a_page_whose_document_holds_a_patch_when_pulled_asks_for_its_whole_view(tmp_path):
    """A page changed between its making and its browser's pull of the document: the pulled
    document holds the latest frame, a patch of a view the page never had (BokehJS drops the
    patches that come before the document, and so does the tests' page). The page asks for its whole
    view and shows it."""
    async def main(server):
        page = await Page(server.base, "/join").open()
        view = await page.wait(lambda v: v.get("page") == "join", timeout=30)
        assert page.resyncs == 1 and view["drawn"] >= 3  # (made, redrawn at once, then whole again)
        await page.close()

    with running(tmp_path, script=CHANGES_BEFORE_THE_PULL) as server:
        run(main(server), timeout=120)
