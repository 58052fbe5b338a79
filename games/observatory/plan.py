"""A submission's steps as the browser sends them: one form field, ``plan``, holding the
steps in the seat's order (U1, U7), one word each, separated by spaces.

Every word is read by one strict parser (``read``), which either returns the steps or
raises ``BadInput`` with a message the seat can read; whether the steps are legal is the
rules' to say (``rules.steps.apply``), not this module's. ``write`` is its inverse, used by
the page to keep the plan being built, so ``read(write(steps)) == steps`` for every step.

The words (a space is ``r-c``, rows and columns 1-12; a die 0-2 Standard as rolled, 3 the
Shooting Star die; a track by its name, a position 1-5):

==========================  ==============================================
``die:1``                   the research die is the 2nd Standard die (U5.1)
``lens:3:+1``               the Lens takes the Shooting Star die one up (U5.2)
``pair:5-10``               a star plotted with the pair (U5.3)
``shoot:7-2``               a star plotted with the Shooting Star die (U5.4)
``fill:drive:5:4``          a research fill, here the Drive's last, Drive number 4 (U5.5)
``claim:L07:1-1,2-3,...``   a claim: the card and its stars' spaces (U5.6)
``bonus:forgo``             a card bonus forgone (U5.7)
``bonus:star:4-4``          a card bonus used on a space
``bonus:fill:lens:2``       a card bonus used on a track space
``track:star:9-9``          a banked track bonus (U5.8), a star or ``track:fill:...``
``finder:3-12``             a Finder star (U5.9)
``night:star:6-6``          the Night bonus (U5.11), a star or ``night:fill:...``
==========================  ==============================================
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.inputs import BadInput, integer, one_of

from .rules.deck import CARDS
from .rules.sheet_data import DRIVE_NUMBERS, MAP_SIZE, POSITIONS, Space, Track
from .rules.steps import (
    ALL_DICE,
    LENS_DELTAS,
    STANDARD_DICE,
    CardBonus,
    Claim,
    FinderStar,
    Lens,
    NightBonus,
    PairPlot,
    ResearchDie,
    ResearchFill,
    ShootingPlot,
    Step,
    TrackBonus,
)

FIELD = "plan"
MOST_STEPS = 60  # far more than a turn can use (U6); a longer plan is not read
MOST_CHARACTERS = 2000
TRACKS = {track.value: track for track in Track}
DELTAS = {f"{delta:+d}": delta for delta in LENS_DELTAS}

FreeUse = CardBonus | TrackBonus | NightBonus


# -- reading ---------------------------------------------------------------------------------


def read(raw: str | None) -> tuple[Step, ...]:
    """The steps of a plan field, in order; ``()`` for an empty plan (a pass, U4)."""
    raw = raw or ""
    if len(raw) > MOST_CHARACTERS:
        raise BadInput("That plan is far too long for one turn.")
    words = raw.split(" ") if raw else []
    if len(words) > MOST_STEPS:
        raise BadInput("That plan has far more steps than one turn can hold.")
    return tuple(_step(word, number) for number, word in enumerate(words, start=1))


def _step(word: str, number: int) -> Step:
    kind, _, rest = word.partition(":")
    reader = _READERS.get(kind)
    if reader is None:
        raise BadInput(f"Step {number} is not a step of a turn.")
    try:
        return reader(rest.split(":") if rest else [])
    except BadInput as error:
        raise BadInput(f"Step {number}: {error.message}") from None


def _parts(parts: Sequence[str], least: int, most: int) -> Sequence[str]:
    if not least <= len(parts) <= most:
        raise BadInput("it is not written the way the page writes it.")
    return parts


def space(raw: str | None) -> Space:
    """A space ``r-c`` of the 12 x 12 map."""
    row, dash, column = (raw or "").partition("-")
    if not dash:
        raise BadInput("a space is written row-column, like 5-10.")
    return (integer(row, "row", 1, MAP_SIZE), integer(column, "column", 1, MAP_SIZE))


def _die(raw: str, dice: Sequence[int]) -> int:
    return integer(raw, "die", min(dice), max(dice))


def _slot(parts: Sequence[str]) -> tuple[Track, int, int | None]:
    parts = _parts(parts, 2, 3)
    track = TRACKS.get(parts[0])
    if track is None:
        raise BadInput("there is no such Research track.")
    position = integer(parts[1], "track space", min(POSITIONS), max(POSITIONS))
    drive = None
    if len(parts) == 3:
        drive = integer(parts[2], "Drive number", min(DRIVE_NUMBERS), max(DRIVE_NUMBERS))
    return track, position, drive


def _research_die(parts: Sequence[str]) -> Step:
    (index,) = _parts(parts, 1, 1)
    return ResearchDie(_die(index, STANDARD_DICE))


def _lens(parts: Sequence[str]) -> Step:
    die, delta = _parts(parts, 2, 2)
    if delta not in DELTAS:
        raise BadInput("the Lens takes a die +1 or -1.")
    return Lens(_die(die, ALL_DICE), DELTAS[delta])


def _pair(parts: Sequence[str]) -> Step:
    (at,) = _parts(parts, 1, 1)
    return PairPlot(space(at))


def _shoot(parts: Sequence[str]) -> Step:
    (at,) = _parts(parts, 1, 1)
    return ShootingPlot(space(at))


def _fill(parts: Sequence[str]) -> Step:
    track, position, drive = _slot(parts)
    return ResearchFill(track, position, drive)


def _claim(parts: Sequence[str]) -> Step:
    card, spaces = _parts(parts, 2, 2)
    one_of(card, CARDS, "there is no such constellation card.")
    found = [space(at) for at in spaces.split(",")]
    if len(set(found)) != len(found):
        raise BadInput("a claim names each star once.")
    return Claim(card, frozenset(found))


def _free_use(make: Callable[..., FreeUse], *, forgo: bool) -> Callable[[Sequence[str]], Step]:
    def read_use(parts: Sequence[str]) -> Step:
        if not parts:
            raise BadInput("say where the bonus goes.")
        how, rest = parts[0], parts[1:]
        if how == "forgo" and forgo and not rest:
            return make()
        if how == "star":
            (at,) = _parts(rest, 1, 1)
            return make(space=space(at))
        if how == "fill":
            track, position, drive = _slot(rest)
            return make(track=track, position=position, drive=drive)
        raise BadInput("a bonus is a star or a research space.")

    return read_use


def _finder(parts: Sequence[str]) -> Step:
    (at,) = _parts(parts, 1, 1)
    return FinderStar(space(at))


_READERS: dict[str, Callable[[Sequence[str]], Step]] = {
    "die": _research_die,
    "lens": _lens,
    "pair": _pair,
    "shoot": _shoot,
    "fill": _fill,
    "claim": _claim,
    "bonus": _free_use(CardBonus, forgo=True),
    "track": _free_use(TrackBonus, forgo=False),
    "finder": _finder,
    "night": _free_use(NightBonus, forgo=False),
}
KINDS = tuple(_READERS)  # the kinds of step, by the word each begins with (``die``, ...)


# -- writing ---------------------------------------------------------------------------------


def write(steps: Sequence[Step]) -> str:
    """The plan field that ``read`` turns back into ``steps``."""
    return " ".join(word(step) for step in steps)


def space_word(at: Space) -> str:
    return f"{at[0]}-{at[1]}"


def _slot_word(track: Track | None, position: int | None, drive: int | None) -> str:
    word = f"{track}:{position}" if track is not None else f"?:{position}"
    return word if drive is None else f"{word}:{drive}"


def _use_word(kind: str, step: FreeUse) -> str:
    if step.space is not None:
        return f"{kind}:star:{space_word(step.space)}"
    if step.track is not None or step.position is not None:
        return f"{kind}:fill:{_slot_word(step.track, step.position, step.drive)}"
    return f"{kind}:forgo"


def word(step: Step) -> str:
    """One step as the plan field writes it."""
    match step:
        case ResearchDie(index):
            return f"die:{index}"
        case Lens(die, delta):
            return f"lens:{die}:{delta:+d}"
        case PairPlot(at):
            return f"pair:{space_word(at)}"
        case ShootingPlot(at):
            return f"shoot:{space_word(at)}"
        case ResearchFill(track, position, drive):
            return f"fill:{_slot_word(track, position, drive)}"
        case Claim(card, spaces):
            return f"claim:{card}:{','.join(space_word(at) for at in sorted(spaces))}"
        case CardBonus():
            return _use_word("bonus", step)
        case TrackBonus():
            return _use_word("track", step)
        case FinderStar(at):
            return f"finder:{space_word(at)}"
        case NightBonus():
            return _use_word("night", step)
    raise TypeError(f"not a step: {step!r}")
