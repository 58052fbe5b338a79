"""How Under One Sky's stored events evolved (``games.codec.EventSchemas`` says how to
change one): every event is still at its first version."""

from __future__ import annotations

from games.codec import EventSchemas

SCHEMAS = EventSchemas(current={}, upcasts={})
