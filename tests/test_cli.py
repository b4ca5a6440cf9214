"""The command line, called as ``main([...])`` the way Pyodide calls it too."""

import io
import json

import pytest

from spieltisch.cli import main


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
    assert "  player 1 (random): " in out and "  * " in out  # the bot's moves and the dice are shown
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
