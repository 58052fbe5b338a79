"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from config import daphne_requests  # noqa: E402
from config.http_threads import KeptThreadsASGIHandler  # noqa: E402

daphne_requests.install()  # daphne imports this module before it serves: no form parsing

django_asgi_app = KeptThreadsASGIHandler()  # Django's, on kept threads

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.origins import ExactOriginValidator  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.socket_sessions import socket_session_stack  # noqa: E402
from games.registry import all_game_types  # noqa: E402

for game in all_game_types():
    game.warm_up()  # e.g. Constellate's word data: now, not on the first player's word

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Only our own pages may open a socket: Origin checked exactly (config/origins.py).
        "websocket": ExactOriginValidator(socket_session_stack(URLRouter(websocket_urlpatterns))),
    }
)

# What the server loaded to start (Django and its apps, the games' definitions and word
# data) lives as long as the process: frozen out of the cyclic collector's sight, so its
# full collections no longer walk it again and again (what loads on first use, the URL
# patterns and the compiled templates, stays in sight). The young generation is collected
# every 20,000 allocations (net) instead of 700: a request's and a push's objects (contexts,
# presenters, querysets) are freed by reference counting as they go, and the rare cycle
# waits a little longer. Under the bench the collector was 6.3 % of the daphne's CPU
# (perf), 1.1 % after (docs/performance.md).
gc.freeze()
gc.set_threshold(20_000, 10, 10)
