"""Games in the admin: read-only, each with a link to its replay (history page)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from .models import Event, Game


class EventInline(admin.TabularInline):
    model = Event
    extra = 0
    can_delete = False
    fields = ("seq", "kind", "schema", "actor_seat", "created_at", "payload")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "version", "room", "created_at", "ended_at", "replay")
    list_filter = ("kind",)
    search_fields = ("match__room__code",)
    readonly_fields = ("kind", "version", "created_at", "updated_at", "ended_at", "replay")
    inlines = (EventInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games start in rooms

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False  # events are append-only

    @admin.display(description="Room")
    def room(self, game: Game) -> str:
        match = getattr(game, "match", None)
        return match.room.code if match else "—"

    @admin.display(description="Replay")
    def replay(self, game: Game) -> str:
        match = getattr(game, "match", None)
        if match is None:
            return "—"
        url = reverse("lobby:history", kwargs={"code": match.room.code, "number": match.number})
        return format_html('<a href="{}">Replay</a>', url)
