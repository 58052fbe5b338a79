"""The database's refusals get a clear answer, never a 500.

A database that is briefly busy or unreachable gets a "try again" (503). A value it cannot
store (PostgreSQL's ``DataError``: a NUL byte in text, a number out of its column's range)
gets a 400 saying so: games/inputs.py refuses such input before any query, so this is the
net under a field it missed. Either way nothing changed: every action runs in one
transaction, and the database refused it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import DataError, OperationalError
from django.db.utils import InterfaceError
from django.http import HttpRequest, HttpResponse
from django.utils.html import escape

log = logging.getLogger(__name__)
TRY_AGAIN = "The table is busy for a moment: nothing changed, please try again."
CANNOT_STORE = "Something you sent cannot be stored (a hidden character, or a number too big)."


class BusyDatabaseMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DataError):
            # The exception's text can quote what was sent: only its class is logged.
            log.warning("database refused a value on %s %s", request.method, request.path)
            return _answer(request, CANNOT_STORE, 400, "Cannot store that")
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.warning("database busy on %s %s: %s", request.method, request.path, exception)
        response = _answer(request, TRY_AGAIN, 503, "Try again")
        response["Retry-After"] = "1"
        return response


def _answer(request: HttpRequest, message: str, status: int, title: str) -> HttpResponse:
    """The message out of band for htmx (a board's ``#notice``, the lobby's
    ``#lobby-notice``), or a small page."""
    text = escape(message)
    if request.headers.get("HX-Request"):
        body = (
            f'<p id="notice" class="notice error" role="alert" hx-swap-oob="true">{text}</p>'
            f'<p id="lobby-notice" class="notice error" role="alert" hx-swap-oob="true">'
            f"{text}</p>"
        )
    else:
        body = f"<!doctype html><title>{escape(title)}</title><p>{text}</p>"
    return HttpResponse(body, status=status)
