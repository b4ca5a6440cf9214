"""Tüfteln to play in a notebook (ipywidgets only, no custom JavaScript: runs in JupyterLite).

The human is seat 0 and writes each throw first; bots on seats 1… write the same throw on their own
sheets. A click on a field selects it; the second click writes the throw: the first selected field
gets the die shown first (the swap button changes the order). A bridge field needs no second click:
when the engine allows only one partner field, that one is taken. Which placements are legal is
always the engine's answer (``legal_actions`` / ``apply_action``); a refused one shows the rule the
engine names and its detail, both in the screen's language, and changes nothing. Fields are named as
the engine names them ("A1" top left): column letters above the sheet, row numbers beside it. What the
screen shows (the sheets of the bots included) is read from seat 0's observation; the advisor gets
that observation too.
"""

from __future__ import annotations

import secrets
from html import escape

import ipywidgets as W

from ...core.advice import Advice
from ...core.errors import IllegalActionError, OptionError, short
from ...core.rng import check_seed
from ...games.tuefteln import scoring
from ...games.tuefteln.engine import SIZE, Place, column_name, field_name, row_name
from ...games.tuefteln.view import COLOURS, PEN, PRINTED, bridge_arrow, observation_fields, observation_svg, \
    square_label
from .. import svg
from ..session import PlaySession
from .common import SHOWN, check_bot, check_game, check_lang, language_toggle, score_table_html, t

CELL = 46
EDGE = 20  # width of the row numbers left of the sheet, height of the column letters above it
SELECTED = "#ffd54f"
ADVISED = "3px solid #2e7d32"
BLANK = "\u00a0"  # what an empty field's button shows (a no-break space)
MARK_TIES = 3  # at most this many tied best placements are marked on the sheet
ROLLOUTS = (2, 4, 8, 16, 32)  # the advisor's choices of continuations per placement

def _kind_name(layout, f: int, lang: str) -> str:
    if layout.printed[f]:
        return t(lang, f"vorgedruckt {layout.printed[f]}", f"pre-printed {layout.printed[f]}")
    k = layout.kind[f]
    name = layout.kinds[k][lang]
    if layout.bridge_of[f] is not None:
        partner = [g for g in layout.bridges[layout.bridge_of[f]] if g != f][0]
        name += t(lang, f", Brücke mit {field_name(partner)}", f", bridge with {field_name(partner)}")
    return name


class TueftelnApp(W.VBox):
    """Play Tüfteln against bots that write the same throws; advisor and scoring on demand."""

    def __init__(self, side: str | None = None, players: int = 1, bots: str = "strong", lang: str = "de",
                 seed: int | None = None, options: dict | None = None, advisor_rollouts: int = 4):
        """``side`` "A" or "B" (or ``options["side"]``; default A), ``players`` 1-15 (seat 0 is the
        human, the others ``bots``), ``seed`` 0 to 2**64-1 (None picks one), ``options`` the
        game's options. Everything is checked before anything is built: bad settings raise
        ``OptionError``/``SpieltischError``."""
        if options is None:
            options = {}
        if side is not None and isinstance(options, dict):  # not a dict: check_game says so
            if "side" in options and options["side"] != side:
                raise OptionError(f"side {short(side)} and options['side'] {short(options['side'])} disagree")
            options = {**options, "side": side}
        game = check_game("tuefteln", players, options)
        check_bot("tuefteln", bots)
        lang = check_lang(lang)
        if seed is not None:
            check_seed(seed)
        if type(advisor_rollouts) is not int or advisor_rollouts not in ROLLOUTS:
            raise OptionError(f"advisor_rollouts must be one of {', '.join(map(str, ROLLOUTS))}, "
                              f"got {short(advisor_rollouts)}")
        super().__init__()
        self.add_class("sp-tuefteln")
        self.game = game
        self.side = game.options["side"]
        self.players = players
        self.bot_name = bots
        self.options = dict(game.options)
        self.lang = lang
        self.advice: Advice | None = None
        self.message_text = ""

        self.lang_toggle = language_toggle(lang)
        self.lang_toggle.observe(self._on_lang, names="value")
        self.title = W.HTML()
        self.new_button = W.Button(icon="refresh", layout=W.Layout(width="auto"))
        self.new_button.on_click(lambda _: self.new_game())
        self.new_button.add_class("sp-new")
        self.throw_html = W.HTML()
        self.throw_html.add_class("sp-throw")
        self.swap_button = W.Button(icon="exchange", layout=W.Layout(width="auto"))
        self.swap_button.add_class("sp-swap")
        self.swap_button.on_click(lambda _: self.swap())
        self.message = W.HTML()
        self.message.add_class("sp-message")
        self.total = W.HTML()
        self.total.add_class("sp-total")
        self.layout_note = W.HTML()

        # the sheet: 3 bands of 3 squares; every square a 2×2 GridBox inside a thick border
        self.fields: list[list[W.Button]] = [[None] * SIZE for _ in range(SIZE)]
        for r in range(SIZE):
            for c in range(SIZE):
                b = W.Button(layout=W.Layout(width=f"{CELL}px", height=f"{CELL}px", margin="0", padding="0",
                                             border="1px solid #777"))
                b.add_class(f"sp-field-{r}-{c}")
                b.add_class("sp-field")
                b.on_click(lambda _b, f=r * SIZE + c: self.click(f))
                self.fields[r][c] = b
        self.square_labels = [W.HTML(layout=W.Layout(width=f"{2 * CELL + 6}px", height="24px",
                                                     overflow="hidden", margin="0"))
                              for _ in range(9)]
        # the names of columns (A–F, above) and rows (1–6, left), as in field_name; each square is
        # 2 × CELL wide plus its 3px border on either side
        edge_style = "font-size:13px;font-weight:bold;color:#555;text-align:center"
        col_heads = []
        for k in range(3):
            letters = "".join(f"<div style='width:{CELL}px;{edge_style}'>{column_name(2 * k + j)}</div>"
                              for j in range(2))
            col_heads.append(W.HTML(f"<div style='display:flex;padding:0 3px;line-height:{EDGE}px'>{letters}</div>",
                                    layout=W.Layout(width=f"{2 * CELL + 6}px", height=f"{EDGE}px",
                                                    overflow="hidden", margin="0")))
        self.column_labels = W.HBox([W.Box(layout=W.Layout(width=f"{EDGE}px", margin="0"))] + col_heads,
                                    layout=W.Layout(margin="0"))
        self.column_labels.add_class("sp-column-labels")
        self.row_labels = []
        for band in range(3):
            numbers = "".join(f"<div style='height:{CELL}px;line-height:{CELL}px;{edge_style}'>"
                              f"{row_name(2 * band + i)}</div>" for i in range(2))
            lab = W.HTML(f"<div style='padding:3px 0'>{numbers}</div>",
                         layout=W.Layout(width=f"{EDGE}px", height=f"{2 * CELL + 6}px", overflow="hidden",
                                         margin="0"))
            lab.add_class("sp-row-labels")
            self.row_labels.append(lab)
        bands = [self.column_labels]
        for band in range(3):
            squares = []
            for k in range(3):
                sq = band * 3 + k
                r0, c0 = 2 * band, 2 * k
                grid = W.GridBox([self.fields[r0 + i][c0 + j] for i in range(2) for j in range(2)],
                                 layout=W.Layout(grid_template_columns=f"{CELL}px {CELL}px",
                                                 grid_gap="0px", border="3px solid #111", margin="0"))
                grid.add_class(f"sp-square-{sq}")
                squares.append(grid)
            bands.append(W.HBox([self.row_labels[band]] + squares, layout=W.Layout(margin="0")))
            bands.append(W.HBox([W.Box(layout=W.Layout(width=f"{EDGE}px", margin="0"))]
                                + self.square_labels[3 * band:3 * band + 3]))
        self.sheet = W.VBox(bands, layout=W.Layout(margin="4px 12px 4px 0"))
        self.sheet.add_class("sp-sheet")

        self.score_html = W.HTML()
        self.score_html.add_class("sp-score-table")
        self.bots_html = W.HTML()
        self.bots_html.add_class("sp-bots")

        self.advise_button = W.Button(icon="lightbulb-o", layout=W.Layout(width="auto"))
        self.advise_button.on_click(self._on_advise_click)
        self.rollouts = W.Dropdown(options=list(ROLLOUTS), value=advisor_rollouts,
                                   layout=W.Layout(width="150px"))
        self.rollouts_label = W.HTML()
        # shown while the advisor computes: one step per legal placement
        self.advisor_progress = W.IntProgress(value=0, min=0, max=1, layout=W.Layout(width="160px",
                                                                                   display="none"))
        self.advisor_progress.add_class("sp-advisor-progress")
        self.advisor_status = W.HTML()
        self.advisor_status.add_class("sp-advisor-status")
        self.advisor_html = W.HTML()
        self.advisor = W.VBox([W.HBox([self.advise_button, self.rollouts_label, self.rollouts,
                                       self.advisor_progress, self.advisor_status],
                                      layout=W.Layout(align_items="center", flex_flow="row wrap")),
                               self.advisor_html])
        self.advisor.add_class("sp-advisor")

        top = W.HBox([self.lang_toggle, self.new_button, self.title],
                      layout=W.Layout(align_items="center", flex_flow="row wrap"))
        throw_row = W.HBox([self.throw_html, self.swap_button], layout=W.Layout(align_items="center"))
        right = W.VBox([throw_row, self.total, self.message, self.score_html],
                       layout=W.Layout(min_width="300px", max_width="520px"))
        self.children = [top, W.HBox([W.VBox([self.sheet, self.layout_note]), right],
                                     layout=W.Layout(flex_flow="row wrap")),
                         self.bots_html, self.advisor]
        self.new_game(seed)

    # --- game flow ---------------------------------------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        """Start a fresh game; without ``seed`` a random one (shown, so a game can be replayed). A
        bad seed is refused before anything changes."""
        seed = secrets.randbits(32) if seed is None else check_seed(seed)
        bots = {p: self.bot_name for p in range(1, self.players)}
        self.session = PlaySession(self.game, None, None, seed, bots)
        self.seed = seed
        self.selected: int | None = None
        self.first_die = 0  # index into the throw of the die the first selected field gets
        self.last_bot_places: dict[int, Place] = {}
        self.advice = None
        self.message_text = ""
        self._advance()
        self.refresh()

    @property
    def state(self):
        return self.session.state

    @property
    def layout_data(self):
        return self.session.match.game.layout

    def observation(self) -> dict:
        """What the human on seat 0 sees: everything this screen shows comes from here."""
        return self.state.observation(0)

    def _advance(self) -> None:
        """Let chance and the bots act until the human must write (or the game is over)."""
        self.session.run_until_human()
        self.last_bot_places = {}  # each bot's latest placement, to mark it on its sheet
        m = self.session.match
        for mover, a in zip(reversed(m.movers), reversed(m.actions)):
            if mover > 0 and mover not in self.last_bot_places:
                self.last_bot_places[mover] = a
            if len(self.last_bot_places) == self.players - 1:
                break

    def order(self) -> tuple[int, int]:
        """The current throw in the order the clicks take it: (first click's number, second's)."""
        a, b = self.observation()["throw"]
        return (a, b) if self.first_die == 0 else (b, a)

    def swap(self) -> None:
        self.first_die = 1 - self.first_die
        self.refresh()

    def click(self, f: int) -> None:
        """A click on field ``f`` (index row * 6 + col)."""
        lang = self.lang
        if self.session.is_over():
            self._say(t(lang, "Das Spiel ist vorbei – „Neues Spiel“ startet ein neues.",
                        "The game is over – “new game” starts another."), "info")
            return
        legal = self.session.legal_actions()
        v1, v2 = self.order()
        if self.selected is None:
            partners = sorted({a.f2 if a.f1 == f else a.f1 for a in legal if f in (a.f1, a.f2)})
            if not partners:
                other = next(a.f1 if a.f1 != f else a.f2 for a in legal)
                self._refuse(Place.make(f, v1, other, v2))
                return
            if len(partners) == 1:  # a bridge: its partner is the only choice
                self._write(Place.make(f, v1, partners[0], v2))
                return
            self.selected = f
            self._say(t(lang, f"{v1} kommt nach {field_name(f)}. Jetzt das Feld für die {v2} anklicken "
                              "(noch einmal klicken hebt die Auswahl auf).",
                        f"{v1} goes to {field_name(f)}. Now click the field for the {v2} "
                        "(click it again to undo the choice)."), "info")
            self.refresh()
            return
        if f == self.selected:
            self.selected = None
            self._say(t(lang, "Auswahl aufgehoben.", "Choice undone."), "info")
            self.refresh()
            return
        self._write(Place.make(self.selected, v1, f, v2))

    def _write(self, action: Place) -> None:
        try:
            self.session.act(action)
        except IllegalActionError as e:
            self._show_refusal(e)
            return
        self.selected = None
        self.first_die = 0
        self.advice = None
        done = self.observation()["round"]
        self._advance()
        if self.session.is_over():
            self._say(self._final_words(), "done")
        else:
            self._say(t(self.lang, f"Eingetragen: {action}. Runde {done} fertig.",
                        f"Written: {action}. Round {done} done."), "ok")
        self.refresh()

    def _refuse(self, action) -> None:
        self._show_refusal(self.state.why_illegal(action))

    def _show_refusal(self, e: IllegalActionError) -> None:
        self.last_refusal = e
        rule = e.rule_in(self.lang)
        text = t(self.lang, f"Nicht erlaubt (Regel: {rule}).", f"Not allowed (rule: {rule}).")
        self._say(text, "refused", detail=e.detail_in(self.lang))
        self.refresh()

    def _say(self, text: str, kind: str, detail: str = "") -> None:
        self.message_text, self.message_kind, self.message_detail = text, kind, detail

    def play_action(self, action: Place) -> None:
        """Write ``action`` as if clicked (for scripts and the advisor)."""
        self._write(action)

    # --- scores --------------------------------------------------------------------------------
    def score(self, player: int = 0) -> int:
        return self.observation()["sheets"][player]["score"]

    def rating(self, player: int = 0) -> dict:
        return scoring.rating(self.score(player))

    def _final_words(self) -> str:
        s = self.score(0)
        r = self.rating(0)
        words = t(self.lang, f"Ende! Du hast {s} Punkte – Solo-Wertung: „{r['de']}“.",
                  f"Game over! You scored {s} points – solo rating: “{r['en']}” ({r['de']}).")
        if self.players > 1:
            win = self.state.winners()
            names = ", ".join(self._player_name(p) for p in win)
            words += " " + t(self.lang, f"Gewinner: {names}.", f"Winner: {names}.")
        return words

    def _player_name(self, p: int) -> str:
        if p == 0:
            return t(self.lang, "du", "you")
        return f"Bot {p} ({self.bot_name})"

    def score_rows(self, player: int = 0) -> list[list]:
        """The scoring table as on the sheet: label, count, points each, subtotal; bonus; total."""
        seen = self.observation()["sheets"][player]
        cats = [sq["category"] for sq in seen["squares"]]
        points, bonus = seen["score"], seen["bonus"]
        labels = scoring.LABELS[self.lang]
        rows = []
        for c in scoring.CATEGORIES:
            n = cats.count(c)
            rows.append([labels[c], n, scoring.POINTS[c], n * scoring.POINTS[c]])
        rows.append([labels[scoring.NONE] + t(self.lang, " (0 Punkte)", " (0 points)"),
                     cats.count(scoring.NONE), 0, 0])
        rows.append(["Bonus", "✓" if bonus else "–", scoring.BONUS, scoring.BONUS if bonus else 0])
        rows.append([t(self.lang, "Summe", "Total"), "", "", points])
        return rows

    # --- advisor -------------------------------------------------------------------------------
    def run_advisor(self, n_rollouts: int | None = None, policy: str = "greedy") -> Advice | None:
        """Every legal placement of the throw with its estimated final score, best first (None
        when there is no throw to write)."""
        if not self.session.waiting_for_human():
            self.advice = None
            self.refresh()
            return None
        n = n_rollouts or self.rollouts.value
        if n in self.rollouts.options:
            self.rollouts.value = n
        total = len(self.session.legal_actions())
        self.advise_button.disabled = True
        self.advisor_progress.max = max(total, 1)
        self._advisor_step(0, total)
        self.advisor_progress.layout.display = SHOWN
        try:
            # the advisor gets seat 0's observation, never the state
            self.advice = self.state.game.advise(self.observation(), n_rollouts=n, policy=policy,
                                                 seed=self.seed % (2 ** 32), progress=self._advisor_step)
        finally:
            self.advisor_progress.layout.display = "none"
            self.advisor_status.value = ""
            self.advise_button.disabled = self.session.is_over()
        self.advice_method = (n, policy)
        self.refresh()
        return self.advice

    def _on_advise_click(self, _button) -> None:
        # The kernel queues clicks that arrive while the advisor computes and delivers them when it
        # is done (the button is enabled again by then): advice already shown for this position and
        # these settings is not computed again.
        if self.advice is not None and self.advice_method == (self.rollouts.value, "greedy"):
            return
        self.run_advisor()

    def _advisor_step(self, done: int, total: int) -> None:
        """Progress of the advisor: ``done`` of ``total`` placements played out."""
        self.advisor_status.value = (f"<span style='font-size:13px;color:#444'>"
                                     f"{t(self.lang, 'rechne', 'computing')} {done}/{total}</span>")
        self.advisor_progress.value = done

    def _advisor_html(self) -> str:
        lang = self.lang
        if self.advice is None:
            if self.session.is_over():
                return t(lang, "Gerade ist kein Wurf einzutragen.", "There is no throw to write now.")
            return t(lang, "<i>Der Ratgeber spielt jede erlaubte Platzierung mit Zufallswürfen zu Ende "
                           "und zeigt die geschätzte Endpunktzahl.</i>",
                     "<i>The advisor plays every legal placement to the end with random throws and shows "
                     "the estimated final score.</i>")
        options = self.advice.options
        ties = sum(o.best for o in options)
        method = (t(lang, "Methode: ", "Method: ") + self.advice.method[lang]
                  + t(lang, "; ± = halbe Breite des 95-%-Intervalls.", "; ± = half width of the 95% interval."))
        if ties > 1:
            tie_text = t(lang, f"Die ersten {ties} (grün) sind vom besten nicht zu unterscheiden: ihre Intervalle "
                               "überlappen sich – mehr Fortsetzungen trennen sie vielleicht.",
                         f"The first {ties} (green) cannot be told apart from the best: their intervals "
                         "overlap – more continuations may separate them.")
            if ties > MARK_TIES:
                tie_text += t(lang, " Auf dem Zettel ist darum keine markiert.",
                              " So none of them is marked on the sheet.")
        else:
            tie_text = t(lang, "Die beste (grün) ist von allen anderen getrennt.",
                         "The best one (green) stands apart from all others.")
        rows = []
        for i, o in enumerate(options):
            a, v = o.action, o.value
            err = (v.hi - v.lo) / 2
            squares = " + ".join(sorted({self._square_word(a.f1), self._square_word(a.f2)}))
            # tied options share rank 1
            rank = "1" if o.best else str(i + 1)
            style = "background:#e8f5e9;font-weight:bold" if o.best else ""
            mark = " class='sp-advice-best'" if o.best else ""
            rows.append(f"<tr style='{style}'{mark}><td>{rank}</td>"
                        f"<td>{escape(o.label[lang])}</td>"
                        f"<td>{escape(squares)}</td><td style='text-align:right'>{v.mean:.2f}</td>"
                        f"<td style='text-align:right'>± {err:.2f}</td></tr>")
        head = t(lang, "<tr><th>#</th><th>Platzierung</th><th>Quadrat</th><th>Ø Endpunkte</th><th>Fehler</th></tr>",
                 "<tr><th>#</th><th>placement</th><th>square</th><th>mean final score</th><th>error</th></tr>")
        return (f"<div style='font-size:12px;color:#444'>{escape(method)} "
                f"{t(lang, 'Alle', 'All')} {len(options)} "
                f"{t(lang, 'erlaubten Platzierungen, beste zuerst.', 'legal placements, best first.')} "
                f"{escape(tie_text)}</div>"
                f"<div style='max-height:240px;overflow-y:auto'><table style='font-size:13px;"
                f"border-collapse:collapse'>{head}{''.join(rows)}</table></div>")

    def _square_word(self, f: int) -> str:
        r, c = divmod(f, SIZE)
        return t(self.lang, "Q", "S") + str((r // 2) * 3 + c // 2 + 1)

    # --- drawing -------------------------------------------------------------------------------
    def _on_lang(self, change) -> None:
        self.lang = change["new"]
        if self.message_text and self.session.is_over():
            self._say(self._final_words(), "done")
        elif self.message_text:
            self.message_text = ""  # the old sentence was in the other language
        self.refresh()

    def refresh(self) -> None:
        lang = self.lang
        obs, layout = self.observation(), self.layout_data
        sheet = observation_fields(obs, 0)
        cats = [sq["category"] for sq in obs["sheets"][0]["squares"]]
        over = obs["terminal"]
        # the fields of every placement the advisor cannot tell apart from the best; when many tie,
        # marking them all would paint the whole sheet, so none is marked (the table lists them)
        best = [o.action for o in self.advice.options if o.best] if self.advice is not None else []
        advised = {f for a in best for f in (a.f1, a.f2)} if len(best) <= MARK_TIES else set()
        for r in range(SIZE):
            for c in range(SIZE):
                f = r * SIZE + c
                b = self.fields[r][c]
                printed = layout.printed[f]
                v = sheet[f]
                if printed:
                    b.description = str(printed)
                    b.style.button_color = PRINTED
                    b.style.font_weight = "bold"
                    b.style.text_color = "#000"
                    b.style.font_size = "22px"
                else:
                    b.style.button_color = SELECTED if f == self.selected else COLOURS.get(layout.kind[f], "#fff")
                    b.style.font_weight = "normal"
                    b.style.text_color = PEN if v else "#1f5fa8"
                    if v:
                        b.description = str(v)
                        b.style.font_size = "22px"
                    else:
                        # never "": ipywidgets' ButtonView redraws a button only when its
                        # description or icon is non-empty, so the old number would stay on screen
                        b.description = (bridge_arrow(layout, f) if layout.bridges else "") or BLANK
                        b.style.font_size = "13px"
                b.layout.border = ADVISED if f in advised else "1px solid #777"
                b.tooltip = f"{field_name(f)} {_kind_name(layout, f, lang)}"
        for sq, lab in enumerate(self.square_labels):
            cat = cats[sq]
            text = square_label(cat, lang) if cat else t(lang, f"Q{sq + 1} …", f"S{sq + 1} …")
            colour = "#111" if cat else "#999"
            lab.value = (f"<div style='text-align:center;font-size:13px;font-weight:bold;color:{colour}'>"
                         f"{escape(text)}</div>")

        name = t(lang, "Tüfteln", "Tüfteln (Tinkering)")
        side_word = t(lang, "Seite", "side")
        who = t(lang, "solo", "solo") if self.players == 1 else \
            t(lang, f"gegen {self.players - 1} Bot(s) „{self.bot_name}“", f"against {self.players - 1} "
              f"“{self.bot_name}” bot(s)")
        self.title.value = (f"<b style='font-size:18px'>{name}</b> &nbsp; {side_word} {self.side}, {who}, "
                            f"Seed {self.seed}")
        self.new_button.description = t(lang, "Neues Spiel", "New game")
        self.swap_button.description = t(lang, "tauschen", "swap")
        self.advise_button.description = t(lang, "Ratgeber", "Advisor")
        self.rollouts_label.value = t(lang, "&nbsp;Fortsetzungen je Platzierung:&nbsp;",
                                      "&nbsp;continuations per placement:&nbsp;")
        rule = t(lang, "Zwei freie weiße Felder (beliebige Quadrate) oder die beiden Felder einer Brücke (blau, "
                       "gleicher Buchstabe)." if self.side == "A" else
                 "Zwei freie Felder derselben Farbe.",
                 "Two free white fields (any squares) or the two fields of one bridge (blue, same letter)."
                 if self.side == "A" else "Two free fields of the same colour.")
        self.layout_note.value = (f"<div style='font-size:12px;color:#555;max-width:{6 * CELL + 20}px'>"
                                  f"{escape(rule)}<br><i>{t(lang, 'Feldbelegung', 'Layout')}: "
                                  f"Rekonstruktion / reconstruction</i></div>")

        # the throw
        if obs["throw"] is not None and not over:
            v1, v2 = self.order()
            pic = svg.dice_row([v1, v2], size=44)
            hint = t(lang, f"1. Klick → {v1}, 2. Klick → {v2}", f"1st click → {v1}, 2nd click → {v2}")
            thrower = obs["thrower"]
            by = "" if self.players == 1 else \
                "<br>" + escape(t(lang, f"Würfler: {self._player_name(thrower)}",
                                  f"thrown by {self._player_name(thrower)}"))
            self.throw_html.value = (f"<div style='display:flex;align-items:center;gap:10px'>{pic}"
                                     f"<span>{t(lang, 'Runde', 'Round')} {obs['round']}/"
                                     f"{obs['rounds']}<br>{escape(hint)}{by}</span></div>")
            self.swap_button.disabled = v1 == v2
        else:
            self.throw_html.value = f"<i>{t(lang, 'kein Wurf', 'no throw')}</i>"
            self.swap_button.disabled = True

        points = obs["sheets"][0]["score"]
        text = t(lang, f"Summe: {points} Punkte", f"Total: {points} points")
        if over:
            r = scoring.rating(points)
            text += f" — {t(lang, 'Solo-Wertung', 'solo rating')}: <b>{escape(r[lang])}</b>"
        self.total.value = f"<div style='font-size:20px' data-total='{points}'><b>{text}</b></div>"

        colour = {"refused": "#b03a2e", "ok": "#1e8449", "done": "#1a5276"}.get(getattr(self, "message_kind", ""),
                                                                               "#333")
        detail = getattr(self, "message_detail", "")
        msg = escape(self.message_text)
        if detail:
            msg += f"<br><span style='font-size:12px;color:#666'>{escape(detail)}</span>"
        if not self.message_text and not over:
            msg = escape(t(lang, "Klicke zwei Felder an, um den Wurf einzutragen (bei einer Brücke genügt ein Klick).",
                           "Click two fields to write the throw (one click for a bridge)."))
        self.message.value = f"<div style='color:{colour};min-height:2.6em'>{msg}</div>"

        headers = [t(lang, "Kategorie", "category"), t(lang, "Anzahl", "count"), t(lang, "je", "each"),
                   t(lang, "Punkte", "points")]
        caption = t(lang, "Endabrechnung" if over else "Wertung bisher", "Final scoring" if over else "Scoring so far")
        self.score_html.value = f"<b>{caption}</b>" + score_table_html(headers, self.score_rows(0),
                                                                      highlight_row=8)
        self.bots_html.value = self._bots_view(obs)
        self.advisor_html.value = self._advisor_html()
        self.advise_button.disabled = over

    def _bots_view(self, obs: dict) -> str:
        if self.players == 1:
            return ""
        lang = self.lang
        parts = []
        for p in range(1, self.players):
            last = self.last_bot_places.get(p)
            hl = (last.f1, last.f2) if last is not None else ()
            title = f"Bot {p} ({self.bot_name}): {obs['sheets'][p]['score']}"
            pic = observation_svg(obs, p, cell=22, lang=lang, highlight=hl, title=title, note=False)
            parts.append(f"<div style='display:inline-block;margin:4px 10px 4px 0' class='sp-bot-{p}'>{pic}</div>")
        head = t(lang, "Die Bots schreiben denselben Wurf auf ihre Zettel (orange: ihr letzter Eintrag).",
                 "The bots write the same throw on their own sheets (orange: their last entry).")
        return f"<div style='font-size:13px;color:#444'>{head}</div>" + "".join(parts)
