"""Daphne's HTTP requests without Twisted's form parsing.

Twisted's ``Request`` parses a POST's form into ``request.args`` before daphne sees it: the
content type through the standard library's e-mail header machinery (which makes a new
class for every header it parses), a urlencoded body with ``parse_qs``, a multipart one
whole with the e-mail parser. Daphne never reads ``args``; Django parses the body itself
from what daphne hands it. Twisted's own switch, ``parsePOSTFormSubmission=False``, turns
that off; daphne does not pass it, so its request class is given one that does. Every
action is a form POST: the content type's parsing alone was 2 % of a daphne's Python under
the bench (docs/performance.md).
"""

from __future__ import annotations

from typing import Any

from daphne import http_protocol


class FormlessWebRequest(http_protocol.WebRequest):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)


def install() -> None:
    """Daphne's HTTP factory makes its requests from this module's class from now on (it
    looks ``WebRequest`` up each time it builds a connection's protocol)."""
    http_protocol.WebRequest = FormlessWebRequest
