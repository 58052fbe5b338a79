"""Our own error answers: a page in the site's look for a browser, a short notice for htmx.

They render without the request's context (no session, no CSRF token, so a 404 sets no
cookie) and say nothing about the server. An htmx request (every action posts with
``hx-swap="none"``) gets the message out of band in ``#notice`` (a game's board) and
``#lobby-notice`` (the lobby), like the busy database's 503 (games/middleware.py).
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import Resolver404
from django.utils.html import escape

NO_ROOM = "No room has that link."
ROOM_LINK = re.compile(r"^/r/[^/]+/?$")
NOT_FOUND = "There is nothing at this address."
BAD_REQUEST = "That request could not be read: nothing changed."
FORBIDDEN = "You may not do that here."
CSRF_FAILED = "The page was too old to send that (CSRF check failed): reload it and try again."
SERVER_ERROR = "Something went wrong on our side: please try again in a moment."


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    message = _public_message(exception)
    if message is None and ROOM_LINK.match(request.path):
        message = NO_ROOM  # a link whose code cannot be a room's (lobby's path converter)
    if _from_htmx(request):
        return _notice(message or NOT_FOUND, 404)
    context = {"room_link": message == NO_ROOM, "message": message}
    return HttpResponse(render_to_string("404.html", context), status=404)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _answer(request, "400.html", BAD_REQUEST, 400)


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _answer(request, "403.html", FORBIDDEN, 403)


def server_error(request: HttpRequest) -> HttpResponse:
    return _answer(request, "500.html", SERVER_ERROR, 500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: the word "CSRF" stays in the answer, so a person (or a test) can
    tell a stale page from a refused action."""
    return _answer(request, "403.html", CSRF_FAILED, 403, {"csrf": True})


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the admin's login after too many wrong passwords."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    html = render_to_string("locked_out.html", {"minutes": minutes})
    return HttpResponse(html, status=429)


def _answer(
    request: HttpRequest,
    template: str,
    message: str,
    status: int,
    context: dict[str, Any] | None = None,
) -> HttpResponse:
    if _from_htmx(request):
        return _notice(message, status)
    return HttpResponse(render_to_string(template, context or {}), status=status)


def _from_htmx(request: HttpRequest | None) -> bool:
    return request is not None and bool(request.headers.get("HX-Request"))


def _notice(message: str, status: int) -> HttpResponse:
    text = escape(message)
    return HttpResponse(
        f'<p id="notice" class="notice error" role="alert" hx-swap-oob="true">{text}</p>'
        f'<p id="lobby-notice" class="notice error" role="alert" hx-swap-oob="true">{text}</p>',
        status=status,
    )


def _public_message(exception: Exception | None) -> str | None:
    """The message our own views gave their Http404 ("No room has that link."). Not the
    resolver's (it lists the URL patterns) nor a model lookup's (it names the model)."""
    if not isinstance(exception, Http404) or isinstance(exception, Resolver404):
        return None
    message = exception.args[0] if exception.args else None
    if not isinstance(message, str) or "matches the given query" in message:
        return None
    return message
