"""The shared front-end's view-model: one ``Table`` per game on screen, for every game and every host.

A host (the notebook widget, a Play page, the Panel app) shows ``table.state()`` with the one ESM
front-end (``front_end_source()``) and hands every click back as an event to ``table.handle``. The
table runs the game through a ``PlaySession`` and asks the game's view (``core.view.View``) to draw
the viewer's observation; it decides no rule. Everything here is standard library only: no
ipywidgets, traitlets or Panel, so a Play page's Pyodide loads only the engine wheel.

Every text in ``state()`` is in the table's language; the log and the messages are kept in both
languages, so a switch re-renders everything and leaves no word of the other language.
"""

from __future__ import annotations

import importlib
import json
import secrets
from fractions import Fraction
from functools import lru_cache, partial
from pathlib import Path

from ..core.advice import Estimate, advisor_settings, review
from ..core.errors import IllegalActionError, OptionError, SpieltischError, short
from ..core.game import CHANCE, SPECTATOR, TERMINAL, State
from ..core.registry import bot_names, game_ids, get_game_class
from ..core.rng import MAX_SEED, check_seed
from ..core.view import LANGS, Context, num
from .session import PlaySession, action_visible

HUMAN = "human"
MAX_STEPS = 10_000  # bot moves and chance events one "finish" may run
FOLD_AFTER = 8  # the advisor shows this many rows (or every best one) and folds the rest
LONG_FRACTION = 24  # characters: a longer exact fraction is shown short, in full on request
LOG_KEEP = 40

BOT_WORDS = {
    "random": {"de": "zufällig", "en": "random"},
    "greedy": {"de": "gierig", "en": "greedy"},
    "strong": {"de": "stark", "en": "strong"},
    "optimal": {"de": "optimal", "en": "optimal"},
    "threshold": {"de": "vorsichtig", "en": "cautious"},
}

# Every word of the shared front-end, German and English.
WORDS = {
    "new": ("Neues Spiel", "New game"),
    "board": ("Spielbrett und Züge", "Board and moves"),
    "table_info": ("Berater, Punkte und Verlauf", "Advisor, scores and log"),
    "advisor": ("Berater", "Advisor"),
    "exact": ("exakte Brüche", "exact fractions"),
    "projector": ("Beamer", "Projector"),
    "spectator": ("Zuschauer", "Spectator"),
    "spectator_help": ("Zuschauer-Ansicht: keine Hand und keine verdeckte Karte ist zu sehen; zum Spielen ausschalten.",
                       "Spectator view: no hand and no face-down card is shown; switch it off to play."),
    "pass_device": ("Gib das Gerät an {who} weiter.", "Pass the device to {who}."),
    "pass_help": ("Der Bildschirm bleibt verdeckt, bis {who} bereit ist.",
                  "The screen stays covered until {who} is ready."),
    "pass_ready": ("Ich bin {who} – zeigen", "I am {who} – show"),
    "seed_secret_help": ("Verdeckte Karten und Felder mischt der Tisch bei jedem neuen Spiel geheim; der Startwert "
                         "legt sie nicht fest. Ein eingetippter Startwert startet ein offenes Spiel.",
                         "The table shuffles hidden cards and cells in secret for every new game; the seed does not "
                         "fix them. A seed you type starts an open game."),
    "open_game": ("Offenes Spiel: Der eingetippte Startwert legt auch alles Verdeckte fest (gleicher Startwert = "
                  "gleiches Spiel). „Neues Spiel“ mischt wieder geheim.",
                  "Open game: the typed seed fixes the hidden parts too (same seed = same game). “New game” "
                  "shuffles in secret again."),
    "undo_rule": ("Zurücknehmen geht nur, solange seit deinem Zug nichts aufgedeckt wurde (keine Karte, kein Wurf, "
                  "kein Zug eines anderen).",
                  "Undo works only while nothing was revealed since your move (no card, no throw, no other "
                  "player's move)."),
    "language": ("Sprache", "Language"),
    "seed": ("Startwert", "Seed"),
    "seed_help": ("Gleicher Startwert = gleiche Würfe: so spielt die ganze Klasse dasselbe Spiel.",
                  "Same seed = same throws: the whole class can play the same game."),
    "players": ("Spieler", "Players"),
    "seat": ("Platz", "Seat"),
    "human": ("Mensch", "Human"),
    "bot": ("Bot", "Bot"),
    "you": ("Du", "You"),
    "player_n": ("Spieler {n}", "Player {n}"),
    "bot_n": ("Bot {n} ({name})", "Bot {n} ({name})"),
    "step": ("Bot: nächster Schritt", "Bot: next step"),
    "finish": ("Bots: bis zu mir", "Bots: play to my turn"),
    "undo": ("Zurücknehmen", "Undo"),
    "scores": ("Punkte", "Scores"),
    "log": ("Verlauf", "Log"),
    "howto": ("So geht's", "How to play"),
    "goal": ("Ziel", "Goal"),
    "turn": ("Ein Zug", "A turn"),
    "over_click": ("Das Spiel ist vorbei – „Neues Spiel“ startet ein neues.",
                   "The game is over – “New game” starts another."),
    "not_now": ("Das geht gerade nicht.", "That is not possible now."),
    "refused": ("Nicht erlaubt: {detail} (Regel: {rule})", "Not allowed: {detail} (rule: {rule})"),
    "game_over": ("Spielende", "Game over"),
    "winner": ("Gewonnen hat {who} mit {pts} Punkten.", "{who} won with {pts} points."),
    "you_won": ("Du hast gewonnen – mit {pts} Punkten!", "You won – with {pts} points!"),
    "winners": ("Gleichstand: {who} mit je {pts} Punkten.", "A tie: {who} with {pts} points each."),
    "your_result": ("Du: {pts} Punkte, Platz {place} von {n}.", "You: {pts} points, place {place} of {n}."),
    "board_scrolls": ("Das Brett ist breiter als der Bildschirm: seitlich wischen →",
                      "The board is wider than the screen: swipe sideways →"),
    "and": (" und ", " and "),
    "advice_title": ("Berater", "Advisor"),
    "advice_none": ("Gerade ist nichts zu entscheiden.", "No decision to make right now."),
    "option": ("Möglichkeit", "Option"),
    "best": ("★ beste Wahl", "★ best choice"),
    "ties": ("★ bei mehreren: gleich gut im Rahmen der Unsicherheit", "★ on several: equally good within the uncertainty"),
    "play_this": ("Klicke eine Zeile, um diesen Zug zu spielen.", "Click a row to play that move."),
    "review": ("Spielanalyse", "Game review"),
    "review_button": ("Spielanalyse zeigen", "Show game review"),
    "review_axis": ("verloren je Entscheidung ({unit}; 0 = beste Wahl)",
                    "lost per decision ({unit}; 0 = best choice)"),
    "review_line": ("{who}: {best} von {n} Entscheidungen unter den besten, verloren: {loss} {unit}",
                    "{who}: {best} of {n} decisions among the best, lost: {loss} {unit}"),
    "reconstruction": ("Rekonstruktion", "Reconstruction"),
    "reconstruction_help": ("Teile dieses Spiels (Karten, Blätter, Tabellen) hat das Projekt rekonstruiert, weil die "
                            "Bilder der Anleitung fehlen.",
                            "Parts of this game (cards, sheets, tables) are the project's reconstruction, because "
                            "the rulebook's pictures are missing."),
    "thinking": ("rechnet …", "thinking …"),
    "advice_wait": ("Berater rechnet …", "The advisor is thinking …"),
    "advice_busy": ("der Berater rechnet noch; gleich steht sein Rat da", "the advisor is still thinking; its advice "
                    "comes in a moment"),
    "advice_failed": ("Der Berater konnte hier nicht rechnen.", "The advisor could not work this one out."),
    "minus": ("Minuspunkte", "penalty points"),
    "more_options": ("{n} weitere Möglichkeiten", "{n} more options"),
    "digits": ("{n} Ziffern", "{n} digits"),
    "class_result_code": ("Dein Ergebniscode für die Lehrkraft steht oben über dem Tisch.",
                          "Your result code for the teacher is at the top, above the table."),
    "class_note": ("Klassenrunde {code}: Alle spielen dasselbe Spiel; Startwert, Plätze und Regeln sind festgelegt.",
                   "Class round {code}: everyone plays the same game; seed, seats and rules are fixed."),
    "class_locked": ("in einer Klassenrunde legt der Klassencode das Spiel fest",
                     "in a class round the class code fixes the game"),
    "class_no_advisor": ("in dieser Klassenrunde ist der Berater ausgeschaltet",
                         "the advisor is switched off in this class round"),
    "class_undo": ("in einer Klassenrunde geht Zurücknehmen nur, solange danach nichts geschehen ist (kein Wurf, "
                   "keine Karte, kein Zug eines anderen)",
                   "in a class round Undo works only while nothing has happened since (no throw, no card, no "
                   "other player's move)"),
}

# Events a class round refuses: they would change the game the class code fixes.
CLASS_LOCKED = ("new", "seed", "seat", "players", "variant")


def word(key: str, lang: str, **kw) -> str:
    de, en = WORDS[key]
    return (de if lang == "de" else en).format(**kw)


def check_lang(lang) -> str:
    if not isinstance(lang, str) or lang not in LANGS:
        raise OptionError(f"lang must be 'de' or 'en', got {short(lang)}")
    return lang


def resolve_game(game) -> str:
    """A registered game id for ``game``: the id itself, or a family's name ("wuerfel-joker" -> its
    last game, "wuerfel-joker-2")."""
    ids = game_ids()
    if game in ids:
        return game
    if isinstance(game, str):
        family = [g for g in ids if g.startswith(game + "-")]
        if family:
            return family[-1]
    playable = ", ".join(g for g in ids if getattr(get_game_class(g), "view", None))
    raise OptionError(f"unknown game {short(game)}; games with a view: {playable}")


@lru_cache(maxsize=None)
def _view_class(spec: str):
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr or "VIEW")


def load_view(cls):
    spec = getattr(cls, "view", None)
    if not spec:
        raise OptionError(f"{cls.id} has no view yet: it can be simulated and analysed, not played on screen")
    return _view_class(spec)()


def variants(game_id: str) -> list[str]:
    """The registered games drawn by the same view (a family such as Würfel Joker's two games)."""
    spec = get_game_class(game_id).view
    return [g for g in game_ids() if getattr(get_game_class(g), "view", None) == spec]


@lru_cache(maxsize=1)
def front_end_source() -> str:
    """The one ESM front-end (``render({model, el})``) with its style sheet inlined."""
    here = Path(__file__).with_name("static")
    css = (here / "table.css").read_text(encoding="utf-8")
    js = (here / "table.js").read_text(encoding="utf-8")
    return f"const CSS = {json.dumps(css)};\n{js}"


class Table:
    """One game on screen. ``seats``: "human" or a bot name per seat (default: seat 0 human, the
    others the view's default bot). Every setting is checked before anything is built."""

    def __init__(self, game="wuerfel-joker-2", players: int | None = None, seats=None, seed: int | None = None,
                 lang: str = "de", options: dict | None = None, advisor: bool = False, projector: bool = False,
                 secret: int | None = None, class_round: dict | None = None, advise=None):
        """Games with hidden parts: without a ``seed``, every game is dealt from a fresh secret that
        nothing on the screen shows until the game is over; a ``seed`` given here (or typed) starts
        an open game, which the seed alone fixes; ``secret`` fixes the first game's secret (a class
        round). See docs/hidden-information.md. ``class_round`` (``{"code", "advisor"}``, from
        ``classroom.ClassRound.table_settings()``): the game is the class's, and every change of it
        is refused (docs/class-mode.md). ``advise``: see ``advice_now``."""
        self.game_id = resolve_game(game)
        self.cls = get_game_class(self.game_id)
        self.view = load_view(self.cls)
        self.lang = check_lang(lang)
        if options is not None and not isinstance(options, dict):
            raise OptionError(f"options must be a mapping of name to value, got {type(options).__name__}")
        self.options = dict(options or {})
        if players is None:
            players = len(seats) if isinstance(seats, (list, tuple)) else max(2, self.cls.min_players)
            players = min(players, self.cls.max_players)
        self.game = self.cls(players, self.options)  # checks the count and the options
        self.seats = self._check_seats(seats, self.game.num_players)
        self.seed = check_seed(seed) if seed is not None else secrets.randbelow(1_000_000)
        self.hidden = self.game.state_class.resample_hidden is not State.resample_hidden
        self._next_secret = check_seed(secret, "secret") if secret is not None else None
        self.open_game = False  # a given seed: its game's hidden parts follow from the seed alone
        self.advisor_on = bool(advisor)
        self.projector = bool(projector)
        self.spectator = False  # the spectator's view: no hand shown (a choice of its own, not the projector's)
        self.exact = False
        # a host may set ``on_progress(done, total)``: called while the advisor works, each time the
        # share done reaches a new whole percent (at most 101 calls a ranking, however fast the
        # machine). The front-end decides when to show it (its busy note waits a second), so whether
        # a host passes progress on does not depend on how long the ranking takes.
        self.on_progress = None
        self.class_round = dict(class_round) if class_round is not None else None
        self.advise = advise
        self._advice_wait = None  # the position whose advice was asked for and is not back yet
        self._game_no = 0  # counts the games (a late advice is for an earlier one)
        # a running number for every log line and message the table makes (never reset, not even by
        # a new game): the front-end's live region says each one once, whatever the log keeps of it
        self._news = 0
        self._message_n = 0
        self._start(open_game=seed is not None and secret is None)

    # --- settings ----------------------------------------------------------------------------
    def _check_seats(self, seats, n: int) -> list[str]:
        if seats is None:
            return [HUMAN] + [self.view.default_bot] * (n - 1)
        if isinstance(seats, str):
            seats = [HUMAN] + [seats] * (n - 1)
        if not isinstance(seats, (list, tuple)) or len(seats) != n:
            raise OptionError(f"seats lists 'human' or a bot name for each of the {n} seats, got {short(seats)}")
        known = bot_names(self.game_id)
        for s in seats:
            if s != HUMAN and s not in known:
                raise OptionError(f"{self.game_id} has no bot {short(s)}; bots: {', '.join(known)}")
        return list(seats)

    def _start(self, open_game: bool = False) -> None:
        """A fresh game: nothing of the last one is carried over but the settings. In a game with
        hidden parts it is dealt from a fresh secret (never the last deal: a restart that changes
        who sees what must not show one seat what another held), unless ``open_game`` (a typed
        seed) or a secret given to the table (a class round)."""
        bots = {p: s for p, s in enumerate(self.seats) if s != HUMAN}
        self.hidden = self.game.state_class.resample_hidden is not State.resample_hidden
        self.open_game = open_game and self.hidden
        secret = None
        if self.hidden and not self.open_game:
            secret = self._next_secret if self._next_secret is not None else secrets.randbits(64)
        self._next_secret = None
        self.session = PlaySession(self.game, None, None, self.seed, bots=bots, secret=secret)
        self.humans = tuple(p for p, s in enumerate(self.seats) if s == HUMAN)
        self.shown_to = self.humans[0] if self.humans else None  # hot seat: whose screen is shown
        self.ui: dict = {}
        self.log: list[dict] = []  # {"who", "text": {"de", "en"}}
        self.message = None  # {"kind", "text": {"de", "en"}}
        self.step_id = 0
        self.decided = False  # has anyone made a move yet (before that: the set-up)
        self.review_data = None
        self._advice_key = None
        self._advice = None
        self._game_no += 1
        # the set-up's chance events (cards turned up, maps drawn) happen before the first view:
        # there is nothing to watch, so the first screen is the table ready to play, with an empty
        # log (the board shows what the set-up dealt; no log line is made for them)
        for _ in range(MAX_STEPS):
            if self.session.current_player() != CHANCE or not self.pending():
                break
            self.session.step()

    @property
    def message(self) -> dict | None:
        """The message line (``{"kind", "text": {"de", "en"}}``); each new one gets the next number."""
        return self._message

    @message.setter
    def message(self, value: dict | None) -> None:
        self._message = value
        if value is not None:
            self._news += 1
            self._message_n = self._news

    def set_lang(self, lang) -> None:
        self.lang = check_lang(lang)

    @property
    def secret(self) -> int | None:
        return self.session.match.secret

    def new_game(self, seed: int | None = None) -> None:
        """The next game (the next seed), or the game of a typed ``seed``: in a game with hidden
        parts, a typed seed starts an open game (the seed fixes the hidden parts too, as the page
        says), every other new game is dealt in secret."""
        self.seed = check_seed(seed) if seed is not None else (self.seed + 1) % (MAX_SEED + 1)
        self._start(open_game=seed is not None)

    def set_seats(self, seats) -> None:
        self.seats = self._check_seats(seats, self.game.num_players)
        self._start()

    def set_players(self, n) -> None:
        game = self.cls(n, self.options)
        self.game = game
        self.seats = (self.seats + [self.view.default_bot] * n)[:n]
        self._start()

    def set_variant(self, game_id) -> None:
        if game_id not in variants(self.game_id):
            raise OptionError(f"{short(game_id)} is not one of {', '.join(variants(self.game_id))}")
        cls = get_game_class(game_id)
        n = min(max(self.game.num_players, cls.min_players), cls.max_players)
        self.game_id, self.cls = game_id, cls
        self.game = cls(n, {})
        self.options = {}
        known = bot_names(game_id)
        self.seats = [s if s == HUMAN or s in known else self.view.default_bot for s in self.seats][:n]
        self.seats += [self.view.default_bot] * (n - len(self.seats))
        self._start()

    # --- who sees what -----------------------------------------------------------------------
    def viewer(self):
        """The seat whose screen this is: the human to act, else the human last shown; the
        spectator when only bots play, and in the spectator view of a game with hidden parts (the
        projector alone changes only the size of things: a teacher playing a seat sees that seat)."""
        if not self.humans or (self.spectator and self.hidden):
            return SPECTATOR
        p = self.session.whose_turn()
        return p if p in self.humans else self.shown_to

    def covered(self) -> int | None:
        """Hot seat in a game with hidden parts: the human seat the device must be passed to before
        anything of theirs is shown (None: nothing to cover)."""
        if not self.hidden or len(self.humans) < 2 or (self.spectator and self.hidden):
            return None
        p = self.session.whose_turn()
        return p if p in self.humans and p != self.shown_to and not self.is_over() else None

    def _me(self, viewer) -> int | None:
        """The seat that is "Du"/"You" on ``viewer``'s screen (a spectator's: the only human)."""
        return viewer if viewer in self.humans else (self.humans[0] if len(self.humans) == 1 else None)

    def names(self, lang: str, viewer=SPECTATOR) -> list[str]:
        """Every seat's name as ``viewer`` reads it: "Du"/"You" is the viewer's own seat (on a
        spectator's screen: the only human, if one plays)."""
        out = []
        me = self._me(viewer)
        for p, s in enumerate(self.seats):
            if s == HUMAN:
                out.append(word("you", lang) if p == me else word("player_n", lang, n=p + 1))
            else:
                words = {**BOT_WORDS, **self.view.bot_names}.get(s, {"de": s, "en": s})
                out.append(word("bot_n", lang, n=p + 1, name=words[lang]))
        return out

    def context(self, lang: str | None = None, viewer="current") -> Context:
        if viewer == "current":
            viewer = self.viewer()
        legal = self.session.legal_actions() if self.session.current_player() == viewer and self.covered() is None else []
        return Context(self.game, self.session.observation(viewer), viewer, lang or self.lang, legal,
                       self.names(lang or self.lang, viewer), self.ui, self.humans, self.session.state.refusal,
                       self.projector)

    def contexts(self, viewer="current") -> dict:
        """A viewer's context in both languages, from one observation (a log line is kept in both)."""
        ctx = self.context(LANGS[0], viewer)
        return {lang: ctx if lang == ctx.lang else ctx.replace(lang=lang, names=self.names(lang, ctx.viewer))
                for lang in LANGS}

    def log_viewers(self) -> list:
        """Everyone a log line is written for: each human seat (hot seat: each sees only their own
        lines), and the spectator in a game with hidden parts (the spectator view). Without humans:
        the spectator."""
        viewers = list(self.humans)
        if self.hidden or not viewers:
            viewers.append(SPECTATOR)
        return viewers

    def is_over(self) -> bool:
        return self.session.is_over()

    def human_throw_pending(self) -> bool:
        return (self.view.human_throws and self.session.current_player() == CHANCE
                and self.session.chance_player() in self.humans)

    def pending(self) -> bool:
        """Whether a bot move or a chance event is next (the front-end paces them)."""
        p = self.session.current_player()
        if p == TERMINAL:
            return False
        if p == CHANCE:
            return not self.human_throw_pending()
        return self.seats[p] != HUMAN

    # --- moving ------------------------------------------------------------------------------
    def _record(self, who, befores: dict, action, probe) -> bool:
        """Log a move in both languages for every log viewer as they could see it: its text where
        they could tell what it was, else the game's words for a hidden move ("draws a card").
        ``befores``: each viewer's contexts before the move; ``probe``: the state before it (None in
        a game without hidden parts, where everyone sees everything). Returns whether the current
        viewer could see it."""
        texts, seen = {}, {}
        for v, before in befores.items():
            after = self.contexts(v)
            visible = (probe is None or (v is not SPECTATOR and v == who)
                       or action_visible(probe, action, v))
            seen[v] = visible
            texts[_key(v)] = {lang: self.view.explain(before[lang], action, after[lang]) if visible
                              else self.view.hidden_move(after[lang], who) for lang in LANGS}
        self._news += 1
        entry = {"who": who, "texts": texts, "at": len(self.session.match.actions), "n": self._news}
        last = self.log[-1] if self.log else None
        # the same hidden line again ("Bot 2: draws a card"): "… (×3)", not three lines; never a
        # human's own move, so that Undo can drop exactly the lines of what it took back
        if (not all(seen.values()) and who not in self.humans and last is not None
                and last["who"] == who and last["texts"] == texts):
            last["times"] = last.get("times", 1) + 1
            last["at"] = entry["at"]
            last["n"] = entry["n"]  # the line reads differently now ("(×3)"): news again
        else:
            self.log.append(entry)
        del self.log[:-LOG_KEEP]
        self.message = None
        self.ui.clear()
        self.step_id += 1
        return seen.get(self.viewer(), True)

    def step(self) -> bool:
        """One bot move or chance event; False when a human must act (or the game is over). Chance
        events the viewer cannot see (cards dealt to others, what lies under a map's cells) and the
        chance events before anyone has moved run on at once with the chance events after them:
        there is nothing to wait for, so no pacing (each is still logged). A new table has already
        run the set-up's chance events (``_start``)."""
        if not self.pending() and not self.human_throw_pending():
            return False
        for _ in range(MAX_STEPS):
            if not self._step_once() or self.session.current_player() != CHANCE or not self.pending():
                break
        return True

    def _step_once(self) -> bool:
        """One step; whether it was a chance event the viewer could not see or one of the set-up."""
        p = self.session.current_player()
        who = self.session.chance_player() if p == CHANCE else p
        befores = {v: self.contexts(v) for v in self.log_viewers()}
        # what each viewer can tell is decided on the state before the step (a clone of it, as the
        # session moves on); the engine's own step draws the chance outcome or asks the bot
        probe = self.session.state.clone() if self.hidden else None
        action = self.session.step()
        visible = self._record(who, befores, action, probe)
        if p != CHANCE:
            self.decided = True
        return p == CHANCE and (not visible or not self.decided)

    def finish(self) -> int:
        """Run bots and chance events until a human must act; how many steps ran."""
        n = 0
        while n < MAX_STEPS and self.pending():
            self.step()
            n += 1
        return n

    def act(self, action) -> None:
        """A human's move (the viewer's); refused with ``IllegalActionError``, nothing changed."""
        p = self.session.current_player()
        if p not in self.humans:
            raise IllegalActionError("turn order", "it is not your turn", "du bist gerade nicht am Zug", "Reihenfolge")
        self._check_not_covered()
        befores = {v: self.contexts(v) for v in self.log_viewers()}
        probe = self.session.state.clone() if self.hidden else None
        self.session.act(action)
        self.decided = True
        self._record(p, befores, action, probe)

    def _check_not_covered(self) -> None:
        seat = self.covered()
        if seat is not None:
            who = {lang: self.names(lang)[seat] for lang in LANGS}
            raise IllegalActionError("hot seat", f"pass the device to {who['en']} first",
                                     f"erst das Gerät an {who['de']} weitergeben", "Gerät weitergeben")

    def undo(self) -> None:
        """Take back the last human move (``PlaySession.undo``: refused in a game with hidden parts
        once something was revealed since); its log lines go with it, so nothing of what it did or
        showed stays on the screen."""
        refusal = self._class_undo_refusal()
        if refusal is not None:
            raise refusal
        self.session.undo()
        n = len(self.session.match.actions)
        self.log = [e for e in self.log if e["at"] <= n]
        self.ui.clear()
        self.message = None
        self.review_data = None
        self._advice_key = None
        self.step_id += 1

    def _can_undo(self) -> bool:
        # (the class round's refusal first: it is quick, the session's may redraw hidden positions)
        return self._class_undo_refusal() is None and self.session.undo_refusal() is None

    def _class_undo_refusal(self) -> IllegalActionError | None:
        """In a class round Undo takes back only a move after which nothing happened: a throw seen
        and taken back would let a student choose knowing the next throw, and a bot's reply taken
        back would move the bots' generator, so the board's replay would no longer be this game."""
        if self.class_round is None:
            return None
        movers = self.session.match.movers
        if movers and movers[-1] in self.humans:
            return None
        return IllegalActionError("class round", word("class_undo", "en"), word("class_undo", "de"), "Klassenrunde")

    def click(self, token: str) -> None:
        """A click on the board or a button (what a person does); refusals become the message."""
        self.handle({"type": "act", "token": token})

    # --- events from the front-end -----------------------------------------------------------
    def handle(self, event) -> None:
        """Apply one event of the front-end (a dict or its JSON). A bad event is reported in the
        message line and changes nothing. Its JSON is bounded before it is parsed (an event is a
        flat object of a few short fields: at most 10,000 characters, nested at most 8 deep), so a
        hostile one ("[" * 100000) is refused instead of overflowing the parser's stack."""
        from ..core.match import parse_json  # imported here: the rest of this module is the lead's

        if isinstance(event, str):
            try:
                event = parse_json(event, max_chars=10_000, max_depth=8, what="an event")
            except SpieltischError as e:
                self.message = {"kind": "refused", "text": {
                    "en": str(e), "de": f"Ereignis abgelehnt (höchstens 10.000 Zeichen, 8 Ebenen tief, gültiges "
                                        f"JSON): {e}"}}
                return
        try:
            if not isinstance(event, dict):
                raise SpieltischError(f"an event is a mapping, got {type(event).__name__}")
            self._dispatch(event.get("type"), event)
        except IllegalActionError as e:
            self.message = {"kind": "refused", "text": {
                lang: word("refused", lang, detail=e.detail_in(lang), rule=e.rule_in(lang)) for lang in LANGS}}
        except (SpieltischError, ValueError) as e:
            self.message = {"kind": "refused", "text": {lang: str(e) for lang in LANGS}}

    def _dispatch(self, kind, ev: dict) -> None:
        if self.class_round is not None and (
                kind in CLASS_LOCKED or (kind == "advisor" and ev.get("on") and not self.class_round["advisor"])):
            what = "class_no_advisor" if kind == "advisor" else "class_locked"
            raise IllegalActionError("class round", word(what, "en"), word(what, "de"), "Klassenrunde")
        if kind == "act":
            self._on_act(str(ev.get("token", "")))
        elif kind == "step":
            if ev.get("at") in (None, self.step_id):  # a second screen's timer: already stepped
                self.step()
        elif kind == "finish":
            self.finish()
        elif kind == "new":
            self.new_game(_int(ev["seed"], "seed") if ev.get("seed") not in (None, "") else None)
        elif kind == "seed":
            self.new_game(_int(ev.get("seed"), "seed"))
        elif kind == "lang":
            self.set_lang(ev.get("lang"))
        elif kind == "seat":
            seat = _int(ev.get("seat"), "seat")
            if not 0 <= seat < len(self.seats):
                raise OptionError(f"seat is 0 to {len(self.seats) - 1}, not {seat}")
            self.set_seats([ev.get("who") if i == seat else s for i, s in enumerate(self.seats)])
        elif kind == "players":
            self.set_players(_int(ev.get("players"), "players"))
        elif kind == "variant":
            self.set_variant(ev.get("id"))
        elif kind in ("advisor", "exact", "projector", "spectator"):
            setattr(self, {"advisor": "advisor_on"}.get(kind, kind), bool(ev.get("on")))
            if kind == "spectator":  # a chosen card or a "… gewählt" note is the player's, not the spectator's
                self.ui.clear()
                self.message = None
        elif kind == "review":
            self.compute_review()
        elif kind == "undo":
            self.undo()
        elif kind == "cancel":  # Escape: a chosen card or a previewed placement is dropped
            self.ui.clear()
            self.message = None
        elif kind == "reveal":  # hot seat: the next player has the device
            seat = self.covered()
            if seat is not None:
                self.shown_to = seat
                self.message = None
        else:
            raise SpieltischError(f"unknown event {short(kind)}")

    def _on_act(self, token: str) -> None:
        if self.is_over():
            self.message = {"kind": "info", "text": {lang: word("over_click", lang) for lang in LANGS}}
            return
        self._check_not_covered()
        if token == "throw":
            if not self.human_throw_pending():
                raise IllegalActionError("turn order", "there is nothing to throw now",
                                         "gerade gibt es nichts zu würfeln", "Reihenfolge")
            self.step()
            return
        ctx = self.context()
        if token.startswith("opt") and token[3:].isdigit():
            # an option token plays the advisor's choice: only while the advisor is on (a class round
            # or a player who turned it off must not get its best move by naming it)
            if self.class_round is not None and not self.class_round["advisor"]:
                raise IllegalActionError("class round", word("class_no_advisor", "en"), word("class_no_advisor", "de"),
                                         "Klassenrunde")
            if not self.advisor_on:
                raise IllegalActionError("advisor", "the advisor is off: choose a move on the board or a button",
                                         "der Berater ist aus: wähle einen Zug auf dem Brett oder mit einem Knopf",
                                         "Berater")
            advice = self.advice_now()
            if advice is None and self.advice_pending():  # never computed here: the host's loop would wait
                raise IllegalActionError("advisor", word("advice_busy", "en"), word("advice_busy", "de"), "Berater")
            if advice is None or int(token[3:]) >= len(advice[0].options):
                raise IllegalActionError("turn order", "that is not one of your moves now",
                                         "das ist gerade keiner deiner Züge", "Reihenfolge")
            self.act(advice[0].options[int(token[3:])].action)
            return
        result = self.view.click(ctx, token)
        if isinstance(result, dict):  # the click chose something; the view keeps it in ctx.ui
            self.message = {"kind": "info", "text": result}
            return
        self.act(result)

    # --- advice and review -------------------------------------------------------------------
    def advice_now(self):
        """The advisor's ``Advice`` per column for the viewer's decision (None when there is none,
        or while it is being computed elsewhere: ``advice_pending``).

        Without ``advise`` (a Play page's worker, a notebook: nothing else waits) it is computed
        here and now. A host with an event loop to protect (the live class) passes ``advise(job,
        deliver)`` instead: it runs ``job()`` off its loop (a picklable call that rebuilds the game
        and values the options from the mover's observation alone) and calls ``deliver(result)``
        (the advice, or None if it failed) back on its loop; a result for a position the game has
        left is dropped there, and ``deliver`` says whether it was kept (the host then redraws)."""
        ctx = self.context()
        if not ctx.legal:
            return None
        key = self._advice_position(ctx.viewer)
        if self._advice_key != key:
            cols = self.view.advice_columns(self.game)
            if self.advise is not None:
                self._ask_advice(key, ctx.observation, [col["settings"] for col in cols])
                return self._advice if self._advice_key == key else None  # (a host may deliver at once)
            obs = ctx.observation
            self._advice = [self.game.advise(obs, **col["settings"], **self._progress(i, len(cols)))
                            for i, col in enumerate(cols)]
            self._advice_key = key
        return self._advice

    def _advice_position(self, viewer) -> tuple:
        # the step counter too: after an Undo and another move the number of actions is the same again
        return (self._game_no, self.step_id, len(self.session.match.actions), self.game_id, self.seed, self.secret,
                viewer)

    def advice_pending(self) -> bool:
        """Whether the viewer's advice has been asked of the host and is not back yet."""
        ctx = self.context()
        return bool(ctx.legal) and self._advice_wait == self._advice_position(ctx.viewer) != self._advice_key

    def _ask_advice(self, key: tuple, observation, settings: list) -> None:
        if self._advice_wait == key:
            return  # asked already: one job per position
        self._advice_wait = key
        job = partial(compute_advice, self.game_id, self.game.num_players, dict(self.options), observation, settings)

        def deliver(result) -> bool:
            if self._advice_wait == key:
                self._advice_wait = None
            # still the position it was asked for (the mover is part of the key: no other seat reads it)
            if key[:-1] != self._advice_position(None)[:-1]:
                return False
            # a failed job leaves None for the position (said so on the screen), not another job
            self._advice, self._advice_key = result, key
            return True
        self.advise(job, deliver)

    def _progress(self, column: int, columns: int) -> dict:
        """``{"progress": callback}`` for an advisor that reports its progress, when a host listens:
        the host hears of each new whole percent done (over all advice columns)."""
        if self.on_progress is None:
            return {}
        names = advisor_settings(self.game)
        if names is not None and "progress" not in names:
            return {}
        last = [-1]

        def progress(done, total):
            if not total:
                return
            share = (100 * (column * total + done)) // (columns * total)
            if share != last[0]:
                last[0] = share
                self.on_progress(column * total + done, columns * total)
        return {"progress": progress}

    def compute_review(self) -> None:
        if not self.is_over():
            raise IllegalActionError("end of game", "the review comes after the game",
                                     "die Spielanalyse gibt es nach dem Spiel", "Spielende")
        rv = review(self.session.match, players=self.humans or None, **self.view.review_settings(self.game))
        self.review_data = rv

    # --- the screen --------------------------------------------------------------------------
    def state(self) -> dict:
        """Everything the front-end draws, in the table's language (JSON-ready)."""
        lang = self.lang
        cover = self.covered()
        # hot seat: while the device is passed on, the screen is the spectator's (nothing of anyone's)
        ctx = self.context(viewer=SPECTATOR) if cover is not None else self.context()
        over = self.is_over()
        advice = self._advice_state(ctx) if self.advisor_on and cover is None else None
        best_tokens = set()
        buttons = []
        if not over and ctx.legal:
            ready = self.advice_now() if advice else None
            best_actions = [o.action for o in ready[0].options if o.best] if ready else []
            for b in self.view.buttons(ctx):
                if best_actions:
                    probe = ctx.replace(ui=dict(ctx.ui))
                    try:
                        a = self.view.click(probe, b["token"])
                    except SpieltischError:
                        a = None
                    if any(a == x and type(a) is type(x) for x in best_actions):
                        best_tokens.add(b["token"])
                buttons.append({**b, "best": b["token"] in best_tokens})
        if self.human_throw_pending():
            buttons.insert(0, {"token": "throw", "label": self.view.throw_label(ctx), "best": False})
        message = None
        if self.message is not None:
            message = {"kind": self.message["kind"], "text": self.message["text"][lang], "n": self._message_n}
        elif self.log:
            last = self.log[-1]
            message = {"kind": "move", "text": self._line(last, ctx), "n": last["n"]}
        log = [self._line(e, ctx) for e in self.log[:-1]][::-1] if self.log else []
        # the totals come from the state only at the end, when every score is public; during the
        # game the view reads what the viewer's observation shows (a face-down card's points are not)
        scores = self.view.scores(ctx, self.session.state.scores() if over else None)
        game_name = self.cls.name[lang]
        words = dict(_plain_words(lang))
        if self.hidden:
            words["seed_help"] = words["seed_secret_help"]
        howto = self.view.how_to(self.game, lang)
        if howto is not None and self.hidden:
            howto = {**howto, "undo": word("undo_rule", lang)}
        return {
            "lang": lang,
            "projector": self.projector,
            "spectator": self.spectator and self.hidden,
            "can_spectate": self.hidden and bool(self.humans),
            "exact": self.exact,
            "advisor_on": self.advisor_on,
            "title": game_name,
            "words": words,
            "variants": [{"id": g, "label": get_game_class(g).name[lang], "active": g == self.game_id}
                         for g in variants(self.game_id)],
            "seats": [{"seat": p, "name": ctx.names[p], "who": s,
                       "choices": [[HUMAN, word("human", lang)]]
                       + [[b, {**BOT_WORDS, **self.view.bot_names}.get(b, {"de": b, "en": b})[lang]]
                          for b in bot_names(self.game_id)]}
                      for p, s in enumerate(self.seats)],
            "players": {"value": self.game.num_players, "min": self.cls.min_players, "max": self.cls.max_players},
            "seed": self.seed,
            "open_game": word("open_game", lang) if self.open_game else None,
            # the secret (a game with hidden parts) is told only with the end of the game
            "secret": self.secret if over else None,
            "cover": None if cover is None else {
                "seat": cover, "text": word("pass_device", lang, who=ctx.names[cover]),
                "help": word("pass_help", lang, who=ctx.names[cover]),
                "button": word("pass_ready", lang, who=ctx.names[cover])},
            "status": "" if over else self.view.status(ctx, self.session.whose_turn()),
            "board": self.view.board(ctx),
            "buttons": buttons,
            "message": message,
            "log": log,
            # the viewer's lines with their running numbers, newest first: what the live region says
            "news": [[e["n"], self._line(e, ctx)] for e in self.log[::-1]],
            # whether the viewer has a decision: only then are the board's parts buttons
            "decide": bool(ctx.legal) and not over and cover is None,
            "scores": scores,
            "extra": self.view.extra(ctx),
            "advice": advice,
            "banner": self._banner(ctx) if over else None,
            "review": self._review_state(ctx) if over else None,
            "howto": howto,
            "pending": self.pending(),
            "step": self.step_id,
            "delay_ms": round(self.view.bot_delay * 1000),
            "can_undo": cover is None and self._can_undo(),
            "class_round": None if self.class_round is None else {
                "code": self.class_round["code"], "advisor": self.class_round["advisor"],
                "text": word("class_note", lang, code=self.class_round["code"])},
            "reconstruction": self.view.reconstructed(self.game),
        }

    def _line(self, entry: dict, ctx: Context) -> str:
        who = entry["who"]
        # each viewer reads the line as they could see it (a game without hidden parts writes one
        # text for everyone: any viewer's is right, up to who is "you")
        texts = entry["texts"]
        text = (texts.get(_key(ctx.viewer)) or next(iter(texts.values())))[ctx.lang]
        if entry.get("times", 1) > 1:
            text = f"{text} (×{entry['times']})"
        return f"{ctx.names[who]}: {text}" if isinstance(who, int) and who >= 0 else text

    def _banner(self, ctx: Context) -> dict:
        scores = self.session.state.scores()
        winners = self.session.state.winners()
        lang = ctx.lang
        who = word("and", lang).join(ctx.names[p] for p in winners)
        pts = str(scores[winners[0]]).replace("-", "−")
        if len(winners) > 1:
            text = word("winners", lang, who=who, pts=pts)
        elif ctx.names[winners[0]] == word("you", lang):
            text = word("you_won", lang, pts=pts)
        else:
            text = word("winner", lang, who=who, pts=pts)
        extra = self.view.final_words(ctx, scores, winners)
        if extra:
            text = extra if len(scores) == 1 else f"{text} {extra}"
        me = self._me(ctx.viewer)
        if me is not None and len(scores) > 1 and me not in winners:
            # your own result, not only the winner's: the place counts everyone ahead (a tie-break
            # that made another the winner puts them ahead too)
            place = 1 + sum(1 for p, v in enumerate(scores) if v > scores[me] or (v == scores[me] and p in winners))
            text = f"{text} " + word("your_result", lang, pts=str(scores[me]).replace("-", "−"), place=place,
                                     n=len(scores))
        if self.class_round is not None and self.class_round.get("result_code"):  # say where the code is
            text = f"{text} " + word("class_result_code", lang)
        return {"title": word("game_over", lang), "text": text,
                "winners": winners, "you_won": bool(set(winners) & set(self.humans))}

    def _fmt(self, value, col: dict, lang: str) -> dict:
        if isinstance(value, Estimate):
            half = (value.hi - value.lo) / 2
            return {"text": f"{num(value.mean, lang)} ± {num(half, lang)}", "pct": None, "exact": None,
                    "sort": value.mean}
        f = Fraction(value)
        exact = f"{f.numerator}/{f.denominator}" if f.denominator != 1 else str(f.numerator)
        exact = exact.replace("-", "−")
        short_form = None
        if len(exact) > LONG_FRACTION:  # 20-28 digits say nothing at a glance: their start and length
            top, _, bottom = exact.partition("/")
            n = sum(ch.isdigit() for ch in exact)
            short_form = f"{top[:5]}…/{bottom[:5]}… ({word('digits', lang, n=n)})" if bottom else f"{top[:8]}… ({word('digits', lang, n=n)})"
        if col["kind"] == "probability":
            pct = round(float(f) * 100)
            text = f"{pct} %" if lang == "de" else f"{pct}%"
            return {"text": text, "pct": float(f), "exact": exact, "exact_short": short_form, "sort": float(f)}
        x = float(f)
        if x < 0 and num(-x, lang) != num(0, lang):  # not "0,00 penalty points"
            text = f"{num(-x, lang)} {word('minus', lang)}"
        else:
            text = f"{num(x, lang)} {col['unit'][lang]}"
        return {"text": text, "pct": None, "exact": exact, "exact_short": short_form, "sort": x}

    def _advice_state(self, ctx: Context) -> dict:
        lang = ctx.lang
        advs = self.advice_now()
        if advs is None:
            # being computed off the host's loop; failed there; or nothing to decide
            note = ("advice_wait" if self.advice_pending() else
                    "advice_failed" if ctx.legal and self._advice_key == self._advice_position(ctx.viewer) else
                    "advice_none")
            return {"title": word("advice_title", lang), "note": word(note, lang), "columns": [], "rows": [],
                    "pending": note == "advice_wait"}
        cols = self.view.advice_columns(self.game)
        rows = []
        for i, o in enumerate(advs[0].options):
            cells = []
            for col, adv in zip(cols, advs):
                opt = adv.option_for(o.action)
                cells.append({**self._fmt(opt.value, col, lang), "best": opt.best})
            note = o.note[lang] if self.view.advice_notes and o.note else None
            rows.append({"token": f"opt{i}", "label": self.view.option_label(ctx, o.action), "best": o.best,
                         "cells": cells, "note": note})
        ties = sum(o.best for o in advs[0].options) > 1
        fold = max(FOLD_AFTER, sum(o.best for o in advs[0].options))
        return {"title": word("advice_title", lang), "columns": [c["title"][lang] for c in cols], "rows": rows,
                "fold": fold, "more": word("more_options", lang, n=len(rows) - fold) if len(rows) > fold else None,
                "note": advs[0].method[lang], "legend": word("ties" if ties else "best", lang),
                "play_this": word("play_this", lang)}

    def _review_state(self, ctx: Context) -> dict:
        lang = ctx.lang
        out = {"title": word("review", lang), "button": word("review_button", lang), "ready": False}
        rv = self.review_data
        if rv is None:
            return out
        bars = [{"label": str(d.round if d.round is not None else d.index), "loss": float(d.loss),
                 "best": bool(d.chosen.best), "who": ctx.names[d.player], "seat": d.player,
                 "move": d.chosen.label[lang] if isinstance(d.chosen.label, dict) else str(d.chosen.action)}
                for d in rv.decisions]
        # the losses are in the advisor's unit (its first column's: points, or a game's own)
        unit = self.view.advice_columns(self.game)[0]["unit"][lang]
        lines = [word("review_line", lang, who=ctx.names[s.player], best=s.among_best, n=s.decisions,
                      loss=num(float(s.loss), lang), unit=unit) for s in rv.summary() if s.decisions]
        return {**out, "ready": True, "bars": bars, "lines": lines, "axis": word("review_axis", lang, unit=unit)}

    def state_json(self) -> str:
        return json.dumps(self.state(), ensure_ascii=False)


@lru_cache(maxsize=None)
def _plain_words(lang: str) -> tuple:
    """The front-end's words without a blank to fill, in ``lang`` (the same for every screen)."""
    return tuple((k, word(k, lang)) for k in WORDS if "{" not in WORDS[k][0])


def _key(viewer) -> str:
    """A log line's key for ``viewer``: the seat's number, "s" for the spectator."""
    return "s" if viewer is SPECTATOR else str(viewer)


def _int(value, what: str) -> int:
    if isinstance(value, bool):
        raise OptionError(f"{what} must be a whole number, got {short(value)}")
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 20:
        value = int(value.strip())
    if not isinstance(value, int):
        raise OptionError(f"{what} must be a whole number, got {short(value)}")
    return value


def compute_advice(game_id: str, players: int, options: dict, observation, settings: list) -> list:
    """The advisor's ``Advice`` per column (``settings``: each column's) for a decision, from the
    mover's observation alone: what a host runs off its loop (``Table.advise``), in another process.
    The game is rebuilt from its id, player count and options; nothing of another seat goes in."""
    game = get_game_class(game_id)(players, options)
    return [game.advise(observation, **each) for each in settings]
