"""The host's step clock and game options in the lobby panel: controls before a game (the
chosen ones checked); during a game they are fixed, and the panel says which they are in
words (disabled controls all looked alike, so the chosen one did not show)."""

from __future__ import annotations

import re

import pytest

from tests.web.rooms import page, post, seat_table

pytestmark = pytest.mark.django_db


def radios(html: str) -> dict[str, bool]:
    found = re.findall(r'<input type="radio" name="step" value="([^"]+)"( checked)?>', html)
    return {value: bool(checked) for value, checked in found}


def test_the_host_chooses_before_the_game_and_reads_the_choice_during_it():
    table = seat_table(2, step="60", start=False)
    before = page(table.host, table.room)
    assert radios(before)["60"] and not radios(before)["off"]
    assert "clock-now" not in before
    assert 'class="game-options"' in before and 'class="options-text"' not in before
    assert table.start().status_code == 200
    during = page(table.host, table.room)
    assert radios(during) == {}
    assert re.search(r"Step clock: <strong>60 s</strong>", during)
    assert 'class="game-options"' not in during
    assert re.search(r'<p class="options-text">[^<]+</p>', during)
    refused = post(table.host, table.room, "clock", step="90")  # still refused by the server
    assert refused.status_code >= 400
    assert "Step clock: <strong>60 s</strong>" in page(table.host, table.room)
