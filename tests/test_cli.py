"""The command line, called as ``main([...])`` the way Pyodide calls it too."""

import io
import json
import re

import pytest

from spieltisch.cli import main
from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import CHANCE
from spieltisch.core.match import MAX_RECORD_CHARS


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
    (["simulate", "test-pig", "--games", "0"], "--games: must be from 1 to 1000000, not 0"),
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
    assert code == 0 and "±" in out and re.search(r"estimated loss: \d+\.\d\d points", out)


def test_review_of_skip_bo_names_the_advisors_unit(capsys, tmp_path):
    """Skip-Bo Masters' advisor counts cards of lead, not points: the review says so, as the
    table's review does."""
    path, _ = save_game(tmp_path, "skip-bo-masters", 2, {}, ["greedy", "greedy"])
    code, out, err = run(capsys, "review", str(path), "--rollouts", "2", "--seat", "0")
    assert code == 0, err
    assert re.search(r"estimated loss: \d+\.\d\d cards of lead", out) and "points lost" not in out


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


# --- bad input cannot hurt (issue 11) ------------------------------------------------------------------
import os
import subprocess
import sys

MEMORY_CAP = 3 * 2**29  # 1.5 GiB of address space: a per-seat list for a billion players would not fit


def _cap_memory():
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_capped(*argv, stdin=b"", env=None):
    """``python -m spieltisch argv`` in a child process limited to 1.5 GiB (a missed size check
    fails fast with a MemoryError instead of eating the machine's memory)."""
    proc = subprocess.run([sys.executable, "-m", "spieltisch", *argv], input=stdin, capture_output=True,
                          timeout=60, preexec_fn=_cap_memory, env=env)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def one_line_error(code, err, *words):
    """The contract for bad input: exit code 2, one short line naming the problem, no traceback."""
    assert code == 2, err
    assert "Traceback" not in err and "MemoryError" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("spieltisch: error: ") and len(lines[0]) <= 420, err[:1000]
    for w in words:
        assert w in lines[0], (w, lines[0])


@pytest.mark.parametrize("command", ["simulate", "play", "analyze"])
def test_a_billion_players_is_refused_before_anything_per_seat_is_built(command):
    code, out, err = run_capped(command, "tuefteln", "--players", "1000000000")
    one_line_error(code, err, "tuefteln is for 1-15 players, got 1000000000")
    assert out == ""


@pytest.mark.parametrize("argv, words", [
    (["simulate", "wuerfel-joker-2", "--games", "1000000000000"],
     "--games: must be from 1 to 1000000, not 1000000000000"),
    (["simulate", "wuerfel-joker-2", "--games", "1000001"], "from 1 to 1000000"),
    (["simulate", "wuerfel-joker-2", "--games", "-5"], "not -5"),
    (["simulate", "wuerfel-joker-2", "--games", "2.5"], "expected a whole number, got '2.5'"),
    (["simulate", "wuerfel-joker-2", "--games", "9" * 5000], "a whole number, got one of 5000 digits"),
    (["simulate", "wuerfel-joker-2", "--players", "²"], "--players: expected a whole number, got '²'"),
    (["simulate", "wuerfel-joker-2", "--players", "1e9"], "got '1e9'"),
    (["simulate", "wuerfel-joker-2", "--players", ""], "got ''"),
    (["simulate", "wuerfel-joker-2", "--players", "0"], "for 1-8 players, got 0"),
    (["simulate", "wuerfel-joker-2", "--seed", "-1"], "--seed: must be from 0 to 18446744073709551615, not -1"),
    (["simulate", "wuerfel-joker-2", "--seed", str(2**64)], f"not {2**64}"),
    (["simulate", "wuerfel-joker-2", "--seed", "2**64"], "--seed: expected a whole number, got '2**64'"),
    (["simulate", "wuerfel-joker-2", "--seed", "abc"], "got 'abc'"),
    (["play", "wuerfel-joker-2", "--seed", "-1"], "--seed: must be from 0"),
    (["review", "r.json", "--seed", "x"], "--seed: expected a whole number"),
    (["simulate", "wuerfel-joker-2", "--option", "rounds=abc"], "option 'rounds' takes a whole number, got 'abc'"),
    (["simulate", "wuerfel-joker-2", "--option", "rounds=0"], "between 1 and 100"),
    (["simulate", "wuerfel-joker-2", "--option", "rounds=" + "9" * 50], "between 1 and 100"),
    (["simulate", "wuerfel-joker-2", "--option", "rounds=" + "9" * 5000], "at most 60 characters), got 5,000"),
    (["simulate", "wuerfel-joker-2", "--option", "nope=1"], "wuerfel-joker-2 has no option 'nope' (known options: "),
    (["simulate", "wuerfel-joker-2", "--option", "rounds"], "--option is written NAME=VALUE, got 'rounds'"),
    (["simulate", "wuerfel-joker-2", "--option", "=1"], "has no option ''"),
    (["simulate", "wuerfel-joker-2", "--option", "rounds=2", "--option", "rounds=3"], "--option rounds is given twice"),
    (["simulate", "wuerfel-joker-2", "--option", "five_ops=all;rm"], "must be one of plus_minus, all"),
    (["simulate", "wuerfel-joker-2", "--option"], "--option: expected one argument"),
    (["simulate", "wuerfel-joker-2", "--lang", "de"], "unrecognized arguments: --lang de"),
    (["play", "wuerfel-joker-2", "--lang", "fr"], "--lang: expected one of de, en; got 'fr'"),
    (["review", "r.json", "--rollouts", "10001"], "--rollouts: must be from 1 to 10000, not 10001"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_bad_values_get_one_line_naming_the_problem(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    one_line_error(code, err, words)
    assert out == ""


def test_hostile_values_are_never_echoed_in_full(capsys, tmp_path):
    huge = "x" * 3_900_000
    cases = [["simulate", huge], ["play", huge], ["analyze", huge], ["replay", huge], ["review", huge],
             ["serve", huge], ["simulate", "tuefteln", "--option", huge + "=1"],
             ["simulate", "tuefteln", "--option", huge], ["simulate", "tuefteln", "--bot", huge],
             ["play", "tuefteln", "--bot", huge], ["simulate", "tuefteln", "--seed", huge],
             ["play", "tuefteln", "--lang", huge], ["play", "tuefteln", "--save", str(tmp_path / huge)],
             ["serve", "wuerfel-joker", "--address", huge], ["simulate", "tuefteln", huge],
             ["simulate", "tuefteln", "--" + huge]]
    for argv in cases:
        code, out, err = run(capsys, *argv)
        one_line_error(code, err)
        assert "xxxxxxxxxx" * 10 not in err, argv[:2]  # at most ~60 characters of it
    # a record naming a 3.9 MB ruleset
    path = tmp_path / "huge.json"
    path.write_text(json.dumps({"ruleset": huge[:3_000_000], "version": 1, "players": 1, "options": {},
                                "seed": 0, "actions": []}), encoding="utf-8")
    for command in ("replay", "review"):
        code, _, err = run(capsys, command, str(path))
        one_line_error(code, err, "unknown game")


def test_control_characters_of_an_input_are_shown_escaped(capsys):
    # a terminal escape sequence or a newline in a name is printed as text, never acted on
    code, _, err = run(capsys, "simulate", "\x1b[2J\nnope\udcff")
    one_line_error(code, err, r"\x1b[2J\nnope\udcff")
    assert "\x1b" not in err


def _file(directory, content: bytes) -> str:
    path = directory / "record.json"
    path.write_bytes(content)
    return str(path)


@pytest.mark.parametrize("make, words", [
    (lambda d: "/dev/zero", f"too large to be a game record (at most {MAX_RECORD_CHARS:,} characters)"),
    (lambda d: str(d), "it is a folder, not a game record"),
    (lambda d: str(d / "missing.json"), "cannot read"),
    (lambda d: _file(d, '{"ruleset": "Würfel"}'.encode("latin-1")), "must be UTF-8 JSON text"),
    (lambda d: _file(d, b"[" * 200_000), "nested too deeply"),
    (lambda d: _file(d, b""), "not valid JSON"),
    (lambda d: _file(d, b'{"ruleset": "tuefteln", "version": 1, "players": 1000000000, "options": {}, '
                        b'"seed": 0, "actions": []}'), "tuefteln is for 1-15 players, got 1000000000"),
])
@pytest.mark.parametrize("command", ["replay", "review"])
def test_record_files_that_are_not_records(capsys, tmp_path, command, make, words):
    code, out, err = run(capsys, command, make(tmp_path))
    one_line_error(code, err, words)
    assert out == ""


def test_replay_of_dev_zero_reads_only_the_limit(capsys, monkeypatch):
    # /dev/zero never ends: the reader must stop after the limit, not read on until memory runs out
    asked = []
    real_open = open

    def spy_open(path, mode="r", *a, **k):
        f = real_open(path, mode, *a, **k)
        if path != "/dev/zero":
            return f
        return type("Spy", (), {"__enter__": lambda s: s, "__exit__": lambda s, *e: f.close(),
                                "read": lambda s, n=-1: asked.append(n) or f.read(n)})()

    monkeypatch.setattr("builtins.open", spy_open)
    code, _, err = run(capsys, "replay", "/dev/zero")
    one_line_error(code, err, "too large")
    from spieltisch.core.match import MAX_RECORD_CHARS

    assert asked == [4 * MAX_RECORD_CHARS + 1]


@pytest.mark.parametrize("answers, says", [
    ("²\nq\n", "please type a number from 1 to 2"),  # a digit to isdigit(), not to int()
    ("٣\nq\n", "please type a number from 1 to 2"),
    ("9" * 5000 + "\nq\n", "please type a number from 1 to 2"),  # int() of 5000 digits would raise
    ("1" * 300_000 + "\nq\n", "that input was too long or not text"),  # read away in pieces
    ("\n\n\nq\n", "please type a number from 1 to 2"),
    ("", "bye"),
    ("   \n", "bye"),
])
def test_play_answers_that_are_not_moves_are_asked_again(capsys, pig, monkeypatch, answers, says):
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code, out, err = run(capsys, "play", "test-pig", "--seed", "3")
    assert code == 0 and err == "" and says in out
    assert "Traceback" not in out


def test_play_with_stdin_that_is_not_utf8(capsys, pig, monkeypatch):
    # a strict decoder raises on the bad bytes: the answer is refused and asked again, then the input ends
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe\x00\n1\n"), encoding="utf-8"))
    code, out, err = run(capsys, "play", "test-pig", "--seed", "3")
    assert code == 0 and "that input was too long or not text" in out and "bye" in out

    class Binary:  # bytes that never decode: after three tries play gives up with a message
        def readline(self, size=-1):
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    monkeypatch.setattr("sys.stdin", Binary())
    code, out, err = run(capsys, "play", "test-pig", "--seed", "3")
    one_line_error(code, err, "standard input is not UTF-8 text")


def test_play_with_non_utf8_bytes_on_a_real_stdin():
    code, out, err = run_capped("play", "wuerfel-joker-2", "--seed", "1", stdin=b"\xff\xfe\n\x80\nq\n")
    assert code == 0 and "Traceback" not in err and out.count("please type a number from 1 to 3") == 2


def test_play_checks_the_save_path_before_the_game(capsys, pig, monkeypatch, tmp_path):
    stdin = io.StringIO("1\n" * 50)
    monkeypatch.setattr("sys.stdin", stdin)
    for path, words in ((tmp_path / "no" / "dir" / "r.json", "--save: cannot write"), (tmp_path, "that is a folder")):
        code, out, err = run(capsys, "play", "test-pig", "--seed", "3", "--save", str(path))
        one_line_error(code, err, words)
        assert out == "" and stdin.tell() == 0  # not one move asked for
    # a writable path is left as it was found: no empty file from the check
    fine = tmp_path / "fine.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = run(capsys, "play", "test-pig", "--seed", "3", "--save", str(fine))
    assert code == 0 and "record of the unfinished game saved to" in out
    data = json.loads(fine.read_text(encoding="utf-8"))
    assert data["seed"] == 3 and data["ruleset"] == "test-pig"


def test_the_save_check_leaves_no_file_behind(tmp_path):
    from spieltisch.cli import _check_save_path

    path = tmp_path / "new.json"
    _check_save_path(str(path))
    assert not path.exists()
    existing = tmp_path / "old.json"
    existing.write_text("keep me", encoding="utf-8")
    _check_save_path(str(existing))
    assert existing.read_text(encoding="utf-8") == "keep me"


def test_quitting_saves_the_unfinished_game_which_replays(capsys, pig, monkeypatch, tmp_path):
    path = tmp_path / "r.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nq\n"))
    code, out, _ = run(capsys, "play", "test-pig", "--seed", "3", "--save", str(path))
    assert code == 0 and "Game over" not in out
    code, out, _ = run(capsys, "replay", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and not data["terminal"] and data["record"]["actions"]


@pytest.mark.parametrize("argv, words", [
    (["--bot", "unknown"], "test-pig has no bot 'unknown'; bots: random"),  # one player: no bot seat at all
    (["--bot", "random", "--bot", "random"], "give one --bot for all 0 bot seats or one per seat, not 2"),
    (["--players", "3", "--bot", "random", "--bot", "nope"], "no bot 'nope'"),
    (["--players", "3", "--bot", "nope", "--bot", "random"], "no bot 'nope'"),
    (["--players", "2", "--seat", "2"], "--seat is your seat: 0 to 1 with 2 player(s), not 2"),
    (["--players", "2", "--seat", "-1"], "not -1"),
    (["--players", "2", "--seat", "99999999999999999999999"], "not 99999999999999999999999"),
])
def test_play_checks_every_bot_and_seat(capsys, pig, monkeypatch, argv, words):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 50))
    code, out, err = run(capsys, "play", "test-pig", "--players", "1", *argv) if "--players" not in argv else \
        run(capsys, "play", "test-pig", *argv)
    one_line_error(code, err, words)
    assert out == ""


def test_play_session_checks_its_seats():
    from spieltisch.ui.session import PlaySession

    for bots, words in (({5: "random"}, "a bot seat is a number from 0 to 1, not 5"),
                        ({-1: "random"}, "not -1"), ({True: "random"}, "not bool"),
                        ({1: "nope"}, "no bot 'nope'"), ([1], "bots map seats to bot names")):
        with pytest.raises(SpieltischError, match=words):
            PlaySession("wuerfel-joker-2", 2, None, 0, bots)
    session = PlaySession("wuerfel-joker-2", 2, None, 0, {1: "random"})
    for seat in (2, -1, "0", 1.0):
        with pytest.raises(SpieltischError, match="a seat is a number from 0 to 1"):
            session.view(seat)
        with pytest.raises(SpieltischError, match="a seat is a number from 0 to 1"):
            session.advise(seat)


class FakeServer:
    """Stands in for the Panel server process: no server is started by these tests."""
    started: list = []
    exit_code = 0

    def __init__(self, cmd, *args, **kwargs):
        FakeServer.started.append(cmd)

    def wait(self, timeout=None):
        return FakeServer.exit_code

    def poll(self):
        return FakeServer.exit_code

    def send_signal(self, signum):
        pass

    def terminate(self):
        pass


@pytest.mark.parametrize("argv, words", [
    (["wuerfel-joker", "--port", "70000"], "--port: must be from 1 to 65535, not 70000"),
    (["wuerfel-joker", "--port", "0"], "--port: must be from 1 to 65535, not 0"),
    (["wuerfel-joker", "--port", "-1"], "not -1"),
    (["wuerfel-joker", "--port", "http"], "--port: expected a whole number, got 'http'"),
    (["nope"], "unknown game 'nope'; games with a view: "),
    (["wuerfel-joker", "--address", "a b"], "--address must be a host name or IP address"),
    (["wuerfel-joker", "--address", ""], "--address must be"),
    (["wuerfel-joker", "--address=-x"], "--address must be"),
])
def test_serve_refuses_bad_arguments_before_starting_anything(capsys, monkeypatch, argv, words):
    FakeServer.started = []
    monkeypatch.setattr("subprocess.Popen", FakeServer)
    code, out, err = run(capsys, "serve", *argv)
    one_line_error(code, err, words)
    assert FakeServer.started == []


def test_serve_starts_panel_with_the_checked_arguments(capsys, monkeypatch):
    pytest.importorskip("panel")
    FakeServer.started, FakeServer.exit_code = [], 0
    monkeypatch.setattr("subprocess.Popen", FakeServer)
    code, _, err = run(capsys, "serve", "wuerfel-joker", "--port", "65535", "--address", "::1")
    assert code == 0 and "serving wuerfel-joker-2 on http://::1:65535/app" in err
    cmd = FakeServer.started[0]
    assert cmd[1:4] == ["-m", "panel", "serve"] and cmd[cmd.index("--port") + 1] == "65535"
    assert cmd[cmd.index("--args") + 1] == "wuerfel-joker-2"  # the family's name resolved to a game
    code, _, err = run(capsys, "serve", "tuefteln")
    assert code == 0 and FakeServer.started[-1][-1] == "tuefteln"
    FakeServer.started, FakeServer.exit_code = [], 1  # e.g. the port is in use: Panel says why, we say whose
    code, _, err = run(capsys, "serve", "wuerfel-joker")
    assert code == 1 and err.splitlines()[-1] == "spieltisch: error: the Panel server stopped with exit code 1"
    FakeServer.exit_code = 0


def test_an_internal_error_is_reported_as_a_bug_in_one_line(capsys, monkeypatch):
    def broken(args):
        raise RuntimeError("boom\nwith a second line " + "y" * 1000)

    monkeypatch.setattr("spieltisch.cli.cmd_list", broken)
    monkeypatch.delenv("SPIELTISCH_DEBUG", raising=False)
    code, out, err = run(capsys, "list")
    assert code == 1 and out == "" and "Traceback" not in err
    [line] = err.splitlines()
    assert line.startswith("spieltisch: internal error (RuntimeError: boom\\nwith a second line yyy")
    assert "this is a bug in spieltisch; please report it with the command you ran" in line
    assert "SPIELTISCH_DEBUG=1" in line and len(line) < 400
    # a plain ValueError from inside is a bug too, not bad input: exit code 1, not 2
    monkeypatch.setattr("spieltisch.cli.cmd_list", lambda args: int("not checked"))
    code, _, err = run(capsys, "list")
    assert code == 1 and "internal error (ValueError" in err
    monkeypatch.setenv("SPIELTISCH_DEBUG", "1")
    code, _, err = run(capsys, "list")
    assert code == 1 and "Traceback" in err and "internal error (ValueError" in err.splitlines()[-1]


def test_an_internal_error_in_a_real_process(tmp_path):
    # the installed entry point, not only main(): a bug in a command shows one line and exit code 1
    script = "import spieltisch.cli as c\nc.cmd_list = lambda a: [][1]\nraise SystemExit(c.main(['list']))\n"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          env={k: v for k, v in os.environ.items() if k != "SPIELTISCH_DEBUG"})
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("spieltisch: internal error (IndexError: ")


def test_help_lists_the_limits(capsys):
    from spieltisch.core.match import MAX_ACTIONS, MAX_RECORD_CHARS
    from spieltisch.core.registry import game_ids, get_game_class
    from spieltisch.core.simulate import MAX_GAMES

    code = main(["--help"])
    out = capsys.readouterr().out
    assert code == 0
    for gid in game_ids():
        cls = get_game_class(gid)
        assert f"{gid} {cls.min_players}-{cls.max_players}" in out
    assert f"1 to {MAX_GAMES:,} games per run" in out
    assert f"at most {MAX_RECORD_CHARS:,} characters and {MAX_ACTIONS:,} actions" in out
    assert "1 to 10,000 playouts per option" in out and "1 to 65535" in out
    assert "please report it with the command you ran" in out


def test_docs_limits_match_the_code():
    from pathlib import Path

    from spieltisch.cli import MAX_ANSWER_CHARS, MAX_OPTION_VALUE_CHARS, MAX_ROLLOUTS
    from spieltisch.core.match import MAX_ACTIONS, MAX_RECORD_CHARS
    from spieltisch.core.registry import get_game_class
    from spieltisch.core.simulate import MAX_GAMES

    text = (Path(__file__).parents[1] / "docs" / "limits.md").read_text(encoding="utf-8")
    for gid in ("tuefteln", "wuerfel-joker-1", "wuerfel-joker-2"):
        cls = get_game_class(gid)
        assert f"| `{gid}` | {cls.min_players} | {cls.max_players} |" in text
    for value in (MAX_GAMES, MAX_RECORD_CHARS, MAX_ACTIONS, MAX_ROLLOUTS):
        assert f"{value:,}" in text
    assert f"{MAX_OPTION_VALUE_CHARS} characters" in text and f"{MAX_ANSWER_CHARS} characters" in text


def test_the_rollout_limit_is_the_advisors(tmp_path):
    # the CLI refuses --rollouts outside 1..MAX_ROLLOUTS before reading the record; the advisor
    # draws the same line, so the parser never refuses what the advisor would take
    from spieltisch.cli import MAX_ROLLOUTS
    from spieltisch.core.match import Match

    match = Match("tuefteln", 1, None, 1)
    match.resolve_chance()
    obs = match.state.observation(0)
    with pytest.raises(SpieltischError, match=f"1 to {MAX_ROLLOUTS} times"):
        match.game.advise(obs, n_rollouts=MAX_ROLLOUTS + 1)
    assert match.game.advise(obs, n_rollouts=1).options
