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


class BlockedWord(models.Model):
    """A word the moderators refuse in every later game (W3), beside the shipped slur list."""

    word = models.CharField(max_length=10, unique=True)
    note = models.CharField(max_length=200, blank=True)
    added_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["word"]
        verbose_name = "blocked word"

    def save(self, *args, **kwargs) -> None:
        self.word = self.word.strip().lower()
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.word.upper()


class ModerationAction(models.Model):
    """Who did what to a flag, and when: the record shown on the flag."""

    class Verb(models.TextChoices):
        DISMISSED = "dismissed", "Dismissed"
        UPHELD = "upheld", "Upheld (word blocked)"

    flag = models.ForeignKey(Flag, on_delete=models.CASCADE, related_name="actions")
    verb = models.CharField(max_length=12, choices=Verb.choices)
    moderator = models.ForeignKey(
        "auth.User", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_verb_display()} by {self.moderator} at {self.created_at:%Y-%m-%d %H:%M}"
