from django.urls import path

from lobby import converters  # noqa: F401 (registers <room:code>)

from . import views

app_name = "constellate"

urlpatterns = [
    path("r/<room:code>/name", views.name, name="name"),
    path("r/<room:code>/touch", views.touch, name="touch"),
    path("r/<room:code>/stop", views.stop, name="stop"),
]
