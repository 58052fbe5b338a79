"""One way to read what a person sent: whole numbers, choices and free text.

Every form field and query parameter of every view goes through these functions, which
either return the value or raise ``BadInput`` carrying a message the sender can read (the
views answer it with a 400). Pure functions: no Django, no database.

The rules, the same everywhere:
- A whole number is written with the ASCII digits 0-9 and nothing else (an optional
  leading minus sign aside): no spaces around it (" 3 "), no other scripts' digits ("٣",
  "１"), no superscripts or circled digits ("²", "①"), no "0x10", "1e3" or "1.5". Browsers
  send our numbers from buttons, hidden fields and selects, so nothing else is legitimate.
  Too many digits are out of range, checked before anything converts them.
- A choice is one of a fixed set of strings, compared exactly.
- Free text (a name, a flag's reason) is NFKC-normalized and its whitespace collapsed, and
  it refuses control and formatting characters (NUL included), surrogates, private-use and
  unassigned characters, characters drawn as nothing (the Hangul fillers, the braille
  blank), and more than ``MAX_MARKS`` combining marks on one letter. A name must also hold
  a visible letter or digit. The reasons are single-line inputs: a newline is a control
  character like any other. The clue word is kept as typed (its rule W1 names what is
  wrong with its letters) but refused the same characters.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping
from typing import TypeVar

from .confusables import default_ignorable

T = TypeVar("T")

_WHOLE_NUMBER = re.compile(r"-?([0-9]+)")
MAX_DIGITS = 12  # more is out of every range we read, and never converted
MAX_MARKS = 2  # combining marks on one letter: enough for any script's diacritics
SLACK = 8  # free text this many times its cap is refused before NFKC (which may shrink it)
# Drawn blank, yet neither whitespace nor default-ignorable (the Hangul fillers U+115F,
# U+1160, U+3164 and U+FFA0 are default-ignorable, so refused through ``default_ignorable``).
_BLANKS = frozenset("\u2800")  # BRAILLE PATTERN BLANK
# The emoji and text presentation selectors, allowed right after a visible character (a
# phone keyboard sends ❤️ as U+2764 U+FE0F); the skeleton ignores them.
_PRESENTATION = frozenset("\ufe0e\ufe0f")
# Refused outright: Cc control (NUL, newline...), Cf format, Cs surrogate, Co private use,
# Cn unassigned (in this Python's Unicode version).
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
_UNKNOWN_CATEGORIES = frozenset({"Co", "Cn"})


class BadInput(ValueError):
    """Input a person sent that cannot be read, with the message to show them."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- whole numbers ---------------------------------------------------------------------------


def integer(raw: str | None, label: str, low: int, high: int) -> int:
    """``raw`` as a whole number from ``low`` to ``high``, or BadInput saying what is wrong."""
    if raw is None or raw == "":
        raise BadInput(f"Missing {label}.")
    found = _WHOLE_NUMBER.fullmatch(raw)
    if found is None:
        raise BadInput(f"The {label} must be a whole number written with the digits 0 to 9.")
    if len(found.group(1)) > MAX_DIGITS:
        raise BadInput(f"The {label} must be from {low} to {high}.")
    value = int(raw)
    if not low <= value <= high:
        raise BadInput(f"The {label} must be from {low} to {high}.")
    return value


# -- choices ---------------------------------------------------------------------------------


def choice(raw: str | None, choices: Mapping[str, T], message: str) -> T:
    """The value ``choices`` gives the string ``raw``, or BadInput with ``message``."""
    if raw is None or raw not in choices:
        raise BadInput(message)
    return choices[raw]


def one_of(raw: str | None, choices: Collection[str], message: str) -> str:
    """``raw`` itself if it is one of ``choices``, or BadInput with ``message``."""
    return choice(raw, {option: option for option in choices}, message)


# -- free text -------------------------------------------------------------------------------


def text(raw: str | None, label: str, max_length: int) -> str:
    """Free text, normalized: NFKC, whitespace collapsed, at most ``max_length``
    characters, none of them hidden or unknown; "" when nothing was sent."""
    if len(raw or "") > SLACK * max_length:  # far too long: not worth normalizing
        raise BadInput(f"The {label} is at most {max_length} characters.")
    normal = unicodedata.normalize("NFKC", raw or "")
    if refusal := hidden_character(normal, label):  # before a newline collapses to a space
        raise BadInput(refusal)
    cleaned = " ".join(normal.split())
    if refusal := stacked_marks(cleaned, label):
        raise BadInput(refusal)
    if len(cleaned) > max_length:
        raise BadInput(f"The {label} is at most {max_length} characters.")
    return cleaned


def name(raw: str | None, label: str = "name", max_length: int = 24) -> str:
    """A display name: free text with a visible letter or digit in it."""
    cleaned = text(raw, label, max_length)
    if not cleaned:
        raise BadInput(f"Choose a {label} of 1 to {max_length} characters.")
    if not any(_visible_letter(ch) for ch in cleaned):
        raise BadInput(f"A {label} needs at least one visible letter or digit.")
    return cleaned


def plain(raw: str | None, label: str, max_length: int) -> str:
    """Text kept exactly as typed (a clue word, whose own rules judge its letters), but
    refused when it holds hidden or unknown characters or is far too long."""
    raw = raw or ""
    if refusal := hidden_character(raw, label):
        raise BadInput(refusal)
    if len(raw) > max_length:
        raise BadInput(f"The {label} is at most {max_length} characters.")
    return raw


def hidden_character(value: str, label: str) -> str | None:
    """Why ``value`` cannot be taken as text (a control, formatting, blank, private-use or
    unassigned character in it), or None."""
    previous = " "
    for ch in value:
        category = unicodedata.category(ch)
        if ch in _PRESENTATION and not (previous.isspace() or previous in _PRESENTATION):
            previous = ch
            continue
        if category in _REFUSED_CATEGORIES or default_ignorable(ch) or ch in _BLANKS:
            return f"The {label} cannot hold control characters or invisible ones."
        previous = ch
        if category in _UNKNOWN_CATEGORIES:
            return f"The {label} cannot hold private-use or unassigned characters."
    return None


def stacked_marks(value: str, label: str) -> str | None:
    """Why the combining marks in ``value`` are refused (one with no letter under it, or
    more than ``MAX_MARKS`` on one letter), or None."""
    run = 0
    previous = " "
    for ch in unicodedata.normalize("NFD", value):  # "ệ" is e and two marks
        if not unicodedata.category(ch).startswith("M"):
            run, previous = 0, ch
            continue
        if run == 0 and previous == " ":
            return f"The {label} has an accent with no letter under it."
        run += 1
        if run > MAX_MARKS:
            return f"The {label} has too many accents on one letter (at most {MAX_MARKS})."
    return None


def _visible_letter(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LN" and ch not in _BLANKS and not default_ignorable(ch)
