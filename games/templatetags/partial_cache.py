"""Render a template partial for a small immutable presenter once, then reuse the HTML.

A card or a log line looks the same in every push and for many audiences; rendering it
again each time is most of a board's cost. The partial stays the one source of its HTML:
``{{ card|render_partial("constellate/card.jinja") }}`` in a Jinja2 board (games/jinja.py)
renders that template with ``card`` in its context, and remembers the result for that exact
(hashable) value; a Django board's ``{{ tile|render_partial:"page.html#tile" }}`` renders
the partial ``tile`` with ``tile``.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.safestring import SafeString, mark_safe

from games.fragments import render_fragment

register = template.Library()


@register.filter
def render_partial(value: object, name: str) -> SafeString:
    return _rendered(name, value)


@register.filter
def render_shared(value: object, name: str) -> SafeString:
    """The same for a larger piece (a whole sky, a whole log) that many audiences of one
    change share: fewer are kept, as each is some kilobytes."""
    return _rendered_shared(name, value)


def _render(name: str, value: object) -> SafeString:
    """The partial ``name`` (``page.html#card``, or a template of its own: ``card.jinja``)
    with ``value`` as its one variable, named after it (``card``)."""
    variable = name.rpartition("#")[2].rpartition("/")[2].partition(".")[0]
    return mark_safe(render_fragment(name, {variable: value}))


_rendered = lru_cache(maxsize=16384, typed=True)(_render)
_rendered_shared = lru_cache(maxsize=1024, typed=True)(_render)


@receiver(setting_changed)
def _forget(*, setting: str, **_: object) -> None:
    """A test that swaps the templates gets its own HTML."""
    if setting == "TEMPLATES":
        _rendered.cache_clear()
        _rendered_shared.cache_clear()
