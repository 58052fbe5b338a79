from django.apps import AppConfig


class UnderOneSkyConfig(AppConfig):
    name = "games.underonesky"
    label = "underonesky"
    verbose_name = "Under One Sky"

    def ready(self) -> None:
        from games.registry import GameType, register

        from . import rules, screens, services, upcasts

        register(
            GameType(
                kind=services.KIND,
                title="Under One Sky",
                initial=rules.State,
                evolve=rules.evolve,
                event_types=rules.EVENT_TYPES,
                event_schemas=upcasts.SCHEMAS,
                clock=services.clock,
                expire=services.expire,
                screens=screens,
                min_players=2,
                max_players=2,
                seat_label=screens.seat_label,
                mode_label=screens.mode_label,
                start=lambda **kw: services.start_game(**kw)[0],
                summary=(
                    "Place and slide coloured star tiles on a 5×5 board until your secret "
                    "constellation shines, turned to the star chart's compass."
                ),
                styles=("underonesky/board.css",),
                scripts=("underonesky/play.js",),
                default_options=services.default_options,
                clean_options=services.clean_options,
                options_text=screens.options_text,
                options_template="underonesky/options.html",
            )
        )
