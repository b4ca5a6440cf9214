"""One advice contract for every game, and game review on top of it.

``game.advise(observation) -> Advice``: every option of the decision the observation shows, with its
value — an exact ``Fraction`` where the game can be solved, otherwise an ``Estimate`` with a 95 %
confidence interval. Options whose values cannot be told apart (equal fractions, or estimates whose
intervals overlap the best one's) are all marked best: a tie is shown as a tie. The advisor gets the
observation only, so it cannot read what its player may not see.

``review(match)`` replays a finished game and asks the advisor at every decision of a player: the
chosen move's value against the best one's — where were expected points lost?
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .errors import SpieltischError, short
from .game import CHANCE, TERMINAL, action_label, advisor_settings, check_settings
# One estimate type for simulations and advice, so a value from ``stats.mean_ci`` can be advised as is.
from .stats import Estimate, mean_ci

__all__ = ["Advice", "Decision", "Estimate", "Option", "PlayerSummary", "Review", "advisor_settings",
           "check_settings", "estimated_loss", "make_advice", "point", "review", "value_json"]


def value_json(value) -> dict:
    if isinstance(value, Estimate):
        return value.to_json()
    f = Fraction(value)
    return {"fraction": f"{f.numerator}/{f.denominator}", "float": float(f)}


def point(value) -> float:
    """A value as one number (for sorting and charts)."""
    return value.mean if isinstance(value, Estimate) else float(value)


# The most play-outs per option an advisor that estimates by simulation accepts.
MAX_ROLLOUTS = 10_000


@dataclass(frozen=True)
class Option:
    action: Any
    value: Fraction | Estimate
    best: bool  # the best option, or one that cannot be told apart from it
    label: dict  # {"de": ..., "en": ...}
    note: dict | None = None  # how the option comes about, {"de": ..., "en": ...} (e.g. the arithmetic)

    def to_json(self) -> dict:
        out = {"action": self.action.to_json(), "label": dict(self.label), "value": value_json(self.value),
               "best": self.best}
        if self.note:
            out["note"] = dict(self.note)
        return out


@dataclass(frozen=True)
class Advice:
    """Every option of one decision, best first."""

    options: tuple
    exact: bool
    method: dict  # how the values were found, {"de": ..., "en": ...}
    objective: dict  # what the values measure, {"de": ..., "en": ...}
    # an estimating advisor's play-out values per action, value i of every option from the same random
    # numbers (common random numbers), in the values' unit: for paired comparisons (the review's loss)
    samples: dict | None = field(default=None, compare=False, repr=False)

    @property
    def best(self) -> list:
        """The actions marked best (more than one when they tie)."""
        return [o.action for o in self.options if o.best]

    def option_for(self, action) -> Option:
        for o in self.options:
            if o.action == action and type(o.action) is type(action):
                return o
        raise SpieltischError(f"{action!s} is not one of the options advised here")

    def to_json(self) -> dict:
        return {"exact": self.exact, "method": dict(self.method), "objective": dict(self.objective),
                "options": [o.to_json() for o in self.options]}


def _is_exact(value) -> bool:
    # bool is an int but never a value; a float only looks exact (0.1 is not 1/10)
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


def make_advice(valued, *, method: dict, objective: dict, notes=None, best=None, samples=None) -> Advice:
    """An ``Advice`` from ``(action, value)`` pairs, all values exact or all estimates; ``notes``
    maps an action to its explanation ({"de": ..., "en": ...}).

    Exact: the options equal to the maximum are best. Estimates: every option whose interval reaches
    the best mean's interval is best too (it cannot be told apart at this number of samples), unless
    the advisor passes ``best``, the actions it found indistinguishable from the best by a sharper
    test (e.g. paired differences over common random numbers). ``samples``: an estimating advisor's
    play-out values per action (``Advice.samples``)."""
    valued = list(valued)
    if not valued:
        raise SpieltischError("there is no decision to advise on here")
    estimates = [isinstance(v, Estimate) for _, v in valued]
    if any(estimates) and not all(estimates):
        raise TypeError("an advice mixes exact values and estimates")
    if not any(estimates):
        bad = [v for _, v in valued if not _is_exact(v)]
        if bad:
            raise TypeError(f"an exact value is an int or a Fraction, not {type(bad[0]).__name__} ({short(bad[0])})")
    seen = set()
    for a, _ in valued:
        if (type(a), a) in seen:
            raise ValueError(f"the option {a!s} is advised twice")
        seen.add((type(a), a))
    valued.sort(key=lambda av: -point(av[1]))  # stable: ties keep the advisor's order
    top = valued[0][1]
    if best is not None:
        if not all(estimates):
            raise TypeError("an exact advice marks its best options itself")
        chosen = set(best)
        unknown = chosen - {a for a, _ in valued}
        if not chosen or unknown:
            raise ValueError(f"the best options must be some of the advised ones, not {short(sorted(map(str, unknown)) or 'none')}")
        # the chosen ones first (by mean), then the others: a lone high mean of a few samples that
        # the sharper test did not keep does not head the list
        valued.sort(key=lambda av: av[0] not in chosen)
        best = [a in chosen for a, _ in valued]
    elif all(estimates):
        best = [v.hi >= top.lo for _, v in valued]
    else:
        valued = [(a, Fraction(v)) for a, v in valued]
        best = [v == top for _, v in valued]
    notes = notes or {}
    options = tuple(Option(a, v, b, {"de": action_label(a, "de"), "en": action_label(a, "en")}, notes.get(a))
                    for (a, v), b in zip(valued, best))
    if samples is not None and not all(estimates):
        raise TypeError("an exact advice has no play-out values")
    return Advice(options, exact=not all(estimates), method=dict(method), objective=dict(objective),
                  samples=dict(samples) if samples is not None else None)


# --- review --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Decision:
    """One decision of a finished game, valued by the advisor."""

    index: int  # position of the action in the record
    player: int
    chosen: Option
    best: Option  # the best option (the first of the ties)
    options: int  # how many options there were
    # best value − chosen value: exact, 0 when the choice was among the best; an estimate is the
    # advisor's pick's mean minus the chosen one's even where the two cannot be told apart, cut at 0
    # (``estimated_loss``)
    loss: Fraction | float
    exact: bool
    round: int | None = None  # the round as the player's observation counts it, where it has one
    ties: int = 1  # how many options share the best value (cannot be told apart)
    advice: Advice | None = field(default=None, compare=False, repr=False)  # every option, for a closer look
    # an estimated loss's 95 % interval (lo, hi): from the paired play-outs where the advisor keeps
    # them, else from the two options' intervals; its top also covers every other option (paired),
    # so a choice that leads its play-outs still has an interval above 0
    loss_ci: tuple | None = None
    # the estimate before it is cut at 0, ``(loss, lo, hi)``: what a sum of decisions adds up
    loss_raw: tuple | None = field(default=None, compare=False, repr=False)

    def to_json(self, options: bool = False) -> dict:
        """JSON-ready; ``loss`` is ``{"fraction", "float"}`` when exact, else ``{"float"}``, so a chart
        reads ``loss["float"]`` either way. ``options=True`` adds every advised option."""
        out = {"index": self.index, "player": self.player, "round": self.round, "options": self.options,
               "ties": self.ties, "exact": self.exact, "chosen": self.chosen.to_json(), "best": self.best.to_json(),
               "chosen_is_best": self.chosen.best, "loss": _loss_json(self.loss, self.exact)}
        if self.loss_ci is not None:
            out["loss"]["ci95"] = list(self.loss_ci)
        if options and self.advice is not None:
            out["advice"] = self.advice.to_json()
        return out


def _loss_json(loss, exact: bool) -> dict:
    return value_json(loss) if exact else {"float": float(loss)}


def estimated_loss(advice: Advice, chosen: Option) -> tuple[float, float, float]:
    """``(loss, lo, hi)``: what choosing ``chosen`` gave away against the best option, with a 95 %
    interval. ``loss`` and ``lo`` are not cut at 0 here: a choice as good as the advisor's pick
    comes out a little above or below 0 by chance, and a sum of such decisions stays unbiased only
    uncut (the review shows each decision cut at 0, the board cuts the sum).

    With the advisor's play-out values (``Advice.samples``, the same random numbers for every option):
    the options played as long as the chosen one are its rivals; the best of them is picked on half
    of the play-outs (the even ones) and its paired difference to the chosen one measured on the other
    half, and the other way round (cross-fitting). Taking the leader's mean minus the chosen one's on
    the very play-outs that made it the leader would add the winner's curse at every tied decision (a
    strong bot's Skip-Bo game, 67 tied decisions: +25 cards of lead for nothing, measured). The top of
    the interval is the highest paired upper bound against the chosen one (on the play-outs they
    share) of the options played as long or marked best; where that is 0 (every other option clearly
    worse), the half-width of the paired comparison with the closest one: a chosen leader is not
    the best for certain. Without play-out values: the two options' intervals, conservatively
    (lo = best.lo − chosen.hi, hi = best.hi − chosen.lo)."""
    best = advice.options[0]
    samples = advice.samples or {}
    mine = samples.get(chosen.action)
    if mine is not None and len(mine) >= 2 and len(samples) > 1:
        def paired(other):
            k = min(len(other), len(mine))
            return mean_ci([x - y for x, y in zip(other[:k], mine[:k])]) if k >= 2 else None

        n = len(mine)
        rivals = [a for a, v in samples.items() if len(v) >= n]  # the chosen one among them
        if n >= 4 and len(rivals) > 1:
            diffs = []
            for pick, judge in ((0, 1), (1, 0)):
                lead = samples[max(rivals, key=lambda a: math.fsum(samples[a][pick:n:2]))]
                diffs += [lead[k] - mine[k] for k in range(judge, n, 2)]
            d = mean_ci(diffs)
        else:
            d = paired(samples.get(best.action, mine)) or mean_ci([0.0, 0.0])
        loss, lo, hi = d.mean, d.lo, max(0.0, d.hi)
        runner = None
        # the options that might be better: those played as long as the chosen one and those the
        # advisor could not tell from its best (the upper bounds of every screened-out option would
        # add only the noise of their many comparisons)
        near = {o.action for o in advice.options if o.best}
        for a, values in samples.items():
            if a is not chosen.action:
                e = paired(values)
                if e is None:
                    continue
                if len(values) >= n or a in near:
                    hi = max(hi, e.hi)
                if runner is None or e.mean > runner.mean:
                    runner = e
        if runner is not None and hi <= max(0.0, loss):
            # a choice clearly ahead of every other one at 95 % is not the best for certain (only an
            # exact game's is): its range reaches the play-outs' resolution against the closest one
            hi = max(0.0, loss) + (runner.hi - runner.mean)
        return loss, lo, hi
    b, c = best.value, chosen.value
    return b.mean - c.mean, b.lo - c.hi, max(0.0, b.hi - c.lo)


@dataclass(frozen=True)
class PlayerSummary:
    """What one player's reviewed decisions cost: the sum of the losses (exact when every value was;
    estimates added uncut, the sum cut at 0),
    and how often a better option was clearly there (exact: any loss; estimates: the best option's
    interval lay wholly above the chosen one's reach)."""

    player: int
    decisions: int
    among_best: int
    clearly_worse: int
    loss: Fraction | float
    exact: bool

    def to_json(self) -> dict:
        return {"player": self.player, "decisions": self.decisions, "among_best": self.among_best,
                "clearly_worse": self.clearly_worse, "exact": self.exact, "loss": _loss_json(self.loss, self.exact)}


class Review(Sequence):
    """The valued decisions of one game, in the order they were taken (a sequence of ``Decision``),
    with a summary per player and ``to_json()`` for a front-end's charts."""

    def __init__(self, match, decisions, method: dict | None, objective: dict | None, settings: dict,
                 partial: bool):
        self.game = match.game
        self.record = {k: v for k, v in match.to_record().items() if k != "actions"}
        self.actions = len(match.actions)
        self.terminal = match.state.current_player() == TERMINAL
        self.scores = list(match.state.scores())
        self.decisions = tuple(decisions)
        self.method = method
        self.objective = objective
        self.settings = dict(settings)
        self.partial = partial  # only some of the game's decisions were asked for

    def __getitem__(self, i):
        return self.decisions[i]

    def __len__(self):
        return len(self.decisions)

    def __repr__(self):
        return f"Review({self.game.id}, {len(self)} decisions, exact={self.exact})"

    @property
    def exact(self) -> bool:
        """True when every reviewed decision was valued exactly (also when there was none)."""
        return all(d.exact for d in self.decisions)

    def summary(self) -> list[PlayerSummary]:
        """One ``PlayerSummary`` per seat, in seat order (seats without reviewed decisions included)."""
        out = []
        for p in range(self.game.num_players):
            mine = [d for d in self.decisions if d.player == p]
            exact = all(d.exact for d in mine)
            # estimates: the uncut values added up, then cut at 0 (a tie adds about 0, not its noise's
            # positive part), as the class board adds them
            loss = sum((d.loss for d in mine), Fraction(0)) if exact else max(
                0.0, sum(d.loss_raw[0] if d.loss_raw else float(d.loss) for d in mine))
            best = sum(d.chosen.best for d in mine)
            out.append(PlayerSummary(p, len(mine), best, len(mine) - best, loss, exact))
        return out

    def to_json(self, options: bool = False) -> dict:
        """Everything as JSON-ready data; ``options=True`` also lists every option of every decision."""
        return {"review": {"exact": self.exact, "method": self.method, "objective": self.objective,
                           "settings": _plain_settings(self.settings), "partial": self.partial},
                **self.record, "actions": self.actions, "terminal": self.terminal, "scores": self.scores,
                "decisions": [d.to_json(options) for d in self.decisions],
                "summary": [s.to_json() for s in self.summary()]}


def _plain_settings(settings: dict) -> dict:
    return {k: v if v is None or isinstance(v, (bool, int, float, str)) else repr(v)
            for k, v in settings.items() if k != "progress"}


def review(match, progress=None, *, start: int = 0, limit: int | None = None, players=None,
           **settings) -> Review:
    """Value every player decision of ``match`` (replayed from its record) with the game's advisor.

    Decisions with a single option are skipped (nothing to choose). ``settings`` go to the advisor
    unchanged at every decision (a simulation's size ``n_rollouts``, its ``seed``; an objective), so
    each decision's values are exactly ``game.advise(observation, **settings)``. To review a part:
    ``start`` (the first record index looked at), ``limit`` (at most this many decisions) and
    ``players`` (only these seats). ``progress(done, total)`` is called once the first decision is
    valued (so the advisor has accepted its settings) and after each one (the rollout advisors take
    a while per decision).

    The advisor gets ``observation(player)`` of the player who decided, never the state."""
    game = match.game
    check_settings(game, settings)
    if isinstance(start, bool) or not isinstance(start, int) or start < 0:
        raise SpieltischError(f"start is a record index (0 or more), not {short(start)}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise SpieltischError(f"limit is a number of decisions (0 or more), not {short(limit)}")
    if players is not None:
        players = set(players)
        bad = [p for p in players if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < game.num_players]
        if bad:
            raise SpieltischError(f"players are seats 0 to {game.num_players - 1}, not {short(bad[0])}")

    # First pass: which decisions (replaying is cheap; the advice is what takes time).
    todo, total = [], 0
    for i, state, mover in _replay(match):
        if mover != CHANCE and len(state.legal_actions()) > 1:
            total += 1
            if i >= start and (players is None or mover in players) and (limit is None or len(todo) < limit):
                todo.append(i)
    partial = len(todo) < total
    # an advisor that takes ``include`` plays the chosen move among its finalists, on the same play-outs
    # as the leader: the chosen move's loss is then a paired difference, not two noisy means
    include = "include" not in settings and "include" in (advisor_settings(game) or ())
    out, method, objective = [], None, None
    wanted = set(todo)
    for i, state, mover in _replay(match, stop=todo[-1] + 1 if todo else 0):
        if i not in wanted:
            continue
        observation = state.observation(mover)
        action = match.actions[i]
        advice = game.advise(observation, **settings, **({"include": [action]} if include else {}))
        if progress and not out:
            # only now: the advisor has taken its settings (a play-out count below its own minimum
            # is refused at the first decision), so a refusal never follows progress already shown
            progress(0, len(todo))
        try:
            chosen = advice.option_for(action)
        except SpieltischError:
            raise SpieltischError(f"record action {i} ({action!s}) is not among the options the advisor of "
                                  f"{game.id} lists there; the advisor and the rules disagree") from None
        best = advice.options[0]
        loss_ci = None
        if advice.exact:
            loss = Fraction(0) if chosen.best else best.value - chosen.value
        else:
            raw = estimated_loss(advice, chosen)
            loss, loss_ci = max(0.0, raw[0]), (max(0.0, raw[1]), raw[2])
        rnd = observation.get("round") if isinstance(observation, dict) else None
        out.append(Decision(i, mover, chosen, best, len(advice.options), loss, advice.exact,
                            round=rnd if type(rnd) is int else None,
                            ties=sum(o.best for o in advice.options), advice=advice, loss_ci=loss_ci,
                            loss_raw=None if advice.exact else raw))
        if method is None:
            method, objective = advice.method, advice.objective
        if progress:
            progress(len(out), len(todo))
    return Review(match, out, method, objective, settings, partial)


def _replay(match, stop: int | None = None):
    """``(index, state before the action, mover)`` for the record's actions, on a fresh state (the
    match's own state is left alone). The same state object is yielded each time, moved on after."""
    state = match.game.new_initial_state()
    actions = match.actions if stop is None else match.actions[:stop]
    for i, action in enumerate(actions):
        mover = state.current_player()
        yield i, state, mover
        state.apply_action(action)

