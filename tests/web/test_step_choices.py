"""C1: the lobby's clock is off, 60, 90 or 120 s. The end-to-end tests' setting
(``CONSTELLATE_TEST_STEP_SECONDS``) adds one short choice; without it there is none."""

from __future__ import annotations

import re

import pytest

from tests.web.rooms import page, post, seat_table

pytestmark = pytest.mark.django_db


def _choices(html: str) -> list[str]:
    return re.findall(r'<input type="radio" name="step" value="([^"]+)"', html)


def test_c1_the_lobby_offers_off_60_90_120_and_refuses_a_short_clock(settings):
    settings.CONSTELLATE_TEST_STEP_SECONDS = None
    table = seat_table(2, start=False)
    assert _choices(page(table.host, table.room)) == ["off", "60", "90", "120"]
    assert post(table.host, table.room, "clock", step="3").status_code == 400
    assert table.refresh().step_seconds is None


def test_c1_the_test_setting_adds_one_short_choice_that_the_game_uses(settings):
    settings.CONSTELLATE_TEST_STEP_SECONDS = 3
    table = seat_table(2, start=False)
    assert _choices(page(table.host, table.room)) == ["off", "60", "90", "120", "3"]
    assert post(table.host, table.room, "clock", step="3").status_code == 200
    table.start()
    assert table.state().step_seconds == 3
