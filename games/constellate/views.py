"""Constellate's actions over htmx POSTs: parse, call one service, render.

Every response is a set of out-of-band fragments (the forms use ``hx-swap="none"``): the
board for the actor's audience when something happened, a notice when it was refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from lobby.models import Room
from lobby.views import RoomContext, room_context

from . import rules, services
from .screens import audience_of, render_board, render_notice

STATUS = {
    rules.Problem.FORBIDDEN: 403,
    rules.Problem.CONFLICT: 409,
    rules.Problem.INVALID: 400,
    rules.Problem.WORD: 422,
}


class BadInput(Exception):
    pass


def _int(request: HttpRequest, field: str, low: int, high: int) -> int:
    raw = request.POST.get(field, "")
    if not re.fullmatch(r"\s*-?[0-9]+\s*", raw) or len(raw) > 6:  # ASCII digits only
        raise BadInput(f"Missing or malformed {field}.")
    value = int(raw)
    if not low <= value <= high:
        raise BadInput(f"The {field} must be from {low} to {high}.")
    return value


def _notice(message: str, status: int) -> HttpResponse:
    return HttpResponse(render_notice(message), status=status)


def _seat_action(
    build: Callable[[HttpRequest, int], rules.Command],
) -> Callable[[HttpRequest, str], HttpResponse]:
    @require_POST
    def view(request: HttpRequest, code: str) -> HttpResponse:
        ctx = room_context(request, code)
        if ctx.room.game is None:
            return _notice("No game is on in this room.", 409)
        seat = ctx.player.seat if ctx.player else None
        if seat is None:
            return _notice("Only seated players can do that.", 403)
        try:
            command = build(request, seat)
        except BadInput as error:
            return _notice(str(error), 400)
        outcome = services.act(ctx.room.game_id, command)
        return _respond(ctx, outcome)

    return view


def _respond(ctx: RoomContext, outcome: services.Outcome) -> HttpResponse:
    board = _board(ctx, outcome.state)
    if outcome.refusal is None:
        return HttpResponse(board + render_notice("", error=False))
    status = STATUS[outcome.refusal.problem]
    notice = render_notice(outcome.refusal.reason)
    if outcome.refusal.problem is rules.Problem.WORD:
        return HttpResponse(notice, status=status)  # T3: the word stays in the input
    return HttpResponse(board + notice, status=status)  # the view refreshes (T7)


def _board(ctx: RoomContext, state: rules.State) -> str:
    seat = ctx.player.seat if ctx.player else None
    return render_board(state, audience_of(state, seat), ctx.names, ctx.room.code, oob=True)


name = _seat_action(
    lambda request, seat: rules.Name(
        seat=seat,
        word=request.POST.get("word", "")[:40],
        number=_int(request, "number", 1, 8),
        version=_int(request, "version", 0, 10**6),
    )
)
touch = _seat_action(
    lambda request, seat: rules.TouchCard(
        seat=seat,
        card=_int(request, "card", 0, rules.SKY_SIZE - 1),
        version=_int(request, "version", 0, 10**6),
        comet_order=services.comet_order(),
    )
)
stop = _seat_action(
    lambda request, seat: rules.Stop(seat=seat, version=_int(request, "version", 0, 10**6))
)


@require_POST
def tick(request: HttpRequest, code: str) -> HttpResponse:
    """A countdown reached zero: the server checks the deadline by its own clock (C6)."""
    ctx = room_context(request, code)
    if ctx.room.game is None:
        return HttpResponse(status=204)
    state = services.current(ctx.room.game_id)
    return HttpResponse(_board(ctx, state))


def room_board(room: Room, state: rules.State, seat: int | None, names: dict[int, str]) -> str:
    return render_board(state, audience_of(state, seat), names, room.code)
