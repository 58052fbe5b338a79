"""The clue check, games/constellate/clues.py: RULES.md W1-W8. Pure: no database, no Django.

Every case id starts with the rule it exercises (W5-moon-in-moonlight). The table below is
invented: 24 pictures, some with aliases (W8).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from wordfreq import zipf_frequency

from games.constellate import clues
from games.constellate.clues import blocklist_provider, check_clue, set_blocklist

TABLE = [
    ["apple"],
    ["anchor"],
    ["moon"],
    ["pineapple"],
    ["mouse"],
    ["leaf"],
    ["cat"],
    ["child"],
    ["goose"],
    ["bicycle", "bike"],
    ["rabbit", "bunny"],
    ["ox"],
    ["foot"],
    ["tooth"],
    ["knife"],
    ["run"],
    ["pen"],
    ["sun"],
    ["teddy bear", "teddy"],
    ["television", "tv", "telly"],
    ["candle"],
    ["glasses", "spectacles"],
    ["cactus"],
    ["key"],
]
assert len(TABLE) == 24

DATA = Path(clues.__file__).with_name("data")


def _listed(name: str) -> list[str]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [w for line in lines if (w := line.split("#", 1)[0].strip())]


# Slurs are read from the shipped list rather than spelled out in this file.
SLURS = [w for w in _listed("slurs.txt") if not w.startswith("!")]
NOT_SLURS = [w[1:] for w in _listed("slurs.txt") if w.startswith("!")]
A_SLUR = SLURS[0]

BLOCKED = "That word is not allowed."
UNKNOWN = "{} is not a word we know: use an ordinary word or a name."
PICTURE = "{} is a picture on the table."
FORM = "{} is a form of {}, a picture on the table."
CONTAINS = "{} contains {}, a picture on the table."
INSIDE = "{} is inside {}, a picture on the table."
ALIAS = "{}, another name for {}"
ONLY_AZ = "Use letters A–Z only: no {}."
OUTSIDE_AZ = "accents or letters outside A–Z"
SYMBOLS = "punctuation, symbols or emoji"

CASES = [
    # -- W1: 2 to 10 letters A-Z, any case -----------------------------------------------------
    pytest.param("", "Spell a word first.", id="W1-empty"),
    pytest.param("   ", "Spell a word first.", id="W1-only-whitespace"),
    pytest.param("  comet\n", None, id="W1-outer-whitespace-stripped"),
    pytest.param("COMET", None, id="W1-uppercase"),
    pytest.param("CoMeT", None, id="W1-mixed-case"),
    pytest.param("MOON", PICTURE.format("MOON"), id="W1-uppercase-still-W4"),
    pytest.param("MoonLight", CONTAINS.format("MOONLIGHT", "MOON"), id="W1-mixed-case-still-W5"),
    pytest.param("go", None, id="W1-two-letters"),
    pytest.param("lighthouse", None, id="W1-ten-letters"),
    pytest.param("a", "A is too short: use 2 to 10 letters.", id="W1-one-letter"),
    pytest.param("observatory", "That word has 11 letters: use 2 to 10.", id="W1-eleven-letters"),
    pytest.param("ice cream", ONLY_AZ.format("spaces"), id="W1-inner-space"),
    pytest.param("star\tdust", ONLY_AZ.format("spaces"), id="W1-inner-tab"),
    pytest.param("co\u200bmet", ONLY_AZ.format("spaces"), id="W1-zero-width-space"),
    pytest.param("r2d2", ONLY_AZ.format("digits"), id="W1-digits"),
    pytest.param("42", ONLY_AZ.format("digits"), id="W1-only-digits"),
    pytest.param("x-ray", ONLY_AZ.format("hyphens"), id="W1-hyphen"),
    pytest.param("x–ray", ONLY_AZ.format("hyphens"), id="W1-en-dash"),
    pytest.param("don't", ONLY_AZ.format("apostrophes"), id="W1-apostrophe"),
    pytest.param("don’t", ONLY_AZ.format("apostrophes"), id="W1-curly-apostrophe"),
    pytest.param("café", ONLY_AZ.format(OUTSIDE_AZ), id="W1-accented-letter"),
    pytest.param("straße", ONLY_AZ.format(OUTSIDE_AZ), id="W1-eszett"),
    pytest.param("кот", ONLY_AZ.format(OUTSIDE_AZ), id="W1-cyrillic"),
    pytest.param("соmet", ONLY_AZ.format(OUTSIDE_AZ), id="W1-cyrillic-lookalikes"),
    pytest.param("ＭＯＯＮ", ONLY_AZ.format(OUTSIDE_AZ), id="W1-fullwidth-letters"),
    pytest.param("🌙", ONLY_AZ.format(SYMBOLS), id="W1-emoji"),
    pytest.param("star!", ONLY_AZ.format(SYMBOLS), id="W1-punctuation"),
    pytest.param("x-ray 2", ONLY_AZ.format("spaces, digits or hyphens"), id="W1-several-problems"),
    # -- W2: an ordinary word or a name --------------------------------------------------------
    pytest.param("river", None, id="W2-common-noun"),
    pytest.param("whisper", None, id="W2-verb"),
    pytest.param("quiet", None, id="W2-adjective"),
    pytest.param("quickly", None, id="W2-adverb"),
    pytest.param("sundial", None, id="W2-rarer-noun"),
    pytest.param("paris", None, id="W2-city-paris"),
    pytest.param("Tokyo", None, id="W2-city-tokyo"),
    pytest.param("france", None, id="W2-country-france"),
    pytest.param("japan", None, id="W2-country-japan"),
    pytest.param("alice", None, id="W2-first-name-alice"),
    pytest.param("omar", None, id="W2-first-name-omar"),
    pytest.param("orion", None, id="W2-constellation-orion"),
    pytest.param("lyra", None, id="W2-constellation-lyra"),
    pytest.param("draco", None, id="W2-constellation-draco"),
    pytest.param("pegasus", None, id="W2-constellation-pegasus"),
    pytest.param("andromeda", None, id="W2-constellation-andromeda"),
    pytest.param("cassiopeia", None, id="W2-constellation-cassiopeia"),
    pytest.param("bootes", None, id="W2-allow-list-constellation-bootes"),
    pytest.param("ophiuchus", None, id="W2-allow-list-constellation-ophiuchus"),
    pytest.param("deneb", None, id="W2-allow-list-star-deneb"),
    pytest.param("mars", None, id="W2-planet-mars"),
    pytest.param("jupiter", None, id="W2-planet-jupiter"),
    pytest.param("neptune", None, id="W2-planet-neptune"),
    pytest.param("qwzx", UNKNOWN.format("QWZX"), id="W2-mash-qwzx"),
    pytest.param("asdfgh", UNKNOWN.format("ASDFGH"), id="W2-mash-asdfgh"),
    pytest.param("XKCDQ", UNKNOWN.format("XKCDQ"), id="W2-mash-xkcdq"),
    pytest.param("blorf", UNKNOWN.format("BLORF"), id="W2-non-word-blorf"),
    pytest.param("frobnicate", UNKNOWN.format("FROBNICATE"), id="W2-non-word-frobnicate"),
    # -- W3: no slurs (the blocklist hook has its own tests below) -----------------------------
    pytest.param(A_SLUR, BLOCKED, id="W3-slur-refused"),
    pytest.param(A_SLUR.upper(), BLOCKED, id="W3-slur-uppercase-refused"),
    pytest.param(A_SLUR + "s", BLOCKED, id="W3-slur-plural-refused"),
    pytest.param("spice", None, id="W3-ordinary-word-containing-a-listed-word"),
    # -- W4: a pictured name, or a plural or other close form of one ---------------------------
    pytest.param("moon", PICTURE.format("MOON"), id="W4-name-itself"),
    pytest.param("apples", FORM.format("APPLES", "APPLE"), id="W4-regular-plural"),
    pytest.param("mice", FORM.format("MICE", "MOUSE"), id="W4-irregular-mouse-mice"),
    pytest.param("mouses", FORM.format("MOUSES", "MOUSE"), id="W4-suffix-fallback-mouses"),
    pytest.param("leaves", FORM.format("LEAVES", "LEAF"), id="W4-irregular-leaf-leaves"),
    pytest.param("leafs", FORM.format("LEAFS", "LEAF"), id="W4-leafs"),
    pytest.param("children", FORM.format("CHILDREN", "CHILD"), id="W4-irregular-children"),
    pytest.param("geese", FORM.format("GEESE", "GOOSE"), id="W4-irregular-geese"),
    pytest.param("ran", FORM.format("RAN", "RUN"), id="W4-irregular-run-ran"),
    pytest.param("running", FORM.format("RUNNING", "RUN"), id="W4-run-running"),
    pytest.param("runs", FORM.format("RUNS", "RUN"), id="W4-run-runs"),
    pytest.param("knives", FORM.format("KNIVES", "KNIFE"), id="W4-irregular-knives"),
    pytest.param("oxen", FORM.format("OXEN", "OX"), id="W4-irregular-ox-oxen"),
    pytest.param("feet", FORM.format("FEET", "FOOT"), id="W4-irregular-feet"),
    pytest.param("teeth", FORM.format("TEETH", "TOOTH"), id="W4-irregular-teeth"),
    pytest.param("cacti", FORM.format("CACTI", "CACTUS"), id="W4-irregular-cacti"),
    pytest.param("cactuses", FORM.format("CACTUSES", "CACTUS"), id="W4-cactuses"),
    pytest.param("keyed", FORM.format("KEYED", "KEY"), id="W4-verb-form-keyed"),
    pytest.param("glass", FORM.format("GLASS", "GLASSES"), id="W4-singular-of-plural-name"),
    pytest.param("teddybear", FORM.format("TEDDYBEAR", "TEDDY BEAR"), id="W4-two-word-name"),
    pytest.param("teddybears", FORM.format("TEDDYBEARS", "TEDDY BEAR"), id="W4-two-word-plural"),
    pytest.param("pineapples", FORM.format("PINEAPPLES", "PINEAPPLE"), id="W4-before-W5"),
    # -- W5: a pictured name of 4+ letters inside the word -------------------------------------
    pytest.param("moonlight", CONTAINS.format("MOONLIGHT", "MOON"), id="W5-moon-in-moonlight"),
    pytest.param("honeymoon", CONTAINS.format("HONEYMOON", "MOON"), id="W5-moon-in-honeymoon"),
    pytest.param("moonbeam", CONTAINS.format("MOONBEAM", "MOON"), id="W5-moon-in-moonbeam"),
    pytest.param("applesauce", CONTAINS.format("APPLESAUCE", "APPLE"), id="W5-apple-at-start"),
    pytest.param("anchorman", CONTAINS.format("ANCHORMAN", "ANCHOR"), id="W5-anchorman"),
    pytest.param("candlelit", CONTAINS.format("CANDLELIT", "CANDLE"), id="W5-candlelit"),
    pytest.param("footprint", CONTAINS.format("FOOTPRINT", "FOOT"), id="W5-footprint"),
    pytest.param("toothpaste", CONTAINS.format("TOOTHPASTE", "TOOTH"), id="W5-toothpaste"),
    pytest.param("childhood", CONTAINS.format("CHILDHOOD", "CHILD"), id="W5-childhood"),
    pytest.param("gooseberry", CONTAINS.format("GOOSEBERRY", "GOOSE"), id="W5-gooseberry"),
    pytest.param("rabbithole", CONTAINS.format("RABBITHOLE", "RABBIT"), id="W5-before-W2"),
    # -- W6: a word of 3+ letters inside a pictured name ---------------------------------------
    pytest.param("pine", INSIDE.format("PINE", "PINEAPPLE"), id="W6-pine-in-pineapple"),
    pytest.param("pin", INSIDE.format("PIN", "PINEAPPLE"), id="W6-three-letters-pin"),
    pytest.param("app", INSIDE.format("APP", "APPLE"), id="W6-three-letters-app"),
    pytest.param("too", INSIDE.format("TOO", "TOOTH"), id="W6-three-letters-too"),
    pytest.param("act", INSIDE.format("ACT", "CACTUS"), id="W6-three-letters-act"),
    pytest.param("rabbi", INSIDE.format("RABBI", "RABBIT"), id="W6-rabbi-in-rabbit"),
    pytest.param("vision", INSIDE.format("VISION", "TELEVISION"), id="W6-vision-in-television"),
    pytest.param("bear", INSIDE.format("BEAR", "TEDDY BEAR"), id="W6-inside-two-word-name"),
    pytest.param("lass", INSIDE.format("LASS", "GLASSES"), id="W6-lass-in-glasses"),
    # -- W7: two-letter words skip W5/W6; three-letter names do not block longer words ---------
    pytest.param("an", None, id="W7-two-letters-in-anchor"),
    pytest.param("at", None, id="W7-two-letters-in-cat"),
    pytest.param("on", None, id="W7-two-letters-in-moon"),
    pytest.param("in", None, id="W7-two-letters-in-pineapple"),
    pytest.param("us", None, id="W7-two-letters-in-cactus"),
    pytest.param("ox", PICTURE.format("OX"), id="W7-two-letter-name-still-W4"),
    pytest.param("catalog", None, id="W7-cat-does-not-block-catalog"),
    pytest.param("keyboard", None, id="W7-key-does-not-block-keyboard"),
    pytest.param("penguin", None, id="W7-pen-does-not-block-penguin"),
    pytest.param("sunflower", None, id="W7-sun-does-not-block-sunflower"),
    pytest.param("runway", None, id="W7-run-does-not-block-runway"),
    pytest.param("oxford", None, id="W7-ox-does-not-block-oxford"),
    pytest.param("cats", FORM.format("CATS", "CAT"), id="W7-three-letter-name-still-W4-cats"),
    pytest.param("pens", FORM.format("PENS", "PEN"), id="W7-three-letter-name-still-W4-pens"),
    # -- W8: every alias counts -----------------------------------------------------------------
    pytest.param(
        "bike", "BIKE is another name for BICYCLE, a picture on the table.", id="W8-W4-alias"
    ),
    pytest.param(
        "bikes", FORM.format("BIKES", ALIAS.format("BIKE", "BICYCLE")), id="W8-W4-alias-plural"
    ),
    pytest.param(
        "biking", FORM.format("BIKING", ALIAS.format("BIKE", "BICYCLE")), id="W8-W4-alias-verb"
    ),
    pytest.param(
        "bunnies",
        FORM.format("BUNNIES", ALIAS.format("BUNNY", "RABBIT")),
        id="W8-W4-alias-plural-ies",
    ),
    pytest.param(
        "tellies",
        FORM.format("TELLIES", ALIAS.format("TELLY", "TELEVISION")),
        id="W8-W4-alias-before-W2",
    ),
    pytest.param(
        "tv",
        "TV is another name for TELEVISION, a picture on the table.",
        id="W8-W7-two-letter-alias",
    ),
    pytest.param(
        "spectacles",
        "SPECTACLES is another name for GLASSES, a picture on the table.",
        id="W8-W4-alias-spectacles",
    ),
    pytest.param(
        "bikers",
        CONTAINS.format("BIKERS", ALIAS.format("BIKE", "BICYCLE")),
        id="W8-W5-alias-in-word",
    ),
    pytest.param(
        "bunnyhop",
        CONTAINS.format("BUNNYHOP", ALIAS.format("BUNNY", "RABBIT")),
        id="W8-W5-alias-in-word-before-W2",
    ),
    pytest.param(
        "bun", INSIDE.format("BUN", ALIAS.format("BUNNY", "RABBIT")), id="W8-W6-word-in-alias"
    ),
    pytest.param(
        "spec",
        INSIDE.format("SPEC", ALIAS.format("SPECTACLES", "GLASSES")),
        id="W8-W6-word-in-long-alias",
    ),
]


@pytest.mark.parametrize(("word", "expected"), CASES)
def test_clue_check(word: str, expected: str | None) -> None:
    assert check_clue(word, TABLE) == expected


def test_there_are_at_least_80_cases_and_each_names_its_rule() -> None:
    assert len(CASES) >= 80
    assert all(re.match(r"W[1-8]-", case.id) for case in CASES)


# -- a reason shows only the word, picture names and fixed text --------------------------------

_SKELETONS = [
    r"Spell a word first\.",
    r"Use letters A–Z only: no [a-z ,–A-Z]+\.",
    r"<> is too short: use 2 to 10 letters\.",
    r"That word has \d+ letters: use 2 to 10\.",
    r"That word is not allowed\.",
    r"<> is not a word we know: use an ordinary word or a name\.",
    r"<> is a picture on the table\.",
    r"<> is another name for <>, a picture on the table\.",
    r"<> (is a form of|contains|is inside) <>(, another name for <>)?, a picture on the table\.",
]


def _skeleton(reason: str, word: str) -> str:
    shown = [word.strip().upper()] + [name.upper() for names in TABLE for name in names]
    pattern = "|".join(re.escape(s) for s in sorted(set(shown), key=len, reverse=True) if s)
    return re.sub(pattern, "<>", reason)


@pytest.mark.parametrize(("word", "expected"), [c for c in CASES if c.values[1] is not None])
def test_reason_holds_only_the_word_picture_names_and_fixed_text(word: str, expected) -> None:
    reason = check_clue(word, TABLE)
    assert reason is not None
    skeleton = _skeleton(reason, word)
    assert any(re.fullmatch(s, skeleton) for s in _SKELETONS), skeleton
    # Nothing about the key can be in it (the check never sees the key anyway).
    assert not re.search(r"\b(STARS?|HAZE|COMET|CLOUDS?|GOLD|TEAL|KEY)\b", skeleton, re.I)


def test_W1_W4_a_long_word_is_not_echoed_back() -> None:
    assert check_clue("a" * 5000, TABLE) == "That word has 5000 letters: use 2 to 10."


# -- W2: the threshold ----------------------------------------------------------------------------

ACCEPTED_BY_FREQUENCY = [
    "river", "whisper", "quiet", "sundial", "trowel", "narwhal",  # ordinary words
    "paris", "tokyo", "quito", "france", "japan", "tuvalu",  # cities, countries
    "alice", "omar", "priya", "olga", "kenji",  # first names
    "orion", "lyra", "draco", "pegasus", "andromeda", "cassiopeia",  # constellations
    "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",  # planets
]  # fmt: skip
MASH = ["qwzx", "asdfgh", "xkcdq", "hjkl", "zxcvb", "blorf", "xyzzy", "qqqq"]


def test_W2_threshold_is_zipf_2() -> None:
    assert clues.ZIPF_MIN == 2.0


@pytest.mark.parametrize("word", ACCEPTED_BY_FREQUENCY)
def test_W2_words_and_names_pass_on_frequency_alone(word: str) -> None:
    assert zipf_frequency(word, "en") >= clues.ZIPF_MIN
    assert check_clue(word, []) is None


@pytest.mark.parametrize("word", MASH)
def test_W2_keyboard_mash_is_refused(word: str) -> None:
    assert zipf_frequency(word, "en") < clues.ZIPF_MIN
    assert check_clue(word, []) == UNKNOWN.format(word.upper())


def test_W2_sky_names_below_the_threshold_pass_through_the_allow_list() -> None:
    sky = _listed("astronomy_names.txt")
    assert all(re.fullmatch(r"[a-z]{2,10}", name) for name in sky)
    below = [name for name in sky if zipf_frequency(name, "en") < clues.ZIPF_MIN]
    assert {"bootes", "cepheus", "deneb", "tucana"} <= set(below)  # why the list exists
    assert [name for name in sky if check_clue(name, []) is not None] == []


# -- W3: the shipped slur list and the moderators' blocklist -------------------------------------


@pytest.fixture
def blocklist():
    installed = blocklist_provider()  # the app's own provider (the moderators' words)
    yield set_blocklist
    set_blocklist(installed)


def test_W3_slur_list_names_its_source_and_licence() -> None:
    header = (DATA / "slurs.txt").read_text(encoding="utf-8")
    assert "wordfilter" in header and "MIT" in header and "Darius Kazemi" in header
    assert all(re.fullmatch(r"[a-z]+", slur) for slur in SLURS)
    assert len(SLURS) >= 40


def test_W3_every_listed_slur_and_its_plural_is_refused() -> None:
    clue_sized = [s for s in SLURS if len(s) <= 10]
    assert [s for s in clue_sized if check_clue(s, []) != BLOCKED] == []
    plurals = [s + "s" for s in clue_sized if len(s) < 10 and s + "s" not in NOT_SLURS]
    assert [p for p in plurals if check_clue(p, []) != BLOCKED] == []


@pytest.mark.parametrize("word", NOT_SLURS)
def test_W3_listed_exceptions_are_not_refused(word: str) -> None:
    assert check_clue(word, []) is None


def test_W3_slur_is_refused_even_when_on_the_table_without_echoing_it() -> None:
    assert check_clue(A_SLUR, [[A_SLUR]]) == BLOCKED


def test_W3_blocklist_is_empty_by_default() -> None:
    assert check_clue("nebula", TABLE) is None


def test_W3_blocklist_hook_refuses_its_words_and_their_forms(blocklist) -> None:
    blocklist(lambda: frozenset({"nebula", "Galaxy "}))
    assert check_clue("nebula", TABLE) == BLOCKED
    assert check_clue("NEBULAS", TABLE) == BLOCKED
    assert check_clue("nebulae", TABLE) == BLOCKED
    assert check_clue("galaxies", TABLE) == BLOCKED  # provider words are normalized
    assert check_clue("comet", TABLE) is None


def test_W3_blocklist_is_read_on_every_check(blocklist) -> None:
    words: set[str] = set()
    blocklist(lambda: words)  # a plain, mutable set works too
    assert check_clue("quasar", TABLE) is None
    words.add("quasar")
    assert check_clue("quasar", TABLE) == BLOCKED
    blocklist(None)
    assert check_clue("quasar", TABLE) is None


def test_W3_blocklist_comes_before_the_table(blocklist) -> None:
    blocklist(lambda: frozenset({"moonlight"}))
    assert check_clue("moonlight", TABLE) == BLOCKED


# -- W3 at a family table: general profanity too (a host option) ----------------------------------

FAMILY_BLOCKED = "That word is not allowed at this family table."
RUDE = ["crap", "CRAP", "craps", "puke", "puked", "puking"]  # rated 2 by cuss, and forms
PROFANE = [w for w in _listed("profanity.txt") if not w.startswith("!")]
NEVER_PROFANE = [w[1:] for w in _listed("profanity.txt") if w.startswith("!")]


@pytest.mark.parametrize("word", RUDE)
def test_W3_family_table_refuses_a_rude_word_and_its_forms_without_echoing_it(word) -> None:
    reason = check_clue(word, TABLE, family=True)
    assert reason == FAMILY_BLOCKED == clues.FAMILY_BLOCKED
    assert word.lower() not in reason.lower()


@pytest.mark.parametrize("word", RUDE)
def test_W3_open_table_accepts_a_rude_word_that_is_no_slur(word) -> None:
    assert check_clue(word, TABLE) is None
    assert check_clue(word, TABLE, family=False) is None


@pytest.mark.parametrize("word", ["lesbian", "abortion", "gable", "shit"])
def test_W3_family_table_never_refuses_what_cuss_rates_0_or_1(word) -> None:
    """GABLE is rated 1 though GABLES is rated 2; SHIT is rated 1 (cuss is unsure)."""
    assert word in NEVER_PROFANE
    assert check_clue(word, TABLE, family=True) is None


@pytest.mark.parametrize(
    "word",
    ["assess", "hoe", "scrap", "scrape", "lesbos"],
    ids=["not-an-inflection-of-ASSES", "HOE-not-HOES", "contains-1", "contains-2", "island"],
)
def test_W3_family_table_accepts_ordinary_words_that_look_like_listed_ones(word) -> None:
    assert check_clue(word, TABLE, family=True) is None


def test_W3_family_table_refuses_every_clue_sized_listed_word() -> None:
    assert len(PROFANE) >= 1000
    clue_sized = [w for w in PROFANE if len(w) <= 10]
    refused = {w: check_clue(w, [], family=True) for w in clue_sized}
    assert [w for w, reason in refused.items() if reason not in (FAMILY_BLOCKED, BLOCKED)] == []


def test_W3_family_table_refuses_none_of_the_words_rated_0_or_1() -> None:
    assert len(NEVER_PROFANE) >= 500
    assert [w for w in NEVER_PROFANE if check_clue(w, [], family=True) == FAMILY_BLOCKED] == []


@pytest.mark.parametrize("family", [False, True], ids=["open", "family"])
def test_W3_slurs_are_refused_at_every_table_with_the_plain_text(family) -> None:
    assert check_clue(A_SLUR, TABLE, family=family) == BLOCKED
    assert check_clue(A_SLUR + "s", TABLE, family=family) == BLOCKED


def test_W3_the_blocklist_comes_before_the_family_list(blocklist) -> None:
    blocklist(lambda: frozenset({"crap", "quasar"}))
    assert check_clue("crap", TABLE, family=True) == BLOCKED
    assert check_clue("quasar", TABLE, family=True) == BLOCKED


def test_W3_the_family_list_comes_before_the_table() -> None:
    assert check_clue("crap", [["crap"]], family=True) == FAMILY_BLOCKED
    assert check_clue("crap", [["crap"]]) == PICTURE.format("CRAP")


# -- W4-W8 with other tables -----------------------------------------------------------------------


def test_W8_every_listed_name_of_every_picture_blocks() -> None:
    for names in TABLE:
        for name in names:
            clue = name.replace(" ", "")
            assert check_clue(clue, TABLE) is not None, name


def test_W4_table_as_tuples_and_an_empty_table() -> None:
    assert check_clue("mice", tuple(tuple(p) for p in TABLE)) == FORM.format("MICE", "MOUSE")
    assert check_clue("mice", []) is None


def test_W8_a_picture_given_as_a_bare_string_is_one_name() -> None:
    assert check_clue("moons", ["moon"]) == FORM.format("MOONS", "MOON")


def test_W4_picture_names_are_normalized() -> None:
    assert check_clue("tshirts", [["T-Shirt"]]) == FORM.format("TSHIRTS", "T-SHIRT")
    assert check_clue("cafe", [["café"]]) == PICTURE.format("CAFE")


def test_W4_an_unlisted_name_does_not_block() -> None:
    assert check_clue("mice", [["house"]]) is None
    assert check_clue("dying", [["dice"]]) is None  # the verb DIE is not a form of DICE
    assert check_clue("could", [["can"]]) is None  # nor the modal COULD a form of a can
    assert check_clue("pines", [["pin"]]) is None  # PINES is PINE's plural, not PIN's
