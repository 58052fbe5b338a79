"""The rules are pure by place: every game's ``rules/`` package imports only the standard
library, the kit (``games.kit``) and its own modules, and the kit imports only the standard
library and itself. The check never runs the rules: each module is parsed with ``ast`` and
its imports (relative ones resolved) are checked, so a Django import hidden in a function
or an ``if TYPE_CHECKING:`` block is caught too."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KIT = "games.kit"
STDLIB = sys.stdlib_module_names
DYNAMIC = {"__import__", "import_module"}  # an import the parser cannot follow

Allowed = Callable[[str], bool]


def rules_packages(root: Path = ROOT) -> list[str]:
    """Every game's rules package under ``games/``, as a dotted name."""
    found = sorted(root.glob("games/*/rules/__init__.py"))
    return [".".join(path.parent.relative_to(root).parts) for path in found]


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def only_stdlib_kit_and(package: str) -> Allowed:
    """What a module of ``package`` may import."""
    return lambda name: name.split(".")[0] in STDLIB or within(name, KIT) or within(name, package)


def resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name of ``from <dots><target> import ...`` written in ``module``."""
    if level == 0:
        return target or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def imports_of(root: Path, path: Path) -> Iterator[tuple[int, list[str]]]:
    """Each import statement's line and the names it may load: for ``from x import y``
    both ``x`` and ``x.y`` (``y`` may be a submodule; either one being allowed is enough).
    A call to ``__import__`` or ``import_module`` loads a name nobody can check."""
    module = module_name(root, path)
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, [alias.name]
        elif isinstance(node, ast.ImportFrom):
            source = resolve(module, is_package, node.level, node.module)
            for alias in node.names:
                yield node.lineno, [source, f"{source}.{alias.name}"]
        elif isinstance(node, ast.Call) and _called(node) in DYNAMIC:
            yield node.lineno, [f"<{_called(node)}>"]


def _called(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def offences(root: Path, package: str, allowed: Allowed) -> list[str]:
    """``path:line name`` for every import in ``package`` that ``allowed`` refuses."""
    directory = root.joinpath(*package.split("."))
    found = []
    for path in sorted(directory.rglob("*.py")):
        for line, names in imports_of(root, path):
            if not any(allowed(name) for name in names):
                found.append(f"{path.relative_to(root)}:{line} {names[-1]}")
    return found


# -- the checker catches what it must (so the real checks below cannot pass vacuously) ------

PLANTED = {
    "from django.db import models": "django.db.models",
    "import requests": "requests",
    "from games import store": "games.store",
    "from games.evolving import hiding": "games.evolving.hiding",
    "from games.otherkind.rules import State": "games.otherkind.rules.State",
    "from ..services import act": "games.somegame.services.act",
    "from ... import registry": "games.registry",
    "import lobby.models": "lobby.models",
    "from importlib import import_module\nimport_module('django')": "<import_module>",
}


def plant(root: Path, source: str) -> None:
    rules = root / "games" / "somegame" / "rules"
    rules.mkdir(parents=True, exist_ok=True)
    (rules / "__init__.py").write_text("from .model import State\n")
    (rules / "model.py").write_text(
        "from __future__ import annotations\n"
        "import dataclasses\n"
        "from collections.abc import Iterable\n"
        "from games.kit import hiding\n"
        "from games import kit\n"
        "from . import geometry\n"
        "from .geometry import space\n"
    )
    (rules / "geometry.py").write_text("def space() -> int:\n    return 0\n")
    (rules / "planted.py").write_text("def later():\n" + textwrap.indent(source, "    ") + "\n")


@pytest.mark.parametrize("source", PLANTED)
def test_it_catches_a_planted_import(tmp_path: Path, source: str) -> None:
    plant(tmp_path, source)
    package = "games.somegame.rules"
    found = offences(tmp_path, package, only_stdlib_kit_and(package))
    last_line = 1 + len(source.splitlines())  # under ``def later():``
    assert found == [f"games/somegame/rules/planted.py:{last_line} {PLANTED[source]}"]


def test_it_allows_the_standard_library_the_kit_and_the_game_itself(tmp_path: Path) -> None:
    plant(tmp_path, "import json")
    package = "games.somegame.rules"
    assert offences(tmp_path, package, only_stdlib_kit_and(package)) == []


def test_it_finds_every_game_in_a_tree(tmp_path: Path) -> None:
    plant(tmp_path, "pass")
    assert rules_packages(tmp_path) == ["games.somegame.rules"]


# -- the real tree ---------------------------------------------------------------------------


def test_it_finds_both_games() -> None:
    assert {"games.constellate.rules", "games.underonesky.rules"} <= set(rules_packages())


@pytest.mark.parametrize("package", rules_packages())
def test_rules_import_only_the_kit_and_themselves(package: str) -> None:
    assert offences(ROOT, package, only_stdlib_kit_and(package)) == []


def test_the_kit_imports_only_the_standard_library() -> None:
    assert offences(ROOT, KIT, only_stdlib_kit_and(KIT)) == []


def loaded_by(module: str) -> list[str]:
    """The modules a fresh interpreter loads to import ``module`` (beyond its start-up)."""
    script = (
        "import sys; before = set(sys.modules); "
        f"import {module}; "
        "print('\\n'.join(sorted(set(sys.modules) - before)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.split()


@pytest.mark.parametrize("module", [KIT, *rules_packages()])
def test_importing_it_leaves_django_out(module: str) -> None:
    loaded = loaded_by(module)
    assert module in loaded
    assert [name for name in loaded if within(name, "django")] == []
    outside = [n for n in loaded if n.split(".")[0] not in STDLIB and not within(n, "games")]
    assert outside == []
