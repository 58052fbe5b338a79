from django.urls import path

from lobby import converters  # noqa: F401 (registers <room:code>)

from . import views

app_name = "underonesky"

urlpatterns = [
    path("r/<room:code>/uos/place", views.place, name="place"),
    path("r/<room:code>/uos/move", views.move, name="move"),
    path("under-one-sky/rules/", views.rules_page, name="rules"),
]
