"""Look-alike text: Unicode's confusable skeleton (UTS #39, section 4).

Two strings that a reader cannot tell apart, such as ``P1`` and ``Р1`` (its first letter
Cyrillic), have the same skeleton. Unicode's own mapping, ``data/confusables.txt``
(version 13.0.0, vendored unmodified with its licence), gives each confusable character its
prototype. No maintained Python package computes the skeleton itself: PyICU's SpoofChecker
does, but needs ICU built from source, and the pure packages only list homoglyphs.

Pure Python: the table is read once, on first use.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

_DATA = Path(__file__).with_name("data") / "confusables.txt"

# Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters drawn as nothing,
# such as the zero-width space, the Hangul fillers and the variation selectors.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def default_ignorable(ch: str) -> bool:
    """True for a character Unicode says to draw as nothing (Default_Ignorable_Code_Point)."""
    point = ord(ch)
    return any(low <= point <= high for low, high in _DEFAULT_IGNORABLE)


@functools.cache
def _prototypes() -> dict[int, str]:
    """Each confusable character's prototype, as a ``str.translate`` table."""
    table: dict[int, str] = {}
    with _DATA.open(encoding="utf-8-sig") as lines:
        for line in lines:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) < 2:
                continue
            source, target = fields[0].strip(), fields[1].split()
            table[int(source, 16)] = "".join(chr(int(point, 16)) for point in target)
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, drop default ignorables, map each character to its
    prototype, NFD again. Equal skeletons mean the two strings look alike."""
    decomposed = unicodedata.normalize("NFD", text)
    visible = "".join(ch for ch in decomposed if not default_ignorable(ch))
    return unicodedata.normalize("NFD", visible.translate(_prototypes()))


def lookalike_key(text: str) -> str:
    """A key equal for two strings that differ only by case or by look-alike characters
    (``Ada``, ``ADA``, ``Аda`` with a Cyrillic A, ``Ad\u0430``): the skeleton, case-folded,
    and the skeleton again (case folding can reach characters that have prototypes)."""
    return skeleton(skeleton(text).casefold()).casefold()
