"""On the open internet: DEBUG only when asked for (and never with a shared database or a
public address), our own error pages that say nothing about the server, no secret in any
traceback, a Content-Security-Policy, HTTPS-only cookies behind the documented proxy, a
private database file, a throttled admin login, and a clean ``check --deploy``."""

from __future__ import annotations

import html
import json
import os
import random
import re
import secrets
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.template.loader import get_template
from django.test import Client, RequestFactory, override_settings
from django.urls import path
from django.views.debug import ExceptionReporter

from config.urls import handler400, handler403, handler404, handler500  # noqa: F401 (below)
from config.urls import urlpatterns as site_urlpatterns
from games import codec as codecs
from games import store, writes
from games.constellate.game import GAME as CONSTELLATE
from games.constellate.rules import Deal as ConstellateDeal
from games.constellate.rules.events import SkyDealt
from games.management.commands import play
from games.models import Event, Game
from games.registry import game_type
from games.underonesky.rules.commands import Deal as SkyDeal
from games.underonesky.rules.events import GameDealt
from tests.web import uos_rooms
from tests.web.rooms import HX, page, seat_table

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
    "DJANGO_ALLOWED_HOSTS": "constellate.example.org",
    "CONSTELLATE_SITE_ORIGINS": "https://constellate.example.org",
    "CONSTELLATE_TRUSTED_PROXIES": "127.0.0.1",
    "DATABASE_URL": "postgres://constellate:db-password-123@127.0.0.1:5432/constellate",
    "REDIS_URL": "redis://:redis-password-456@127.0.0.1:6379/0",
}
SHOWN = (
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "TRUSTED_PROXIES",
)
ERROR_SETTINGS = {  # where a password hides in the scale-out configuration
    "DATABASE_URL": PRODUCTION["DATABASE_URL"],
    "REDIS_URL": PRODUCTION["REDIS_URL"],
    "CACHES": {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": PRODUCTION["REDIS_URL"],
        }
    },
    "CHANNEL_LAYERS": {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"hosts": [{"address": PRODUCTION["REDIS_URL"]}]},
        }
    },
}
PASSWORDS = ("db-password-123", "redis-password-456")


def _boom(request):
    raise RuntimeError("the view fell over")


# This module is the urlconf of the tests that need a view that fails: the site's own
# patterns and error handlers (imported above), and one more path.
urlpatterns = [*site_urlpatterns, path("boom/", _boom)]


def run(args: list[str], env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    """A fresh process with only ``env`` (and a private state directory): what an operator
    starting the server with exactly that environment gets."""
    base = {"PATH": os.environ["PATH"], "CONSTELLATE_VAR_DIR": str(tmp_path / "var")}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.umask(0o022),  # the usual umask: files readable by all
    )


def settings_in(env: dict[str, str], tmp_path: Path) -> dict:
    code = (
        "import json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; "
        "from django.conf import settings as s; "
        f"print(json.dumps({{n: getattr(s, n) for n in {SHOWN!r}}}))"
    )
    done = run(["-c", code], env, tmp_path)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- DEBUG is opt-in ---------------------------------------------------------------------


def test_debug_is_off_and_only_local_hosts_are_allowed_when_the_environment_says_nothing(
    tmp_path,
):
    found = settings_in({}, tmp_path)
    assert found["DEBUG"] is False
    assert found["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost"]
    assert settings_in({"DJANGO_DEBUG": "1"}, tmp_path)["DEBUG"] is True  # opt-in works


def test_the_tests_own_host_comes_from_pytest_django_not_from_the_settings():
    assert "testserver" in settings.ALLOWED_HOSTS  # added by the test environment
    response = Client().get("/", HTTP_HOST="evil.example.org")
    assert response.status_code == 400


def test_debug_with_a_shared_database_refuses_to_start(tmp_path):
    env = {"DJANGO_DEBUG": "1", "DATABASE_URL": PRODUCTION["DATABASE_URL"]}
    done = run(["manage.py", "check"], env, tmp_path)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and "DJANGO_DEBUG=1" in done.stderr
    assert run(["manage.py", "check"], {"DJANGO_DEBUG": "1"}, tmp_path).returncode == 0


class _Child:
    """Stands in for daphne and the cluster: exits at once, so `play` returns."""

    started: list[list[str]] = []

    def __init__(self, command: list[str]) -> None:
        self.started.append(command)
        self.returncode = 0

    def poll(self) -> int:
        return 0

    def wait(self, timeout: float | None = None) -> int:
        return 0


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "constellate.example.org"])
def test_play_refuses_debug_on_an_address_others_can_reach(host, monkeypatch):
    monkeypatch.setattr(play.subprocess, "Popen", _Child)
    _Child.started = []
    with override_settings(DEBUG=True), pytest.raises(CommandError, match="loopback"):
        call_command("play", host=host, no_cluster=True)
    assert _Child.started == []
    call_command("play", host=host, no_cluster=True)  # DEBUG off: served
    assert len(_Child.started) == 1


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_play_serves_debug_on_loopback(host, monkeypatch):
    monkeypatch.setattr(play.subprocess, "Popen", _Child)
    _Child.started = []
    with override_settings(DEBUG=True):
        call_command("play", host=host, no_cluster=True)
    assert [c[c.index("-b") + 1] for c in _Child.started] == [host]


# -- our own error pages -----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["2345-6789-abcd-efgh", "nope-nope", "%00"])
def test_a_wrong_room_link_says_so_with_a_way_home_and_sets_no_cookie(code):
    response = Client().get(f"/r/{code}/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "No room has that link" in body
    assert 'href="/"' in body and "masthead" in body  # the site's look, and a way home
    assert "X-CSRFToken" not in body
    assert not response.cookies


@pytest.mark.django_db
def test_any_other_404_is_generic_and_lists_no_url_patterns():
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "There is no page at this address" in body
    for pattern in ("admin/", "<room:code>", "room", "urlpatterns", "Traceback"):
        assert pattern not in body
    assert not response.cookies


@pytest.mark.django_db
def test_an_htmx_404_is_a_notice_the_page_can_show():
    response = Client().post("/r/2345-6789-abcd-efgh/join", {"name": "Zed"}, **HX)
    assert response.status_code == 404
    body = response.content.decode()
    assert "<html" not in body
    assert re.search(r'<p id="notice"[^>]*hx-swap-oob="true">No room has that link\.</p>', body)
    assert re.search(r'<p id="lobby-notice"[^>]*hx-swap-oob="true">No room has', body)


@pytest.mark.django_db
def test_a_stale_page_gets_a_friendly_csrf_page_or_notice():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/rooms")
    assert response.status_code == 403
    body = response.content.decode()
    assert "CSRF" in body and "Reload the page" in body and "masthead" in body
    response = client.post("/rooms", **HX)
    assert response.status_code == 403
    assert "CSRF" in response.content.decode() and "<html" not in response.content.decode()


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__)
def test_a_crash_is_a_friendly_500_page_or_notice_without_details():
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong on our side" in body and 'href="/"' in body
    assert "fell over" not in body and "RuntimeError" not in body
    assert not response.cookies
    response = client.get("/boom/", **HX)
    assert response.status_code == 500
    assert 'id="notice"' in response.content.decode()
    assert "<html" not in response.content.decode()


def test_the_500_page_renders_with_no_context_at_all():
    body = get_template("500.html").render()
    assert "Something went wrong on our side" in body and "csrf" not in body.lower()


def test_a_request_with_a_foreign_host_gets_our_400_page():
    response = Client().get("/", HTTP_HOST="evil.example.org")
    assert response.status_code == 400
    assert "could not be read" in response.content.decode()
    assert "ALLOWED_HOSTS" not in response.content.decode()


# -- no secret in a traceback ------------------------------------------------------------


def _key_pattern(values: list[str]) -> re.Pattern:
    """The first 8 values of a secret sequence in order, in any notation (a tuple of enums,
    a JSON list, one value per line...)."""
    return re.compile(r"\W+(?:\w+\W+){0,2}?".join(re.escape(v) for v in values[:8]), re.I)


def _dealt_constellate():
    return seat_table(4).state()


@pytest.mark.django_db
def test_a_dealt_sky_its_deal_and_its_command_never_show_the_key():
    state = _dealt_constellate()
    deal = SkyDealt(state.mode, 4, state.sky, state.key, state.first_crew, None, None, False)
    command = ConstellateDeal(4, state.sky, state.key, state.first_crew)
    key = _key_pattern([k.value for k in state.key])
    assert key.search(repr(list(state.key)))  # the pattern finds the key where it is
    for thing in (state, deal, command):
        for text in (repr(thing), str(thing), f"{thing}"):
            assert "key=<hidden>" in text
            assert not key.search(text), text
            assert "Key." not in text
    assert state.sky[0] in repr(state)  # the public rest is still there to debug with


@pytest.mark.django_db
def test_an_under_one_sky_deal_never_shows_the_cards_or_the_stack():
    state = _uos_state()
    deal = GameDealt(state.chart, state.compass, state.cards, state.face_down, state.stack, 1, None)
    command = SkyDeal(state.chart, state.compass, state.cards, state.face_down, state.stack, 1)
    stack = _key_pattern([t.value for t in state.stack])
    assert stack.search(repr(list(state.stack)))
    for thing in (state, deal, command):
        text = repr(thing)
        assert "cards=<hidden>" in text and "stack=<hidden>" in text
        assert not stack.search(text), text
        for card in (*state.cards, state.face_down):
            assert card.name not in text and card.id not in text


def _uos_state():
    return uos_rooms.seat_table().state()  # started: the cards are dealt


def _technical_page(exc: BaseException) -> str:
    request = RequestFactory().get("/r/2345-6789-abcd-efgh/")
    return ExceptionReporter(request, type(exc), exc, exc.__traceback__).get_traceback_html()


@pytest.mark.django_db
@override_settings(**ERROR_SETTINGS)
def test_the_technical_500_page_shows_no_key_and_no_password():
    state = _dealt_constellate()
    key = _key_pattern([k.value for k in state.key])
    kind, payload = game_type("constellate").codec.encode(
        SkyDealt(state.mode, 4, state.sky, state.key, state.first_crew, None, None, False)
    )
    assert kind == "SkyDealt" and key.search(json.dumps(payload))
    try:
        raise RuntimeError("a bug while the state is in hand")
    except RuntimeError as error:
        page = html.unescape(_technical_page(error))
    assert "a bug while the state is in hand" in page  # the page is the real one...
    assert "key=<hidden>" in page  # ...with this frame's locals shown
    assert not key.search(page)
    for password in PASSWORDS:
        assert password not in page
    assert "DATABASE_URL" in page and "CHANNEL_LAYERS" in page


@pytest.mark.django_db
def test_a_bad_event_row_fails_in_the_codec_without_showing_its_payload():
    state = _dealt_constellate()
    codec = game_type("constellate").codec
    _, payload = codec.encode(
        SkyDealt(state.mode, 4, state.sky, state.key, state.first_crew, None, None, False)
    )
    key = _key_pattern([k.value for k in state.key])
    with pytest.raises(KeyError) as failed:
        codec.decode("SkyDealt", {**payload, "unexpected": 1})  # fails inside games/codec.py
    page = html.unescape(_technical_page(failed.value))
    assert codecs.__file__ in page  # the codec's frames are in it...
    assert not key.search(page)  # ...with none of their values


@pytest.mark.django_db
def test_an_append_that_fails_in_the_database_shows_no_payload_and_lands_nothing():
    """The append's SQL (games/writes.py) carries the events' JSON: a failing statement's
    traceback shows none of it, and the version it had moved is rolled back with it."""
    game, outcome = CONSTELLATE.start(players=4, rng=random.Random(5))
    state = outcome.state
    key = _key_pattern([k.value for k in state.key])
    deal = SkyDealt(state.mode, 4, state.sky, state.key, state.first_crew, None, None, False)
    Game.objects.filter(pk=game.pk).update(version=0)  # as if seq 1 were free: it is not
    game.version = 0
    with pytest.raises(IntegrityError) as failed, transaction.atomic():
        store.append(game, [deal], expected_version=0)
    page = html.unescape(_technical_page(failed.value))
    assert writes.__file__ in page  # the append's frames are in it...
    assert not key.search(page)  # ...with none of their values, nor the cursor's
    assert Game.objects.get(pk=game.pk).version == 0  # the UPDATE went with the INSERT
    assert Event.objects.filter(game=game).count() == 1


# -- the Content-Security-Policy and friends ----------------------------------------------

TEMPLATES = [
    *ROOT.glob("templates/**/*.html"),
    *ROOT.glob("*/templates/**/*.html"),
    *ROOT.glob("games/*/templates/**/*.html"),
    *ROOT.glob("games/jinja2/**/*.jinja"),  # the Jinja2 boards (games/jinja.py)
    *ROOT.glob("games/*/jinja2/**/*.jinja"),
]
INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=|\sstyle\s*=|hx-on|hx-vars|js:|javascript:",
    re.I,
)


def test_no_template_has_an_inline_script_handler_style_or_htmx_eval():
    assert len(TEMPLATES) >= 8
    found = {str(t.relative_to(ROOT)): INLINE.findall(t.read_text()) for t in TEMPLATES}
    assert {t: f for t, f in found.items() if f} == {}


@pytest.mark.django_db
def test_every_page_carries_the_policy_and_the_security_headers():
    response = Client().get("/")
    policy = dict(
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "Content-Security-Policy" in Client().get("/no/such/page/")  # error pages too


@pytest.mark.django_db
def test_running_games_and_the_replay_render_nothing_inline():
    table = seat_table(4)
    pages = [page(table.seats[n], table.room) for n in (1, 3)] + [page(table.spectator, table.room)]
    uos = uos_rooms.seat_table()
    pages += [uos.page(1), uos.page(None)]
    assert all('id="board"' in p or 'id="sky"' in p for p in pages)
    for html_page in pages:
        assert not INLINE.findall(html_page)
    history = table.host.get(f"/r/{table.room.code}/history/1/")
    if history.status_code == 200:  # a running game's replay may be closed to players
        assert not INLINE.findall(history.content.decode())


# -- HTTPS behind the documented proxy ---------------------------------------------------


def test_the_production_environment_turns_on_https_only_cookies_and_hsts(tmp_path):
    found = settings_in(PRODUCTION, tmp_path)
    assert found["DEBUG"] is False
    assert found["SESSION_COOKIE_SECURE"] is True and found["CSRF_COOKIE_SECURE"] is True
    assert found["SECURE_HSTS_SECONDS"] == 365 * 24 * 60 * 60
    assert found["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert found["SECURE_HSTS_PRELOAD"] is False
    assert found["SECURE_SSL_REDIRECT"] is True
    assert found["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert found["CSRF_TRUSTED_ORIGINS"] == ["https://constellate.example.org"]
    plain = settings_in({}, tmp_path)  # `make run` on http://127.0.0.1:8000
    assert plain["SESSION_COOKIE_SECURE"] is False and plain["CSRF_COOKIE_SECURE"] is False
    assert not plain["SECURE_HSTS_SECONDS"] and not plain["SECURE_SSL_REDIRECT"]
    assert plain["SECURE_PROXY_SSL_HEADER"] is None
    http_origin = {**PRODUCTION, "CONSTELLATE_SITE_ORIGINS": "http://constellate.example.org"}
    assert settings_in(http_origin, tmp_path)["SESSION_COOKIE_SECURE"] is False


def _production_https(tmp_path: Path) -> dict:
    found = settings_in(PRODUCTION, tmp_path)
    names = (
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
        "SECURE_SSL_REDIRECT",
        "TRUSTED_PROXIES",
    )
    chosen = {name: found[name] for name in names}
    chosen["SECURE_PROXY_SSL_HEADER"] = tuple(found["SECURE_PROXY_SSL_HEADER"])
    chosen["ALLOWED_HOSTS"] = [*found["ALLOWED_HOSTS"], "testserver"]
    return chosen


@pytest.mark.django_db
def test_behind_the_proxy_a_browser_is_sent_to_https_and_gets_secure_cookies(tmp_path):
    with override_settings(**_production_https(tmp_path)):
        host = {"HTTP_HOST": "constellate.example.org", "REMOTE_ADDR": "127.0.0.1"}
        plain = Client().get("/", **host, HTTP_X_FORWARDED_PROTO="http")
        assert plain.status_code == 301
        assert plain["Location"] == "https://constellate.example.org/"
        client = Client()
        tls = {**host, "HTTP_X_FORWARDED_PROTO": "https"}
        home = client.get("/", **tls)
        assert home.status_code == 200
        assert home["Strict-Transport-Security"] == "max-age=31536000"
        created = client.post("/rooms", **tls)
        assert created.status_code == 302
        assert created.cookies["sessionid"]["secure"] is True
        assert home.cookies["csrftoken"]["secure"] is True


@pytest.mark.django_db
def test_plain_http_on_this_machine_keeps_working_without_secure_cookies():
    client = Client()
    home = client.get("/")
    assert home.status_code == 200 and "Strict-Transport-Security" not in home
    created = client.post("/rooms")
    assert created.status_code == 302
    assert not created.cookies["sessionid"]["secure"]


# -- the state directory is private ------------------------------------------------------


def test_the_state_directory_database_and_secret_key_are_private(tmp_path):
    var = tmp_path / "var"
    code = (  # the modes while the connection is open (the -wal file goes when it closes)
        "import django, json, pathlib, stat; django.setup(); "
        "from django.db import connection; "
        "connection.cursor().execute('CREATE TABLE t (x)'); "
        "connection.cursor().execute('INSERT INTO t VALUES (1)'); "
        f"print(json.dumps({{p.name: stat.S_IMODE(p.stat().st_mode) "
        f"for p in pathlib.Path({str(var)!r}).iterdir()}}))"
    )
    done = run(["-c", code], {"DJANGO_SETTINGS_MODULE": "config.settings"}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(var.stat().st_mode) == 0o700
    made = json.loads(done.stdout.strip().splitlines()[-1])
    assert "constellate.sqlite3-wal" in made  # WAL mode: the side files exist too
    assert made == dict.fromkeys(made, 0o600), made


def test_an_old_world_readable_database_file_is_made_private(tmp_path):
    var = tmp_path / "var"
    var.mkdir(mode=0o755)
    database = var / "constellate.sqlite3"
    database.touch(mode=0o644)
    database.chmod(0o644)
    done = run(["-c", "import config.settings"], {}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


# -- the admin's login is throttled ------------------------------------------------------


def _sign_in(username: str, password: str, address: str, **headers: str):
    client = Client()
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **headers,
    )


@pytest.mark.django_db
def test_five_wrong_passwords_lock_that_name_from_that_address_only():
    User.objects.create_superuser("alice", password="the right horse battery")
    User.objects.create_superuser("bob", password="another right password")
    for attempt in range(5):
        # A client's own X-Forwarded-For does not move it to another count.
        response = _sign_in(
            "alice", "wrong", "203.0.113.9", HTTP_X_FORWARDED_FOR=f"10.0.0.{attempt}"
        )
        # The form again with its error; the fifth wrong password is answered by the lock.
        assert response.status_code == (429 if attempt == 4 else 200), attempt
    locked = _sign_in("alice", "the right horse battery", "203.0.113.9")
    assert locked.status_code == 429  # even with the right password now
    assert "Too many sign-in attempts" in locked.content.decode()
    assert "15 minutes" in locked.content.decode()
    assert _sign_in("alice", "the right horse battery", "198.51.100.7").status_code == 302
    assert _sign_in("bob", "another right password", "203.0.113.9").status_code == 302


@pytest.mark.django_db
def test_four_wrong_passwords_do_not_lock_anyone_out_and_a_sign_in_starts_again():
    User.objects.create_superuser("alice", password="the right horse battery")
    for _ in range(2):  # a successful sign-in clears the count: 4 + 4 wrong never lock
        for _ in range(4):
            assert _sign_in("alice", "wrong", "203.0.113.9").status_code == 200
        assert _sign_in("alice", "the right horse battery", "203.0.113.9").status_code == 302


# -- check --deploy ----------------------------------------------------------------------


def test_check_deploy_is_clean_with_the_documented_production_environment(tmp_path):
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], PRODUCTION, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
    without_https = {k: v for k, v in PRODUCTION.items() if k != "CONSTELLATE_SITE_ORIGINS"}
    done = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], without_https, tmp_path
    )
    assert done.returncode != 0 and "SESSION_COOKIE_SECURE" in done.stderr
