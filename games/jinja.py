"""The Jinja2 environment of the games' fragments that are pushed on every change
(``TEMPLATES``' ``jinja2`` engine; each app's templates in its ``jinja2/`` folder).

A board is rendered for every audience of every change, so its template engine is most of
a push's cost. Jinja2 compiles a template to Python; Django's engine walks a node tree and
looks every variable up through its context stack: Constellate's status area, 72 → 19 µs
(docs/performance.md, "Issue 16: the boards in Jinja2"). Django's engine still draws the
pages and the other games' boards.

What the Django boards use from template tags is here as Jinja globals and filters, from
the same code: ``url`` (games/templatetags/cached_url.py), ``area_marks``
(games/templatetags/areas.py), ``render_partial`` and ``render_shared``
(games/templatetags/partial_cache.py), and Django's ``pluralize`` and ``capfirst``. Numbers
are written as ``str`` writes them, never localized (as games/fragments.py renders Django's
fragments).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from django.template.defaultfilters import capfirst, pluralize
from jinja2 import Environment, Undefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from .templatetags.areas import marks
from .templatetags.cached_url import cached_reverse
from .templatetags.partial_cache import render_partial, render_shared


@pass_context
def area_marks(context: Context) -> Markup:
    """``{{ area_marks() }}``: as ``{% area_marks %}`` in a Django board."""
    since = context.get("since") if context.get("area_oob") else None
    return Markup(marks(context["board"].version, context.get("game"), since))


def url(name: str, *args: Any) -> str:
    """``{{ url("lobby:act", board.code, "touch") }}``: ``{% url %}`` with positional
    arguments, each (view, arguments) reversed once."""
    return cached_reverse(name, args)


class BoardEnvironment(Environment):
    """Jinja2's environment with each template's globals in one plain dict.

    Jinja2 keeps a template's globals as a ``ChainMap`` over the environment's, and copies
    that chain into every new render context: iterating a ``ChainMap`` is slow Python, and a
    push renders a dozen contexts for each audience (a seventh of a push's rendering under
    the bench, docs/performance.md). The globals here are set once, as the environment is
    made, before any template is loaded, so a copy made when a template loads is the same."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


def environment(**options: Any) -> Environment:
    """Always autoescaped, whatever the options say (a player's name is text, never markup);
    an undefined value is empty, with DEBUG on too, as in Django's boards (Django's backend
    would print DebugUndefined's text into the page); a template's last newline is kept, as
    Django's engine keeps it."""
    env = BoardEnvironment(
        **{
            "keep_trailing_newline": True,
            **options,
            "autoescape": True,
            "undefined": Undefined,
        }
    )
    env.globals.update(url=url, area_marks=area_marks)
    env.filters.update(
        pluralize=pluralize,
        capfirst=capfirst,
        render_partial=render_partial,
        render_shared=render_shared,
    )
    return env
