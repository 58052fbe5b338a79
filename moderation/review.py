"""What a moderator reads on a flag: rebuilt from the game's events, never from a picture.
The platform folds the game up to the event that made the text public; the game's
moderation hook (games.flags) says how to name the text, who gave it, and draws the panel."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.urls import reverse

from games import store
from games.flags import Moderation
from games.registry import Definition, game_type
from lobby.models import Match

from .models import Flag


class FlagReview:
    def __init__(self, flag: Flag) -> None:
        self.flag = flag

    @cached_property
    def match(self) -> Match | None:
        return getattr(self.flag.game, "match", None)

    @cached_property
    def kind(self) -> Definition:
        return game_type(self.flag.game.kind)

    @property
    def hook(self) -> Moderation | None:
        return self.kind.moderation

    @cached_property
    def state(self) -> Any:
        """The game just after the text was given (the event that made it public)."""
        return self.kind.fold(store.read_events(self.flag.game, upto=self.flag.event_seq))

    @property
    def word_and_number(self) -> str:
        title = self.hook.title(self.state, self.flag.constellation) if self.hook else None
        return title or self.flag.word

    @property
    def room_code(self) -> str:
        return self.match.room.code if self.match else "—"

    @property
    def given_by(self) -> str:
        if self.hook is None:
            return "—"
        names = self.match.names() if self.match else {}
        return self.hook.given_by(self.state, self.flag.constellation, names)

    @property
    def panel_heading(self) -> str:
        return self.hook.panel_heading if self.hook else "The game when it was given"

    @property
    def panel_label(self) -> str:
        return self.hook.panel_label if self.hook else "The game"

    def reasons(self) -> list[tuple[str, int, str, str]]:
        flags = Flag.objects.filter(
            game_id=self.flag.game_id, constellation=self.flag.constellation
        ).order_by("created_at")
        return [
            (
                f.flagger_name,
                f.flagger_seat,
                f.get_kind_display(),
                f" — “{f.reason}”" if f.reason else "",
            )
            for f in flags
        ]

    def panel_html(self) -> str:
        """The game's panel: safe HTML from the game (format_html); a plain str is escaped."""
        return self.hook.panel_html(self.state, self.flag.constellation) if self.hook else "—"

    def replay_url(self) -> str | None:
        if self.match is None:
            return None
        url = reverse(
            "lobby:history",
            kwargs={"code": self.match.room.code, "number": self.match.number},
        )
        return f"{url}?step={self.flag.event_seq}"
