from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("lobby.urls")),
    path("", include("games.urls")),
    path("", include("games.constellate.urls")),
    path("", include("games.underonesky.urls")),
    path("", include("moderation.urls")),
]
