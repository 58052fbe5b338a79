"""A seated player's action sent over the room's socket instead of a POST.

While its socket is open, the board's page sends an action's form as one JSON text frame
(static/platform/socket.js)::

    {"act": "touch", "fields": [["version", "12"], ["card", "3"]]}

An action that comes as a POST costs the daphne 1.5–2.5 ms of CPU on its way in and out
(Twisted reading the request, the answer written back) before the game is asked anything; a
frame on the socket the page already holds costs about 0.15 ms (bench/request_cost.py). A
page whose socket is down sends the POST (lobby.play.act), as every page did before.

The frame is read strictly (``read_action``). Then everything is the POST's own way
(``lobby.play.perform``): the fields become the same form the view reads, checked by the
game's own action; the same rate limit per browser; the same refusals and notices. The
socket that sent the frame is answered alone: after a refusal that is not quiet, the
refreshed board; then, in a frame of its own, the notice (the refusal's, or the emptied one
after a change), by which the page knows its answer came. A taken action's change reaches
that socket with the push every socket of the room gets.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from django.db import DataError, OperationalError, close_old_connections
from django.db.utils import InterfaceError
from django.http import QueryDict

from config.http_threads import fresh_connections
from games.definition import Screens
from games.inputs import BadInput
from games.middleware import CANNOT_STORE, TRY_AGAIN
from games.registry import game_type

from . import play, views
from .ratelimit import limited_identity
from .renders import identity_of_session

log = logging.getLogger(__name__)

MAX_FRAME = 8192  # characters: an action's form is a few short fields
MAX_FIELDS = 40
MAX_FIELD = 2000  # characters of a field's name or value
ACTION = re.compile(r"[-a-zA-Z0-9_]{1,40}")  # a slug, as the POST's address reads it
_SURROGATE = re.compile("[\ud800-\udfff]")
UNREADABLE = "That action could not be read: nothing changed."
DID_NOT_WORK = "That did not work: please look at the board and try again."


def read_action(text: str) -> tuple[str, QueryDict]:
    """The action's name and its form's fields, or ``BadInput``."""
    if len(text) > MAX_FRAME:
        raise BadInput(UNREADABLE)
    try:
        frame = json.loads(text, object_pairs_hook=_once_each)
    except (ValueError, RecursionError):  # not JSON, a key twice, nested past reading
        raise BadInput(UNREADABLE) from None
    if not isinstance(frame, dict) or set(frame) != {"act", "fields"}:
        raise BadInput(UNREADABLE)
    action, fields = frame["act"], frame["fields"]
    if not isinstance(action, str) or not ACTION.fullmatch(action):
        raise BadInput(UNREADABLE)
    if not isinstance(fields, list) or len(fields) > MAX_FIELDS:
        raise BadInput(UNREADABLE)
    data = QueryDict(mutable=True)
    for field in fields:
        if not _is_field(field):
            raise BadInput(UNREADABLE)
        data.appendlist(field[0], field[1])
    data._mutable = False
    return action, data


def _once_each(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object whose every key comes once (else which one counts is a guess)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key given twice")
    return found


def _is_field(field: object) -> bool:
    """A field's name and value: text a form could send (a lone surrogate is not: no
    browser's form sends one, and it cannot be written back out as UTF-8)."""
    return isinstance(field, list) and len(field) == 2 and all(_is_text(part) for part in field)


def _is_text(part: object) -> bool:
    return isinstance(part, str) and len(part) <= MAX_FIELD and not _SURROGATE.search(part)


def answer(
    code: str, kind: str, session_key: str | None, identity: str | None, text: str
) -> list[str]:
    """The frames the socket that sent ``text`` in a room of game ``kind`` is answered
    with: the board first if a refusal refreshes it, then the notice, which always comes
    last and alone in its frame (the page knows its answer by it, socket.js).

    ``identity`` is the browser's as its socket read it from the session on connecting: a
    browser's identity, once given, is never changed or taken back, so it is not read again
    for every action (without one, the session is read now: it may have one since). The
    database connections are handled as a request's: checked before, and after given back
    (to PostgreSQL's pool) or kept as the settings say."""
    fresh_connections()  # as a POST's kept thread does (config/http_threads.py)
    close_old_connections()
    try:
        return _frames(code, kind, session_key, identity, text)
    finally:
        close_old_connections()


def _frames(
    code: str, kind: str, session_key: str | None, identity: str | None, text: str
) -> list[str]:
    screens = game_type(kind).screens
    try:
        answered = _answer(code, session_key, identity, text, screens)
    except DataError:
        log.warning("database refused a value of a socket's action")
        return [screens.render_notice(CANNOT_STORE)]
    except (OperationalError, InterfaceError) as error:
        log.warning("database busy on a socket's action: %s", error)
        return [screens.render_notice(TRY_AGAIN)]
    except Exception:  # as a POST's 500: said, and the socket lives on
        log.exception("a socket's action failed")
        return [screens.render_notice(DID_NOT_WORK)]
    if isinstance(answered, str):
        return [answered]
    return [answered.board, answered.notice] if answered.board else [answered.notice]


def _answer(
    code: str, session_key: str | None, identity: str | None, text: str, screens: Screens[Any]
) -> str | play.Answer:
    """Counted and read before anything is asked of the database: the browser's allowance
    (a browser with no identity yet, by its session: it cannot act, but may not flood),
    the frame."""
    identity = identity or identity_of_session(session_key)
    if limited_identity(identity or f"session-{session_key}", "action"):
        return screens.render_notice(views.SLOW_DOWN)
    try:
        action, data = read_action(text)
    except BadInput as error:
        return screens.render_notice(error.message)
    if identity is None:
        return screens.render_notice(play.SEATED_ONLY)
    ctx = views.context_of(code, identity)
    if ctx is None:
        return screens.render_notice("This room is gone.")
    return play.perform(ctx, action, data, answer_change=False)
