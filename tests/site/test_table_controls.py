"""The table's own controls on a Play page, against peeking (docs/hidden-information.md): Undo leaves no
trace of the undone move and is not offered once something was turned up; a hot seat covers the screen
until the next player confirms; the spectator view shows no hand."""

from __future__ import annotations

import pytest
from harness.frontend import new_game_with_seed, settle

pytestmark = pytest.mark.site

PAGE_TEXT = "el => el.querySelector('.sp-main').innerText"


def skip_bo(page, site_url, seed: int):
    page.set_viewport_size({"width": 1200, "height": 900})
    page.goto(site_url + "play/skip-bo-masters.html")
    root = page.locator("#app .sp-table")
    root.locator(".sp-status").wait_for(timeout=180_000)
    new_game_with_seed(page, root, seed)
    root.locator(".sb-hand .sp-can").first.wait_for(timeout=120_000)  # the player's turn: cards to play
    settle(page, root)
    return root


def test_undo_leaves_nothing_of_the_undone_move_and_stops_at_a_turned_up_card(context, request_log, site_url,
                                                                           screenshot):
    """Seed 14 (an open game): the player holds a 1 and a Skip-Bo card on the stock pile. A 1 from the
    hand on a building pile turns nothing up: Undo takes it back and the page is as before, log and
    message included. Playing the stock card turns up the card under it: Undo is no longer offered,
    so the card cannot be looked at and taken back."""
    page = context.new_page()
    root = skip_bo(page, site_url, 14)
    before = root.evaluate(PAGE_TEXT)
    board = root.locator(".sp-board").inner_html()
    root.locator(".sb-hand [data-card='1'].sp-can").first.click()
    settle(page, root)
    root.locator(".sp-board [data-act=b0].sp-target").click()
    settle(page, root)
    assert root.evaluate(PAGE_TEXT) != before
    root.locator(".sp-undo").click()
    settle(page, root)
    assert root.evaluate(PAGE_TEXT) == before
    assert root.locator(".sp-board").inner_html() == board
    # the stock card: the card under it turns up, and Undo is gone
    root.locator(".sb-own [data-act=s]").click()
    settle(page, root)
    root.locator(".sp-board [data-act=b0].sp-target").click()
    settle(page, root)
    for _ in range(100):  # the card under it is turned up (a paced step), then it is the player's turn
        settle(page, root)
        if root.locator(".sp-finish").count() == 0 and root.locator(".sb-own [data-act=s]").count():
            break
        page.wait_for_timeout(100)
    assert root.locator(".sp-finish").count() == 0
    turned_up = root.locator(".sb-own [data-act=s]").get_attribute("data-card")
    assert turned_up is not None and "Spielerstapel" in root.evaluate(PAGE_TEXT)
    assert root.locator(".sp-undo").count() == 0
    screenshot(page, "no-undo-after-a-turned-up-card")
    request_log.assert_only_local()


def test_hot_seat_covers_the_screen_and_the_spectator_view_shows_no_hand(context, request_log, site_url,
                                                                          screenshot):
    page = context.new_page()
    root = skip_bo(page, site_url, 14)
    # the spectator view: no hand card, no move, and the page says why
    assert root.locator(".sb-hand [data-act]").count() > 0
    root.locator(".sp-spectator-toggle").click()
    settle(page, root)
    assert root.locator(".sb-hand [data-act]").count() == 0 and root.locator(".sp-move").count() == 0
    assert root.locator(".sp-spectator-note").count() == 1
    root.locator(".sp-spectator-toggle").click()
    settle(page, root)
    # two humans on one device: seat 2 becomes human (a new deal), seat 1 ends the turn
    root.locator(".sp-seat[data-seat='1']").select_option("human")
    settle(page, root)
    # The new deal is random, so seat 1 plays whatever it must: under the default rule (a turn ends
    # with a discard only when nothing fits) that can be the stock top or a discard pile top, not a
    # hand card, or a toll to pay or decline (buttons). A hand card is chosen first, and a discard
    # pile is its target when one is offered.
    own = root.locator(".sb-own .sp-can")
    buttons = root.locator(".sp-buttons .sp-move")
    for _ in range(200):
        settle(page, root)
        if root.locator(".sp-cover").count():
            break
        hand = root.locator(".sb-hand .sp-can")
        if hand.count() or own.count():
            (hand if hand.count() else own).first.click()
            settle(page, root)
            targets = root.locator(".sp-board .sp-target[data-act^=d]")
            if targets.count():
                targets.first.click()
                continue
            root.locator(".sp-board .sp-target").first.click()
        elif buttons.count():
            buttons.last.click()
        else:
            page.wait_for_timeout(100)
    cover = root.locator(".sp-cover")
    assert cover.count() == 1 and "Spieler 2" in cover.inner_text()
    assert root.locator(".sp-board").count() == 0 and root.locator(".sb-hand").count() == 0
    screenshot(page, "hot-seat-cover")
    root.locator(".sp-cover-ready").click()
    settle(page, root)
    assert root.locator(".sp-cover").count() == 0
    # seat 2's own hand, and a decision to make: a card to play, or (the deal is random) a toll to pay
    # or decline first, with buttons (a CI run's deal had no hand card to click at that moment)
    root.locator(".sb-hand [data-card]").first.wait_for(timeout=60_000)
    root.locator(".sb-hand .sp-can, .sb-own .sp-can, .sp-buttons .sp-move").first.wait_for(timeout=60_000)
    assert "Du" in root.locator(".sp-status").inner_text()  # the screen is seat 2's now: "you"
    request_log.assert_only_local()
