"""One way to read input (games/inputs.py): whole numbers from ASCII digits only, choices
from a fixed set, free text without hidden characters, names a reader can tell apart."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import inputs
from games.confusables import lookalike_key, skeleton
from games.inputs import BadInput

# -- whole numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "value"), [("0", 0), ("3", 3), ("8", 8), ("007", 7)])
def test_it_reads_ascii_digits(raw, value):
    assert inputs.integer(raw, "seat", 0, 8) == value


@pytest.mark.parametrize(
    "raw",
    ["²", "¹", "①", "٣", "١٢", "１", "𝟑", "0x10", "1e3", "1.5", " 3 ", "3 ", "+3", "--1", "3\x00"],
)
def test_other_digits_and_notations_are_not_numbers(raw):
    with pytest.raises(BadInput, match="whole number written with the digits 0 to 9"):
        inputs.integer(raw, "seat", 0, 8)


@pytest.mark.parametrize("raw", ["-1", "9", "99999999999", "9" * 5000])
def test_numbers_out_of_range_say_the_range(raw):
    with pytest.raises(BadInput, match="The seat must be from 0 to 8."):
        inputs.integer(raw, "seat", 0, 8)


@pytest.mark.parametrize("raw", [None, ""])
def test_a_missing_number_says_so(raw):
    with pytest.raises(BadInput, match="Missing seat."):
        inputs.integer(raw, "seat", 0, 8)


@given(st.text(max_size=30))
def test_any_text_is_a_number_in_range_or_a_bad_input(raw):
    try:
        value = inputs.integer(raw, "card", 0, 23)
    except BadInput as error:
        assert error.message and error.status == 400
    else:
        assert 0 <= value <= 23 and raw.isascii() and raw.lstrip("-").isdigit()


# -- choices ---------------------------------------------------------------------------------


def test_a_choice_is_exact():
    lengths = {"off": None, "60": 60}
    assert inputs.choice("60", lengths, "Pick a clock.") == 60
    assert inputs.choice("off", lengths, "Pick a clock.") is None
    for raw in ["60 ", "OFF", "６０", None, "60\x00"]:
        with pytest.raises(BadInput, match="Pick a clock."):
            inputs.choice(raw, lengths, "Pick a clock.")
    assert inputs.one_of("blue", ("blue", "orange"), "Pick a chart.") == "blue"


# -- free text -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    ["a\x00b", "a\nb", "a\tb", "a\x07", "a\u200bb", "a\u202eb", "a\ufeff", "a\U000e0041", "\ud800"],
)
def test_free_text_refuses_control_and_format_characters(raw):
    with pytest.raises(BadInput, match="control characters or invisible ones"):
        inputs.text(raw, "reason", 200)


@pytest.mark.parametrize("raw", ["a\ue000", "a\U000f0000", "a\U0010fffd", "a\uffff"])
def test_free_text_refuses_private_use_and_unassigned_characters(raw):
    with pytest.raises(BadInput, match="private-use or unassigned"):
        inputs.text(raw, "reason", 200)


def test_free_text_is_normalized_and_its_spaces_collapsed():
    assert inputs.text("  it  is\u00a0the\u3000ｓｅａ ", "reason", 200) == "it is the sea"
    assert inputs.text("", "reason", 200) == inputs.text(None, "reason", 200) == ""


def test_free_text_has_a_length_cap_after_normalizing():
    assert inputs.text("x" * 200, "reason", 200) == "x" * 200
    with pytest.raises(BadInput, match="The reason is at most 200 characters."):
        inputs.text("x" * 201, "reason", 200)


def test_the_clue_word_is_kept_as_typed_but_hidden_characters_are_refused():
    assert inputs.plain(" Ocean ", "word", 40) == " Ocean "
    assert inputs.plain("ｏｃｅａｎ", "word", 40) == "ｏｃｅａｎ"  # the rules say what is wrong
    for raw in ["\x00ocean", "oce\u200ban", "ocean\n"]:
        with pytest.raises(BadInput, match="The word cannot hold"):
            inputs.plain(raw, "word", 40)


# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("Ada", "Ada"),
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("Émile", "Émile"),
        ("Ｚｅｄ", "Zed"),  # NFKC
        ("e\u0301", "é"),  # NFKC composes
        ("Thủy", "Thủy"),
        ("名前", "名前"),
        ("नमस्ते", "नमस्ते"),
        ("❤️ Ana", "❤️ Ana"),
        ("R2", "R2"),
    ],
)
def test_ordinary_names_are_kept(raw, kept):
    assert inputs.name(raw) == kept


@pytest.mark.parametrize(
    "raw", ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u3164\u3164", "Bob\u3164", "⠀Bob"]
)
def test_fillers_and_blanks_are_refused(raw):
    with pytest.raises(BadInput, match="invisible"):
        inputs.name(raw)


@pytest.mark.parametrize("raw", ["❤️", "...", "🌟🌟", "-_-"])
def test_a_name_needs_a_visible_letter_or_digit(raw):
    with pytest.raises(BadInput, match="at least one visible letter or digit"):
        inputs.name(raw)


def test_combining_marks_are_capped_per_letter():
    assert inputs.name("a\u0301\u0308") == "á\u0308"  # two marks on one letter
    assert inputs.name("Nguyễn Thị Ngọc") == "Nguyễn Thị Ngọc"  # e, circumflex, tilde
    with pytest.raises(BadInput, match="too many accents on one letter"):
        inputs.name("Zed" + "\u0301" * 23)
    with pytest.raises(BadInput, match="too many accents on one letter"):
        inputs.name("\u00e1\u0308\u0304")  # á is a and a mark
    with pytest.raises(BadInput, match="no letter under it"):
        inputs.name("\u0301Zed")
    with pytest.raises(BadInput, match="no letter under it"):
        inputs.name("Zed \u0301")


@pytest.mark.parametrize("raw", ["", "   ", "\u00a0"])
def test_an_empty_name_asks_for_one(raw):
    with pytest.raises(BadInput, match="Choose a name of 1 to 24 characters."):
        inputs.name(raw)


# -- look-alike names (UTS #39 skeleton) -----------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("P1", "\u04201"),  # Cyrillic capital ER
        ("P1", "\u04401"),  # Cyrillic small er
        ("Ada", "\u0410d\u0430"),  # Cyrillic A and a
        ("Ada", "ADA"),
        ("Al", "AI"),
        ("Al", "A1"),
        ("Sam", "Sarn"),
        ("Bob", "B0b"),
        ("Nico", "Νico"),  # Greek capital nu
    ],
)
def test_look_alike_names_share_a_key(one, other):
    assert lookalike_key(one) == lookalike_key(other)


@pytest.mark.parametrize(("one", "other"), [("Ada", "Adam"), ("Émile", "Emile"), ("Zoë", "Zoe")])
def test_different_looking_names_keep_different_keys(one, other):
    assert lookalike_key(one) != lookalike_key(other)


def test_the_skeleton_follows_uts_39():
    assert skeleton("\u0420") == "P"
    assert skeleton("m") == "rn"
    assert skeleton("a\u200bb") == "ab"  # default ignorables are dropped
    assert skeleton("é") == "e\u0301"  # NFD before and after
