"""The lobby's pages and forms: parse, call one lobby service, render."""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from games.registry import all_game_types, game_type

from . import realtime, services
from .models import Match, Player, Room
from .ratelimit import limited

IDENTITY = "identity"
SLOW_DOWN = "Slow down a moment: too many actions at once."


@dataclass
class RoomContext:
    room: Room
    identity: str | None
    player: Player | None
    names: dict[int, str]

    @property
    def is_host(self) -> bool:
        return self.identity is not None and self.identity == self.room.host


def identity_of(request: HttpRequest, *, create: bool = False) -> str | None:
    identity = request.session.get(IDENTITY)
    if identity is None and create:
        identity = services.new_identity()
        request.session[IDENTITY] = identity
    return identity


def room_context(request: HttpRequest, code: str) -> RoomContext:
    room = Room.objects.select_related("game").filter(code=code[:32]).first()
    if room is None:
        raise Http404("No room has that link.")
    return context_for(room, identity_of(request))


def context_for(room: Room, identity: str | None) -> RoomContext:
    player = services.player_in(room, identity)
    match = Match.objects.filter(game_id=room.game_id).first() if room.game_id else None
    return RoomContext(room, identity, player, match.names() if match else {})


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby/home.html", home_context())


def home_context(chosen: str = "constellate") -> dict:
    games = [
        {
            "kind": kind.kind,
            "title": kind.title,
            "summary": kind.summary,
            "players": (
                f"{kind.min_players} players"
                if kind.min_players == kind.max_players
                else f"{kind.min_players}–{kind.max_players} players"
            ),
        }
        for kind in all_game_types()
    ]
    known = {game["kind"] for game in games}
    return {"games": games, "chosen": chosen if chosen in known else games[0]["kind"]}


@require_POST
def create_room(request: HttpRequest) -> HttpResponse:
    identity = identity_of(request, create=True)
    if limited(request, "create_room") or limited(request, "create_room_ip", per="ip"):
        return render(
            request,
            "lobby/home.html",
            {
                **home_context(),
                "message": "You have opened many rooms just now: wait a few minutes.",
            },
            status=429,
        )
    kind = request.POST.get("kind", "constellate")[:40]
    try:
        room = services.create_room(identity, kind)
    except services.LobbyRefusal as refusal:
        context = {**home_context(kind), "message": refusal.message}
        return render(request, "lobby/home.html", context, status=refusal.status)
    return redirect("lobby:room", code=room.code)


def room(request: HttpRequest, code: str) -> HttpResponse:
    identity_of(request, create=True)  # the websocket knows this browser from its first visit
    ctx = room_context(request, code)
    return render(request, "lobby/room.html", page_context(request, ctx))


def page_context(request: HttpRequest, ctx: RoomContext) -> dict:
    link = request.build_absolute_uri(f"/r/{ctx.room.code}/")
    return {
        **lobby_context(ctx),
        "link": link,
        "qr": segno.make(link, error="m").svg_inline(scale=4, dark="#0d1326", light="#ffffff"),
        "board_html": board_html(ctx)[0],
        "styles": services.game_of(ctx.room).styles,
        "scripts": services.game_of(ctx.room).scripts,
    }


def lobby_context(ctx: RoomContext) -> dict:
    room = ctx.room
    seated = services.seated(room)
    kind = services.game_of(room)
    count = max(len(seated), kind.min_players)
    seats = [
        {
            "number": n,
            "label": kind.seat_label(count, n),
            "player": seated.get(n),
            "mine": ctx.player is not None and ctx.player.seat == n,
        }
        for n in range(1, kind.max_players + 1)
    ]
    return {
        "room": room,
        "player": ctx.player,
        "is_host": ctx.is_host,
        "seats": seats,
        "game_title": kind.title,
        "mode": kind.mode_label(len(seated)) if len(seated) >= kind.min_players else "",
        "blocker": services.start_blocker(room),
        "running": services.game_running(room),
        "ended": room.game is not None and room.game.ended_at is not None,
        "step_choices": [
            (str(n) if n else "off", f"{n} s" if n else "Off") for n in services.step_lengths()
        ],
        "step_value": str(room.step_seconds) if room.step_seconds else "off",
        "spectators": room.players.filter(seat=None).count(),
        "options": services.options_of(room),
        "options_template": kind.options_template,
        "options_text": kind.options_text(services.options_of(room)),
    }


def board_html(ctx: RoomContext, *, oob: bool = False) -> tuple[str, str]:
    """The game's board for this viewer, and the viewer's audience ("" with no game)."""
    if ctx.room.game_id is None:
        return "", ""
    screens = game_type(ctx.room.game.kind).screens
    state = screens.current(ctx.room.game_id)
    seat = ctx.player.seat if ctx.player else None
    audience = screens.audience_of(state, seat)
    return screens.render_board(state, audience, ctx.names, ctx.room.code, oob=oob), audience


def audience_of_viewer(ctx: RoomContext) -> str:
    """Which pushes this viewer's socket listens to ("public" with no game)."""
    if ctx.room.game_id is None:
        return "public"
    screens = game_type(ctx.room.game.kind).screens
    seat = ctx.player.seat if ctx.player else None
    return screens.audience_of(screens.current(ctx.room.game_id), seat) or "public"


def render_lobby(ctx: RoomContext, *, oob: bool = False) -> str:
    return render_to_string("lobby/room.html#lobby", {**lobby_context(ctx), "oob": oob})


def _lobby_response(ctx: RoomContext, message: str = "", status: int = 200) -> HttpResponse:
    html = render_lobby(ctx, oob=True) + render_to_string(
        "lobby/room.html#lobby-notice", {"message": message}
    )
    return HttpResponse(html, status=status)


def _lobby_action(action, *, announce: bool = True):  # type: ignore[no-untyped-def]
    """``announce``: tell every socket the lobby changed. Starting a game does not: its
    first event already moves every socket to its audience (lobby/realtime.py), and a
    second announcement would re-render every screen once more."""

    @require_POST
    def view(request: HttpRequest, code: str) -> HttpResponse:
        ctx = room_context(request, code)
        if limited(request, "action"):
            return _lobby_response(ctx, SLOW_DOWN, 429)
        try:
            action(request, ctx)
        except services.LobbyRefusal as refusal:
            return _lobby_response(ctx, refusal.message, refusal.status)
        ctx = room_context(request, code)
        if announce:
            realtime.lobby_changed(ctx.room)
        response = _lobby_response(ctx)
        if request.headers.get("HX-Request") is None:
            return redirect("lobby:room", code=code)
        return response

    return view


def _seat_number(request: HttpRequest) -> int:
    raw = request.POST.get("seat", "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 2:
        raise services.LobbyRefusal("Choose a seat from 1 to 8.")
    return int(raw)


def _need_player(ctx: RoomContext) -> Player:
    if ctx.player is None:
        raise services.LobbyRefusal("Pick a name first.", 403)
    return ctx.player


def _join(request: HttpRequest, ctx: RoomContext) -> None:
    services.join(ctx.room, identity_of(request, create=True), request.POST.get("name", "")[:200])


def _sit(request: HttpRequest, ctx: RoomContext) -> None:
    services.take_seat(ctx.room, _need_player(ctx), _seat_number(request))


def _stand(request: HttpRequest, ctx: RoomContext) -> None:
    services.leave_seat(_need_player(ctx))


def _free(request: HttpRequest, ctx: RoomContext) -> None:
    services.free_seat(ctx.room, ctx.identity, _seat_number(request))


def _clock(request: HttpRequest, ctx: RoomContext) -> None:
    raw = request.POST.get("step", "")
    lengths = {str(n) if n else "off": n for n in services.step_lengths()}
    if raw not in lengths:
        raise services.LobbyRefusal("The clock is off, 60, 90 or 120 seconds.")
    services.set_clock(ctx.room, ctx.identity, lengths[raw])


def _options(request: HttpRequest, ctx: RoomContext) -> None:
    raw = {key: value[:40] for key, value in request.POST.items() if len(key) <= 40}
    services.set_options(ctx.room, ctx.identity, raw)


def _start(request: HttpRequest, ctx: RoomContext) -> None:
    services.start(ctx.room, ctx.identity)


join = _lobby_action(_join)
sit = _lobby_action(_sit)
stand = _lobby_action(_stand)
free = _lobby_action(_free)
clock = _lobby_action(_clock)
options = _lobby_action(_options)
start = _lobby_action(_start, announce=False)
