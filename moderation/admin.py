"""The moderators' tool: the review queue of flags, and the blocklist, in Django's admin."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games.registry import all_game_types

from . import services
from .models import BlockedWord, Flag, ModerationAction
from .review import FlagReview

if TYPE_CHECKING:  # the stubs' name for what get_fieldsets returns
    from django.contrib.admin.options import _FieldsetSpec


class ActionInline(admin.TabularInline):
    model = ModerationAction
    extra = 0
    can_delete = False
    fields = ("created_at", "verb", "moderator", "note")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Flag)
class FlagAdmin(admin.ModelAdmin):
    list_display = (
        "word_and_number",
        "flags_on_it",
        "kind",
        "status",
        "flagger",
        "room",
        "created_at",
    )
    list_filter = ("status", "kind")
    search_fields = ("word", "game__match__room__code")
    ordering = ("-created_at",)
    list_select_related = ("game__match__room",)
    actions = ("dismiss_flags", "uphold_flags")
    inlines = (ActionInline,)
    change_form_template = "admin/moderation/flag/change_form.html"

    fieldsets = (
        (None, {"fields": ("status", "word_and_number", "given_by", "flagger", "room")}),
        ("Why it was flagged", {"fields": ("reasons",)}),
        ("The game when it was given", {"fields": ("panel", "replay")}),  # named by the game
    )
    readonly_fields = (
        "status",
        "word_and_number",
        "given_by",
        "flagger",
        "room",
        "reasons",
        "panel",
        "replay",
    )

    @property
    def media(self) -> forms.Media:
        """The games' panel stylesheets (their moderation hooks name them), after the admin's."""
        styles = [s for kind in all_game_types() if kind.moderation for s in kind.moderation.styles]
        return super().media + forms.Media(css={"all": styles})

    def get_fieldsets(self, request: HttpRequest, obj: Flag | None = None) -> _FieldsetSpec:
        """The panel's part is headed as its game names it (Constellate: the sky...)."""
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        panel_part = fieldsets[-1][1]
        return (*fieldsets[:-1], (FlagReview(obj).panel_heading, panel_part))

    def get_form(
        self, request: HttpRequest, obj: Flag | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[Flag]]:
        """The panel is labelled as its game names it (Constellate: pictures and key)."""
        if obj is not None:
            kwargs["labels"] = {**kwargs.get("labels", {}), "panel": FlagReview(obj).panel_label}
        return super().get_form(request, obj, change, **kwargs)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Flag]:
        same = (
            Flag.objects.filter(game=OuterRef("game"), constellation=OuterRef("constellation"))
            .values("game")
            .annotate(n=Count("id"))
            .values("n")
        )
        return super().get_queryset(request).annotate(on_it=Subquery(same))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # flags come from players

    @admin.display(description="Constellation", ordering="word")
    def word_and_number(self, flag: Flag) -> str:
        return FlagReview(flag).word_and_number

    @admin.display(description="Flags on it", ordering="on_it")
    def flags_on_it(self, flag: Flag) -> int:
        return getattr(flag, "on_it", 1)

    @admin.display(description="Flagged by")
    def flagger(self, flag: Flag) -> str:
        return f"{flag.flagger_name} (seat {flag.flagger_seat})"

    @admin.display(description="Room", ordering="game__match__room__code")
    def room(self, flag: Flag) -> str:
        return FlagReview(flag).room_code

    @admin.display(description="Given by")
    def given_by(self, flag: Flag) -> str:
        return FlagReview(flag).given_by

    @admin.display(description="Reasons")
    def reasons(self, flag: Flag) -> str:
        rows = FlagReview(flag).reasons()
        return format_html_join("", "<p><strong>{}</strong> (seat {}): {}{}</p>", rows) or "—"

    @admin.display(description="The game")
    def panel(self, flag: Flag) -> str:
        return FlagReview(flag).panel_html()

    @admin.display(description="Replay")
    def replay(self, flag: Flag) -> str:
        url = FlagReview(flag).replay_url()
        return (
            format_html('<a href="{}">Open the replay at this constellation</a>', url)
            if url
            else "—"
        )

    @admin.action(description="Dismiss the selected flags", permissions=["change"])
    def dismiss_flags(self, request: HttpRequest, queryset: QuerySet[Flag]) -> None:
        done = services.dismiss(queryset, _moderator(request))
        self.message_user(request, f"Dismissed {done} flag(s).", messages.SUCCESS)

    @admin.action(
        description="Uphold the selected flags (block their words)", permissions=["change"]
    )
    def uphold_flags(self, request: HttpRequest, queryset: QuerySet[Flag]) -> None:
        done = services.uphold(queryset, _moderator(request))
        self.message_user(
            request, f"Upheld {done} flag(s): their words are now blocked.", messages.SUCCESS
        )

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """The flag page's own buttons: uphold or dismiss this one flag."""
        verb = next((v for v in ("_uphold", "_dismiss") if v in request.POST), None)
        if request.method != "POST" or verb is None or object_id is None:
            return super().changeform_view(request, object_id, form_url, extra_context)
        flag = self.get_object(request, object_id)
        if flag is None or not self.has_change_permission(request, flag):
            raise PermissionDenied
        if verb == "_uphold":
            services.uphold([flag], _moderator(request))
            self.message_user(request, f"Upheld: {flag.word} is now blocked.", messages.SUCCESS)
        else:
            services.dismiss([flag], _moderator(request))
            self.message_user(request, f"Dismissed the flag on {flag.word}.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:moderation_flag_changelist"))


@admin.register(BlockedWord)
class BlockedWordAdmin(admin.ModelAdmin):
    list_display = ("word", "note", "added_by", "created_at")
    search_fields = ("word", "note")
    readonly_fields = ("added_by", "created_at")

    def save_model(
        self,
        request: HttpRequest,
        obj: BlockedWord,
        form: forms.ModelForm[BlockedWord],
        change: bool,
    ) -> None:
        if not change:
            obj.added_by = _moderator(request)
        super().save_model(request, obj, form, change)


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin):
    list_display = ("flag", "verb", "moderator", "created_at")
    list_filter = ("verb",)
    readonly_fields = ("flag", "verb", "moderator", "note", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


def _moderator(request: HttpRequest) -> User:
    """The signed-in moderator (the admin lets no one else this far)."""
    if not isinstance(request.user, User):
        raise PermissionDenied("Sign in as a moderator.")
    return request.user
