"""Constellate's side of moderation (F1): its constellations may be flagged by every seated
player of either crew, once each; a flag's page shows the 24 pictures with the key as they
stood when the word was given (the platform rebuilds that state from the game's events)."""

from __future__ import annotations

from collections.abc import Mapping

from django.templatetags.static import static
from django.utils.html import format_html, format_html_join

from games.flags import FlaggableText, FlagRefused

from . import rules
from .deck import picture
from .presenters import KEY_LABELS, KEY_SYMBOLS


def _taken(state: rules.State, number: int) -> rules.Constellation | None:
    taken = state.constellations
    return taken[number - 1] if 1 <= number <= len(taken) else None


class ConstellateModeration:
    already_flagged = "You have already flagged this constellation."
    panel_heading = "The sky when the word was given"
    panel_label = "Pictures and key"
    styles: tuple[str, ...] = ("constellate/review.css",)

    def flaggable(self, state: rules.State, seat: int | None, number: int) -> FlaggableText:
        if seat is None or state.seat(seat) is None:
            raise FlagRefused("Only the game's players can flag a constellation.", 403)  # F1
        taken = _taken(state, number)
        if taken is None:
            raise FlagRefused("There is no such constellation in this game.", 404)
        return FlaggableText(number=number, text=taken.word, event_seq=taken.version)

    def title(self, state: rules.State, number: int) -> str | None:
        taken = _taken(state, number)
        return f"{taken.word} {taken.count}" if taken else None

    def given_by(self, state: rules.State, number: int, names: Mapping[int, str]) -> str:
        taken = _taken(state, number)
        if taken is None:
            return "—"
        crew = "the crew" if state.mode is rules.Mode.BEFORE_DAWN else taken.crew.display
        return f"{names.get(taken.seat, '?')} (seat {taken.seat}, {crew}'s Stargazer)"

    def panel_html(self, state: rules.State, number: int) -> str:
        cells = []
        for index, name in enumerate(state.sky):
            key = state.key[index]
            lit = " (lit)" if index in state.lit else ""
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
        return format_html('<div class="review-sky">{}</div>', rows)  # constellate/review.css


MODERATION = ConstellateModeration()
