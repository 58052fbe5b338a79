"""The family table's word list (W3 at a family table): scripts/build_profanity.py reads the
npm package cuss, and games/constellate/data/profanity.txt is what it wrote. Pure: no
network (the builder is tested on a sample of cuss's index.js), no Django."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.constellate import clues
from scripts import build_profanity as builder

DATA = Path(clues.__file__).with_name("data")

SAMPLE = """\
/**
 * Map of English profane words to a rating of sureness.
 *
 * @type {Record<string, number>}
 */
export const cuss = {
  abortion: 1,
  'alligator bait': 2,
  alligatorbait: 2,
  brea5t: 2,
  crap: 2,
  "double quoted": 2,
  Hoser: 2,
  lesbian: 0,
  'quoted': 2,
  zipperheads: 2
}
"""


def test_W3_family_builder_parses_plain_and_quoted_entries_and_the_last_without_comma():
    assert builder.parse(SAMPLE) == {
        "abortion": 1,
        "alligator bait": 2,
        "alligatorbait": 2,
        "brea5t": 2,
        "crap": 2,
        "double quoted": 2,
        "Hoser": 2,
        "lesbian": 0,
        "quoted": 2,
        "zipperheads": 2,
    }


def test_W3_family_builder_keeps_single_words_rated_2_and_never_refuses_0_and_1():
    refused, never = builder.family_lists(builder.parse(SAMPLE))
    # Rated 2, one word of letters: kept, lowercased. Several words or digits: dropped.
    assert refused == ["alligatorbait", "crap", "hoser", "quoted", "zipperheads"]
    assert never == ["abortion", "lesbian"]


@pytest.mark.parametrize(
    "broken",
    [
        SAMPLE.replace("  crap: 2,", "  crap: 3,"),  # a rating cuss does not use
        SAMPLE.replace("  crap: 2,", "  ...others,"),  # not an entry
        SAMPLE.replace("export const cuss = {", "export default {"),
        SAMPLE.replace("  zipperheads: 2\n}", "  zipperheads: 2"),  # never closes
        SAMPLE.replace("  lesbian: 0,", "  crap: 0,"),  # listed twice
    ],
    ids=["rating-3", "not-an-entry", "no-map", "unclosed", "twice"],
)
def test_W3_family_builder_refuses_a_format_it_does_not_know(broken: str):
    with pytest.raises(builder.BuildError):
        builder.parse(broken)


def test_W3_family_builder_renders_what_the_check_reads():
    text = builder.render(["crap", "hoser"], ["abortion", "lesbian"])
    assert "`cuss` 2.2.0" in text and "MIT" in text
    rows = [r for line in text.splitlines() if (r := line.split("#", 1)[0].strip())]
    assert rows == ["crap", "hoser", "!abortion", "!lesbian"]


# -- the shipped list --------------------------------------------------------------------------


def _rows() -> list[str]:
    lines = (DATA / "profanity.txt").read_text(encoding="utf-8").splitlines()
    return [w for line in lines if (w := line.split("#", 1)[0].strip())]


def test_W3_family_list_names_its_package_version_and_licence():
    header = (DATA / "profanity.txt").read_text(encoding="utf-8")
    assert "`cuss` 2.2.0" in header and "licence MIT" in header
    licence = (DATA / "LICENSE-cuss.txt").read_text(encoding="utf-8")
    assert "cuss 2.2.0" in licence and "The MIT License" in licence
    assert "Titus Wormer" in licence


def test_W3_family_list_is_lowercase_single_words_rated_2_then_the_innocent_ones():
    rows = _rows()
    refused = [r for r in rows if not r.startswith("!")]
    never = [r[1:] for r in rows if r.startswith("!")]
    assert all(re.fullmatch(r"[a-z]+", w) for w in refused + never)
    assert refused == sorted(refused) and never == sorted(never)
    assert len(refused) == 1180 and len(never) == 537
    assert not set(refused) & set(never)
    assert {"crap", "puke"} <= set(refused)
    assert {"lesbian", "abortion", "gable"} <= set(never)
    assert rows.index("!" + never[0]) == len(refused)  # every refused word comes first
