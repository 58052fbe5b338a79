from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby: rooms and seats"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from games.definition import provide_earlier_games

        from . import housekeeping, realtime  # noqa: F401  (realtime connects the pushes)
        from .seating import earlier_games

        # Who held a seat in earlier games is the room's to know: a board that shows its
        # seat's player's earlier games (Observatory's best solo score) asks through this.
        provide_earlier_games(earlier_games)

        # The daily clearsessions and idle-room purge (lobby/housekeeping.py), scheduled in
        # django-q2 by every migrate: no migration of ours needs to know about them.
        post_migrate.connect(
            housekeeping.on_post_migrate, sender=self, dispatch_uid="lobby.housekeeping"
        )
