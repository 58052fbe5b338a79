"""A repr that hides a game's secrets, so no log line or traceback can carry them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T", bound=type)


def hiding(*secrets: str) -> Callable[[T], T]:
    """A class decorator for a dataclass whose ``secrets`` fields nobody may read from a log:
    its repr (and so str, log lines and tracebacks) shows ``key=<hidden>`` instead of the
    value, so an error can never carry a game's key, cards or stack."""

    def decorate(cls: T) -> T:
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = set(secrets) - set(names)
        assert not unknown, f"{cls.__name__} has no field {unknown}"

        def __repr__(self: object) -> str:
            shown = (
                f"{name}=<hidden>" if name in secrets else f"{name}={getattr(self, name)!r}"
                for name in names
            )
            return f"{type(self).__qualname__}({', '.join(shown)})"

        # Set on the class object: mypy cannot type assigning a method to a type variable.
        setattr(cls, "__repr__", __repr__)  # noqa: B010
        return cls

    return decorate
