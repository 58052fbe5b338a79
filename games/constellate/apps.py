from django.apps import AppConfig


class ConstellateConfig(AppConfig):
    name = "games.constellate"
    label = "constellate"
    verbose_name = "Constellate"

    def ready(self) -> None:
        from games import flags
        from games.registry import GameType, register

        from . import clues, moderation, rules, screens, services, upcasts

        clues.set_blocklist(flags.blocked_words)  # W3: the moderators' words (games.flags)
        register(
            GameType(
                kind="constellate",
                title="Constellate",
                initial=rules.State,
                evolve=rules.evolve,
                event_types=rules.EVENT_TYPES,
                event_schemas=upcasts.SCHEMAS,
                clock=services.clock,
                expire=services.expire,
                screens=screens,
                min_players=2,
                max_players=8,
                seat_label=screens.seat_label,
                mode_label=screens.mode_label,
                start=lambda *, options=None, **kw: services.start_game(**kw)[0],
                summary=(
                    "One word, one number, and a sky of pictures: two crews race to light "
                    "their stars, or one crew races the dawn."
                ),
                styles=("constellate/board.css",),
                scripts=("constellate/play.js",),
                moderation=moderation.MODERATION,
                warm_up=clues.warm_up,  # the word data, before the first Stargazer's word
            )
        )
