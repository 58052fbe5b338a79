"""Flagging a game's public text: the game's definition says who may flag what (for
Constellate: F1, every seated player, once per constellation); F2, the game does not change:
a flag is a row for the moderators, never a game event. No game is imported here: a game
is reached through its registered definition (games.registry, games.flags)."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from games.flags import NO_TEXTS, FlagRefused, Moderation
from games.models import Game
from games.registry import game_type

from .models import BlockedWord, Flag, ModerationAction

FlagRefusal = FlagRefused  # the name the views and tests know


def moderation_of(kind: str) -> Moderation:
    """The game's moderation hook, or the refusal of a game with nothing to flag."""
    hook = game_type(kind).moderation
    if hook is None:
        raise FlagRefusal(NO_TEXTS, 409)
    return hook


def flag_constellation(
    *,
    game_id: int,
    seat: int | None,
    name: str,
    constellation: int,
    kind: str = Flag.Kind.OTHER,
    reason: str = "",
) -> Flag:
    """Flag the game's public text number ``constellation`` (the name is Constellate's, kept
    by the stored flags and the form; it is any game's text number)."""
    game_kind = Game.objects.values_list("kind", flat=True).get(pk=game_id)
    hook = moderation_of(game_kind)
    text = hook.flaggable(game_type(game_kind).current(game_id), seat, constellation)
    if seat is None:  # the game's hook refuses spectators in its own words; never stored
        raise FlagRefusal("Only the game's players can flag.", 403)
    if kind not in Flag.Kind.values:
        raise FlagRefusal("Choose why you are flagging it.")
    if len(reason) > 200:
        raise FlagRefusal("A reason is at most 200 characters.")
    try:
        with transaction.atomic():
            return Flag.objects.create(
                game_id=game_id,
                constellation=text.number,
                event_seq=text.event_seq,
                word=text.text,
                flagger_seat=seat,
                flagger_name=name[:24],
                kind=kind,
                reason=reason.strip(),
            )
    except IntegrityError as error:
        raise FlagRefusal(hook.already_flagged, 409) from error


# -- the moderators' side -------------------------------------------------------------------


def blocked_words() -> frozenset[str]:
    """The live blocklist, read from the database at each read (games.flags hands it to
    the games that check texts: Constellate's W3, at each clue check; naming is rare)."""
    return frozenset(BlockedWord.objects.values_list("word", flat=True))


def dismiss(flags: Iterable[Flag], moderator: User | None, note: str = "") -> int:
    return _resolve(flags, moderator, ModerationAction.Verb.DISMISSED, note)


def uphold(flags: Iterable[Flag], moderator: User | None, note: str = "") -> int:
    """Uphold: the flagged word joins the blocklist, refused in every later game (W3)."""
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
