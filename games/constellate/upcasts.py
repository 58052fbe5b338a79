"""How Constellate's stored events evolved: each event kind's current schema version and the
upcasters that read the older versions still in the database (``games.codec``).

Every event is at its first version. To change a stored event (rename a field or the
class, add or drop one): bump its kind's version in ``current`` and add an upcaster for
the old version, a pure function from the old payload (plain JSON) to the new kind and
payload, e.g. ``("CardTouched", 1): lambda p: ("CardTouched", {**p, "new": 0})``. A rename
is an upcast to the new kind: ``("OldName", 1): lambda p: ("NewName", p)`` with
``current={"NewName": 2}``. Never edit or drop an upcaster once deployed: old games
replay through it (tests/games/test_golden.py replays a recorded whole game).
"""

from __future__ import annotations

from games.codec import EventSchemas

SCHEMAS = EventSchemas(current={}, upcasts={})
