from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("lobby.urls")),
    path("", include("moderation.urls")),
]

# Our own error answers (config/errors.py): a page for browsers, a notice for htmx.
handler400 = "config.errors.bad_request"
handler403 = "config.errors.forbidden"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
