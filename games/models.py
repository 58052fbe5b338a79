"""The event store: a game and its append-only events. The state is the fold of the events."""

from __future__ import annotations

from django.db import models


class Game(models.Model):
    """One game of one kind (``constellate``...). ``version`` is the number of its events;
    it moves only together with an append, inside the same transaction."""

    kind = models.CharField(max_length=40)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["kind", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} (v{self.version})"


class Event(models.Model):
    """One thing that happened in a game. Nothing ever updates or deletes an event.
    ``schema`` is the version of its kind's payload it was written in: reading upcasts an
    older one to the current version (``games.codec.EventSchemas``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=60)
    schema = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    actor_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique_per_game"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="event_seq_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.kind}"
