"""Class rounds (spieltisch.ui.classroom): class codes, result codes, verification by replay, the board."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from fractions import Fraction
from hashlib import blake2b
from pathlib import Path

import pytest

from harness.classplay import finish_with_bot, searched_with_the_throws_known
from spieltisch.cli import main
from spieltisch.core.game import SPECTATOR
from spieltisch.core.match import Match
from spieltisch.core.registry import get_game_class, make_bot
from spieltisch.core.rng import Rng
from spieltisch.ui import classroom
from spieltisch.ui.classroom import (ALPHABET, Board, CodeError, grouped, new_round, normalize, parse_class,
                                     result_code, verify_result)
from spieltisch.ui.session import PlaySession
from spieltisch.ui.table import Table


def play_table(table: Table, choose) -> None:
    """Play a table to its end the way a student does: bots and throws as the table paces them,
    the human's decision ``legal[choose(n, step)]``."""
    step = 0
    while not table.is_over():
        if table.pending() or table.human_throw_pending():
            table.step()
            continue
        legal = table.session.legal_actions()
        table.act(legal[choose(len(legal), step) % len(legal)])
        step += 1


def play_session(round_, choose):
    """The class game played in a bare session (what the board replays)."""
    session = round_.session()
    step = 0
    while not session.is_over():
        if session.waiting_for_human():
            legal = session.legal_actions()
            session.act(legal[choose(len(legal), step) % len(legal)])
            step += 1
        else:
            session.step()
    return session.match


def first(n, step):
    return 0


def last(n, step):
    return n - 1


def mixed(seed):
    rng = random.Random(seed)
    return lambda n, step: rng.randrange(n)


# --- class codes -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game, players, seats, options", [
    ("wuerfel-joker-1", 1, None, {}),
    ("wuerfel-joker-2", 2, ["human", "threshold"], {"five_ops": "all", "rounds": 3}),
    ("tuefteln", 3, ["strong", "human", "greedy"], {"side": "B", "descending_straights": True}),
    ("schraube-locker", 4, None, {"stack_size": 3, "pawn_setup": "choose"}),
    ("skip-bo-masters", 6, ["human"] * 6, {"target_score": 5000, "replace_cost": "one", "short_game": True}),
    ("scratch-island", 2, None, {"rounds": 10000}),
])
def test_a_class_code_fixes_the_whole_game_and_reads_back(game, players, seats, options):
    r = new_round(game, players, seats, options, seed=123_456, advisor=True)
    back = parse_class(r.code)
    assert back == r and back.options == r.options and back.advisor is True
    assert r.options == {**get_game_class(game)(players).options, **options}
    # forgiving to type: lower case, spaces and hyphens, O for 0, I and L for 1
    typed = grouped(r.code).lower().replace("0", "o").replace("1", "l")
    assert parse_class(f"  {typed} ") == r
    # a large seed fits too (then the code is longer)
    big = new_round(game, players, seats, options, seed=2**64 - 1)
    assert parse_class(big.code).seed == 2**64 - 1 and len(big.code) > len(r.code)


def test_class_codes_are_short():
    lengths = {g: len(new_round(g, seed=999_999).code) for g in classroom.class_games()}
    assert max(lengths.values()) <= 10, lengths
    assert all(c in ALPHABET for c in new_round("tuefteln").code)
    assert not set("ILOU") & set("".join(new_round(g).code for g in classroom.class_games()))


def test_every_single_typo_and_swap_of_a_class_code_is_refused():
    code = new_round("wuerfel-joker-2", 2, seed=777).code
    refused = 0
    for i in range(len(code)):
        for c in ALPHABET:
            if c != code[i]:
                with pytest.raises(CodeError):
                    parse_class(code[:i] + c + code[i + 1:])
                refused += 1
        if i + 1 < len(code) and code[i] != code[i + 1]:
            with pytest.raises(CodeError, match="check character"):
                parse_class(code[:i] + code[i + 1] + code[i] + code[i + 2:])
    assert refused == 31 * len(code)


def test_a_class_code_of_another_ruleset_version_is_refused_naming_it(monkeypatch):
    code = new_round("tuefteln", seed=5).code
    cls = get_game_class("tuefteln")
    monkeypatch.setattr(cls, "version", cls.version + 1)
    with pytest.raises(CodeError, match=f"tuefteln v{cls.version - 1}, but this engine plays v{cls.version}") as e:
        parse_class(code)
    assert f"v{cls.version - 1}" in e.value.text["de"]


def test_bad_class_codes_are_refused_with_a_reason():
    with pytest.raises(CodeError, match="not a character"):
        parse_class("AB!D")
    with pytest.raises(CodeError, match="no class code"):
        parse_class(" - ")
    code = new_round("tuefteln", seed=5).code
    with pytest.raises(CodeError, match="check character"):
        parse_class(code[:-1])
    # a game this version does not know (the first character) with a right check character
    body = ALPHABET[len(classroom.class_games())] + code[1:-1]
    with pytest.raises(CodeError, match="a game this page does not have"):
        parse_class(body + ALPHABET[classroom._check(classroom._symbols(body), 1)])
    # the same round written with a leading zero: one round, one code
    body = code[0] + "0" + code[1:-1]
    with pytest.raises(CodeError, match="garbled"):
        parse_class(body + ALPHABET[classroom._check(classroom._symbols(body), 1)])
    for bad in (dict(seats=["strong"]), dict(seats=["human", "nobody"]), dict(players=99), dict(seed=-1)):
        with pytest.raises(Exception, match="human seat|no bot|players|seed"):
            new_round("tuefteln", **bad)


# --- same code, same game ----------------------------------------------------------------------------
@pytest.mark.parametrize("game, players, seats", [
    ("wuerfel-joker-2", 2, ["human", "optimal"]),
    ("tuefteln", 2, ["human", "greedy"]),
    ("skip-bo-masters", 2, ["human", "greedy"]),  # hidden cards: dealt from the code's secret
])
def test_two_tables_of_one_class_code_with_the_same_decisions_play_the_same_game(game, players, seats):
    r = new_round(game, players, seats, seed=4242)
    tables = [Table(**parse_class(r.code).table_settings()) for _ in range(2)]
    for t in tables:
        play_table(t, mixed(7))
    records = [t.session.match.to_record() for t in tables]
    assert records[0] == records[1]
    assert records[0] == {**r.match().to_record(), "actions": records[0]["actions"]}
    if r.hidden:
        assert records[0]["secret"] == r.secret is not None
    # with different decisions each result code replays to its own record
    other = Table(**r.table_settings())
    play_table(other, last)
    assert other.session.match.record_actions() != records[0]["actions"]
    for t in (tables[0], other):
        code = result_code(r, t.session.match, verify=False)
        assert verify_result(r, code).match.record_actions() == t.session.match.record_actions()


def test_a_hidden_game_keeps_its_secret_off_the_screen_until_the_end():
    r = new_round("skip-bo-masters", 2, ["human", "greedy"], seed=11)
    t = Table(**r.table_settings())
    assert t.secret == r.secret
    view = t.state_json()
    assert t.state()["secret"] is None and str(r.secret) not in view
    assert t.state()["open_game"] is None
    play_table(t, first)
    assert t.state()["secret"] == r.secret


def test_a_result_code_carries_the_number_and_is_refused_for_another_round():
    r = new_round("wuerfel-joker-1", 1, seed=31)
    match = play_session(r, mixed(3))
    code = result_code(r, match, number=27)
    res = verify_result(r, grouped(code).lower())
    assert (res.number, res.points, res.name("de")) == (27, match.state.scores()[0], "Nr. 27")
    assert res.code == code and res.match.record_actions() == match.record_actions()
    with pytest.raises(CodeError, match="number is 1 to 99"):
        result_code(r, match, number=100)
    foreign = new_round("wuerfel-joker-1", 1, seed=32)
    with pytest.raises(CodeError, match="another class round") as e:
        verify_result(foreign, code)
    assert "anderen Klassenrunde" in e.value.text["de"]
    # a finished game of another round, and an unfinished one, get no code
    with pytest.raises(CodeError, match="not the class round"):
        result_code(foreign, match)
    unfinished = r.match()
    unfinished.resolve_chance()
    with pytest.raises(CodeError, match="not finished"):
        result_code(r, unfinished)


def layout0_code(r, match, number: int) -> str:
    """The result code spieltisch wrote before the round tag took a second character (layout 0): the
    same arithmetic code with its first binary digit 0, one tag character, and check characters over
    the class code and the result code together."""
    game = r.game()
    model, state, coder = classroom._Model(game), game.new_initial_state(), classroom._Encoder()
    coder.put(0, (1, 1))
    for action, mover in zip(match.actions, match.movers):
        if mover in r.humans and len(legal := state.legal_actions()) > 1:
            coder.put(next(i for i, a in enumerate(legal) if a.to_json() == action.to_json()),
                      model.weights(state, legal))
        state.apply_action(action)
    coder.put(number, (1,) * 100)
    tag = blake2b(r.code.encode(), digest_size=1, person=b"spieltisch/ctag").digest()[0] % 32
    body = coder.chars() + ALPHABET[tag]
    symbols = [ALPHABET.index(c) for c in r.code + body]
    return body + ALPHABET[classroom._check(symbols, 1)] + ALPHABET[classroom._check(symbols, 2)]


def one_typo(code: str, rng: random.Random, where: int | None = None) -> str:
    i = rng.randrange(len(code)) if where is None else where % len(code)
    return code[:i] + rng.choice([c for c in ALPHABET if c != code[i]]) + code[i + 1:]


@pytest.fixture(scope="module")
def rounds_and_codes():
    """Class rounds of three games with random seeds, a result code of a game played in each."""
    rng = random.Random(32)
    games = (("wuerfel-joker-1", 1, None), ("wuerfel-joker-2", 1, None), ("tuefteln", 1, None),
             ("wuerfel-joker-2", 2, ["human", "optimal"]))
    rounds = [new_round(*rng.choice(games), seed=rng.randrange(classroom.SMALL_SEED)) for _ in range(36)]
    return [(r, result_code(r, play_session(r, mixed(i)), number=i, verify=False)) for i, r in enumerate(rounds)]


def test_a_code_of_another_class_round_is_never_called_a_typo(rounds_and_codes):
    """Issue 32: a code made in round A and read in round B is refused as another round's (its check
    characters, over the result code alone, hold; its two-character tag differs), never as mistyped;
    where the tags meet by chance (1 in 1024) it is still not called a typo. Negative control: a
    one-character typo in a code of round B, in any position (the tag's too), is still a typo."""
    rng = random.Random(7)
    seen = {"pairs": 0, "round": 0, "typo": 0}
    for _ in range(300):
        (a, code_a), (b, code_b) = rng.sample(rounds_and_codes, 2)
        if a.code == b.code:
            continue
        seen["pairs"] += 1
        try:
            verify_result(b, code_a)
            kind = "accepted"
        except CodeError as e:
            kind = e.kind
            if kind == "round":
                assert "another class round" in str(e) and "anderen Klassenrunde" in e.text["de"]
                assert grouped(b.code) in str(e) and "mistyped" not in str(e).replace("not mistyped", "")
        assert kind == ("round" if classroom._tag(a.code) != classroom._tag(b.code) else kind) != "typo"
        seen["round"] += kind == "round"
        with pytest.raises(CodeError) as e:
            verify_result(b, one_typo(code_b, rng))
        assert e.value.kind == "typo" and "mistyped" in str(e.value), str(e.value)
        seen["typo"] += 1
    assert seen["pairs"] >= 290 and seen["typo"] == seen["pairs"] and seen["round"] >= seen["pairs"] - 3, seen
    r, code = rounds_and_codes[0]
    for where in range(-4, 0):  # the tag and the check characters mistyped: a typo, not another round
        with pytest.raises(CodeError) as e:
            verify_result(r, one_typo(code, rng, where))
        assert e.value.kind == "typo"


def test_the_round_tag_of_another_round_matches_with_the_stated_probability():
    """docs/class-mode.md: a code of another round passes the tag with probability 32**-2 = 1/1024.
    Over every pair of 1200 class rounds: the number of pairs with the same tag is 1/1024 of the pairs
    (703 expected, 26 its standard deviation: within four of them)."""
    rng = random.Random(11)
    tags = {}
    for _ in range(1200):
        r = new_round(rng.choice(("wuerfel-joker-1", "wuerfel-joker-2", "tuefteln")), 1,
                      seed=rng.randrange(classroom.SMALL_SEED))
        tags.setdefault(r.code, classroom._tag(r.code))
    counts = {}
    for t in tags.values():
        counts[t] = counts.get(t, 0) + 1
    pairs, same = len(tags) * (len(tags) - 1) // 2, sum(c * (c - 1) // 2 for c in counts.values())
    expected = pairs / 32 ** classroom.TAG_CHARS
    assert abs(same - expected) <= 4 * (expected ** 0.5), (same, expected)
    assert len(next(iter(tags.values()))) == classroom.TAG_CHARS == 2


def test_a_code_of_another_round_whose_tag_meets_this_rounds_is_not_called_a_typo():
    # two rounds with the same tag (found among seeds): the code is replayed here and refused as not
    # a game written this way (or, rarely, read as some game of this round), never as mistyped
    found = {}
    for seed in range(5000):
        r = new_round("wuerfel-joker-1", 1, seed=seed)
        if (other := found.setdefault(classroom._tag(r.code), r)) is not r:
            break
    a, b = other, r
    assert classroom._tag(a.code) == classroom._tag(b.code) and a.code != b.code
    kinds = []
    for k in range(8):
        try:
            verify_result(b, result_code(a, play_session(a, mixed(k)), number=k))
            kinds.append("accepted")
        except CodeError as e:
            kinds.append(e.kind)
    assert "typo" not in kinds and "garbled" in kinds, kinds


def test_a_code_of_the_old_layout_is_named_so(rounds_and_codes):
    """Codes written before the two-character tag (layout 0, first character 0–F): one of this round
    is refused as the old layout (its old checks hold here); one of another round cannot be told from
    a typo, and its refusal says so. Codes of the layout now start with G–Z."""
    assert all(code[0] >= "G" for _, code in rounds_and_codes)
    (r, _), (other, _) = rounds_and_codes[:2]
    match = play_session(r, mixed(3))
    old = layout0_code(r, match, 5)
    assert old[0] < "G" and len(old) == len(result_code(r, match, number=5)) - 1
    with pytest.raises(CodeError) as e:
        verify_result(r, grouped(old).lower())
    assert e.value.kind == "old_format" and "older spieltisch" in str(e.value) and "älteren" in e.value.text["de"]
    with pytest.raises(CodeError) as e:
        verify_result(other, old)
    assert e.value.kind == "typo" and "older spieltisch's layout, which starts with 0–F" in str(e.value)
    # negative control: the old layout's check holds only with its own class code
    assert classroom._old_format(r, old) and not classroom._old_format(other, old)
    assert not classroom._old_format(r, one_typo(old, random.Random(1)))


def test_class_board_on_the_command_line_tells_another_round_from_a_typo(rounds_and_codes, capsys):
    (a, code_a), (b, code_b) = rounds_and_codes[:2]
    assert classroom._tag(a.code) != classroom._tag(b.code)
    typo = one_typo(code_b, random.Random(3))
    code, out, _ = run(capsys, "class", "board", b.code, f"Anna: {code_a}", f"Ben: {typo}", code_b, "--json")
    assert code == 0
    reasons = [x.get("reason") for x in json.loads(out)["results"]]
    assert reasons[0].startswith("this result code belongs to another class round")
    assert reasons[1].startswith("the result code's check characters do not match")
    assert reasons[2] is None
    code, out, _ = run(capsys, "class", "board", b.code, code_a, typo, "--lang", "de")
    assert code == 2 and "anderen Klassenrunde" in out and "Prüfzeichen" in out


def test_codes_as_people_paste_them_are_read_and_names_keep_their_commas():
    """Issue 32: a word processor's dashes (en, em, minus), no-break and thin spaces and invisible
    joiners between a code's letters are read as the hyphens and spaces they stand for; a name with a
    comma keeps it (the last colon before a code ends the name); commas after a code still separate."""
    r = new_round("wuerfel-joker-1", 1, seed=31)
    code = result_code(r, play_session(r, mixed(3)), number=5)
    shown = grouped(code)
    for dash in ("\u2013", "\u2014", "\u2212", "\u2010"):
        assert normalize(shown.replace("-", dash)) == code
    for space in ("\u00a0", "\u202f", "\u2009", "\u200b"):
        assert normalize(shown.replace("-", space)) == code
    assert verify_result(r, shown.replace("-", " \u2013 ").lower()).code == code
    with pytest.raises(CodeError, match="not a character"):
        normalize(shown.replace("-", "/"))  # not a spacing mark: still refused by name
    entries = classroom.split_entries(f"Müller, Anna: {shown}\nLena: {shown}, Tim: {shown}; {shown}, {shown}")
    assert [name for name, _ in entries] == ["Müller, Anna", "Lena", "Tim", None, None]
    assert all(normalize(c) == code for _, c in entries)
    assert classroom.split_entries(f"Klasse 8b: Lena: {shown}") == [("Klasse 8b: Lena", shown)]


def test_a_record_whose_bot_did_not_play_the_class_bots_move_gets_no_result_code():
    r = new_round("tuefteln", 2, ["human", "greedy"], seed=8)
    honest = play_session(r, first)
    assert verify_result(r, result_code(r, honest)).match.record_actions() == honest.record_actions()
    # the same game with the bot's moves played by someone else (the random bot)
    forged = r.match()
    bot, rng = make_bot(forged.game, "random"), Rng(3)
    while not forged.is_terminal():
        p = forged.current_player()
        if p < 0:
            forged.step_chance()
        elif p == 0:
            forged.apply(forged.legal_actions()[0])
        else:
            forged.apply(bot.act(forged.state.observation(1), forged.legal_actions(), rng))
    with pytest.raises(CodeError, match="not a game of the class round: its action"):
        result_code(r, forged)


def test_a_record_with_chosen_throws_is_refused_naming_its_first_differing_action():
    """Issue 32: a record whose throws were chosen (not the class game's) made a code that does not
    replay, and the refusal said "garbled"; it names the record's first action the class game would
    not make, and the class game's action there."""
    r = new_round("wuerfel-joker-2", 1, seed=1)
    m, rng = r.match(), random.Random(1)
    while not m.is_terminal():
        if m.current_player() < 0:
            outcomes = m.state.chance_outcomes()
            m.apply(outcomes[rng.randrange(len(outcomes))][0])  # a throw chosen, not thrown
        else:
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
    with pytest.raises(CodeError):  # (what the old check ran into: the code does not replay)
        verify_result(r, result_code(r, m, verify=False))
    with pytest.raises(CodeError) as e:
        result_code(r, m)
    text = str(e.value)
    assert "garbled" not in text and "its action 0 (['throw'" in text
    first_throw = r.match()
    first_throw.step_chance()
    assert str(first_throw.actions[0].to_json()).replace("'", "") in text.replace("'", "")
    assert "Aktion 0" in e.value.text["de"]


# Measured lengths: games played by the project's bots in the student's seat, with a number (seeds
# 1000 + g, the bot's generator Rng(g): the first games of the 60 docs/class-mode.md's table measured).
REPO = Path(__file__).resolve().parent.parent
BOT_DOC_WORDS = {"cautious": "threshold"}  # the table names bots as the page does


def documented_lengths() -> dict:
    """docs/class-mode.md's table of result code lengths: {(game, bot): (lo, hi)}."""
    rows = {"Würfel Joker – Spiel 1": "wuerfel-joker-1", "Würfel Joker – Spiel 2": "wuerfel-joker-2",
            "Tüfteln (1 player)": "tuefteln"}
    out = {}
    for line in (REPO / "docs" / "class-mode.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] in rows:
            for bot, lo, hi in re.findall(r"([a-z_]+)`?(?: \([^)]*\))? (\d+)–(\d+)", cells[1]):
                out[(rows[cells[0]], BOT_DOC_WORDS.get(bot, bot))] = (int(lo), int(hi))
    return out


def stated_on_the_teachers_page() -> dict:
    """The range of Würfel Joker's and Tüfteln's result code lengths the teachers' page states, per language."""
    text = (REPO / "site" / "landing" / "teachers.html").read_text(encoding="utf-8")
    found = {"de": re.findall(r"Würfel Joker und Tüfteln meist (\d+) bis (\d+) Zeichen", text),
             "en": re.findall(r"Würfel Joker and Tüfteln mostly (\d+) to (\d+) characters", text)}
    return {lang: tuple(int(x) for x in hits[0]) for lang, hits in found.items() if len(hits) == 1}


@pytest.fixture(scope="module")
def measured_lengths():
    out = {}
    for game, bots, games in (("wuerfel-joker-1", ("random", "threshold", "optimal"), 25),
                              ("wuerfel-joker-2", ("random", "threshold", "optimal"), 25),
                              ("tuefteln", ("random", "greedy"), 15)):
        for name in bots:
            lengths = []
            for g in range(games):
                r = new_round(game, 1, seed=1000 + g)
                match = finish_with_bot(r.session(), make_bot(r.game(), name), Rng(g))
                lengths.append(len(result_code(r, match, number=99, verify=False)))
            out[(game, name)] = lengths
    return out


def misstated(table: dict, page: dict, measured: dict) -> list:
    """Where the docs' table or the teachers' page does not state the measured lengths truthfully:
    each bot's lengths lie in the table's range for it, and the page states the table's range over
    these games (without Würfel Joker 2's risky objective, which the page names as longer)."""
    wrong = []
    for key, lengths in measured.items():
        lo, hi = table.get(key, (None, None))
        if lo is None or not lo <= min(lengths) <= max(lengths) <= hi:
            wrong.append((key, (min(lengths), max(lengths)), (lo, hi)))
    shown = [v for (game, bot), v in table.items() if bot != "optimal_all_up"]
    span = (min(lo for lo, _ in shown), max(hi for _, hi in shown)) if shown else None
    wrong += [("page", lang, page.get(lang), span) for lang in ("de", "en") if page.get(lang) != span]
    return wrong


def test_result_code_lengths_are_stated_as_measured_in_the_docs_and_on_the_teachers_page(measured_lengths):
    """Issue 32: "code lengths stated truthfully" (the page once said at most 24 where codes had 25–31)."""
    table = documented_lengths()
    assert ("wuerfel-joker-2", "optimal_all_up") in table and set(measured_lengths) <= set(table)
    assert misstated(table, stated_on_the_teachers_page(), measured_lengths) == []


def test_negative_control_lengths_stated_one_too_short_are_caught(measured_lengths):
    # the table as it stood before the round tag took a second character (each range one shorter),
    # beside the page as it is now: the lengths are out of range, and the page no longer the table's
    table = {k: (lo - 1, hi - 1) for k, (lo, hi) in documented_lengths().items()}
    wrong = misstated(table, stated_on_the_teachers_page(), measured_lengths)
    assert any(w[0] == "page" for w in wrong) and any(w[0] != "page" for w in wrong)


# --- corruptions ---------------------------------------------------------------------------------------
def corrupt(code: str, rng: random.Random) -> str:
    chars = list(code)
    kind = rng.randrange(6)
    if kind == 0:  # one to three wrong characters
        for _ in range(rng.randint(1, 3)):
            chars[rng.randrange(len(chars))] = rng.choice(ALPHABET)
    elif kind == 1 and len(chars) > 1:  # two neighbours swapped
        i = rng.randrange(len(chars) - 1)
        chars[i], chars[i + 1] = chars[i + 1], chars[i]
    elif kind == 2:  # a character left out
        del chars[rng.randrange(len(chars))]
    elif kind == 3:  # one too many
        chars.insert(rng.randrange(len(chars) + 1), rng.choice(ALPHABET))
    elif kind == 4:  # cut short or run on
        chars = chars[:rng.randrange(len(chars))] if rng.random() < 0.5 else chars + list(rng.choice(ALPHABET) * 3)
    else:  # anything typed at all
        chars = [rng.choice(ALPHABET + "!?-: äO") for _ in range(rng.randint(0, 30))]
    return "".join(chars)


def corruption_outcomes(rounds_and_codes, n: int, seed: int) -> dict:
    """Each corruption is refused (CodeError) or decodes to a whole valid game; anything else (an
    exception of another kind, a result that is not a finished game of its code) is a failure."""
    rng = random.Random(seed)
    out = {"refused": 0, "valid": 0, "failures": []}
    for i in range(n):
        r, code = rounds_and_codes[i % len(rounds_and_codes)]
        bad = corrupt(code, rng)
        try:
            res = verify_result(r, bad)
        except CodeError:
            out["refused"] += 1
            continue
        except Exception as e:  # noqa: BLE001 - a crash is what this harness looks for
            out["failures"].append((bad, repr(e)[:120]))
            continue
        if res.match.is_terminal() and res.code == normalize(bad) and verify_result(r, res.code).code == res.code:
            out["valid"] += 1
        else:
            out["failures"].append((bad, "not a finished game of its code"))
    return out


@pytest.fixture(scope="module")
def valid_codes():
    out = []
    for game, players, seats in (("wuerfel-joker-1", 1, None), ("wuerfel-joker-2", 1, None),
                                 ("tuefteln", 1, None), ("skip-bo-masters", 2, ["human", "random"])):
        r = new_round(game, players, seats, seed=99)
        for k in range(2):
            out.append((r, result_code(r, play_session(r, mixed(k)), number=k * 7)))
    return out


def test_a_thousand_corrupted_result_codes_are_refused_or_whole_games(valid_codes):
    outcome = corruption_outcomes(valid_codes, 1000, seed=2026)
    assert outcome["failures"] == []
    assert outcome["refused"] + outcome["valid"] == 1000
    assert outcome["refused"] >= 990  # the check characters catch nearly all of them
    # every single wrong character and every swap of neighbours is caught
    r, code = valid_codes[0]
    for i in range(len(code)):
        for c in ALPHABET:
            if c != code[i]:
                with pytest.raises(CodeError):
                    verify_result(r, code[:i] + c + code[i + 1:])
        if i + 1 < len(code) and code[i] != code[i + 1]:
            with pytest.raises(CodeError):
                verify_result(r, code[:i] + code[i + 1] + code[i] + code[i + 2:])


def test_negative_control_the_corruption_harness_catches_a_decoder_that_crashes(valid_codes, monkeypatch):
    # a decoder without its checks whose reading is off by one where a decision has three or more
    # options: it hands out an index one past the last option for some inputs (an IndexError)
    from spieltisch.ui.classroom import results as result_codes  # where the result code is read

    monkeypatch.setattr(result_codes, "_tag", lambda code: "0" * classroom.TAG_CHARS)
    monkeypatch.setattr(result_codes, "_check", lambda symbols, power: 0)

    def sloppy_take(self, weights):
        total = sum(weights)
        rest = (self.m * self.den - self.low * self.scale) * total // (self.width * self.scale)
        cum = 0
        for index, w in enumerate(weights):
            cum += w
            if rest < cum:
                self.put(index, weights)
                return index + 1 if len(weights) > 2 else index  # the bug: counts from 1 in longer lists
        return len(weights)

    monkeypatch.setattr(classroom._Decoder, "take", sloppy_take)
    fixed = [(r, code[:-classroom.TAG_CHARS - 2] + "0" * (classroom.TAG_CHARS + 2)) for r, code in valid_codes]
    outcome = corruption_outcomes(fixed, 200, seed=1)
    assert outcome["failures"], outcome


# --- the table in a class round -------------------------------------------------------------------------
def test_a_class_table_refuses_every_change_of_the_game_and_keeps_undo_honest():
    r = new_round("wuerfel-joker-2", 2, ["human", "threshold"], seed=5)
    t = Table(**r.table_settings(), lang="en")
    before = (t.seed, t.seats, t.game.num_players, t.game_id)
    for event in ({"type": "new"}, {"type": "seed", "seed": 3}, {"type": "seat", "seat": 1, "who": "human"},
                  {"type": "players", "players": 3}, {"type": "variant", "id": "wuerfel-joker-1"},
                  {"type": "advisor", "on": True}):
        t.handle(event)
        assert t.state()["message"]["kind"] == "refused"
        assert "class" in t.state()["message"]["text"]
    assert (t.seed, t.seats, t.game.num_players, t.game_id) == before and not t.advisor_on
    # the advisor's option token ("opt0": its best move) is refused at a decision and plays nothing
    while t.pending() or t.human_throw_pending():
        t.step()
    played = t.session.match.record_actions()
    t.handle({"type": "act", "token": "opt0"})
    assert t.state()["message"]["kind"] == "refused" and "switched off in this class round" in t.state()["message"]["text"]
    assert t.session.match.record_actions() == played
    assert t.state()["class_round"]["code"] == grouped(r.code)
    # Undo: a decision can be taken back before the next throw, not after it
    def to_decision():
        while True:
            if t.pending() or t.human_throw_pending():
                t.step()
            elif len(t.session.legal_actions()) > 1:
                return t.session.legal_actions()
            else:
                t.act(t.session.legal_actions()[0])

    legal = to_decision()
    t.act(legal[0])
    assert t.state()["can_undo"]
    t.handle({"type": "undo"})
    assert (t.state()["message"] or {}).get("kind") != "refused" and t.session.legal_actions() == legal
    t.act(legal[-1])
    while t.session.match.movers[-1] in t.humans:  # on to the next throw or bot move
        assert t.state()["can_undo"]
        if t.pending() or t.human_throw_pending():
            t.step()
        else:
            t.act(t.session.legal_actions()[0])
    assert not t.state()["can_undo"]
    actions = t.session.match.record_actions()
    t.handle({"type": "undo"})
    assert t.state()["message"]["kind"] == "refused" and "nothing has happened" in t.state()["message"]["text"]
    assert t.session.match.record_actions() == actions
    # a round that allows the advisor lets the student switch it on
    allowed = Table(**new_round("wuerfel-joker-2", 1, advisor=True).table_settings())
    allowed.handle({"type": "advisor", "on": True})
    assert allowed.advisor_on and allowed.state()["message"] is None
    while allowed.pending() or allowed.human_throw_pending():
        allowed.step()
    played = len(allowed.session.match.actions)
    allowed.handle({"type": "act", "token": "opt0"})  # with the advisor on, its option token plays
    assert len(allowed.session.match.actions) > played


# --- the board ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def board_round():
    r = new_round("wuerfel-joker-2", 1, seed=2718)
    matches = [play_session(r, choose) for choose in (first, last, mixed(1))]
    return r, matches, [result_code(r, m, number=i + 1) for i, m in enumerate(matches)]


def test_the_board_verifies_codes_and_summarises_the_class(board_round):
    r, matches, codes = board_round
    board = Board(grouped(r.code))
    pasted = board.add(f"Lena: {grouped(codes[0])}\n{codes[1].lower()}, {codes[2]}\nXXXX-0000\n{codes[0]}")
    assert [a["code"] for a in pasted["added"]] == codes
    assert [x["input"] for x in pasted["refused"]] == ["XXXX-0000", codes[0]]
    assert "already" in pasted["refused"][1]["reason"]["en"]
    points = [m.state.scores()[0] for m in matches]
    s = board.summary("en")
    assert s["count"] == 3 and Fraction(s["mean"]["fraction"]) == Fraction(sum(points), 3)
    assert sum(b["count"] for b in s["histogram"]["bins"]) == 3
    best = Fraction(r.game().analyze()["optimal_expected_total"]["fraction"])
    assert Fraction(s["best_expected"]["fraction"]) == best
    assert [x["points"] for x in s["ranking_points"]] == sorted(points, reverse=True)
    losses = [x["expected_loss"]["float"] for x in s["ranking"]]
    assert losses == sorted(losses)  # the ranking: by the expected points the decisions gave away
    assert {x["name"] for x in s["ranking"]} == {"Lena", "No. 2", "No. 3"}
    bots = {b["bot"]: b["points"] for b in s["bots"]}
    assert set(bots) == {"random", "threshold", "optimal", "optimal_all_up"}
    # the optimal bot's game of this very code, as the board says
    session = PlaySession(r.game(), None, None, r.seed, bots={0: "optimal"})
    session.run_until_human()
    assert bots["optimal"] == session.match.state.scores()[0]
    # where the class lost points: the first decision, which all three reached, is among them,
    # with the three choices counted and the best option named
    # (review F1/F8: only decisions where someone lost points, only the options someone chose that
    # lost points, after the best option to compare with)
    assert s["decisions"]
    for d in s["decisions"]:
        assert sum(o["count"] for o in d["options"]) <= d["reached"] >= 2
        assert d["options"][0]["best"] and d["options"][0]["loss"]["float"] == 0
        assert all(o["count"] and Fraction(o["loss"]["fraction"]) > 0 for o in d["options"][1:])
        assert Fraction(d["class_loss"]["fraction"]) > 0
    assert [d["class_loss"]["float"] for d in s["decisions"]] == sorted(
        (d["class_loss"]["float"] for d in s["decisions"]), reverse=True)
    # the CSV has a row per result, best first
    rows = board.csv("en").splitlines()
    assert rows[0].startswith("rank,name,number,points,code") and len(rows) == 4
    # ranked as the board opens, and the file says by what (review-class3: the CSV ranked a per-turn
    # game by decisions while the board opened by points)
    by = "decisions" if r.cls.ranks_decisions else "points"
    assert rows[0].endswith("ranked_by,given_away,given_away_low,given_away_high")
    assert all(line.split(",")[-4] == by for line in rows[1:])


def test_the_board_survives_a_reload_and_refuses_a_changed_storage(board_round):
    r, matches, codes = board_round
    board = Board(r.code)
    board.add("\n".join(codes))
    stored = json.dumps(board.to_json())
    again = Board.from_json(stored)
    assert [x.code for x in again.results] == [x.code for x in board.results]
    assert again.summary("de", bots=False)["ranking"] == board.summary("de", bots=False)["ranking"]
    # points cannot be smuggled in through the storage: a changed code does not come back
    data = json.loads(stored)
    data["results"][1]["code"] = data["results"][1]["code"][:-1] + ("0" if data["results"][1]["code"][-1] != "0" else "1")
    assert len(Board.from_json(data).results) == 2
    with pytest.raises(CodeError):
        Board.from_json({"format": 7, "class": r.code, "results": []})


def test_a_refused_code_changes_nothing_on_the_board(board_round):
    r, matches, codes = board_round
    board = Board(r.code)
    board.add(codes[0])
    before = board.summary("en", bots=False)
    out = board.add(codes[1][:-2] + codes[1][-1] + codes[1][-2])
    assert out["added"] == [] and "check characters" in out["refused"][0]["reason"]["en"]
    assert board.summary("en", bots=False) == before


# --- the command line -----------------------------------------------------------------------------------
def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_ranking_is_by_decisions_so_foreknowledge_of_the_throws_does_not_win(capsys):
    """Issue 32: a solo Würfel Joker 2 class round; a game searched with the throws known scores far
    more than the optimal bot on the same throws, yet gives away expected points with its decisions
    (exactly: the solver values each one): the ranking by decisions puts the optimal bot's game first,
    in the model, in ``class board --json`` and in its text; the points ranking is the second view."""
    r = new_round("wuerfel-joker-2", 1, seed=1)
    searched = searched_with_the_throws_known(r)
    optimal = finish_with_bot(r.session(), make_bot(r.game(), "optimal"), Rng(0))
    assert searched.state.scores()[0] > optimal.state.scores()[0] + 100  # luck and foreknowledge: more points
    code_s, code_o = result_code(r, searched, number=1), result_code(r, optimal, number=2)
    board = Board(r.code)
    board.add(f"Searcher: {code_s}\nOptimal: {code_o}")
    s = board.summary("en")
    by_name = {x["name"]: x for x in s["ranking"]}
    assert [x["name"] for x in s["ranking"]] == ["Optimal", "Searcher"]
    assert [x["name"] for x in s["ranking_points"]] == ["Searcher", "Optimal"]
    assert by_name["Optimal"]["expected_loss"]["method"] == "exact"
    assert Fraction(by_name["Optimal"]["expected_loss"]["fraction"]) == 0
    lost = Fraction(by_name["Searcher"]["expected_loss"]["fraction"])
    assert lost > 50
    # the loss is the sum of the review's exact losses of the student's decisions
    from spieltisch.core.advice import review

    assert lost == sum(Fraction(d.loss) for d in review(searched, players=[0]))
    assert "decisions, not luck" in s["ranking_note"]
    code, out, _ = run(capsys, "class", "board", r.code, f"Searcher: {code_s}", f"Optimal: {code_o}", "--json")
    data = json.loads(out)
    assert [x["name"] for x in data["ranking"]] == ["Optimal", "Searcher"]
    assert all("expected_loss" in x and x["expected_loss"]["method"] == "exact" for x in data["results"] if x["valid"])
    assert all("expected_loss" in x for x in data["ranking"])
    code, out, _ = run(capsys, "class", "board", r.code, f"Searcher: {code_s}", f"Optimal: {code_o}")
    ranking = out[out.index("ranking by decisions"):out.index("ranking by points")]
    assert ranking.index("Optimal") < ranking.index("Searcher")


def test_an_estimated_ranking_is_not_ruled_by_ties_or_noise():
    """Review F1 (Tüfteln, an estimating advisor): a student who takes a noisy advisor's first option
    at every decision once ranked first with "≈ 0 (0–0)", because a choice among the tied options
    counted as no loss at all. Now a tied choice gives away the leader's mean minus its own, measured
    on the same play-outs (the chosen move is always a finalist), and the range is never 0–0: the
    strong bot's game ranks above that student's and the random bot's; with a negative control,
    the strong bot ahead of the random one by points too, so the order is not the board's invention."""
    r = new_round("tuefteln", 1, seed=2)
    game = r.game()
    noisy = {"n_rollouts": 2, "seed": 0}  # the board's old review settings

    def first_option(s):
        legal = s.legal_actions()
        return legal[0] if len(legal) == 1 else game.advise(s.state.observation(0), **noisy).options[0].action

    games = {"Strong": finish_with_bot(r.session(), make_bot(game, "strong"), Rng(1)),
             "Random": finish_with_bot(r.session(), make_bot(game, "random"), Rng(1))}
    session = r.session()
    while not session.is_over():
        session.act(first_option(session)) if session.waiting_for_human() else session.step()
    games["First"] = session.match
    assert games["Strong"].state.scores()[0] > games["Random"].state.scores()[0]
    board = Board(r.code)
    board.add("\n".join(f"{k}: {result_code(r, m)}" for k, m in games.items()))
    s = board.summary("en", bots=False, decisions=False)
    assert [x["name"] for x in s["ranking"]][0] == "Strong" and s["ranking"][-1]["name"] == "Random"
    for x in s["ranking"]:
        loss = x["expected_loss"]
        lo, hi = loss["ci95"]
        assert loss["method"] == "estimate" and 0 <= lo <= loss["float"] <= hi and hi > 0 and hi > lo
    # the first option of a two-play-out advice: no longer "0 (0–0)", and behind the strong bot's game
    first = next(x for x in s["ranking"] if x["name"] == "First")
    assert first["expected_loss"]["float"] > 0
    assert "estimated from play-outs" in s["ranking_note"].lower()


def test_places_whose_estimated_ranges_overlap_are_marked_uncertain():
    """Review F1: ranked by an estimate, places whose 95 % ranges chain together are "not clearly
    different", in both languages; separate ranges and exact losses (no range) are not marked."""
    from spieltisch.ui.classroom.board import _mark_uncertain

    def entry(rank, lo, mean, hi, method="estimate"):
        return {"rank": rank, "uncertain": None,
                "expected_loss": {"method": method, "float": mean, **({"ci95": [lo, hi]} if method == "estimate" else {})}}

    ranking = [entry(1, 0, 1, 3), entry(2, 2, 4, 6), entry(3, 5.5, 7, 9), entry(4, 10, 12, 14)]
    _mark_uncertain(ranking)
    assert [x["uncertain"] for x in ranking] == [[1, 3], [1, 3], [1, 3], None]
    board = Board(new_round("tuefteln", 1, seed=2).code)
    assert board.uncertain_note(ranking, "de") == "Plätze 1–3: Reihenfolge nicht gesichert – benachbarte Bereiche überlappen."
    assert board.uncertain_note(ranking, "en") == "Places 1–3: order not certain – neighbouring ranges overlap."
    apart = [entry(1, 0, 1, 2), entry(2, 3, 4, 5)]
    _mark_uncertain(apart)
    assert [x["uncertain"] for x in apart] == [None, None] and board.uncertain_note(apart, "en") is None
    exact = [entry(1, 0, 1, 1, "exact"), entry(2, 1, 1, 1, "exact")]
    _mark_uncertain(exact)
    assert [x["uncertain"] for x in exact] == [None, None]


def test_the_boards_words_are_the_games():
    """Review F8: the ranking note names what the advisor measures (Schraube Locker: this turn's
    points, not the whole game's), luck in the game's words (Skip-Bo Masters deals cards: no dice),
    the points view its own note; the class bar's "same throws" is the game's too."""
    from spieltisch.ui.classroom import ranking_note

    sbm, tue = get_game_class("skip-bo-masters"), get_game_class("tuefteln")
    for lang in ("de", "en"):
        for by in ("decisions", "points"):
            assert "Würfel" not in ranking_note(sbm, None, True, lang, by) and "throw" not in ranking_note(sbm, None, True, lang, by)
    assert "Glück beim Ziehen" in ranking_note(sbm, None, True, "de") and "lucky draws" in ranking_note(sbm, None, True, "en")
    assert "Glück beim Würfeln" in ranking_note(tue, None, True, "de")
    assert "Punkten zählt die Punkte" in ranking_note(tue, None, False, "de", "points")
    assert "Probespielen" in ranking_note(tue, None, True, "de") and "Probespielen" not in ranking_note(tue, None, False, "de")
    assert new_round("skip-bo-masters", 2, seats=["human", "greedy"], seed=1).describe("de")["chance"]["same"] == "gleiche Karten"
    assert new_round("tuefteln", 1, seed=1).describe("en")["chance"]["same"] == "the same throws"
    # Schraube Locker: the loss is measured by the advisor's objective, this turn's points, and the note says so
    r = new_round("schraube-locker", 2, seats=["human", "random"], seed=3)
    board = Board(r.code)
    board.add(result_code(r, play_session(r, mixed(1))))
    s = board.summary("en", bots=False, decisions=False)
    objective = s["loss_objective"]
    assert objective and "this turn" in objective and objective in s["ranking_note"]
    assert "best play" not in s["ranking_note"]
    assert s["ranking_points_note"].startswith("The ranking by points")
    # ... and since that values a turn only (a winner can "give away" more), the board opens by points
    # (review N1: in Skip-Bo Masters random play ranked clearly above games that won)
    assert s["ranking_default"] == "points" and "values only a turn" in s["ranking_note"]
    assert [line.split(",")[-4] for line in board.csv("en").splitlines()[1:]] == ["points"]


@pytest.mark.parametrize("game_id", ["wuerfel-joker-1", "wuerfel-joker-2", "tuefteln", "schraube-locker",
                                     "scratch-island", "skip-bo-masters"])
def test_the_board_ranks_by_decisions_only_where_the_review_measures_the_whole_game(game_id):
    """Würfel Joker (exact over the whole game) and Tüfteln (play-outs to the end) rank by decisions; the
    games whose advisor values a turn (its points, a lead) open by points, with the losses as a hint."""
    from spieltisch.ui.classroom import ranking_note

    cls = get_game_class(game_id)
    whole = game_id.startswith("wuerfel-joker") or game_id == "tuefteln"
    assert cls.ranks_decisions is whole
    for lang, hint in (("de", "nur ein Hinweis"), ("en", "a hint only")):
        assert (hint in ranking_note(cls, None, False, lang)) is not whole


def test_the_same_decisions_of_two_students_share_a_place_and_count_once():
    """Issue 32 / review F4: two students who decide alike (the best moves, one fixed rule) are not
    copying: both names stay on the board, joined at one place of the ranking, and the game counts
    once in the class's mean and histogram; a game with one decision flipped stays a result of its own.
    A live class (each student seen playing their own game) counts each."""
    r = new_round("wuerfel-joker-1", 1, seed=31)
    match = play_session(r, mixed(3))
    other = play_session(r, mixed(4))
    first_code, second_code, third_code = (result_code(r, match, number=3), result_code(r, match, number=4),
                                           result_code(r, other))
    assert first_code != second_code
    assert result_code(r, other) != first_code and other.state.scores()[0] != match.state.scores()[0]
    board = Board(r.code)
    out = board.add(f"Lena: {first_code}\nKevin: {second_code}\nTim: {third_code}")
    assert [a["label"] for a in out["added"]] == ["Lena", "Kevin", "Tim"] and not out["refused"]
    assert "same decisions as Lena" in out["added"][1]["same_as"]["en"] and "same_as" not in out["added"][2]
    for lang, joined in (("de", "Lena, Kevin – gleiche Entscheidungen"), ("en", "Lena, Kevin – same decisions")):
        s = board.summary(lang, bots=False, decisions=False)
        assert s["count"] == 3 and s["counted"] == 2
        assert sorted(x["name"] for x in s["ranking"]) == sorted([joined, "Tim"])
        assert sorted(x["name"] for x in s["ranking_points"]) == sorted([joined, "Tim"])
        assert Fraction(s["mean"]["fraction"]) == Fraction(match.state.scores()[0] + other.state.scores()[0], 2)
        assert sum(b["count"] for b in s["histogram"]["bins"]) == 2
    # the file has a row for each of them: the shared place twice, at one rank, each with its own code
    rows = {row[1]: row for row in csv.reader(io.StringIO(board.csv("en")))}
    assert set(rows) == {"name", "Lena", "Kevin", "Tim"}
    assert rows["Lena"][0] == rows["Kevin"][0] != rows["Tim"][0]
    assert (rows["Lena"][2], rows["Kevin"][2]) == ("3", "4")
    assert rows["Lena"][4] != rows["Kevin"][4]
    # the same codes in a live class: three results, three places
    live = Board(r.code)
    live.add(f"Lena: {first_code}\nKevin: {second_code}", same_decisions_once=False)
    s = live.summary("en", bots=False, decisions=False)
    assert s["counted"] == 2 and {x["name"] for x in s["ranking"]} == {"Lena", "Kevin"}


def test_several_results_under_one_name_are_flagged_and_the_first_counts():
    """Issue 32 / review F3: a second tab or browser brings a second code for the same student; the
    board keeps them, says "Lena: 3 results, the first counts" and ranks only the first."""
    r = new_round("wuerfel-joker-1", 1, seed=31)
    games = [play_session(r, mixed(k)) for k in (3, 4, 6)]
    codes = [result_code(r, m) for m in games]
    assert len(set(codes)) == 3
    board = Board(r.code)
    board.add("\n".join(f"{name}: {c}" for name, c in zip(("Lena", "lena ", "Lena"), codes)))
    board.add(f"Tim: {result_code(r, play_session(r, mixed(8)))}")
    assert len(board.results) == 4
    for lang, text in (("de", "Lena: 3 Ergebnisse, gewertet wird das erste"), ("en", "Lena: 3 results, the first counts")):
        s = board.summary(lang, bots=False, decisions=False)
        assert [f["text"] for f in s["name_flags"]] == [text]
        assert s["counted"] == 2 and [x["counted"] for x in s["results"]] == [True, False, False, True]
        assert sorted(x["code"] for x in s["ranking"]) == sorted([codes[0], board.results[3].code])
    # a single result per name: no flag
    one = Board(r.code)
    one.add(f"Lena: {codes[0]}\nTim: {codes[1]}")
    assert one.summary("en", bots=False, decisions=False)["name_flags"] == []
    # a live class: the server tells two students called Lena apart, each counts
    live = Board(r.code)
    live.add(f"Lena: {codes[0]}\nLena: {codes[1]}", same_decisions_once=False)
    s = live.summary("en", bots=False, decisions=False)
    assert s["name_flags"] == [] and s["counted"] == 2



def test_one_number_under_two_names_is_flagged_and_both_count():
    """A class list number belongs to one student: the same number under two names is a typo, or one
    student's two games under two names. Both count (the names differ); the board says so."""
    r = new_round("wuerfel-joker-1", 1, seed=31)
    games = [play_session(r, mixed(k)) for k in (3, 4, 6)]
    board = Board(r.code)
    board.add(f"Lena: {result_code(r, games[0], number=7)}\nKevin: {result_code(r, games[1], number=7)}\n"
              f"Tim: {result_code(r, games[2], number=8)}")
    for lang, text in (("de", "Nr. 7: Lena und Kevin – eine Nummer unter 2 Namen"),
                       ("en", "No. 7: Lena and Kevin – one number under 2 names")):
        s = board.summary(lang, bots=False, decisions=False)
        assert [f["text"] for f in s["name_flags"]] == [text]
        assert s["counted"] == 3
    # the same name twice with its number: the flag for one name's results, not this one
    again = Board(r.code)
    again.add(f"Lena: {result_code(r, games[0], number=7)}\nlena: {result_code(r, games[1], number=7)}")
    assert [f["text"] for f in again.summary("en", bots=False, decisions=False)["name_flags"]] == [
        "Lena: 2 results, the first counts"]


def test_cli_class_new_json_is_the_class_game(capsys):
    code, out, _ = run(capsys, "class", "new", "skip-bo-masters", "--players", "3", "--seats", "human,greedy",
                       "strong", "--option", "short_game=true", "--seed", "77", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) >= {"code", "ruleset", "players", "options", "seats", "seed"}
    r = parse_class(data["code"])
    assert (data["ruleset"], data["players"], data["seats"], data["seed"]) == (
        "skip-bo-masters", 3, ["human", "greedy", "strong"], 77)
    match = Match(data["ruleset"], data["players"], data["options"], seed=data["seed"], secret=data["secret"])
    match.resolve_chance()
    theirs = r.match()
    theirs.resolve_chance()
    assert match.state.observation(SPECTATOR) == theirs.state.observation(SPECTATOR)
    assert match.state.observation(0) == theirs.state.observation(0)
    code, out, _ = run(capsys, "class", "new", "tuefteln")
    assert code == 0 and parse_class(out.strip()).game_id == "tuefteln"
    code, _, err = run(capsys, "class", "new", "tuefteln", "--seats", "strong")
    assert code == 2 and "human seat" in err


def test_cli_class_result_and_board(capsys, tmp_path):
    r = new_round("wuerfel-joker-1", 2, ["human", "human"], seed=3)  # every seat human: any record of it
    match = play_session(r, mixed(5))
    path = tmp_path / "game.json"
    path.write_text(match.to_json())
    code, out, _ = run(capsys, "class", "result", r.code, str(path), "--number", "4")
    assert code == 0
    code1 = out.strip()
    res = verify_result(r, out.strip())
    assert res.number == 4 and res.match.record_actions() == match.record_actions()
    other = play_session(r, first)
    code2 = result_code(r, other)
    code, out, _ = run(capsys, "class", "board", r.code, out.strip(), f"Max: {code2}", "NOPE", "--json")
    assert code == 0
    data = json.loads(out)
    valid = [x for x in data["results"] if x["valid"]]
    assert [x["points"] for x in valid] == [match.state.scores()[0], other.state.scores()[0]]
    refused = [x for x in data["results"] if not x["valid"]]
    assert len(refused) == 1 and refused[0]["reason"]
    assert Fraction(data["mean"]["fraction"]) == Fraction(sum(x["points"] for x in valid), 2)
    assert data["best_expected"] is not None and isinstance(data["decisions"], list)
    code, _, err = run(capsys, "class", "board", r.code, "NOPE")
    assert code == 2 and "no result code was valid" in err
    code, out, _ = run(capsys, "class", "board", r.code, code2, f"Müller, Anna: {code1}", "NOPE", "--lang", "de")
    assert code == 0 and "Mittelwert der Klasse" in out and "Rangliste nach Entscheidungen" in out
    assert "Müller, Anna" in out and "abgelehnt" in out
    # German throughout: no fraction over 1, no English bot name or refusal
    assert "/1 " not in out and "/1\n" not in out and "refused" not in out and "nicht Glück" in out
    code, _, err = run(capsys, "class", "result", r.code[:-1], str(path))
    assert code == 2 and "check character" in err
    unfinished = r.match()
    path.write_text(unfinished.to_json())
    code, _, err = run(capsys, "class", "result", r.code, str(path))
    assert code == 2 and "not finished" in err


# --- the poll of a lesson's prediction ------------------------------------------------------------------
def test_the_poll_reveals_the_engines_exact_value_and_a_simulation_next_to_the_class():
    """The board's poll asks the lessons' declared core questions (tests/test_questions.py checks each
    one); here: the board's side of it, Würfel Joker's first question against the game's own numbers."""
    from spieltisch.core.registry import questions
    from spieltisch.games.wuerfel_joker.spiel2 import analysis as wj2

    listed = {q["id"]: q for q in classroom.predictions("en")}
    assert set(listed) == {q.id for q in questions(core=True)}
    assert {q["family"] for q in listed.values()} >= {"wuerfel-joker", "tuefteln", "schraube-locker", "skip-bo-masters",
                                                     "scratch-island"}
    assert "wuerfel-joker-q4" not in listed and "wuerfel-joker-q4" in {q["id"] for q in classroom.predictions("en", None)}
    # the easiest last slide, as the lesson counts it: useless doubles are rolled again and do not count
    chance = {v: wj2.counted_push_chance([u for u in range(1, 10) if u != v]) for v in range(1, 10)}
    best = [v for v in chance if chance[v] == max(chance.values())]
    counts = [0] * 9
    counts[best[0] - 1], counts[8] = 4, 6  # four right, six for the 9
    r = classroom.reveal("wuerfel-joker-q1", counts, "de")
    assert [listed["wuerfel-joker-q1"]["options"][i] for i in r["right"]] == [str(v) for v in best]
    assert (r["votes"], r["hits"]) == (10, 4) and "4 von 10" in r["class_text"]
    assert [d["count"] for d in r["distribution"]] == counts and r["distribution"][best[0] - 1]["right"]
    assert Fraction(r["exact"]["fraction"]) == max(chance.values())
    lo, hi = r["simulation"]["ci95"]
    assert lo <= float(max(chance.values())) <= hi
    with pytest.raises(CodeError, match="counts are"):
        classroom.reveal("tuefteln-q1", [1, 2], "en")
    with pytest.raises(CodeError, match="no lesson question"):
        classroom.reveal("nope", [], "en")
    with pytest.raises(CodeError, match="language"):
        classroom.predictions("fr")


def test_every_option_of_a_class_round_has_a_german_and_an_english_label():
    """Issue 32: the class-round form showed engine names (five_ops, x5_on_stop); each game names
    every option and every choice in both languages, and the round's description uses them."""
    from spieltisch.ui.classroom import catalog

    for lang in ("de", "en"):
        for g in catalog(lang):
            for o in g["options"]:
                assert o["label"] and o["label"] != o["name"], (g["id"], o["name"])
                assert set(o["choice_labels"]) == {str(c) for c in o["choices"]}, (g["id"], o["name"])
    r = new_round("wuerfel-joker-2", 1, options={"five_ops": "all", "x5_on_stop": True}, seed=3)
    de = r.describe("de")["options_text"]
    assert de == ["mit der 5 oben: ± 5, × 5 und : 5", "× 5 auch beim freiwilligen Aufhören: ja"]
    assert r.describe("en")["options_text"][1] == "× 5 on a voluntary stop too: yes"


def test_a_kept_class_game_resumes_where_it_stood_and_a_changed_one_does_not():
    """Issue 32: a reload (or a second tab) replays the class game kept on the device; a kept record
    that the class game would not make (changed storage) resumes only as far as it agrees."""
    from spieltisch.ui.classroom import resume_table

    r = new_round("skip-bo-masters", 2, seed=5)
    t = Table(**r.table_settings())
    rng = random.Random(1)
    for _ in range(40):
        if t.pending() or t.human_throw_pending():
            t.step()
            continue
        legal = t.session.legal_actions()
        t.act(legal[rng.randrange(len(legal))])
    kept = t.session.match.record_actions()
    again = Table(**r.table_settings())
    assert resume_table(again, kept) == len(kept)
    assert again.session.match.record_actions() == kept
    assert again.state()["board"] == t.state()["board"]  # the same screen, hidden cards included
    changed = list(kept)
    i = next(i for i, m in enumerate(t.session.match.movers) if m == 0 and i > len(kept) // 2)
    changed[i] = ["no such move"]
    fresh = Table(**r.table_settings())
    assert resume_table(fresh, changed) == i and fresh.session.match.record_actions() == kept[:i]
    assert resume_table(Table(**r.table_settings()), "junk") == 0


def test_the_end_of_a_class_game_says_where_the_result_code_is():
    """Issue 32: on a phone the result code was far above the table at the end and the banner did
    not mention it; a class table's banner says where it is (a plain table's does not)."""
    r = new_round("wuerfel-joker-1", 1, seed=4)
    for settings, said in ((r.table_settings(), True), ({"game": "wuerfel-joker-1", "players": 1, "seed": 4}, False)):
        t = Table(**settings, lang="de")
        play_table(t, lambda n, step: 0)
        assert ("Ergebniscode" in t.state()["banner"]["text"]) is said
