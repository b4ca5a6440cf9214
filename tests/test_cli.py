"""The command line, called as ``main([...])`` the way Pyodide calls it too."""

import io
import json

import pytest

from spieltisch.cli import main
from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import CHANCE


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list(capsys, pig):
    code, out, _ = run(capsys, "list", "--json")
    assert code == 0
    ids = [g["id"] for g in json.loads(out)["games"]]
    assert "test-pig" in ids
    code, out, _ = run(capsys, "list")
    assert "test-pig" in out and "--option rounds=3" in out


def test_simulate_json_is_seeded(capsys, pig):
    args = ["simulate", "test-pig", "--players", "2", "--bot", "random", "--games", "300", "--seed", "5", "--json"]
    code, out, err = run(capsys, *args)
    assert code == 0
    data = json.loads(out)
    assert "simulate: 300/300" in err  # progress goes to stderr, never into the JSON
    seat = data["seats"][0]
    assert set(seat["win_rate"]) == {"mean", "ci95", "n"} and seat["win_rate"]["n"] == 300
    lo, hi = seat["mean_score"]["ci95"]
    assert lo <= seat["mean_score"]["mean"] <= hi
    assert abs(data["seats"][0]["win_rate"]["mean"] + data["seats"][1]["win_rate"]["mean"] - 1) < 1e-9
    assert json.loads(run(capsys, *args)[1]) == data
    assert json.loads(run(capsys, *args[:-2], "6", "--json")[1]) != data


@pytest.mark.parametrize("argv, words", [
    (["simulate", "nope"], "unknown game 'nope'"),
    (["simulate", "test-pig", "--option", "rounds=0"], "between 1 and 50"),
    (["simulate", "test-pig", "--option", "colour=red"], "no option 'colour'"),
    (["simulate", "test-pig", "--players", "9"], "1-4 players"),
    (["simulate", "test-pig", "--bot", "genius"], "no bot 'genius'"),
    (["simulate", "test-pig", "--players", "3", "--bot", "random", "--bot", "random"], "one per seat"),
    (["simulate", "test-pig", "--games", "0"], "at least 1"),
    (["simulate", "test-pig", "--seed", "-1"], "seed"),
    (["analyze", "test-pig"], "no exact analysis"),
    (["replay", "/nonexistent/record.json"], "cannot read"),
])
def test_bad_arguments_give_messages_not_tracebacks(capsys, pig, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert words in err and "Traceback" not in err


def test_play_in_terminal(capsys, pig, monkeypatch, tmp_path):
    # bad input is answered, undo works, the game finishes and the record replays
    answers = ["x", "99", "u", "h"] + ["2"] * 200
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    record = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "test-pig", "--players", "2", "--seed", "3", "--save", str(record))
    assert code == 0, err
    assert "please type a number from 1 to 2" in out
    assert "Game over" in out
    assert "  player 2 (random): " in out and "  * " in out  # the bot's moves and the dice are shown
    code, out2, _ = run(capsys, "replay", str(record), "--json")
    data = json.loads(out2)
    assert data["terminal"] and data["record"]["seed"] == 3


def test_play_quits_on_end_of_input(capsys, pig, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", "test-pig", "--seed", "1")
    assert code == 0 and "bye" in out


def test_argparse_errors_return_2(capsys):
    assert main(["frobnicate"]) == 2
    assert main([]) == 2


# --- review ----------------------------------------------------------------------------------------
def save_game(tmp_path, game_id, players, options, bots, seed=7):
    from spieltisch.core.match import Match
    from spieltisch.core.registry import make_bot
    from spieltisch.core.rng import Rng

    match = Match(game_id, players, options, seed)
    match.play([make_bot(match.game, b) for b in bots], Rng(seed + 1))
    path = tmp_path / f"{game_id}.json"
    path.write_text(match.to_json(), encoding="utf-8")
    return path, match


def test_review_of_a_wuerfel_joker_2_record(capsys, tmp_path):
    path, match = save_game(tmp_path, "wuerfel-joker-2", 2, {"rounds": 2}, ["optimal", "random"])
    code, out, err = run(capsys, "review", str(path))
    assert code == 0, err
    assert "decisions reviewed" in out and "expected points of this turn" in out
    assert "player 1: " in out and "0 worse; expected points lost: 0" in out  # the optimal bot
    assert "player 2: " in out and "review: " in err  # progress on stderr
    code, out_de, _ = run(capsys, "review", str(path), "--lang", "de", "--seat", "1")
    assert code == 0 and "Spieler 1: keine Entscheidungen bewertet" in out_de
    assert "Spieler 2: " in out_de and "erwartete Punkte verloren" in out_de and "aufhören" in out_de


def test_review_json_has_exact_fractions(capsys, tmp_path):
    from fractions import Fraction

    path, match = save_game(tmp_path, "wuerfel-joker-2", 2, {"rounds": 2}, ["optimal", "random"])
    code, out, err = run(capsys, "review", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)  # progress never reaches stdout
    assert "review: " in err and data["review"]["exact"] and data["seed"] == 7
    decisions = data["decisions"]
    assert decisions and all("/" in d["chosen"]["value"]["fraction"] for d in decisions)
    for s in data["summary"]:
        mine = [Fraction(d["loss"]["fraction"]) for d in decisions if d["player"] == s["player"]]
        assert Fraction(s["loss"]["fraction"]) == sum(mine) and s["decisions"] == len(mine)
    assert Fraction(data["summary"][0]["loss"]["fraction"]) == 0 < Fraction(data["summary"][1]["loss"]["fraction"])
    assert [d["chosen"]["action"] for d in decisions] == [match.actions[d["index"]].to_json() for d in decisions]


def test_review_of_a_tuefteln_record_gives_intervals(capsys, tmp_path):
    path, _ = save_game(tmp_path, "tuefteln", 1, {"side": "A"}, ["greedy"])
    args = ["review", str(path), "--rollouts", "2", "--seed", "3", "--json"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    data = json.loads(out)
    assert not data["review"]["exact"] and data["review"]["settings"] == {"n_rollouts": 2, "seed": 3}
    for d in data["decisions"]:
        for v in (d["chosen"]["value"], d["best"]["value"]):
            assert v["ci95"][0] <= v["mean"] <= v["ci95"][1] and v["n"] == 2
        assert "fraction" not in d["loss"]
    assert json.loads(run(capsys, *args)[1]) == data  # seeded: the same review again
    code, out, _ = run(capsys, "review", str(path), "--rollouts", "2")
    assert code == 0 and "±" in out and "estimated points lost" in out


@pytest.mark.parametrize("content, argv, words", [
    (None, [], "cannot read"),
    (b"{not json", [], "not valid JSON"),
    (b'{"ruleset": "wuerfel-joker-2", "version": 2, "players": 1, "options": {}, "seed": 0, "actions": ["stop"]}',
     [], "does not replay"),
    (b"\xff\xfe{}", [], "UTF-8"),
    (b"[]", [], "JSON object"),
    ("wj2", ["--rollouts", "5"], "--rollouts does not apply to wuerfel-joker-2"),
    ("tuefteln", ["--rollouts", "0"], "1 to 10000"),
    ("tuefteln", ["--seed", "-1"], "--seed"),
])
def test_review_refuses_bad_files_and_settings_clearly(capsys, tmp_path, content, argv, words):
    path = tmp_path / "record.json"
    if content == "wj2":
        path, _ = save_game(tmp_path, "wuerfel-joker-2", 1, {"rounds": 1}, ["random"])
    elif content == "tuefteln":
        path, _ = save_game(tmp_path, "tuefteln", 1, {"side": "A"}, ["random"])
    elif content is not None:
        path.write_bytes(content)
    code, out, err = run(capsys, "review", str(path), *argv)
    assert code == 2 and out == ""
    assert words in err and "Traceback" not in err
    assert err.splitlines()[-1].startswith("spieltisch: error: ")  # on a line of its own, after any progress


def test_records_are_read_with_a_size_limit(capsys, tmp_path, monkeypatch):
    path, _ = save_game(tmp_path, "wuerfel-joker-2", 1, {"rounds": 1}, ["random"])
    monkeypatch.setattr("spieltisch.cli.MAX_RECORD_CHARS", 10)
    for command in ("review", "replay"):
        code, _, err = run(capsys, command, str(path))
        assert code == 2 and "too large" in err


def test_review_of_a_game_without_advisor(capsys, pig, tmp_path):
    path, _ = save_game(tmp_path, "test-pig", 2, None, ["random", "random"])
    code, _, err = run(capsys, "review", str(path))
    assert code == 2 and "test-pig has no advisor" in err


# --- what a terminal shows: observations only ---------------------------------------------------------
@pytest.fixture
def secret_pig():
    """Pig in which a turn's rolls are seen only by the player rolling (a stand-in for hidden cards):
    the others see that a turn goes on, not its total."""
    from spieltisch.core import registry
    from spieltisch.core.game import SPECTATOR
    from harness.toygame import Pig, PigState

    class SecretPigState(PigState):
        def observation(self, player):
            obs = super().observation(player)
            obs["viewer"] = player
            if player != self.player:
                obs["turn_total"] = None
            return obs

        def chance_player(self):
            return self.player

        def render(self, player=SPECTATOR, lang="en"):  # the whole state: what a screen must not show
            return f"FULL STATE turn total {self.turn_total}"

    class SecretPig(Pig):
        id = "test-secret-pig"
        state_class = SecretPigState

        def render_observation(self, obs, lang="en"):
            total = "?" if obs["turn_total"] is None else obs["turn_total"]
            return f"[{'Sicht' if lang == 'de' else 'view'} of {obs['viewer']}] totals {obs['totals']}, turn {total}"

    registry.register(SecretPig)
    yield SecretPig
    registry.unregister(SecretPig.id)


def test_play_and_replay_show_observations_only(capsys, secret_pig, monkeypatch, tmp_path):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 300))  # always roll on
    record = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "test-secret-pig", "--seed", "4", "--save", str(record))
    assert code == 0, err
    assert "FULL STATE" not in out
    assert "[view of 0]" in out and "[view of 1]" not in out and "[view of None]" not in out
    bot_rolls = [line for line in out.splitlines() if line.startswith("  * player 2: ")]
    my_rolls = [line for line in out.splitlines() if line.startswith("  * player 1: ")]
    # the bot's rolls: a 1 ends its turn for all to see; any other number only the bot sees
    assert bot_rolls and all(line in ("  * player 2: rolled 1", "  * player 2: (hidden from you)") for line in bot_rolls)
    assert "  * player 2: (hidden from you)" in bot_rolls
    assert my_rolls and not any("hidden" in line for line in my_rolls)
    code, out, _ = run(capsys, "replay", str(record), "--lang", "de")
    assert code == 0 and "[Sicht of None]" in out and "FULL STATE" not in out


def test_play_undo_takes_back_the_humans_move_and_the_bots_replies(pig):
    from harness.toygame import HOLD, ROLL
    from spieltisch.ui.session import PlaySession

    session = PlaySession("test-pig", 2, None, 3, {1: "random"})
    with pytest.raises(SpieltischError, match="no move of yours"):
        session.undo()
    session.run_until_human()
    session.act(ROLL)
    session.run_until_human()
    before_hold = (session.state.snapshot(), len(session.match.actions))
    session.act(HOLD)
    session.run_until_human()  # the bot plays its whole turn
    assert 1 in session.match.movers[before_hold[1]:]
    session.undo()
    assert (session.state.snapshot(), len(session.match.actions)) == before_hold
    assert session.waiting_for_human() and session.whose_turn() == 0


def test_play_session_tells_whose_turn_and_hands_out_observations(secret_pig):
    from harness.toygame import ROLL
    from spieltisch.ui.session import PlaySession

    session = PlaySession("test-secret-pig", 2, None, 5, {1: "random"})
    assert session.current_player() == CHANCE and session.chance_player() == 0 == session.whose_turn()
    assert session.human_seats == [0]
    session.step_chance_only()
    assert session.chance_player() is None and session.whose_turn() == 0 and session.waiting_for_human()
    assert session.view(1) == "[view of 1] totals [0, 0], turn ?"
    assert session.view().startswith("[view of None]")
    assert session.observation(0) == session.state.observation(0)
    seen = []

    class Spy:  # a bot that checks it is handed its own observation, not the state
        name = "spy"

        def act(self, observation, legal, rng):
            seen.append(observation == session.state.observation(1) and type(observation) is dict)
            return legal[0]

    session.bots[1] = Spy()
    for _ in range(200):
        if session.is_over() or seen:
            break
        if session.waiting_for_human():
            session.act(ROLL)  # rolling on until a 1 passes the turn
        else:
            session.step()
    assert seen == [True]
