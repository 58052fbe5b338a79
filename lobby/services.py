"""The lobby's rules: rooms by link, names, seats, the host's clock, start and rematch.
Each function does one thing or raises ``LobbyRefusal`` with a message, changing nothing."""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Mapping

from django.conf import settings
from django.db import IntegrityError, transaction

from games.registry import GameType, all_game_types, game_type

from .models import Match, Player, Room

MAX_SEATS = 8  # the most any game seats
STEP_LENGTHS = (None, 60, 90, 120)  # C1


def step_lengths() -> tuple[int | None, ...]:
    """C1's choices, plus the end-to-end tests' short one when its setting is on."""
    extra = getattr(settings, "CONSTELLATE_TEST_STEP_SECONDS", None)
    return (*STEP_LENGTHS, extra) if extra else STEP_LENGTHS


CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: easy to read aloud
CODE_GROUPS = 4  # 4 groups of 4 letters: 16 x log2(31) = 79 bits


class LobbyRefusal(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def new_identity() -> str:
    return secrets.token_urlsafe(18)


def new_code() -> str:
    letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(4 * CODE_GROUPS))
    return "-".join(letters[i : i + 4] for i in range(0, len(letters), 4))


def game_kinds() -> list[str]:
    return [kind.kind for kind in all_game_types()]


def create_room(identity: str, kind: str = "constellate") -> Room:
    if kind not in game_kinds():
        raise LobbyRefusal("Choose one of the games on offer.")
    options = game_type(kind).default_options()
    for _ in range(5):
        try:
            with transaction.atomic():
                return Room.objects.create(
                    code=new_code(), host=identity, kind=kind, options=options
                )
        except IntegrityError:  # a collision is astronomically unlikely; draw again
            continue
    raise LobbyRefusal("Could not make a room just now. Try again.", 503)


def clean_name(raw: str) -> str:
    name = " ".join(raw.split())
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise LobbyRefusal("A name cannot hold control characters.")
    if not name:
        raise LobbyRefusal("Choose a name of 1 to 24 characters.")
    if len(name) > 24:
        raise LobbyRefusal("A name is at most 24 characters.")
    return name


def join(room: Room, identity: str, raw_name: str) -> Player:
    """Pick (or change) a display name in this room."""
    name = clean_name(raw_name)
    others = room.players.exclude(identity=identity).values_list("name", flat=True)
    taken = any(other.casefold() == name.casefold() for other in others)  # not ASCII-only
    if taken:
        raise LobbyRefusal(f"Someone here is already called {name}. Pick another name.", 409)
    try:
        with transaction.atomic():
            player, _ = Player.objects.update_or_create(
                room=room, identity=identity, defaults={"name": name}
            )
    except IntegrityError as error:
        raise LobbyRefusal(f"Someone here is already called {name}.", 409) from error
    return player


def player_in(room: Room, identity: str | None) -> Player | None:
    if not identity:
        return None
    return room.players.filter(identity=identity).first()


def game_running(room: Room) -> bool:
    return room.game is not None and room.game.ended_at is None


def game_of(room: Room) -> GameType:
    return game_type(room.kind)


def seat_count(room: Room) -> int:
    return game_of(room).max_players


def take_seat(room: Room, player: Player, seat: int) -> Player:
    seats = seat_count(room)
    if not 1 <= seat <= seats:
        raise LobbyRefusal(f"Seats are numbered 1 to {seats}.")
    if game_running(room) and seat > _players_in_game(room):
        raise LobbyRefusal("A game is on: only its own free seats can be taken.", 409)
    if player.seat == seat:
        return player
    try:
        with transaction.atomic():
            updated = Player.objects.filter(pk=player.pk).update(seat=seat)
    except IntegrityError as error:
        raise LobbyRefusal(f"Seat {seat} is taken.", 409) from error
    if not updated:
        raise LobbyRefusal("You are not in this room.", 403)
    player.seat = seat
    return player


def leave_seat(player: Player) -> Player:
    Player.objects.filter(pk=player.pk).update(seat=None)
    player.seat = None
    return player


def _require_host(room: Room, identity: str | None) -> None:
    if identity != room.host:
        raise LobbyRefusal("Only the host can do that.", 403)


def free_seat(room: Room, identity: str | None, seat: int) -> None:
    _require_host(room, identity)
    if not room.players.filter(seat=seat).update(seat=None):
        raise LobbyRefusal(f"Seat {seat} is already free.", 409)


def set_clock(room: Room, identity: str | None, step_seconds: int | None) -> None:
    _require_host(room, identity)
    if step_seconds not in step_lengths():
        raise LobbyRefusal("The clock is off, 60, 90 or 120 seconds.")
    if game_running(room):
        raise LobbyRefusal("The clock can be changed between games.", 409)
    room.step_seconds = step_seconds
    room.save(update_fields=["step_seconds"])


def set_options(room: Room, identity: str | None, raw: Mapping[str, str]) -> None:
    """The host's choices for the room's game (its chart, say), checked by the game."""
    _require_host(room, identity)
    if game_running(room):
        raise LobbyRefusal("The game's options can be changed between games.", 409)
    try:
        options = game_of(room).clean_options(raw)
    except ValueError as error:
        raise LobbyRefusal(str(error)) from error
    room.options = options
    room.save(update_fields=["options"])


def options_of(room: Room) -> dict[str, str]:
    """The room's choices, any the game added since filled with its defaults."""
    return {**game_of(room).default_options(), **(room.options or {})}


def seated(room: Room) -> dict[int, Player]:
    return {p.seat: p for p in room.players.exclude(seat=None)}


def start_blocker(room: Room) -> str | None:
    """Why the game cannot start now (S1), or None."""
    if game_running(room):
        return "A game is already on."
    seats = sorted(seated(room))
    kind = game_of(room)
    if len(seats) < kind.min_players:
        if kind.min_players == kind.max_players:
            return f"{kind.title} needs exactly {kind.min_players} players."
        return f"{_count_word(kind.min_players)} or more players must sit down."
    if seats != list(range(1, len(seats) + 1)):
        gap = next(n for n in range(1, seat_count(room) + 1) if n not in seats)
        return f"Seats must be filled from 1 with no gaps: seat {gap} is empty."
    return None


def _count_word(n: int) -> str:
    return ["No", "One", "Two", "Three", "Four"][n] if n < 5 else str(n)


def start(room: Room, identity: str | None) -> Match:
    """Start a game (or a rematch: a new sky, the same seats) with seats 1..N."""
    _require_host(room, identity)
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        if reason := start_blocker(room):
            raise LobbyRefusal(reason, 409)
        players = seated(room)
        game = game_of(room).start(
            players=len(players), step_seconds=room.step_seconds, options=options_of(room)
        )
        number = room.matches.count() + 1
        match = Match.objects.create(
            room=room,
            game=game,
            number=number,
            seats={str(n): p.name for n, p in players.items()},
        )
        room.game = game
        room.save(update_fields=["game"])
    return match


def _players_in_game(room: Room) -> int:
    match = Match.objects.filter(game=room.game).first()
    return len(match.seats) if match else 0
