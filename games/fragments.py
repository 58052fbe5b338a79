"""A game's HTML, rendered with its numbers written as Python writes them.

Django localizes every number a template writes (``localize``: the active language, then
three format lookups for separators and grouping) to get, on this one-language site with no
thousands separator, the digits ``str`` gives. A board writes a few dozen numbers (its
version, counts, card and line numbers): about a tenth of its render (docs/performance.md).
A fragment is rendered here as inside ``{% localize off %}``, with everything it includes
(Jinja2 writes numbers as ``str`` does too).
Integers and dates come out the same (the golden replays' board digests); a float below
1e-4 or from 1e16 up would be written as Python writes it (``1e-05``), which no board has.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any, Generic, TypeVar, overload

from django.template import Context, engines
from django.template.loader import get_template
from jinja2 import Environment

Owner = TypeVar("Owner")
Value = TypeVar("Value")


def render_fragment(name: str, context: dict[str, Any]) -> str:
    """``render_to_string(name, context)`` (no request, so no context processors), with
    numbers unlocalized. A ``.jinja`` template is Jinja2's (games/jinja.py), and a
    ``#name`` after it is one of its blocks, rendered alone with this context."""
    path, _, block = name.partition("#")
    if path.endswith(".jinja"):
        return _render_jinja(path, block, context)
    template: Any = get_template(name)
    return str(template.template.render(Context(context, autoescape=True, use_l10n=False)))


def render_fragments(name: str, blocks: Sequence[str], context: dict[str, Any]) -> str:
    """Several partials of one template (``name#block`` each), one after the other, with one
    context: a Jinja2 template's blocks share the one context made for them all."""
    if not name.endswith(".jinja"):
        return "".join(render_fragment(f"{name}#{block}", context) for block in blocks)
    template = _jinja().get_template(name)
    made = template.new_context(context)
    return "".join(chain.from_iterable(template.blocks[block](made) for block in blocks))


def _render_jinja(path: str, block: str, context: dict[str, Any]) -> str:
    template = _jinja().get_template(path)
    if not block:
        return template.render(context)
    return "".join(template.blocks[block](template.new_context(context)))


def _jinja() -> Environment:
    env: Environment = engines["jinja2"].env  # type: ignore[attr-defined]
    return env


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


class once(Generic[Owner, Value]):  # noqa: N801 (a decorator, named as cached_property is)
    """``functools.cached_property`` without its lock: on Python 3.11 one lock per property
    is shared by every instance, so every thread of daphne building any board's log would
    wait on the one building another's. A presenter's lazy field is computed from the
    presenter alone; two threads that both compute it get equal values, and either is kept."""

    def __init__(self, compute: Callable[[Owner], Value]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type[Owner], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type[Owner] | None = None) -> once[Owner, Value]: ...

    @overload
    def __get__(self, instance: Owner, owner: type[Owner] | None = None) -> Value: ...

    def __get__(
        self, instance: Owner | None, owner: type[Owner] | None = None
    ) -> Value | once[Owner, Value]:
        if instance is None:
            return self
        value = self.compute(instance)
        instance.__dict__[self.name] = value  # read from the instance from now on
        return value
