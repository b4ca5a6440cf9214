"""``spieltisch`` on the command line (also callable as ``main([...])``, e.g. inside Pyodide)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from .core.errors import SpieltischError
from .core.game import CHANCE
from .core.match import Match
from .core.options import parse_option_args
from .core.registry import bot_names, game_ids, get_game_class


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spieltisch", description="German tabletop games: play, simulate, analyse.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("list", help="the games, their options and bots")
    s.add_argument("--json", action="store_true")

    def game_args(s, players=True):
        s.add_argument("game", help="game id (see 'spieltisch list')")
        if players:
            s.add_argument("--players", type=int, default=None)
        s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")

    s = sub.add_parser("play", help="play in the terminal against bots")
    game_args(s)
    s.add_argument("--bot", action="append", default=[], help="bot for the other seats (once, or once per bot seat)")
    s.add_argument("--seat", type=int, default=0, help="your seat (0 = first)")
    s.add_argument("--seed", type=int, default=None)
    s.add_argument("--save", default=None, help="write the game record (JSON) here at the end")

    s = sub.add_parser("simulate", help="many seeded bot games: win rates and scores")
    game_args(s)
    s.add_argument("--bot", action="append", default=[], help="once for all seats, or once per seat")
    s.add_argument("--games", type=int, default=1000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("analyze", help="exact analysis (probabilities, optimal play)")
    game_args(s)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("serve", help="serve a Panel app (needs the panel extra)")
    s.add_argument("app", help="app name, e.g. wuerfel-joker")
    s.add_argument("--port", type=int, default=5006)
    s.add_argument("--address", default="127.0.0.1")

    s = sub.add_parser("replay", help="replay a game record (JSON file) and show the final position")
    s.add_argument("file")
    s.add_argument("--json", action="store_true")
    return p


def main(argv=None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse already printed the usage message
        return int(e.code or 0)
    try:
        return {"list": cmd_list, "play": cmd_play, "simulate": cmd_simulate,
                "analyze": cmd_analyze, "replay": cmd_replay, "serve": cmd_serve}[args.command](args)
    except SpieltischError as e:
        print(f"spieltisch: error: {e}", file=sys.stderr)
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


def cmd_simulate(args) -> int:
    from .core.simulate import simulate

    cls = get_game_class(args.game)
    players = args.players if args.players is not None else cls.default_players
    bots = args.bot or ["random"]
    if args.games < 1:
        raise SpieltischError("--games must be at least 1")
    try:
        result = simulate(args.game, players, bots, args.games, args.seed, parse_option_args(args.option),
                          progress=_progress("simulate") if args.games >= 200 else None)
    except ValueError as e:
        raise SpieltischError(str(e)) from None
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
    game = get_game_class(args.game)(args.players, parse_option_args(args.option))
    analyze = getattr(game, "analyze", None)
    if analyze is None:
        raise SpieltischError(f"{args.game} has no exact analysis yet")
    result = analyze(progress=None if args.json else _progress("analyze"))
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

    from .ui.panel import APPS

    if args.app not in APPS:
        raise SpieltischError(f"no Panel app {args.app!r}; apps: {', '.join(APPS)}")
    try:
        import panel  # noqa: F401
    except ImportError:
        raise SpieltischError("serving needs Panel: pip install 'spieltisch[panel]'") from None
    origin = f"{args.address}:{args.port}"
    cmd = [sys.executable, "-m", "panel", "serve", str(APPS[args.app]), "--address", args.address,
           "--port", str(args.port), "--allow-websocket-origin", origin]
    print(f"serving {args.app} on http://{origin}/{APPS[args.app].stem}", file=sys.stderr)
    proc = subprocess.Popen(cmd)
    # A SIGTERM to us (a test harness, a service manager) must stop the server too, not orphan it.
    try:
        previous = signal.signal(signal.SIGTERM, lambda signum, frame: proc.send_signal(signum))
    except ValueError:  # not the main thread (called from Python): nothing to forward
        previous = None
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.send_signal(signal.SIGINT)
        return proc.wait()
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)


def cmd_replay(args) -> int:
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SpieltischError(f"cannot read {args.file}: {e.strerror}") from None
    match = Match.from_json(text)
    if args.json:
        _dump({"record": match.to_record(), "scores": match.state.scores(),
               "terminal": match.is_terminal(), "winners": match.state.winners() if match.is_terminal() else None})
        return 0
    print(match.state.render())
    print(f"{len(match.actions)} actions replayed; scores {match.state.scores()}")
    return 0


def cmd_play(args, input_fn=input) -> int:
    from .ui.session import PlaySession

    cls = get_game_class(args.game)
    players = args.players if args.players is not None else cls.default_players
    seed = args.seed if args.seed is not None else int(time.time() * 1000) % (2**32)
    others = [p for p in range(players) if p != args.seat]
    names = args.bot or ["random"]
    if len(names) == 1:
        names = names * len(others)
    # the same session as the widgets drive: same bots, same bot generator for a seed
    session = PlaySession(args.game, players, parse_option_args(args.option), seed, dict(zip(others, names)))
    if not 0 <= args.seat < players:
        raise SpieltischError(f"--seat must be between 0 and {players - 1}")
    if len(names) != len(others):
        raise SpieltischError(f"give one --bot for all {len(others)} bot seats or one per bot seat")
    match = session.match
    print(f"{args.game}, seed {seed}. You are player {args.seat}. Type a number; u = undo, q = quit, h = help.")
    while not session.is_over():
        p = session.current_player()
        a = session.step()  # a chance event or a bot's move; None when it is the human's turn
        if a is not None:
            print(f"  * {a}" if p == CHANCE else f"  player {p} ({session.bots[p].name}): {a}")
            continue
        legal = session.legal_actions()
        print()
        print(match.state.render())
        for i, a in enumerate(legal, 1):
            print(f"  {i:>2}. {a}")
        try:
            answer = input_fn("your move> ").strip().lower()
        except EOFError:
            print("\nbye")
            return 0
        if answer in ("q", "quit", "exit"):
            return 0
        if answer in ("h", "help", "?"):
            print("Type the number of a move. u takes back your last move, q quits.")
            continue
        if answer in ("u", "undo"):
            try:
                session.undo()
            except SpieltischError as e:
                print(f"  cannot undo: {e}")
            continue
        if not answer.isdigit() or not 1 <= int(answer) <= len(legal):
            print(f"  please type a number from 1 to {len(legal)} (or h for help)")
            continue
        session.act(legal[int(answer) - 1])
    print()
    print(match.state.render())
    print(f"Game over. Scores: {match.state.scores()}; winner(s): {match.state.winners()}")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            f.write(match.to_json())
        print(f"record saved to {args.save}")
    return 0
