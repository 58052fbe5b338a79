"""Daphne's HTTP requests without Twisted's form parsing, or Twisted's access log line.

Twisted's ``Request`` parses a POST's form into ``request.args`` before daphne sees it: the
content type through the standard library's e-mail header machinery (which makes a new
class for every header it parses), a urlencoded body with ``parse_qs``, a multipart one
whole with the e-mail parser. Daphne never reads ``args``; Django parses the body itself
from what daphne hands it. Twisted's own switch, ``parsePOSTFormSubmission=False``, turns
that off; daphne does not pass it, so its request class is given one that does. Every
action is a form POST: the content type's parsing alone was 2 % of a daphne's Python under
the bench (docs/performance.md).

Twisted's HTTP factory also formats a combined-log line for every request it finishes and
writes it to Twisted's log, which daphne sends nowhere (at verbosity 2, to the standard
library's logging, beside its own access line). Daphne's own access log (``--access-log``,
its ``action_logger``) records each request; Twisted's line is no longer made.
"""

from __future__ import annotations

from typing import Any

from daphne import http_protocol, server
from twisted.web import http


class FormlessWebRequest(http_protocol.WebRequest):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)


class UnloggedHTTPFactory(http_protocol.HTTPFactory):
    def log(self, request: http.Request) -> None:
        """Nothing: daphne's own access log records the request (see the module's doc)."""


def install() -> None:
    """Daphne's HTTP factory makes its requests from this module's class from now on (it
    looks ``WebRequest`` up each time it builds a connection's protocol), and daphne's
    server makes its factory from the unlogged one (when it starts serving, after it
    imported the application)."""
    http_protocol.WebRequest = FormlessWebRequest
    server.HTTPFactory = UnloggedHTTPFactory
