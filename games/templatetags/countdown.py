"""``{% countdown %}``: the step clock and the notice line of a Django board, drawn by the
one template every game's board uses (games/jinja2/games/countdown.jinja), for the
``board`` in the context."""

from __future__ import annotations

from django import template
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe

from games.fragments import render_fragment

register = template.Library()


@register.simple_tag(takes_context=True)
def countdown(context: Context) -> SafeString:
    return mark_safe(render_fragment("games/countdown.jinja", {"board": context.get("board")}))
