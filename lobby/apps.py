from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby: rooms and seats"

    def ready(self) -> None:
        from . import realtime  # noqa: F401  (connects the push receivers)
