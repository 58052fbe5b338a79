from django.urls import path

from . import views

app_name = "underonesky"

urlpatterns = [
    path("r/<str:code>/uos/place", views.place, name="place"),
    path("r/<str:code>/uos/move", views.move, name="move"),
    path("under-one-sky/rules/", views.rules_page, name="rules"),
]
