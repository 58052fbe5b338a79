from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("r/<str:code>/tick", views.tick, name="tick"),
    path("r/<str:code>/history/", views.history_latest, name="history_latest"),
    path("r/<str:code>/history/<int:number>/", views.history, name="history"),
]
