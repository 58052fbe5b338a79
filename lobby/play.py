"""The room's game on the web: a seated player's action, the countdown's tick, the replay
of a game folded from its events, and each game's rules page.

Every game is read through its definition (``games.definition``): an action's form
becomes a command (``Action.build``), the service runs it, and the answer is the actor's
board and a notice, rendered by the game's screens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from games import inputs, store
from games.definition import Action, GameDefinition, Screens
from games.inputs import BadInput
from games.kit import Problem
from games.registry import all_game_types, game_type
from games.service import Outcome

from .models import Match
from .ratelimit import limited, limited_both
from .views import SLOW_DOWN, RoomContext, board_html, ensure_identity, room_context

# A refusal's problem (the kit's Problem, which every game's rules use) to the status code.
STATUS: dict[Problem, int] = {
    Problem.FORBIDDEN: 403,
    Problem.CONFLICT: 409,
    Problem.INVALID: 400,
    Problem.WORD: 422,  # a word check refused what the player typed
}
UNKNOWN_ACTION = "This room's game has no such action."
ANOTHER_GAME = "This room plays another game."
SEATED_ONLY = "Only seated players can do that."


@require_POST
def act(request: HttpRequest, code: str, action: str) -> HttpResponse:
    """One seated player's command in the room's game: ``action`` names one of the game's
    actions (``GameDefinition.actions``). The answer is the actor's board (out of band)
    and a notice; a refusal whose problem is quiet gets the notice alone, so what the
    player typed stays in place."""
    ctx = room_context(request, code)
    if limited(request, "action"):
        return _notice(game_type(ctx.room.kind).screens, SLOW_DOWN, 429)
    answer = perform(ctx, action, request.POST)
    return HttpResponse(answer.html, status=answer.status)


@dataclass(frozen=True)
class Answer:
    """What the actor is told of an action, whichever way it came (this view, or the room's
    socket: lobby/consumers.py)."""

    status: int  # as HTTP says it: 200 taken, else the refusal's
    notice: str  # the notice line: the refusal's reason, or emptied after a change
    board: str = ""  # the actor's board or its changed areas; "" for a quiet refusal
    taken: bool = False  # stored: every socket of the room is pushed the change

    @property
    def html(self) -> str:
        return self.board + self.notice


def perform(
    ctx: RoomContext, action: str, data: QueryDict, *, answer_change: bool = True
) -> Answer:
    """The action ``action`` of ``ctx``'s seat, read from ``data`` (a form's fields) and run
    by the game's service. ``answer_change=False`` leaves the board out of a taken action's
    answer: the room's socket that sent it is pushed the change with everyone else."""
    game = game_type(ctx.room.kind)
    screens = game.screens
    row = ctx.room.game
    if row is None:
        return _refused(screens, "No game is on in this room.", 409)
    chosen = game.actions.get(action)
    if chosen is None:
        other = any(action in g.actions for g in all_game_types())
        return _refused(screens, ANOTHER_GAME if other else UNKNOWN_ACTION, 409 if other else 404)
    seat = ctx.seat  # while a game runs, only the seat bound to this browser
    if seat is None:
        return _refused(screens, SEATED_ONLY, 403)
    try:
        command = chosen.build(data, seat)
    except BadInput as error:
        return _refused(screens, error.message, error.status)
    outcome = game.act(row, command)  # as read with the room: no lock unless raced
    return _answer(ctx, row.id, game, chosen, outcome, answer_change)


@require_GET
def preview(request: HttpRequest, code: str, name: str) -> HttpResponse:
    """What a seated player's draft would do (``GameDefinition.previews``): the game's
    answer for that seat alone. It records nothing and takes no lock."""
    ctx = room_context(request, code)
    game = game_type(ctx.room.kind)
    if limited(request, "preview"):
        return _notice(game.screens, SLOW_DOWN, 429)
    row = ctx.room.game
    chosen = game.previews.get(name)
    if row is None or chosen is None:
        return _notice(game.screens, "There is nothing to preview here.", 404)
    seat = ctx.seat
    if seat is None:
        return _notice(game.screens, SEATED_ONLY, 403)
    try:
        now = timezone.now()
        shown = chosen.show(game.current(row.id, now=now), seat, request.GET, now)
    except BadInput as error:
        return _notice(game.screens, error.message, error.status)
    return HttpResponse(game.screens.render_preview(shown))


def _notice(screens: Screens[Any], message: str, status: int) -> HttpResponse:
    return HttpResponse(screens.render_notice(message), status=status)


def _refused(screens: Screens[Any], message: str, status: int) -> Answer:
    return Answer(status, screens.render_notice(message))


def _answer(
    ctx: RoomContext,
    game_id: int,
    game: GameDefinition[Any, Any],
    action: Action[Any],
    outcome: Outcome,
    answer_change: bool,
) -> Answer:
    screens = game.screens
    if outcome.refusal is None:
        board = _change(ctx, screens, game_id, outcome) if answer_change else ""
        return Answer(200, screens.render_notice("", error=False), board, taken=True)
    problem = outcome.refusal.problem
    status = {**STATUS, **action.status}[problem]
    notice = screens.render_notice(outcome.refusal.reason)
    if problem in action.quiet:
        return Answer(status, notice)
    return Answer(status, notice, _board(ctx, screens, game_id, outcome.state))  # it refreshes


def _change(ctx: RoomContext, screens: Screens[Any], game_id: int, outcome: Outcome) -> str:
    """What the actor's own page is sent: what its socket is pushed for the same change (the
    areas it sees change, or the whole board; rendered once for both), or the whole board
    when the clock expired a step first (two changes)."""
    if outcome.expired or not outcome.events:
        return _board(ctx, screens, game_id, outcome.state)
    state = outcome.state
    return screens.render_push(
        state,
        outcome.events,
        screens.audience_of(state, ctx.seat),
        ctx.names,
        ctx.room.code,
        game=game_id,
        since=state.version - len(outcome.events),
    )


def _board(ctx: RoomContext, screens: Screens[Any], game_id: int, state: Any) -> str:
    audience = screens.audience_of(state, ctx.seat)
    return screens.render_board(state, audience, ctx.names, ctx.room.code, game=game_id, oob=True)


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
    return redirect("lobby:history", code=code, number=match.number)


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
    jumps = screens.jumps(states[last], names)
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
            "jump_label": screens.jump_label,
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
    identity = ensure_identity(request)
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


def how_to_play(request: HttpRequest, kind: str) -> HttpResponse:
    """A game's rules page (404 for a game without one)."""
    game = next((g for g in all_game_types() if g.slug == kind), None)
    if game is None or game.how_to_play is None:
        raise Http404("No game has that name.")
    context = {"title": game.title, "game": game, **game.how_to_play.context()}
    return render(request, game.how_to_play.template, context)
