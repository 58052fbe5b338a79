# ruff: noqa: E501
# (The page's astra-cards block is carried verbatim below, and its lines are as long as the page's.)
"""Astra's designed data (M1-M12) is what RULES.md promises: the game's data file equals the
page's ``astra-cards`` block, carried verbatim in this module (CI checks out the repository
alone, so the page is never read at test time), and every constraint of "Data to design" holds
on it, proved by code written here apart from ``games/astra/rules`` (its own parser, its own
chain search, its own integer geometry, the page's numbers as literals).

Also the tracks (J3, J4, M8), the Sphere boards (M9, S1, S2, V2), the Final Scoring cards
(M10, F4, F5), the worked examples' card facts, and the checking function refusing bad data."""

from __future__ import annotations

import ast
import copy
import json
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from games.astra.rules import boards, cards
from games.astra.rules.boards import (
    ABOVE_GAME_END,
    COLUMN_BONUS,
    FINAL_SCORING_CARDS,
    POUCH_SPOTS,
    ROWS,
    SPHERE_BOARDS,
    SPOT_VALUES,
    WISDOM_SPOTS,
    card_limit,
    card_slots_opened,
    column_value,
    elements_fame,
    pouch_size,
    row_marks,
    row_value,
)
from games.astra.rules.cards import (
    BOON_AMOUNTS,
    BOON_POINTS,
    BY_NAME,
    CARDS,
    AbilityKind,
    BoonKind,
    Card,
    Element,
    StarType,
    check_cards,
)

ROOT = Path(__file__).resolve().parents[3]
RAW = json.loads(cards.DATA.read_text(encoding="utf-8"))
STDLIB = frozenset(sys.stdlib_module_names)

# -- RULES.md, verbatim --------------------------------------------------------------------------

PAGE_BLOCK = """\
01 | Andromeda | Air | 7 | 3 | 4 | 0-1 0-3 1-2 2-3 2-4 3-6 4-5 | 0:1,0 1:1,1 2:1,2 3:0,1 4:1,3 5:1,4 6:0,2 | Fame 4, Improvement 1, Wisdom 1, Stardust 3 | K1
02 | Aquarius | Air | 6 | 3 | 5 | 0-1 0-2 0-3 0-4 2-5 | 0:1,0 1:2,0 2:2,1 3:0,0 4:0,1 5:2,2 | Fame 4, Improvement 1, Wisdom 1, Stardust 3 | K2
03 | Aquila | Air | 8 | 5 | 2,6 | 0-1 1-2 1-3 2-4 3-5 4-6 6-7 | 0:1,2 1:0,3 2:0,2 3:1,3 4:1,1 5:2,2 6:2,0 7:3,0 | Fame 4, Activation 2, Stardust 4, Wisdom 1 | K3(4)
04 | Ara | Fire | 8 | 5 | 3,6 | 0-1 0-5 1-2 2-3 2-6 3-4 3-7 | 0:3,2 1:2,2 2:1,2 3:1,1 4:2,1 5:4,2 6:0,1 7:0,0 | Fame 4, Observation 2, Activation 1, Stardust 3 | K4
05 | Argo Navis | Water | 7 | 3 | 4 | 0-1 0-2 0-3 0-6 1-5 1-6 2-4 | 0:2,1 1:1,2 2:1,0 3:3,0 4:0,0 5:0,3 6:1,1 | Fame 4, Improvement 1, Wisdom 1, Stardust 4 | K5
06 | Aries | Fire | 8 | 6 | 1,6 | 0-1 0-3 0-4 0-7 1-2 4-5 5-6 | 0:2,1 1:1,1 2:0,1 3:2,0 4:1,2 5:2,2 6:1,3 7:1,0 | Observation 2, Improvement 1, Fame 3, Wisdom 1 | K3(3)
07 | Auriga | Air | 6 | 3 | 4,5 | 0-1 0-2 0-4 2-3 2-5 | 0:1,2 1:0,3 2:2,1 3:3,1 4:1,3 5:3,0 | Observation 2, Improvement 1, Wisdom 1, Stardust 2 | K4
08 | Boötes | Earth | 6 | 3 | 3 | 0-1 0-3 1-2 3-4 3-5 | 0:0,2 1:0,1 2:0,0 3:1,1 4:2,2 5:1,2 | Activation 2, Stardust 4, Observation 1, Wisdom 1 | K6
09 | Cancer | Water | 7 | 4 | 4 | 0-1 0-4 1-2 2-3 3-5 3-6 | 0:3,1 1:2,2 2:1,2 3:0,2 4:2,0 5:0,1 6:1,1 | Fame 5, Improvement 1, Wisdom 1, Stardust 3 | K7
10 | Canis Major | Fire | 5 | 2 | 4 | 0-1 0-2 1-3 3-4 | 0:2,3 1:1,2 2:3,2 3:1,1 4:0,0 | Fame 4, Observation 1, Activation 1, Stardust 3 | K6
11 | Canis Minor | Earth | 7 | 5 | 1 | 0-1 0-5 1-2 1-3 3-4 5-6 | 0:1,0 1:2,1 2:2,0 3:3,1 4:2,2 5:1,1 6:0,2 | Observation 2, Improvement 1, Activation 1, Fame 2 | K8
12 | Capricornus | Earth | 9 | 6 | 2,7 | 0-1 0-4 0-7 1-2 1-6 2-3 2-4 2-5 7-8 | 0:1,1 1:0,1 2:1,0 3:0,0 4:2,1 5:2,0 6:0,2 7:1,2 8:2,2 | Fame 5, Observation 2, Improvement 1, Stardust 2 | K2
13 | Cassiopeia | Air | 5 | 2 | 4 | 0-1 1-2 1-3 3-4 | 0:0,2 1:0,1 2:1,1 3:0,0 4:1,0 | Fame 4, Observation 1, Wisdom 1, Stardust 2 | K9
14 | Centaurus | Earth | 8 | 5 | 2,5 | 0-1 0-4 1-2 1-3 1-4 1-5 4-6 5-7 | 0:3,2 1:2,2 2:1,1 3:2,3 4:2,1 5:1,3 6:3,0 7:0,2 | Fame 5, Observation 2, Wisdom 1, Stardust 3 | K10
15 | Cepheus | Fire | 6 | 4 | 1,5 | 0-1 1-2 1-4 2-3 3-5 | 0:0,3 1:1,2 2:1,1 3:0,0 4:0,2 5:0,1 | Improvement 1, Fame 3, Wisdom 1, Stardust 4 | K11
16 | Cetus | Water | 7 | 4 | 2 | 0-1 1-2 2-3 2-4 3-5 5-6 | 0:4,2 1:4,1 2:3,1 3:2,1 4:2,2 5:1,1 6:0,0 | Fame 5, Improvement 1, Observation 1, Stardust 2 | K10
17 | Corona Australis | Air | 6 | 3 | 1,5 | 0-1 0-2 0-3 3-4 4-5 | 0:2,1 1:3,1 2:3,0 3:1,2 4:0,1 5:0,2 | Fame 4, Wisdom 1, Stardust 4, Observation 1 | K7
18 | Corona Borealis | Air | 9 | 7 | 7,8 | 0-1 0-2 0-3 0-5 2-4 4-6 5-7 5-8 | 0:1,1 1:2,0 2:2,1 3:0,0 4:3,0 5:1,2 6:4,0 7:0,1 8:2,2 | Observation 2, Activation 2, Improvement 1, Wisdom 1 | K11
19 | Corvus | Fire | 6 | 3 | 3 | 0-1 1-2 1-4 2-3 4-5 | 0:0,2 1:1,1 2:2,1 3:2,0 4:2,2 5:3,1 | Activation 2, Stardust 4, Observation 1, Fame 2 | K9
20 | Crater | Water | 7 | 4 | 2 | 0-1 0-3 1-2 1-6 2-4 4-5 4-6 | 0:1,4 1:0,3 2:1,2 3:1,3 4:0,1 5:0,0 6:0,2 | Fame 4, Improvement 1, Observation 1, Activation 1 | K12
21 | Cygnus | Air | 6 | 2 | 2,4 | 0-1 0-3 1-2 3-4 3-5 | 0:0,0 1:0,1 2:0,2 3:1,1 4:1,2 5:2,0 | Observation 2, Wisdom 1, Stardust 4, Activation 1 | K13
22 | Delphinus | Water | 7 | 5 | 3 | 0-1 0-3 1-2 2-4 4-5 4-6 | 0:0,0 1:0,1 2:1,1 3:1,0 4:1,2 5:0,2 6:1,3 | Observation 2, Improvement 1, Fame 2, Stardust 3 | K3(3)
23 | Draco | Fire | 8 | 4 | 3,4 | 0-1 0-2 2-3 3-4 3-5 3-7 5-6 | 0:0,2 1:0,1 2:1,1 3:2,1 4:1,0 5:3,2 6:2,2 7:2,0 | Fame 5, Observation 2, Activation 1, Stardust 2 | K5
24 | Equuleus | Water | 6 | 4 | 2,5 | 0-1 0-3 1-2 1-5 2-4 | 0:1,2 1:2,1 2:1,1 3:0,1 4:2,0 5:3,2 | Fame 4, Stardust 4, Activation 1, Observation 1 | K3(2)
25 | Eridanus | Water | 5 | 1 | 1 | 0-1 1-2 2-3 3-4 | 0:3,0 1:2,0 2:1,1 3:0,2 4:0,1 | Fame 3, Activation 1, Observation 1, Stardust 3 | K1
26 | Gemini | Air | 6 | 3 | 2 | 0-1 0-5 1-2 1-3 3-4 | 0:1,2 1:0,1 2:0,2 3:1,0 4:2,0 5:2,2 | Activation 2, Improvement 1, Observation 1, Stardust 2 | K12
27 | Hercules | Fire | 8 | 5 | 2,4 | 0-1 0-2 0-6 1-3 1-4 1-5 4-7 | 0:2,1 1:1,2 2:3,0 3:2,3 4:0,2 5:0,1 6:2,2 7:1,3 | Activation 2, Fame 4, Stardust 4, Wisdom 1 | K14
28 | Hydra | Water | 5 | 2 | 3 | 0-1 1-2 2-3 3-4 | 0:3,0 1:2,1 2:1,2 3:0,2 4:1,1 | Fame 3, Stardust 4, Observation 1, Wisdom 1 | K2
29 | Leo | Fire | 5 | 2 | 1 | 0-1 0-2 2-3 3-4 | 0:0,3 1:1,2 2:0,2 3:1,1 4:0,0 | Fame 4, Wisdom 1, Activation 1, Stardust 2 | K3(4)
30 | Lepus | Earth | 6 | 2 | 1,3 | 0-1 0-2 0-3 0-4 2-5 | 0:2,1 1:3,2 2:1,1 3:1,2 4:2,0 5:0,1 | Fame 5, Activation 1, Wisdom 1, Stardust 3 | K5
31 | Libra | Air | 7 | 4 | 2,6 | 0-1 1-2 2-3 2-6 3-4 4-5 | 0:1,0 1:2,0 2:1,1 3:2,1 4:1,2 5:2,2 6:0,2 | Fame 4, Improvement 1, Wisdom 1, Activation 1 | K15
32 | Lupus | Earth | 4 | 1 | 2 | 0-1 0-2 2-3 | 0:1,2 1:0,1 2:1,1 3:0,0 | Improvement 1, Wisdom 1, Fame 2, Stardust 3 | K13
33 | Lyra | Water | 4 | 1 | 2 | 0-1 0-2 2-3 | 0:1,1 1:1,0 2:0,2 3:0,1 | Wisdom 1, Stardust 4, Observation 1, Fame 2 | K9
34 | Ophiuchus | Air | 5 | 2 | 1 | 0-1 1-2 2-3 3-4 | 0:0,0 1:1,0 2:2,1 3:2,2 4:2,3 | Activation 2, Fame 2, Observation 1, Stardust 3 | K14
35 | Orion | Fire | 5 | 2 | 3 | 0-1 1-2 1-3 2-4 | 0:1,3 1:1,2 2:1,1 3:2,1 4:0,0 | Activation 2, Wisdom 1, Observation 1, Stardust 2 | K7
36 | Pegasus | Air | 8 | 5 | 4,6 | 0-1 0-2 0-4 0-5 1-3 1-6 5-7 | 0:1,1 1:1,0 2:2,2 3:0,0 4:1,2 5:0,1 6:2,0 7:0,2 | Fame 5, Improvement 1, Wisdom 1, Stardust 3 | K16
37 | Perseus | Earth | 4 | 1 | 3 | 0-1 1-2 1-3 | 0:2,2 1:1,1 2:0,0 3:1,0 | Wisdom 1, Observation 1, Fame 2, Stardust 3 | K15
38 | Pisces | Water | 7 | 4 | 2 | 0-1 1-2 1-4 1-6 2-3 3-5 | 0:0,2 1:0,1 2:1,1 3:1,0 4:0,0 5:2,0 6:1,2 | Fame 5, Observation 1, Activation 1, Wisdom 1 | K14
39 | Piscis Austrinus | Water | 6 | 3 | 5 | 0-1 1-2 1-3 3-4 4-5 | 0:0,0 1:0,1 2:1,0 3:0,2 4:1,1 5:2,2 | Activation 2, Fame 2, Wisdom 1, Stardust 3 | K16
40 | Sagitta | Fire | 6 | 4 | 5 | 0-1 0-2 1-4 2-3 2-5 | 0:1,0 1:2,1 2:1,1 3:1,2 4:2,0 5:0,1 | Improvement 1, Fame 3, Observation 1, Stardust 3 | K8
41 | Sagittarius | Fire | 7 | 3 | 1,2 | 0-1 0-2 0-3 0-4 0-6 1-5 | 0:2,0 1:1,0 2:2,1 3:3,1 4:1,1 5:0,0 6:3,0 | Observation 2, Improvement 1, Activation 1, Wisdom 1 | K13
42 | Scorpius | Water | 9 | 6 | 3,7 | 0-1 0-2 0-3 0-4 0-5 0-6 1-7 2-7 7-8 | 0:1,1 1:2,2 2:2,0 3:1,2 4:0,0 5:2,1 6:0,2 7:3,1 8:4,0 | Fame 4, Activation 2, Improvement 1, Stardust 3 | K6
43 | Serpens | Fire | 5 | 2 | 3 | 0-1 1-2 2-3 2-4 | 0:2,0 1:2,1 2:1,2 3:0,1 4:0,2 | Activation 2, Observation 1, Wisdom 1, Stardust 3 | K10
44 | Taurus | Earth | 9 | 6 | 5,7 | 0-1 0-2 1-5 2-3 3-4 3-7 4-6 6-8 | 0:1,2 1:0,3 2:2,3 3:3,2 4:2,2 5:1,3 6:1,1 7:3,1 8:1,0 | Fame 4, Observation 2, Improvement 1, Stardust 4 | K16
45 | Triangulum | Earth | 4 | 2 | 2 | 0-1 0-2 1-3 | 0:0,1 1:1,1 2:0,0 3:1,2 | Improvement 1, Fame 2, Wisdom 1, Stardust 3 | K3(2)
46 | Ursa Major | Earth | 7 | 4 | 3,6 | 0-1 1-2 2-3 3-4 3-5 5-6 | 0:0,2 1:0,3 2:1,3 3:1,2 4:0,1 5:1,1 6:0,0 | Fame 5, Observation 1, Activation 1, Wisdom 1 | K4
47 | Ursa Minor | Earth | 7 | 5 | 4 | 0-1 0-2 1-2 1-4 1-6 2-3 2-5 | 0:1,2 1:0,1 2:1,1 3:1,0 4:0,0 5:2,1 6:0,2 | Observation 2, Fame 4, Activation 1, Stardust 3 | K11
48 | Virgo | Earth | 8 | 4 | 4,5 | 0-1 0-2 1-3 3-4 4-5 4-6 5-7 | 0:4,4 1:3,3 2:4,3 3:2,2 4:2,1 5:1,2 6:2,0 7:0,2 | Fame 5, Improvement 1, Stardust 4, Wisdom 1 | K1
"""

C_RULES = """\
C1 | Andromeda | Air | K1
C2 | Aquarius | Air | K2
C3 | Aquila | Air | K3(4)
C4 | Ara | Fire | K4
C5 | Argo Navis | Water | K5
C6 | Aries | Fire | K3(3)
C7 | Auriga | Air | K4
C8 | Boötes | Earth | K6
C9 | Cancer | Water | K7
C10 | Canis Major | Fire | K6
C11 | Canis Minor | Earth | K8
C12 | Capricornus | Earth | K2
C13 | Cassiopeia | Air | K9
C14 | Centaurus | Earth | K10
C15 | Cepheus | Fire | K11
C16 | Cetus | Water | K10
C17 | Corona Australis | Air | K7
C18 | Corona Borealis | Air | K11
C19 | Corvus | Fire | K9
C20 | Crater | Water | K12
C21 | Cygnus | Air | K13
C22 | Delphinus | Water | K3(3)
C23 | Draco | Fire | K5
C24 | Equuleus | Water | K3(2)
C25 | Eridanus | Water | K1
C26 | Gemini | Air | K12
C27 | Hercules | Fire | K14
C28 | Hydra | Water | K2
C29 | Leo | Fire | K3(4)
C30 | Lepus | Earth | K5
C31 | Libra | Air | K15
C32 | Lupus | Earth | K13
C33 | Lyra | Water | K9
C34 | Ophiuchus | Air | K14
C35 | Orion | Fire | K7
C36 | Pegasus | Air | K16
C37 | Perseus | Earth | K15
C38 | Pisces | Water | K14
C39 | Piscis Austrinus | Water | K16
C40 | Sagitta | Fire | K8
C41 | Sagittarius | Fire | K13
C42 | Scorpius | Water | K6
C43 | Serpens | Fire | K10
C44 | Taurus | Earth | K16
C45 | Triangulum | Earth | K3(2)
C46 | Ursa Major | Earth | K4
C47 | Ursa Minor | Earth | K11
C48 | Virgo | Earth | K1
"""

# -- RULES.md's other numbers, as the page writes them ------------------------------------------

STAR_DISTRIBUTION = {4: 4, 5: 8, 6: 12, 7: 12, 8: 8, 9: 4}  # M2
ELEMENT_MEAN, ELEMENT_MEAN_TOLERANCE = 6.5, 0.09  # M2
CYCLE_CARDS = 7  # M3
LONGEST_CHAIN_FROM_EMPTY = 6  # M3, n >= 6
GRAND_TOTAL = 69  # M4, M8
FAME_ADJUSTMENTS = {"K1": -1, "K5": -1, "K13": -1, "K3(2)": 1, "K3(3)": 1, "K8": 1, "K11": 1}
AMOUNTS = {  # M5, inclusive
    "Fame": (2, 5),
    "Stardust": (2, 4),
    "Observation": (1, 2),
    "Improvement": (1, 1),
    "Wisdom": (1, 1),
    "Activation": (1, 2),
}
POINTS = {
    "Fame": 2,
    "Stardust": 1,
    "Observation": 4,
    "Improvement": 6,
    "Wisdom": 4,
    "Activation": 4,
}
WISDOM_BOONS = 31  # M8
KIND_COUNTS = {  # M7
    "K1": 3, "K2": 3, "K3(4)": 2, "K3(3)": 2, "K3(2)": 2, "K4": 3, "K5": 3, "K6": 3, "K7": 3,
    "K8": 2, "K9": 3, "K10": 3, "K11": 3, "K12": 2, "K13": 3, "K14": 3, "K15": 2, "K16": 3,
}  # fmt: skip
KIND_NAMES = (  # K1..K16, "Ability effects"
    "Star Burst", "Grand Sieve", "Windfall", "Forge", "Three Lights", "Free Sight", "Grand Fame",
    "Insight", "Presence", "Spark", "Lens", "Deep Pouch", "Full Rest", "Twin Lights", "Harmony",
    "Common Path",
)  # fmt: skip
FINAL_SCORING = {  # M10
    "FS1": {"Fire", "Water"},
    "FS2": {"Fire", "Air"},
    "FS3": {"Fire", "Earth"},
    "FS4": {"Water", "Air"},
    "FS5": {"Water", "Earth"},
    "FS6": {"Air", "Earth"},
}
SPOTS = (0, 2, 6, 11, 16, 21, 25, 29, 33)  # M10, spots 1-9
DECK_SPLIT = {2: (29, 19), 3: (25, 23), 4: (18, 30), 5: (11, 37)}  # S2: (below, above)
DECK_AFTER_SETUP = {2: 15, 3: 18, 4: 24, 5: 30}  # S6

# -- the page's block, parsed here --------------------------------------------------------------

Row = dict[str, Any]


def parse_line(line: str) -> Row:
    """One line of the block, in the data file's shape (M11's ten fields)."""
    fields = [field.strip() for field in line.split("|")]
    assert len(fields) == 10, line
    number, name, element, stars, fame, grand, lines, positions, boons, kind = fields
    ability: dict[str, Any] = {"kind": KIND_NAMES[int(kind[1:].split("(")[0]) - 1]}
    if "(" in kind:
        ability["amount"] = int(kind[kind.index("(") + 1 : -1])
    return {
        "number": int(number),
        "name": name,
        "element": element,
        "stars": int(stars),
        "final_fame": int(fame),
        "grand": [int(star) for star in grand.split(",")],
        "lines": [[int(star) for star in pair.split("-")] for pair in lines.split()],
        "positions": parse_positions(positions, int(stars)),
        "boons": [
            {"kind": boon.rsplit(" ", 1)[0], "amount": int(boon.rsplit(" ", 1)[1])}
            for boon in boons.split(", ")
        ],
        "ability": ability,
    }


def parse_positions(text: str, stars: int) -> list[list[int]]:
    """``star:x,y`` for every star, each once, written in star order."""
    items = [item.split(":") for item in text.split()]
    assert [int(star) for star, _ in items] == list(range(stars)), text
    return [[int(v) for v in xy.split(",")] for _, xy in items]


BLOCK: list[Row] = [parse_line(line) for line in PAGE_BLOCK.splitlines()]


def page_spelling(raw: Row) -> Row:
    """A card of the data file spelt as the page spells it: "Air", "Fame", "Star Burst"."""
    row = copy.deepcopy(raw)
    row["element"] = row["element"].capitalize()
    for boon in row["boons"]:
        boon["kind"] = boon["kind"].capitalize()
    row["ability"]["kind"] = row["ability"]["kind"].replace("_", " ").title()
    return row


def block_line(card: Card) -> str:
    """A loaded card written back as its line of the block (M11)."""
    kind = card.ability.kind.rule
    if card.ability.amount is not None:
        kind += f"({card.ability.amount})"
    return " | ".join(
        [
            f"{card.number:02d}",
            card.name,
            card.element.value.capitalize(),
            str(card.stars),
            str(card.final_fame),
            ",".join(str(star) for star in card.grand),
            " ".join(f"{a}-{b}" for a, b in card.lines),
            " ".join(f"{i}:{x},{y}" for i, (x, y) in enumerate(card.positions)),
            ", ".join(f"{boon.kind.value.capitalize()} {boon.amount}" for boon in card.boons),
            kind,
        ]
    )


def group_of(row: Row) -> str:
    """The Ability group of M2/M6 as the block writes it."""
    number = KIND_NAMES.index(row["ability"]["kind"]) + 1
    amount = row["ability"].get("amount")
    return f"K{number}" if amount is None else f"K{number}({amount})"


def groups() -> dict[str, list[Row]]:
    found: dict[str, list[Row]] = defaultdict(list)
    for row in BLOCK:
        found[group_of(row)].append(row)
    return dict(found)


# -- graphs and chains, searched here -------------------------------------------------------------


def neighbours(row: Row) -> dict[int, set[int]]:
    found: dict[int, set[int]] = {star: set() for star in range(row["stars"])}
    for a, b in row["lines"]:
        found[a].add(b)
        found[b].add(a)
    return found


def reached(row: Row) -> set[int]:
    """The stars a walk along the lines reaches from star 0."""
    graph, seen, todo = neighbours(row), {0}, [0]
    while todo:
        for star in graph[todo.pop()] - seen:
            seen.add(star)
            todo.append(star)
    return seen


def chains_from_start(graph: dict[int, set[int]]) -> Iterable[tuple[int, ...]]:
    """Every chain one Observe action can mark on an empty card (O3, O4): it starts at star 0
    and each further star is unmarked and adjacent to the star before it. Exhaustive."""
    stack: list[tuple[int, ...]] = [(0,)]
    while stack:
        chain = stack.pop()
        yield chain
        stack.extend(chain + (star,) for star in graph[chain[-1]] if star not in chain)


def longest_chain(row: Row) -> int:
    return max(len(chain) for chain in chains_from_start(neighbours(row)))


# -- integer geometry on the card grid -----------------------------------------------------------

Point = tuple[int, int]


def cross(o: Point, a: Point, b: Point) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def strictly_inside(p: Point, a: Point, b: Point) -> bool:
    """``p`` lies on segment a-b, not at an end."""
    return (
        cross(a, b, p) == 0
        and min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
        and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])
        and p not in (a, b)
    )


def cross_properly(s: tuple[Point, Point], t: tuple[Point, Point]) -> bool:
    """The two segments cross at a point inside both."""
    (a, b), (c, d) = s, t
    return cross(c, d, a) * cross(c, d, b) < 0 and cross(a, b, c) * cross(a, b, d) < 0


def is_diagonal(a: Point, b: Point) -> bool:
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


# -- M11, M12: the block and the data file ----------------------------------------------------------


def test_m11_the_page_block_parses_to_48_cards_numbered_01_to_48() -> None:
    """M11, M12: 48 lines of ten fields, numbered 1..48 in order."""
    assert len(BLOCK) == 48
    assert [row["number"] for row in BLOCK] == list(range(1, 49))


def test_m12_the_data_file_equals_the_page_block() -> None:
    """M12: every card of ``data/cards.json``, spelt as the page spells it, is its line of
    the block: number, name, Element, stars, Fame, Grand stars, lines, positions, Boons in box
    order, Ability."""
    assert [page_spelling(raw) for raw in RAW["cards"]] == BLOCK


def test_m12_every_loaded_card_writes_back_as_its_line_of_the_block() -> None:
    """M11, M12: what ``cards.py`` loads says the same as the page, field for field."""
    assert [block_line(card) for card in CARDS] == PAGE_BLOCK.splitlines()


def test_m12_the_parser_reads_a_line_as_the_page_means_it() -> None:
    """M11: the test's own parser on card 46 (Ursa Major, worked example 1)."""
    row = BLOCK[45]
    assert row["name"] == "Ursa Major" and row["stars"] == 7 and row["grand"] == [3, 6]
    assert row["lines"] == [[0, 1], [1, 2], [2, 3], [3, 4], [3, 5], [5, 6]]
    assert row["positions"][6] == [0, 0]
    assert row["boons"][0] == {"kind": "Fame", "amount": 5}
    assert row["ability"] == {"kind": "Forge"}
    assert BLOCK[2]["ability"] == {"kind": "Windfall", "amount": 4}  # Aquila, K3(4)


# -- M1: names and numbers -----------------------------------------------------------------------


def test_m1_the_names_are_c1_to_c48_in_that_order_each_once() -> None:
    """M1, M12: card n is the card of rule Cn, and no name is given twice."""
    c_rules = [line.split(" | ") for line in C_RULES.splitlines()]
    assert [rule for rule, *_ in c_rules] == [f"C{n}" for n in range(1, 49)]
    assert [row["name"] for row in BLOCK] == [name for _, name, _, _ in c_rules]
    assert len({row["name"] for row in BLOCK}) == 48


def test_m1_card_numbers_follow_alphabetical_order_with_bootes_sorted_as_bootes() -> None:
    """M1: numbers 01-48 follow alphabetical order, "Boötes" sorted as "Bootes"."""
    names = [row["name"] for row in BLOCK]
    assert names == sorted(names, key=lambda name: name.replace("ö", "o"))
    assert names.index("Boötes") == 7


def test_c1_c48_each_card_has_the_element_and_ability_its_c_rule_names() -> None:
    """C1-C48, M6, M7: the block's Element and kind agree with the Abilities' list."""
    c_rules = [line.split(" | ") for line in C_RULES.splitlines()]
    assert [(row["element"], group_of(row)) for row in BLOCK] == [
        (element, kind) for _, _, element, kind in c_rules
    ]


# -- M2: stars -------------------------------------------------------------------------------------


def test_m2_star_counts_are_4_to_9_distributed_4_8_12_12_8_4() -> None:
    """M2: 4 stars x4, 5 x8, 6 x12, 7 x12, 8 x8, 9 x4 (mean 6.5)."""
    counts = Counter(row["stars"] for row in BLOCK)
    assert dict(counts) == STAR_DISTRIBUTION
    assert sum(row["stars"] for row in BLOCK) / 48 == 6.5


def test_m2_stars_are_numbered_0_to_n_minus_1_and_star_0_is_the_starting_star() -> None:
    """M2, M11: every star 0..n-1 has a position and no other star is named; star 0 is the
    Starting star."""
    for row in BLOCK:
        named = {star for line in row["lines"] for star in line} | set(row["grand"])
        assert named <= set(range(row["stars"])), row["name"]
        assert len(row["positions"]) == row["stars"], row["name"]
    assert {card.star_type(0) for card in CARDS} == {StarType.STARTING}


def test_m2_no_two_cards_of_one_ability_group_have_the_same_star_count() -> None:
    """M2: within one Ability group (K3(2), K3(3), K3(4) apart) the star counts differ."""
    offenders = {
        kind: [(row["name"], row["stars"]) for row in rows]
        for kind, rows in groups().items()
        if len({row["stars"] for row in rows}) != len(rows)
    }
    assert offenders == {}


def test_m2_the_mean_star_count_per_element_is_6_5_within_0_09() -> None:
    """M2: per Element the mean star count is 6.5 +- 0.09."""
    by_element: dict[str, list[int]] = defaultdict(list)
    for row in BLOCK:
        by_element[row["element"]].append(row["stars"])
    means = {element: sum(ns) / len(ns) for element, ns in by_element.items()}
    assert set(means) == {"Fire", "Water", "Air", "Earth"}
    far = {e: m for e, m in means.items() if abs(m - ELEMENT_MEAN) > ELEMENT_MEAN_TOLERANCE}
    assert far == {}


# -- M3: lines, layout, chains --------------------------------------------------------------------


def test_m3_every_card_graph_is_connected() -> None:
    """M3, O13: a walk along the lines from star 0 reaches every star."""
    assert [row["name"] for row in BLOCK if len(reached(row)) != row["stars"]] == []


def test_m3_every_card_graph_is_simple() -> None:
    """M3: no line joins a star to itself and no line is there twice."""
    offenders = [
        row["name"]
        for row in BLOCK
        if any(a == b for a, b in row["lines"])
        or len({frozenset(line) for line in row["lines"]}) != len(row["lines"])
    ]
    assert offenders == []


def test_m3_each_graph_is_a_tree_or_a_tree_plus_one_line_and_7_cards_have_a_cycle() -> None:
    """M3: n - 1 or n lines (connected, so a tree or one cycle); exactly 7 cards have n."""
    extra = {row["name"]: len(row["lines"]) - (row["stars"] - 1) for row in BLOCK}
    assert set(extra.values()) <= {0, 1}
    assert sum(extra.values()) == CYCLE_CARDS


def test_m3_positions_are_distinct_grid_points_in_0_to_4() -> None:
    """M3: each star at x, y in 0..4, no two stars of a card at one point."""
    offenders = [
        row["name"]
        for row in BLOCK
        if any(not (0 <= v <= 4) for xy in row["positions"] for v in xy)
        or len({tuple(xy) for xy in row["positions"]}) != row["stars"]
    ]
    assert offenders == []


def test_m3_every_line_joins_grid_neighbours() -> None:
    """M3: the two ends of every line are orthogonal or diagonal neighbours."""
    offenders = []
    for row in BLOCK:
        for a, b in row["lines"]:
            (xa, ya), (xb, yb) = row["positions"][a], row["positions"][b]
            if max(abs(xa - xb), abs(ya - yb)) != 1:
                offenders.append((row["name"], a, b))
    assert offenders == []


def test_m3_no_star_lies_on_another_line() -> None:
    """M3: no star is inside a line it does not end (checked geometrically)."""
    offenders = []
    for row in BLOCK:
        points = [tuple(xy) for xy in row["positions"]]
        for a, b in row["lines"]:
            for star, p in enumerate(points):
                if strictly_inside(p, points[a], points[b]):
                    offenders.append((row["name"], star, (a, b)))
    assert offenders == []


def test_m3_two_diagonal_lines_never_cross() -> None:
    """M3: no two diagonal lines of a card cross (the X of a 2 x 2 block)."""
    offenders = []
    for row in BLOCK:
        points = [tuple(xy) for xy in row["positions"]]
        diagonals = [
            (points[a], points[b]) for a, b in row["lines"] if is_diagonal(points[a], points[b])
        ]
        for s, t in combinations(diagonals, 2):
            if cross_properly(s, t):
                offenders.append((row["name"], s, t))
    assert offenders == []


def test_m3_the_geometry_sees_a_crossing_and_a_star_on_a_line() -> None:
    """M3: the checks above do see what they forbid."""
    assert cross_properly(((0, 0), (1, 1)), ((0, 1), (1, 0)))
    assert not cross_properly(((0, 0), (1, 1)), ((1, 0), (2, 1)))
    assert strictly_inside((1, 1), (0, 0), (2, 2))
    assert not strictly_inside((2, 2), (0, 0), (2, 2))


def test_m3_o4_the_chain_search_follows_the_marking_rules() -> None:
    """M3, O3, O4: the exhaustive search on small graphs: a chain starts at star 0 and never
    revisits a star; a star touching only earlier stars cannot be next."""
    path = {0: {1}, 1: {0, 2}, 2: {1}}
    star = {0: {1, 2, 3}, 1: {0}, 2: {0}, 3: {0}}
    triangle = {0: {1, 2}, 1: {0, 2}, 2: {0, 1}}
    assert max(map(len, chains_from_start(path))) == 3
    assert max(map(len, chains_from_start(star))) == 2
    assert set(chains_from_start(triangle)) == {(0,), (0, 1), (0, 2), (0, 1, 2), (0, 2, 1)}


def test_m3_with_6_or_more_stars_no_chain_from_star_0_covers_the_card_nor_passes_6() -> None:
    """M3: for n >= 6, by exhaustive search from star 0, the longest chain is at most 6 stars
    and shorter than n (the card cannot be completed by one Observe action from empty)."""
    offenders = {
        row["name"]: (row["stars"], longest_chain(row))
        for row in BLOCK
        if row["stars"] >= 6
        and (longest_chain(row) >= row["stars"] or longest_chain(row) > LONGEST_CHAIN_FROM_EMPTY)
    }
    assert offenders == {}


def test_m3_with_5_or_fewer_stars_some_chain_from_star_0_covers_n_minus_1() -> None:
    """M3: for n <= 5, some chain from star 0 covers at least n - 1 stars."""
    offenders = {
        row["name"]: (row["stars"], longest_chain(row))
        for row in BLOCK
        if row["stars"] <= 5 and longest_chain(row) < row["stars"] - 1
    }
    assert offenders == {}


def test_m3_example_1_ursa_major_takes_two_observe_actions() -> None:
    """M3, worked example 1: Ursa Major's longest chain from empty is 6 of its 7 stars."""
    assert longest_chain(BLOCK[45]) == 6
    assert (0, 1, 2, 3, 4) in set(chains_from_start(neighbours(BLOCK[45])))


# -- M4: Grand stars and Final Scoring Fame ---------------------------------------------------------


def test_m4_grand_stars_are_never_star_0_and_number_1_or_2_by_star_count() -> None:
    """M4: 1 Grand star if n <= 5; 1 or 2 if n is 6 or 7; 2 if n >= 8; 69 in all."""
    allowed = {4: {1}, 5: {1}, 6: {1, 2}, 7: {1, 2}, 8: {2}, 9: {2}}
    offenders = [
        row["name"]
        for row in BLOCK
        if 0 in row["grand"]
        or len(set(row["grand"])) != len(row["grand"])
        or len(row["grand"]) not in allowed[row["stars"]]
    ]
    assert offenders == []
    assert sum(len(row["grand"]) for row in BLOCK) == GRAND_TOTAL


def test_m4_every_star_is_exactly_one_of_starting_grand_common() -> None:
    """M4, Words: star 0 Starting, the Grand column Grand, every other star Common."""
    for card in CARDS:
        types = [card.star_type(star) for star in range(card.stars)]
        assert types[0] is StarType.STARTING
        assert [s for s, t in enumerate(types) if t is StarType.GRAND] == sorted(card.grand)
        assert types.count(StarType.COMMON) == card.stars - 1 - len(card.grand)


def test_m4_final_scoring_fame_is_n_minus_3_plus_the_ability_adjustment_at_least_1() -> None:
    """M4: Fame = max(1, n - 3 + adj), adj -1 for K1, K5, K13; +1 for K3(2), K3(3), K8, K11."""
    offenders = {
        row["name"]: row["final_fame"]
        for row in BLOCK
        if row["final_fame"] != max(1, row["stars"] - 3 + FAME_ADJUSTMENTS.get(group_of(row), 0))
    }
    assert offenders == {}


@pytest.mark.parametrize(
    ("name", "fame"),
    [
        ("Lupus", 1),  # 4 stars, K13: 4 - 3 - 1 = 0, raised to 1
        ("Eridanus", 1),  # 5 stars, K1: 1
        ("Canis Minor", 5),  # 7 stars, K8: 5
        ("Aries", 6),  # 8 stars, K3(3): 6
        ("Aquila", 5),  # 8 stars, K3(4): no adjustment
        ("Virgo", 4),  # 8 stars, K1: 4
    ],
)
def test_m4_the_adjustments_and_the_floor_of_1_show_on_the_cards(name: str, fame: int) -> None:
    """M4: cards where the adjustment or the floor of 1 decides the Fame; the loader agrees."""
    assert BY_NAME[name].final_fame == fame
    assert cards.final_fame_for(BY_NAME[name].stars, BY_NAME[name].ability) == fame


# -- M5: Boons ---------------------------------------------------------------------------------------


def boon_points(boon: dict[str, Any]) -> int:
    return int(POINTS[boon["kind"]] * boon["amount"])


def test_m5_every_card_has_4_boxes_of_4_different_types() -> None:
    """M5, B1: four boxes, four different types per card."""
    offenders = [
        row["name"]
        for row in BLOCK
        if len(row["boons"]) != 4 or len({boon["kind"] for boon in row["boons"]}) != 4
    ]
    assert offenders == []


def test_m5_every_boon_amount_is_allowed_for_its_type() -> None:
    """M5: Fame 2-5, Stardust 2-4, Observation 1-2, Improvement 1, Wisdom 1, Activation 1-2."""
    offenders = [
        (row["name"], boon)
        for row in BLOCK
        for boon in row["boons"]
        if boon["kind"] not in AMOUNTS
        or not AMOUNTS[boon["kind"]][0] <= boon["amount"] <= AMOUNTS[boon["kind"]][1]
    ]
    assert offenders == []


def test_m5_a_cards_four_boxes_total_2n_plus_8_points_within_1() -> None:
    """M5: points Fame 2, Stardust 1, Observation 4, Improvement 6, Wisdom 4, Activation 4
    per unit; the four boxes total 2n + 8 +- 1."""
    offenders = {
        row["name"]: (sum(map(boon_points, row["boons"])), 2 * row["stars"] + 8)
        for row in BLOCK
        if abs(sum(map(boon_points, row["boons"])) - (2 * row["stars"] + 8)) > 1
    }
    assert offenders == {}


def test_m5_boxes_run_left_to_right_by_non_increasing_points() -> None:
    """M5, V3: box points never rise left to right, so boxes 1+2 are worth at least 3+4
    (the pair the dreamer rule removes is the better one)."""
    offenders = []
    for row in BLOCK:
        points = [boon_points(boon) for boon in row["boons"]]
        if points != sorted(points, reverse=True) or points[0] + points[1] < sum(points[2:]):
            offenders.append((row["name"], points))
    assert offenders == []


def test_m5_the_rules_package_holds_the_pages_amounts_and_points() -> None:
    """M5: ``cards.BOON_AMOUNTS`` and ``BOON_POINTS`` are the page's, and a Boon measures
    itself with them."""
    assert {kind.label: (r.start, r.stop - 1) for kind, r in BOON_AMOUNTS.items()} == AMOUNTS
    assert {kind.label: points for kind, points in BOON_POINTS.items()} == POINTS
    assert {kind.label for kind in BoonKind} == set(POINTS)
    assert [boon.points for boon in BY_NAME["Cetus"].boons] == [10, 6, 4, 2]
    assert [boon.label for boon in BY_NAME["Lyra"].boons] == [
        "Wisdom 1",
        "Stardust 4",
        "Observation 1",
        "Fame 2",
    ]


# -- M6: Elements ------------------------------------------------------------------------------------


def test_m6_twelve_cards_of_each_element() -> None:
    """M6: 12 cards each of Fire, Water, Air, Earth."""
    assert Counter(row["element"] for row in BLOCK) == {
        "Fire": 12,
        "Water": 12,
        "Air": 12,
        "Earth": 12,
    }


def test_m6_the_cards_of_one_ability_group_have_different_elements() -> None:
    """M6: within each Ability group (M2) no Element twice."""
    offenders = {
        kind: [row["element"] for row in rows]
        for kind, rows in groups().items()
        if len({row["element"] for row in rows}) != len(rows)
    }
    assert offenders == {}


def test_m6_each_element_is_missed_by_3_triples_and_covered_3_times_by_the_pairs() -> None:
    """M6: a 3-card group misses exactly one Element, each Element missed by three of the
    twelve; the six 2-card groups cover each Element three times."""
    triples = [rows for rows in groups().values() if len(rows) == 3]
    pairs = [rows for rows in groups().values() if len(rows) == 2]
    assert (len(triples), len(pairs)) == (12, 6)
    every = {"Fire", "Water", "Air", "Earth"}
    missed = Counter(e for rows in triples for e in every - {row["element"] for row in rows})
    covered = Counter(row["element"] for rows in pairs for row in rows)
    assert missed == dict.fromkeys(every, 3)
    assert covered == dict.fromkeys(every, 3)


# -- M7: Ability kinds -------------------------------------------------------------------------------


def test_m7_ability_kinds_per_card_are_counted_as_the_appendix_groups_them() -> None:
    """M7: K1 x3, K2 x3, K3(4) x2, K3(3) x2, K3(2) x2, K4 x3, ... K16 x3."""
    assert Counter(group_of(row) for row in BLOCK) == KIND_COUNTS
    assert Counter(card.ability.group for card in CARDS) == KIND_COUNTS


def test_m7_the_sixteen_kinds_are_k1_to_k16_in_the_pages_order() -> None:
    """M7, K1-K16: ``AbilityKind`` names the 16 kinds, each with its K-rule."""
    assert [kind.value.replace("_", " ").title() for kind in AbilityKind] == list(KIND_NAMES)
    assert [kind.rule for kind in AbilityKind] == [f"K{n}" for n in range(1, 17)]
    windfalls = {card.name: card.ability.amount for card in CARDS if card.ability.amount}
    assert set(windfalls) == {c.name for c in CARDS if c.ability.kind is AbilityKind.WINDFALL}


# -- M8, J3, J4: tracks ------------------------------------------------------------------------------


def test_j3_m8_the_pouch_track_is_printed_5_to_12() -> None:
    """J3, M8: 8 spots printed 5..12; 7 gains to the top."""
    assert POUCH_SPOTS == (5, 6, 7, 8, 9, 10, 11, 12)
    assert boards.POUCH_GAINS_TO_TOP == 7


@pytest.mark.parametrize("gains", range(0, 15))
def test_j3_pouch_size_is_5_plus_gains_at_most_12(gains: int) -> None:
    """J3: Pouch size = 5 + gains, at most 12; gains beyond 12 are lost."""
    assert pouch_size(gains) == min(5 + gains, 12)


def test_j4_m8_the_wisdom_track_is_printed_2_3_dash_4_dash_to_8() -> None:
    """J4, M8: 12 spots printed 2*, 3, -, 4, -, 5, -, 6, -, 7, -, 8; 11 gains to the top."""
    printed = ["2", "3", "-", "4", "-", "5", "-", "6", "-", "7", "-", "8"]
    assert [str(n) if n is not None else "-" for n in WISDOM_SPOTS] == printed
    assert boards.WISDOM_GAINS_TO_TOP == 11


@pytest.mark.parametrize("wisdom", range(0, 16))
def test_j4_card_limit_is_2_plus_half_the_wisdom_rounded_up_at_most_8(wisdom: int) -> None:
    """J4: with w Wisdom gained the card limit is 2 + ceil(w/2), never above 8."""
    assert card_limit(wisdom) == min(2 + math.ceil(wisdom / 2), 8)


def test_m8_the_first_wisdom_opens_a_third_card_then_every_two_one_more() -> None:
    """M8: the start spot opens two cards; spot 1 a third; then every second spot one more;
    all the spots marked together open the card limit."""
    opened = [card_slots_opened(spot) for spot in range(12)]
    assert opened == [2, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]
    assert all(sum(opened[: w + 1]) == card_limit(w) for w in range(12))
    with pytest.raises(ValueError):
        card_slots_opened(12)


def test_m8_the_reason_69_grand_stars_and_31_wisdom_boons() -> None:
    """M8: the deck holds 69 Grand stars and 31 Wisdom Boons, the numbers the track's
    one-card-per-two-Wisdom pace is set against."""
    assert sum(len(row["grand"]) for row in BLOCK) == GRAND_TOTAL
    wisdom = sum(1 for row in BLOCK for boon in row["boons"] if boon["kind"] == "Wisdom")
    assert wisdom == WISDOM_BOONS


def test_j1_j2_j5_s4_the_journal_starts_with_8_stardust_0_telescopes_0_fame() -> None:
    """J1, J2, J5, S4: 8 Stardust, 0 Telescopes, Pouch size 5, card limit 2, Fame 0."""
    assert (boards.STARTING_STARDUST, boards.STARTING_TELESCOPES, boards.STARTING_FAME) == (8, 0, 0)
    assert (pouch_size(0), card_limit(0)) == (5, 2)


def test_j3_j4_a_track_refuses_negative_gains() -> None:
    """J3, J4: a track only gains."""
    with pytest.raises(ValueError):
        pouch_size(-1)
    with pytest.raises(ValueError):
        card_limit(-1)


# -- M9, S1, S2, S6, V2: Sphere boards --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_m9_s1_each_side_has_n_plus_1_slots_and_the_spheres_fire_air_water_earth(
    players: int,
) -> None:
    """M9, S1: the side for N players has N + 1 slots; Spheres clockwise from the top Fire,
    Air, Water, Earth; the discard icon between Earth and Fire."""
    board = SPHERE_BOARDS[players]
    assert (board.players, board.slots) == (players, players + 1)
    assert [sphere.label for sphere in board.spheres] == ["Fire", "Air", "Water", "Earth"]
    assert board.discard_after is Element.EARTH
    assert board.next_sphere(board.discard_after) is Element.FIRE


def test_m9_only_the_four_player_counts_have_a_side() -> None:
    """M9, P1: four sides, for 2, 3, 4 and 5 players."""
    assert sorted(SPHERE_BOARDS) == [2, 3, 4, 5]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_m9_r5_the_marker_goes_round_and_only_earth_to_fire_passes_the_discard(
    players: int,
) -> None:
    """M9, R5: Fire -> Air -> Water -> Earth -> Fire; only Earth -> Fire passes the icon."""
    board = SPHERE_BOARDS[players]
    steps = [Element.FIRE]
    for _ in range(4):
        steps.append(board.next_sphere(steps[-1]))
    assert [s.label for s in steps] == ["Fire", "Air", "Water", "Earth", "Fire"]
    assert [board.passes_discard(s) for s in steps[:4]] == [False, False, False, True]


def test_m9_v2_only_the_two_player_side_numbers_its_spheres() -> None:
    """M9, V2: Fire 1, Air 2, Water 3, Earth 4 on the 2-player side; no numbers elsewhere."""
    two = SPHERE_BOARDS[2]
    assert {s.label: two.number(s) for s in Element} == {
        "Fire": 1,
        "Air": 2,
        "Water": 3,
        "Earth": 4,
    }
    for players in (3, 4, 5):
        assert {SPHERE_BOARDS[players].number(s) for s in Element} == {None}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_s2_s6_the_game_end_card_lies_below_the_pages_count(players: int) -> None:
    """S2, S6: the top part above the Game End card and the bottom part below it make 48;
    after the discard (S3) and the N + 1 slots (S6) the top part holds 15, 18, 24, 30."""
    below, above = DECK_SPLIT[players]
    assert ABOVE_GAME_END[players] == above
    assert below + above == len(CARDS) == 48
    assert above - 1 - SPHERE_BOARDS[players].slots == DECK_AFTER_SETUP[players]


# -- M10, F4, F5: Final Scoring cards -----------------------------------------------------------------


def test_m10_six_final_scoring_cards_one_for_each_pair_of_elements() -> None:
    """M10: FS1 Fire+Water, FS2 Fire+Air, FS3 Fire+Earth, FS4 Water+Air, FS5 Water+Earth,
    FS6 Air+Earth: the six pairs, each once."""
    found = {fs.id: {e.label for e in fs.premarked} for fs in FINAL_SCORING_CARDS}
    assert found == FINAL_SCORING
    assert {frozenset(p) for p in found.values()} == {
        frozenset(p) for p in combinations(["Fire", "Water", "Air", "Earth"], 2)
    }


def test_m10_rows_fire_water_air_earth_nine_spots_valued_0_2_6_11_16_21_25_29_33() -> None:
    """M10, F4: rows top to bottom Fire, Water, Air, Earth; 9 spots (1 pre-mark + 8 cards,
    the most the card limit allows); the values over spots 1-9."""
    assert [row.label for row in ROWS] == ["Fire", "Water", "Air", "Earth"]
    assert SPOT_VALUES == SPOTS
    assert len(SPOT_VALUES) == 1 + card_limit(boards.WISDOM_GAINS_TO_TOP)
    assert [row_value(k) for k in range(10)] == [0, *SPOTS]
    with pytest.raises(ValueError):
        row_value(10)


def test_m10_spots_5_to_9_rise_by_no_more_than_the_step_before() -> None:
    """M10: spots 1-4 fixed by the source (0, 2, 6, 11); 5-9 rise +5, +5, +4, +4, +4, each
    step no larger than the one before it."""
    assert SPOTS[:4] == (0, 2, 6, 11)
    steps = [b - a for a, b in zip(SPOTS, SPOTS[1:], strict=False)]
    assert steps[3:] == [5, 5, 4, 4, 4]
    assert all(later <= earlier for earlier, later in zip(steps[2:], steps[3:], strict=False))


def test_f5_a_column_of_3_marks_scores_3_and_of_4_scores_6() -> None:
    """F5, M10: exactly 3 marks 3 Fame, 4 marks 6 Fame, otherwise 0."""
    assert COLUMN_BONUS == {3: 3, 4: 6}
    assert [column_value(k) for k in range(5)] == [0, 0, 0, 3, 6]


def test_f3_f4_f5_example_3_matthews_cards_score_23_active_and_28_for_elements() -> None:
    """F3, F4, F5, M4, M10, worked example 3: FS2 with Aquila, Libra, Gemini, Taurus, Lupus,
    Cetus, Lyra, Crater: rows Air 4 -> 11, Earth 2 -> 2, Fire 1 -> 0, Water 3 -> 6; columns
    6 + 3; Elements 28; Active cards (Libra and Lyra exhausted) 23."""
    held = ["Aquila", "Libra", "Gemini", "Taurus", "Lupus", "Cetus", "Lyra", "Crater"]
    fs2 = FINAL_SCORING_CARDS[1]
    elements = [BY_NAME[name].element for name in held]
    marks = row_marks(fs2, elements)
    assert {row.label: k for row, k in marks.items()} == {
        "Fire": 1,
        "Water": 3,
        "Air": 4,
        "Earth": 2,
    }
    assert sum(row_value(k) for k in marks.values()) == 19
    assert elements_fame(fs2, elements) == 28
    fames = {name: BY_NAME[name].final_fame for name in held}
    assert fames == {
        "Aquila": 5,
        "Libra": 4,
        "Gemini": 3,
        "Taurus": 6,
        "Lupus": 1,
        "Cetus": 4,
        "Lyra": 1,
        "Crater": 4,
    }
    assert sum(f for name, f in fames.items() if name not in ("Libra", "Lyra")) == 23


# -- the worked examples' cards ---------------------------------------------------------------------


def test_examples_1_2_4_the_cards_they_name_are_the_blocks() -> None:
    """Worked examples 1, 2 and 4: Ursa Major, Cetus, Lyra, Draco, Leo and Hydra as the
    examples describe them."""
    ursa, cetus, lyra = BY_NAME["Ursa Major"], BY_NAME["Cetus"], BY_NAME["Lyra"]
    assert (ursa.number, ursa.stars, ursa.grand) == (46, 7, (3, 6))
    assert ursa.neighbours(6) == {5}
    assert (cetus.number, cetus.stars, cetus.grand) == (16, 7, (2,))
    assert [b.label for b in cetus.boons] == [
        "Fame 5",
        "Improvement 1",
        "Observation 1",
        "Stardust 2",
    ]
    assert (lyra.number, lyra.stars, lyra.grand, lyra.lines) == (
        33,
        4,
        (2,),
        ((0, 1), (0, 2), (2, 3)),
    )
    assert [BY_NAME[n].stars for n in ("Draco", "Leo", "Hydra")] == [8, 5, 5]


# -- cards.py: adjacency and the checking function ---------------------------------------------------


def test_words_adjacent_means_joined_by_one_line() -> None:
    """Words (Adjacent), O4: ``neighbours`` and ``adjacent`` read the lines, both ways."""
    ursa = BY_NAME["Ursa Major"]
    assert ursa.neighbours(3) == {2, 4, 5}
    assert ursa.adjacent(3, 5) and ursa.adjacent(5, 3)
    assert not ursa.adjacent(4, 5)
    for card in CARDS:
        degree = sum(len(card.neighbours(star)) for star in range(card.stars))
        assert degree == 2 * len(card.lines), card.name
    with pytest.raises(ValueError):
        ursa.neighbours(7)


def spoiled(change: str) -> dict[str, Any]:
    raw = copy.deepcopy(RAW)
    card = raw["cards"][15]  # Cetus: 7 stars, K10, Fame 4
    match change:
        case "fame":
            card["final_fame"] = 5
        case "line to no star":
            card["lines"].append([6, 7])
        case "line twice":
            card["lines"].append([1, 0])
        case "grand star 0":
            card["grand"] = [0]
        case "boon amount":
            card["boons"][0]["amount"] = 6
        case "windfall amount":
            card["ability"] = {"kind": "windfall"}
        case "element":
            card["element"] = "aether"
        case "positions":
            card["positions"].pop()
        case "position off the grid":
            card["positions"][0] = [5, 0]
        case "order":
            raw["cards"][0], raw["cards"][1] = raw["cards"][1], raw["cards"][0]
        case "count":
            raw["cards"].pop()
    return raw


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("fame", "M4 gives 4"),
        ("line to no star", "does not join two stars"),
        ("line twice", "is there twice"),
        ("grand star 0", "not distinct stars"),
        ("boon amount", "Fame 6 is not a Boon of M5"),
        ("windfall amount", "needs an amount"),
        ("element", "'aether' is none of"),
        ("positions", "6 positions for 7 stars"),
        ("position off the grid", "outside 0..4"),
        ("order", "expected 1-48 in order"),
        ("count", "list of 48"),
    ],
)
def test_m1_m5_check_cards_refuses_bad_data_saying_what(change: str, message: str) -> None:
    """M1-M5, M11: the loader stops on a spoiled file with a message naming the problem."""
    with pytest.raises(ValueError, match=message):
        check_cards(spoiled(change))


def test_m11_check_cards_accepts_the_file_as_it_is() -> None:
    """M11: the unspoiled file loads to the same cards as the module's."""
    assert check_cards(copy.deepcopy(RAW)) == CARDS


# -- purity ------------------------------------------------------------------------------------------


def test_astras_rules_are_pure() -> None:
    """I1-I3, "the contract for the pure rules": no module of ``games/astra/rules`` imports
    Django or anything beyond the standard library, the platform's pure kit (``games.kit``:
    refusals, the fold, hiding, the clock's guards) and the rules themselves; the platform's
    side (``game.py``, the presenters) lives beside them, never inside."""
    package = ROOT / "games" / "astra" / "rules"
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module == "games":
                names = [f"games.{alias.name}" for alias in node.names]  # from games import kit
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            outside = [n for n in names if n.split(".")[0] not in STDLIB | {"games"}]
            assert outside == [], f"{path.relative_to(ROOT)} imports {outside}"
            inside = ("games.astra.rules", "games.kit")
            assert all(n.startswith(inside) for n in names if n.startswith("games")), path
