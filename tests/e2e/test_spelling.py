"""Spelling on a phone (T2, W1): the letter keys are a QWERTY keyboard's rows; at ten letters
the Stargazer is told the word is as long as it can be, and an eleventh is refused aloud
rather than dropped in silence; a one-letter word gets the rules' own reason by the word,
not the browser's "Please match the requested format"."""

from __future__ import annotations

import pytest

from tests.e2e.browser import PHONE, Table

pytestmark = pytest.mark.e2e


def test_the_keys_are_qwerty_and_the_length_is_said_T2_W1(tables):
    table: Table = tables(2, viewport=PHONE)
    table.join_and_sit()
    table.start()
    gazer = table.seat(1)
    page = gazer.page

    def top(letter: str) -> float:
        return page.locator(f'button[data-letter="{letter}"]').bounding_box()["y"]

    assert top("Q") == top("P") < top("A") == top("L") < top("Z") == top("M")

    table.spell(gazer, "abcdefghij")
    hint = page.locator("#word-hint")
    assert hint.inner_text() == "10 letters: the longest a word can be."
    page.click('button[data-letter="K"]')
    assert page.locator("#word").input_value() == "ABCDEFGHIJ"
    assert hint.inner_text() == "A word has at most 10 letters: K was not added."
    assert hint.get_attribute("aria-live") == "polite" and hint.is_visible()
    page.get_by_role("button", name="Backspace").click()
    assert hint.inner_text() == ""

    table.spell(gazer, "a")
    reason = table.send(page, lambda: page.click("button.send"))  # no pattern stops it here
    assert reason == "A is too short: use 2 to 10 letters."
    assert page.locator("#notice").inner_text() == reason
    assert page.locator("#word").input_value() == "A"  # T3: the word stays to be mended
    table.no_reloads()
