from django.urls import path

from . import views

app_name = "constellate"

urlpatterns = [
    path("r/<str:code>/name", views.name, name="name"),
    path("r/<str:code>/touch", views.touch, name="touch"),
    path("r/<str:code>/stop", views.stop, name="stop"),
]
