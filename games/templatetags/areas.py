"""``{% area_marks %}``: an area's marks inside its opening tag (see games/definition.py,
``Areas``). Within the whole board an area carries the board's version and game; pushed
alone, also the version it was changed from and the out-of-band swap. Written by a tag, not
an include: every board writes a handful of these for every audience of every push, and an
include costs a template lookup and a context of its own each time."""

from __future__ import annotations

from django import template
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def area_marks(context: Context) -> SafeString:
    """Numbers only (``int``), written as digits: the page's script reads them, and nothing
    else can reach the markup."""
    marks = f' data-area data-version="{int(context["board"].version)}"'
    game = context.get("game")
    if game:
        marks += f' data-game="{int(game)}"'
    if context.get("area_oob"):
        marks += f' data-since="{int(context["since"])}" hx-swap-oob="true"'
    return mark_safe(marks)
