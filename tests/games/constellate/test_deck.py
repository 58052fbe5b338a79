"""The picture deck: its data, its vendored SVGs and the deal (K1, W7, W8).

Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from games.constellate import deck
from games.constellate.deck import SKY_SIZE, Picture, draw_sky, load_deck, picture, pictured_names

STATIC_ROOT = Path(deck.__file__).with_name("static")
SKY_DIR = STATIC_ROOT / "constellate" / "sky"
SVG_NS = "{http://www.w3.org/2000/svg}"
WORD = re.compile(r"^[a-z]{3,}$")


def all_listed_words() -> list[str]:
    return [word for pic in load_deck() for word in pic.names]


def test_k1_deck_has_well_over_24_pictures():
    """K1: the 24 cards are dealt from a much larger deck (at least 250 pictures)."""
    assert len(load_deck()) >= 250
    assert len(load_deck()) > 10 * SKY_SIZE


def test_k1_deck_json_is_one_file_of_well_formed_rows():
    """K1/W8: deck.json lists name, aliases and asset for every picture, and nothing odd."""
    data = json.loads(deck.DECK_PATH.read_text(encoding="utf-8"))
    for row in data["pictures"]:
        assert {"name", "aliases", "asset"} <= set(row), row
        assert isinstance(row["aliases"], list), row
    assert [row["name"] for row in data["pictures"]] == [pic.name for pic in load_deck()]


def test_k1_every_asset_is_named_after_its_picture():
    """K1: each picture has its own SVG, at constellate/sky/<name>.svg under the static root."""
    for pic in load_deck():
        assert pic.asset == f"constellate/sky/{pic.name}.svg"
        assert (STATIC_ROOT / pic.asset).is_file(), pic.asset


def test_k1_every_asset_is_a_standalone_svg_that_prints_no_word():
    """K1: a card shows a picture and never prints a word.

    Each SVG parses, is an <svg> with a viewBox, and has no <text>, <title>, <desc>,
    <metadata>, <script> or <foreignObject>, nor an id that names anything but itself.
    It needs no font: no <text> means no system emoji font either.
    """
    banned = {"text", "title", "desc", "metadata", "script", "foreignObject", "tspan"}
    for pic in load_deck():
        root = ET.parse(STATIC_ROOT / pic.asset).getroot()
        assert root.tag == f"{SVG_NS}svg", pic.name
        view_box = root.get("viewBox", "").split()
        assert len(view_box) == 4 and float(view_box[2]) > 0 and float(view_box[3]) > 0
        for element in root.iter():
            local = element.tag.removeprefix(SVG_NS)
            assert local not in banned, (pic.name, local)
            element_id = element.get("id")
            if element_id is not None:
                assert re.fullmatch(rf"{pic.name}-\d+", element_id), (pic.name, element_id)


def test_k1_no_unused_svg_is_shipped():
    """K1: the static folder holds the deck's pictures and nothing else of the icon set."""
    assets = {Path(pic.asset).name for pic in load_deck()}
    assert {path.name for path in SKY_DIR.glob("*.svg")} == assets


def test_k1_the_icon_sets_licence_ships_next_to_the_pictures():
    """K1: the vendored pictures ship with their licence and attribution."""
    licence = (SKY_DIR / "LICENSE.txt").read_text(encoding="utf-8")
    assert "MIT License" in licence
    assert "Microsoft Corporation" in licence
    assert "@iconify-json/fluent-emoji-flat" in licence


def test_w8_names_are_single_lowercase_words():
    """W8: one canonical name per picture, a single word a-z of 3-12 letters; aliases a-z too."""
    for pic in load_deck():
        assert re.fullmatch(r"[a-z]{3,12}", pic.name), pic.name
        for alias in pic.aliases:
            assert WORD.fullmatch(alias), (pic.name, alias)
            assert alias != pic.name, pic.name


def test_w7_no_listed_name_is_a_two_letter_word():
    """W7: two-letter words skip W5/W6, so no name or alias may be shorter than 3 letters."""
    assert all(len(word) >= 3 for word in all_listed_words())


def test_w8_no_two_pictures_share_a_name_or_alias():
    """W8: every listed word (names and aliases together) belongs to exactly one picture."""
    words = all_listed_words()
    duplicates = sorted({word for word in words if words.count(word) > 1})
    assert duplicates == []


def test_w8_no_listed_name_is_a_plain_plural_of_another_pictures_name():
    """W4/W8: pictures stay distinct under close forms (no 'ski' on one card, 'skis' on another)."""
    owner = {word: pic.name for pic in load_deck() for word in pic.names}
    clashes = [
        (word, owner[word], longer, owner[longer])
        for word in owner
        for longer in (word + "s", word + "es")
        if longer in owner and owner[longer] != owner[word]
    ]
    assert clashes == []


def test_k2_k3_no_picture_is_named_like_a_key_card():
    """K2/K3 (deck decision): no picture is named star, comet, cloud or haze, the key's roles."""
    assert {"star", "stars", "comet", "cloud", "clouds", "haze"}.isdisjoint(all_listed_words())


def test_w8_picture_lookup_by_canonical_name():
    """W8: picture() finds a picture by its canonical name only."""
    pic = picture("bicycle")
    assert isinstance(pic, Picture)
    assert pic.names == ["bicycle", *pic.aliases]
    assert "bike" in pic.aliases
    with pytest.raises(KeyError):
        picture("bike")  # an alias is not a canonical name
    with pytest.raises(KeyError):
        picture("no-such-picture")


def test_load_deck_is_read_once():
    """The deck is read from disk once and then shared."""
    assert load_deck() is load_deck()


def test_k1_draw_sky_deals_24_distinct_known_pictures():
    """K1: a sky is 24 distinct pictures of the deck; a game never repeats a picture."""
    known = {pic.name for pic in load_deck()}
    for seed in range(50):
        sky = draw_sky(random.Random(seed))
        assert isinstance(sky, tuple)
        assert len(sky) == SKY_SIZE == 24
        assert len(set(sky)) == SKY_SIZE
        assert set(sky) <= known


def test_k1_draw_sky_is_deterministic_for_a_seeded_random():
    """K1: the deal depends only on the rng, so it can be decided once and stored in an event."""
    assert draw_sky(random.Random(7)) == draw_sky(random.Random(7))
    assert draw_sky(random.Random(7)) != draw_sky(random.Random(8))


def test_k1_draw_sky_uses_the_whole_deck():
    """K1: every picture can be dealt (no picture is stuck out of reach)."""
    rng = random.Random(2024)
    seen = set()
    for _ in range(400):
        seen.update(draw_sky(rng))
    assert seen == {pic.name for pic in load_deck()}


def test_w8_pictured_names_lists_every_name_of_every_card_in_order():
    """W8: the clue check gets [name, *aliases] for each card of the sky, in the sky's order."""
    sky = draw_sky(random.Random(3))
    names = pictured_names(sky)
    assert [entry[0] for entry in names] == list(sky)
    for name, entry in zip(sky, names, strict=True):
        assert entry == [name, *picture(name).aliases]
    assert pictured_names(["rabbit"]) == [["rabbit", *picture("rabbit").aliases]]
    assert "bunny" in pictured_names(["rabbit"])[0]
