"""A player flags a constellation from the log (F1): confirmed to the flagger only."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from games.constellate.screens import render_notice
from games.inputs import BadInput, integer, one_of, text
from lobby.ratelimit import limited
from lobby.views import SLOW_DOWN, room_context

from .models import Flag
from .services import FlagRefusal, flag_constellation


@require_POST
def flag(request: HttpRequest, code: str) -> HttpResponse:
    ctx = room_context(request, code)
    if limited(request, "action"):
        return HttpResponse(render_notice(SLOW_DOWN), status=429)
    if ctx.room.game_id is None:
        return HttpResponse(render_notice("No game is on in this room."), status=409)
    if ctx.room.game.kind != "constellate":  # flags are for Constellate's words
        return HttpResponse(render_notice("This game has no words to flag."), status=409)
    try:
        form = _flag_form(request)
    except BadInput as error:
        return HttpResponse(render_notice(error.message), status=error.status)
    try:
        flagged = flag_constellation(
            game_id=ctx.room.game_id,
            seat=ctx.seat,
            name=ctx.player.name if ctx.player else "",
            **form,
        )
    except FlagRefusal as refusal:
        return HttpResponse(render_notice(refusal.message), status=refusal.status)
    thanks = f"Thanks: {flagged.word} went to the moderators. The game goes on unchanged."
    return HttpResponse(render_notice(thanks, error=False))


def _flag_form(request: HttpRequest) -> dict[str, int | str]:
    """Which constellation, why, and the optional note, read by games/inputs.py (the note
    by the same rules as names: no control or invisible characters, NUL included)."""
    return {
        "constellation": integer(request.POST.get("constellation"), "constellation", 1, 99),
        "kind": one_of(
            request.POST.get("kind", Flag.Kind.OTHER),
            Flag.Kind.values,
            "Choose why you are flagging it.",
        ),
        "reason": text(request.POST.get("reason"), "reason", 200),
    }
