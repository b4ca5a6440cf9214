"""What is hidden stays hidden against the table's own features: the seed it shows, New Game, seat
changes, Undo and a hot seat's log (docs/hidden-information.md).

The attack in every test is the one a curious student can make with nothing but the page and the
public package: build a ``Match`` from what the page shows (its seed) and compare it with the real
table. Each test's negative control is the old behaviour (the shown seed is the whole seed; a restart
deals the same cards; Undo takes back a revealing move; the log is written for one viewer), which the
same check must catch.
"""

from __future__ import annotations

import json

import pytest

from spieltisch import Match
from spieltisch.core.game import CHANCE
from spieltisch.core.rng import Rng
from spieltisch.ui.session import PlaySession
from spieltisch.ui.table import Table

HIDDEN_GAMES = ["skip-bo-masters", "scratch-island", "schraube-locker"]
TABLES = 12


def seen_seed(table: Table) -> int:
    """The seed as the page shows it (the state JSON the front-end receives)."""
    return json.loads(table.state_json())["seed"]


def rebuilt(table: Table) -> Match:
    """The attacker's copy: the table's game from the page's seed, with the table's moves so far
    (a player knows their own moves; here the attacker is even given every move, the chance
    outcomes drawn anew from the seed)."""
    m = Match(table.game.id, table.game.num_players, dict(table.game.options), seed=seen_seed(table))
    for mover, action in zip(table.session.match.movers, table.session.match.actions):
        if mover == CHANCE:
            m.step_chance()
        else:
            m.apply(action)
    return m


def reproduces(table: Table) -> bool:
    """Whether the attacker's copy holds the table's whole position, hidden parts included."""
    try:
        return rebuilt(table).state.snapshot() == table.session.state.snapshot()
    except Exception:  # noqa: BLE001 - a move that the copy's other cards make illegal: not reproduced
        return False


def dealt(table: Table, events: int = 6, holds: int | None = None) -> Table:
    """The table once something hidden has been dealt: ``events`` chance outcomes at least
    (Schraube Locker's players choose their stacks before the cards are turned up: until then
    there is nothing hidden to reproduce; six outcomes make an equal deal by chance negligible),
    and, with ``holds``, once that seat has cards in its hand (Skip-Bo Masters: a player draws a
    hand only at their first turn; before it their view shows two stock tops, which two deals
    share about once in a hundred)."""
    for _ in range(400):
        if table.is_over() or (table.session.match.movers.count(CHANCE) >= events and (
                holds is None or table.session.state.observation(holds).get("hand"))):
            return table
        if table.covered() is not None:  # a hot seat: the next player takes the device
            table.handle({"type": "reveal"})
        legal = table.context().legal
        if legal:
            table.act(legal[0])
        else:
            table.step()
    raise AssertionError("nothing was dealt")


def old_behaviour(monkeypatch) -> None:
    """The table as it was before secret chance: every game dealt from the shown seed alone."""
    monkeypatch.setattr(Table, "_start", lambda self, open_game=False: _start_open(self))


_REAL_START = Table._start


def _start_open(table) -> None:
    _REAL_START(table, open_game=True)


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_the_shown_seed_does_not_reproduce_the_hidden_position(game):
    """Before the first move (every key, snake and treasure on the maps; the other hands and the
    face-down cards; the next stack card) and after a few moves."""
    tables = [dealt(Table(game)) for _ in range(TABLES)]
    assert not any(reproduces(t) for t in tables)
    for t in tables[:4]:
        t.finish()
        assert not reproduces(t)
        assert t.state()["secret"] is None  # told only at the end


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_negative_control_the_shown_seed_as_the_whole_seed_is_caught(game, monkeypatch):
    old_behaviour(monkeypatch)
    tables = [dealt(Table(game)) for _ in range(4)]
    assert all(reproduces(t) for t in tables)


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_a_typed_seed_is_an_open_game_and_says_so(game):
    t = Table(game)
    t.handle({"type": "seed", "seed": 77})
    assert reproduces(dealt(t)) and t.state()["open_game"]
    t.handle({"type": "new"})  # the next new game is dealt in secret again
    assert not reproduces(dealt(t)) and t.state()["open_game"] is None


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_new_game_deals_anew_from_a_secret(game, monkeypatch):
    t = Table(game)
    t.handle({"type": "new"})
    assert not reproduces(dealt(t))
    old_behaviour(monkeypatch)
    t.handle({"type": "new"})
    assert reproduces(dealt(t))


def other_seat_view(table: Table, seat: int) -> str:
    return json.dumps(table.session.state.observation(seat), sort_keys=True)


def deal_of(table: Table) -> list:
    """The chance outcomes the table's game has drawn so far (the deal and the cards turned up)."""
    return [a.to_json() for p, a in zip(table.session.match.movers, table.session.match.actions) if p == CHANCE]


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_a_seat_change_deals_anew(game, monkeypatch):
    """Switching seat 2 between bot and human restarts the game: the new game's deal is not the
    last one (else a seat would see what another held, or a player would know the cells and cards
    of the last game); in Skip-Bo Masters the hand seat 2 is shown is not the hand the bot held, and
    the bot does not get back the hand just shown."""
    holds = 1 if game == "skip-bo-masters" else None

    def run(t):
        before = deal_of(dealt(t, holds=holds))
        hand_of_bot = other_seat_view(t, 1)
        t.handle({"type": "seat", "seat": 1, "who": "human"})
        shown = deal_of(dealt(t, holds=holds))
        hand_shown = other_seat_view(t, 1)
        t.handle({"type": "seat", "seat": 1, "who": t.view.default_bot})
        again = deal_of(dealt(t, holds=holds))
        k = min(len(before), len(shown), len(again), 6)
        assert k == 6
        same = before[:k] == shown[:k] or shown[:k] == again[:k]
        if holds is None:
            return same, False
        # Skip-Bo Masters: every card drawn up to seat 2's first hand (that hand included); the
        # views themselves differ once a bot has played from its hand
        assert all(json.loads(v)["hand"] for v in (hand_of_bot, hand_shown))
        m = min(len(before), len(shown), len(again))
        return same, before[:m] == shown[:m] or shown[:m] == again[:m]

    results = [run(Table(game)) for _ in range(4)]
    assert not any(a or b for a, b in results), results
    old_behaviour(monkeypatch)  # the negative control: a restart with the shown seed deals the same
    results = [run(Table(game)) for _ in range(4)]
    assert all(a for a, _ in results), results
    if game == "skip-bo-masters":
        assert all(b for _, b in results), results


def play_to_a_revealing_move(game: str, seed: int):
    """A table (seat 0 human, bots elsewhere) right after a human move whose consequences showed the
    player something hidden (the card under the played stock card, a scratched cell, a stack card,
    the next throw): the table's own pacing has run the chance events that followed, as on a page.
    Returns (table, the move, the player's observation after it)."""
    t = Table(game, seed=seed)
    for _ in range(200):
        t.finish()
        if t.is_over():
            break
        legal = t.context().legal
        if not legal:
            t.step()
            continue
        action = legal[-1]
        t.act(action)
        while t.session.current_player() == CHANCE and t.pending():
            t.step()
        if t.session.undo_refusal() is not None and any(p == CHANCE for p in t.session.match.movers[-3:]):
            return t, action, other_seat_view(t, 0)
    raise AssertionError(f"no revealing move found in {game} with seed {seed}")


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_undo_gives_no_knowledge(game, monkeypatch):
    """After a move that turned something up, Undo is refused (and offered nowhere); without that
    refusal (the negative control) Undo and the same move again turn up exactly the same thing: the
    player would know it before deciding."""
    t, action, seen = play_to_a_revealing_move(game, 4)
    before = t.session.state.snapshot()
    assert t.state()["can_undo"] is False
    t.handle({"type": "undo"})
    assert t.state()["message"]["kind"] == "refused" and t.session.state.snapshot() == before
    # negative control: the same table with the refusal switched off
    t, action, seen = play_to_a_revealing_move(game, 4)
    monkeypatch.setattr(PlaySession, "undo_refusal", lambda self: None)
    t.undo()
    t.act(action)
    while t.session.current_player() == CHANCE and t.pending():
        t.step()
    assert other_seat_view(t, 0) == seen


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_undo_still_takes_back_a_move_that_revealed_nothing(game):
    """Undo is for a slip of the hand: a move after which nothing was revealed is taken back whole,
    and its log line goes with it."""
    for seed in range(30):
        t = Table(game, seed=seed)
        for _ in range(120):
            t.finish()
            if t.is_over():
                break
            legal = t.context().legal
            if not legal:
                t.step()
                continue
            snapshot, log = t.session.state.snapshot(), list(t.log)
            t.act(legal[0])
            if t.session.undo_refusal() is None:
                assert t.state()["can_undo"]
                t.handle({"type": "undo"})
                assert t.session.state.snapshot() == snapshot
                assert t.log == log
                return
    raise AssertionError(f"no undoable move found in {game}")


def hidden_from(table: Table, seat: int) -> set[int]:
    """Indices of the moves (chance outcomes included) ``seat`` could not see, by replaying the record."""
    from spieltisch.ui.session import action_visible

    record = table.session.match.to_record()
    m = Match.from_record({**record, "actions": []})
    out = set()
    for i, (mover, action) in enumerate(zip(table.session.match.movers, table.session.match.actions)):
        who = m.state.chance_player() if mover == CHANCE else mover
        if who != seat and not action_visible(m.state, action, seat):
            out.add(i)
        if mover == CHANCE:
            m.step_chance()
        else:
            m.apply(action)
    return out


def hot_seat_leaks(t: Table) -> list[str]:
    """Lines on seat 2's screen that tell a move seat 2 could not see (another seat's draw)."""
    hidden = hidden_from(t, 1)
    ctx1 = t.context(viewer=1)
    words = {lang: t.view.hidden_move(t.context(lang, viewer=1), 0) for lang in ("de", "en")}
    leaks = []
    for entry in t.log:
        if entry["at"] - 1 in hidden and entry["who"] == 0:
            line = t._line(entry, ctx1)
            if words[t.lang] not in line:
                leaks.append(line)
    return leaks


def hot_seat_table(game: str, seed: int) -> Table:
    """Two human seats on one device, played until the second one has the device after a move of
    the first that the second could not see (a draw)."""
    t = Table(game, seats=["human", "human"], seed=seed)
    for _ in range(300):
        t.finish()
        state = t.state()
        if state["cover"] is not None:
            assert state["cover"]["seat"] in (0, 1)
            t.handle({"type": "reveal"})
            # seat 2 has the device, and the log holds a move of seat 1 that seat 2 could not see
            if t.shown_to == 1 and any(e["who"] == 0 and e["at"] - 1 in hidden_from(t, 1) for e in t.log):
                return t
            continue
        legal = t.context().legal
        if t.is_over():
            break
        if legal:
            t.act(legal[-1])
        else:
            t.step()
    raise AssertionError("no hidden move of seat 1 in seat 2's log")


def test_hot_seat_each_seat_reads_only_its_own_log():
    t = hot_seat_table("skip-bo-masters", 3)
    assert hidden_from(t, 1) and hot_seat_leaks(t) == []


def test_negative_control_a_log_written_for_one_viewer_leaks_in_a_hot_seat(monkeypatch):
    monkeypatch.setattr(Table, "log_viewers", lambda self: [self.viewer()])
    t = hot_seat_table("skip-bo-masters", 3)
    assert hot_seat_leaks(t)


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_hot_seat_covers_the_screen_until_the_next_player_confirms(game):
    t = Table(game, seats=["human", "human"], seed=5)
    for _ in range(300):
        t.finish()
        if t.covered() is not None:
            break
        legal = t.context().legal
        if legal:
            t.act(legal[-1])
        else:
            t.step()
    seat = t.covered()
    assert seat is not None
    state = t.state()
    assert state["cover"]["seat"] == seat and state["buttons"] == [] and not state["advice"]
    # the covered screen is the spectator's: the same whatever anyone's hidden cards are
    true = t.session.match.state
    views = set()
    for k in range(3):
        t.session.match.state = true if k == 0 else true.resample_hidden(None, Rng(k))
        views.add(t.state_json())
    t.session.match.state = true
    assert len(views) == 1
    t.handle({"type": "act", "token": "a0"})
    assert t.state()["message"]["kind"] == "refused"
    t.handle({"type": "reveal"})
    assert t.state()["cover"] is None and t.context().viewer == seat


def test_the_secret_is_in_a_finished_game_s_record_and_state():
    t = Table("skip-bo-masters")
    t.session.match.play({p: __import__("spieltisch.core.registry", fromlist=["make_bot"]).make_bot(t.game, "greedy")
                          for p in range(2)}, Rng(1))
    state = t.state()
    assert state["banner"] is not None and state["secret"] == t.secret is not None
    again = Match.from_json(t.session.match.to_json())
    assert again.secret == t.secret and again.state.snapshot() == t.session.state.snapshot()
