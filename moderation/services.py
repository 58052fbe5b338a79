"""Flagging a constellation: F1 (every seated player, once per constellation), F2 (the
game does not change: a flag is a row for the moderators, never a game event)."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from games.constellate import services as constellate

from .models import BlockedWord, Flag, ModerationAction


class FlagRefusal(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def flag_constellation(
    *,
    game_id: int,
    seat: int | None,
    name: str,
    constellation: int,
    kind: str = Flag.Kind.OTHER,
    reason: str = "",
) -> Flag:
    state = constellate.current(game_id)
    if seat is None or state.seat(seat) is None:
        raise FlagRefusal("Only the game's players can flag a constellation.", 403)  # F1
    if not 1 <= constellation <= len(state.constellations):
        raise FlagRefusal("There is no such constellation in this game.", 404)
    if kind not in Flag.Kind.values:
        raise FlagRefusal("Choose why you are flagging it.")
    if len(reason) > 200:
        raise FlagRefusal("A reason is at most 200 characters.")
    taken = state.constellations[constellation - 1]
    try:
        with transaction.atomic():
            return Flag.objects.create(
                game_id=game_id,
                constellation=constellation,
                event_seq=taken.version,
                word=taken.word,
                flagger_seat=seat,
                flagger_name=name[:24],
                kind=kind,
                reason=reason.strip(),
            )
    except IntegrityError as error:
        raise FlagRefusal("You have already flagged this constellation.", 409) from error


# -- the moderators' side -------------------------------------------------------------------


def blocked_words() -> frozenset[str]:
    """W3's live blocklist, read from the database at each clue check (naming is rare)."""
    return frozenset(BlockedWord.objects.values_list("word", flat=True))


def dismiss(flags: Iterable[Flag], moderator: User | None, note: str = "") -> int:
    return _resolve(flags, moderator, ModerationAction.Verb.DISMISSED, note)


def uphold(flags: Iterable[Flag], moderator: User | None, note: str = "") -> int:
    """Uphold: the flagged word joins the blocklist, so W3 refuses it in every later game."""
    return _resolve(flags, moderator, ModerationAction.Verb.UPHELD, note)


def _resolve(
    flags: Iterable[Flag], moderator: User | None, verb: ModerationAction.Verb, note: str
) -> int:
    status = Flag.Status.UPHELD if verb == ModerationAction.Verb.UPHELD else Flag.Status.DISMISSED
    done = 0
    with transaction.atomic():
        for flag in flags:
            if verb == ModerationAction.Verb.UPHELD:
                BlockedWord.objects.get_or_create(
                    word=flag.word.lower(),
                    defaults={"added_by": moderator, "note": f"Upheld flag #{flag.pk}"},
                )
            flag.status = status
            flag.save(update_fields=["status"])
            ModerationAction.objects.create(flag=flag, verb=verb, moderator=moderator, note=note)
            done += 1
    return done
