"""``{% area_marks %}``: an area's marks inside its opening tag (see games/definition.py,
``Areas``). Within the whole board an area carries the board's version and game; pushed
alone, also the version it was changed from and the out-of-band swap. Written by a tag, not
an include: every board writes a handful of these for every audience of every push, and an
include costs a template lookup and a context of its own each time. The Jinja2 boards'
``{{ area_marks() }}`` is the same (games/jinja.py)."""

from __future__ import annotations

from django import template
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def area_marks(context: Context) -> SafeString:
    since = context["since"] if context.get("area_oob") else None
    return mark_safe(marks(context["board"].version, context.get("game"), since))


def marks(version: int, game: object, since: int | None) -> str:
    """The marks of an area of ``version`` of ``game`` (None or 0: a board with no game
    yet), pushed alone when ``since`` is given. Numbers only (``int``), written as digits:
    the page's script reads them, and nothing else can reach the markup."""
    written = f' data-area data-version="{int(version)}"'
    if game:
        written += f' data-game="{int(game)}"'  # type: ignore[call-overload]
    if since is not None:
        written += f' data-since="{int(since)}" hx-swap-oob="true"'
    return written
