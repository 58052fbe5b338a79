from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby: rooms and seats"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from . import housekeeping, realtime  # noqa: F401  (realtime connects the pushes)

        # The daily clearsessions and idle-room purge (lobby/housekeeping.py), scheduled in
        # django-q2 by every migrate: no migration of ours needs to know about them.
        post_migrate.connect(
            housekeeping.on_post_migrate, sender=self, dispatch_uid="lobby.housekeeping"
        )
