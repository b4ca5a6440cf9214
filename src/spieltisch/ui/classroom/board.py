"""The class board's model: verified results of one class round and what they show together
(mean, histogram, expected value of best play, the bots, the rankings, where points were lost)."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from fractions import Fraction

from ...core.advice import estimated_loss, value_json
from ...core.errors import short
from ...core.game import CHANCE, action_label
from ...core.match import Match
from ...core.registry import bot_names
from ..session import PlaySession
from ..table import BOT_WORDS, HUMAN, load_view
from .codes import (
    CANDIDATE_DECISIONS, CodeError, FORMAT, MAX_CODE_CHARS, MAX_ENTRIES, MAX_LABEL_CHARS, MAX_STEPS, SHOWN_DECISIONS,
    grouped, harmless_cell, normalize,
)
from .rounds import ClassRound, parse_class
from .paste import LINK, split_entries
from .results import Result, verify_result


# --- the class board --------------------------------------------------------------------------------
def _value_json(value) -> dict | None:
    return None if value is None else value_json(value)


NICE_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000)
MAX_BINS = 12


def histogram(points, marks=()) -> dict:
    """Bins of a round width (at most ``MAX_BINS``) over the points and the reference values."""
    values = [float(p) for p in points] + [float(m) for m in marks]
    if not values:
        return {"width": 1, "bins": []}
    lo, hi = math.floor(min(values)), math.floor(max(values))
    width = next((w for w in NICE_WIDTHS if (hi // w - lo // w) + 1 <= MAX_BINS), NICE_WIDTHS[-1])
    start = lo // width * width
    bins = [{"lo": start + i * width, "hi": start + (i + 1) * width, "count": 0}
            for i in range(hi // width - lo // width + 1)]
    for p in points:
        bins[int((math.floor(p) - start) // width)]["count"] += 1
    return {"width": width, "bins": bins}


def ranking_note(cls, objective: dict | None, estimate: bool, lang: str, by: str = "decisions") -> str:
    """Why the ranking is what it is, in ``lang``: by decisions, what the loss is measured against
    (the advisor's own objective, ``objective``: for some games this turn's points, not the whole
    game's) and, for an estimate, that overlapping ranges leave the order open; by points, that the
    points hold decisions and luck together. The words for luck are the game's (``chance_words``)."""
    luck = cls.chance_words[lang]["luck"]
    if by == "points":
        return (f"Die Rangliste nach Punkten zählt die Punkte des Spiels – Entscheidungen und {luck} zusammen."
                if lang == "de" else
                f"The ranking by points counts the game's points – decisions and {luck} together.")
    measure = f": {objective[lang]}" if objective else ""
    if not cls.ranks_decisions:
        # the advisor values a turn, not the game: a winner's good play can count as points given away
        if lang == "de":
            return ("Bei diesem Spiel bewertet der Berater nur einen Zug"
                    f"{measure}. Was Entscheidungen danach „verschenken“, misst nicht, wer über das ganze Spiel am "
                    "besten entschieden hat (wer gewinnt, hat mehr Entscheidungen und kann dabei mehr verschenken). "
                    "Darum ordnet die Rangliste zuerst nach Punkten; diese Ansicht ist nur ein Hinweis, "
                    + ("geschätzt aus Probespielen (in Klammern der 95-%-Bereich). " if estimate else "exakt für diesen Zug. ")
                    + f"Weniger ist besser. Gute Entscheidungen und {luck} sind zweierlei.")
        return ("In this game the advisor values only a turn"
                f"{measure}. What decisions \"give away\" by that does not measure who decided best over the whole "
                "game (a winner has more decisions and can give more away). So the ranking is by points first; this "
                "view is a hint only, "
                + ("estimated from play-outs (in brackets the 95 % range). " if estimate else "exact for that turn. ")
                + f"Less is better. Good decisions and {luck} are different things.")
    if lang == "de":
        return ("Die Rangliste zählt Entscheidungen, nicht Glück: wie viel eure Entscheidungen gegenüber der besten "
                f"Wahl des Beraters verschenkt haben, gemessen an dem, was der Berater bewertet{measure}. Weniger ist "
                "besser. "
                + ("Geschätzt aus Probespielen: in Klammern der 95-%-Bereich; wo sich die Bereiche überlappen, ist "
                   "die Reihenfolge nicht sicher. " if estimate else "")
                + f"Gute Entscheidungen und {luck} sind zweierlei – die Punkte zeigt die zweite Ansicht.")
    return ("The ranking counts decisions, not luck: how much your decisions gave away against the advisor's best "
            f"choice, measured by what the advisor values{measure}. Less is better. "
            + ("Estimated from play-outs: in brackets the 95 % range; where the ranges overlap, the order is not "
               "certain. " if estimate else "")
            + f"Good decisions and {luck} are different things – the points are the second view.")


def _name_key(result: Result):
    """Whose result this is, as the board tells names apart (None: neither a name nor a number)."""
    if result.label:
        return ("label", " ".join(result.label.split()).casefold())
    return ("number", result.number) if result.number else None


class Board:
    """The class board's model: verified results of one class round and what they show together.

    ``add(text)`` verifies each code of a paste by replaying it; a refused code changes nothing.
    ``to_json()``/``from_json()`` keep only the codes and names (a stored board is verified again
    when it is loaded, so a changed storage cannot bring in points no game made)."""

    def __init__(self, class_code):
        self.round = parse_class(class_code)
        self.results: list[Result] = []
        self.unread: list[dict] = []  # stored results refused on loading: {"code", "label", "reason"}
        self._best = None
        self._bots = None
        self._advice: dict = {}
        self._loss: dict = {}  # a result's decisions (its path) -> the expected points they gave away
        self._objectives: list = []  # what the advisor values (its advices' objectives), as it has been asked

    # --- filling ---
    def add(self, text, same_decisions_once: bool = True) -> dict:
        """``{"added": [{"code", "points", "label", "same_as"?}], "refused": [{"input", "reason": {de, en}}]}``.
        A code whose decisions equal a result's on the board is added (``same_as``: whose): two students
        who play the best moves, or by the same fixed rule, decide alike without copying, so both names
        stay, at one place of the ranking, and the game counts once in the class's mean and histogram
        (``same_decisions_once``); a live class, whose server saw each student play their own game,
        passes False and counts each. A code already on the board is refused."""
        added, refused = [], []
        try:
            entries = split_entries(text, self.round.code, self._replays)
        except CodeError as e:
            return {"added": [], "refused": [{"input": short(text, 40, str), "reason": e.text}]}
        for label, raw in entries:
            try:
                if raw is None:  # a link, or a line in which split_entries found nothing shaped like a code
                    raise self._link_refusal(label) or CodeError(NO_CODE["en"], NO_CODE["de"], "no_code")
                code = normalize(raw, "result code")
                if any(r.code == code for r in self.results):
                    raise CodeError("this result code is on the board already", "dieser Ergebniscode ist schon da")
                result = verify_result(self.round, code)
            except CodeError as e:
                refused.append({"input": short(_as_read(label, raw), 40, str), "reason": self._what_it_is(raw, e).text})
                continue
            result.label = label
            result.group = same_decisions_once
            twin = next((r for r in self.results if r.group and r.path == result.path), None) \
                if same_decisions_once else None
            self.results.append(result)
            added.append({"code": code, "points": result.points, "label": label})
            if twin is not None:
                added[-1]["same_as"] = {"de": f"dieselben Entscheidungen wie {twin.name('de')}: ein Platz, einmal "
                                              "gezählt",
                                        "en": f"the same decisions as {twin.name('en')}: one place, counted once"}
        return {"added": added, "refused": refused}

    def remove(self, code) -> None:
        code = normalize(code, "result code")
        self.results = [r for r in self.results if r.code != code]

    def _replays(self, code: str) -> bool:
        """Whether ``code`` is a game of this round (the paste reader's tie-break)."""
        try:
            verify_result(self.round, code)
        except CodeError:
            return False
        return True

    def _link_refusal(self, text: str) -> CodeError | None:
        """What a link pasted with the codes is (None: ``text`` is not a link): the class link of this
        round or of another (``?class=CODE``), or some other address – never a result code."""
        if not LINK.fullmatch(text):
            return None
        m = re.search(r"[?&]class=([0-9A-Za-z-]+)", text)
        if m:
            try:
                other = parse_class(m.group(1))
            except CodeError:
                other = None
            if other is not None and other.code == self.round.code:
                return CodeError("that is the link to this class round, not a result code: the result code is "
                                 "shown on the student's page at the end of the game",
                                 "das ist der Link zu dieser Klassenrunde, kein Ergebniscode: den Ergebniscode "
                                 "zeigt die Seite der Schülerin oder des Schülers am Ende des Spiels", "class_link")
            if other is not None:
                return CodeError(f"that is the link to another class round ({grouped(other.code)}), not a result code",
                                 f"das ist der Link zu einer anderen Klassenrunde ({grouped(other.code)}), kein "
                                 "Ergebniscode", "class_link")
        return CodeError("that is a link, not a result code (a result code is a row of digits and capital letters, "
                         "e.g. WP7J-45B7-VZRK)",
                         "das ist ein Link, kein Ergebniscode (ein Ergebniscode ist eine Reihe aus Ziffern und "
                         "Großbuchstaben, z. B. WP7J-45B7-VZRK)", "link")

    def _what_it_is(self, raw, refusal: CodeError) -> CodeError:
        """A class code pasted where a result code belongs fails the result code's checks, which would
        call it mistyped: the refusal says what it is instead."""
        if raw is None or refusal.kind not in ("typo", "garbled"):
            return refusal
        code = normalize(raw, "result code")
        if code == self.round.code:
            return CodeError("that is this round's class code, not a result code: the result code is shown on the "
                             "student's page at the end of the game",
                             "das ist der Klassencode dieser Runde, kein Ergebniscode: den Ergebniscode zeigt die "
                             "Seite der Schülerin oder des Schülers am Ende des Spiels", "class_code")
        try:
            other = parse_class(code)
        except CodeError:
            return refusal
        return CodeError(f"that is a class code (of another round, {grouped(other.code)}), not a result code",
                         f"das ist ein Klassencode (einer anderen Runde, {grouped(other.code)}), kein Ergebniscode",
                         "class_code")

    def forget_unread(self) -> None:
        """The teacher's action that removes the results this board could not read."""
        self.unread = []

    def to_json(self) -> dict:
        """The codes and names; ``"unread"``: the stored results this board could not read (kept, so
        saving the board again never drops what it was opened with)."""
        return {"format": FORMAT, "class": self.round.code,
                "results": [{"code": r.code, "label": r.label} for r in self.results],
                "unread": [{"code": u["code"], "label": u["label"]} for u in self.unread]}

    @classmethod
    def from_json(cls, data) -> "Board":
        """A stored board, every code verified again. A stored result this board refuses (a code of an
        older layout, a changed storage) is not dropped: it goes to ``unread`` with the refusal's
        words, is shown as such and written back by ``to_json``, so only the teacher removes it."""
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("results"), list):
            raise CodeError("not a stored class board", "keine gespeicherte Klassen-Auswertung")
        board = cls(data.get("class"))
        unread = data.get("unread") if isinstance(data.get("unread"), list) else []
        for item in data["results"] + unread:  # an unread one is tried again: this page may read it now
            if not (isinstance(item, dict) and isinstance(item.get("code"), str)):
                continue  # not a result at all (no code): nothing to keep
            label = item.get("label")
            label = " ".join(label.split())[:MAX_LABEL_CHARS] or None if isinstance(label, str) else None
            code = item["code"][:MAX_CODE_CHARS]
            if len(board.results) >= MAX_ENTRIES:
                board.unread.append({"code": code, "label": label, "reason": {
                    "en": f"a board holds at most {MAX_ENTRIES} results",
                    "de": f"eine Auswertung fasst höchstens {MAX_ENTRIES} Ergebnisse"}})
                continue
            # the stored code alone (its name is set below, not read from the text: a name is no code)
            before = len(board.results)
            outcome = board.add(code)
            if len(board.results) > before:
                board.results[-1].label = label
                continue
            reason = outcome["refused"][0]["reason"] if outcome["refused"] else NO_CODE
            if reason == NO_CODE:  # too short to look like a code: what the code's own reading says
                try:
                    verify_result(board.round, code)
                except CodeError as e:
                    reason = e.text
            board.unread.append({"code": code, "label": label, "reason": reason})
        return board

    # --- what the board shows ---
    def standing(self) -> tuple[list, list]:
        """``(entries, later)``: the results that count, each entry a list of results with the same
        decisions (one place, counted once; a live class's results each stand alone), in the order
        added; and the later results under a name or number that has one already (a second tab, a
        second browser: only the first counts, the board says so; not in a live class, whose server
        tells two students of one name apart)."""
        seen, counted, later = set(), [], []
        for r in self.results:
            key = _name_key(r) if r.group else None  # a live class's server knows its students apart
            if key is not None and key in seen:
                later.append(r)
                continue
            seen.add(key)
            counted.append(r)
        groups, entries = {}, []
        for r in counted:
            k = ("path", r.path) if r.group else ("code", r.code)
            if k not in groups:
                groups[k] = []
                entries.append(groups[k])
            groups[k].append(r)
        return entries, later

    def name_flags(self, lang: str) -> list[dict]:
        """The names (or numbers) with more than one result: ``[{"name", "results", "text"}]``."""
        counts: dict = {}
        for r in self.results:
            key = _name_key(r) if r.group else None
            if key is not None:
                counts.setdefault(key, []).append(r)
        out = []
        for rs in counts.values():
            if len(rs) > 1:
                name = rs[0].name(lang)
                text = (f"{name}: {len(rs)} Ergebnisse, gewertet wird das erste" if lang == "de"
                        else f"{name}: {len(rs)} results, the first counts")
                out.append({"name": name, "results": len(rs), "codes": [r.code for r in rs], "text": text})
        # one number under different names: a typo, or one student's two games under two names (both
        # count, as the names differ; the teacher decides)
        numbers: dict = {}
        for r in self.results:
            if r.group and r.label and r.number:
                numbers.setdefault(r.number, {}).setdefault(_name_key(r), r)
        for number, by_name in numbers.items():
            if len(by_name) > 1:
                rs = list(by_name.values())
                names = (" und " if lang == "de" else " and ").join(r.label for r in rs)
                text = (f"Nr. {number}: {names} – eine Nummer unter {len(rs)} Namen" if lang == "de"
                        else f"No. {number}: {names} – one number under {len(rs)} names")
                out.append({"name": names, "results": len(rs), "codes": [r.code for r in rs], "text": text})
        return out

    def best_expected(self):
        """The exact expected points of best play for the student's seat, where the game's analysis
        has it (Würfel Joker: ``optimal_expected_total``), else None."""
        if self._best is None:
            game = self.round.game()
            value = None
            if game.analyzer is not None and self.round.cls.solves_whole_game:
                # only an analysis that solves the whole game has this value; others' are other facts
                found = game.analyze().get("optimal_expected_total")
                if isinstance(found, dict) and "fraction" in found:
                    value = Fraction(found["fraction"])
            self._best = [value]
        return self._best[0]

    def bot_points(self) -> list[dict]:
        """Each bot's points in this very class game, playing the student's seat(s) in their place."""
        if self._bots is None:
            out = []
            for name in bot_names(self.round.game_id):
                seats = tuple(name if s == HUMAN else s for s in self.round.seats)
                r = ClassRound(self.round.game_id, self.round.players, seats, self.round.options,
                               self.round.seed, self.round.advisor)
                session = PlaySession(r.game(), None, None, r.seed, bots=r.bots, secret=self.round.secret)
                session.run_until_human(MAX_STEPS)
                out.append({"bot": name, "points": session.match.state.scores()[self.round.humans[0]]})
            self._bots = out
        return self._bots

    def expected_loss(self, result: Result) -> dict:
        """The expected points the student's decisions gave away against best play: each decision of
        the student's seat valued by the game's advisor (``core.advice.review`` with the view's review
        settings), the losses added up. Exact where the advisor is exact (Würfel Joker's solvers, the
        per-turn solvers); otherwise the sum of the advisor's estimates (``Decision.loss``: the leader's
        mean minus the chosen option's on the same play-outs, also where the two are tied) with a 95 %
        interval (each decision's ``loss_ci``, combined as independent errors). Luck plays no part in it: a game
        played with the throws known scores high and still gives away what its decisions give away.
        ``{"method": "exact", "fraction", "float", "decisions"}`` or ``{"method": "estimate", "float",
        "ci95": [lo, hi], "decisions"}``."""
        if result.path not in self._loss:
            from ...core.advice import review

            game = result.match.game
            rv = review(result.match, players=list(result.humans), **load_view(type(game)).review_settings(game))
            decisions = rv.decisions
            for d in decisions:  # (Schraube Locker's dice and card decisions measure different things)
                if d.advice is not None and d.advice.objective not in self._objectives:
                    self._objectives.append(d.advice.objective)
            if all(d.exact for d in decisions):
                total = sum((Fraction(d.loss) for d in decisions), Fraction(0))
                out = {"method": "exact", **value_json(total)}
            else:
                # each decision's loss with its own (skewed) interval; the decisions' errors combined
                # as independent ones, below and above the sum separately
                # (uncut: a tied choice adds about 0, not the winner's curse of a cut at 0)
                raw = [d.loss_raw or (float(d.loss), float(d.loss), float(d.loss)) for d in decisions]
                mean = sum(x for x, _, _ in raw)
                below = math.sqrt(sum((x - lo) ** 2 for x, lo, _ in raw))
                above = math.sqrt(sum((hi - x) ** 2 for x, _, hi in raw))
                out = {"method": "estimate", "float": max(0.0, mean),
                       "ci95": [max(0.0, mean - below), max(0.0, mean + above)]}
            out["decisions"] = len(decisions)
            self._loss[result.path] = out
        return self._loss[result.path]

    def opens_by(self) -> str:
        """The ranking the board opens with: by decisions only where the game's review measures the
        whole game (``Game.ranks_decisions``), else by points."""
        return "decisions" if self.round.cls.ranks_decisions else "points"

    def ranking(self, lang: str, by: str = "decisions") -> list[dict]:
        """The results that count (``standing``) ranked by decisions (the expected points they gave
        away, fewest first; points break a tie) or by ``by="points"``; each entry with its expected
        loss. Results with the same decisions share one entry, their names joined. By an estimate,
        ``"uncertain": [first, last]`` gives the places whose ranges overlap this one's chain (the
        order among them is not certain), else None."""
        if by not in ("decisions", "points"):
            raise CodeError(f"a ranking is by decisions or by points, not {short(by)}",
                            f"eine Rangliste geht nach Entscheidungen oder nach Punkten, nicht {short(by)}")
        entries, _ = self.standing()
        if by == "points":
            def key(e):
                return (-e[0].points,)
        else:
            def key(e):
                return (round(self.expected_loss(e[0])["float"], 9), -e[0].points)
        ordered = sorted(entries, key=key)
        out, rank = [], 0
        for i, e in enumerate(ordered):
            r = e[0]
            if i == 0 or key(e) != key(ordered[i - 1]):
                rank = i + 1
            # by points the expected loss is shown where it is known already (it takes the advisor)
            loss = self.expected_loss(r) if by == "decisions" else self._loss.get(r.path)
            name = r.name(lang)
            if len(e) > 1:
                name = ", ".join(x.name(lang) for x in e) + (" – gleiche Entscheidungen" if lang == "de"
                                                              else " – same decisions")
            out.append({"rank": rank, "name": name, "points": r.points, "code": r.code, "shown": grouped(r.code),
                        "codes": [x.code for x in e], "expected_loss": loss, "uncertain": None})
        if by == "decisions":
            _mark_uncertain(out)
        return out

    def uncertain_note(self, ranking: list, lang: str) -> str | None:
        """The places a ranking by an estimate cannot tell apart, in words (None: none)."""
        spans = sorted({tuple(x["uncertain"]) for x in ranking if x["uncertain"]})
        if not spans:
            return None
        places = ", ".join(f"{a}–{b}" for a, b in spans)
        # (a chain: places 1 and 3 may differ clearly while each overlaps place 2, so it is their order
        # that is not certain, not that every two of them are alike)
        return (f"Plätze {places}: Reihenfolge nicht gesichert – benachbarte Bereiche überlappen." if lang == "de"
                else f"Places {places}: order not certain – neighbouring ranges overlap.")

    def decisions(self, lang: str) -> list[dict]:
        """Where the class lost points: among the decisions at least half of the results reached
        (at least two), those that cost the class the most, with how many chose each option, the
        best option and each option's loss (the advisor's values, as the review computes them)."""
        # one game per entry: a second result of a name, or the same decisions twice, count once
        results = [e[0] for e in self.standing()[0]]
        n = len(results)
        if n < 2:
            return []
        reached: dict[tuple, list] = {}  # path before the decision -> [(result, choice)]
        for r in results:
            for depth, (at, choice, _) in enumerate(r.choices):
                reached.setdefault(r.path[:depth], []).append((r, choice))
        enough = max(2, math.ceil(n / 2))
        candidates = sorted((p for p, who in reached.items() if len(who) >= enough), key=len)[:CANDIDATE_DECISIONS]
        out = []
        for path in candidates:
            who = reached[path]
            first = who[0][0]
            at = first.choices[len(path)][0]
            advice, situation, rnd = self._advise(first.match, at, path)
            counts: dict[int, int] = {}
            for _, choice in who:
                counts[choice] = counts.get(choice, 0) + 1
            legal = _state_at(first.match, at).legal_actions()
            best = advice.options[0]
            options, class_loss = [], Fraction(0) if advice.exact else 0.0
            for index, action in enumerate(legal):
                opt = advice.option_for(action)
                # what the choice lost, as core.advice.review values the chosen option
                if advice.exact:
                    loss = Fraction(0) if opt.best else best.value - opt.value
                else:
                    loss = max(0.0, estimated_loss(advice, opt)[0])
                count = counts.get(index, 0)
                class_loss += count * loss
                # only what someone chose and what lost points, and the best option to compare
                if (count and loss > 0) or opt is best:
                    options.append({"label": opt.label[lang], "count": count, "best": opt.best,
                                    "loss": _value_json(loss) if advice.exact else {"float": float(loss)}})
            if not class_loss > 0:
                continue  # everyone chose the best: nothing lost here
            options.sort(key=lambda o: (o["label"] != best.label[lang], -o["count"]))
            out.append({"at": at, "round": rnd, "reached": len(who), "situation": situation[lang],
                        "exact": advice.exact, "options": options,
                        "class_loss": _value_json(class_loss) if advice.exact else {"float": float(class_loss)}})
        out.sort(key=lambda d: -d["class_loss"]["float"])
        return out[:SHOWN_DECISIONS]

    def _advise(self, match: Match, at: int, path: tuple):
        key = path
        if key not in self._advice:
            from ...core.advice import review

            game = match.game
            rv = review(match, start=at, limit=1, **load_view(type(game)).review_settings(game))
            decision = rv.decisions[0]
            chance = [a for a, m in zip(match.actions[:at], match.movers[:at]) if m == CHANCE]
            situation = {}
            for lang in ("de", "en"):
                parts = []
                if decision.round is not None:
                    parts.append(f"{'Runde' if lang == 'de' else 'round'} {decision.round}")
                parts.append(f"{'Entscheidung' if lang == 'de' else 'decision'} {len(path) + 1}")
                if chance:
                    parts.append(("nach: " if lang == "de" else "after: ") + action_label(chance[-1], lang))
                situation[lang] = " · ".join(parts)
            self._advice[key] = (decision.advice, situation, decision.round)
        return self._advice[key]

    def summary(self, lang: str = "de", bots: bool = True, decisions: bool = True, losses: bool = True) -> dict:
        """Everything the board shows, JSON-ready: the results, mean, histogram with the exact
        expected value of best play and the bots' points as marks, the ranking, the decisions.
        ``losses=False`` leaves out what needs the advisor per result (the expected loss, so the
        ranking is by points until the board asks for the full summary)."""
        entries, later = self.standing()
        points = [e[0].points for e in entries]  # one per game that counts
        mean = Fraction(sum(points), len(points)) if points else None
        best = self.best_expected()
        bot_list = self.bot_points() if bots else []
        bots_mean = Fraction(sum(b["points"] for b in bot_list), len(bot_list)) if bot_list else None
        marks = [m for m in (best, bots_mean) if m is not None]
        view = load_view(self.round.cls)
        names = {**BOT_WORDS, **view.bot_names}
        counted = {e[0].code for e in entries}
        ranking = self.ranking(lang, "decisions" if losses else "points")
        objective = {lang: "; ".join(o[lang] for o in self._objectives) for lang in ("de", "en")} \
            if self._objectives else None
        estimate = losses and any((self._loss.get(r.path) or {}).get("method") == "estimate" for r in self.results)
        return {
            "class": self.round.describe(lang),
            "results": [{"code": r.code, "shown": grouped(r.code), "name": r.name(lang), "number": r.number,
                         "points": r.points, "scores": r.scores, "valid": True, "counted": r.code in counted,
                         "expected_loss": self.expected_loss(r) if losses else None} for r in self.results],
            "count": len(self.results),
            "counted": len(points),
            "name_flags": self.name_flags(lang),
            "mean": _value_json(mean),
            "best_expected": _value_json(best),
            "bots": [{**b, "name": names.get(b["bot"], {"de": b["bot"], "en": b["bot"]})[lang]} for b in bot_list],
            "bots_mean": _value_json(bots_mean),
            "histogram": histogram(points, marks),
            "ranking": ranking,
            "ranking_by": "decisions" if losses else "points",
            "ranking_default": self.opens_by() if losses else "points",
            "ranking_points": self.ranking(lang, "points"),
            "ranking_note": ranking_note(self.round.cls, objective, estimate, lang),
            "ranking_points_note": ranking_note(self.round.cls, None, False, lang, "points"),
            "ranking_uncertain": self.uncertain_note(ranking, lang),
            "loss_objective": None if objective is None else objective[lang],
            "decisions": self.decisions(lang) if decisions else [],
            "unread": [{"code": u["code"], "name": u["label"], "reason": u["reason"][lang]} for u in self.unread],
        }

    def csv(self, lang: str = "de") -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        players = self.round.players
        # ranked as the board opens (``opens_by``); the file says which, and gives what the decisions
        # gave away (with its range for an estimate)
        by = self.opens_by()
        head = (["rank", "name", "number", "points", "code"] + [f"seat_{p + 1}" for p in range(players)]
                + ["ranked_by", "given_away", "given_away_low", "given_away_high"])
        w.writerow(head)
        by_code = {r.code: r for r in self.results}
        for row in self.ranking(lang, by):
            loss = row.get("expected_loss") or {}
            low, high = loss.get("ci95") or (loss.get("float"), loss.get("float"))
            # a place shared by the same decisions: a row for each of its results, at the same rank
            for code in row["codes"]:
                r = by_code[code]
                # a name is what a student typed: "=1+1" or "=HYPERLINK(…)" must stay text in a spreadsheet
                w.writerow([harmless_cell(x) for x in (row["rank"], r.label or "", r.number or "", r.points,
                                                       grouped(r.code), *r.scores, by,
                                                       *("" if v is None else round(v, 3)
                                                         for v in (loss.get("float"), low, high)))])
        return buf.getvalue()


def _mark_uncertain(ranking: list) -> None:
    """Set ``"uncertain": [first, last]`` on the entries of a ranking by estimates whose 95 % ranges
    chain together (each overlaps the next one's or an earlier one's in the chain): the order among them
    is not certain. An exact loss has no range (it is itself)."""
    def span(x):
        loss = x["expected_loss"] or {}
        if loss.get("method") == "estimate":
            return tuple(loss["ci95"])
        return (loss.get("float", 0.0), loss.get("float", 0.0))

    if not any((x["expected_loss"] or {}).get("method") == "estimate" for x in ranking):
        return
    i = 0
    while i < len(ranking):
        top = span(ranking[i])[1]
        j = i
        while j + 1 < len(ranking) and span(ranking[j + 1])[0] <= top:
            j += 1
            top = max(top, span(ranking[j])[1])
        if j > i:
            for x in ranking[i:j + 1]:
                x["uncertain"] = [ranking[i]["rank"], ranking[j]["rank"]]
        i = j + 1


def _state_at(match: Match, at: int):
    state = match.game.new_initial_state()
    for action in match.actions[:at]:
        state.apply_action(action)
    return state


NO_CODE = {"en": "no result code found in this line (a result code is a row of digits and capital letters, "
                 "e.g. WP7J-45B7-VZRK)",
           "de": "in dieser Zeile steht kein Ergebniscode (ein Ergebniscode ist eine Reihe aus Ziffern und "
                 "Großbuchstaben, z. B. WP7J-45B7-VZRK)"}


def _as_read(label, raw) -> str:
    """An entry as the reader took it, for its refusal: a line without a code is all name."""
    return label if raw is None else raw if label is None else f"{label}: {raw}"
