from django.urls import path

from lobby import converters  # noqa: F401 (registers <room:code>)

from . import views

app_name = "moderation"

urlpatterns = [path("r/<room:code>/flag", views.flag, name="flag")]
