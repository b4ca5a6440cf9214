"""Minimal hand-written Würfel Joker turn loops: the baseline for the engine's abstraction overhead.

Same rules as docs/rules/wuerfel-joker.md (project decisions D1-D3 at their defaults), one
player, one round (= one turn), every decision a uniform random choice among the legal ones, just
as the engine's random bot chooses among ``legal_actions()``. Plain ints and bit masks, no classes,
no records, no validation. Dice and choices come from the engine's generator
(``spieltisch.core.rng.Rng.below``), so the comparison measures the engine's structure, not the
generator; the loop keeps one generator for all its games (its best case: the engine makes two per
game so that each game replays from its own seed).

Each ``*_turn(below)`` plays one turn and returns its score; ``rate(turn, seconds)`` measures games/s.
"""

from __future__ import annotations

import time

from spieltisch.core.rng import Rng

# --- Spiel 2: slides 1-9, two dice -------------------------------------------------------------
ALL_UP_9 = 0b1111111110  # bit v set = slide v is up (v = 1..9)


def spiel2_turn(below) -> int:
    up = 0
    while True:
        a = below(6) + 1
        b = below(6) + 1
        if a < b:
            a, b = b, a
        combos = [a + b, a * b]
        if a != b:
            combos.append(a - b)
        if a % b == 0:
            combos.append(a // b)
        values = set(combos)
        if up & 32:  # slide 5 up: (a op b) +- 5
            for v in combos:
                values.add(v + 5)
                values.add(v - 5)
        doubles = a == b
        if doubles:
            values.add(a)
        choices = [v for v in values if 1 <= v <= 9 and not up >> v & 1]
        if doubles:
            # 0 = decline the doubles and throw again; -1 = take an unusable Pasch as the bust
            choices.append(0)
            if len(choices) == 1:
                choices.append(-1)
        elif not choices:
            return _bust(up, a, b)
        v = choices[below(len(choices))]
        if v == 0:
            continue
        if v < 0:
            return _bust(up, a, b)
        up |= 1 << v
        if up == ALL_UP_9:
            return 45
        if below(2):  # stop or throw on: two choices
            return -(45 - _slide_sum(up))


def _bust(up: int, a: int, b: int) -> int:
    minus = 45 - _slide_sum(up) + a + b
    return -(minus * 5 if up & 32 else minus)


def _slide_sum(mask: int) -> int:
    s = 0
    v = 1
    mask >>= 1
    while mask:
        if mask & 1:
            s += v
        mask >>= 1
        v += 1
    return s


# --- Spiel 1: slides 1-6, three dice, three jokers ------------------------------------------------
# (mask of slides, exact?, base value), the reconstructed table
ROWS = (
    (0b1000010, True, 7),  # kleine Brücke {1,6}
    (0b1100110, True, 14),  # große Brücke {1,2,5,6}
    (0b0011110, False, 10),  # kleiner Schritt >= {1,2,3,4}
    (0b0111110, False, 15),  # großer Schritt >= {1,2,3,4,5}
)


def _row_value(pushed: int) -> int:
    best = 0
    for mask, exact, value in ROWS:
        if (pushed == mask if exact else pushed & mask == mask) and value > best:
            best = value
    return best


_ASSIGN_CACHE: dict = {}


def _assignments(dice: list, pushed: int) -> list:
    """``_enumerate`` cached by (sorted throw, slides up), as any sane hand-written loop would."""
    key = (tuple(sorted(dice)), pushed)
    hit = _ASSIGN_CACHE.get(key)
    if hit is None:
        hit = _ASSIGN_CACHE[key] = _enumerate(list(key[0]), pushed)
    return hit


def _enumerate(dice: list, pushed: int) -> list:
    """Distinct outcomes (new pushed mask, dice left in play > 0) of assigning thrown dice to slides.

    Outcomes that keep no die are left out, as in the engine: they only lose the turn."""
    n = len(dice)
    out = set()
    # labels[i] = group of die i (0 = unassigned, 1..n = group); canonical labelling not needed,
    # duplicates collapse in the set of outcomes
    labels = [0] * n
    while True:
        sums = [0] * (n + 1)
        for i in range(n):
            sums[labels[i]] += dice[i]
        ok = True
        new = pushed
        for g in range(1, n + 1):
            s = sums[g]
            if s:
                if s > 6 or new >> s & 1:
                    ok = False
                    break
                new |= 1 << s
        if ok:
            left = 0
            for i in range(n):
                if labels[i] or dice[i] == 6:
                    left += 1
            if left:
                out.add((new, left))
        i = 0
        while i < n and labels[i] == n:
            labels[i] = 0
            i += 1
        if i == n:
            return sorted(out)
        labels[i] += 1


def spiel1_turn(below) -> int:
    pushed = 0
    dice_n = 3
    while True:
        dice = [below(6) + 1 for _ in range(dice_n)]
        options = _assignments(dice, pushed)
        if not options:
            return 0
        pushed, dice_n = options[below(len(options))]
        base = _row_value(pushed)
        # stop, throw again, and (when a row is satisfied) go into the jokers
        choice = below(3 if base else 2)
        if choice == 0:
            return base
        if choice == 2:
            break
    jokers = 0
    while True:
        dice = [below(6) + 1 for _ in range(dice_n)]
        ones = dice.count(1)
        if ones:
            jokers = min(3, jokers + ones)
            if jokers == 3:
                return base * 8
        elif 6 in dice:
            dice_n = 1
        else:
            return 0
        if below(2) == 0:
            return base << jokers


def rate(turn, seconds: float, seed: int = 1, windows: int = 5, clock=time.perf_counter) -> dict:
    """Games per second of ``turn`` (1 player, 1 round): the best of ``windows`` timing windows
    (as the engine benchmark measures), and the mean score."""
    below = Rng(seed).below
    games = 0
    total = 0
    elapsed = 0.0
    best = 0.0
    batch = 500
    for _ in range(windows):
        w_games, w_elapsed = 0, 0.0
        while w_elapsed < seconds / windows:
            t0 = clock()
            for _ in range(batch):
                total += turn(below)
            w_elapsed += clock() - t0
            w_games += batch
        best = max(best, w_games / w_elapsed)
        games += w_games
        elapsed += w_elapsed
    return {"games": games, "seconds": elapsed, "games_per_s": best, "games_per_s_mean": games / elapsed,
            "mean_score": total / games}


if __name__ == "__main__":
    for name, fn in (("spiel2", spiel2_turn), ("spiel1", spiel1_turn)):
        r = rate(fn, 1.0)
        print(f"{name}: {r['games_per_s']:,.0f} games/s, mean score {r['mean_score']:.2f}")
