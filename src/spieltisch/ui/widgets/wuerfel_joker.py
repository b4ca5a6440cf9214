"""Würfel Joker play widget (ipywidgets, pure Python, so it runs in JupyterLite's Pyodide kernel).

One app for both games: Spiel 1 (three dice, slides 1-6 and three jokers) and Spiel 2 (two dice,
slides 1-9). Seat 0 is the human; the other seats are bots that play visibly, one step at a time
(with a short async delay where an event loop runs, e.g. in the browser; otherwise on a button).
With two or more players the game opens with the start throws: everyone throws, the highest sum
begins (ties throw again), so a bot may well begin.

The widget never decides a rule: every button stands for one legal engine action
(``state.legal_actions()``), what it shows is read from the human's observation and drawn by the
game's view (``games.wuerfel_joker.view``), the advisor is ``game.advise(observation)``, and the
texts explain what the engine did. Methods ``click_*`` press the same buttons a person presses (used
by the tests).
"""

from __future__ import annotations

import asyncio
import random
from fractions import Fraction
from html import escape

import ipywidgets as W

from ...core.errors import IllegalActionError, OptionError, short
from ...core.game import CHANCE, TERMINAL
from ...core.registry import bot_names, get_game_class
from ...core.rng import check_seed
from ...games.wuerfel_joker import view
from ...games.wuerfel_joker.spiel1 import engine as S1
from ...games.wuerfel_joker.spiel2 import engine as S2
from ..session import PlaySession
from .common import BOT_DELAY, SHOWN, check_bot, check_delay, check_game, check_lang, \
    language_toggle, log_html, next_seed, schedule, score_table_html

GAME1, GAME2 = "wuerfel-joker-1", "wuerfel-joker-2"
GAMES = (GAME1, GAME2)
GAME_ALIASES = {"1": GAME1, "spiel1": GAME1, "2": GAME2, "spiel2": GAME2}
COL = 86  # px per slide column: the slide picture with its push button underneath
SLIDE_W, SLIDE_H = 40, 90

# Every visible text, German and English.
L = {
    "title": ("Würfel Joker", "Würfel Joker"),
    "game1": ("Spiel 1 (1–6 + Joker)", "Game 1 (1–6 + jokers)"),
    "game2": ("Spiel 2 (1–9)", "Game 2 (1–9)"),
    "throw": ("Würfeln", "Throw"),
    "throw_start": ("Anfangswurf", "Start throw"),
    "throw_n": ("Würfeln ({n} Würfel)", "Throw ({n} dice)"),
    "roll": ("Weiterwürfeln", "Throw again"),
    "roll_n": ("Weiterwürfeln ({n} Würfel)", "Throw again ({n} dice)"),
    "joker_roll": ("Joker-Wurf ({n} Würfel)", "Joker throw ({n} dice)"),
    "stop": ("Aufhören", "Stop"),
    "stop_pts": ("Aufhören ({pts})", "Stop ({pts})"),
    "decline": ("Pasch verzichten, neu würfeln", "Decline doubles, throw again"),
    "accept": ("Pasch annehmen ({pts})", "Accept the doubles ({pts})"),
    "jokers": ("In die Joker (Basis {base})", "Into the jokers (base {base})"),
    "bot_step": ("Bot: nächster Schritt", "Bot: next step"),
    "bot_finish": ("Bots: Zug zu Ende", "Bots: finish turn"),
    "new": ("Neues Spiel", "New game"),
    "advisor": ("Berater", "Advisor"),
    "you": ("Du", "You"),
    "bot": ("Bot {i} ({name})", "Bot {i} ({name})"),
    "round": ("Runde", "Round"),
    "total": ("Summe", "Total"),
    "status": ("Runde {r}/{R} · am Zug: {who}", "Round {r}/{R} · to play: {who}"),
    "over": ("Spielende", "Game over"),
    "winner": ("Spielende – gewonnen hat: {who}", "Game over – winner: {who}"),
    "start": ("Klicke „Würfeln“.", "Click “Throw”."),
    "start_n": ("Anfangswurf: Wer die höchste Augenzahl würfelt, beginnt. Klicke „Anfangswurf“.",
                "Start throw: the highest sum begins. Click “Start throw”."),
    "status_start": ("Anfangswurf · wirft: {who}", "Start throw · throwing: {who}"),
    "your_start": ("Dein Anfangswurf: würfeln.", "Your start throw: throw."),
    "t0_throw": ("Anfangswurf {dice} = {sum}.", "Start throw {dice} = {sum}."),
    "t0_begins": (" {who} beginnt.", " {who} begins."),
    "t0_tie": (" Gleichstand bei {sum}: {who} werfen noch einmal.", " A tie at {sum}: {who} throw again."),
    "and": (" und ", " and "),
    "your_turn": ("Du bist dran: würfeln.", "Your turn: throw."),
    "wait_bot": ("Bot am Zug – „Bot: nächster Schritt“ klicken.", "A bot is playing – click “Bot: next step”."),
    "bot_running": ("Bot spielt …", "Bot is playing …"),
    "not_now": ("Das geht gerade nicht.", "That is not possible now."),
    "illegal": ("Nicht erlaubt: {why}", "Not allowed: {why}"),
    # Spiel 2 events
    "t2_throw": ("Wurf {a}+{b}: schiebbar {opts}.", "Throw {a}+{b}: can push {opts}."),
    "t2_pasch": (" Pasch – du darfst auch verzichten.", " Doubles – you may also decline."),
    "t2_dbust": ("Pasch {a}+{b}: nichts schiebbar – neu würfeln oder annehmen.",
                 "Doubles {a}+{b}: nothing to push – throw again or accept."),
    "t2_bust": ("Wurf {a}+{b}: nichts schiebbar! Minus = {calc} = {pts}.",
                "Throw {a}+{b}: nothing to push! Minus = {calc} = {pts}."),
    "t2_push": ("Schieber {v} hoch ({how}). Unten noch: {down}.", "Slide {v} up ({how}). Still down: {down}."),
    "t2_allup": ("Schieber {v} hoch ({how}) – alle neun oben: +45!", "Slide {v} up ({how}) – all nine up: +45!"),
    "t2_stop": ("Aufgehört: Minus = {calc} = {pts}.", "Stopped: minus = {calc} = {pts}."),
    "t2_decline": ("Auf den Pasch verzichtet.", "Doubles declined."),
    "t2_accept": ("Pasch angenommen: Minus = {calc} = {pts}.", "Doubles accepted: minus = {calc} = {pts}."),
    "t2_roll": ("Weiterwürfeln.", "Throwing again."),
    "nothing": ("nichts", "nothing"),
    # Spiel 1 events
    "t1_throw": ("Wurf {dice}: welche Schieber?", "Throw {dice}: which slides?"),
    "t1_lost": ("Wurf {dice}: kein Würfel setzbar – alles verloren (0).",
                "Throw {dice}: no die can be set – everything is lost (0)."),
    "t1_assign": ("{what}; {keep} im Spiel.", "{what}; {keep} in play."),
    "t1_row": (" Kombination: {row} = {pts}.", " Combination: {row} = {pts}."),
    "t1_stop": ("Aufgehört: {row} = {pts} Punkte.", "Stopped: {row} = {pts} points."),
    "t1_stop0": ("Aufgehört ohne Kombination: 0 Punkte.", "Stopped without a combination: 0 points."),
    "t1_jstop": ("Aufgehört in den Jokern: {row} mit {j} Joker = {pts} Punkte.",
                 "Stopped in the jokers: {row} with {j} jokers = {pts} points."),
    "t1_jokers": ("In die Joker mit {row} (Basis {base}) – kein Zurück!",
                  "Into the jokers with {row} (base {base}) – no way back!"),
    "t1_again": ("Weiterwürfeln.", "Throwing again."),
    "t1_jones": ("Joker-Wurf {dice}: {k}× die 1 → Joker {j}/3, Wert jetzt {pts}.",
                 "Joker throw {dice}: {k}× a 1 → jokers {j}/3, now worth {pts}."),
    "t1_jall": ("Joker-Wurf {dice}: alle drei Joker! {base} × 8 = {pts}.",
                "Joker throw {dice}: all three jokers! {base} × 8 = {pts}."),
    "t1_jsix": ("Joker-Wurf {dice}: keine 1, aber eine 6 – aufhören ({pts}) oder mit einem Würfel weiter.",
                "Joker throw {dice}: no 1 but a 6 – stop ({pts}) or go on with one die."),
    "t1_jlost": ("Joker-Wurf {dice}: weder 1 noch 6 – alles verloren (0).",
                 "Joker throw {dice}: neither a 1 nor a 6 – everything is lost (0)."),
    "keep1": ("1 Würfel", "1 die"),
    "keepn": ("{n} Würfel", "{n} dice"),
    "push_nothing": ("nichts schieben", "push nothing"),
    "pushes": ("schiebe {s}", "push {s}"),
    "stays6": ("6 bleibt", "6 stays"),
    "stays6n": ("{n}×6 bleiben", "{n}×6 stay"),
    "eliminated": ("{n} Würfel scheidet aus", "{n} die out"),
    "eliminatedn": ("{n} Würfel scheiden aus", "{n} dice out"),
    "jokers_caption": ("Joker: {j}/3 gewürfelt", "Jokers: {j}/3 thrown"),
    "jokers_caption_off": ("Joker (oben = in den Jokern)", "Jokers (up = in the jokers)"),
    "recon": ("Rekonstruktion / reconstruction", "Rekonstruktion / reconstruction"),
    "table_title": ("Tabelle (Spielblock)", "Table (score pad)"),
    "row_col": ("Kombination", "Combination"),
    "slides_col": ("Schieber", "Slides"),
    "exact_yes": ("genau", "exact"),
    "exact_no": ("mindestens", "at least"),
    "jokers_n": ("{n} J", "{n} J"),
    # advisor
    "adv_title": ("Berater: exakte Erwartungswerte", "Advisor: exact expected values"),
    "adv_option": ("Möglichkeit", "Option"),
    "adv_exact": ("Erwartungswert (exakt)", "Expected value (exact)"),
    "adv_dec": ("dezimal", "decimal"),
    "adv_allup": ("P(alle 9)", "P(all 9)"),
    "adv_best": ("★ = bester Erwartungswert", "★ = best expected value"),
    "adv_best_up": ("◆ = beste Chance auf alle 9", "◆ = best chance of all 9"),
    "adv_throw": ("Vor dem Wurf: Erwartungswert des Zuges {v} ≈ {d}",
                  "Before the throw: expected value of the turn {v} ≈ {d}"),
    "adv_throw_up": (", P(alle 9) ≈ {p}", ", P(all 9) ≈ {p}"),
    "adv_none": ("Gerade keine Entscheidung.", "No decision right now."),
    "adv_start": ("Anfangswurf: hier gibt es nichts zu entscheiden.", "Start throw: nothing to decide here."),
    "adv_note": ("Werte = erwartete Punkte dieses Zuges bei bestem Weiterspielen.",
                 "Values = expected points of this turn with best play from here."),
}

PLAYER_DE = {"optimal": "optimal", "threshold": "vorsichtig", "random": "zufällig",
             "optimal_all_up": "optimal auf alle 9"}


def _expr(formation: str) -> str:
    """The arithmetic of an engine formation text: "6+2 = 8" -> "6+2", "3 (Pasch)" -> "Pasch"."""
    return "Pasch" if formation.endswith("(Pasch)") else formation.split(" = ")[0]


def _fmt_frac(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _signed(n) -> str:
    """Points with a sign and a real minus: +45, −12, 0."""
    return f"{n:+d}".replace("-", "−") if n else "0"


class WuerfelJokerApp:
    """Play Würfel Joker (Spiel 1 or 2) against bots, with an exact advisor.

    ``players``: 1-8 (seat 0 is the human). ``bots``: ``"optimal"``, ``"threshold"`` or ``"random"``
    for every seat but the first (``"optimal_all_up"`` too in Spiel 2; a game that does not know the
    name plays ``"optimal"``). ``seed``: the dice (and bot) seed, 0 to 2**64-1; ``None`` picks one.
    ``options``: engine options of either game; each is checked by the game that knows it and used
    there (so the game toggle can switch), a name neither game knows is refused. Everything is
    checked before anything is built: bad settings raise ``OptionError``/``SpieltischError``.
    """

    def __init__(self, game: str = GAME2, players: int = 2, bots: str = "optimal", lang: str = "de",
                 seed: int | None = None, options: dict | None = None, bot_delay: float = BOT_DELAY,
                 auto_bots: bool = True):
        if type(game) is int and game in (1, 2):
            game = GAMES[game - 1]
        elif isinstance(game, str):
            game = GAME_ALIASES.get(game, game)
        if not isinstance(game, str) or game not in GAMES:
            raise OptionError(f"game must be {GAME1!r} or {GAME2!r}, got {short(game)}")
        self.game_id = game
        self.lang = check_lang(lang)
        self._games = self._check_games(players, options)
        self.players = players
        self.bot_name = check_bot(game, bots)
        self.seed = random.randrange(2**31) if seed is None else check_seed(seed)
        self.options = dict(options or {})
        self.bot_delay = check_delay(bot_delay)
        if not isinstance(auto_bots, bool):
            raise OptionError(f"auto_bots must be True or False, got {short(auto_bots)}")
        self.auto_bots = auto_bots
        self._gen = 0  # bumped on every new game: a running bot task of an old game stops
        self._bot_task = False
        self._syncing = False
        self.messages: list[str] = []
        self.results: list[tuple] = []  # finished turns: (round, player, points)
        self._build()
        self.new_game()

    def _check_games(self, players, options) -> dict:
        """Both games configured (the toggle switches between them), the chosen one first so that
        its refusal is the one shown; every option must be known to one of them."""
        given = options if options is not None else {}
        if not isinstance(given, dict):
            raise OptionError(f"options must be a mapping of name to value, got {type(given).__name__}")
        names = {g: {s.name for s in get_game_class(g).option_specs} for g in GAMES}
        games = {}
        for g in sorted(GAMES, key=lambda g: g != self.game_id):
            games[g] = check_game(g, players, {k: v for k, v in given.items() if k in names[g]})
        for k in given:
            if not any(k in names[g] for g in GAMES):
                known = ", ".join(sorted(names[GAME1] | names[GAME2]))
                raise OptionError(f"Würfel Joker has no option {short(k)} (known options: {known})")
        return games

    def _bot_for(self, game_id: str) -> str:
        return self.bot_name if self.bot_name in bot_names(game_id) else "optimal"

    # --- construction ----------------------------------------------------------------------------
    def _build(self):
        self.title = W.HTML()
        self.game_toggle = W.ToggleButtons(options=[("Spiel 1", GAME1), ("Spiel 2", GAME2)],
                                           value=self.game_id, style={"button_width": "190px"})
        self.game_toggle.add_class("sp-game")
        self.game_toggle.observe(self._on_game, names="value")
        self.lang_toggle = language_toggle(self.lang)
        self.lang_toggle.add_class("sp-lang")
        self.lang_toggle.observe(self._on_lang, names="value")
        self.new_button = self._button("sp-new", self._on_new)
        self.status = W.HTML()
        self.status.add_class("sp-status")
        self.dice_html = W.HTML()
        self.dice_html.add_class("sp-dice")
        self.board = W.GridBox(layout=W.Layout(grid_gap="4px 2px", align_items="center"))
        self.board.add_class("sp-slides")
        self.assign_box = W.HBox(layout=W.Layout(flex_flow="row wrap", grid_gap="4px"))
        self.assign_box.add_class("sp-assign-row")
        self.throw_button = self._button("sp-throw", self._on_throw, style="primary")
        self.stop_button = self._button("sp-stop", self._on_stop, style="warning")
        self.decline_button = self._button("sp-decline", self._on_decline)
        self.accept_button = self._button("sp-accept", self._on_accept)
        self.jokers_button = self._button("sp-jokers", self._on_jokers, style="info")
        self.bot_step_button = self._button("sp-bot-step", self._on_bot_step)
        self.bot_finish_button = self._button("sp-bot-finish", self._on_bot_finish)
        self.advisor_toggle = W.ToggleButton(value=False, icon="lightbulb-o")
        self.advisor_toggle.add_class("sp-advisor-toggle")
        self.advisor_toggle.observe(lambda ch: self._render(), names="value")
        self.message = W.HTML()
        self.message.add_class("sp-message")
        self.log_view = W.HTML()
        self.log_view.add_class("sp-log")
        self.advisor = W.HTML()
        self.advisor.add_class("sp-advisor")
        self.score = W.HTML()
        self.score.add_class("sp-score")
        self.table_html = W.HTML()
        self.table_html.add_class("sp-table")
        controls = W.HBox([self.throw_button, self.stop_button, self.decline_button, self.accept_button,
                           self.jokers_button], layout=W.Layout(flex_flow="row wrap"))
        bot_row = W.HBox([self.bot_step_button, self.bot_finish_button, self.advisor_toggle])
        left = W.VBox([self.status, self.dice_html, self.board, self.assign_box, controls, self.message,
                       bot_row, self.advisor])
        # a fixed width with wrapping log lines: a long line must not push the table below the board
        self.log_view.layout = W.Layout(width="300px", overflow="hidden")
        right = W.VBox([self.score, self.table_html, self.log_view],
                       layout=W.Layout(margin="0 0 0 16px", width="320px"))
        header = W.HBox([self.title, self.game_toggle, self.lang_toggle, self.new_button],
                        layout=W.Layout(align_items="center", flex_flow="row wrap", grid_gap="8px"))
        self.root = W.VBox([header, W.HBox([left, right], layout=W.Layout(flex_flow="row wrap"))])
        self.root.add_class("sp-wuerfel-joker")
        self.slide_html: dict = {}
        self.all_push_buttons: dict = {}
        self.assign_buttons: list = []

    def _button(self, css, handler, style=""):
        b = W.Button(button_style=style, layout=W.Layout(width="auto", margin="2px"))
        b.add_class(css)
        b.on_click(lambda btn: self._guarded(btn, handler))
        return b

    def _build_board(self):
        """Slide pictures (one HTML per slide) with the push buttons underneath (Spiel 2)."""
        self.slide_html = {}
        self.all_push_buttons = {}
        cells = []
        if self.game_id == GAME2:
            labels = list(range(1, 10))
        else:
            labels = [1, 2, 3, 4, 5, 6, "J1", "J2", "J3"]
        for lab in labels:
            h = W.HTML(layout=W.Layout(width=f"{COL}px"))
            h.add_class("sp-slide")
            h.add_class(f"sp-slide-{lab}")
            self.slide_html[lab] = h
            cells.append(h)
        if self.game_id == GAME2:
            for v in labels:
                b = W.Button(layout=W.Layout(width=f"{COL - 2}px", margin="0"),
                             style={"font_size": "12px"})
                b.add_class("sp-push")
                b.add_class(f"sp-push-{v}")
                b.on_click(lambda btn, v=v: self._guarded(btn, lambda: self._act(S2.PUSH[v])))
                self.all_push_buttons[v] = b
                cells.append(b)
        self.board.layout.grid_template_columns = f"repeat({len(labels)}, {COL}px)"
        self.board.children = cells

    def _repr_mimebundle_(self, **kwargs):
        return self.root._repr_mimebundle_(**kwargs)

    # --- small helpers ---------------------------------------------------------------------------
    def _t(self, key, **kw):
        de, en = L[key]
        text = de if self.lang == "de" else en
        return text.format(**kw) if kw else text

    @property
    def state(self):
        return self.session.state

    @property
    def game(self):
        return self.session.game

    def observation(self) -> dict:
        """What the human (seat 0) sees: everything the widget shows comes from here."""
        return self.session.observation(0)

    @property
    def push_buttons(self) -> dict:
        """The push buttons that are offered now (legal and enabled), by slide value."""
        return {v: b for v, b in self.all_push_buttons.items() if not b.disabled and b.layout.visibility != "hidden"}

    def player_name(self, p: int) -> str:
        if p == 0:
            return self._t("you")
        bot = self.session.bot_names[p]
        name = bot if self.lang == "en" else PLAYER_DE.get(bot, bot)
        return self._t("bot", i=p + 1, name=name)

    def _human_to_throw(self) -> bool:
        thrower = self.session.chance_player()
        return thrower is not None and thrower not in self.session.bots

    def bot_pending(self) -> bool:
        """True if a bot (or a bot's throw) is to move."""
        cp = self.session.current_player()
        if cp == TERMINAL:
            return False
        if cp == CHANCE:
            return self.session.chance_player() in self.session.bots
        return cp in self.session.bots

    def _human_legal(self) -> list:
        return self.session.legal_actions()

    # --- game lifecycle --------------------------------------------------------------------------
    def new_game(self, seed: int | None = None):
        """A fresh game of the chosen game with ``seed`` (default: the current seed). A bad seed is
        refused before anything changes."""
        seed = self.seed if seed is None else check_seed(seed)
        bots = {seat: self._bot_for(self.game_id) for seat in range(1, self.players)}
        session = PlaySession(self._games[self.game_id], None, None, seed, bots)
        self.seed = seed
        self._gen += 1
        self._bot_task = False
        self.session = session
        self.messages = []
        self.results = []
        self._build_board()
        self._say(self._t("start_n" if self.players > 1 else "start"))
        self._render()
        self._kick_bots()

    def _on_new(self):
        self.new_game(next_seed(self.seed))

    def _on_game(self, change):
        if not self._syncing and change["new"] is not None and change["new"] != self.game_id:
            self.game_id = change["new"]
            self.new_game()

    def _on_lang(self, change):
        self.lang = change["new"]
        self._render()

    def set_lang(self, lang: str):
        self.lang_toggle.value = lang

    def switch_game(self, game: str):
        self.game_toggle.value = game

    # --- acting ----------------------------------------------------------------------------------
    def _guarded(self, button, handler):
        """A click on a disabled or hidden button does nothing (a browser would not send it)."""
        if button.disabled or button.layout.visibility == "hidden" or button.layout.display == "none":
            return
        handler()

    def _apply(self, action, who: int):
        """Apply one action (player's or chance) and explain it. Illegal ones change nothing."""
        before = self.observation()
        if action is None:  # the pending chance event
            action = self.session.match.step_chance()
            self.session.log.append((CHANCE, str(action)))
        else:
            self.session.act(action)
        self._explain(before, action, who)
        return action

    def _act(self, action):
        """The human plays ``action``; decisions that lead to a throw throw at once."""
        if not self.session.waiting_for_human():
            self._say(self._t("not_now"))
            self._render()
            return
        try:
            self._apply(action, self.session.current_player())
        except IllegalActionError as e:
            self._say(self._t("illegal", why=e.message(self.lang)))
            self._render()
            return
        if self._human_to_throw() and self.observation()["phase"] != "start":
            self._apply(None, self.session.chance_player())
        self._render()
        self._kick_bots()

    def _on_throw(self):
        if self._human_to_throw():
            self._apply(None, self.session.chance_player())
            self._render()
            self._kick_bots()
            return
        again = S2.ROLL if self.game_id == GAME2 else S1.THROW_AGAIN
        if again in self._human_legal():
            self._act(again)

    def _on_stop(self):
        stop = S2.STOP if self.game_id == GAME2 else S1.STOP
        self._act(stop)

    def _on_decline(self):
        self._act(S2.DECLINE)

    def _on_accept(self):
        self._act(S2.ACCEPT)

    def _on_jokers(self):
        self._act(S1.JOKERS)

    def _on_bot_step(self):
        self.bot_step()
        self._render()

    def _on_bot_finish(self):
        self.finish_bots()

    def bot_step(self):
        """One bot step (a bot's throw or decision); returns the action or None."""
        if not self.bot_pending():
            return None
        cp = self.session.current_player()
        who = self.session.chance_player() if cp == CHANCE else cp
        before = self.observation()
        action = self.session.step()
        self._explain(before, action, who)
        return action

    def finish_bots(self, max_steps: int = 10_000):
        """Let the bots play until the human must act (or the game ends)."""
        self._gen += 1  # a running async task stops
        self._bot_task = False
        for _ in range(max_steps):
            if self.bot_step() is None:
                break
        self._render()

    def _kick_bots(self):
        """In a running event loop, play the bots step by step with a short pause."""
        if not self.auto_bots or self._bot_task or not self.bot_pending():
            return
        gen = self._gen

        async def run():
            try:
                while self._gen == gen and self.bot_pending():
                    await asyncio.sleep(self.bot_delay)
                    if self._gen != gen:
                        return
                    self.bot_step()
                    self._render()
            finally:
                if self._gen == gen:
                    self._bot_task = False
                    self._render()

        self._bot_task = True
        if not schedule(run):
            self._bot_task = False
        self._render()

    # --- methods for tests and notebooks (they press the same buttons) -----------------------------
    def click_throw(self):
        self.throw_button.click()

    def click_stop(self):
        self.stop_button.click()

    def click_decline(self):
        self.decline_button.click()

    def click_accept(self):
        self.accept_button.click()

    def click_jokers(self):
        self.jokers_button.click()

    def click_push(self, value: int):
        self.all_push_buttons[value].click()

    def click_assign(self, index: int = 0):
        self.assign_buttons[index].click()

    def click_bot_step(self):
        self.bot_step_button.click()

    def click_bot_finish(self):
        self.bot_finish_button.click()

    # --- explanations ----------------------------------------------------------------------------
    def _say(self, text: str, who: int | None = None):
        prefix = f"{self.player_name(who)}: " if who is not None else ""
        self.messages.append(prefix + text)

    def _explain(self, before: dict, action, who):
        """Say what ``action`` did, from the human's observations before and after it."""
        after = self.observation()
        ended = None
        t = after["last_turn"]
        if t is not None and t != before["last_turn"]:
            ended = (t["round"], t["player"], t["score"])
            self.results.append(ended)
        if before["phase"] == "start":
            text = self._explain_start(before, action, after)
        elif self.game_id == GAME2:
            text = self._explain2(before, action, after, ended)
        else:
            text = self._explain1(before, action, after, ended)
        self._say(text, who)

    def _explain_start(self, before: dict, action, after: dict) -> str:
        dice = action.values if isinstance(action, S1.StartDice) else (action.a, action.b)
        text = self._t("t0_throw", dice="+".join(map(str, dice)), sum=sum(dice))
        if after["starter"] is not None:
            return text + self._t("t0_begins", who=self.player_name(after["starter"]))
        if len(before["start_throwers"]) == 1:  # the last throw of a start round, and still no starter
            last = after["start_throws"][-1]["round"]
            top = max(t["sum"] for t in after["start_throws"] if t["round"] == last)
            who = self._t("and").join(self.player_name(p) for p in after["start_throwers"])
            return text + self._t("t0_tie", sum=top, who=who)
        return text

    def _explain2(self, before, action, after, ended):
        m = before["mask"]
        five_ops = self.game.options["five_ops"]
        if isinstance(action, S2.Throw):
            a, b = action.a, action.b
            if ended is not None:
                pts, calc = S2.bust_formula(m, a, b)
                return self._t("t2_bust", a=a, b=b, calc=calc, pts=_signed(pts))
            if after["phase"] == S2.DOUBLES_BUST:
                return self._t("t2_dbust", a=a, b=b)
            opts = [f"{v} ({min((_expr(h) for h in hows), key=len)})" for v, hows in S2.ways(a, b, m, five_ops).items()]
            text = self._t("t2_throw", a=a, b=b, opts=", ".join(opts) or self._t("nothing"))
            if a == b:
                text += self._t("t2_pasch")
            return text
        if isinstance(action, S2.Push):
            how = self._how2(before["dice"], m, action.value)
            if ended is not None:
                return self._t("t2_allup", v=action.value, how=how)
            down = after["mask"]
            return self._t("t2_push", v=action.value, how=how,
                           down=f"{S2.down_text(down)} = {S2.SUM_DOWN[down]}")
        if action == S2.STOP:
            _, calc = S2.stop_formula(m, self.game.options["x5_on_stop"])
            return self._t("t2_stop", calc=calc, pts=_signed(ended[2] if ended else 0))
        if action == S2.ACCEPT:
            _, calc = S2.bust_formula(m, *before["dice"])
            return self._t("t2_accept", calc=calc, pts=_signed(ended[2] if ended else 0))
        if action == S2.DECLINE:
            return self._t("t2_decline")
        return self._t("t2_roll")

    def _how2(self, dice, mask, value) -> str:
        hows = S2.ways(dice[0], dice[1], mask, self.game.options["five_ops"]).get(value, [])
        return min((_expr(h) for h in hows), key=len) if hows else str(value)

    def _row_name(self, row_id: str) -> str:
        return S1.ROW_BY_ID[row_id].name[self.lang]

    def _explain1(self, before, action, after, ended):
        dice = " ".join(map(str, getattr(action, "values", ())))
        if isinstance(action, S1.Dice):
            if before["phase"] == S1.THROW:
                if ended is not None:
                    return self._t("t1_lost", dice=dice)
                return self._t("t1_throw", dice=dice)
            # a joker throw
            row = S1.ROW_BY_ID[before["row"]]
            k = action.values.count(1)
            if ended is not None and ended[2] == 0:
                return self._t("t1_jlost", dice=dice)
            if ended is not None:
                return self._t("t1_jall", dice=dice, base=row.points[0], pts=ended[2])
            if k:
                return self._t("t1_jones", dice=dice, k=k, j=after["jokers"], pts=after["stop_value"])
            return self._t("t1_jsix", dice=dice, pts=after["stop_value"])
        if isinstance(action, S1.Assign):
            text = self._t("t1_assign", what=self.assign_label(action, before["throw"]),
                           keep=self._keep_text(action.keep))
            if after["row"] is not None:
                text += self._t("t1_row", row=self._row_name(after["row"]), pts=after["stop_value"])
            return text
        if action == S1.STOP:
            if before["phase"] == S1.JOKER_DECIDE:
                return self._t("t1_jstop", row=self._row_name(before["row"]), j=before["jokers"],
                               pts=ended[2] if ended else 0)
            if before["row"] is None:
                return self._t("t1_stop0")
            return self._t("t1_stop", row=self._row_name(before["row"]), pts=ended[2] if ended else 0)
        if action == S1.JOKERS:
            return self._t("t1_jokers", row=self._row_name(after["row"]), base=after["base"])
        return self._t("t1_again")

    def _keep_text(self, n: int) -> str:
        return self._t("keep1") if n == 1 else self._t("keepn", n=n)

    def assign_label(self, a, throw=None) -> str:
        """``schiebe 1 und 6 (2+4→6)``: what an assignment pushes, how, and which dice stay."""
        if a.pushed:
            what = self._t("pushes", s=" und ".join(map(str, a.pushed)) if self.lang == "de"
                           else " and ".join(map(str, a.pushed)))
        else:
            what = self._t("push_nothing")
        parts = []
        for part in (a.how.split(", ") if a.how else []):
            if "stay" in part:
                n = part.split("×")[0] if "×" in part else "1"
                parts.append(self._t("stays6") if n == "1" else self._t("stays6n", n=n))
            else:
                parts.append(part)
        if throw is not None:
            out = len(throw) - a.keep
            if out:
                parts.append(self._t("eliminated" if out == 1 else "eliminatedn", n=out))
        return what + (f" ({', '.join(parts)})" if parts else "")

    # --- advisor ---------------------------------------------------------------------------------
    def advice(self) -> list[dict]:
        """The advisor's rows for the human's decision: ``action``, ``label``, ``value`` (exact
        Fraction), ``all_up`` (Spiel 2: probability of pushing all nine, else None), ``best``,
        ``best_all_up``. Empty when the human has no decision to make. The values are
        ``game.advise(observation)`` (Spiel 2: with the objectives "expected" and "all_up")."""
        if not self.session.waiting_for_human():
            return []
        obs = self.observation()
        game = self.game
        if self.game_id == GAME2:
            exp = game.advise(obs, objective="expected")
            up = game.advise(obs, objective="all_up")
            rows = []
            for o in exp.options:
                label = o.action.label(self.lang)
                if isinstance(o.action, S2.Push) and o.note:
                    label += f" ({min((_expr(h) for h in o.note['en'].split('; ')), key=len)})"
                other = up.option_for(o.action)
                rows.append({"action": o.action, "label": label, "value": o.value, "all_up": other.value,
                             "best": o.best, "best_all_up": other.best})
            return rows
        return [{"action": o.action, "label": self.action_label1(o.action, obs), "value": o.value, "all_up": None,
                 "best": o.best, "best_all_up": False} for o in game.advise(obs).options]

    def action_label1(self, act, obs: dict) -> str:
        if isinstance(act, S1.Assign):
            return self.assign_label(act, obs["throw"])
        if act == S1.STOP:
            return self._t("stop_pts", pts=obs["stop_value"])
        if act == S1.JOKERS:
            return self._t("jokers", base=obs["base"])
        if obs["phase"] == S1.JOKER_DECIDE:
            return self._t("joker_roll", n=obs["dice_in_play"])
        return self._t("roll_n", n=obs["dice_in_play"])

    def _advisor_html(self) -> str:
        obs = self.observation()
        rows = self.advice()
        head = f"<b>{escape(self._t('adv_title'))}</b>"
        if not rows:
            if obs["phase"] == "start":
                extra = escape(self._t("adv_start"))
            elif self.session.current_player() == CHANCE:
                if self.game_id == GAME2:
                    from ...games.wuerfel_joker.spiel2.analysis import solve
                    v = solve(self.game.options, "expected").throw_value(obs["mask"])
                    p = solve(self.game.options, "all_up").throw_value(obs["mask"])
                    extra = escape(self._t("adv_throw", v=_fmt_frac(v), d=f"{float(v):.3f}")
                                   + self._t("adv_throw_up", p=f"{float(p):.4f}"))
                else:
                    from ...games.wuerfel_joker.spiel1.analysis import solve
                    v = solve(self.game.options).value_from_observation(obs)
                    extra = escape(self._t("adv_throw", v=_fmt_frac(v), d=f"{float(v):.3f}"))
            else:
                extra = escape(self._t("adv_none"))
            return f"<div>{head}<div>{extra}</div></div>"
        g2 = self.game_id == GAME2
        th = [self._t("adv_option"), self._t("adv_exact"), self._t("adv_dec")] + ([self._t("adv_allup")] if g2 else [])
        cells = "".join(f"<th style='text-align:left;padding:2px 6px'>{escape(h)}</th>" for h in th)
        trs = []
        for r in rows:
            mark = ("★ " if r["best"] else "") + ("◆ " if r["best_all_up"] and g2 else "")
            style = "background:#e6f4ea;font-weight:bold" if r["best"] else ""
            frac = _fmt_frac(r["value"])
            tds = [f"{mark}{escape(r['label'])}",
                   f"<span style='font-family:monospace;font-size:11px;word-break:break-all'>{escape(frac)}</span>",
                   f"{float(r['value']):+.3f}"]
            if g2:
                tds.append(f"{float(r['all_up']):.4f}")
            data = f" data-best='{int(r['best'])}'"
            trs.append(f"<tr class='sp-advice-row' style='{style}'{data}>"
                       + "".join(f"<td style='padding:2px 6px;vertical-align:top;max-width:420px'>{c}</td>" for c in tds)
                       + "</tr>")
        legend = self._t("adv_best") + (" · " + self._t("adv_best_up") if g2 else "")
        return (f"<div>{head}<table style='border-collapse:collapse;font-size:13px'><tr>{cells}</tr>{''.join(trs)}"
                f"</table><div style='font-size:12px;color:#555'>{escape(legend)}. {escape(self._t('adv_note'))}</div></div>")

    # --- rendering -------------------------------------------------------------------------------
    def _render(self):
        obs = self.observation()
        g2 = self.game_id == GAME2
        self.title.value = f"<b style='font-size:18px'>{escape(self._t('title'))}</b>"
        opts = ((self._t("game1"), GAME1), (self._t("game2"), GAME2))
        if tuple(self.game_toggle.options) != opts or self.game_toggle.value != self.game_id:
            self._syncing = True  # relabelling resets the value; that is not a switch of game
            try:
                self.game_toggle.options = opts
                self.game_toggle.value = self.game_id
            finally:
                self._syncing = False
        self.new_button.description = self._t("new")
        self.advisor_toggle.description = self._t("advisor")
        self.bot_step_button.description = self._t("bot_step")
        self.bot_finish_button.description = self._t("bot_finish")
        cp = self.session.current_player()
        # status line
        if cp == TERMINAL:
            who = ", ".join(self.player_name(p) for p in self.state.winners())
            self.status.value = f"<b>{escape(self._t('winner', who=who))}</b>"
        elif obs["phase"] == "start":
            self.status.value = escape(self._t("status_start", who=self.player_name(self.session.chance_player())))
        else:
            self.status.value = escape(self._t("status", r=obs["round"], R=obs["rounds"],
                                               who=self.player_name(self.session.whose_turn())))
        self._render_dice(obs)
        self._render_slides(obs)
        self._render_buttons(obs)
        # message and log
        last = self.messages[-1] if self.messages else ""
        if cp != TERMINAL and self.bot_pending() and not self._bot_task:
            hint = self._t("wait_bot")
        elif self._bot_task:
            hint = self._t("bot_running")
        elif self._human_to_throw() and not last:
            hint = self._t("your_start" if obs["phase"] == "start" else "your_turn")
        else:
            hint = ""
        self.message.value = (f"<div style='font-size:16px;min-height:24px;padding:4px;background:#f7f3e8'>"
                              f"{escape(last)}</div>"
                              + (f"<div style='font-size:12px;color:#666'>{escape(hint)}</div>" if hint else ""))
        self.log_view.value = log_html(self.messages[:-1], keep=8)
        # advisor
        if self.advisor_toggle.value:
            self.advisor.layout.display = SHOWN
            self.advisor.value = self._advisor_html()
        else:
            self.advisor.layout.display = "none"
            self.advisor.value = ""
        self._render_score(obs)
        self.table_html.value = "" if g2 else self._table1_html(obs)
        self.table_html.layout.display = "none" if g2 else SHOWN

    def _render_dice(self, obs: dict):
        values, muted = view.dice_picture(self.game_id, obs)
        shown = [v for v in values if v]
        pic = view.dice_row(values, size=56, muted=muted)
        if self.game_id == GAME2:
            cap = ""
            if shown:
                cap = f"{shown[0]} + {shown[1]}" + (" · Pasch" if shown[0] == shown[1] else "")
        else:
            cap = " ".join(map(str, shown))
            if obs["phase"] not in (S1.OVER, "start"):
                cap += (f" · {self._keep_text(obs['dice_in_play'])} "
                        + ("im Spiel" if self.lang == "de" else "in play"))
            if obs["in_jokers"]:
                cap += " · " + self._t("jokers_caption", j=obs["jokers"])
        data = ",".join(map(str, shown))
        self.dice_html.value = (f"<div class='sp-dice-pic' data-dice='{data}' style='display:flex;align-items:center;"
                                f"gap:12px'>{pic}<span style='font-size:18px'>{escape(cap)}</span></div>")

    def _render_slides(self, obs: dict):
        labels = list(self.slide_html)
        for lab, s in zip(labels, view.slide_pictures(self.game_id, obs, self.lang)):
            pic = view.slides_row([s["label"]], [s["up"]], SLIDE_W, SLIDE_H, accents={0: s["accent"]},
                                  titles={0: s["title"]})
            self.slide_html[lab].value = (f"<div data-slide='{escape(str(s['label']))}' data-up='{int(s['up'])}' "
                                          f"style='text-align:center'>{pic}</div>")

    def _render_buttons(self, obs: dict):
        g2 = self.game_id == GAME2
        legal = self._human_legal()
        human_throw = self._human_to_throw()
        best = None
        if self.advisor_toggle.value and legal:
            best = {r["action"] for r in self.advice() if r["best"]}
        # throw / throw again
        again = S2.ROLL if g2 else S1.THROW_AGAIN
        tb = self.throw_button
        if human_throw:
            if obs["phase"] == "start":
                tb.description = self._t("throw_start")
            elif not g2 and obs["phase"] == S1.JOKER_THROW:
                tb.description = self._t("joker_roll", n=obs["dice_in_play"])
            else:
                tb.description = self._t("throw") if g2 else self._t("throw_n", n=obs["dice_in_play"])
            tb.disabled = False
        elif again in legal:
            if g2:
                tb.description = self._t("roll")
            elif obs["phase"] == S1.JOKER_DECIDE:
                tb.description = self._t("joker_roll", n=obs["dice_in_play"])
            else:
                tb.description = self._t("roll_n", n=obs["dice_in_play"])
            tb.disabled = False
        else:
            tb.description = self._t("throw_start") if obs["phase"] == "start" else self._t("throw")
            tb.disabled = True
        tb.button_style = "success" if best and again in best else "primary"
        # stop
        stop = S2.STOP if g2 else S1.STOP
        sb = self.stop_button
        if stop in legal:
            if g2:
                pts = _signed(S2.stop_points(obs["mask"], self.game.options["x5_on_stop"]))
            else:
                pts = obs["stop_value"]
            sb.description = self._t("stop_pts", pts=pts)
            sb.disabled = False
        else:
            sb.description = self._t("stop")
            sb.disabled = True
        sb.button_style = "success" if best and stop in best else "warning"
        # Spiel 2: doubles and pushes
        self._show(self.decline_button, g2 and S2.DECLINE in legal)
        self._show(self.accept_button, g2 and S2.ACCEPT in legal)
        self.decline_button.description = self._t("decline")
        self.decline_button.button_style = "success" if best and S2.DECLINE in best else ""
        if g2 and obs["dice"]:
            self.accept_button.description = self._t("accept", pts=_signed(S2.bust_points(obs["mask"], *obs["dice"])))
        self.accept_button.button_style = "success" if best and S2.ACCEPT in best else ""
        if g2:
            ways = S2.ways(*obs["dice"], obs["mask"], self.game.options["five_ops"]) if obs["dice"] else {}
            for v, b in self.all_push_buttons.items():
                ok = S2.PUSH[v] in legal
                self._show(b, ok, hide_only=True)
                if ok:
                    short = min((_expr(t) for t in ways[v]), key=len)
                    b.description = f"{v} ({short})" if short != str(v) else str(v)
                    b.tooltip = " | ".join(ways[v])
                    b.button_style = "success" if best and S2.PUSH[v] in best else "info"
                else:
                    b.description = str(v)
                    b.tooltip = ""
        # Spiel 1: jokers and assignments
        self._show(self.jokers_button, not g2 and S1.JOKERS in legal)
        if not g2 and S1.JOKERS in legal:
            self.jokers_button.description = self._t("jokers", base=obs["base"])
            self.jokers_button.button_style = "success" if best and S1.JOKERS in best else "info"
        assigns = [a for a in legal if isinstance(a, S1.Assign)] if not g2 else []
        self._render_assign(assigns, best, obs)
        # bots
        pending = self.bot_pending()
        manual = pending and not self._bot_task
        self._show(self.bot_step_button, manual)
        self._show(self.bot_finish_button, pending)
        self.new_button.description = self._t("new")

    def _render_assign(self, assigns, best, obs):
        buttons = []
        for i, a in enumerate(assigns):
            if i < len(self.assign_buttons):
                b = self.assign_buttons[i]
            else:
                b = W.Button(layout=W.Layout(width="auto", margin="2px"))
                b.on_click(lambda btn, i=i: self._guarded(btn, lambda: self._on_assign(i)))
                self.assign_buttons.append(b)
            b._sp_action = a
            b._dom_classes = ("sp-assign", "sp-assign-" + "-".join(map(str, a.pushed or ("none",))) + f"-k{a.keep}")
            b.description = self.assign_label(a, obs["throw"])
            b.tooltip = a.label(self.lang)
            b.disabled = False
            b.button_style = "success" if best and a in best else "info"
            buttons.append(b)
        for b in self.assign_buttons[len(assigns):]:
            b.disabled = True
            b._sp_action = None
        self.assign_box.children = buttons
        self.assign_box.layout.display = SHOWN if buttons else "none"

    def _on_assign(self, i):
        b = self.assign_buttons[i]
        a = getattr(b, "_sp_action", None)
        if a is None:
            return
        self._act(a)

    @staticmethod
    def _show(button, on: bool, hide_only: bool = False):
        button.disabled = not on
        if hide_only:
            button.layout.visibility = "visible" if on else "hidden"
        else:
            button.layout.display = SHOWN if on else "none"

    def _render_score(self, obs: dict):
        """The score pad from the observation: each player's points of every turn, round by round."""
        headers = [self._t("round")] + [self.player_name(p) for p in range(self.players)]
        sheet = obs["sheet"]
        rows = [[r + 1] + [sheet[p][r] if r < len(sheet[p]) else "" for p in range(self.players)]
                for r in range(obs["rounds"])]
        rows.append([self._t("total")] + list(obs["totals"]))
        cur = None if self.session.is_over() else obs["round"] - 1
        self.score.value = score_table_html(headers, rows, highlight_row=cur)

    def _table1_html(self, obs: dict) -> str:
        head = [self._t("row_col"), self._t("slides_col")] + [self._t("jokers_n", n=j) for j in range(4)]
        rows = []
        current = None
        for i, row in enumerate(S1.ROWS):
            kind = self._t("exact_yes") if row.exact else self._t("exact_no")
            rows.append([row.name[self.lang], f"{kind} {'+'.join(map(str, row.slides))}", *row.points])
            if obs["phase"] != S1.OVER and row.id == obs["row"]:
                current = i
        return (f"<div><b>{escape(self._t('table_title'))}</b> "
                f"{view.badge(self._t('recon'), '#8e44ad')}</div>"
                + score_table_html(head, rows, highlight_row=current))
