"""The kit every game's rules may import: pure Python, no Django, no I/O, no clock (``now``
comes from the caller), no randomness (the server's draws come in the commands).

A game's ``rules/`` package imports only the standard library, this kit and itself
(``tests/games/test_rules_purity.py`` holds them to it). The kit holds what the rules of
every game share: refusals with a problem kind, the fold and the cheap state copy, the repr
that hides secrets, the step clock's guards and the seat check.
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
from .seats import Seated, seat_refused

__all__ = [
    "Clocked",
    "Decision",
    "Problem",
    "Refusal",
    "Seated",
    "deadline_after",
    "due",
    "expire_if_due",
    "expiry_refused",
    "hiding",
    "in_play",
    "make_fold",
    "seat_refused",
    "stale",
    "time_is_up",
    "with_changes",
]
