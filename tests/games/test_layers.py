"""The platform's layers point one way: a game's package and the platform's ``games/`` never
import the room (``lobby/``) or ``moderation/``; the room, moderation and config never
import a particular game (they read it through its registered definition). Parsed with
``ast``, so an import hidden in a function counts too."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_rules_purity import ROOT, imports_of, within

GAMES = sorted(p.parent.name for p in (ROOT / "games").glob("*/game.py"))


def imports_in(folder: str) -> list[tuple[str, list[str]]]:
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for line, names in imports_of(ROOT, path):
            found.append((f"{path.relative_to(ROOT)}:{line}", names))
    return found


def offending(folder: str, banned: tuple[str, ...]) -> list[str]:
    return [
        f"{where} {names[0]}"
        for where, names in imports_in(folder)
        if any(within(name, b) for name in names[:1] for b in banned)
    ]


def test_the_games_are_found():
    assert {"constellate", "underonesky"} <= set(GAMES)


def test_games_imports_nothing_from_the_room_or_moderation():
    assert offending("games", ("lobby", "moderation")) == []


@pytest.mark.parametrize("folder", ["lobby", "moderation", "config"])
def test_the_room_moderation_and_config_import_no_game(folder):
    assert offending(folder, tuple(f"games.{name}" for name in GAMES)) == []


def test_the_walk_would_see_a_relative_import_into_the_room(tmp_path: Path):
    package = tmp_path / "games" / "somegame"
    package.mkdir(parents=True)
    (tmp_path / "games" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "game.py").write_text("def later():\n    from lobby.views import room\n")
    found = [names[0] for _, names in imports_of(tmp_path, package / "game.py")]
    assert found == ["lobby.views"]
