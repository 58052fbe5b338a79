from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and their events"

    def ready(self) -> None:
        from . import clock, store

        # Every installed game app registers its definition in its ``game`` module.
        autodiscover_modules("game")
        # Every game's steps get their django-q2 schedule from here (games/clock.py).
        store.events_appended.connect(clock.on_events_appended, dispatch_uid="games.clock")
