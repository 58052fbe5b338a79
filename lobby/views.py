"""The lobby's pages and forms: parse, call one lobby service, render."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import segno
from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.http.request import split_domain_port
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from config.network import is_loopback
from games.fragments import render_fragment
from games.inputs import BadInput, choice, integer
from games.models import Game
from games.prepared import Prepared
from games.registry import all_game_types, game_type

from . import limits, realtime, seating, services
from .models import Match, Player, Room
from .ratelimit import limited, limited_both

IDENTITY = "identity"
SLOW_DOWN = "Slow down a moment: too many actions at once."


@dataclass
class RoomContext:
    room: Room
    identity: str | None
    player: Player | None
    names: dict[int, str]
    match: Match | None = None  # the room's current (or last) game's match

    @property
    def is_host(self) -> bool:
        return self.identity is not None and self.identity == self.room.host

    @property
    def running(self) -> Match | None:
        """The match while its game runs, None between games."""
        return self.match if services.game_running(self.room) else None

    @property
    def seat(self) -> int | None:
        """The seat this viewer plays. While a game runs, only a seat bound to them: what
        the board shows (and who may act) never follows a seat someone merely sits in."""
        seat = self.player.seat if self.player else None
        match = self.running
        if seat is None or match is None:
            return seat
        return seat if match.owner(seat) == self.identity else None


def identity_of(request: HttpRequest) -> str | None:
    """This browser's identity, if it has one."""
    identity = request.session.get(IDENTITY)
    return identity if isinstance(identity, str) else None


def ensure_identity(request: HttpRequest) -> str:
    """This browser's identity, given one now if it has none yet."""
    identity = identity_of(request)
    if identity is None:
        identity = services.new_identity()
        request.session[IDENTITY] = identity
    return identity


def rooms() -> QuerySet[Room]:
    """Rooms read with their game and its match, in one query (``context_for`` uses them)."""
    return Room.objects.select_related("game", "game__match")


# The first query of every action and page load, compiled once (games/prepared.py).
PLAYER_IN_ROOM = Prepared(
    lambda code, identity: (
        Player.objects.select_related("room__game__match")
        .filter(room__code=code, identity=identity)
        .order_by("pk")[:1]
    ),
    str,
    str,
)
ROOM = Prepared(lambda code: rooms().filter(code=code).order_by("pk")[:1], str)


def room_context(request: HttpRequest, code: str) -> RoomContext:
    """The room of the link and this browser in it. A player's request reads their row with
    the room, its game and match in one query; only a browser not in the room reads the
    room alone after."""
    ctx = context_of(code, identity_of(request))
    if ctx is None:
        raise Http404("No room has that link.")
    return ctx


def context_of(code: str, identity: str | None) -> RoomContext | None:
    """The room of ``code`` and the browser ``identity`` in it (``room_context``; a room's
    socket's action, lobby/socket_actions.py), or None: no room has that link."""
    player = PLAYER_IN_ROOM.first(code[:32], identity) if identity else None
    room = player.room if player is not None else ROOM.first(code[:32])
    return None if room is None else _context(room, identity, player)


def match_of(room: Room) -> Match | None:
    """The match of the room's game: read with the room by ``rooms()``, else now."""
    game = room.game
    if game is None:
        return None
    if Game.match.is_cached(game):
        try:
            return game.match
        except Match.DoesNotExist:
            return None
    return Match.objects.filter(game_id=game.pk).first()


def context_for(room: Room, identity: str | None) -> RoomContext:
    return _context(room, identity, services.player_in(room, identity))


def contexts_for(room: Room, identities: set[str | None]) -> dict[str | None, RoomContext]:
    """Each of many browsers' context in the room, its players read once (none if the room
    came with them, ``prefetch_related("players")``)."""
    players = {p.identity: p for p in room.players.all()}
    return {who: _context(room, who, players.get(who) if who else None) for who in identities}


def _context(room: Room, identity: str | None, player: Player | None) -> RoomContext:
    match = match_of(room)
    if room.game_id is not None:
        seating.remember(room.game_id, room, match)  # the push after an action reads it here
    return RoomContext(room, identity, player, match.names() if match else {}, match)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby/home.html", home_context())


def home_context(chosen: str = "constellate") -> dict:
    games = [
        {
            "kind": kind.slug,
            "title": kind.title,
            "summary": kind.summary,
            "players": kind.seats.range_text,
            "how_to_play": kind.how_to_play is not None,
        }
        for kind in all_game_types()
    ]
    known = {game["kind"] for game in games}
    return {"games": games, "chosen": chosen if chosen in known else games[0]["kind"]}


@require_POST
def create_room(request: HttpRequest) -> HttpResponse:
    identity = ensure_identity(request)
    if limited_both(request, "create_room"):  # per browser and per address
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
    ctx = room_context(request, code)  # a wrong link is a 404 that stores nothing
    ensure_identity(request)  # the websocket knows this browser from its first visit
    return render(request, "lobby/room.html", page_context(request, ctx))


def page_context(request: HttpRequest, ctx: RoomContext) -> dict:
    link = shared_link(request, f"/r/{ctx.room.code}/")
    return {
        **lobby_context(ctx),
        "link": link,
        "qr": qr_code(link),
        "board_html": board_html(ctx)[0],
        "styles": services.game_of(ctx.room).styles,
        "scripts": services.game_of(ctx.room).scripts,
        "how_to_play": services.game_of(ctx.room).how_to_play is not None,
    }


@lru_cache(maxsize=2048)
def qr_code(link: str) -> str:
    """The room link's QR code as inline SVG. Drawing one takes segno about 4 ms, as long as
    the rest of the page; a link always draws the same code, so each is drawn once (a few
    KB each; the links shared lately, when more rooms than this are open)."""
    return segno.make(link, error="m").svg_inline(scale=4, dark="#0d1326", light="#ffffff")


def shared_link(request: HttpRequest, path: str) -> str:
    """The address others open ``path`` at: the one this page was opened at, unless only
    this machine could open that (127.0.0.1, localhost) and the settings name one to share
    (SHARE_ORIGIN: `play --host 0.0.0.0` sets the machine's address on its network)."""
    host, _ = split_domain_port(request.get_host())
    if settings.SHARE_ORIGIN and is_loopback(host):
        return settings.SHARE_ORIGIN + path
    return request.build_absolute_uri(path)


def lobby_context(ctx: RoomContext) -> dict:
    room = ctx.room
    seated = services.seated(room)
    kind = services.game_of(room)
    match = ctx.running
    if match is not None:  # the running game's seats, whoever sits in them now
        count = match.players()
        mode = kind.mode_label(count)
    else:
        count = max(len(seated), kind.seats.least)
        mode = kind.mode_label(len(seated)) if len(seated) >= kind.seats.least else ""
    return {
        "room": room,
        "player": ctx.player,
        "is_host": ctx.is_host,
        "seats": _seat_rows(ctx, seated, count),
        "asks": _asks(ctx, match, seated) if match is not None and ctx.is_host else [],
        "away_from": match.seat_of(ctx.identity) if match and ctx.seat is None else None,
        "asked": match.asks.get(ctx.identity) if match and ctx.identity else None,
        "game_title": kind.title,
        "mode": mode,
        "blocker": services.start_blocker(room),
        "running": services.game_running(room),
        "ended": room.game is not None and room.game.ended_at is not None,
        "step_choices": [
            (str(n) if n else "off", f"{n} s" if n else "Off") for n in services.step_lengths()
        ],
        "step_value": str(room.step_seconds) if room.step_seconds else "off",
        "spectators": sum(1 for p in room.players.all() if p.seat is None and not p.is_computer),
        "computers": kind.computer is not None and ctx.is_host and match is None,
        "options": services.options_of(room),
        "options_template": kind.options.template,
        "options_text": kind.options.text(services.options_of(room)),
    }


def _seat_rows(ctx: RoomContext, seated: dict[int, Player], count: int) -> list[dict]:
    """Every seat as the viewer sees it. While a game runs: only its seats, and a seat
    whose player stood up is *away*, kept for them (they may sit back) or, for a
    newcomer who never held a seat in this game, one to ask the host for."""
    kind = services.game_of(ctx.room)
    match = ctx.running
    away = services.away_seats(match, seated) if match else {}
    names = _names_by_identity(ctx.room) if away else {}
    newcomer = _may_ask(ctx)
    asked = match.asks.get(ctx.identity) if match and ctx.identity else None
    numbers = range(1, (count if match else kind.seats.most) + 1)
    return [
        {
            "number": n,
            "label": kind.seat_label(count, n),
            "player": seated.get(n),
            "mine": ctx.player is not None and ctx.player.seat == n,
            "away": names.get(away[n], "its player") if n in away else "",
            "yours": n in away and away[n] == ctx.identity,
            "asked": n in away and asked == n,
            "can_ask": n in away and newcomer and asked != n,
        }
        for n in numbers
    ]


def _may_ask(ctx: RoomContext) -> bool:
    """Whether the viewer could ask for an away seat: a spectator who never held a seat in
    the running game (nor saw its key)."""
    match = ctx.running
    if match is None or ctx.player is None or ctx.player.seat is not None:
        return False
    return match.seat_of(ctx.identity) is None and not match.barred(ctx.player.identity)


def _asks(ctx: RoomContext, match: Match, seated: dict[int, Player]) -> list[dict]:
    """For the host: the newcomers asking for an away seat, by seat."""
    away = services.away_seats(match, seated)
    players = {p.identity: p for p in ctx.room.players.all()}
    names = {who: p.name for who, p in players.items()}
    label = services.game_of(ctx.room).seat_label
    return [
        {
            "player": players[who],
            "seat": seat,
            "label": label(match.players(), seat),
            "away": names.get(away[seat], "its player"),
        }
        for who, seat in sorted(match.asks.items(), key=lambda ask: ask[1])
        if seat in away and who in players and not match.barred(who)
    ]


def _names_by_identity(room: Room) -> dict[str, str]:
    return {p.identity: p.name for p in room.players.all()}


def board_html(ctx: RoomContext, *, oob: bool = False) -> tuple[str, str]:
    """The game's board for this viewer, and the viewer's audience ("" with no game)."""
    if ctx.room.game_id is None:
        return "", ""
    game = game_type(ctx.room.kind)  # the room's games are all of its kind
    screens = game.screens
    state = game.current(ctx.room.game_id)
    audience = screens.audience_of(state, ctx.seat)
    html = screens.render_board(
        state, audience, ctx.names, ctx.room.code, game=ctx.room.game_id, oob=oob
    )
    return html, audience


def audience_of_viewer(ctx: RoomContext) -> str:
    """Which pushes this viewer's socket listens to ("public" with no game)."""
    if ctx.room.game_id is None:
        return "public"
    game = game_type(ctx.room.kind)
    return game.screens.audience_of(game.current(ctx.room.game_id), ctx.seat) or "public"


def render_lobby(ctx: RoomContext, *, oob: bool = False) -> str:
    return render_fragment("lobby/room.html#lobby", {**lobby_context(ctx), "oob": oob})


def _lobby_response(ctx: RoomContext, message: str = "", status: int = 200) -> HttpResponse:
    html = render_lobby(ctx, oob=True) + render_fragment(
        "lobby/room.html#lobby-notice", {"message": message}
    )
    return HttpResponse(html, status=status)


def _lobby_action(
    action: Callable[[HttpRequest, RoomContext], object], *, announce: bool = True
) -> Callable[[HttpRequest, str], HttpResponse]:
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
        except (services.LobbyRefusal, BadInput) as refusal:
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
    """The seat a form names (games/inputs.py), 1 to the most any game seats: the
    services refuse a seat this room's game does not have."""
    return integer(request.POST.get("seat"), "seat", 1, services.MAX_SEATS)


def _need_player(ctx: RoomContext) -> Player:
    if ctx.player is None:
        raise services.LobbyRefusal("Pick a name first.", 403)
    return ctx.player


def _join(request: HttpRequest, ctx: RoomContext) -> None:
    if limited(request, "join_ip", per="ip"):  # fresh cookies do not reset it
        raise services.LobbyRefusal(SLOW_DOWN, 429)
    limits.check_room_for_newcomer(ctx.room, ctx.identity)  # refused: nothing stored
    identity = ensure_identity(request)
    services.join(ctx.room, identity, request.POST.get("name", ""))  # read whole: a NUL too


def _sit(request: HttpRequest, ctx: RoomContext) -> None:
    services.take_seat(ctx.room, _need_player(ctx), _seat_number(request))


def _stand(request: HttpRequest, ctx: RoomContext) -> None:
    services.leave_seat(_need_player(ctx))


def _free(request: HttpRequest, ctx: RoomContext) -> None:
    services.free_seat(ctx.room, ctx.identity, _seat_number(request))


def _computer(request: HttpRequest, ctx: RoomContext) -> None:
    services.seat_computer(ctx.room, ctx.identity, _seat_number(request))


def _ask(request: HttpRequest, ctx: RoomContext) -> None:
    services.ask_for_seat(ctx.room, _need_player(ctx), _seat_number(request))


def _withdraw(request: HttpRequest, ctx: RoomContext) -> None:
    services.withdraw_ask(ctx.room, _need_player(ctx))


def _let_sit(request: HttpRequest, ctx: RoomContext) -> None:
    services.let_sit(ctx.room, ctx.identity, _seat_number(request), _asker_id(request))


def _turn_down(request: HttpRequest, ctx: RoomContext) -> None:
    services.turn_down(ctx.room, ctx.identity, _seat_number(request), _asker_id(request))


def _asker_id(request: HttpRequest) -> int:
    """Which newcomer the host answers (a player's number in the room, never an identity)."""
    return integer(request.POST.get("player"), "player", 1, 10**12 - 1)


def _clock(request: HttpRequest, ctx: RoomContext) -> None:
    lengths = {str(n) if n else "off": n for n in services.step_lengths()}
    step = choice(request.POST.get("step"), lengths, "The clock is off, 60, 90 or 120 seconds.")
    services.set_clock(ctx.room, ctx.identity, step)


def _options(request: HttpRequest, ctx: RoomContext) -> None:
    # Each game reads its own options from a fixed set (its ``options.clean``).
    services.set_options(ctx.room, ctx.identity, request.POST.dict())


def _start(request: HttpRequest, ctx: RoomContext) -> None:
    services.start(ctx.room, ctx.identity)


join = _lobby_action(_join)
sit = _lobby_action(_sit)
stand = _lobby_action(_stand)
free = _lobby_action(_free)
computer = _lobby_action(_computer)
ask = _lobby_action(_ask)
withdraw = _lobby_action(_withdraw)
let_sit = _lobby_action(_let_sit)
turn_down = _lobby_action(_turn_down)
clock = _lobby_action(_clock)
options = _lobby_action(_options)
start = _lobby_action(_start, announce=False)
