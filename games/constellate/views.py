"""Constellate's actions over htmx POSTs: parse, call one service, render.

Every response is a set of out-of-band fragments (the forms use ``hx-swap="none"``): the
board for the actor's audience when something happened, a notice when it was refused. The
room's shared views (``games.views``) do the rest: who may act, the answer, the tick and
the replay.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from games.inputs import plain
from games.views import int_field, seat_action

from . import rules, services

_int = int_field


def _seat_action(
    build: Callable[[HttpRequest, int], rules.Command],
) -> Callable[[HttpRequest, str], HttpResponse]:
    # T3: a refused word answers with the notice alone, and the word stays in the input.
    return seat_action(
        services.KIND,
        lambda game_id, command: services.act(game_id, command),  # looked up at each call
        build,
        status={rules.Problem.WORD.value: 422},
        quiet={rules.Problem.WORD.value},
    )


name = _seat_action(
    lambda request, seat: rules.Name(
        seat=seat,
        word=plain(request.POST.get("word"), "word", 40),  # W1 judges its letters
        number=_int(request, "number", 1, 8),
        version=_int(request, "version", 0, 10**6),
    )
)
touch = _seat_action(
    lambda request, seat: rules.TouchCard(
        seat=seat,
        card=_int(request, "card", 0, rules.SKY_SIZE - 1),
        version=_int(request, "version", 0, 10**6),
        comet_order=services.comet_order(),
    )
)
stop = _seat_action(
    lambda request, seat: rules.Stop(seat=seat, version=_int(request, "version", 0, 10**6))
)
