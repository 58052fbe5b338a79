from django.urls import path

from . import views

app_name = "moderation"

urlpatterns = [path("r/<str:code>/flag", views.flag, name="flag")]
