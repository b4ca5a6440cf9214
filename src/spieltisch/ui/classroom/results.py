"""Result codes: a student's decisions packed as an arithmetic code, and their verification by
replaying the class game (bots and chance as on the student's device); a kept game resumed."""

from __future__ import annotations

from dataclasses import dataclass
from hashlib import blake2b

from ...core.errors import short
from ...core.game import record_key
from ...core.match import Match
from .codes import (
    ALPHABET, CodeError, MAX_NUMBER, MAX_STEPS, RESULT_FORMAT, TAG_CHARS, _VALUE,
    _check, _from_chars, _garbled, _symbols, _to_chars, grouped, normalize,
)
from .rounds import ClassRound


# --- result codes ---------------------------------------------------------------------------------
@dataclass
class Result:
    """A verified result: the replayed class game of one student's decisions."""

    code: str
    match: Match
    choices: tuple  # (record index, chosen index, how many options) of each human decision
    number: int  # the student's number for the ranking, 0 = none
    humans: tuple
    label: str | None = None  # a name typed with the code on the board ("Lena: CODE")
    # the same decisions as another result share its place and count once (not in a live class, whose
    # server saw each student play their own game)
    group: bool = True

    @property
    def scores(self) -> list:
        return list(self.match.state.scores())

    @property
    def points(self):
        """The points of the student's seat (the first human seat)."""
        return self.match.state.scores()[self.humans[0]]

    @property
    def path(self) -> tuple:
        return tuple(c for _, c, _ in self.choices)

    def name(self, lang: str) -> str:
        if self.label:
            return self.label
        if self.number:
            return f"Nr. {self.number}" if lang == "de" else f"No. {self.number}"
        return "–"


def _tag(class_code: str) -> str:
    """``TAG_CHARS`` characters naming the class round inside a result code: a code of another round
    keeps its check characters (they cover the result code alone) and differs here, except with
    probability 32**-TAG_CHARS, so it is refused as another round's rather than as mistyped."""
    digest = blake2b(class_code.encode(), digest_size=8, person=b"spieltisch/ctag").digest()
    return _to_chars(int.from_bytes(digest, "little") % 32 ** TAG_CHARS).rjust(TAG_CHARS, "0")


def _old_format(round_: ClassRound, code: str) -> bool:
    """Whether ``code`` is a result code of this round in layout 0 (before the two-character tag):
    one tag character (the first of the same hash) and checks over the class code and the result
    code together. A mistyped code of layout 1 passes this with probability 2**-15."""
    if len(code) < 4:
        return False
    old_tag = blake2b(round_.code.encode(), digest_size=1, person=b"spieltisch/ctag").digest()[0] % 32
    symbols = _symbols(round_.code + code[:-2])
    return (_VALUE[code[-3]], _VALUE[code[-2]], _VALUE[code[-1]]) == (old_tag, _check(symbols, 1), _check(symbols, 2))


# The result code is an arithmetic code of the decisions: each decision's options get weights, and
# the code is the shortest base-32 fraction inside the interval the choices narrow down to. Where a
# game has a quick exact bot, its choice gets three quarters of the weight (a student who mostly
# plays well writes a short code; Würfel Joker's "throw again?" costs 0.4 instead of 1 bit), every
# other option the same share of the rest. Without a model every option weighs the same: then the
# code is the mixed-radix number of the choices.


class _Model:
    def __init__(self, game):
        self.bot = None
        name = type(game).result_code_bot
        if name is not None:
            from ...core.registry import make_bot

            self.bot = make_bot(game, name)

    def weights(self, state, legal) -> list[int]:
        n = len(legal)
        weights = [1] * n
        if self.bot is not None:
            from ...core.rng import Rng

            choice = self.bot.act(state.observation(state.current_player()), legal, Rng(0))
            for i, a in enumerate(legal):
                if a is choice or (type(a) is type(choice) and a == choice):
                    weights[i] = 3 * (n - 1)
                    break
        return weights


class _Encoder:
    """An exact arithmetic coder: the interval [L/D, (L+W)/D) in integers."""

    def __init__(self):
        self.low, self.width, self.den = 0, 1, 1

    def put(self, index: int, weights) -> None:
        total = sum(weights)
        self.low = self.low * total + self.width * sum(weights[:index])
        self.width *= weights[index]
        self.den *= total

    def chars(self) -> str:
        k = 1
        while True:
            scale = 32 ** k
            m = -((-self.low * scale) // self.den)  # the least k-digit fraction at or above the interval's start
            if m * self.den < (self.low + self.width) * scale:
                return _to_chars(m).rjust(k, "0")
            k += 1


class _Decoder(_Encoder):
    def __init__(self, chars: str):
        super().__init__()
        self.m, self.scale = _from_chars(chars), 32 ** len(chars)

    def take(self, weights) -> int:
        total = sum(weights)
        rest = (self.m * self.den - self.low * self.scale) * total // (self.width * self.scale)
        cum = 0
        for index, w in enumerate(weights):
            if rest < cum + w:
                self.put(index, weights)
                return index
            cum += w
        raise _garbled("it lies outside every game", "er liegt außerhalb jedes Spiels")


def _result_chars(round_: ClassRound, choices, number: int) -> str:
    """``choices``: (index, weights) of each decision, in order."""
    coder = _Encoder()
    coder.put(RESULT_FORMAT, (1, 1))
    for index, weights in choices:
        coder.put(index, weights)
    coder.put(number, (1,) * (MAX_NUMBER + 1))
    body = coder.chars() + _tag(round_.code)
    symbols = _symbols(body)  # not the class code: a code of another round keeps its checks
    return body + ALPHABET[_check(symbols, 1)] + ALPHABET[_check(symbols, 2)]


def _check_number(number) -> int:
    if number is None:
        return 0
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MAX_NUMBER:
        raise CodeError(f"a student's number is 1 to {MAX_NUMBER}, not {short(number)}",
                        f"die Nummer ist 1 bis {MAX_NUMBER}, nicht {short(number)}")
    return number


def result_code(round_: ClassRound, match: Match, number: int | None = None, verify: bool = True) -> str:
    """The result code of a finished class game ``match`` (a table's, or a saved record's).
    ``verify``: replay the code as the board will and compare it with ``match`` move by move, so a
    record whose bots or throws are not the class game's is refused here, naming the first move that
    differs (a table's own match needs no such check)."""
    number = _check_number(number)
    game = match.game
    if (game.id, game.num_players, dict(game.options), match.seed, match.secret) != (
            round_.game_id, round_.players, dict(round_.options), round_.seed, round_.secret):
        raise CodeError("this game is not the class round's (another game, player count, option or seed)",
                        "dieses Spiel ist nicht das der Klassenrunde (anderes Spiel, andere Spielerzahl, Regel oder "
                        "anderer Startwert)")
    if not match.is_terminal():
        raise CodeError("the game is not finished: a result code is made at the end",
                        "das Spiel ist noch nicht zu Ende: den Ergebniscode gibt es am Schluss")
    game = round_.game()
    model = _Model(game)
    state = game.new_initial_state()
    choices = []
    humans = set(round_.humans)
    for action, mover in zip(match.actions, match.movers):
        if mover in humans:
            legal = state.legal_actions()
            if len(legal) > 1:
                key = record_key(action.to_json())
                index = next(i for i, a in enumerate(legal) if record_key(a.to_json()) == key)
                choices.append((index, model.weights(state, legal)))
        state.apply_action(action)
    code = _result_chars(round_, choices, number)
    if verify:
        try:
            replayed = verify_result(round_, code).match
        except CodeError:
            # the code does not replay (a record with chosen throws or another bot's moves can make
            # choices the class game never offers): name the record's first action the class game
            # would not make, as below
            replayed = _class_replay(round_, match)
        mine, theirs = match.record_actions(), replayed.record_actions()
        if mine != theirs:
            i = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
            raise CodeError(f"this record is not a game of the class round: its action {i} "
                            f"({short(mine[i] if i < len(mine) else None)}) is not what the class game's bots or "
                            f"throws do there ({short(theirs[i] if i < len(theirs) else None)})",
                            f"diese Aufzeichnung ist kein Spiel der Klassenrunde: ihre Aktion {i} passt nicht zu den "
                            "Bots oder Würfen des Klassenspiels")
    return code


def _class_replay(round_: ClassRound, match: Match) -> Match:
    """The class game with ``match``'s human moves, as far as they are legal there: bots and chance
    as the class game makes them. It stops at the first human move the class game does not offer."""
    session = round_.session()
    mine = match.record_actions()
    humans = set(round_.humans)
    for _ in range(MAX_STEPS):
        if session.is_over():
            break
        i = len(session.match.actions)
        if session.waiting_for_human():
            if i >= len(mine) or match.movers[i] not in humans:
                break
            key = record_key(mine[i])
            legal = [a for a in session.legal_actions() if record_key(a.to_json()) == key]
            if not legal:
                break
            session.act(legal[0])
        else:
            session.step()
    return session.match


def resume_table(table, actions) -> int:
    """A class table brought back to where a kept game stood (a reload, a second tab: the page keeps
    its class game's record actions on the device). The kept actions are replayed as the table plays
    them — a human's move as a move, a bot's move or a throw as the table's own step, which makes the
    same one — and the replay stops at the first kept action the class game does not make there (a
    changed or foreign storage). Returns how many kept actions stand."""
    if not isinstance(actions, list):
        return 0
    session = table.session
    done = len(session.match.actions)  # the set-up's chance events, which a new table has run
    if session.match.record_actions() != actions[:done]:
        return 0
    for _ in range(MAX_STEPS):
        if done >= len(actions) or session.is_over():
            break
        if session.waiting_for_human():
            key = record_key(actions[done])
            legal = [a for a in session.legal_actions() if record_key(a.to_json()) == key]
            if not legal:
                break
            table.act(legal[0])
        elif not table.step():
            break
        mine = session.match.record_actions()
        if mine[:min(len(mine), len(actions))] != actions[:len(mine)]:
            raise CodeError("the kept class game does not replay", "das gespeicherte Klassenspiel lässt sich nicht "
                            "wiederholen")
        done = len(mine)
    return min(done, len(actions))


def verify_result(round_: ClassRound, text) -> Result:
    """Replay a result code in the class game; a garbled, forged or foreign code is refused
    (``CodeError``) with the reason, and nothing else happens."""
    code = normalize(text, "result code")
    if len(code) < 4:
        raise CodeError("a result code is longer than that", "ein Ergebniscode ist länger", "typo")
    # the order tells the reasons apart: the checks (over the result code alone) catch every error in
    # up to two characters, so a code whose checks hold and whose tag differs is another round's
    symbols = _symbols(code[:-2])
    if len(code) < TAG_CHARS + 3 or (_check(symbols, 1), _check(symbols, 2)) != (_VALUE[code[-2]], _VALUE[code[-1]]):
        if _old_format(round_, code):
            raise CodeError("this result code is of an older spieltisch's layout, which is no longer read: the "
                            "student's page, opened again on the same device, shows the game's code anew",
                            "dieser Ergebniscode hat den Aufbau einer älteren Spieltisch-Version, der nicht mehr "
                            "gelesen wird: die Seite der Schülerin oder des Schülers, auf demselben Gerät neu "
                            "geöffnet, zeigt den Code des Spiels neu", "old_format")
        old = _VALUE[code[0]] < 16  # layout 0 starts with 0–F, layout 1 with G–Z
        raise CodeError("the result code's check characters do not match: a character is mistyped or missing"
                        + (" (or the code is of an older spieltisch's layout, which starts with 0–F)" if old else ""),
                        "die Prüfzeichen des Ergebniscodes stimmen nicht: ein Zeichen ist vertippt oder fehlt"
                        + (" (oder der Code hat den Aufbau einer älteren Spieltisch-Version, der mit 0–F beginnt)"
                           if old else ""), "typo")
    if code[-TAG_CHARS - 2:-2] != _tag(round_.code):
        raise CodeError(f"this result code belongs to another class round: this board's class code is "
                        f"{grouped(round_.code)} (its check characters hold: it is not mistyped)",
                        f"dieser Ergebniscode gehört zu einer anderen Klassenrunde: der Klassencode hier ist "
                        f"{grouped(round_.code)} (seine Prüfzeichen stimmen: er ist nicht vertippt)", "round")
    coder = _Decoder(code[:-TAG_CHARS - 2])
    if coder.take((1, 1)) != RESULT_FORMAT:
        raise _garbled("unknown layout", "unbekannter Aufbau")
    session = round_.session()
    model = _Model(session.game)
    choices, steps = [], []
    for _ in range(MAX_STEPS):
        if session.is_over():
            break
        if session.waiting_for_human():
            legal = session.legal_actions()
            index = 0
            if len(legal) > 1:
                weights = model.weights(session.state, legal)
                index = coder.take(weights)
                choices.append((len(session.match.actions), index, len(legal)))
                steps.append((index, weights))
            session.act(legal[index])
        else:
            session.step()
    else:
        raise _garbled("its game does not end", "sein Spiel endet nicht")
    number = coder.take((1,) * (MAX_NUMBER + 1))
    if _result_chars(round_, steps, number) != code:
        # (also where a code of another round meets this round's tag by chance, 1 in 32**TAG_CHARS)
        raise _garbled("it holds more than its game, or is not written the way spieltisch writes it",
                       "er enthält mehr als sein Spiel oder ist nicht so geschrieben, wie Spieltisch ihn schreibt")
    return Result(code, session.match, tuple(choices), number, round_.humans)
