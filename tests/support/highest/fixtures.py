"""Highest Unique for one test: registered, and its templates on the template path, only
while the test runs. Nothing happens at import, so no other test (the home page's list of
games, the rules' purity check) ever sees it.

Use the ``highest`` fixture, or call ``install(monkeypatch, settings)`` from a fixture of
your own. ``frozen_clock`` stops the server's clock (``django.utils.timezone.now``) where
it is, to be moved on by hand: twin rooms then start at the same instant (the same
deadline, the same "now" on the countdown), and a test can pass a round's deadline."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import registry

from .game import GAME, SLUG, TEMPLATES


def install(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Any:
    """Register the game and add its template folder until the test ends.

    Assigning ``settings.TEMPLATES`` (pytest-django's ``settings`` fixture) sends Django's
    ``setting_changed``, which resets the template engines: they are rebuilt from the new
    setting, with the same loaders (template_partials' loader around Django's cached one,
    which template_partials wrote into ``OPTIONS`` at start-up), and rebuilt again when
    the fixture puts the old setting back."""
    monkeypatch.setitem(registry._registry, SLUG, GAME)
    first, *others = settings.TEMPLATES
    settings.TEMPLATES = [{**first, "DIRS": [*first["DIRS"], TEMPLATES]}, *others]
    return GAME


@pytest.fixture
def highest(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Any:
    return install(monkeypatch, settings)


@dataclass
class Clock:
    """The server's clock, stopped: it reads ``at`` until moved on."""

    at: datetime

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """Every ``timezone.now()`` (the service, the presenters, sessions, the channel layer)
    reads this clock until the test ends."""
    clock = Clock(timezone.now())
    monkeypatch.setattr(timezone, "now", clock)
    return clock
