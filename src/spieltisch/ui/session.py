"""A play session for front-ends: human seats, bot seats, and step-by-step progress (stdlib only).

The widgets, the Panel apps and ``spieltisch play`` drive a ``PlaySession``; it never decides a rule
itself, it asks the engine (``Match``/``State``) and reports what happened as log lines. Whatever it
hands to a bot, an advisor or a screen is an observation (``observation(seat)``, or the spectator's
for the projector), never the state itself.
"""

from __future__ import annotations

from ..core.errors import IllegalActionError, SpieltischError
from ..core.game import CHANCE, SPECTATOR, TERMINAL, State
from ..core.match import Match
from ..core.registry import make_bot
from ..core.rng import Rng


def action_visible(before, action, viewer, max_alternatives: int = 5000) -> bool:
    """Whether ``viewer`` can tell which action (or chance outcome) was taken at ``before``: their
    observation afterwards differs from the one every other possibility would have left. A log or
    a terminal shows an action's text only then (a thrown die: yes; another player's drawn card: no).
    ``before`` is left unchanged."""
    known = before.outcome_visible(action, viewer)
    if known is not None:
        return known
    if before.current_player() == CHANCE:
        others = [a for a, _ in before.chance_outcomes()]
    else:
        others = before.legal_actions()
    if len(others) > max_alternatives:
        return False  # too many to compare: say less rather than too much
    after = before.clone()
    after._apply(action)
    seen = after.observation(viewer)
    for other in others:
        if other == action and type(other) is type(action):
            continue
        alt = before.clone()
        alt._apply(other)
        if alt.observation(viewer) == seen:
            return False
    return True


REVEAL_SAMPLES = 32


def reveals_hidden(before, action, viewers, rng, samples: int = REVEAL_SAMPLES) -> bool:
    """Whether ``action`` (a player's move at ``before``) lets one of ``viewers`` see something that
    was hidden from them: their observation afterwards is not the same in every position they could
    not tell from ``before`` (the hidden parts drawn afresh, ``resample_hidden``). A move that turns up
    a card a viewer could not know differs in almost every draw; ``samples`` draws make a miss
    negligible (a hidden cell that is empty in 60 % of the draws is missed with 0.6**32 < 1e-7).
    ``before`` is left unchanged."""
    after = before.clone()
    after._apply(action)
    for viewer in viewers:
        seen = after.observation(viewer)
        for _ in range(samples):
            alt = before.resample_hidden(viewer, rng)
            if not alt.is_legal(action):
                return True  # the move itself tells the positions apart
            alt._apply(action)
            if alt.observation(viewer) != seen:
                return True
    return False


def reveal_job(before, action, viewers, seed: int) -> bool:
    """``reveals_hidden`` where a worker runs it (``PlaySession.pending_reveal``): everything it needs
    comes in, pickled; its redraws come from ``seed``."""
    return reveals_hidden(before, action, viewers, Rng(seed))


def _check_seat(seat, num_players: int, what: str = "seat") -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
        shown = repr(seat) if isinstance(seat, int) and not isinstance(seat, bool) else type(seat).__name__
        raise SpieltischError(f"a {what} is a number from 0 to {num_players - 1}, not {shown[:30]}")


class PlaySession:
    def __init__(self, game_id, players: int | None, options: dict | None = None, seed: int = 0,
                 bots: dict[int, str] | None = None, secret: int | None = None):
        """``game_id`` is a game id (then ``players`` and ``options`` configure it) or a configured
        ``Game`` (then both are None). ``bots`` maps seats to bot names; the other seats are human.
        ``secret``: the chance comes from the seed and this secret (``Match``). Everything is checked
        before the session exists: the game, the seed, every seat and bot."""
        self.match = Match(game_id, players, options, seed, secret)
        game = self.match.game
        if bots is not None and not isinstance(bots, dict):
            raise SpieltischError(f"bots map seats to bot names, got {type(bots).__name__}")
        self.bot_names = dict(bots or {})
        for seat in self.bot_names:
            _check_seat(seat, game.num_players, "bot seat")
        self.bots = {seat: make_bot(game, name) for seat, name in self.bot_names.items()}
        self.bot_rng = Rng(seed ^ 0x5EED)
        # (who, text); who = CHANCE for chance events. The full story, for the record: a screen
        # shows a line to a player only where ``action_visible`` says they could see it.
        self.log: list[tuple[int, str]] = []
        # a game with hidden parts: Undo must not let a player try out what they could not know
        self.hidden = type(self.match.state).resample_hidden is not State.resample_hidden
        self._revealing: set[int] = set()  # indices of human moves that showed a human something hidden
        # human moves not checked yet: index -> (position before, action, the human seats then)
        self._unchecked: dict[int, tuple] = {}
        self._reveal_rng = Rng(seed ^ 0x0BEF)

    @property
    def state(self):
        return self.match.state

    @property
    def game(self):
        return self.match.game

    @property
    def human_seats(self) -> list[int]:
        return [p for p in range(self.match.game.num_players) if p not in self.bots]

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` (dice or cards) or ``TERMINAL``."""
        return self.match.current_player()

    def chance_player(self) -> int | None:
        """At a chance node, whose throw or draw it is (a front-end shows "player 2 throws"); None
        elsewhere, and for events that belong to nobody."""
        if self.match.current_player() != CHANCE:
            return None
        return self.match.state.chance_player()

    def whose_turn(self) -> int | None:
        """The seat whose turn it is: the player to act, or the one throwing at a chance node; None
        when the game is over or the chance event is nobody's."""
        p = self.match.current_player()
        if p == CHANCE:
            return self.chance_player()
        return None if p == TERMINAL else p

    def is_over(self) -> bool:
        return self.match.current_player() == TERMINAL

    def waiting_for_human(self) -> bool:
        p = self.match.current_player()
        return p >= 0 and p not in self.bots

    def legal_actions(self) -> list:
        return self.match.legal_actions() if self.waiting_for_human() else []

    def observation(self, seat: int | None = SPECTATOR) -> dict:
        """What ``seat`` may see (default: the spectator's public view)."""
        if seat is not SPECTATOR:
            _check_seat(seat, self.match.game.num_players)
        return self.match.state.observation(seat)

    def view(self, seat: int | None = SPECTATOR, lang: str = "en") -> str:
        """``seat``'s observation as text (default: the projector's view)."""
        return self.match.game.render_observation(self.observation(seat), lang)

    def advise(self, seat: int | None = None, **settings):
        """The advisor's ``Advice`` for ``seat`` (default: the seat to act), from its observation."""
        if seat is None:
            seat = self.match.current_player()
        else:
            _check_seat(seat, self.match.game.num_players)
        if seat < 0:
            raise IllegalActionError("turn order", "no player decision is pending: nothing to advise on",
                                     "gerade ist keine Entscheidung zu treffen: nichts zu raten", "Reihenfolge")
        return self.match.game.advise(self.observation(seat), **settings)

    def review(self, progress=None, **settings):
        """``core.advice.review`` of the game so far (settings such as ``players``, ``n_rollouts``)."""
        from ..core.advice import review

        return review(self.match, progress, **settings)

    def step(self):
        """Advance by one chance event or one bot move; returns the action, or None if a human must act."""
        p = self.match.current_player()
        if p == TERMINAL or (p >= 0 and p not in self.bots):
            return None
        if p == CHANCE:
            a = self.match.step_chance()
        else:
            legal = self.match.legal_actions()
            a = self.bots[p].act(self.match.state.observation(p), legal, self.bot_rng)
            self.match.apply(a)
        self.log.append((p, str(a)))
        return a

    def run_until_human(self, max_steps: int = 10_000) -> list:
        done = []
        for _ in range(max_steps):
            a = self.step()
            if a is None:
                break
            done.append(a)
        return done

    def step_chance_only(self) -> list:
        """Resolve pending chance events (e.g. the human's own throw) but no bot moves."""
        done = []
        while self.match.current_player() == CHANCE:
            done.append(self.step())
        return done

    def act(self, action) -> None:
        """A human's move; an illegal one raises ``IllegalActionError`` and changes nothing."""
        p = self.match.current_player()
        before = self.match.state.clone() if self.hidden and p >= 0 else None
        self.match.apply(action)
        self.log.append((p, str(action)))
        if before is not None:
            # Whether the move showed a human something hidden matters only while no other action
            # followed it (``undo_refusal``), so it is found out when asked, not here: the check
            # takes tens of milliseconds (32 redrawn positions per human seat), and at most tables
            # a draw, a throw or the next player's move comes first. Only the moves since the last
            # action of chance or a bot can still be asked about.
            movers = self.match.movers
            i = len(movers) - 1
            while i > 0 and movers[i - 1] >= 0 and movers[i - 1] not in self.bots:
                i -= 1
            self._unchecked = {k: v for k, v in self._unchecked.items() if k >= i}
            self._unchecked[len(movers) - 1] = (before, action, tuple(self.human_seats))

    def undo_refusal(self) -> IllegalActionError | None:
        """Why Undo is not possible now, or None. In a game with hidden parts, Undo takes back only
        a human move after which nothing was revealed: no card drawn or turned up, no throw, no other
        player's move, and the move itself showed nothing hidden — else a player could look and take
        back (docs/hidden-information.md)."""
        movers = self.match.movers
        humans = [i for i, p in enumerate(movers) if p >= 0 and p not in self.bots]
        if not humans:
            return IllegalActionError("undo", "there is no move of yours to take back",
                                      "es gibt keinen eigenen Zug, der zurückgenommen werden kann", "Zurücknehmen")
        last = humans[-1]
        if self.hidden and (last < len(movers) - 1 or self._revealed(last)):
            return IllegalActionError(
                "undo", "Undo stops here: since this move something was revealed (a card, a throw or another "
                "player's move), and taking it back would let you try out what was hidden",
                "Zurücknehmen geht hier nicht: seit diesem Zug wurde etwas aufgedeckt (eine Karte, ein Wurf "
                "oder der Zug eines anderen), und Zurücknehmen würde Verdecktes ausprobieren lassen", "Zurücknehmen")
        return None

    def pending_reveal(self):
        """The check Undo waits for, to be run elsewhere (a live server's worker, off its loop):
        ``(index, entry)`` for the last action when it is a human move not checked yet, else None.
        ``entry`` is ``(before, action, viewers)``: ``reveal_job(*entry, seed)`` computes the answer,
        ``settle_reveal(index, entry, answer)`` keeps it."""
        i = len(self.match.movers) - 1
        entry = self._unchecked.get(i) if i >= 0 else None
        return None if entry is None else (i, entry)

    def settle_reveal(self, i: int, entry, revealed: bool) -> bool:
        """Keep the answer of a check run elsewhere: False (kept nothing) when move ``i`` is no longer
        the one checked (taken back, another move in its place) or was checked here meanwhile."""
        if self._unchecked.get(i) is not entry:
            return False
        del self._unchecked[i]
        if revealed:
            self._revealing.add(i)
        return True

    def _revealed(self, i: int) -> bool:
        """Whether the human move ``i`` showed a human something hidden (checked once, when first asked)."""
        entry = self._unchecked.get(i)
        if entry is not None:
            self.settle_reveal(i, entry, reveals_hidden(*entry, self._reveal_rng))
        return i in self._revealing

    def undo(self) -> None:
        """Take back the last move of a human seat, with the bot moves and chance events after it
        (taking back only a bot's reply would let the bot simply play again). Refused, with the
        state unchanged, where ``undo_refusal`` says why."""
        refusal = self.undo_refusal()
        if refusal is not None:
            raise refusal
        movers = self.match.movers
        while True:
            cut = len(movers)
            while movers[cut - 1] == CHANCE:
                cut -= 1
            undone = movers[cut - 1]
            self.match.undo()
            movers = self.match.movers
            if undone not in self.bots:
                break
        self._revealing = {i for i in self._revealing if i < len(movers)}
        self._unchecked = {i: v for i, v in self._unchecked.items() if i < len(movers)}
        self.log.append((-9, "undo"))
