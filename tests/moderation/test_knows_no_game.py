"""Moderation and the ASGI entry know no game: a game reaches them through its registered
definition (games.registry: the moderation hook, warm_up), never by being imported."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.parent.name for p in (ROOT / "games").glob("*/game.py"))  # each game


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, ``from games import constellate`` read as the game's."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def game_imports(path: Path) -> list[str]:
    games = tuple(f"games.{name}" for name in GAMES)
    return sorted(m for m in imported_modules(path) if m in games or m.startswith(games))


def test_the_games_are_found():
    assert {"constellate", "underonesky"} <= set(GAMES)


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "moderation").rglob("*.py")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_moderation_module_imports_a_game(path):
    assert game_imports(path) == []


def test_the_asgi_entry_imports_no_game():
    assert game_imports(ROOT / "config" / "asgi.py") == []


def test_the_walk_sees_every_form_of_import(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import games.constellate.rules\n"
        "from games import underonesky\n"
        "from games.constellate.clues import warm_up\n"
        "from games import registry\n"
        "from games.flags import FlagRefused\n"
    )
    assert game_imports(probe) == [
        "games.constellate.clues",
        "games.constellate.clues.warm_up",
        "games.constellate.rules",
        "games.underonesky",
    ]
