"""Whole games in real browsers, one context per player, played only by clicking what a
person clicks. After every action every screen shows the new state within 2 s, with no
reload (tests/e2e/browser.py checks each one)."""

from __future__ import annotations

import pytest

from moderation.models import Flag
from tests.e2e.browser import REFUSED_WORD, WORDS, Table, dark

pytestmark = pytest.mark.e2e

RIVAL = {"gold": "teal", "teal": "gold"}


def test_s2_t3_t8_t10_a_whole_rivalry_in_four_browsers(tables):
    table: Table = tables(4)
    table.join_and_sit()
    table.set_clock("90 s")
    table.start()
    gazer = {"gold": table.seat(1), "teal": table.seat(2)}  # S2
    spotter = {"gold": table.seat(3), "teal": table.seat(4)}
    first = table.active_crew(table.host.page)  # S5: drawn by the server
    second = RIVAL[first]

    key = table.sky(gazer[first].page)
    assert all(card.key for card in key)  # K4: the Stargazers see the key...
    assert table.sky(gazer[second].page) == key
    for person in (spotter["gold"], spotter["teal"]):
        assert not any(card.key for card in table.sky(person.page))  # ...the Spotters don't
    assert len(dark(key, first)) == 8 and len(dark(key, second)) == 7  # S5

    # Turn 1: a refused word first (T3), then a word for 2; one star, then stop (T10).
    table.name(gazer[first], 2, words=[REFUSED_WORD, *WORDS])
    table.touch(spotter[first], dark(key, first)[0])
    table.stop(spotter[first])
    table.everyone_reads(f"#status .tally-{first}", f"{first.title()}: 7 dark · 1 banked")

    # Turn 2: the other crew names 1 and touches haze (T9).
    assert table.active_crew(table.host.page) == second
    table.name(gazer[second], 1, words=WORDS[3:])
    table.touch(spotter[second], dark(key, "haze")[0])
    assert table.active_crew(table.host.page) == first

    # Either crew's player flags the first constellation; the game goes on unchanged (F2).
    thanks = table.flag(spotter[second], 1, "It names a picture", "too close to a card")
    assert "went to the moderators" in thanks
    flag = Flag.objects.get()
    assert (flag.constellation, flag.flagger_seat, flag.kind) == (
        1,
        spotter[second].seat,
        "names_picture",
    )

    # Turn 3: every dark star at once, with the banked touch in play; the last one wins.
    stars = dark(table.sky(gazer[first].page), first)
    table.name(gazer[first], len(stars), words=WORDS[6:])
    table.everyone_reads("#status .clue", table.host.page.locator("#status .clue").inner_text())
    assert "banked touch in play" in table.host.page.locator("#status .clue").inner_text()
    for card in stars:
        table.touch(spotter[first], card)
    table.ended(f"{first.title()} wins! {first.title()} lit their last star.")

    table.rematch()
    table.no_reloads()


def test_s3_d2_d3_a_whole_before_dawn_in_two_browsers(tables):
    table: Table = tables(2)
    table.join_and_sit()
    table.set_clock("60 s")
    table.start()
    gazer, spotter = table.seat(1), table.seat(2)  # S3
    key = table.sky(gazer.page)
    assert sorted(c.key for c in key).count("cloud") == 7  # K3
    table.everyone(lambda p: p.locator("#countdown").is_visible())
    hours = "#status .hours"

    # A friend joins to watch while the Stargazer spells: the lobby's push re-renders every
    # board, and the half-spelled word and the number survive it.
    table.spell(gazer, "oce")
    table.pick_number(gazer, 3)
    watcher = table.watcher_joins("Eve")
    assert gazer.page.locator("#word").input_value() == "OCE"
    assert gazer.page.locator('input[name=number][value="3"]').is_checked()
    assert not any(card.key for card in table.sky(watcher.page))  # K4: a spectator

    table.name(gazer, 3)
    table.everyone(lambda p: p.locator(hours).get_attribute("aria-label") == "6 hours before dawn")
    stars = dark(key, "gold")
    table.touch(spotter, stars[0])
    table.touch(spotter, stars[1])
    table.stop(spotter)

    table.name(gazer, 1, words=WORDS[4:])
    table.touch(spotter, dark(key, "cloud")[0])  # D3: one extra hour
    table.everyone(lambda p: p.locator(hours).get_attribute("aria-label") == "4 hours before dawn")

    table.flag(spotter, 2, "Not a real word", "")
    assert Flag.objects.get().constellation == 2

    left = dark(table.sky(gazer.page), "gold")
    assert len(left) == 6
    table.name(gazer, len(left), words=WORDS[8:])
    for card in left:
        table.touch(spotter, card)
    table.ended("Every star is lit before dawn: the crew wins!")

    table.rematch()
    table.no_reloads()
