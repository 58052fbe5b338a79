"""Django's SQLite backend, whose kept connections are checked for an open transaction.

Connections are kept a minute (``CONN_MAX_AGE``) on the threads that use them: the HTTP
requests' kept threads, the consumers' and the channel layer's thread, the q2 workers. A
kept connection reads the newest commit as long as it is in autocommit between uses, which
Django's atomic blocks and closed cursors ensure. Django checks it for age and errors, and
for autocommit left off, wherever it cleans up (``close_old_connections``: a request's start
and end, each ``database_sync_to_async`` call, each q2 task); here that check also closes
one whose driver is inside a transaction (a ``BEGIN`` run by hand and never ended), rather
than let its reads show the database as it was when that transaction began.
"""

from __future__ import annotations

import logging

from django.db.backends.sqlite3 import base

log = logging.getLogger(__name__)


class DatabaseWrapper(base.DatabaseWrapper):
    def close_if_unusable_or_obsolete(self) -> None:
        driver = self.connection
        if driver is not None and not self.in_atomic_block and driver.in_transaction:
            log.warning("a kept %s connection was inside a transaction: closed", self.alias)
            self.close()
            return
        super().close_if_unusable_or_obsolete()
