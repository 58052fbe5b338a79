"""``{% url %}`` that reverses each (view, arguments) once: ``{% load cached_url %}`` after
the builtins, and a template's ``{% url %}`` tags are this one.

A board writes the room's action URLs into every render (the sky's touch, the word's form,
the stop button, the replay link), for every audience of every push. Django's ``reverse``
walks the resolver's patterns each time (about a tenth of a board's render); the answer
depends only on the script prefix, the URLconf, the view's name, its arguments and the
current app, so it is kept for those. A tag with keyword arguments or ``as`` is Django's.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.base import Parser, Token
from django.template.context import Context
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape

register = template.Library()


class CachedURLNode(URLNode):
    def render(self, context: Context) -> str:
        if self.kwargs or self.asvar:
            return super().render(context)
        args = tuple(arg.resolve(context) for arg in self.args)
        if not all(type(arg) in (str, int) for arg in args):  # not a bool, a lazy string
            return super().render(context)
        url = cached_reverse(self.view_name.resolve(context), args, _current_app(context))
        return conditional_escape(url) if context.autoescape else url


def cached_reverse(name: str, args: tuple[object, ...], app: str | None = None) -> str:
    """``reverse(name, args=args, current_app=app)``, kept when every argument is exactly a
    ``str`` or an ``int`` (the Jinja2 boards' ``url``, games/jinja.py, is this too)."""
    if not all(type(arg) in (str, int) for arg in args):
        return reverse(name, args=args, current_app=app)
    return _reverse(get_script_prefix(), get_urlconf(), name, args, app)


def _current_app(context: Context) -> str | None:
    """The current app as Django's tag finds it (None for a fragment without a request)."""
    request = getattr(context, "request", None)
    if request is None:
        return None
    if hasattr(request, "current_app"):
        current: str | None = request.current_app
        return current
    match = getattr(request, "resolver_match", None)
    return getattr(match, "namespace", None)


@lru_cache(maxsize=8192, typed=True)
def _reverse(
    prefix: str, urlconf: str | None, name: str, args: tuple[str | int, ...], app: str | None
) -> str:
    return reverse(name, urlconf=urlconf, args=args, current_app=app)


@receiver(setting_changed)
def _forget(*, setting: str, **_: object) -> None:
    """A test that swaps the URLconf gets its own links."""
    if setting == "ROOT_URLCONF":
        _reverse.cache_clear()


@register.tag
def url(parser: Parser, token: Token) -> CachedURLNode:
    node = django_url(parser, token)
    return CachedURLNode(node.view_name, node.args, node.kwargs, node.asvar)
