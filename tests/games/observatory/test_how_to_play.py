"""Observatory's rules page, in players' words (/rules/observatory/): a turn (the four dice, the
research die, the pair plot, the Shooting Star die, wilds, the Lens and the Drive), Research,
claiming constellations (rotation, never mirrored, touching no other) with worked example 2,
the cards, the setup choice, the draft, Nights and Night openings, the end and scoring, solo,
and the plan strip on a phone. Every number on it is the game's own data (N2, X6 as balanced
in ``sheet_data.NIGHTS``; R1; X3; E3); linked from the home page and the room."""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import Client

from games.observatory import how_to_play, planner
from games.observatory.rules import figures
from games.observatory.rules.deck import CARDS, BonusKind
from games.observatory.rules.model import DEALT_LARGE, DEALT_SMALL, KEEP
from games.observatory.rules.scoring import score
from games.observatory.rules.sheet_data import (
    ASTERISM_POINTS,
    NIGHTS,
    TRACK_VALUES,
    Track,
    face_label,
    icon_nights,
    line_spaces,
)
from tests.support.howto import rules_page, seated_host, words
from tests.web.rooms import page

pytestmark = pytest.mark.django_db

RULES = "/rules/observatory/"


def test_it_renders_every_part_in_players_words():
    text = words(rules_page(RULES))
    assert "Observatory: how to play" in text
    for heading in (
        "Your Star Map",
        "A turn",
        "Wilds, the Lens and the Drive",
        "Research",
        "Constellations",
        "An example",
        "The cards",
        "Setup",
        "The draft",
        "Nights and Night openings",
        "The end and scoring",
        "Solo",
        "Playing on a phone: the plan strip",
    ):
        assert heading in text, heading
    assert "everyone uses the three blue dice at the same time" in text  # N6
    assert "Only the roller also plots with the orange Shooting Star die" in text  # N7
    assert "up to 8 spaces (a double: 4)" in text  # P3
    assert "? is a wild" in text  # D4
    assert "Turned any way" in text and "never mirrored" in text  # C2.3, C4
    assert "Touching no other constellation" in text  # C5
    assert "Nothing is sent until Submit" in text  # U9
    assert "Tap a dotted space" in text and "Undo" in text and "Clear" in text  # U9
    assert "fewer cards" in text  # E5


def test_no_raw_template_syntax_reaches_the_page():
    body = rules_page(RULES)
    for raw in ("{#", "#}", "{%", "%}", "{{", "}}"):
        assert raw not in body, raw


def test_its_nights_are_the_games_nights_N2_X6():
    text = words(rules_page(RULES))
    rows = how_to_play.night_rows()
    assert [(row.players, row.nights) for row in rows] == sorted(NIGHTS.items())
    for row in rows:
        openings = sorted(icon_nights(NIGHTS[row.players]))
        assert 1 not in openings  # N8: never Night 1
        listed = " and ".join([", ".join(map(str, openings[:-1])), str(openings[-1])])
        line = f"{row.label} {NIGHTS[row.players]} {NIGHTS[row.players] * row.players} "
        assert line + f"Nights {listed}" in text, row
    assert f"Alone, you roll every turn: {NIGHTS[1]} Nights of one turn each" in text  # S1
    # Not the rules page's first table (X6: 12, 8, 6, 5, 4), which the balance replaced.
    assert [row.nights for row in rows] == [NIGHTS[n] for n in sorted(NIGHTS)]


def test_its_tracks_are_the_sheets_tracks_R1():
    text = words(rules_page(RULES))
    for track in Track:
        values = " ".join(face_label(v) for v in TRACK_VALUES[track])
        assert f"{track.value.capitalize()} {values} —" in text, track
        assert how_to_play.ABILITIES[track] in text, track
    assert "at 3: a track bonus; at 5:" in text  # R4, R6, as the data places them
    body = rules_page(RULES)
    for track in Track:  # the board's own Research table, as dealt: nothing filled
        for position, value in enumerate(TRACK_VALUES[track], start=1):
            label = f"{track.value.capitalize()} space {position}, value {face_label(value)}"
            assert f'<span class="sr-only">{label}, empty</span>' in body


def test_its_cards_are_the_decks_cards_X3_E3():
    text = words(rules_page(RULES))
    assert f"{len(CARDS)} Constellation cards" in text
    large = [c for c in CARDS.values() if c.id.startswith("L")]
    small = [c for c in CARDS.values() if c.id.startswith("S")]
    asterisms = [c for c in CARDS.values() if c.asterism]
    for name, cards in (("Large", large), ("Small", small), ("Asterisms", asterisms)):
        stars = sorted(len(c.stars) for c in cards)
        bonuses = Counter(c.bonus.kind for c in cards)
        pts = sorted(c.points or 0 for c in cards)
        scored = f"{pts[0]} to {pts[-1]} points" if name != "Asterisms" else "scored together"
        spread = ", ".join(f"{bonuses[k]} {how_to_play.BONUS_NAMES[k]}" for k in BonusKind)
        row = f"{name}: {len(cards)} cards of {stars[0]} to {stars[-1]} stars, {scored}"
        assert row in text, name
        assert f"Bonuses: {spread}." in text.split(row, 1)[1][:100], name
        assert sum(bonuses.values()) == len(cards)
    counts = " ".join(
        f"{n} or more" if n == len(ASTERISM_POINTS) - 1 else str(n)
        for n in range(1, len(ASTERISM_POINTS))
    )
    assert f"Asterisms {counts} Points {' '.join(map(str, ASTERISM_POINTS[1:]))}" in text  # E3
    assert f"keeps {KEEP} of the {DEALT_LARGE + DEALT_SMALL}" in text  # G3


def test_its_example_is_worked_example_2_judged_by_the_rules():
    example = how_to_play.example()
    sheet = how_to_play.example_sheet()
    assert sheet.completed == ("S03", "S10")
    assert example.touching.startswith("It would touch Sagitta")  # C5
    assert example.flipped == figures.FLIPPED  # C4
    value = CARDS["S10"].bonus.value
    assert value is not None and how_to_play.BONUS_STAR in line_spaces(value)  # P6
    text = words(rules_page(RULES))
    assert f"{example.cards[0].name} is complete on (2, 3), (3, 2) and (4, 2)." in text
    assert f'on (2, 2), (3, 3) and (4, 3)? Refused: "{example.touching}"' in text
    assert f'on (6, 6), (6, 7) and (8, 6)? Refused: "{example.flipped}"' in text
    assert f"row band or column band {value}: here (6, 12)." in text
    assert f"Total {score(sheet).total}" in text
    assert 'aria-label="Example: a Star Map: 13 stars, 6 in constellations' in rules_page(RULES)


def test_it_names_the_plan_strips_tabs_as_the_strip_does_U9():
    text = words(rules_page(RULES))
    for mode in planner.MODES:
        assert f"{mode.label}: {mode.hint}" in text, mode.key


def test_the_home_page_and_the_room_link_to_it():
    assert f'href="{RULES}"' in Client().get("/").content.decode()
    host, room = seated_host("observatory")
    shown = page(host, room)
    assert f'href="{RULES}"' in shown
    assert "How to play Observatory" in words(shown)
