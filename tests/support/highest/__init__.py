"""Highest Unique: a small test-only game that proves the platform's simultaneous rounds
(``games.kit.rounds``), the preview and solo play. ``rules`` is pure (the standard library
and ``games.kit`` only); ``game`` holds its presenters and its ``GameDefinition`` (``GAME``),
which is never registered at import: ``fixtures.install`` puts it in the registry and its
templates on the template path for one test only."""
