"""A player flags a game's public text from the game's screen (for Constellate: a
constellation from the log, F1): confirmed to the flagger only. Which texts may be flagged,
and by whom, is the game's to say (its definition's moderation hook, games.flags)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from games.inputs import BadInput, integer, one_of, text
from games.registry import game_type
from lobby.models import Room
from lobby.ratelimit import limited
from lobby.views import SLOW_DOWN, room_context

from .models import Flag
from .services import FlagRefusal, flag_constellation, moderation_of


@require_POST
def flag(request: HttpRequest, code: str) -> HttpResponse:
    ctx = room_context(request, code)
    if limited(request, "action"):
        return _notice(ctx.room, SLOW_DOWN, 429)
    game = ctx.room.game
    if game is None:
        return _notice(ctx.room, "No game is on in this room.", 409)
    try:
        moderation_of(game.kind)  # a game with no texts to flag: refused first
        form = _flag_form(request)
    except (BadInput, FlagRefusal) as error:
        return _notice(ctx.room, error.message, error.status)
    try:
        flagged = flag_constellation(
            game_id=game.pk,
            seat=ctx.seat,
            name=ctx.player.name if ctx.player else "",
            constellation=form.constellation,
            kind=form.kind,
            reason=form.reason,
        )
    except FlagRefusal as refusal:
        return _notice(ctx.room, refusal.message, refusal.status)
    thanks = f"Thanks: {flagged.word} went to the moderators. The game goes on unchanged."
    return _notice(ctx.room, thanks, 200, error=False)


def _notice(room: Room, message: str, status: int, *, error: bool = True) -> HttpResponse:
    """The room's notice, drawn by its game's screens (the platform's when no game is on)."""
    html: str
    if room.game is None:
        html = render_to_string("moderation/notice.html", {"message": message, "error": error})
    else:
        html = game_type(room.game.kind).screens.render_notice(message, error=error)
    return HttpResponse(html, status=status)


@dataclass(frozen=True)
class FlagForm:
    constellation: int
    kind: str
    reason: str


def _flag_form(request: HttpRequest) -> FlagForm:
    """Which text (by its number in the game), why, and the optional note, read by
    games/inputs.py (the note by the same rules as names: no control or invisible
    characters, NUL included)."""
    return FlagForm(
        constellation=integer(request.POST.get("constellation"), "constellation", 1, 99),
        kind=one_of(
            request.POST.get("kind", Flag.Kind.OTHER),
            Flag.Kind.values,
            "Choose why you are flagging it.",
        ),
        reason=text(request.POST.get("reason"), "reason", 200),
    )
