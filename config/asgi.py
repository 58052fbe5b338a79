"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from config.origins import ExactOriginValidator  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from games.constellate.clues import warm_up  # noqa: E402

warm_up()  # load the word data now, not on the first Stargazer's word

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Only our own pages may open a socket: Origin checked exactly (config/origins.py).
        "websocket": ExactOriginValidator(SessionMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
