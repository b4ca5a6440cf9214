"""A turn planner for Skip-Bo Masters that reads one player's observation only.

It searches the sequences of plays the player can make with what they see (hand, own stock top,
own discard piles, the building piles, coins, other players' discard tops) up to the first card
nobody knows yet (a newly turned stock card, a fresh hand of five), and values where a sequence
ends with ``evaluate``: stock cards played first, then coins, wild cards kept, cards out of the hand,
and a penalty for leaving a building pile that needs an opponent's stock top. The strong bot plays
the first move of the best sequence; the advisor's play-outs use it as their policy.

Building piles are ``vals``: the value a pile counts as, -1 for an empty slot.
"""

from __future__ import annotations

from .engine import FOLLOW, TOLL, TOP, Buy, Discard, EndTurn, PayToll, Play, Replace, is_wild

STOCK_W = 100.0
COIN_W = 2.0
WILD_W = 7.0
HAND_W = 1.0
FRESH_HAND = 6.0  # an emptied hand is refilled with five new cards
DISCARD_W = 0.8
DANGER = 30.0  # a building pile that needs an opponent's stock top
NEAR_DANGER = 6.0  # ... or needs the card just below it
OWN_CHANCE = 4.0  # a building pile that needs my stock top next turn
NODE_BUDGET = 600
COIN_REACH = 3  # coins are spent on a pile at most this many cards below the stock top's place


class View:
    """What the planner needs of an observation, for the player to move."""

    __slots__ = ("me", "n", "hand", "stock_top", "stock_size", "discards", "vals", "pile_coins", "coins",
                 "opp_tops", "opp_stock", "replace_face", "order", "must_play", "replace_held")

    def __init__(self, obs: dict, replace_face: bool = True, must_play: bool = False, replace_held: bool = False):
        me = obs["turn"]
        self.me = me
        n = self.n = len(obs["coins"])
        self.hand = tuple(obs["hand"])
        self.stock_top = obs["stock_tops"][me]
        self.stock_size = obs["stock_sizes"][me]
        self.discards = tuple(tuple(d) for d in obs["discards"][me])
        self.vals = tuple(-1 if b is None else b["value"] for b in obs["building"])
        self.pile_coins = tuple(0 if b is None else b["coins"] for b in obs["building"])
        self.coins = obs["coins"][me]
        # other players' discard tops that may be bought: (owner, slot, card)
        self.opp_tops = tuple((q, d, obs["discards"][q][d][-1]) for q in range(n) if q != me
                              for d in range(4) if obs["discards"][q][d])
        # opponents' stock tops in turn order after me, with the weight of their threat
        self.order = tuple((q, obs["stock_tops"][q]) for q in ((me + k) % n for k in range(1, n)))
        self.opp_stock = {q: obs["stock_sizes"][q] for q in range(n)}
        self.replace_face = replace_face
        self.must_play = must_play  # D5: no stopping while an own card fits
        self.replace_held = replace_held  # D6: coins may replace a card the player holds

    @classmethod
    def of(cls, game, obs: dict) -> "View":
        """The view of ``obs`` under ``game``'s options (None: the default rules)."""
        if game is None:
            return cls(obs)
        o = game.options
        return cls(obs, o["replace_cost"] == "face", o["must_play"], o["replace_held"])


def cost(value: int, face: bool) -> int:
    return value if face else 1


def targets(vals) -> list:
    out, free = [], None
    for i, v in enumerate(vals):
        if v < 0:
            if free is None:
                free = i
        else:
            out.append((i, v + 1))
    if free is not None:
        out.append((free, 1))
    return out


def _place(vals, pile_coins, slot, n):
    """vals, pile_coins and the coins the player gets back after a card lands on ``slot``."""
    v = vals[slot] + 1 if vals[slot] >= 0 else 1
    if v >= TOP:  # complete: its coins go round the table, the completer first
        back = (pile_coins[slot] + n - 1) // n
        return vals[:slot] + (-1,) + vals[slot + 1:], pile_coins[:slot] + (0,) + pile_coins[slot + 1:], back
    return vals[:slot] + (v,) + vals[slot + 1:], pile_coins, 0


def evaluate(view: View, vals, hand, discards, coins, stock_played, won, wilds_for_stock) -> float:
    if won:
        return 1e6
    score = STOCK_W * stock_played + COIN_W * coins
    score += WILD_W * sum(1 for c in hand if is_wild(c))
    score += HAND_W * (len(view.hand) - len(hand))
    if not hand and view.hand:
        score += FRESH_HAND
    score += DISCARD_W * (sum(map(len, view.discards)) - sum(map(len, discards)))
    needs = [need for _, need in targets(vals)]
    weight = 1.0
    for q, top in view.order:
        if top is not None and not is_wild(top):
            t = top % 100
            if t in needs:
                score -= DANGER * weight
            elif t - 1 in needs:
                score -= NEAR_DANGER * weight
        weight *= 0.6
    if stock_played == 0 and view.stock_top is not None and not is_wild(view.stock_top):
        if view.stock_top % 100 in needs:
            score += OWN_CHANCE
    return score


def plan(view: View, follow_pile: int | None = None, budget: int = NODE_BUDGET):
    """(value, first move) of the best sequence from here; the move is a ``Play``, ``Buy`` or
    ``Replace`` (engine actions), or None to stop playing."""
    n = view.n
    face = view.replace_face
    must, held_ok = view.must_play, view.replace_held
    memo: dict = {}
    nodes = [0]

    def search(vals, pile_coins, hand, discards, stock, coins, used, stock_played, follow):
        """stock: the own stock top still known (or None); used: bought opponents' tops."""
        key = (vals, pile_coins, hand, discards, stock, coins, used, follow)
        got = memo.get(key)
        if got is not None:
            return got
        nodes[0] += 1
        here = evaluate(view, vals, hand, discards, coins, stock_played, False, 0)
        if nodes[0] > budget:  # out of nodes: stop here (a replacement's following card counts as lost)
            memo[key] = got = (here if follow is None else -1e9, None)
            return got
        tg = targets(vals) if follow is None else [(follow, vals[follow] + 1)]
        tops = [dp[-1] for dp in discards if dp] + list(hand) + ([stock] if stock is not None else [])
        # D5: with an own card that fits, the turn may not end here
        may_stop = follow is None and not (must and any(is_wild(c) or c % 100 == need for c in tops
                                                         for _, need in tg))
        best = (here if may_stop else -1e9, None)
        wild_ok = stock is not None or must
        moves = []
        # the stock top first: it is what wins
        if stock is not None:
            for slot, need in tg:
                if is_wild(stock) or stock % 100 == need:
                    moves.append(("stock", 0, stock, slot))
        for d, dp in enumerate(discards):
            if dp:
                c = dp[-1]
                for slot, need in tg:
                    if c % 100 == need or (is_wild(c) and wild_ok):
                        moves.append(("discard", d, c, slot))
        for c in sorted(set(hand)):
            for slot, need in tg:
                if c % 100 == need or (is_wild(c) and wild_ok):
                    moves.append(("hand", 0, c, slot))
        # coins: only on a pile on its way to the stock top (COIN_REACH: how far below it)
        if stock is not None and not is_wild(stock) and follow is None:
            s = stock % 100
            for slot, need in tg:
                if s - 1 - COIN_REACH <= need <= s - 1:
                    c = cost(need, face)
                    # D6 off: no replacing a card the player could play (a number or a wild card)
                    if c <= coins and (held_ok or not any(is_wild(t) or t % 100 == need for t in tops)):
                        moves.append(("replace", slot, c, None))
                    if coins >= 1:
                        for i, (q, d, card) in enumerate(view.opp_tops):
                            if not used >> i & 1 and (card % 100 == need):
                                moves.append(("buy", i, card, slot))
        for m in moves:
            kind = m[0]
            if kind == "replace":
                _, slot, c, _ = m
                nv = vals[slot] + 1 if vals[slot] >= 0 else 1
                v2 = vals[:slot] + (nv,) + vals[slot + 1:]
                pc = pile_coins[:slot] + (pile_coins[slot] + c,) + pile_coins[slot + 1:]
                val, _ = search(v2, pc, hand, discards, stock, coins - c, used, stock_played, slot)
                move = Replace(slot, c)
            else:
                src, a, card, slot = m
                h, ds, st, co, u, sp = hand, discards, stock, coins, used, stock_played
                if src == "hand":
                    i = h.index(card)
                    h = h[:i] + h[i + 1:]
                elif src == "discard":
                    ds = ds[:a] + (ds[a][:-1],) + ds[a + 1:]
                elif src == "stock":
                    st, sp = None, sp + 1
                else:  # buy
                    co -= 1
                    u |= 1 << a
                v2, pc, back = _place(vals, pile_coins, slot, n)
                co += back
                toll = card // 100
                ended = False
                if toll:
                    if co >= toll:
                        co -= toll
                        if v2[slot] >= 0:
                            pc = pc[:slot] + (pc[slot] + toll,) + pc[slot + 1:]
                        else:
                            co += (toll + n - 1) // n
                    else:
                        ended = True  # a declined toll ends the playing phase
                if src == "stock" and view.stock_size - sp <= 0:
                    val = 1e6
                elif src == "stock" or ended or not h:
                    # a new stock card, or a fresh hand: unknown cards, the plan stops here
                    val = evaluate(view, v2, h, ds, co, sp, False, 0)
                    if not h and not ended:
                        val += 0.5  # and the turn goes on
                else:
                    val, _ = search(v2, pc, h, ds, st, co, u, sp, None)
                if src == "buy":
                    q, d, _ = view.opp_tops[a]
                    move = Buy(q, "discard", d, card, slot)
                else:
                    move = Play(src, a, card, slot)
            if val > best[0]:
                best = (val, move)
        memo[key] = best
        return best

    return search(view.vals, view.pile_coins, view.hand, view.discards, view.stock_top, view.coins, 0, 0,
                  follow_pile)


def discard_choice(obs: dict, legal) -> Discard:
    """The discard that keeps the most: never a wild card while there is another, a card on its
    own kind or one above it (descending runs can be played back in order), high cards apart, and
    not a card an opponent would gladly buy."""
    me = obs["turn"]
    piles = obs["discards"][me]
    vals = tuple(-1 if b is None else b["value"] for b in obs["building"])
    needs = {need for _, need in targets(vals)}
    opp_tops = [t % 100 for q, t in enumerate(obs["stock_tops"]) if q != me and t is not None and not is_wild(t)]
    stock = obs["stock_tops"][me]
    best, best_score = None, None
    for a in legal:
        if type(a) is not Discard:
            continue
        c, p = a.card, a.pile
        v = c % 100
        s = 0.0
        if is_wild(c):
            s -= 50
        if stock is not None and not is_wild(stock) and v == stock % 100:
            s -= 6  # a copy of the stock top may stand in... keep it in hand
        pile = piles[p]
        if pile:
            top = pile[-1] % 100
            if top == v:
                s += 6
            elif top == v + 1:
                s += 5
            elif is_wild(pile[-1]):
                s -= 8
            else:
                s -= 3 + max(0, 6 - abs(top - v))  # covering a different card
        else:
            empties = sum(1 for d in piles if not d)
            s += 2 if empties > 1 else -1
            s += v / 6  # start a pile with a high card
        # a card the building piles need soon is better kept
        if v in needs:
            s -= 4
        # an opponent could buy it to reach their stock top
        for t in opp_tops:
            if v in needs and v + 1 == t:
                s -= 6
        s += v * 0.05
        if best_score is None or s > best_score:
            best, best_score = a, s
    return best


def greedy_move(obs: dict, legal):
    """The greedy bot's move (also the advisor's play-out policy): fixed priorities, no search."""
    if len(legal) == 1:
        return legal[0]
    me = obs["turn"]
    phase = obs["phase"]
    if phase == TOLL:
        for a in legal:
            if type(a) is PayToll:
                return a
        return legal[0]
    stock = obs["stock_tops"][me]
    plays = [a for a in legal if type(a) is Play]
    # 1. the stock top
    for a in plays:
        if a.src == "stock":
            return a
    needs = {i: 1 if b is None else b["value"] + 1 for i, b in enumerate(obs["building"])}
    s = None if stock is None or is_wild(stock) else stock % 100
    # 2. a wild card, a bought card or a replacement that lets the stock top follow
    if s is not None:
        for a in plays:
            if is_wild(a.card) and needs[a.pile] == s - 1:
                return a
        for a in legal:
            if type(a) is Buy and a.src == "discard" and not is_wild(a.card) and needs[a.pile] == s - 1:
                return a
        own = {a.pile for a in plays if not is_wild(a.card)}  # (D6 on: never pay for a card at hand)
        for a in legal:
            if type(a) is Replace and needs[a.pile] == s - 1 and a.pile not in own:
                return a
    # 3. numbered cards, discard tops first
    for src in ("discard", "hand"):
        for a in plays:
            if a.src == src and not is_wild(a.card):
                return a
    if phase == FOLLOW:  # after a replacement something must be played
        return next(a for a in legal if type(a) in (Play, Buy))
    for a in legal:
        if type(a) is EndTurn:
            return a
    return discard_choice(obs, legal) or forced_play(obs, legal)


def forced_play(obs: dict, legal):
    """A play when the turn may not end yet (D5: an own card still fits; the greedy rules have
    played every numbered card, so this is a wild card): on the pile where the number it stands
    for helps the next players least, the fullest such pile first."""
    me, n = obs["turn"], len(obs["coins"])
    nxt = {}  # an opponent's stock value -> how soon they play (the next player weighs most)
    for k in range(n - 1, 0, -1):
        t = obs["stock_tops"][(me + k) % n]
        if t is not None and not is_wild(t):
            nxt[t % 100] = 0.6 ** (k - 1)
    best, best_score = None, None
    for a in legal:
        if type(a) is not Play:
            continue
        b = obs["building"][a.pile]
        need = 1 if b is None else b["value"] + 1
        score = -10 * nxt.get(need + 1, 0) - 3 * nxt.get(need + 2, 0) + need / 12
        if not is_wild(a.card):
            score += 20  # a numbered card first: a wild card kept is worth more
        if a.src == "discard":
            score += 1  # it uncovers the card below
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best
