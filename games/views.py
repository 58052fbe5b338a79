"""What every game's room shares on the web: a seated player's action over an htmx POST,
the countdown's tick, and the replay of a finished game folded from its events.

A game brings its service (``act``) and its screens (``games.registry.GameType.screens``):
``render_board``, ``render_notice``, and for the replay ``history_board``, ``describe``
and ``history_jumps``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from lobby.models import Match
from lobby.ratelimit import limited, limited_both
from lobby.views import SLOW_DOWN, RoomContext, board_html, identity_of, room_context

from . import inputs, store
from .inputs import BadInput
from .kit import Problem
from .registry import game_type

# A refusal's problem (the kit's Problem, which every game's rules use) to the status code.
STATUS: dict[str, int] = {
    Problem.FORBIDDEN: 403,
    Problem.CONFLICT: 409,
    Problem.INVALID: 400,
    Problem.WORD: 422,  # a word check refused what the player typed
}


def int_field(request: HttpRequest, field: str, low: int, high: int) -> int:
    """A form's whole number (games/inputs.py: ASCII digits only), or ``BadInput``."""
    return inputs.integer(request.POST.get(field), field, low, high)


def seat_action(
    kind: str,
    act: Callable[[int, Any], Any],
    build: Callable[[HttpRequest, int], Any],
    *,
    status: dict[str, int] | None = None,
    quiet: Collection[str] = (),
) -> Callable[[HttpRequest, str], HttpResponse]:
    """A POST view for one seated player's command in a game of ``kind``: ``build`` turns
    the form into the command (raising ``BadInput``), ``act`` runs it. The answer is the
    actor's board (out of band) and a notice; a refusal whose problem is in ``quiet`` gets
    the notice alone, so what the player typed stays in place."""
    statuses = {**STATUS, **(status or {})}

    @require_POST
    def view(request: HttpRequest, code: str) -> HttpResponse:
        ctx = room_context(request, code)
        screens = game_type(kind).screens
        if limited(request, "action"):
            return _notice(screens, SLOW_DOWN, 429)
        game = ctx.room.game
        if game is None:
            return _notice(screens, "No game is on in this room.", 409)
        if game.kind != kind:
            return _notice(screens, "This room plays another game.", 409)
        seat = ctx.seat  # while a game runs, only the seat bound to this browser
        if seat is None:
            return _notice(screens, "Only seated players can do that.", 403)
        try:
            command = build(request, seat)
        except BadInput as error:
            return _notice(screens, error.message, error.status)
        outcome = act(game.id, command)
        return _respond(ctx, screens, outcome, statuses, quiet)

    return view


def _notice(screens: Any, message: str, status: int) -> HttpResponse:
    return HttpResponse(screens.render_notice(message), status=status)


def _respond(
    ctx: RoomContext, screens: Any, outcome: Any, statuses: dict[str, int], quiet: Collection[str]
) -> HttpResponse:
    board = _board(ctx, screens, outcome.state)
    if outcome.refusal is None:
        return HttpResponse(board + screens.render_notice("", error=False))
    problem = str(outcome.refusal.problem)
    notice = screens.render_notice(outcome.refusal.reason)
    if problem in quiet:
        return HttpResponse(notice, status=statuses[problem])
    return HttpResponse(board + notice, status=statuses[problem])  # the view refreshes


def _board(ctx: RoomContext, screens: Any, state: Any) -> str:
    audience = screens.audience_of(state, ctx.seat)
    return screens.render_board(state, audience, ctx.names, ctx.room.code, oob=True)


@require_POST
def tick(request: HttpRequest, code: str) -> HttpResponse:
    """A countdown reached zero: the server checks the deadline by its own clock (C6).
    Limited per browser and per address; it takes no lock unless the step is due."""
    ctx = room_context(request, code)
    if limited_both(request, "tick"):
        return HttpResponse(status=429)  # the push brings the expiry all the same
    if ctx.room.game is None:
        return HttpResponse(status=204)
    return HttpResponse(board_html(ctx, oob=True)[0])


# -- history: a finished game, step by step, folded from its events ---------------------------


def history_latest(request: HttpRequest, code: str) -> HttpResponse:
    ctx = room_context(request, code)
    match = ctx.room.matches.order_by("-number").first()
    if match is None:
        raise Http404("No game has been played in this room yet.")
    return redirect("games:history", code=code, number=match.number)


def history(request: HttpRequest, code: str, number: int) -> HttpResponse:
    ctx = room_context(request, code)
    match = get_object_or_404(Match.objects.select_related("game"), room=ctx.room, number=number)
    try:
        wanted = _step(request.GET.get("step"))
    except BadInput as error:  # before anything is recorded about this visit
        return HttpResponse(error.message, status=400, content_type="text/plain")
    if match.game.ended_at is None:
        if refusal := _running_replay_refusal(request, ctx, match):
            return HttpResponse(refusal, status=403, content_type="text/plain")
        _saw_the_key(request, match)
    kind = game_type(match.game.kind)
    screens = kind.screens
    states = store.replay(match.game)  # folded from the stored events, never a saved picture
    last = len(states) - 1
    step = last if wanted is None else min(wanted, last)  # past the end is the end
    state = states[step]
    names = match.names()
    jump_label, jumps = screens.history_jumps(states[last], names)
    return render(
        request,
        "games/history.html",
        {
            "title": kind.title,
            "styles": kind.styles,
            "code": code,
            "number": number,
            "step": step,
            "last": last,
            "prev": max(1, step - 1),
            "next": min(last, step + 1),
            "board_html": screens.history_board(state, names, code),
            "happened": screens.describe(states[step - 1], state, names),
            "jump_label": jump_label,
            "jumps": jumps,
        },
    )


# The replay of a running game shows its key: only for moderators (the permission the
# Moderators group has to review flags), and never for anyone playing in it.
REPLAY_RUNNING = "moderation.change_flag"


def _running_replay_refusal(request: HttpRequest, ctx: RoomContext, match: Match) -> str:
    """Why this viewer may not open the running game's replay ("" if they may)."""
    if not request.user.has_perm(REPLAY_RUNNING):
        return "The replay opens when the game ends."
    seated = ctx.player is not None and ctx.player.seat is not None
    if seated or (ctx.identity is not None and ctx.identity in match.held):
        return "You are playing in this game: its replay opens when it ends."
    return ""


def _saw_the_key(request: HttpRequest, match: Match) -> None:
    """A moderator's browser that saw the running game's key may never take one of its
    seats (lobby.services: a newcomer must not know the key)."""
    identity = identity_of(request, create=True)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if identity not in locked.saw_key:
            locked.saw_key = [*locked.saw_key, identity]
            locked.save(update_fields=["saw_key"])


def _step(raw: str | None) -> int | None:
    """The replay's step asked for (None: the last), or ``BadInput``. A step past the end
    shows the end: the game may be shorter than a link says."""
    if raw is None or raw == "":
        return None
    return inputs.integer(raw, "step", 1, 10**6)
