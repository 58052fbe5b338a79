"""Settings for the Constellate server.

The embedded default needs nothing installed beside Python: SQLite in WAL mode under
``var/``. Environment variables (see README) switch to the scale-out configuration.
"""

import os
import warnings
from datetime import timedelta
from pathlib import Path
from typing import Any

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CONSTELLATE_VAR_DIR", BASE_DIR / "var"))
if not VAR_DIR.exists() or VAR_DIR == BASE_DIR / "var":
    # The database and the secret key live here: only this user may look in. (An older
    # checkout's var/ was made world-readable; a directory the operator points at is theirs.)
    VAR_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
    VAR_DIR.chmod(0o700)
CONSTELLATE_TEST_STEP_SECONDS = int(os.environ.get("CONSTELLATE_TEST_STEP_SECONDS") or 0) or None


def _secret_key() -> str:
    """A stable secret per checkout: from the environment, else generated once into var/."""
    if key := os.environ.get("DJANGO_SECRET_KEY"):
        return key
    path = VAR_DIR / "secret_key"
    if not path.exists():
        import secrets

        # Created 0600 from the start: no moment where another user could read it.
        with os.fdopen(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600), "w") as out:
            out.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = _secret_key()
# DEBUG's error pages show every local variable and setting: opt-in only, and refused below
# with a shared database and by `play` on a non-loopback address.
DEBUG = os.environ.get("DJANGO_DEBUG", "0") == "1"
# pytest-django adds "testserver" itself; a deployment names its own host.
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if h.strip()
]


def _env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# -- On the open internet (README: "Putting it on the internet") ---------------------------
# The addresses people type, scheme and port included ("https://constellate.example.org").
# Websockets are accepted only from these origins (exactly: scheme, host and port); with
# none given, only from the page's own origin (the Host header the socket came with). When
# every one is https, the HTTPS hardening (Secure cookies, HSTS, redirect) switches on.
SITE_ORIGINS = _env_list("CONSTELLATE_SITE_ORIGINS")
# The reverse proxies in front of the web processes (addresses or CIDR networks). Only a
# request from one of them may say, in X-Forwarded-For / X-Forwarded-Proto, who the client
# is and whether it came over HTTPS; anyone else's such headers are ignored.
TRUSTED_PROXIES = _env_list("CONSTELLATE_TRUSTED_PROXIES")
# A form posted from one of the site's own origins passes the CSRF origin check.
CSRF_TRUSTED_ORIGINS = _env_list("DJANGO_CSRF_TRUSTED_ORIGINS") or list(SITE_ORIGINS)
# The address to share (the room link, its QR code) when a page was opened on a loopback
# address, which no other device can open: CONSTELLATE_SHARE_ORIGIN (`play --host 0.0.0.0`
# sets it to this machine's address on its network), else the first site origin.
SHARE_ORIGIN = (
    os.environ.get("CONSTELLATE_SHARE_ORIGIN", "").strip() or next(iter(SITE_ORIGINS), "")
).rstrip("/")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "template_partials",
    "channels",
    "channels_lite",
    "django_q",
    "csp",
    "axes",
    "games",
    # The games (below): every folder of games/ with a game.py is one, its app installed
    # for its templates and static files; its game.py registers its definition.
    "lobby",
    "moderation",
]

INSTALLED_APPS += sorted(f"games.{p.parent.name}" for p in (BASE_DIR / "games").glob("*/game.py"))

MIDDLEWARE = [
    "config.clients.RealClientMiddleware",  # first: REMOTE_ADDR is the real client
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "games.middleware.BusyDatabaseMiddleware",
    # Last, as django-axes asks: it answers a locked-out admin login (AUTHENTICATION_BACKENDS).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    {
        # The boards drawn on every change, for every audience (games/jinja.py): each
        # app's jinja2/ folder.
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "games.jinja.environment"},
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES: dict[str, Any] = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("CONSTELLATE_SQLITE_PATH", str(VAR_DIR / "constellate.sqlite3")),
        "OPTIONS": {
            # IMMEDIATE takes the write lock at BEGIN, so two appends to the event store
            # queue behind each other instead of failing half-way (DESIGN: serialized appends).
            "transaction_mode": "IMMEDIATE",
            "timeout": 5,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
        "TEST": {"NAME": str(VAR_DIR / "test-constellate.sqlite3")},
        # Each thread keeps its connection a minute instead of opening one per request
        # (the file, the pragmas and Django's SQL functions: 5 % of the daphne's samples).
        # Reads stay current: every query runs in autocommit, so each reads the newest
        # commit, and a connection found inside a transaction when a request begins is
        # closed first (config/http_threads.py, fresh_connections). channels-lite's layer
        # requires this ENGINE by name: no backend of our own for that check.
        "CONN_MAX_AGE": 60,
    }
}

# Unix sockets by which the embedded default's processes wake each other (config/doorbell.py).
DOORBELLS: Path | None = VAR_DIR / "bells"

# The embedded default's channel layer must reach daphne's websockets from the q2 worker's
# process: channels-lite's SQLite layer (rows in the default database, polled). Its
# AIOSQLiteChannelLayer kept daphne from exiting on SIGTERM: not that one.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "config.channel_layers.BatchedSQLiteChannelLayer",
        "CONFIG": {
            "database": "default",
            # Each process holding websockets waits on its doorbell in DOORBELLS for its
            # messages (config/doorbell.py). Only where none can be bound does it poll at
            # this interval (0.05 s: push p95 ~70 ms to 8 sockets, bench/clock_precision.py).
            "polling_interval": float(os.environ.get("CONSTELLATE_CHANNELS_POLL", "0.05")),
            "doorbells": str(DOORBELLS),
            "expiry": 60,
        },
    }
}

# django-q2 runs the step clocks (games/clock.py) on the ORM broker. Its own scheduler looks
# at schedules only every ~30 s: `manage.py clocktick` (started by `play`) hands due ones
# to the broker on time.
Q_CLUSTER = {
    "name": "constellate",
    "orm": "default",
    "workers": int(os.environ.get("CONSTELLATE_Q_WORKERS", "2")),
    # The pusher waits on a doorbell that enqueuing rings (config/q_broker.py); it polls
    # every "poll" seconds only where no doorbell can be bound.
    "broker_class": "config.q_broker.RungORM",
    "poll": 0.1,
    "timeout": 20,  # an expiry takes milliseconds: one stuck this long is killed...
    "retry": 30,  # ...and handed out again after this (a re-run is a no-op)
    "max_attempts": 3,
    "catch_up": False,
    "save_limit": 200,
    "sync": False,
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The admin's login is throttled by django-axes: after 5 wrong passwords for one username
# from one address, that pair is refused (429, templates/locked_out.html) for 15 minutes.
# The address is REMOTE_ADDR, which only the trusted-proxy handling may rewrite: a client's
# own X-Forwarded-For never picks the address it is counted under.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.errors.locked_out"


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name) or default)


# Rate limits (lobby/ratelimit.py): (requests, seconds) per window, counted in the cache
# (Redis at scale: every process counts together). The "_ip" ones count per client address
# (the real one behind TRUSTED_PROXIES), so a fresh cookie resets nothing; the others per
# browser. Actions are generous for a quick Spotter; a household on one network shares the
# address limits, so those are generous too.
RATE_LIMITS = {
    "action": (_env_int("CONSTELLATE_RATE_ACTIONS", 40), 10),
    "preview": (_env_int("CONSTELLATE_RATE_PREVIEWS", 60), 10),  # a draft checked as it changes
    "create_room": (10, 600),
    "create_room_ip": (_env_int("CONSTELLATE_RATE_ROOMS_IP", 60), 600),
    "join_ip": (_env_int("CONSTELLATE_RATE_JOINS_IP", 30), 60),
    "tick": (20, 60),  # a countdown asks once at zero, per tab
    "tick_ip": (_env_int("CONSTELLATE_RATE_TICKS_IP", 240), 60),
}
# Caps on websockets (lobby/limits.py), counted across processes in the cache with keys
# that expire, so a process that dies leaves no count behind. A socket over a cap is closed
# with code 4429 before anything is rendered for it (browsers do not retry that code).
SOCKETS_PER_SESSION = _env_int("CONSTELLATE_SOCKETS_PER_SESSION", 12)  # tabs of one browser
SOCKETS_PER_ROOM = _env_int("CONSTELLATE_SOCKETS_PER_ROOM", 120)
# People in a room without a seat: a join past this many is refused with a message.
SPECTATORS_PER_ROOM = _env_int("CONSTELLATE_SPECTATORS_PER_ROOM", 40)
# A lobby change is rendered once per viewer per process, this long after the first
# notice of it (more changes meanwhile ride along).
LOBBY_PUSH_DEBOUNCE = float(os.environ.get("CONSTELLATE_LOBBY_DEBOUNCE") or 0.05)
# The daily purge (lobby/housekeeping.py): rooms idle this many days go with their games
# (never one with an open flag); rooms no one ever joined, after this many hours.
ROOM_PURGE_IDLE_DAYS = _env_int("CONSTELLATE_ROOM_IDLE_DAYS", 30)
ROOM_PURGE_EMPTY_HOURS = _env_int("CONSTELLATE_ROOM_EMPTY_HOURS", 24)
# The local cache holds every browser's session, the rate limits' counters and the socket
# caps' leases. Django's default of 300 entries is culled by a third once full, so a party of
# a few hundred browsers evicted sessions (each read then went to the database) and leases.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": 20_000},  # about 1 KiB each at most
    }
}

# Sessions read through the cache (the local one, or Redis at scale) and write through to
# the database: one query less on every action.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"  # our page, or a notice for htmx

# -- Hardening (README: "Putting it on the internet") -------------------------------------
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"  # room links are capabilities: never sent elsewhere
X_FRAME_OPTIONS = "DENY"
# Scripts and styles only from our own static files: no inline script, handler or style
# attribute runs, so markup smuggled into a page cannot act. (htmx's indicator <style> is
# turned off in base.html's htmx-config.) django-csp leaves DEBUG's own error pages alone.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],  # 'self' covers the page's own ws:/wss: origin
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Served over HTTPS (every site origin https, not DEBUG): cookies only over TLS, and browsers
# told to come back only over TLS for a year. Subdomains may be someone else's sites, and
# preloading is a promise browsers hard-code: both stay off unless asked for.
SITE_IS_HTTPS = (
    not DEBUG and bool(SITE_ORIGINS) and all(o.startswith("https://") for o in SITE_ORIGINS)
)
if SITE_IS_HTTPS:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 365 * 24 * 60 * 60
    SECURE_HSTS_INCLUDE_SUBDOMAINS = os.environ.get("CONSTELLATE_HSTS_SUBDOMAINS") == "1"
    SECURE_HSTS_PRELOAD = False
    if TRUSTED_PROXIES:
        # The proxy terminates TLS and says so in X-Forwarded-Proto; without one we cannot
        # tell http from https, and a redirect to https would loop.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
        SECURE_SSL_REDIRECT = True
SILENCED_SYSTEM_CHECKS = [
    # W005 (HSTS without includeSubDomains) and W021 (without preload): see just above.
    "security.W005",
    "security.W021",
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# `play` (so `make run`) collects the static files here before it serves, unless DEBUG is
# on: names with a hash of their content (cached for a year, `immutable`) and gzip copies
# that WhiteNoise sends to browsers that accept them. Each state directory has its own, so
# servers started with their own CONSTELLATE_VAR_DIR (tests) never share a half-written one.
STATIC_ROOT = VAR_DIR / "static"
# Set by `play` for the processes it starts, once the collection is done. Anything else
# (the tests, their daphnes, DEBUG, a server started some other way) serves the apps'
# folders as they are (WhiteNoise's finders, short-cached, uncompressed): no collectstatic
# needed, and no stale copy of a file just edited. The manifest storage would refuse to
# render a page whose file is not in its manifest.
STATIC_COLLECTED = os.environ.get("CONSTELLATE_STATIC_COLLECTED") == "1"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if STATIC_COLLECTED
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not STATIC_COLLECTED
WHITENOISE_AUTOREFRESH = DEBUG  # off: the files are found once, at start, not per request
# Until a collection fills STATIC_ROOT, WhiteNoise says it is missing at every start; the
# finders serve every file then, so that is expected, not a problem.
warnings.filterwarnings("ignore", message=r"No directory at: ")

# Tracebacks (DEBUG's page, mailed reports) hide URL/DSN settings and secret-bearing locals;
# the games' states and deal events hide their secrets in their own repr.
DEFAULT_EXCEPTION_REPORTER_FILTER = "config.reporter.SecretHidingFilter"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("CONSTELLATE_LOG_LEVEL", "INFO")},
}

# -- Beyond one machine ---------------------------------------------------------------------
# DATABASE_URL (PostgreSQL) and REDIS_URL switch the embedded default to the scale-out
# configuration: several daphne processes and one q2 cluster sharing PostgreSQL (events,
# rooms) and Redis (channel layer, q2 broker, rate-limit cache). See README and .env.example.
DATABASE_URL = os.environ.get("DATABASE_URL")
REDIS_URL = os.environ.get("REDIS_URL")
if DEBUG and DATABASE_URL:
    raise ImproperlyConfigured(
        "DJANGO_DEBUG=1 with DATABASE_URL set: DEBUG's error pages would show the games' "
        "secrets and the database's password to anyone. Unset DJANGO_DEBUG to serve."
    )

if DATABASE_URL:
    import dj_database_url

    DATABASES["default"] = dj_database_url.parse(DATABASE_URL, conn_max_age=0)
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # psycopg's pool: an action borrows a ready connection instead of opening one. Its
        # values are bound by the server, and a statement run five times on a connection is
        # prepared there: PostgreSQL no longer parses and plans an action's statements each
        # time (its CPU an action 1.7 -> 0.9 ms, docs/performance.md).
        DATABASES["default"]["OPTIONS"] = {
            "pool": {"min_size": 1, "max_size": int(os.environ.get("CONSTELLATE_DB_POOL", "8"))},
            "server_side_binding": True,
            "prepare_threshold": 5,
        }
if db_name := os.environ.get("CONSTELLATE_DB_NAME"):  # test servers reach the test database
    DATABASES["default"]["NAME"] = db_name


def _private_sqlite_file(name: str) -> None:
    """Create the SQLite file 0600 before SQLite does (it would follow the umask, usually
    0644): the events hold every game's key. Its -wal and -shm files take its mode."""
    path = Path(name)
    if name == ":memory:" or name.startswith("file:") or not path.parent.is_dir():
        return
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        if path.stat().st_uid == os.getuid():
            path.chmod(0o600)  # one an older checkout left readable


if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    _private_sqlite_file(str(DATABASES["default"]["NAME"]))


def _redis_kwargs(url: str) -> dict:
    """redis-py connection arguments for django-q2, with no read timeout (redis-py 8 would
    otherwise time out idle blocking reads)."""
    from urllib.parse import urlparse

    parts = urlparse(url)
    return {
        "host": parts.hostname or "127.0.0.1",
        "port": parts.port or 6379,
        "db": int((parts.path or "/0").lstrip("/") or 0),
        "password": parts.password,
        "socket_timeout": None,
        "socket_keepalive": True,
    }


if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.redis_layer.BatchedRedisChannelLayer",
            "CONFIG": {
                # socket_timeout None: with redis-py 8 an idle websocket's read would
                # otherwise time out after ~5 s (DESIGN, platform facts).
                "hosts": [{"address": REDIS_URL, "socket_timeout": None, "socket_keepalive": True}],
                "capacity": 300,
                "expiry": 30,
                "prefix": os.environ.get("CONSTELLATE_REDIS_PREFIX", "constellate"),
            },
        }
    }
    Q_CLUSTER = {k: v for k, v in Q_CLUSTER.items() if k not in ("orm", "broker_class")} | {
        # The name is the broker's Redis key (django_q:<name>:q): clusters that share a
        # Redis must not take each other's tasks.
        "name": os.environ.get("CONSTELLATE_REDIS_PREFIX", "constellate"),
        "redis": _redis_kwargs(REDIS_URL),
        "poll": 0.1,
    }
    # Its processes may be on several machines: no doorbells (Redis blocks its readers
    # itself; the clock tick looks every 0.5 s).
    DOORBELLS = None
    CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.SharedRedisCache",  # one pool a process
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CONSTELLATE_REDIS_PREFIX", "constellate"),
        }
    }
