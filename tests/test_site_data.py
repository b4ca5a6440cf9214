"""The landing page's game list (site/build.py) against the registry, without a browser or a build.

Names, summaries and player counts come from the game classes; site/build.py only groups registered
games into cards (a family shares one) and adds the games not built yet. These tests pin that the
page shows exactly the registered games, in German and English, and that a drift fails the build.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import spieltisch

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("site_build", ROOT / "site" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cards(build):
    return build.landing_cards()


def test_every_registered_game_with_a_view_is_on_exactly_one_ready_card(cards):
    on_cards = [g["id"] for c in cards if c["ready"] for g in c["games"]]
    with_view = [gid for gid in spieltisch.game_ids() if getattr(spieltisch.get_game_class(gid), "view", None)]
    assert sorted(on_cards) == sorted(with_view)
    assert len(on_cards) == len(set(on_cards))
    assert all(not c["games"] for c in cards if not c["ready"])


def test_the_cards_the_page_shows(cards):
    assert [c["id"] for c in cards] == [
        "wuerfel-joker", "tuefteln", "schraube-locker", "skip-bo-masters", "scratch-island"]
    assert [c["id"] for c in cards if c["ready"]] == ["wuerfel-joker", "tuefteln", "schraube-locker", "skip-bo-masters", "scratch-island"]
    assert [g["id"] for g in cards[0]["games"]] == ["wuerfel-joker-1", "wuerfel-joker-2"]
    assert [c["name"]["de"] for c in cards] == [
        "Würfel Joker", "Tüfteln", "Schraube Locker", "Skip-Bo Masters", "Scratch Island"]


def test_names_summaries_and_players_are_the_classes_own(cards):
    for card in cards:
        for g in card["games"]:
            cls = spieltisch.get_game_class(g["id"])
            assert g["name"] == cls.name and g["summary"] == cls.summary
            assert g["players"] == (cls.min_players, cls.max_players)
    tuefteln = next(c for c in cards if c["id"] == "tuefteln")
    assert tuefteln["name"] == spieltisch.get_game_class("tuefteln").name
    assert tuefteln["summary"] == spieltisch.get_game_class("tuefteln").summary


def test_a_family_card_takes_the_shared_part_of_its_games_names(cards):
    wj = cards[0]
    assert wj["name"] == {"de": "Würfel Joker", "en": "Würfel Joker"}
    assert [g["label"]["de"] for g in wj["games"]] == ["Spiel 1", "Spiel 2"]
    for g in wj["games"]:
        for lang in ("de", "en"):
            own = g["name"][lang].split(" – ", 1)[1]
            assert g["label"][lang].lower() == own.lower()
    lo = min(spieltisch.get_game_class(g["id"]).min_players for g in wj["games"])
    hi = max(spieltisch.get_game_class(g["id"]).max_players for g in wj["games"])
    assert wj["players"] == (lo, hi)


def test_every_card_has_its_picture_and_the_ready_ones_their_notebooks_where_written(cards):
    for card in cards:
        assert (ROOT / "site" / "landing" / "img" / card["image"]).is_file(), card["id"]
        if card["ready"] and card["explore"]:  # the Play page is built from site/play-app/ for every ready card
            for lang in ("de", "en"):
                assert (ROOT / "notebooks" / card["explore"][lang]).is_file()
    # every game that can be played has its lesson, in both languages (Explore on its card)
    assert [c["id"] for c in cards if c["ready"] and not c["explore"]] == []



def test_a_ready_card_without_its_lesson_has_play_but_no_explore(build, cards):
    cards = [{**c, "explore": None} if c["id"] == "schraube-locker" else c for c in cards]
    page = build.render_landing(cards)
    item = page[page.index('id="schraube-locker"'):]
    item = item[:item.index("</li>")]
    assert 'href="play/schraube-locker.html"' in item and 'class="button explore"' not in item
    # its lesson written, the same card gets its Explore buttons
    lesson = {lang: f"{lang}/schraube-locker.ipynb" for lang in ("de", "en")}
    page = build.render_landing([{**c, "explore": lesson} if c["id"] == "schraube-locker" else c for c in cards])
    item = page[page.index('id="schraube-locker"'):]
    assert 'class="button explore"' in item[:item.index("</li>")]

def test_the_rendered_page_has_german_and_english_names_and_summaries(build, cards):
    page = build.render_landing(cards)
    assert page.count('<li class="game') == 5
    for card in cards:
        for lang in ("de", "en"):
            assert card["name"][lang] in page
        for g in card["games"]:
            for lang in ("de", "en"):
                assert build.html.escape(g["summary"][lang]) in page
                assert f"<strong>{g['label'][lang]}:</strong>" in page or len(card["games"]) == 1
    # Tüfteln's names differ by language: each sits in its own span, so the toggle shows one
    assert '<h2><span lang="de">Tüfteln</span><span lang="en">Tüfteln (Tinkering)</span></h2>' in page
    assert "1–8 Spieler" in page and "1–15 players" in page
    assert page.count('class="button play"') == 5 and page.count("kommt bald") == 0
    for card in cards:
        assert f'href="play/{card["id"]}.html"' in page
    # a lesson's card links its student version once per language
    assert page.count('class="button explore"') == 2 * sum(1 for c in cards if c["explore"])


def test_a_registered_game_without_a_card_fails_the_build(build):
    registered = build.registered_games()
    registered["tuefteln-2"] = {**registered["tuefteln"], "id": "tuefteln-2"}
    with pytest.raises(SystemExit, match="tuefteln-2 have no card"):
        build.landing_cards(build.CARDS, registered)


def test_a_registered_game_needs_a_german_and_english_summary(build, pig):
    # the toy game of the core tests is registered without a summary: the page would show nothing
    with pytest.raises(SystemExit, match="game test-pig: summary must have German and English text"):
        build.landing_cards()


def test_a_card_naming_an_unregistered_game_fails_the_build(build):
    cards = [*build.CARDS[:1], {"id": "tuefteln", "games": ("tuefteln", "tuefteln-deluxe")}]
    with pytest.raises(SystemExit, match="'tuefteln-deluxe', which is not registered"):
        build.landing_cards(cards)
    twice = [*build.CARDS[:2], {"id": "scratch-island", "games": ("tuefteln",)}]
    with pytest.raises(SystemExit, match="tuefteln is on two cards"):
        build.landing_cards(twice)


def test_a_planned_game_that_is_registered_with_a_view_must_move_to_its_card(build):
    engine_only = {"schraube-locker": {"id": "schraube-locker", "name": {"de": "S", "en": "S"},
                                       "summary": {"de": "s", "en": "s"}, "players": (2, 4), "view": False}}
    planned = [{"id": "schraube-locker", "planned": {"name": {"de": "S", "en": "S"},
                                                     "summary": {"de": "s", "en": "s"}}}]
    cards = build.landing_cards(planned, engine_only)
    assert [c["ready"] for c in cards] == [False]
    with_view = {"schraube-locker": {**engine_only["schraube-locker"], "view": True}}
    with pytest.raises(SystemExit, match="schraube-locker is registered now"):
        build.landing_cards(planned, with_view)


def test_games_of_one_card_must_share_a_family_name(build):
    registered = {
        "a-1": {"id": "a-1", "name": {"de": "Alpha – Spiel 1", "en": "Alpha – Game 1"},
                "summary": {"de": "a", "en": "a"}, "players": (1, 2)},
        "a-2": {"id": "a-2", "name": {"de": "Beta – Spiel 2", "en": "Alpha – Game 2"},
                "summary": {"de": "b", "en": "b"}, "players": (2, 4)},
    }
    with pytest.raises(SystemExit, match="different families"):
        build.landing_cards([{"id": "wuerfel-joker", "games": ("a-1", "a-2")}], registered)
    registered["a-2"]["name"]["de"] = "Alpha – Spiel 2"
    (card,) = build.landing_cards([{"id": "wuerfel-joker", "games": ("a-1", "a-2")}], registered)
    assert card["name"] == {"de": "Alpha", "en": "Alpha"} and card["players"] == (1, 4)
    registered["a-2"]["name"]["en"] = "Alpha game 2"
    with pytest.raises(SystemExit, match="named 'Alpha game 2'"):
        build.landing_cards([{"id": "wuerfel-joker", "games": ("a-1", "a-2")}], registered)


def test_the_old_games_json_is_gone():
    # One source for ids, names and summaries: the registry plus CARDS in site/build.py.
    assert not (ROOT / "site" / "games.json").exists()


def test_explore_opens_the_lesson_in_the_pages_language(build, cards):
    wj = cards[0]
    assert wj["explore"] == {"de": "de/wuerfel-joker.ipynb", "en": "en/wuerfel-joker.ipynb"}
    page = build.render_landing(cards)
    # the students' lesson page (no code); the notebooks stay on the teachers' page
    assert '<a class="button explore" lang="de" href="lesson/de/wuerfel-joker.html">Erkunden</a>' in page
    assert '<a class="button explore" lang="en" href="lesson/en/wuerfel-joker.html">Explore</a>' in page
    assert "lite/notebooks" not in page
    assert 'href="lehrkraefte.html"' in page


def test_a_ready_card_without_a_lesson_shows_play_and_no_explore(build, monkeypatch, tmp_path):
    monkeypatch.setattr(build, "NOTEBOOKS", tmp_path)  # no lesson, no older notebook
    (card,) = build.landing_cards(build.CARDS[:1], {g: {"id": g, "name": {"de": f"W – Spiel {g[-1]}", "en": f"W – Game {g[-1]}"},
                                                        "summary": {"de": "s", "en": "s"}, "players": (1, 2), "view": True}
                                                    for g in ("wuerfel-joker-1", "wuerfel-joker-2")})
    assert card["ready"] and card["explore"] is None
    page = build.render_landing([card])
    assert 'class="button play"' in page and "explore" not in page


def test_a_lesson_in_one_language_only_fails_the_build(build, monkeypatch, tmp_path):
    (tmp_path / "de").mkdir()
    src = ROOT / "notebooks" / "de" / "wuerfel-joker.ipynb"
    (tmp_path / "de" / "wuerfel-joker.ipynb").write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(SystemExit, match="lesson wuerfel-joker exists only in \\['de'\\]"):
        build.lessons(tmp_path)


def test_teachers_page_has_goals_path_and_links_for_every_lesson(build, cards):
    lessons = build.lessons()
    assert set(lessons) >= {"wuerfel-joker"}
    page = build.render_teachers(cards, lessons)
    for lid, by_lang in lessons.items():
        for lang, meta in by_lang.items():
            assert f'id="{lid}-{lang}" lang="{lang}"' in page
            assert build.html.escape(meta["goals"][0]) in page and build.html.escape(meta["path"][0]["ask"]) in page
            assert f'href="arbeitsblatt/{lang}/{lid}.html"' in page
            teacher_dir = "lehrkraefte" if lang == "de" else "teachers"
            assert f"path={lang}%2F{teacher_dir}%2F{lid}.ipynb" in page and f"path={lang}%2F{lid}.ipynb" in page
            assert f'href="lesson/{lang}/{lid}.html"' in page  # the students' page beside the two notebooks
            assert f'href="{build.answer_key_path(lid, lang)}"' in page
            sheet = build.render_worksheet(meta, "Würfel Joker")
            work = sheet.split('<ol class="questions">')[1]
            assert work.count("<li>") == len(meta["worksheet"]) and "@page" in sheet
            assert work.count('<svg') >= sum(1 for q in meta["worksheet"] if q.get("grid") or q.get("tree"))
            assert sheet.count('class="predict"') == sum(1 for q in meta["worksheet"] if q.get("predict"))
            section = page.split(f'id="{lid}-{lang}"')[1].split("</section>")[0]
            for step in meta.get("extensions", ()):  # the extensions' table, after the 45-minute path
                assert build.html.escape(step["cells"]) in section.split('class="extensions"')[1]


def test_site_contents_hold_student_and_teacher_versions(build, tmp_path):
    build.stage_contents(tmp_path / "c")
    student = build.json.loads((tmp_path / "c" / "de" / "wuerfel-joker.ipynb").read_text(encoding="utf-8"))
    teacher = build.json.loads((tmp_path / "c" / "de" / "lehrkraefte" / "wuerfel-joker.ipynb").read_text(encoding="utf-8"))
    assert (tmp_path / "c" / "en" / "teachers" / "wuerfel-joker.ipynb").is_file()
    assert all(not c.get("outputs") for c in student["cells"])
    assert not any("teacher" in c["metadata"].get("tags", []) for c in student["cells"])
    assert any("teacher" in c["metadata"].get("tags", []) for c in teacher["cells"])
    assert sum(1 for c in teacher["cells"] for o in c.get("outputs", [])) > 20
    assert all(isinstance(o.get("text", ""), str) for c in teacher["cells"] for o in c.get("outputs", []))
