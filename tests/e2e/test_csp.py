"""The pages as people get them, with the app's Content-Security-Policy on (scripts and
styles only from our own files): home, a room's lobby, a running Constellate game, its end
and replay, an Under One Sky game, an unknown room's 404 and the admin's sign-in. Chromium
refuses nothing on any of them (the Table collects every refusal from the console and
fails the test on one), and what needs a script still works: the replay's jump list."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from tests.e2e.browser import WORDS, Table, dark, watch_csp
from tests.web.rooms import post, seat_table

pytestmark = pytest.mark.e2e


def test_a_before_dawn_game_and_its_replay_run_under_the_policy(tables):
    table: Table = tables(2)
    policy = table.host.context.request.get(table.url + "/").headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy

    table.join_and_sit()
    table.start()
    gazer, spotter = table.seat(1), table.seat(2)
    stars = dark(table.sky(gazer.page), "gold")
    table.name(gazer, len(stars), words=WORDS)
    for card in stars:
        table.touch(spotter, card)
    table.ended("Every star is lit before dawn: the crew wins!")

    # The replay's jump list moves to the chosen step by itself (games/static/games/replay.js).
    page = spotter.page
    page.get_by_role("link", name="Replay this game step by step").click()
    page.wait_for_url(re.compile(r".*/history/.*"))
    jump = page.locator("select#jump")
    last = jump.locator("option").last.get_attribute("value")
    with page.expect_navigation():
        jump.select_option(value=last)
    assert f"step={last}" in page.url
    assert table.csp_violations == []


def test_an_under_one_sky_game_runs_under_the_policy(tables):
    table: Table = tables(2, game="Under One Sky")
    table.join_and_sit()
    table.host.page.get_by_role("button", name="Start the game").click()
    table.everyone(lambda p: p.locator("#board .space").count() == 25)
    assert table.csp_violations == []


def test_error_pages_and_the_admin_run_under_the_policy(live, browser):
    table = seat_table(4)  # a game with a flag, for the moderators' pages
    assert table.name(number=2, word="ocean").status_code == 200
    flagged = post(table.seats[3], table.room, "flag", constellation=1, kind="names_picture")
    assert flagged.status_code == 200
    User.objects.create_superuser("moderator", password="a long test password")
    violations: list[str] = []
    context = browser.new_context()
    watch_csp(context, violations)
    page = context.new_page()
    try:
        response = page.goto(live.url + "/r/nope-nope-nope-nope/")
        assert response.status == 404
        assert "No room has that link" in page.locator("h1").inner_text()
        page.get_by_role("link", name="Back to the home page").click()
        page.get_by_role("button", name="Create a room").wait_for()
        page.goto(live.url + "/admin/login/")
        page.get_by_label("Username").fill("nobody")
        page.get_by_label("Password").fill("wrong password")
        page.get_by_role("button", name="Log in").click()
        page.get_by_text("Please enter the correct username and password").wait_for()
        page.get_by_label("Username").fill("moderator")
        page.get_by_label("Password").fill("a long test password")
        page.get_by_role("button", name="Log in").click()
        page.get_by_role("link", name="Flags").click()
        page.get_by_role("link", name="OCEAN").first.click()
        # The sky's layout comes from moderation/review.css, not style attributes.
        card = page.locator("figure.review-card").first
        assert card.evaluate("e => getComputedStyle(e).width") == "88px"
    finally:
        context.close()
    assert violations == []
