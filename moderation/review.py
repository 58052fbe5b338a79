"""What a moderator reads on a flag: rebuilt from the game's events, never from a picture."""

from __future__ import annotations

from functools import cached_property

from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games import store
from games.constellate import rules
from games.constellate.deck import picture
from games.constellate.presenters import KEY_LABELS, KEY_SYMBOLS
from games.registry import game_type

from .models import Flag


class FlagReview:
    def __init__(self, flag: Flag) -> None:
        self.flag = flag

    @cached_property
    def match(self):  # type: ignore[no-untyped-def]
        return getattr(self.flag.game, "match", None)

    @cached_property
    def state(self) -> rules.State:
        """The game just after the word was given (the constellation's own event)."""
        game = self.flag.game
        kind = game_type(game.kind)
        return kind.fold(store.read_events(game, upto=self.flag.event_seq))

    @property
    def constellation(self) -> rules.Constellation | None:
        taken = self.state.constellations
        return taken[self.flag.constellation - 1] if len(taken) >= self.flag.constellation else None

    @property
    def word_and_number(self) -> str:
        c = self.constellation
        return f"{self.flag.word} {c.count}" if c else self.flag.word

    @property
    def room_code(self) -> str:
        return self.match.room.code if self.match else "—"

    @property
    def given_by(self) -> str:
        c = self.constellation
        if c is None:
            return "—"
        name = self.match.names().get(c.seat, "?") if self.match else "?"
        crew = "the crew" if self.state.mode is rules.Mode.BEFORE_DAWN else c.crew.title
        return f"{name} (seat {c.seat}, {crew}'s Stargazer)"

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

    def sky_html(self) -> str:
        cells = []
        for index, name in enumerate(self.state.sky):
            key = self.state.key[index]
            lit = " (lit)" if index in self.state.lit else ""
            cells.append(
                (static(picture(name).asset), name, KEY_SYMBOLS[key], KEY_LABELS[key], lit)
            )
        rows = format_html_join(
            "",
            '<figure class="review-card">'
            '<img src="{}" alt="" width="48" height="48"><figcaption>{}<br>{} {}{}</figcaption>'
            "</figure>",
            cells,
        )
        return format_html('<div class="review-sky">{}</div>', rows)  # moderation/review.css

    def replay_url(self) -> str | None:
        if self.match is None:
            return None
        url = reverse(
            "games:history",
            kwargs={"code": self.match.room.code, "number": self.match.number},
        )
        return f"{url}?step={self.flag.event_seq}"
