"""The lobby's rules: rooms by link, names, seats, the host's clock, start and rematch.
Each function does one thing or raises ``LobbyRefusal`` with a message, changing nothing."""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from django.conf import settings
from django.db import IntegrityError, transaction

from games import inputs
from games.confusables import lookalike_key
from games.registry import Definition, all_game_types, game_type

from . import computers
from .models import COMPUTER, Match, Player, Room

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
    return [game.slug for game in all_game_types()]


def create_room(identity: str, kind: str = "constellate") -> Room:
    if kind not in game_kinds():
        raise LobbyRefusal("Choose one of the games on offer.")
    options = game_type(kind).options.default()
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
    """A display name by games/inputs.py's rules (NFKC, spaces collapsed, no control or
    invisible characters, a visible letter or digit, at most two accents on a letter, 24
    characters), or LobbyRefusal saying why."""
    try:
        return inputs.name(raw, max_length=24)
    except inputs.BadInput as error:
        raise LobbyRefusal(error.message) from error


def join(room: Room, identity: str, raw_name: str) -> Player:
    """Pick (or change) a display name in this room: not one that reads the same as
    another player's, in any case or with look-alike letters (``P1`` and a Cyrillic
    ``Р1``). The room's row is locked meanwhile, so two joins are checked one at a time."""
    name = clean_name(raw_name)
    try:
        with transaction.atomic():
            Room.objects.select_for_update().filter(pk=room.pk).first()
            _refuse_lookalike(room, identity, name)
            player, _ = Player.objects.update_or_create(
                room=room, identity=identity, defaults={"name": name}
            )
    except IntegrityError as error:
        raise LobbyRefusal(f"Someone here is already called {name}.", 409) from error
    return player


def _refuse_lookalike(room: Room, identity: str, name: str) -> None:
    key = lookalike_key(name)
    for other in room.players.exclude(identity=identity).values_list("name", flat=True):
        if other.casefold() == name.casefold():
            raise LobbyRefusal(f"Someone here is already called {name}. Pick another name.", 409)
        if lookalike_key(other) == key:
            raise LobbyRefusal(
                f"{name} looks just like {other}, who is already here. Pick another name.", 409
            )


def player_in(room: Room, identity: str | None) -> Player | None:
    if not identity:
        return None
    return room.players.filter(identity=identity).first()


def game_running(room: Room) -> bool:
    return room.game is not None and room.game.ended_at is None


def game_of(room: Room) -> Definition:
    return game_type(room.kind)


def seat_count(room: Room) -> int:
    return game_of(room).seats.most


def take_seat(room: Room, player: Player, seat: int) -> Player:
    """Sit down. Between games any free seat; while a game runs only your own seat, the
    one bound to you (coming back after standing up or losing your connection)."""
    seats = seat_count(room)
    if not 1 <= seat <= seats:
        raise LobbyRefusal(f"Seats are numbered 1 to {seats}.")
    with transaction.atomic():
        match = _locked_match(room)
        player = _fresh(player)
        if match is not None:
            _may_sit_in_game(room, match, player, seat)
        if player.seat == seat:
            return player
        _sit(player, seat)
    return player


def _sit(player: Player, seat: int) -> None:
    try:
        with transaction.atomic():
            updated = Player.objects.filter(pk=player.pk).update(seat=seat)
    except IntegrityError as error:
        raise LobbyRefusal(f"Seat {seat} is taken.", 409) from error
    if not updated:
        raise LobbyRefusal("You are not in this room.", 403)
    player.seat = seat


def _fresh(player: Player) -> Player:
    """The player as stored now (read under the room's lock)."""
    fresh = Player.objects.filter(pk=player.pk).first()
    if fresh is None:
        raise LobbyRefusal("You are not in this room.", 403)
    return fresh


def _may_sit_in_game(room: Room, match: Match, player: Player, seat: int) -> None:
    """While a game runs nobody moves between seats and nobody takes another's seat."""
    count = match.players()
    if seat > count:
        raise LobbyRefusal(f"A game is on: it is played in seats 1 to {count}.", 409)
    if player.seat == seat or match.owner(seat) == player.identity:
        return  # already there, or coming back
    if player.seat is not None:
        raise LobbyRefusal(f"A game is on: you play seat {player.seat} until it ends.", 409)
    if (mine := match.seat_of(player.identity)) is not None:
        raise LobbyRefusal(f"A game is on: your seat is {mine}, and you can sit back in it.", 409)
    if player.identity in match.held:  # held a seat and is bound to none: it was handed on
        raise LobbyRefusal("The host gave your seat to someone else: you watch to the end.", 409)
    if player.identity in match.saw_key:
        _may_take_over(room, match, player, seat, you=True)  # says why
    if seated(room).get(seat) is not None:
        raise LobbyRefusal(f"Seat {seat} is taken.", 409)
    owner = _name_of(room, match.owner(seat))
    raise LobbyRefusal(
        f"Seat {seat} is kept for {owner} while the game runs: ask the host to let you sit.",
        409,
    )


def _name_of(room: Room, identity: str | None) -> str:
    player = room.players.filter(identity=identity).first() if identity else None
    return player.name if player else "its player"


def _locked_match(room: Room) -> Match | None:
    """The running game's match with the room's row locked for this transaction (so no
    game starts or ends half-way through a seat change), or None between games."""
    room = Room.objects.select_for_update(of=("self",)).select_related("game").get(pk=room.pk)
    if room.game_id is None or not game_running(room):
        return None
    return Match.objects.select_for_update().filter(game_id=room.game_id).first()


def _locked_running_match(room: Room) -> Match:
    """``_locked_match``, refused between games."""
    match = _locked_match(room)
    if match is None:
        raise LobbyRefusal("No game is on: seats are free to take.", 409)
    return match


def leave_seat(player: Player) -> Player:
    Player.objects.filter(pk=player.pk).update(seat=None)
    player.seat = None
    return player


def _require_host(room: Room, identity: str | None) -> None:
    if identity != room.host:
        raise LobbyRefusal("Only the host can do that.", 403)


def free_seat(room: Room, identity: str | None, seat: int) -> None:
    """The host frees a seat. A computer freed between games leaves the room; one freed
    while a game runs stops playing, and its seat is away like a person's."""
    _require_host(room, identity)
    sitting = room.players.filter(seat=seat)
    if not game_running(room) and sitting.filter(identity__startswith=COMPUTER).delete()[0]:
        return
    if not sitting.update(seat=None):
        raise LobbyRefusal(f"Seat {seat} is already free.", 409)


def seat_computer(room: Room, identity: str | None, seat: int) -> Player:
    """The host gives a free seat to the game's computer player, between games."""
    _require_host(room, identity)
    kind = game_of(room)
    if kind.computer is None:
        raise LobbyRefusal(f"{kind.title} has no computer player.", 409)
    if not 1 <= seat <= kind.seats.most:
        raise LobbyRefusal(f"Seats are numbered 1 to {kind.seats.most}.")
    with transaction.atomic():
        if _locked_match(room) is not None:
            raise LobbyRefusal("A computer can sit down between games.", 409)
        if (sitting := seated(room).get(seat)) is not None:
            raise LobbyRefusal(f"Seat {seat} is taken: {sitting.name} is in it.", 409)
        try:
            return computers.seat(room, seat)
        except IntegrityError as error:
            raise LobbyRefusal(f"Seat {seat} is taken.", 409) from error


# -- a newcomer in a gone player's seat: asked for, then let in by the host ---------------


def ask_for_seat(room: Room, player: Player, seat: int) -> None:
    """A spectator asks the host for the seat of a player who is away."""
    with transaction.atomic():
        match = _locked_match(room)
        if match is None:
            raise LobbyRefusal("No game is on: sit in any free seat.", 409)
        player = _fresh(player)
        _may_take_over(room, match, player, seat, you=True)
        match.asks = {**match.asks, player.identity: seat}
        match.save(update_fields=["asks"])


def withdraw_ask(room: Room, player: Player) -> None:
    with transaction.atomic():
        match = _locked_match(room)
        if match is None or player.identity not in match.asks:
            raise LobbyRefusal("You have not asked for a seat.", 409)
        match.asks = {who: n for who, n in match.asks.items() if who != player.identity}
        match.save(update_fields=["asks"])


def let_sit(room: Room, identity: str | None, seat: int, player_id: int) -> Player:
    """The host lets a newcomer who asked take over an away seat: the seat is bound to the
    newcomer from now on, and its old player can no longer come back to it."""
    _require_host(room, identity)
    with transaction.atomic():
        match = _locked_running_match(room)
        newcomer = _asker(room, match, seat, player_id)
        _may_take_over(room, match, newcomer, seat, you=False)
        _sit(newcomer, seat)
        match.bound = {**match.bound, str(seat): newcomer.identity}
        match.held = sorted({*match.held, newcomer.identity})
        match.asks = {who: n for who, n in match.asks.items() if n != seat}
        match.save(update_fields=["bound", "held", "asks"])
    return newcomer


def turn_down(room: Room, identity: str | None, seat: int, player_id: int) -> None:
    """The host says no to a newcomer's ask."""
    _require_host(room, identity)
    with transaction.atomic():
        match = _locked_running_match(room)
        asker = _asker(room, match, seat, player_id)
        match.asks = {who: n for who, n in match.asks.items() if who != asker.identity}
        match.save(update_fields=["asks"])


def _asker(room: Room, match: Match, seat: int, player_id: int) -> Player:
    asker = room.players.filter(pk=player_id).first()
    if asker is None or match.asks.get(asker.identity) != seat:
        raise LobbyRefusal(f"Nobody by that name is asking for seat {seat}.", 409)
    return asker


def _may_take_over(room: Room, match: Match, player: Player, seat: int, *, you: bool) -> None:
    """Whether this player may take over ``seat`` of the running game: only someone who
    never held a seat in it (nor saw its key), and only a seat whose player is away.
    ``you``: the refusal speaks to the player (an ask) rather than to the host."""
    count = match.players()
    if not 1 <= seat <= count:
        raise LobbyRefusal(f"This game is played in seats 1 to {count}.", 409)
    who, has, them = ("You", "have", "you") if you else (player.name, "has", "them")
    if player.seat is not None or match.seat_of(player.identity) is not None:
        mine = player.seat or match.seat_of(player.identity)
        raise LobbyRefusal(f"{who} {has} seat {mine} in this game already.", 409)
    if player.identity in match.held:
        raise LobbyRefusal(f"{who} played in this game: no other seat in it for {them}.", 409)
    if player.identity in match.saw_key:
        raise LobbyRefusal(f"{who} saw this game's key in its replay: no seat for {them}.", 409)
    if (sitting := seated(room).get(seat)) is not None:
        raise LobbyRefusal(f"Seat {seat} is taken: {sitting.name} is in it.", 409)


def away_seats(match: Match, sitting: Mapping[int, Player]) -> dict[int, str]:
    """The game's seats whose player stood up or was freed (``sitting``: the room's
    ``seated``, already read): seat -> the identity it waits for."""
    return {int(n): who for n, who in match.bound.items() if int(n) not in sitting}


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
        options = game_of(room).options.clean(raw)
    except ValueError as error:
        raise LobbyRefusal(str(error)) from error
    room.options = options
    room.save(update_fields=["options"])


def options_of(room: Room) -> dict[str, str]:
    """The room's choices, any the game added since filled with its defaults."""
    return {**game_of(room).options.default(), **(room.options or {})}


def seated(room: Room) -> dict[int, Player]:
    """Who sits where. ``all()``, not a filter: a room read with its players (a lobby pass)
    is asked nothing more."""
    return {p.seat: p for p in room.players.all() if p.seat is not None}


def start_blocker(room: Room) -> str | None:
    """Why the game cannot start now (S1), or None."""
    if game_running(room):
        return "A game is already on."
    seats = sorted(seated(room))
    kind = game_of(room)
    least = kind.seats.least
    if len(seats) < least:
        if least == kind.seats.most:
            return f"{kind.title} needs exactly {kind.seats.range_text}."
        return f"{_count_word(least)} or more players must sit down."
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
        game, _ = game_of(room).start(
            players=len(players), step_seconds=room.step_seconds, options=options_of(room)
        )
        number = room.matches.count() + 1
        match = Match.objects.create(
            room=room,
            game=game,
            number=number,
            seats={str(n): p.name for n, p in players.items()},
            bound={str(n): p.identity for n, p in players.items()},
            held=sorted({p.identity for p in players.values()}),
        )
        room.game = game
        room.save(update_fields=["game"])
    return match
