"""A seat's Observatory sheet as a value, and the dice of a turn (M1, D1-D4, R1-R12, C8).

``Sheet`` is frozen: every change makes a new one (``dataclasses.replace``), so a refused
submission leaves the seat's sheet exactly as it was (U2). It holds only what lasts between
steps: the stars, the claimed figures, the filled research spaces, the banked track bonuses,
the Finder stars left, the Drive number and the goals. What lasts only for one submission
(the research die, the Lens, which dice were used) is ``steps.Plan``'s.

Derived, never stored twice: the completed cards are the figures' cards in claim order; a
track's bonus has been gained exactly when it holds 3 filled spaces (R4: a track only grows,
so "once per track per game" holds by itself); an ability is the seat's exactly when its
track is full (R6).
"""

from __future__ import annotations

from dataclasses import dataclass

from .figures import Figure
from .sheet_data import (
    ABILITY_AT,
    BONUS_TRACKS,
    DIE_VALUES,
    POSITIONS,
    TRACK_BONUS_AT,
    Space,
    Track,
    face_label,
)

Slot = tuple[Track, int]  # a track space: its track and position 1-5 (R1)

SHOOTING_STAR_DIE = 3  # the orange die's index; the Standard dice are 0, 1 and 2 as rolled
DIE_NAMES = ("the 1st blue die", "the 2nd blue die", "the 3rd blue die", "the orange die")


@dataclass(frozen=True)
class Dice:
    """The four faces of a turn (D1, D2): three Standard (blue) dice as rolled, and the
    Shooting Star (orange) die. A face is its value 1-6; "?" is 1."""

    blue: tuple[int, int, int]
    orange: int

    def __post_init__(self) -> None:
        for face in (*self.blue, self.orange):
            if face not in DIE_VALUES:
                raise ValueError(f"{face!r} is no die face (1-6)")

    def face(self, die: int) -> int:
        """Die ``die``'s face: 0-2 the blue dice as rolled, 3 the orange die."""
        return self.orange if die == SHOOTING_STAR_DIE else self.blue[die]

    def __str__(self) -> str:
        blue = ", ".join(face_label(face) for face in self.blue)
        return f"blue ({blue}), orange {face_label(self.orange)}"


@dataclass(frozen=True)
class Sheet:
    """One seat's Observatory sheet (M1, R1, C8). ``research`` holds the filled track spaces,
    ``banked`` the track bonuses gained and not yet spent (R4, R5), ``finder_left`` the Finder
    stars not yet spent (R9), ``drive`` the Drive number once written (R8), ``goals`` the card
    ids held as goals (G4) and ``figures`` the completed constellations in claim order (C8)."""

    stars: frozenset[Space] = frozenset()
    research: frozenset[Slot] = frozenset()
    banked: int = 0
    finder_left: int = 0
    drive: int | None = None
    goals: tuple[str, ...] = ()
    figures: tuple[Figure, ...] = ()

    @property
    def completed(self) -> tuple[str, ...]:
        """The completed cards' ids, in the order they were claimed (C8)."""
        return tuple(figure.card for figure in self.figures)

    @property
    def used_stars(self) -> frozenset[Space]:
        """The stars of completed constellations (P7, C8)."""
        return frozenset(space for figure in self.figures for space in figure.stars)

    def filled(self, track: Track) -> frozenset[int]:
        """The filled positions (1-5) of ``track``."""
        return frozenset(position for t, position in self.research if t == track)

    def count(self, track: Track) -> int:
        return len(self.filled(track))

    def empty_slots(self) -> tuple[Slot, ...]:
        """Every empty track space, track by track, left to right."""
        return tuple(
            (track, position)
            for track in Track
            for position in POSITIONS
            if (track, position) not in self.research
        )

    def has(self, track: Track) -> bool:
        """Whether ``track`` is full, i.e. its ability is the seat's (R6)."""
        return self.count(track) >= ABILITY_AT

    @property
    def gained(self) -> frozenset[Track]:
        """The tracks whose track bonus the seat has gained, spent or not (R4)."""
        return frozenset(t for t in BONUS_TRACKS if self.count(t) >= TRACK_BONUS_AT)
