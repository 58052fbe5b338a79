"""Flags on constellations (F1, F2) for the moderators' review queue."""

from __future__ import annotations

from django.db import models

from games.models import Game


class Flag(models.Model):
    class Kind(models.TextChoices):
        NAMES_PICTURE = "names_picture", "Names a picture"
        OFFENSIVE = "offensive", "Slur or offensive"
        NOT_A_WORD = "not_a_word", "Not a real word"
        OTHER = "other", "Other"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DISMISSED = "dismissed", "Dismissed"
        UPHELD = "upheld", "Upheld"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="flags")
    constellation = models.PositiveSmallIntegerField()  # its number in the game: 1, 2...
    event_seq = models.PositiveIntegerField()  # the event that took the constellation
    word = models.CharField(max_length=10)
    flagger_seat = models.PositiveSmallIntegerField()
    flagger_name = models.CharField(max_length=24)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.OTHER)
    reason = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "constellation", "flagger_seat"], name="one_flag_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.word} (game {self.game_id}, #{self.constellation}) by {self.flagger_name}"
