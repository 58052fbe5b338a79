"""The clue check: may the Stargazer name this word on this table? (RULES.md W1-W8)

    check_clue(word, pictured, family=False) -> None when the word is accepted, else a reason
    set_blocklist(provider)    -> the moderators' blocklist hook (W3)

``pictured`` is the names of the 24 pictures on the table, lit or dark: one list per picture,
canonical name first, then its aliases, all lowercase (``[["bicycle", "bike"], ["moon"]]``).
The function never learns the key, and a reason only ever holds the word, picture names and
fixed text (only the Stargazer sees it, T3). Words and names are shown in capitals (W1).

Pure Python: no Django, no I/O after the first call. The word data (wordfreq's English list,
lemminflect's tables, the lists in ``data/``) is loaded once, on first use; call
``check_clue("warm", [])`` at start-up to pay that (~0.7 s) before the first player does.

ORDER OF CHECKS (the first failing rule gives the reason):

1. W1 form: everything else assumes a clean word of 2 to 10 letters A-Z.
2. W3 slurs and the moderators' blocklist: refused with the fixed text "That word is not
   allowed.", so a slur is never repeated back in a reason (every other reason shows the
   word), and a moderated word is refused the same way whatever else is true of it.
   At a family table (``family=True``, a host option) general profanity is refused next,
   with its own fixed text that does not repeat the word either: the words cuss rates
   "likely profane" (``data/profanity.txt``, built by scripts/build_profanity.py) and
   their close forms. The slurs and the blocklist stay first, at every table.
3. W4, then W5, then W6 (the table): these reasons name the picture that blocks the word,
   which tells the Stargazer exactly what to change. They come before W2 so that a close
   form which the frequency list rates as rare still gets its real reason (MOUSES has zipf
   1.81: "MOUSES is a form of MOUSE, a picture on the table", not "not a word").
   W7 is part of W5/W6: two-letter words skip them, and names under 4 letters never block
   by W5. W8: all of W4-W7 use every listed name and alias.
4. W2 last: "an ordinary word or a name" is the fuzziest rule and its reason the least
   specific.
"""

from __future__ import annotations

import math
import string
import unicodedata
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import lemminflect
from wordfreq import get_frequency_dict

__all__ = [
    "BLOCKED",
    "FAMILY_BLOCKED",
    "blocklist_provider",
    "check_clue",
    "set_blocklist",
    "warm_up",
]

# W1: a clue's length, in letters.
MIN_LETTERS = 2
MAX_LETTERS = 10

# W2: a word is "an ordinary word or a name" when wordfreq's English list gives it a Zipf
# frequency of at least 2.0 (about once per 10 million words), rounded to 2 decimals as
# wordfreq.zipf_frequency does. Measured with wordfreq 3.1.1 (2026-11-29):
#  - accepted: common words (river 5.03, whisper 3.74), rarer nouns (sundial 2.46, trowel
#    2.45, narwhal 2.28, zither 2.01), cities (paris 4.82, tokyo 4.27, quito 2.83), countries
#    (tuvalu 2.31), first names (alice 4.26, omar 3.75, priya 2.92, aditi 2.48), planets
#    (all >= 3.0), most famous constellations (orion 3.44, lyra 2.85, cassiopeia 2.38);
#  - refused: keyboard mash (asdf 1.65, hjkl 0.0, asdfgh 0.0, qwzx 0.0, xkcdq 0.0) and the
#    band 1.0-2.0, which is mostly misspellings (plesant, disect), site and code tokens
#    (appdata, ohchr) and obscure surnames; a random 4-letter string passes 1.4% of the time
#    at 2.0 (2.8% at 1.5), 5+ letters almost never.
#  - the cost: some real but rare words are refused (kumquat 1.86, zebu 1.78, quokka 1.50),
#    and nearly every two-letter string passes (they are all somebody's abbreviation).
# Sky names below the line (bootes 1.40, cepheus 1.61, deneb 1.60...) are accepted through
# data/astronomy_names.txt, since this is a game about stars.
ZIPF_MIN = 2.0

BLOCKED = "That word is not allowed."
FAMILY_BLOCKED = "That word is not allowed at this family table."

_DATA = Path(__file__).with_name("data")
_LETTERS = frozenset(string.ascii_letters)
_HYPHENS = frozenset("-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d")
_APOSTROPHES = frozenset("'`\u00b4\u2018\u2019\u201b\u02bc\u02b9\u2032\uff07")
# lemminflect tags kept as "close forms" of a picture name: noun and verb forms (RULES W4:
# mouse/mice, run/running/ran). Adjective and adverb degrees are left out: lemminflect gives
# well -> better/best, which is not a form of a pictured well.
_NOUN_TAGS = frozenset({"NN", "NNS"})
_NOUN_VERB_TAGS = _NOUN_TAGS | {"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"}
_SIBILANT_ENDINGS = ("s", "x", "z", "ch", "sh")
# lemminflect lists these modal pasts as verb forms (CAN -> COULD); a pictured can, will or
# may is a thing, and COULD is no close form of it in any everyday sense.
_MODAL_PASTS = frozenset({"could", "would", "should", "might"})


# -- the moderators' blocklist (W3) -----------------------------------------------------------

BlocklistProvider = Callable[[], Collection[str]]


def _no_blocklist() -> Collection[str]:
    return frozenset()


_blocklist: BlocklistProvider = _no_blocklist


def blocklist_provider() -> BlocklistProvider:
    """The provider installed now (so a caller can put it back after swapping it)."""
    return _blocklist


def set_blocklist(provider: BlocklistProvider | None) -> None:
    """Install the moderators' blocklist: ``provider()`` returns the words refused by W3.

    It is called on every check, so the list is live. Any collection of words works (they
    are matched case-insensitively); returning the same frozenset object until the list
    changes makes the check O(1), since its normalized copy is cached. The words and their
    inflections are refused (NEBULA also refuses NEBULAS, NEBULAE), never longer words that
    contain them. ``None`` restores the default provider, which returns no words.
    An exception from the provider propagates: the caller decides whether to fail closed.
    """
    global _blocklist
    _blocklist = provider if provider is not None else _no_blocklist


@lru_cache(maxsize=4)
def _normalized_frozen(words: frozenset[str]) -> frozenset[str]:
    return frozenset(_normalized(words))


def _normalized(words: Iterable[str]) -> Iterable[str]:
    return (w.strip().lower() for w in words)


def _profane(clue: str, bases: _ClueBases) -> bool:
    words, forms, never = _profanity()
    if clue in never:
        return False
    return clue in forms or not words.isdisjoint(bases.every)


def _blocklisted(candidates: Iterable[str]) -> bool:
    words = _blocklist()
    if not words:
        return False
    if isinstance(words, frozenset):
        words = _normalized_frozen(words)
    else:
        words = frozenset(_normalized(words))
    return any(c in words for c in candidates)


# -- data, loaded once ------------------------------------------------------------------------


def _read_list(name: str) -> list[list[str]]:
    rows = []
    for line in (_DATA / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip().lower()
        if line:
            rows.append(line.split())
    return rows


@lru_cache(maxsize=1)
def _known_words() -> frozenset[str]:
    """W2: every clue-shaped English word with zipf >= ZIPF_MIN, plus the sky names."""
    known = {
        word
        for word, freq in get_frequency_dict("en").items()
        if MIN_LETTERS <= len(word) <= MAX_LETTERS
        and word.isascii()
        and word.isalpha()
        and round(math.log10(freq) + 9, 2) >= ZIPF_MIN
    }
    known.update(row[0] for row in _read_list("astronomy_names.txt"))
    return frozenset(known)


@lru_cache(maxsize=1)
def _irregular() -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """Irregular plurals lemminflect lacks: singular -> plurals, and plural -> singular."""
    plurals: dict[str, tuple[str, ...]] = {}
    singular: dict[str, str] = {}
    for row in _read_list("irregular_plurals.txt"):
        plurals[row[0]] = tuple(row[1:])
        for plural in row[1:]:
            singular.setdefault(plural, row[0])
    return plurals, singular


@lru_cache(maxsize=1)
def _slurs() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """W3: the shipped slur list, its words with all their close forms, and the exceptions."""
    rows = [row[0] for row in _read_list("slurs.txt")]
    slurs = frozenset(row for row in rows if not row.startswith("!"))
    not_slurs = {row[1:] for row in rows if row.startswith("!")}  # LESBOS, the island
    forms = set(slurs)
    for slur in slurs:
        forms |= _family(slur)[0]
    return slurs, frozenset(forms - not_slurs), frozenset(not_slurs)


@lru_cache(maxsize=1)
def _profanity() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """A family table's list: the refused words, those words with their close forms, and
    the words never refused there (cuss's ratings 0 and 1, and the slur list's exceptions).

    Only a word that is its own base form is inflected (CRAP -> CRAPS, PUKE -> PUKED): the
    list also holds inflected entries (ASSES, HOES), and inflecting those again would refuse
    ordinary words (ASSES -> ASSESS), while their bases are either listed themselves (ASS)
    or left out on purpose (HOE, the garden tool). The forms are lemminflect's, as for W4:
    verb forms it would only guess for a word it does not know are left out, since guessing
    refuses ordinary words (CUNN -> CUNNING, PUD -> PUDDING, TESTE -> TESTING); many
    listed words come with their forms listed anyway (FUCKED, PISSING).
    """
    rows = [row[0] for row in _read_list("profanity.txt")]
    words = frozenset(row for row in rows if not row.startswith("!"))
    never = frozenset(row[1:] for row in rows if row.startswith("!")) | _slurs()[2]
    forms = set(words)
    for word in words:
        if _is_base(word):
            forms |= {f for f in _inflections(word, _NOUN_VERB_TAGS) if f.isascii() and f.isalpha()}
    return words, frozenset(forms - never), never


def _is_base(word: str) -> bool:
    """Is ``word`` its own lemma (or unknown to lemminflect), rather than an inflection?"""
    lemmas = lemminflect.getAllLemmas(word)
    return not lemmas or any(word in found for found in lemmas.values())


# -- close forms (W4) -------------------------------------------------------------------------


def warm_up() -> None:
    """Load the word data now (about half a second), before the first Stargazer's word."""
    _known_words()
    _irregular()
    _slurs()
    _profanity()
    _family("warm")
    _clue_bases("warmer")


def _regular_plurals(word: str) -> set[str]:
    """The suffix fallback on top of lemminflect: MOUSE -> MOUSES, FOX -> FOXES..."""
    plurals = {word + "s"}
    if word.endswith(_SIBILANT_ENDINGS) or word.endswith("o"):
        plurals.add(word + "es")
    if len(word) > 2 and word.endswith("y") and word[-2] not in "aeiou":
        plurals.add(word[:-1] + "ies")
    if word.endswith("f"):
        plurals.add(word[:-1] + "ves")
    elif word.endswith("fe"):
        plurals.add(word[:-2] + "ves")
    return plurals


def _singulars(word: str) -> set[str]:
    """The reverse fallback: the singulars a plural-looking word could come from."""
    found = set()
    if len(word) >= 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        found.add(word[:-1])
    if len(word) >= 5 and word.endswith("es") and word[:-2].endswith(_SIBILANT_ENDINGS):
        found.add(word[:-2])
    if len(word) >= 5 and word.endswith("ies"):
        found.add(word[:-3] + "y")
    if len(word) >= 5 and word.endswith("ves"):
        found |= {word[:-3] + "f", word[:-3] + "fe"}
    singular = _irregular()[1].get(word)
    if singular:
        found.add(singular)
    return found


def _is_form_of(form: str, word: str) -> bool:
    """Drop lemminflect forms that belong to another sense (CAN -> COULD is the modal verb)."""
    if form in _MODAL_PASTS:
        return False
    lemmas = lemminflect.getAllLemmas(form)
    return not lemmas or any(word in lemmas.get(upos, ()) for upos in ("NOUN", "VERB"))


def _inflections(word: str, tags: frozenset[str]) -> set[str]:
    table = lemminflect.getAllInflections(word)
    if not table:
        # Out of the dictionary (e.g. OX): lemminflect's model guesses the noun forms.
        table = lemminflect.getAllInflectionsOOV(word, "NOUN")
    forms = {form for tag, found in table.items() if tag in tags for form in found}
    forms = {form for form in forms if form == word or _is_form_of(form, word)}
    forms |= _regular_plurals(word)
    forms.update(_irregular()[0].get(word, ()))
    return forms


@lru_cache(maxsize=16384)
def _family(word: str) -> tuple[frozenset[str], frozenset[str]]:
    """One single-word name's close forms, and its bases (the word and its noun lemmas).

    Bases matter when a picture's name is itself inflected: GLASSES -> GLASS, TEETH -> TOOTH.
    """
    forms = {word} | _inflections(word, _NOUN_VERB_TAGS)
    bases = {word}
    lemmas = set(lemminflect.getAllLemmas(word, upos="NOUN").get("NOUN", ()))
    singular = _irregular()[1].get(word)
    if singular:
        lemmas.add(singular)
    for lemma in lemmas - {word}:
        bases.add(lemma)
        forms |= {lemma} | _inflections(lemma, _NOUN_TAGS)
    ok = {f for f in forms if f.isascii() and f.isalpha()}
    return frozenset(ok), frozenset(bases)


@dataclass(frozen=True, slots=True)
class _ClueBases:
    """The words a clue may be a form of."""

    nouns: tuple[str, ...]  # W4: its noun lemmas and plural-looking singulars (MICE -> MOUSE)
    verbs: tuple[str, ...]  # W4: its verb lemmas (RAN -> RUN)
    every: frozenset[str]  # W3: the clue and all its lemmas, any part of speech


@lru_cache(maxsize=16384)
def _clue_bases(word: str) -> _ClueBases:
    lemmas = {} if word in _MODAL_PASTS else lemminflect.getAllLemmas(word)
    singulars = _singulars(word)
    nouns = (set(lemmas.get("NOUN", ())) | singulars) - {word}
    verbs = set(lemmas.get("VERB", ())) - {word}
    every = {lemma for found in lemmas.values() for lemma in found} | singulars | {word}
    return _ClueBases(tuple(sorted(nouns)), tuple(sorted(verbs)), frozenset(every))


# -- the table ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Name:
    letters: str  # the name as a clue would spell it: "teddybear"
    shown: str  # as a reason shows it: "TEDDY BEAR"
    exact: str  # the reason when the clue is this name
    phrase: str  # "MOUSE, a picture on the table" / "BIKE, another name for BICYCLE, ..."


@dataclass(frozen=True, slots=True)
class _Table:
    names: tuple[_Name, ...]  # every listed name (W8), table order, canonical first
    long_names: tuple[_Name, ...]  # W5/W7: names of 4 or more letters
    forms: dict[str, _Name]  # W4: each name's close forms -> the name
    by_letters: dict[str, _Name]  # W4, other direction: each name as spelled -> the name
    bases: dict[str, _Name]  # ... and each name and its noun lemmas (GLASSES -> GLASS)


def _plain(name: str) -> str:
    """Lowercase, accents taken off (CAFÉ -> cafe)."""
    decomposed = unicodedata.normalize("NFKD", name.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _shown(name: str) -> str:
    """A name as a reason shows it: in capitals, spaces and hyphens kept (T-SHIRT)."""
    return " ".join(name.split()).upper()


def _words(name: str) -> list[str]:
    """A name's words, letters only: "teddy bear" -> ["teddy", "bear"], "t-shirt" -> ..."""
    words, current = [], []
    for ch in _plain(name):
        if "a" <= ch <= "z":
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


@lru_cache(maxsize=512)
def _table(pictured: tuple[tuple[str, ...], ...]) -> _Table:
    names: list[_Name] = []
    forms: dict[str, _Name] = {}
    bases: dict[str, _Name] = {}
    for picture in pictured:
        listed = [(name, _words(name)) for name in picture]
        listed = [(name, words) for name, words in listed if words]
        if not listed:
            continue
        canonical = _shown(listed[0][0])
        for position, (given, words) in enumerate(listed):
            shown = _shown(given)
            if position == 0:
                phrase = f"{shown}, a picture on the table"
                exact = "{word} is a picture on the table."
            else:
                phrase = f"{shown}, another name for {canonical}, a picture on the table"
                exact = "{word} is another name for " + canonical + ", a picture on the table."
            if len(words) > 1:  # TEDDYBEAR spells TEDDY BEAR, but is not the same word
                exact = "{word} is a form of " + phrase + "."
            name = _Name("".join(words), shown, exact, phrase)
            names.append(name)
            # W4 for a name of several words: the forms of its last word (TEDDY BEARS).
            head = "".join(words[:-1])
            family, name_bases = _family(words[-1])
            for form in family:
                forms.setdefault(head + form, name)
            for base in name_bases:
                bases.setdefault(head + base, name)
    by_letters: dict[str, _Name] = {}
    for name in names:  # a name itself outranks another picture's form of the same spelling
        by_letters.setdefault(name.letters, name)
    forms.update(by_letters)
    bases.update(by_letters)
    long_names = tuple(n for n in names if len(n.letters) >= 4)
    return _Table(tuple(names), long_names, forms, by_letters, bases)


# -- W1: the form of the word ---------------------------------------------------------------------

_PROBLEMS = (
    "spaces",
    "digits",
    "hyphens",
    "apostrophes",
    "accents or letters outside A–Z",
    "punctuation, symbols or emoji",
)


def _problem_of(ch: str) -> str:
    if ch.isspace() or unicodedata.category(ch) in ("Zs", "Cf"):
        return "spaces"
    if ch.isdigit() or ch.isnumeric():
        return "digits"
    if ch in _HYPHENS:
        return "hyphens"
    if ch in _APOSTROPHES:
        return "apostrophes"
    if ch.isalpha() or unicodedata.category(ch).startswith("M"):
        return "accents or letters outside A–Z"
    return "punctuation, symbols or emoji"


def _form_reason(word: str) -> str | None:
    """W1. ``word`` has already been stripped of leading and trailing whitespace."""
    if not word:
        return "Spell a word first."
    if not all(ch in _LETTERS for ch in word):
        found = {_problem_of(ch) for ch in word if ch not in _LETTERS}
        listed = [p for p in _PROBLEMS if p in found]
        if len(listed) > 1:
            listed = [", ".join(listed[:-1]) + " or " + listed[-1]]
        return f"Use letters A–Z only: no {listed[0]}."
    if len(word) < MIN_LETTERS:
        return f"{word.upper()} is too short: use {MIN_LETTERS} to {MAX_LETTERS} letters."
    if len(word) > MAX_LETTERS:
        # The word is not shown: it could be any length.
        return f"That word has {len(word)} letters: use {MIN_LETTERS} to {MAX_LETTERS}."
    return None


# -- the check --------------------------------------------------------------------------------


def check_clue(word: str, pictured: list[list[str]], *, family: bool = False) -> str | None:
    """None if ``word`` may be named with these pictures on the table, else the reason.
    ``family``: the host chose a family table, where general profanity is refused too."""
    # Leading and trailing whitespace is stripped and the word accepted: it is invisible,
    # easy to type by accident on a phone keyboard, and the rules engine strips it too.
    # Whitespace inside the word is refused (W1: one word).
    stripped = word.strip()
    if reason := _form_reason(stripped):
        return reason
    clue = stripped.lower()
    shown = clue.upper()
    bases = _clue_bases(clue)

    # W3: the shipped slur list (each slur and its forms) and the moderators' blocklist.
    slurs, slur_forms, slurs_not = _slurs()
    if clue in slur_forms or (clue not in slurs_not and not slurs.isdisjoint(bases.every)):
        return BLOCKED
    if _blocklisted(bases.every):
        return BLOCKED
    # A family table: general profanity too, each word and its forms (never the words
    # cuss rates as often innocent).
    if family and _profane(clue, bases):
        return FAMILY_BLOCKED

    table = _table(tuple((n,) if isinstance(n, str) else tuple(n) for n in pictured))
    # W4 (and W8): the clue is a name, or a close form of one, in either direction.
    # The clue's verb lemmas meet only the names themselves (RAN -> RUN), not the names'
    # noun lemmas: DYING is a form of the verb DIE, not of a pictured DICE.
    name = table.forms.get(clue)
    if name is None:
        found = [table.bases[b] for b in bases.nouns if b in table.bases]
        found += [table.by_letters[b] for b in bases.verbs if b in table.by_letters]
        name = found[0] if found else None
    if name is not None:
        if name.letters == clue:
            return name.exact.format(word=shown)
        return f"{shown} is a form of {name.phrase}."
    if len(clue) > 2:  # W7: two-letter words are not checked by W5/W6.
        # W5: a name of 4+ letters inside the word (W7: shorter names never block this way).
        for name in table.long_names:
            if name.letters in clue:
                return f"{shown} contains {name.phrase}."
        # W6: the word (3+ letters) inside a name.
        for name in table.names:
            if clue in name.letters:
                return f"{shown} is inside {name.phrase}."

    # W2: an ordinary word or a name.
    if clue not in _known_words():
        return f"{shown} is not a word we know: use an ordinary word or a name."
    return None
