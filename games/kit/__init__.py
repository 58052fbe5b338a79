"""The kit every game's rules may import: pure Python, no Django, no I/O, no clock (``now``
comes from the caller), no randomness (the server's draws come in the commands).

A game's ``rules/`` package imports only the standard library, this kit and itself
(``tests/games/test_rules_purity.py`` holds them to it). The kit holds what the rules of
every game share: refusals with a problem kind, the fold and the cheap state copy, the repr
that hides secrets, the step clock's guards, the seat check and simultaneous rounds (every
seat submits once, privately, and one event reveals them all).
"""

from .clock import (
    Clocked,
    deadline_after,
    due,
    expire_if_due,
    expiry_refused,
    in_play,
    time_is_up,
)
from .evolving import make_fold, with_changes
from .hiding import hiding
from .refusals import Decision, Problem, Refusal, stale
from .rounds import (
    Preview,
    Round,
    RoundClosed,
    RoundStatus,
    SeatStatus,
    Submitted,
    close_by_clock,
    evolve_round,
    preview,
    submission_refused,
    submit,
    with_close,
    with_submission,
)
from .seats import Seated, seat_refused

__all__ = [
    "Clocked",
    "Decision",
    "Preview",
    "Problem",
    "Refusal",
    "Round",
    "RoundClosed",
    "RoundStatus",
    "SeatStatus",
    "Seated",
    "Submitted",
    "close_by_clock",
    "deadline_after",
    "due",
    "evolve_round",
    "expire_if_due",
    "expiry_refused",
    "hiding",
    "in_play",
    "make_fold",
    "preview",
    "seat_refused",
    "stale",
    "submission_refused",
    "submit",
    "time_is_up",
    "with_changes",
    "with_close",
    "with_submission",
]
