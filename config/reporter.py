"""What a traceback may show: Django's filter, and also every URL/DSN setting (they carry
passwords: DATABASE_URL, REDIS_URL, the cache's LOCATION, the channel layer's hosts) and
the locals that hold a game's secrets as plain JSON (an event's payload).

It is used by DEBUG's technical page and by any mailed or logged report that renders one.
A game's state and its deal event hide their secrets in their own ``repr``
(``games.kit.hiding``), so they are safe wherever they appear; this filter covers the
values that are not such objects."""

from __future__ import annotations

import re
from collections.abc import ItemsView
from types import FrameType
from typing import Any

from django.http import HttpRequest
from django.views.debug import SafeExceptionReporterFilter

from games import codec, writes

# "scheme://user:password@host": a URL with credentials, whatever setting or local holds it.
CREDENTIALS = re.compile(r"[a-z][a-z0-9+.-]*://[^/\s@]*:[^/\s@]*@", re.IGNORECASE)
# Locals that hold events or commands as JSON (the codec and the store): the key, the cards
# and the stack are plain lists there. A statement's parameters are such JSON on their way
# to the database (``params`` in Django's cursor, an append's ``rows``).
SECRET_LOCALS = frozenset({"payload", "payloads", "rows", "params", "param_list"})
# Modules whose every local is an event on its way to or from JSON, field by field (a key is
# a bare tuple of colours there), or an append's rows on their way to the database: their
# frames show no values at all.
SECRET_FRAMES = frozenset({codec.__file__, writes.__file__})


class SecretHidingFilter(SafeExceptionReporterFilter):
    hidden_settings = re.compile(
        r"API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|URL$|DSN|LOCATION|HOSTS$",
        flags=re.IGNORECASE,
    )

    def cleanse_setting(self, key: Any, value: Any) -> Any:
        if isinstance(value, str) and CREDENTIALS.search(str(value)):  # str(): lazy ones too
            return self.cleansed_substitute
        return super().cleanse_setting(key, value)

    def get_traceback_frame_variables(
        self, request: HttpRequest | None, tb_frame: FrameType
    ) -> ItemsView[str, Any]:
        variables = super().get_traceback_frame_variables(request, tb_frame)
        if tb_frame.f_code.co_filename in SECRET_FRAMES:
            return {name: self.cleansed_substitute for name, _ in variables}.items()
        return {name: self._cleanse_local(name, value) for name, value in variables}.items()

    def _cleanse_local(self, name: str, value: Any) -> Any:
        if name in SECRET_LOCALS:
            return self.cleansed_substitute
        if isinstance(value, str) and CREDENTIALS.search(str(value)):
            return self.cleansed_substitute
        return value
