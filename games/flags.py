"""What a game tells the platform's moderation: which of its public texts may be flagged,
and what the moderators read on a flag. The moderation app works through this and the
game's registered definition (``GameType.moderation``) only, so it imports no game.

A game without a ``moderation`` hook has no texts to flag. The hook is given the game's
state (the platform reads and folds it); it never touches the database itself.

The blocklist runs the other way: the moderation app provides the words its moderators
blocked (``provide_blocked_words``) and a game that checks texts reads them through
``blocked_words``, so neither imports the other."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

NO_TEXTS = "This game has no words to flag."


@dataclass(frozen=True)
class FlaggableText:
    """A public text of a game that a player may flag."""

    number: int  # its number in the game: 1, 2... (stored on the flag)
    text: str  # what the moderators judge, e.g. the word of a constellation
    event_seq: int  # the event that made it public: the review rebuilds the game up to it


class FlagRefused(Exception):
    """A flag the game refuses, with the message for the player and the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class Moderation(Protocol):
    """A game's side of moderation: what may be flagged, and the flag's page in the admin."""

    already_flagged: str  # the refusal of a second flag by one player on one text
    panel_heading: str  # the heading of the panel's part of the flag's page
    panel_label: str  # the label of the panel itself
    styles: tuple[str, ...]  # static stylesheets the panel needs in the admin

    def flaggable(self, state: Any, seat: int | None, number: int) -> FlaggableText:
        """The text ``number`` that ``seat`` may flag, or FlagRefused (who may flag what)."""
        ...

    def title(self, state: Any, number: int) -> str | None:
        """How the queue names the text (None: the platform shows the stored text)."""
        ...

    def given_by(self, state: Any, number: int, names: Mapping[int, str]) -> str:
        """Who made the text public, for the flag's page."""
        ...

    def panel_html(self, state: Any, number: int) -> str:
        """The game as it stood when the text was given, for the admin: safe HTML (built
        with format_html); a plain str is shown escaped."""
        ...


# -- the blocklist: provided by the moderation app, read by the games that check texts -------

BlockedWords = Callable[[], Collection[str]]


def _none() -> Collection[str]:
    return frozenset()


_provider: BlockedWords = _none


def provide_blocked_words(provider: BlockedWords | None) -> None:
    """Install the moderators' blocklist (None: no words). Called on every read: it is live."""
    global _provider
    _provider = provider if provider is not None else _none


def blocked_words() -> Collection[str]:
    """The words the moderators blocked, as the installed provider returns them now."""
    return _provider()
