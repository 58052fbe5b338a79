"""What ONE Constellate Spotter touch costs on the server.

Plays a 4-player Rivalry game through HTTP only (``django.test.Client``, one client and
session cookie per player: create the room, join, sit, start, the Stargazer names a
word), then measures exactly one Spotter touch (``POST /r/<code>/play/touch``, or
``/r/<code>/touch`` on a checkout from before the room served every game's actions under ``play/``):

* the SQL statements (``CaptureQueriesContext``), each listed with the phase it ran in;
* the template renders (``django.template.backends.django.Template.render``, and the games'
  fragments, ``games.fragments.render_fragment``/``render_fragments``, Django's or Jinja2's),
  counted by template name; a "board render" is one of a board's ``#board`` partial;
* the realtime pushes (``group_send`` on the channel layer: calls and bytes of
  ``message["html"]``).

Each is split into (a) the HTTP answer and (b) the push. The push is whatever runs in a
``transaction.on_commit`` callback registered during the touch: with autocommit (no
enclosing transaction) Django runs it as the service's ``atomic`` block exits, i.e.
inside the request, before the view renders its answer. Its statements are therefore in
the same captured list, and are tagged ``push`` there.

No websocket is connected: every ``group_send`` goes to a group with no members, and
still counts as one push attempt (the layer looks the members up all the same).

Run from a checkout's folder (it imports the project from the current directory, so it
also measures an old checkout: ``git worktree add /tmp/old <commit>``, then run it from
``/tmp/old`` with this checkout's venv)::

    CONSTELLATE_VAR_DIR=/tmp/x .venv/bin/python bench/action_cost.py

``CONSTELLATE_VAR_DIR`` holds a throwaway SQLite database (migrated on each run); without
it a fresh temporary directory is used, never the checkout's own ``var/``.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field

sys.path.insert(0, os.getcwd())
os.environ.setdefault("CONSTELLATE_VAR_DIR", tempfile.mkdtemp(prefix="action-cost-"))
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"

import django  # noqa: E402

django.setup()

from channels.layers import get_channel_layer  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.template.backends import django as django_backend  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

KIND = "constellate"
PLAYERS = 4  # Rivalry: seats 1 and 2 are the Stargazers of gold and teal, 3 and 4 Spotters
WORDS = ("ocean", "music", "winter", "garden", "metal", "river", "paper", "travel", "light")
HTMX = {"HTTP_HX_REQUEST": "true"}
BOARD = "#board"  # board.html#board, or a Jinja2 board's block: board.jinja#board
ACTIONS = ""  # where the actions are served (set in main: ``play/`` or the room's root)


# -- what the probes saw ------------------------------------------------------------------


@dataclass
class Probe:
    active: bool = False
    after_commit: int = 0  # > 0 inside an on_commit callback
    sending: int = 0  # > 0 inside a group_send
    renders: list[tuple[str, str]] = field(default_factory=list)  # (phase, template)
    sends: list[tuple[str, str, int]] = field(default_factory=list)  # (group, type, bytes)
    tags: dict[int, str] = field(default_factory=dict)  # captured query index -> phase
    queries: CaptureQueriesContext | None = None

    @property
    def phase(self) -> str:
        if self.sending:
            return "send"
        return "push" if self.after_commit else "answer"

    def tag_statement(self, execute, sql, params, many, context):
        """A connection.execute_wrapper: the phase each statement runs in. It runs in the
        thread that executes the statement, just before the debug cursor logs it."""
        if self.active and self.queries is not None:
            self.tags[len(self.queries.captured_queries)] = self.phase
        return execute(sql, params, many, context)


probe = Probe()


def _actions_prefix() -> str:
    """Where this checkout serves a game's actions: ``play/`` since the room became every
    game's one web edge, the room's root before."""
    from django.urls import Resolver404, resolve

    try:
        resolve("/r/abcd-efgh-jkmn-pqrs/play/touch")
    except Resolver404:
        return ""
    return "play/"


def template_name(template) -> str:
    """The name: "app/file.html", or "app/file.html#partial" for a template partial."""
    origin = getattr(template, "origin", None)
    name = str(getattr(origin, "template_name", None) or getattr(origin, "name", "?"))
    inner = getattr(getattr(template, "template", None), "name", None)
    return f"{name}#{inner}" if inner and inner != name else name


def probe_fragments() -> None:
    """The games' fragments (games/fragments.py) render a template without the backend's
    ``render``: count them where every module that imported them calls them (none on a
    checkout from before they existed)."""
    fragments = sys.modules.get("games.fragments")
    one = getattr(fragments, "render_fragment", None)
    several = getattr(fragments, "render_fragments", None)

    def counting_one(name, context):
        if probe.active:
            probe.renders.append((probe.phase, name))
        return one(name, context)

    def counting_several(name, blocks, context):
        if probe.active:
            probe.renders.extend((probe.phase, f"{name}#{block}") for block in blocks)
        return several(name, blocks, context)

    for module in list(sys.modules.values()):
        if one is not None and getattr(module, "render_fragment", None) is one:
            module.render_fragment = counting_one
        if several is not None and getattr(module, "render_fragments", None) is several:
            module.render_fragments = counting_several


def install_probes() -> None:
    render = django_backend.Template.render

    def counting_render(self, context=None, request=None):
        if probe.active:
            probe.renders.append((probe.phase, template_name(self)))
        return render(self, context, request)

    django_backend.Template.render = counting_render
    probe_fragments()

    layer = get_channel_layer()
    if layer is not None:
        group_send = layer.group_send

        async def counting_send(group, message):
            if not probe.active:
                return await group_send(group, message)
            html = message.get("html") or ""
            size = len(html.encode()) if isinstance(html, str) else len(html)
            probe.sends.append((group, str(message.get("type")), size))
            probe.sending += 1
            try:
                return await group_send(group, message)
            finally:
                probe.sending -= 1

        layer.group_send = counting_send

    # Every on_commit callback goes through the connection's on_commit (this thread's).
    on_commit = connection.on_commit

    def tagging_on_commit(func, *args, **kwargs):
        def tagged():
            probe.after_commit += 1
            try:
                return func()
            finally:
                probe.after_commit -= 1

        return on_commit(tagged if probe.active else func, *args, **kwargs)

    connection.on_commit = tagging_on_commit


# -- the game's state, tolerant of the registry's shape ------------------------------------


def registry_state(game_id: int | None):
    """The game's state through the registry (``game_type(kind).screens.current``, the
    old API, or a same-shaped getter of a newer one), else None: the caller falls back
    to the rendered boards."""
    if game_id is None:
        return None
    try:
        from games import registry
    except Exception:
        return None
    for getter in ("game_type", "game", "get"):
        try:
            return getattr(registry, getter)(KIND).screens.current(game_id)
        except Exception:
            continue
    return None


def game_id_of(code: str) -> int | None:
    try:
        from lobby.models import Room

        return Room.objects.filter(code=code).values_list("game_id", flat=True).first()
    except Exception:
        return None


def board_of(client: Client, code: str) -> str:
    page = client.get(f"/r/{code}/").content.decode()
    start = page.find('id="board"')
    return page[page.rfind("<section", 0, start) :] if start >= 0 else page


def version_in(html: str) -> int:
    found = re.search(r'data-version="(\d+)"', html)
    if not found:
        raise SystemExit("no board version in the page")
    return int(found.group(1))


def touchable(html: str) -> list[int]:
    cards = re.findall(r'<button type="submit" name="card" value="(\d+)"([^>]*)>', html)
    return [int(index) for index, rest in cards if "disabled" not in rest]


def own_dark_stars(stargazer_html: str) -> list[int]:
    """From a Stargazer's board (which shows the key): the active crew's dark stars."""
    crew = re.search(r'id="board" class="[^"]*crew-(\w+)', stargazer_html)
    if not crew:
        return []
    cards = re.findall(r'name="card" value="(\d+)"\s+class="([^"]*)"', stargazer_html)
    return [int(i) for i, cls in cards if f"key-{crew.group(1)}" in cls and "lit" not in cls]


# -- the game, through HTTP -----------------------------------------------------------------


def post(client: Client, path: str, data: dict, expect: tuple[int, ...] = (200,)):
    response = client.post(path, data, **HTMX)
    if response.status_code not in expect:
        body = response.content.decode()[:300]
        raise SystemExit(f"POST {path} {data} -> {response.status_code}: {body}")
    return response


def set_up() -> tuple[str, list[Client]]:
    clients = [Client(HTTP_HOST="localhost") for _ in range(PLAYERS)]
    host = clients[0]
    response = host.post("/rooms", {"kind": KIND}, follow=True)
    path = response.request["PATH_INFO"]
    found = re.fullmatch(r"/r/([^/]+)/", path)
    if response.status_code != 200 or not found:
        raise SystemExit(f"creating a room ended at {path} ({response.status_code})")
    code = found.group(1)
    for seat, client in enumerate(clients, start=1):
        client.get(f"/r/{code}/")
        post(client, f"/r/{code}/join", {"name": f"Player{seat}"})
        post(client, f"/r/{code}/sit", {"seat": seat})
    post(host, f"/r/{code}/start", {})
    return code, clients


def roles(code: str, clients: list[Client]) -> tuple[int, int, list[int]]:
    """(Stargazer seat, Spotter seat, preferred cards) for the active crew."""
    state = registry_state(game_id_of(code))
    if state is not None:
        try:
            crew = state.crew
            seats = [state.seat(n) for n in range(1, state.players + 1)]
            gazer = next(s.number for s in seats if s.crew == crew and s.stargazer)
            spotter = next(s.number for s in seats if s.crew == crew and not s.stargazer)
            return gazer, spotter, sorted(state.dark_stars(crew))
        except Exception:
            pass
    boards = [board_of(c, code) for c in clients]
    gazer = next(i + 1 for i, b in enumerate(boards) if 'class="naming"' in b)
    return gazer, 0, own_dark_stars(boards[gazer - 1])


def name_a_word(code: str, client: Client) -> str:
    for word in WORDS:
        version = version_in(board_of(client, code))
        response = post(
            client,
            f"/r/{code}/{ACTIONS}name",
            {"word": word, "number": 2, "version": version},
            expect=(200, 422),
        )
        if response.status_code == 200:
            return word
    raise SystemExit(f"every word was refused: {WORDS}")


def main() -> None:
    global ACTIONS
    ACTIONS = _actions_prefix()
    call_command("migrate", verbosity=0)
    install_probes()
    code, clients = set_up()
    gazer, _, stars = roles(code, clients)
    word = name_a_word(code, clients[gazer - 1])

    boards = {seat: board_of(c, code) for seat, c in enumerate(clients, start=1)}
    spotters = [seat for seat, html in boards.items() if touchable(html)]
    if not spotters:
        raise SystemExit("after the naming no seat may touch")
    spotter = spotters[0]
    html = boards[spotter]
    version = version_in(html)
    cards = [c for c in stars if c in touchable(html)] or touchable(html)
    card = cards[0]
    kind_of_touch = "one of the crew's own dark stars" if card in stars else "a touchable card"

    client = clients[spotter - 1]
    with (
        CaptureQueriesContext(connection) as queries,
        connection.execute_wrapper(probe.tag_statement),
    ):
        probe.queries, probe.active = queries, True
        response = client.post(
            f"/r/{code}/{ACTIONS}touch", {"card": card, "version": version}, **HTMX
        )
        probe.active = False
    if response.status_code != 200:
        raise SystemExit(f"the touch answered {response.status_code}: {response.content[:300]}")
    report(code, word, spotter, card, kind_of_touch, response, queries)


def phases_of(count: int) -> list[str]:
    """Each captured statement's phase; one the wrapper did not see (a COMMIT logged by
    the connection itself) takes the phase of the statement before it."""
    phases, phase = [], "answer"
    for index in range(count):
        phase = probe.tags.get(index, phase)
        phases.append(phase)
    return phases


def report(code, word, spotter, card, kind_of_touch, response, queries) -> None:
    statements = [q["sql"] for q in queries.captured_queries]
    phases = phases_of(len(statements))
    counts = Counter(phases)
    print(f"Room {code}: Rivalry, {PLAYERS} players, clue {word.upper()} 2; cwd {os.getcwd()}")
    print(
        f"Seat {spotter} touches card {card} ({kind_of_touch}): "
        f"HTTP {response.status_code}, answer {len(response.content)} bytes"
    )
    print()
    print(
        f"SQL statements: {len(statements)}: answer {counts['answer']}, "
        f"push {counts['push'] + counts['send']} (of which {counts['send']} in group_send)"
    )
    print("  (push = run in a transaction.on_commit callback, which also holds the clock's")
    print("   scheduling; in autocommit it runs inside the request, before the answer renders)")
    for number, (sql, phase) in enumerate(zip(statements, phases, strict=True), start=1):
        print(f"  {number:2} {phase:6} {' '.join(sql.split())[:120]}")
    print()
    renders = Counter(probe.renders)
    boards = Counter(phase for phase, name in probe.renders if name.endswith(BOARD))
    print(
        f"Board renders ({BOARD}): {sum(boards.values())}: "
        f"answer {boards['answer']}, push {boards['push']}"
    )
    print("  every template render (backend Template.render), by phase and name:")
    for (phase, name), n in sorted(renders.items()):
        print(f"  {phase:6} {name} x{n}")
    print()
    total = sum(size for *_, size in probe.sends)
    print(f"Pushes (group_send calls): {len(probe.sends)}, {total} bytes of html in all")
    for group, kind, size in probe.sends:
        print(f"  {group} {kind} {size} bytes")
    print("  (no websocket is connected: every group is empty, yet each group_send counts")
    print("   as a push attempt, and the layer still looks its members up)")


if __name__ == "__main__":
    main()
