"""Rooms by link, the people in them, and the games they played."""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Lower

from games.models import Game

STEP_CHOICES = [(None, "Off"), (60, "60 s"), (90, "90 s"), (120, "120 s")]  # C1


COMPUTER = "computer:"  # a computer player's identity begins so (lobby/computers.py)


class Room(models.Model):
    code = models.CharField(max_length=32, unique=True)  # the unguessable link
    kind = models.CharField(max_length=40, default="constellate")
    host = models.CharField(max_length=64)  # the creator's browser identity
    step_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    options = models.JSONField(default=dict, blank=True)  # the host's choices for its game
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.code


class Player(models.Model):
    """Someone in a room: a browser with a display name, sitting in a seat or watching."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="players")
    identity = models.CharField(max_length=64)
    name = models.CharField(max_length=24)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seat", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["room", "identity"], name="one_player_per_browser"),
            models.UniqueConstraint(
                fields=["room", "seat"],
                condition=models.Q(seat__isnull=False),
                name="one_player_per_seat",
            ),
            models.UniqueConstraint("room", Lower("name"), name="unique_name_in_room"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_computer(self) -> bool:
        """A computer player the host seated (lobby/computers.py): no browser is it."""
        return self.identity.startswith(COMPUTER)


class Match(models.Model):
    """A game played in a room, with who sat where when it started (for logs and flags),
    and, while it runs, whose each seat is: a seat is bound to the browser identity that
    held it at the start, and only that identity may sit in it until the host lets a
    newcomer take it over."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="matches")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="match")
    number = models.PositiveIntegerField()
    seats = models.JSONField()  # {"1": "Alice", "2": "Bob", ...}
    bound = models.JSONField(default=dict)  # {"1": identity, ...}: whose each seat is
    held = models.JSONField(default=list)  # every identity that ever held a seat in it
    saw_key = models.JSONField(default=list)  # identities that opened its replay as it ran
    asks = models.JSONField(default=dict)  # {identity: seat}: newcomers asking for a seat
    started_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["room", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="match_number_per_room")
        ]

    def computer_seats(self) -> frozenset[int]:
        """The seats the game started with a computer player in."""
        return frozenset(int(n) for n, who in self.bound.items() if who.startswith(COMPUTER))

    def names(self) -> dict[int, str]:
        return {int(k): v for k, v in self.seats.items()}

    def players(self) -> int:
        """How many seats the game has (S1): its mode and seat labels follow this."""
        return len(self.seats)

    def owner(self, seat: int | None) -> str | None:
        """The identity a seat is bound to."""
        return None if seat is None else self.bound.get(str(seat))

    def seat_of(self, identity: str | None) -> int | None:
        """The seat bound to this identity, if any."""
        return next((int(n) for n, who in self.bound.items() if who == identity), None)

    def barred(self, identity: str) -> bool:
        """Whether this identity may never take a seat of this game over: it held one
        (a Spotter must not become a Stargazer, a player must not take both sides), or it
        saw the key in the running game's replay."""
        return identity in self.held or identity in self.saw_key
