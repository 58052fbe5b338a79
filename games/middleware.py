"""A database that is briefly busy or unreachable gets a clear "try again", never a 500.

Every action runs in one transaction, so when the database refuses it nothing was applied:
the player simply sends it again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import OperationalError
from django.db.utils import InterfaceError
from django.http import HttpRequest, HttpResponse
from django.utils.html import escape

log = logging.getLogger(__name__)
TRY_AGAIN = "The table is busy for a moment: nothing changed, please try again."


class BusyDatabaseMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.warning("database busy on %s %s: %s", request.method, request.path, exception)
        text = escape(TRY_AGAIN)
        if request.headers.get("HX-Request"):
            body = (
                f'<p id="notice" class="notice error" role="alert" hx-swap-oob="true">{text}</p>'
                f'<p id="lobby-notice" class="notice error" role="alert" hx-swap-oob="true">'
                f"{text}</p>"
            )
        else:
            body = f"<!doctype html><title>Try again</title><p>{text}</p>"
        response = HttpResponse(body, status=503)
        response["Retry-After"] = "1"
        return response
