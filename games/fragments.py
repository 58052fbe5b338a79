"""A game's HTML, rendered with its numbers written as Python writes them.

Django localizes every number a template writes (``localize``: the active language, then
three format lookups for separators and grouping) to get, on this one-language site with no
thousands separator, the digits ``str`` gives. A board writes a few dozen numbers (its
version, counts, card and line numbers): about a tenth of its render (docs/performance.md).
A fragment is rendered here as inside ``{% localize off %}``, with everything it includes.
Integers and dates come out the same (the golden replays' board digests); a float below
1e-4 or from 1e16 up would be written as Python writes it (``1e-05``), which no board has.
"""

from __future__ import annotations

from typing import Any

from django.template import Context
from django.template.loader import get_template


def render_fragment(name: str, context: dict[str, Any]) -> str:
    """``render_to_string(name, context)`` (no request, so no context processors), with
    numbers unlocalized."""
    template: Any = get_template(name)
    return str(template.template.render(Context(context, autoescape=True, use_l10n=False)))


class Presented:
    """A presenter's fields, read by a template as ``board.version`` through ``[]``.

    Django's template variable tries ``value[name]`` first and, on an object without
    ``__getitem__``, raises and catches a TypeError before it falls back to ``getattr``:
    an exception for every field a board writes. A presenter dataclass that inherits this
    is read at the first try. A missing field still raises AttributeError, which Django's
    lookup takes as before (a silent empty value)."""

    __slots__ = ()

    def __getitem__(self, name: str) -> object:
        return getattr(self, name)
