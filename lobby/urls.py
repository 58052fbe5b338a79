from django.urls import path

from . import converters, play, views  # noqa: F401 (converters registers <room:code>)

app_name = "lobby"

urlpatterns = [
    path("", views.home, name="home"),
    path("rooms", views.create_room, name="create"),
    path("rules/<slug:kind>/", play.how_to_play, name="how_to_play"),
    path("r/<room:code>/", views.room, name="room"),
    path("r/<room:code>/join", views.join, name="join"),
    path("r/<room:code>/sit", views.sit, name="sit"),
    path("r/<room:code>/stand", views.stand, name="stand"),
    path("r/<room:code>/free", views.free, name="free"),
    path("r/<room:code>/computer", views.computer, name="computer"),
    path("r/<room:code>/ask", views.ask, name="ask"),
    path("r/<room:code>/withdraw", views.withdraw, name="withdraw"),
    path("r/<room:code>/let-sit", views.let_sit, name="let-sit"),
    path("r/<room:code>/turn-down", views.turn_down, name="turn-down"),
    path("r/<room:code>/clock", views.clock, name="clock"),
    path("r/<room:code>/options", views.options, name="options"),
    path("r/<room:code>/start", views.start, name="start"),
    path("r/<room:code>/tick", play.tick, name="tick"),
    path("r/<room:code>/history/", play.history_latest, name="history_latest"),
    path("r/<room:code>/history/<int:number>/", play.history, name="history"),
    # A seated player's action in the room's game (its definition names them): last, so
    # no action can shadow a page of the room.
    path("r/<room:code>/play/<slug:action>", play.act, name="act"),
    path("r/<room:code>/preview/<slug:name>", play.preview, name="preview"),
]
