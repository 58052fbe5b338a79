"""Constellate's actions over htmx POSTs: parse, call one service, render.

Every response is a set of out-of-band fragments (the forms use ``hx-swap="none"``): the
board for the actor's audience when something happened, a notice when it was refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games import store
from lobby.models import Match, Room
from lobby.ratelimit import limited
from lobby.views import SLOW_DOWN, RoomContext, room_context

from . import rules, services
from .presenters import present_history, result_text
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
        if limited(request, "action"):
            return _notice(SLOW_DOWN, 429)
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


# -- history: a finished game, step by step, folded from its events ---------------------------


def history_latest(request: HttpRequest, code: str) -> HttpResponse:
    ctx = room_context(request, code)
    match = ctx.room.matches.order_by("-number").first()
    if match is None:
        raise Http404("No game has been played in this room yet.")
    return redirect("constellate:history", code=code, number=match.number)


def history(request: HttpRequest, code: str, number: int) -> HttpResponse:
    ctx = room_context(request, code)
    match = get_object_or_404(Match.objects.select_related("game"), room=ctx.room, number=number)
    if match.game.ended_at is None and not request.user.is_staff:
        return HttpResponse(
            "The replay opens when the game ends.", status=403, content_type="text/plain"
        )
    states = store.replay(match.game)  # folded from the stored events, never a saved picture
    last = len(states) - 1
    step = _step(request.GET.get("step"), last)
    state = states[step]
    names = match.names()
    return render(
        request,
        "constellate/history.html",
        {
            "code": code,
            "number": number,
            "step": step,
            "last": last,
            "prev": max(1, step - 1),
            "next": min(last, step + 1),
            "board": present_history(state, names, code),
            "happened": describe(states[step - 1], state, names),
            "jumps": [
                (c.version, f"{c.number}. {c.word} {c.count}") for c in states[last].constellations
            ],
        },
    )


def _step(raw: str | None, last: int) -> int:
    if raw is None or not raw.isdigit() or len(raw) > 6:
        return last
    return min(max(1, int(raw)), last)


def describe(before: rules.State, after: rules.State, names: dict[int, str]) -> str:
    """What the step's event did, in a sentence."""
    if not before.dealt:
        first = after.first_crew.title if after.players >= 4 else "the crew"
        return f"The sky was dealt: {first} starts."
    if after.ended:
        return result_text(after)
    if len(after.constellations) > len(before.constellations):
        c = after.constellations[-1]
        return f"{names.get(c.seat, 'The Stargazer')} named {c.word} {c.count}."
    new_lit = sorted(after.lit - before.lit)
    if new_lit and after.constellations:
        touches = after.constellations[-1].touches
        if touches and touches[-1].card in new_lit:
            who = names.get(touches[-1].seat, "A Spotter")
            return f"{who} touched the {after.sky[touches[-1].card]}."
        return "The comet lit " + ", ".join(after.sky[i] for i in new_lit) + "."
    if after.step is rules.Step.NAMING and before.step is not rules.Step.NAMING:
        return "The turn ended."
    if after.crew is not before.crew or after.step_started != before.step_started:
        return f"{after.crew.title if after.players >= 4 else 'The crew'} names next."
    return "The turn ended."
