"""``spieltisch`` on the command line (also callable as ``main([...])``, e.g. inside Pyodide)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from .core.errors import IllegalActionError, SpieltischError
from .core.game import CHANCE, SPECTATOR
from .core.match import MAX_RECORD_CHARS, Match
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
    s.add_argument("--lang", choices=("de", "en"), default="en", help="language of the board and the moves")

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
    s.add_argument("--lang", choices=("de", "en"), default="en")

    s = sub.add_parser("review", help="value every decision of a game record: where were points lost?")
    s.add_argument("file", help="a game record (JSON), e.g. from 'spieltisch play --save'")
    s.add_argument("--json", action="store_true", help="the review as JSON (exact values as fractions)")
    s.add_argument("--rollouts", type=int, default=None,
                   help="games played out per option where values are estimated (e.g. Tüfteln)")
    s.add_argument("--seed", type=int, default=None, help="seed of those playouts")
    s.add_argument("--seat", type=int, action="append", default=None,
                   help="review only this seat's decisions (0 = first; repeatable)")
    s.add_argument("--lang", choices=("de", "en"), default="en")
    return p


def main(argv=None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse already printed the usage message
        return int(e.code or 0)
    try:
        return {"list": cmd_list, "play": cmd_play, "simulate": cmd_simulate,
                "analyze": cmd_analyze, "replay": cmd_replay, "review": cmd_review,
                "serve": cmd_serve}[args.command](args)
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


def _t(lang: str, de: str, en: str) -> str:
    return de if lang == "de" else en


def _label(action, lang: str) -> str:
    label = getattr(action, "label", None)
    return label(lang) if callable(label) else str(action)


def _error_text(e, lang: str) -> str:
    return e.message(lang) if isinstance(e, IllegalActionError) else str(e)


def _view(state, player, lang: str) -> str:
    """What ``player`` sees (SPECTATOR: the projector), drawn from the observation alone: a screen
    never shows what its viewer may not see, whatever the state holds."""
    return state.game.render_observation(state.observation(player), lang)


def _read_record(path) -> Match:
    """A game record file, replayed; every problem is a ``SpieltischError`` naming the file."""
    limit = MAX_RECORD_CHARS * 4  # UTF-8 needs at most 4 bytes a character
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)  # never more than a record may hold, however large the file
    except OSError as e:
        raise SpieltischError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > limit:
        raise SpieltischError(f"{path} is too large to be a game record (at most {MAX_RECORD_CHARS} characters)")
    if data.startswith(b"\xef\xbb\xbf"):  # the byte-order mark some editors write is not part of the JSON
        data = data[3:]
    try:
        return Match.from_json(data)
    except SpieltischError as e:
        raise SpieltischError(f"{path}: {e}") from None


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
    from .core.rng import Rng

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
    if args.seed is not None:
        try:
            Rng(args.seed)
        except ValueError as e:
            raise SpieltischError(f"--seed: {e}") from None
    report = _progress("review")
    line_open = []

    def progress(done, total):
        line_open[:] = [done < total]
        report(done, total)

    try:
        try:
            result = review(match, progress, players=args.seat, **settings)
        except SpieltischError:
            raise
        except (TypeError, ValueError) as e:  # an advisor refusing a setting value
            raise SpieltischError(str(e)) from None
    except SpieltischError:
        if any(line_open):
            print(file=sys.stderr)  # the error on a line of its own, not over the progress
        raise
    if args.json:
        _dump(result.to_json())
        return 0
    _print_review(result, args.lang)
    return 0


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


def _print_review(result, lang: str) -> None:
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
            lost = (_t(lang, "geschätzt verloren: ", "estimated points lost: ") + _num(float(s.loss), lang, 2))
            worse = _t(lang, f"in {s.clearly_worse} war die beste klar besser",
                       f"in {s.clearly_worse} the best was clearly better")
        print(f"{name}: " + _t(lang, f"{s.decisions} Entscheidungen, {s.among_best} davon unter den besten, ",
                               f"{s.decisions} decisions, {s.among_best} among the best, ") + f"{worse}; {lost}")


def cmd_play(args, input_fn=input) -> int:
    from .ui.session import PlaySession, action_visible

    lang = args.lang
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
    me = args.seat
    player = _t(lang, "Spieler", "player")
    print(_t(lang, f"{args.game}, Seed {seed}. Du bist Spieler {me + 1}. Tippe eine Zahl; u = zurücknehmen, "
                   "q = beenden, h = Hilfe.",
             f"{args.game}, seed {seed}. You are player {me + 1}. Type a number; u = undo, q = quit, h = help."))
    hidden = _t(lang, "(für dich verdeckt)", "(hidden from you)")
    while not session.is_over():
        p = session.current_player()
        thrower = session.chance_player()
        before = session.state.clone() if not session.waiting_for_human() else None
        a = session.step()  # a chance event or a bot's move; None when it is the human's turn
        if a is not None:
            # another player's card or hidden move is not printed: only what this seat could see
            text = _label(a, lang) if action_visible(before, a, me) else hidden
            if p == CHANCE:
                print(f"  * {player} {thrower + 1}: {text}" if thrower is not None else f"  * {text}")
            else:
                print(f"  {player} {p + 1} ({session.bots[p].name}): {text}")
            continue
        legal = session.legal_actions()
        print()
        print(session.view(me, lang))  # only what this seat may see
        for i, a in enumerate(legal, 1):
            print(f"  {i:>2}. {_label(a, lang)}")
        try:
            answer = input_fn(_t(lang, "dein Zug> ", "your move> ")).strip().lower()
        except EOFError:
            print(_t(lang, "\ntschüss", "\nbye"))
            return 0
        if answer in ("q", "quit", "exit"):
            return 0
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
        if not answer.isdigit() or not 1 <= int(answer) <= len(legal):
            print(_t(lang, f"  bitte eine Zahl von 1 bis {len(legal)} eingeben (oder h für Hilfe)",
                     f"  please type a number from 1 to {len(legal)} (or h for help)"))
            continue
        session.act(legal[int(answer) - 1])
    match = session.match
    print()
    print(session.view(me, lang))
    winners = ", ".join(str(w + 1) for w in match.state.winners())
    print(_t(lang, f"Spielende. Punkte: {match.state.scores()}; gewonnen: {player} {winners}",
             f"Game over. Scores: {match.state.scores()}; winner(s): {player} {winners}"))
    if args.save:
        try:
            with open(args.save, "w", encoding="utf-8") as f:
                f.write(match.to_json())
        except OSError as e:
            raise SpieltischError(f"cannot write {args.save}: {e.strerror or e}") from None
        print(_t(lang, f"Partie gespeichert in {args.save}", f"record saved to {args.save}"))
    return 0
