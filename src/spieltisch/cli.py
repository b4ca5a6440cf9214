"""``spieltisch`` on the command line (also callable as ``main([...])``, e.g. inside Pyodide).

Bad input never shows a traceback: every argument, size and count is checked before anything is
built from it, and the refusal is one line on stderr with exit code 2. Anything else that goes
wrong is a bug in spieltisch: one line saying so, exit code 1 (``SPIELTISCH_DEBUG=1`` shows the
traceback). The limits are listed in ``spieltisch --help`` and docs/limits.md.
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
import os
import re
import secrets
import sys
import time

from .core.advice import MAX_ROLLOUTS
from .core.errors import IllegalActionError, OptionError, SpieltischError
from .core.game import CHANCE, SPECTATOR, State, action_label
from .core.match import MAX_ACTIONS, MAX_RECORD_CHARS, Match
from .core.registry import bot_names, game_ids, get_game_class, make_bot
from .core.rng import MAX_SEED
from .core.simulate import MAX_GAMES

# Limits the command line sets itself (the others come from the core and the games).
MAX_OPTION_VALUE_CHARS = 60  # the longest option value any game takes is far shorter
MAX_NUMBER_DIGITS = 30  # every number the CLI takes fits (a seed has at most 20 digits)
MAX_ANSWER_CHARS = 200  # one answer typed in 'play'; a longer line is read away in pieces and refused
MAX_SHOWN_CHARS = 60  # of a hostile value in a message
MAX_MESSAGE_CHARS = 400  # of a whole error line
DEBUG_ENV = "SPIELTISCH_DEBUG"


def _clip(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` on one line, at most ``limit`` characters, with control characters (newlines,
    terminal escape sequences, undecodable bytes of a file name) shown escaped, never acted on."""
    text = str(text)
    if len(text) > 4 * limit:
        text = text[: 4 * limit]  # escaping below never has to look at all of a huge input
    out = "".join(ch if ch.isprintable() else ch.encode("unicode_escape", "backslashreplace").decode("ascii")
                  for ch in text)
    return out if len(out) <= limit else out[: limit - 3] + "..."


def _error_line(message) -> str:
    """An error message as printed: one line, every long word (an echoed value the message's
    author did not shorten, e.g. argparse's "unrecognized arguments: ...") cut to a few dozen
    characters, the whole cut to ``MAX_MESSAGE_CHARS``."""
    text = str(message)[: 8 * MAX_MESSAGE_CHARS]
    text = re.sub(r"\S{%d,}" % (MAX_SHOWN_CHARS + 1), lambda m: m.group()[: MAX_SHOWN_CHARS - 3] + "...", text)
    return _clip(text)


def _short(value) -> str:
    """A value as a message quotes it: its ``repr``, cut short."""
    text = value if isinstance(value, str) else str(value)
    return _clip(repr(text[: 4 * MAX_SHOWN_CHARS]), MAX_SHOWN_CHARS)


# --- argument types: each refuses with a short message naming the problem -------------------------
def _whole(text: str) -> int:
    t = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", t):
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_short(text)}")
    if len(t.lstrip("+-")) > MAX_NUMBER_DIGITS:
        raise argparse.ArgumentTypeError(f"expected a whole number, got one of {len(t.lstrip('+-'))} digits")
    return int(t)


def _whole_in(lo: int, hi: int):
    def parse(text: str) -> int:
        value = _whole(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi}, not {value}")
        return value
    parse.__name__ = "whole number"  # argparse names the type in some messages
    return parse


def _one_of(*choices: str):
    def parse(text: str) -> str:
        if text not in choices:
            raise argparse.ArgumentTypeError(f"expected one of {', '.join(choices)}; got {_short(text)}")
        return text
    parse.__name__ = "choice"
    return parse


def _epilog() -> str:
    players = ", ".join(f"{gid} {get_game_class(gid).min_players}-{get_game_class(gid).max_players}"
                        for gid in game_ids())
    return f"""\
limits (bad input gets a one-line error naming the problem and exit code 2):
  players per game:        {players}
  simulate --games:        1 to {MAX_GAMES:,} games per run
  a game record:           at most {MAX_RECORD_CHARS:,} characters and {MAX_ACTIONS:,} actions
  review --rollouts:       1 to {MAX_ROLLOUTS:,} playouts per option (the advisor's own range: Skip-Bo Masters from 2)
  --seed:                  0 to 2**64-1 ({MAX_SEED})
  --option NAME=VALUE:     the game's options ('spieltisch list'), values of at most {MAX_OPTION_VALUE_CHARS} characters
  serve --port:            1 to 65535
  class serve --expire:    1 to 168 hours a room lives
  play, one typed answer:  at most {MAX_ANSWER_CHARS} characters
exit codes: 0 done; 2 bad input; 1 a bug in spieltisch (please report it with the command you ran;
{DEBUG_ENV}=1 shows the traceback); 130 interrupted"""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        """One line instead of the usage block, never a hostile value in full."""
        self.exit(2, f"spieltisch: error: {_error_line(message)} (see '{self.prog} --help')\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="spieltisch", description="German tabletop games: play, simulate, analyse.",
                epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    lang = dict(type=_one_of("de", "en"), default="en", metavar="{de,en}")
    seed = _whole_in(0, MAX_SEED)

    s = sub.add_parser("list", help="the games, their options and bots")
    s.add_argument("--json", action="store_true")

    def game_args(s, players=True):
        s.add_argument("game", help="game id (see 'spieltisch list')")
        if players:
            s.add_argument("--players", type=_whole, default=None, help="number of players (the game's range)")
        s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")

    s = sub.add_parser("play", help="play in the terminal against bots")
    game_args(s)
    s.add_argument("--bot", action="append", default=[], help="bot for the other seats (once, or once per bot seat)")
    s.add_argument("--seat", type=_whole, default=0, help="your seat (0 = first)")
    s.add_argument("--seed", type=seed, default=None,
                   help="a game with hidden cards is dealt in secret unless a seed is given (then the seed fixes "
                        "everything: an open game)")
    s.add_argument("--save", default=None,
                   help="write the game record (JSON) here at the end, or when you quit (checked before the game); "
                        "the record is the whole game, with the secret that dealt it: saved mid-game, the file "
                        "shows every hidden card")
    s.add_argument("--lang", help="language of the board and the moves", **lang)

    s = sub.add_parser("simulate", help="many seeded bot games: win rates and scores")
    game_args(s)
    s.add_argument("--bot", action="append", default=[], help="once for all seats, or once per seat")
    s.add_argument("--games", type=_whole_in(1, MAX_GAMES), default=1000, help=f"1 to {MAX_GAMES:,}")
    s.add_argument("--seed", type=seed, default=0)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("analyze", help="exact analysis (probabilities, optimal play)")
    game_args(s)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("serve", help="serve a game in the browser with Panel (needs the panel extra)")
    s.add_argument("app", metavar="GAME", help="a game or family, e.g. tuefteln, wuerfel-joker, wuerfel-joker-1")
    s.add_argument("--port", type=_whole_in(1, 65535), default=5006, help="1 to 65535")
    s.add_argument("--address", default="127.0.0.1", help="host name or IP address to listen on")

    s = sub.add_parser("replay", help="replay a game record (JSON file) and show the final position")
    s.add_argument("file")
    s.add_argument("--json", action="store_true")
    s.add_argument("--lang", **lang)

    s = sub.add_parser("review", help="value every decision of a game record: where were points lost?")
    s.add_argument("file", help="a game record (JSON), e.g. from 'spieltisch play --save'")
    s.add_argument("--json", action="store_true", help="the review as JSON (exact values as fractions)")
    s.add_argument("--rollouts", type=_whole_in(1, MAX_ROLLOUTS), default=None,
                   help=f"games played out per option where values are estimated (Tüfteln 1 to {MAX_ROLLOUTS}, "
                        f"Skip-Bo Masters 2 to {MAX_ROLLOUTS}; checked before any progress)")
    s.add_argument("--seed", type=seed, default=None, help="seed of those playouts")
    s.add_argument("--seat", type=_whole, action="append", default=None,
                   help="review only this seat's decisions (0 = first; repeatable)")
    s.add_argument("--lang", **lang)

    s = sub.add_parser("class", help="class rounds: a class code for one game, students' result codes, the board")
    csub = s.add_subparsers(dest="class_command", required=True)
    c = csub.add_parser("new", help="print a new class code (the whole class plays this game)")
    game_args(c)
    c.add_argument("--seats", nargs="+", default=None, metavar="WHO",
                   help="'human' or a bot name per seat (also comma-separated); default: seat 1 human, the others "
                        "the game's usual bot")
    c.add_argument("--seed", type=seed, default=None, help="default: drawn at random (a short code)")
    c.add_argument("--advisor", action="store_true", help="students may use the advisor")
    c.add_argument("--json", action="store_true",
                   help='{"code", "ruleset", "players", "options", "seats", "seed"} (+ "secret" in a game with '
                        "hidden parts): Match(ruleset, players, options, seed, secret) is the class's game")
    c = csub.add_parser("result", help="print the result code of a finished class game (a saved record)")
    c.add_argument("code", help="the class code")
    c.add_argument("file", help="the game record (JSON), e.g. from 'spieltisch play --save'")
    c.add_argument("--number", type=_whole_in(1, 99), default=None, help="the student's number for the ranking")
    c = csub.add_parser("board", help="verify result codes by replaying them and print the class's summary")
    c.add_argument("code", help="the class code")
    c.add_argument("results", nargs="+", metavar="RESULT", help="result codes ('Name: CODE' adds a name)")
    c.add_argument("--json", action="store_true")
    c.add_argument("--lang", **lang)
    c = csub.add_parser("serve", help="the live class: a server for the teacher's board and the students' devices "
                                      "(needs the panel extra; docs/live-class.md)")
    c.add_argument("--host", default="127.0.0.1",
                   help="address to listen on: 127.0.0.1 (this machine only) or 0.0.0.0 (the school network)")
    c.add_argument("--port", type=_whole_in(1, 65535), default=5007, help="1 to 65535")
    c.add_argument("--data", default="spieltisch-live", metavar="DIR",
                   help="folder of the class's store (created if missing); a restart with the same folder goes on "
                        "where it stopped")
    c.add_argument("--expire", type=_whole_in(1, 168), default=12, metavar="HOURS",
                   help="a room and everything in it is deleted this many hours after it was opened (1 to 168)")
    c.add_argument("--public-url", default=None, metavar="URL",
                   help="the address students type, when it is not http://HOST:PORT (another name, a proxy)")
    c.add_argument("--new-key", action="store_true", help="make a new teacher key (the old link stops working)")

    s = sub.add_parser("lesson", help="the lessons' questions, each declared once in its game's package")
    lsub = s.add_subparsers(dest="lesson_command", required=True)
    c = lsub.add_parser("questions", help="list the lesson questions: prompt, kind, the exact value (or an "
                                          "estimate), the simulation and the by-hand work")
    c.add_argument("game", nargs="?", default=None,
                   help="a lesson (wuerfel-joker, tuefteln, ...) or a game (wuerfel-joker-2); default: all")
    c.add_argument("--core", action="store_true", help="only the lessons' core questions (no extensions)")
    c.add_argument("--lang", **lang)
    c.add_argument("--json", action="store_true",
                   help='{"questions": [{"game", "family", "id", "kind", "prompt": {"de", "en"}, "exact": '
                        '{"fraction", "float"} or "estimate", ...}]}')
    return p


def main(argv=None) -> int:
    try:
        parser = _parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:  # argparse has printed its message (or the help)
            return e.code if isinstance(e.code, int) else 2
        code = {"list": cmd_list, "play": cmd_play, "simulate": cmd_simulate,
                "analyze": cmd_analyze, "replay": cmd_replay, "review": cmd_review,
                "serve": cmd_serve, "class": cmd_class, "lesson": cmd_lesson}[args.command](args)
        sys.stdout.flush()  # a full disk or a closed pipe shows up here, not after we have returned
        return code
    except SpieltischError as e:
        text = e.message("en") if isinstance(e, IllegalActionError) else str(e)
        print(f"spieltisch: error: {_error_line(text)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nspieltisch: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `spieltisch analyze ... | head`: the reader has gone, not an error
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except OSError as e:  # the machine's trouble (a full disk, a closed terminal), not the input's
        print(f"spieltisch: error: {_clip(e.strerror or e)} ({type(e).__name__})", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - anything else is our bug: say so in one line
        if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
            import traceback

            traceback.print_exc()
        what = f"{type(e).__name__}: {_clip(_error_line(e), 100)}"
        print(f"spieltisch: internal error ({what}): this is a bug in spieltisch; "
              f"please report it with the command you ran ({DEBUG_ENV}=1 shows the details)", file=sys.stderr)
        return 1


def _dump(obj) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2))


def cmd_list(args) -> int:
    games = []
    for gid in game_ids():
        cls = get_game_class(gid)
        games.append({
            "id": gid, "version": cls.version, "name": cls.name, "summary": cls.summary,
            "players": [cls.min_players, cls.max_players],
            "options": [{"name": o.name, "default": o.default, "choices": list(o.choices), "help": o.help}
                        for o in cls.option_specs],
            "bots": bot_names(gid),
        })
    if args.json:
        _dump({"games": games})
        return 0
    for g in games:
        print(f"{g['id']:<18} {g['name'].get('de', '')} / {g['name'].get('en', '')}  "
              f"({g['players'][0]}-{g['players'][1]} players)")
        for o in g["options"]:
            extra = f" [{'|'.join(map(str, o['choices']))}]" if o["choices"] else ""
            print(f"    --option {o['name']}={o['default']}{extra}  {o['help']}")
        print(f"    bots: {', '.join(g['bots'])}")
    return 0


def _progress(label):
    start = time.perf_counter()
    def report(done, total):
        rate = done / max(time.perf_counter() - start, 1e-9)
        end = "\n" if done == total else "\r"
        print(f"{label}: {done}/{total} ({rate:,.0f}/s)", end=end, file=sys.stderr, flush=True)
    return report


def _options(cls, pairs: list[str]) -> dict:
    """``--option`` arguments as ``{name: text}`` for ``cls``: names checked here (so a message never
    quotes a hostile name or value in full), values then parsed by the game."""
    specs = {s.name for s in cls.option_specs}
    out: dict = {}
    for pair in pairs:
        if "=" not in pair:
            raise OptionError(f"--option is written NAME=VALUE, got {_short(pair)}")
        name, _, value = pair.partition("=")
        name, value = name.strip(), value.strip()
        if name not in specs:
            known = ", ".join(sorted(specs)) or "none"
            raise OptionError(f"{cls.id} has no option {_short(name)} (known options: {known})")
        if name in out:
            raise OptionError(f"--option {name} is given twice")
        if len(value) > MAX_OPTION_VALUE_CHARS:
            raise OptionError(f"option {name!r} takes a short value (at most {MAX_OPTION_VALUE_CHARS} characters), "
                              f"got {len(value):,} characters")
        out[name] = value
    return out


def _game(args):
    """The configured game of ``args``: players and options checked before anything is built per
    seat (a billion players is refused here, not after a billion-entry list)."""
    cls = get_game_class(args.game)
    return cls(args.players, _options(cls, args.option))


def _bot_names(game, names: list[str], seats: int, flag: str = "--bot") -> list[str]:
    """One bot name per bot seat from ``--bot`` (none: random; one: for every seat). Every name
    given is checked, also when no seat is played by a bot."""
    names = names or ["random"]
    if len(names) != 1 and len(names) != seats:
        raise SpieltischError(f"give one {flag} for all {seats} bot seats or one per seat, not {len(names)}")
    for name in dict.fromkeys(names):
        if name not in type(game).bots and name != "random":
            raise SpieltischError(f"{game.id} has no bot {_short(name)}; bots: {', '.join(bot_names(game.id))}")
        make_bot(game, name)
    return names * seats if len(names) == 1 else names


def cmd_simulate(args) -> int:
    from .core.simulate import simulate

    game = _game(args)  # everything checked before the first game is played
    players = game.num_players
    bots = _bot_names(game, args.bot, players)
    result = simulate(args.game, players, bots, args.games, args.seed, dict(game.options),
                      progress=_progress("simulate") if args.games >= 200 else None)
    if args.json:
        _dump(result.to_json())
        return 0
    print(f"{args.game}: {result.games} games, {players} players, seed {result.seed}, options {result.options}")
    print(f"{'seat':<5} {'bot':<16} {'win rate (95% CI)':<28} mean score (95% CI)")
    for i, (w, s) in enumerate(zip(result.win_rate, result.mean_score)):
        print(f"{i:<5} {result.bots[i]:<16} {w.mean:6.3f} [{w.lo:.3f}, {w.hi:.3f}]{'':<7} "
              f"{s.mean:8.3f} [{s.lo:.3f}, {s.hi:.3f}]")
    return 0


def cmd_analyze(args) -> int:
    game = _game(args)
    if game.analyzer is None:  # Game.analyze would refuse too; say what can be done instead
        raise SpieltischError(f"{args.game} has no exact analysis; "
                              f"'spieltisch simulate {args.game}' estimates its outcomes instead")
    result = game.analyze(progress=None if args.json else _progress("analyze"))
    if args.json:
        _dump(result)
        return 0
    for key, value in result.items():
        print(f"{key}: {_plain(value)}")
    return 0


def _plain(value):
    if isinstance(value, dict) and set(value) == {"fraction", "float"}:
        return f"{value['fraction']} ≈ {value['float']:.6f}"
    if isinstance(value, dict) and set(value) >= {"mean", "ci95"}:
        return f"{value['mean']:.4f} [{value['ci95'][0]:.4f}, {value['ci95'][1]:.4f}] (n={value.get('n')})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (list, dict)) else str(value)


def cmd_serve(args) -> int:
    import signal
    import subprocess

    from .ui.panel import APP
    from .ui.table import load_view, resolve_game

    game_id = resolve_game(args.app)
    load_view(get_game_class(game_id))  # a game without a view yet is refused here, not in the page
    # a host name or an IP address (v4, v6 in brackets or not): no spaces, no options in disguise
    if not re.fullmatch(r"[A-Za-z0-9_.:%\[\]-]{1,253}", args.address) or args.address.startswith("-"):
        raise SpieltischError(f"--address must be a host name or IP address such as 127.0.0.1, "
                              f"not {_short(args.address)}")
    try:
        import panel  # noqa: F401
    except ImportError:
        raise SpieltischError("serving needs Panel: pip install 'spieltisch[panel]'") from None
    origin = f"{args.address}:{args.port}"
    cmd = [sys.executable, "-m", "panel", "serve", str(APP), "--address", args.address,
           "--port", str(args.port), "--allow-websocket-origin", origin, "--args", game_id]
    print(f"serving {game_id} on http://{origin}/{APP.stem}", file=sys.stderr)
    proc = subprocess.Popen(cmd)
    # A SIGTERM to us (a test harness, a service manager) must stop the server too, not orphan it.
    try:
        previous = signal.signal(signal.SIGTERM, lambda signum, frame: proc.send_signal(signum))
    except ValueError:  # not the main thread (called from Python): nothing to forward
        previous = None
    try:
        code = proc.wait()
    except KeyboardInterrupt:
        proc.send_signal(signal.SIGINT)
        return proc.wait()
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)
    if code > 0:  # Panel has said why above (a port in use, ...); say whose message that was
        print(f"spieltisch: error: the Panel server stopped with exit code {code}", file=sys.stderr)
        return 1
    return code


def _t(lang: str, de: str, en: str) -> str:
    return de if lang == "de" else en


def _error_text(e, lang: str) -> str:
    return e.message(lang) if isinstance(e, IllegalActionError) else str(e)


def _view(state, player, lang: str) -> str:
    """What ``player`` sees (SPECTATOR: the projector), drawn from the observation alone: a screen
    never shows what its viewer may not see, whatever the state holds."""
    return state.game.render_observation(state.observation(player), lang)


def _shown_path(path: str) -> str:
    """A file name as messages show it: cut short, control characters escaped."""
    return _clip(path, MAX_SHOWN_CHARS) or "''"


def _read_record(path) -> Match:
    """A game record file, replayed; every problem is a ``SpieltischError`` naming the file."""
    limit = MAX_RECORD_CHARS * 4  # UTF-8 needs at most 4 bytes a character
    shown = _shown_path(path)
    try:
        if os.path.isdir(path):  # Windows would say "permission denied"; say what it is
            raise SpieltischError(f"cannot read {shown}: it is a folder, not a game record")
        with open(path, "rb") as f:
            data = f.read(limit + 1)  # never more than a record may hold, however large the file
    except OSError as e:
        raise SpieltischError(f"cannot read {shown}: {e.strerror or type(e).__name__}") from None
    except SpieltischError:
        raise
    except ValueError:  # a file name with a NUL character (only possible when called from Python)
        raise SpieltischError(f"cannot read {shown}: not a valid file name") from None
    if len(data) > limit:
        raise SpieltischError(f"{shown} is too large to be a game record (at most {MAX_RECORD_CHARS:,} characters)")
    if data.startswith(b"\xef\xbb\xbf"):  # the byte-order mark some editors write is not part of the JSON
        data = data[3:]
    try:
        return Match.from_json(data)
    except SpieltischError as e:
        raise SpieltischError(f"{shown}: {e}") from None


def cmd_replay(args) -> int:
    match = _read_record(args.file)
    if args.json:
        _dump({"record": match.to_record(), "scores": match.state.scores(),
               "terminal": match.is_terminal(), "winners": match.state.winners() if match.is_terminal() else None})
        return 0
    print(_view(match.state, SPECTATOR, args.lang))
    print(_t(args.lang, f"{len(match.actions)} Aktionen nachgespielt; Punkte {match.state.scores()}",
             f"{len(match.actions)} actions replayed; scores {match.state.scores()}"))
    return 0


def cmd_review(args) -> int:
    from .core.advice import advisor_settings, review

    match = _read_record(args.file)
    game = match.game
    accepted = advisor_settings(game)  # refuses a game without an advisor
    settings = {}
    for flag, name, value in (("--rollouts", "n_rollouts", args.rollouts), ("--seed", "seed", args.seed)):
        if value is None:
            continue
        if accepted is not None and name not in accepted:
            raise SpieltischError(f"{flag} does not apply to {game.id}: its advisor does not simulate "
                                  "(its values are exact)")
        settings[name] = value
    report = _progress("review")
    line_open = []

    def progress(done, total):
        line_open[:] = [done < total]
        report(done, total)

    try:
        # the settings' values were checked by the parser (--rollouts, --seed), their names above
        result = review(match, progress, players=args.seat, **settings)
    except SpieltischError:
        if any(line_open):
            print(file=sys.stderr)  # the error on a line of its own, not over the progress
        raise
    if args.json:
        _dump(result.to_json())
        return 0
    _print_review(result, args.lang, _review_unit(game))
    return 0


def _review_unit(game) -> dict:
    """The unit a review's losses are in: the advisor's own (its view's first advice column, as on
    the screen: "cards of lead" in Skip-Bo Masters), points where a game has no view."""
    from .ui.table import load_view

    try:
        return load_view(type(game)).advice_columns(game)[0]["unit"]
    except SpieltischError:
        return {"de": "Punkte", "en": "points"}


def _num(x: float, lang: str, digits: int = 3) -> str:
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


def _value_text(value, lang: str) -> str:
    from .core.advice import Estimate

    if isinstance(value, Estimate):
        return f"{_num(value.mean, lang, 2)} ±{_num((value.hi - value.lo) / 2, lang, 2)}"
    return _num(float(value), lang)


def _exact_text(f, lang: str) -> str:
    """An exact total: the fraction when it is short enough to read, else a decimal (the fraction is
    in ``--json``)."""
    if f.denominator == 1:
        return str(f.numerator)
    frac = f"{f.numerator}/{f.denominator}"
    if len(frac) <= 24:
        return f"{frac} ≈ {_num(float(f), lang)}"
    return _t(lang, f"≈ {_num(float(f), lang)} (genauer Bruch: --json)", f"≈ {_num(float(f), lang)} (exact fraction: --json)")


def _print_review(result, lang: str, unit: dict) -> None:
    r = result.record
    who = _t(lang, "Spieler", "player" if r["players"] == 1 else "players")
    print(f"{r['ruleset']} v{r['version']}, {r['players']} {who}, seed {r['seed']}, "
          f"{_t(lang, 'Optionen', 'options')} {r['options']}; "
          + _t(lang, f"{len(result)} Entscheidungen bewertet", f"{len(result)} decisions reviewed")
          + ("" if result.terminal else _t(lang, " (Spiel nicht zu Ende)", " (game not finished)")))
    if result.method:
        print(_t(lang, "Werte: ", "values: ") + f"{result.objective[lang]} — {result.method[lang]}")
    rows = [(str(d.index), str(d.player + 1), "" if d.round is None else str(d.round),
             d.chosen.label[lang], _value_text(d.chosen.value, lang),
             d.best.label[lang] + (f" (+{d.ties - 1})" if d.ties > 1 else ""), _value_text(d.best.value, lang),
             "–" if d.chosen.best else _num(float(d.loss), lang))
            for d in result]
    head = (_t(lang, "Nr.", "#"), _t(lang, "Spieler", "player"), _t(lang, "Runde", "round"),
            _t(lang, "gewählt", "chosen"), _t(lang, "Wert", "value"), _t(lang, "beste", "best"),
            _t(lang, "Wert", "value"), _t(lang, "verloren", "lost"))
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    right = {0, 1, 2, 4, 6, 7}  # numbers line up on the right
    for row in (head, *rows):
        print("  ".join(x.rjust(w) if i in right else x.ljust(w) for i, (x, w) in enumerate(zip(row, widths))).rstrip())
    print(_t(lang, "(+n: so viele weitere gleich gute Möglichkeiten; –: unter den besten)",
             "(+n: that many more options as good; –: among the best)"))
    print()
    for s in result.summary():
        name = f"{_t(lang, 'Spieler', 'player')} {s.player + 1}"
        if not s.decisions:
            print(f"{name}: " + _t(lang, "keine Entscheidungen bewertet", "no decisions reviewed"))
            continue
        if s.exact:
            lost = _t(lang, "erwartete Punkte verloren: ", "expected points lost: ") + _exact_text(s.loss, lang)
            worse = _t(lang, f"{s.clearly_worse} schlechter", f"{s.clearly_worse} worse")
        else:
            lost = (_t(lang, "geschätzt verloren: ", "estimated loss: ") + _num(float(s.loss), lang, 2)
                    + f" {unit[lang]}")
            worse = _t(lang, f"in {s.clearly_worse} war die beste klar besser",
                       f"in {s.clearly_worse} the best was clearly better")
        print(f"{name}: " + _t(lang, f"{s.decisions} Entscheidungen, {s.among_best} davon unter den besten, ",
                               f"{s.decisions} decisions, {s.among_best} among the best, ") + f"{worse}; {lost}")


def _check_save_path(path: str) -> None:
    """Refuse a ``--save`` file that cannot be written, before the game (not after it, when the
    record would be lost). The check opens the file for appending, which changes nothing in an
    existing file, and removes it again if it was not there."""
    shown = _shown_path(path)
    try:
        if os.path.isdir(path):
            raise SpieltischError(f"--save {shown}: that is a folder; give a file name")
        existed = os.path.lexists(path)
        with open(path, "a", encoding="utf-8"):
            pass
        if not existed:
            try:
                os.remove(path)
            except FileNotFoundError:  # gone already (another process): nothing left behind either way
                pass
    except OSError as e:
        raise SpieltischError(f"--save: cannot write {shown}: {e.strerror or type(e).__name__}") from None
    except SpieltischError:
        raise
    except ValueError:  # a NUL character (only possible when called from Python)
        raise SpieltischError(f"--save: {shown} is not a valid file name") from None


def _save(match, path: str, lang: str) -> None:
    shown = _shown_path(path)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(match.to_json())
    except OSError as e:
        raise SpieltischError(f"cannot write {shown}: {e.strerror or type(e).__name__}") from None
    if match.is_terminal():
        print(_t(lang, f"Partie gespeichert in {shown}", f"record saved to {shown}"))
    else:
        print(_t(lang, f"unfertige Partie gespeichert in {shown}", f"record of the unfinished game saved to {shown}"))


class _InputProblem(Exception):
    """An answer that could not be read: too long, or not text."""


def _read_answer(prompt: str) -> str:
    """One line from standard input, read in bounded pieces: an endless line costs no memory (it is
    read away and refused), undecodable bytes are refused, end of input raises ``EOFError``."""
    print(prompt, end="", flush=True)
    stdin = sys.stdin
    if stdin is None:  # no standard input at all (started detached, or closed with <&-)
        raise EOFError
    try:
        line = stdin.readline(MAX_ANSWER_CHARS + 1)
        if not line:
            raise EOFError
        if len(line) > MAX_ANSWER_CHARS and not line.endswith("\n"):
            while True:  # the rest of the line, piece by piece
                more = stdin.readline(65536)
                if not more or more.endswith("\n"):
                    break
            raise _InputProblem("long")
    except UnicodeDecodeError:
        raise _InputProblem("text") from None
    return line


def _choice(answer: str, n: int) -> int | None:
    """The move number typed, 1..n, or None. Only ASCII digits count: '²' or '٣' are digits to
    ``str.isdigit`` but not numbers a player types here."""
    if answer.isascii() and answer.isdigit() and len(answer) <= 9 and 1 <= int(answer) <= n:
        return int(answer)
    return None


def cmd_play(args, input_fn=None) -> int:
    """``input_fn(prompt) -> str`` reads an answer (default: standard input, bounded)."""
    from .ui.session import PlaySession, action_visible

    lang = args.lang
    game = _game(args)  # the player count and the options, before any per-seat list is built
    players = game.num_players
    if not 0 <= args.seat < players:
        raise SpieltischError(f"--seat is your seat: 0 to {players - 1} with {players} player(s), not {args.seat}")
    others = [p for p in range(players) if p != args.seat]
    names = _bot_names(game, args.bot, len(others))
    if args.save is not None:
        _check_save_path(args.save)
    seed = args.seed if args.seed is not None else int(time.time() * 1000) % (2**32)
    # a game with hidden parts and no seed given is dealt from a secret (never printed), as on a Play
    # page; a given seed is an open game (docs/hidden-information.md)
    hidden = game.state_class.resample_hidden is not State.resample_hidden
    secret = secrets.randbits(64) if hidden and args.seed is None else None
    # the same session as the widgets drive: same bots, same bot generator for a seed
    session = PlaySession(game, None, None, seed, dict(zip(others, names)), secret=secret)
    read = input_fn or _read_answer
    me = args.seat
    player = _t(lang, "Spieler", "player")
    print(_t(lang, f"{args.game}, Seed {seed}. Du bist Spieler {me + 1}. Tippe eine Zahl; u = zurücknehmen, "
                   "q = beenden, h = Hilfe.",
             f"{args.game}, seed {seed}. You are player {me + 1}. Type a number; u = undo, q = quit, h = help."))
    hidden = _t(lang, "(für dich verdeckt)", "(hidden from you)")
    unreadable = 0
    while not session.is_over():
        p = session.current_player()
        thrower = session.chance_player()
        before = session.state.clone() if not session.waiting_for_human() else None
        a = session.step()  # a chance event or a bot's move; None when it is the human's turn
        if a is not None:
            # another player's card or hidden move is not printed: only what this seat could see
            text = action_label(a, lang) if action_visible(before, a, me) else hidden
            if p == CHANCE:
                print(f"  * {player} {thrower + 1}: {text}" if thrower is not None else f"  * {text}")
            else:
                print(f"  {player} {p + 1} ({session.bots[p].name}): {text}")
            continue
        legal = session.legal_actions()
        print()
        print(session.view(me, lang))  # only what this seat may see
        for i, a in enumerate(legal, 1):
            print(f"  {i:>2}. {action_label(a, lang)}")
        try:
            answer = read(_t(lang, "dein Zug> ", "your move> ")).strip().lower()
        except EOFError:
            print(_t(lang, "\ntschüss", "\nbye"))
            break
        except _InputProblem as e:
            if str(e) == "text":
                unreadable += 1
                if unreadable >= 3:  # a binary file on standard input, not a person typing
                    raise SpieltischError("standard input is not UTF-8 text; "
                                          "play reads the moves typed there") from None
            print(_t(lang, f"  die Eingabe ist zu lang oder kein Text: bitte eine Zahl von 1 bis {len(legal)}",
                     f"  that input was too long or not text: please type a number from 1 to {len(legal)}"))
            continue
        unreadable = 0
        if answer in ("q", "quit", "exit"):
            break
        if answer in ("h", "help", "?"):
            print(_t(lang, "Tippe die Nummer eines Zuges. u nimmt deinen letzten Zug zurück, q beendet.",
                     "Type the number of a move. u takes back your last move, q quits."))
            continue
        if answer in ("u", "undo"):
            try:
                session.undo()
            except SpieltischError as e:
                print(_t(lang, f"  kann nicht zurücknehmen: {_error_text(e, 'de')}", f"  cannot undo: {e}"))
            continue
        number = _choice(answer, len(legal))
        if number is None:
            print(_t(lang, f"  bitte eine Zahl von 1 bis {len(legal)} eingeben (oder h für Hilfe)",
                     f"  please type a number from 1 to {len(legal)} (or h for help)"))
            continue
        session.act(legal[number - 1])
    match = session.match
    if session.is_over():
        print()
        print(session.view(me, lang))
        winners = ", ".join(str(w + 1) for w in match.state.winners())
        print(_t(lang, f"Spielende. Punkte: {match.state.scores()}; gewonnen: {player} {winners}",
                 f"Game over. Scores: {match.state.scores()}; winner(s): {player} {winners}"))
    if args.save is not None:
        _save(match, args.save, lang)
    return 0


def cmd_class(args) -> int:
    """``class new|result|board`` (docs/class-mode.md). A refused code is a one-line error naming
    why; ``board`` lists each refused code with its reason and exits 0 when at least one was valid."""
    if args.class_command == "serve":
        return _class_serve(args)
    from .ui import classroom

    if args.class_command == "new":
        from .ui.table import resolve_game

        cls = get_game_class(resolve_game(args.game))
        seats = None
        if args.seats is not None:
            seats = [s.strip() for item in args.seats for s in item.split(",") if s.strip()]
        round_ = classroom.new_round(cls.id, args.players, seats, _options(cls, args.option), args.seed, args.advisor)
        if args.json:
            _dump(round_.to_json())
        else:
            print(classroom.grouped(round_.code))
        return 0
    round_ = _class_round(classroom, args.code)
    if args.class_command == "result":
        match = _read_record(args.file)
        try:
            code = classroom.result_code(round_, match, args.number)
        except classroom.CodeError as e:
            raise SpieltischError(f"{_shown_path(args.file)}: {e}") from None
        print(classroom.grouped(code))
        return 0
    board = classroom.Board(round_.code)
    listed = []
    for text in args.results:
        outcome = board.add(text)
        for item in outcome["added"]:
            listed.append({"code": item["code"], "points": item["points"], "valid": True, "name": item["label"]})
        for item in outcome["refused"]:
            listed.append({"code": item["input"], "points": None, "valid": False,
                           "reason": item["reason"]["de" if args.lang == "de" else "en"]})
    valid = any(item["valid"] for item in listed)
    summary = board.summary(args.lang) if valid else None
    if summary is not None:
        loss = {r["code"]: r["expected_loss"] for r in summary["results"]}
        for item in listed:
            if item["valid"]:
                item["expected_loss"] = loss[item["code"]]
    if args.json:
        out = {"class": round_.to_json(), "results": listed}
        if summary is not None:
            out.update({k: summary[k] for k in ("mean", "best_expected", "bots", "bots_mean", "histogram",
                                                 "ranking", "ranking_points", "ranking_note", "decisions",
                                                 "count", "counted", "name_flags", "ranking_points_note",
                                                 "ranking_uncertain", "loss_objective", "ranking_default")})
        else:
            out.update({"mean": None, "best_expected": None, "decisions": []})
        _dump(out)
    else:
        _print_board(round_, listed, summary, args.lang)
    if not valid:
        print("spieltisch: error: no result code was valid", file=sys.stderr)
    return 0 if valid else 2


def cmd_lesson(args) -> int:
    """``lesson questions``: every registered lesson question, read from its game's package."""
    from .core.registry import questions

    found = questions(args.game, core=True if args.core else None)
    if args.json:
        _dump({"questions": [q.to_json() for q in found]})
        return 0
    lang = args.lang
    for q in found:
        d = q.to_json()
        tag = _t(lang, "Kern" if q.core else "Erweiterung", "core" if q.core else "extension")
        print(f"{q.id} ({q.game}, {q.kind}, {tag}): {q.prompt[lang]}")
        print("    " + " | ".join(q.labels(lang)))
        if "exact" in d:
            print(_t(lang, "    exakt: ", "    exact: ") + f"{q.exact_of[lang]} = {_plain({k: d['exact'][k] for k in ('fraction', 'float')})}")
        else:
            est = d["estimate"]
            print(_t(lang, "    geschätzt: ", "    estimate: ") + f"{q.exact_of[lang]} ≈ {est['float']} ({est['method'][lang]})")
        for r in d.get("readings", []):
            print(f"    {r['label'][lang]}: {_plain({k: r[k] for k in ('fraction', 'float')})}")
        if "simulation" in d:
            sim = d["simulation"]
            print(_t(lang, "    Simulation: ", "    simulation: ") + f"{sim['what'][lang]}, n={sim['n']}, seed={sim['seed']}")
        if "by_hand" in d:
            print(_t(lang, "    von Hand (", "    by hand (") + f"{d['by_hand']['kind']}): {d['by_hand']['task'][lang]}")
    return 0


def _class_serve(args) -> int:
    """``class serve``: the live class (docs/live-class.md). Everything is checked before the server
    starts; then it prints the teacher's link and the join link (with its QR code) and serves."""
    if not re.fullmatch(r"[A-Za-z0-9_.:%\[\]-]{1,253}", args.host) or args.host.startswith("-"):
        raise SpieltischError(f"--host must be a host name or IP address such as 0.0.0.0, not {_short(args.host)}")
    url = args.public_url
    if url is not None and not re.fullmatch(r"https?://[A-Za-z0-9_.:%\[\]/~-]{1,300}", url):
        raise SpieltischError(f"--public-url must be an http(s) address, not {_short(url)}")
    if os.path.exists(args.data) and not os.path.isdir(args.data):
        raise SpieltischError(f"--data {_shown_path(args.data)} is a file, not a folder")
    try:
        import panel  # noqa: F401
    except ImportError:
        raise SpieltischError("the live class needs Panel: pip install 'spieltisch[panel]'") from None
    from .ui.live import app

    return app.main(args.data, args.host, args.port, url, float(args.expire), args.new_key, sys.stdout)


def _class_round(classroom, code):
    try:
        return classroom.parse_class(code)
    except classroom.CodeError as e:
        raise SpieltischError(f"class code {_short(code)}: {e}") from None


def _print_board(round_, listed, summary, lang: str) -> None:
    """The board as text in ``lang``: the results, the ranking by decisions (and by points), the
    class's mean beside the expected value of best play and the bots, and where the class lost points."""
    from .ui.classroom import grouped

    de = lang == "de"
    print(_t(lang, f"Klassenrunde {grouped(round_.code)}: {round_.cls.name['de']}",
             f"class round {grouped(round_.code)}: {round_.cls.name['en']}"))
    for item in listed:
        if item["valid"]:
            who = f"{item['name']}: " if item.get("name") else ""
            print(f"  {who}{grouped(item['code'])}  {_t(lang, 'Punkte', 'points')} {_signed_int(item['points'])}")
        else:
            print(_t(lang, f"  {item['code']}  abgelehnt: {item['reason']}", f"  {item['code']}  refused: {item['reason']}"))
    if summary is None:
        return
    print()

    def by_points() -> None:
        print(_t(lang, "Rangliste nach Punkten:", "ranking by points:"))
        for row in summary["ranking_points"]:
            print(f"  {row['rank']:>2}. {row['name']:<20} {_signed_int(row['points'])}")

    # a game whose review values a turn only is ranked by points first (the board opens with that view)
    points_first = summary.get("ranking_default") == "points"
    if points_first:
        by_points()
        print("  " + summary["ranking_points_note"])
    # "given away", not "points": the advisor's measure is named in the note (cards of lead, this turn's points)
    print(_t(lang, "Nach Entscheidungen (nur ein Hinweis; verschenkt im Mittel):" if points_first else
             "Rangliste nach Entscheidungen (verschenkt im Mittel):",
             "by decisions (a hint only; expected amount given away):" if points_first else
             "ranking by decisions (expected amount given away):"))
    for row in summary["ranking"]:
        loss = _loss_text(row["expected_loss"], lang)
        print(f"  {row['rank']:>2}. {row['name']:<20} {loss:<22} {_t(lang, 'Punkte', 'points')} {_signed_int(row['points'])}")
    # a loss whose fraction is too long to read is written as a decimal: said once
    if any(_loss_text(row["expected_loss"], lang).startswith("≈") and row["expected_loss"]["method"] == "exact"
           for row in summary["ranking"]):
        print(_t(lang, "  (≈: gerundet; die genauen Brüche stehen in --json)", "  (≈: rounded; the exact fractions are in --json)"))
    print("  " + summary["ranking_note"])
    for note in [summary["ranking_uncertain"]] + [f["text"] for f in summary["name_flags"]]:
        if note:
            print("  " + note)
    if not points_first:
        by_points()
    print()
    print(_t(lang, f"Mittelwert der Klasse: {_board_value(summary['mean'], lang)}",
             f"class mean: {_board_value(summary['mean'], lang)}"))
    if summary["best_expected"]:
        print(_t(lang, f"Erwartungswert bei bestem Spiel: {_board_value(summary['best_expected'], lang)}",
                 f"expected value of best play: {_board_value(summary['best_expected'], lang)}"))
    for b in summary["bots"]:
        print(f"  {b['name']}: {_signed_int(b['points'])}" if de else f"  {b['name']}: {_signed_int(b['points'])}")
    for d in summary["decisions"]:
        print(f"{d['situation']} ({d['reached']}):")
        for o in d["options"]:
            # the best option (starred) lost nothing: no "(−0,000)" beside it
            star, lost = ("*", "") if o["best"] else (" ", f"  ({_lost_text(o['loss']['float'], lang)})")
            print(f"   {star} {o['count']:>3}  {o['label']}{lost}")


def _signed_int(n) -> str:
    return str(n).replace("-", "−")


def _board_value(value, lang: str) -> str:
    """A board's exact value (``{"fraction", "float"}``) as the CLI writes every exact total, with the
    minus sign the ranking and the board page use."""
    return "–" if value is None else _minus(_exact_text(Fraction(value["fraction"]), lang))


def _loss_text(loss: dict, lang: str) -> str:
    """An expected loss in the ranking's column: a short exact fraction as the board writes it, a long
    one as a decimal (the note under the ranking says so), an estimate with its interval."""
    if loss["method"] == "exact":
        f = Fraction(loss["fraction"])
        if f.denominator == 1 or len(f"{f.numerator}/{f.denominator}") <= 24:
            return _board_value(loss, lang)
        return _minus(f"≈ {_num(float(f), lang)}")
    lo, hi = loss["ci95"]
    return f"≈ {_num(loss['float'], lang, 1)} ({_num(lo, lang, 1)}–{_num(hi, lang, 1)})"


def _minus(text: str) -> str:
    """The minus sign before a number (not the hyphens of "--json")."""
    return re.sub(r"-(?=\d)", "−", text)


def _lost_text(lost: float, lang: str) -> str:
    """What a not-best option lost: three decimals, more where those would read as nothing."""
    digits = 3
    while digits < 9 and round(lost, digits) == 0:
        digits += 1
    return "−" + _num(lost, lang, digits)