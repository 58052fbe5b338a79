from django.urls import path

from lobby import converters  # noqa: F401 (registers <room:code>)

from . import views

app_name = "games"

urlpatterns = [
    path("r/<room:code>/tick", views.tick, name="tick"),
    path("r/<room:code>/history/", views.history_latest, name="history_latest"),
    path("r/<room:code>/history/<int:number>/", views.history, name="history"),
]
