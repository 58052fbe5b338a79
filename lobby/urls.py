from django.urls import path

from . import views

app_name = "lobby"

urlpatterns = [
    path("", views.home, name="home"),
    path("rooms", views.create_room, name="create"),
    path("r/<str:code>/", views.room, name="room"),
    path("r/<str:code>/join", views.join, name="join"),
    path("r/<str:code>/sit", views.sit, name="sit"),
    path("r/<str:code>/stand", views.stand, name="stand"),
    path("r/<str:code>/free", views.free, name="free"),
    path("r/<str:code>/ask", views.ask, name="ask"),
    path("r/<str:code>/withdraw", views.withdraw, name="withdraw"),
    path("r/<str:code>/let-sit", views.let_sit, name="let-sit"),
    path("r/<str:code>/turn-down", views.turn_down, name="turn-down"),
    path("r/<str:code>/clock", views.clock, name="clock"),
    path("r/<str:code>/options", views.options, name="options"),
    path("r/<str:code>/start", views.start, name="start"),
]
