"""Settings for the Constellate server.

The embedded default needs nothing installed beside Python: SQLite in WAL mode under
``var/``. Environment variables (see README) switch to the scale-out configuration.
"""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CONSTELLATE_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)
CONSTELLATE_TEST_STEP_SECONDS = int(os.environ.get("CONSTELLATE_TEST_STEP_SECONDS") or 0) or None


def _secret_key() -> str:
    """A stable secret per checkout: from the environment, else generated once into var/."""
    if key := os.environ.get("DJANGO_SECRET_KEY"):
        return key
    path = VAR_DIR / "secret_key"
    if not path.exists():
        import secrets

        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = os.environ.get("DJANGO_DEBUG", "1") == "1"
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
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
    "games",
    "games.constellate",
    "games.underonesky",
    "lobby",
    "moderation",
]

MIDDLEWARE = [
    "config.clients.RealClientMiddleware",  # first: REMOTE_ADDR is the real client
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "games.middleware.BusyDatabaseMiddleware",
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
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
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
    }
}

# The embedded default's channel layer must reach daphne's websockets from the q2 worker's
# process: channels-lite's SQLite layer (rows in the default database, polled). Its
# AIOSQLiteChannelLayer kept daphne from exiting on SIGTERM: not that one.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "config.channel_layers.BatchedSQLiteChannelLayer",
        "CONFIG": {
            "database": "default",
            # Each process holding websockets polls once per interval. 0.05 s: push p95
            # ~70 ms to 8 sockets, ~3 % of a core per such process (bench/clock_precision.py).
            "polling_interval": float(os.environ.get("CONSTELLATE_CHANNELS_POLL", "0.05")),
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
    "poll": 0.1,  # how often the idle pusher looks for queued tasks, in seconds
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

def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name) or default)


# Rate limits (lobby/ratelimit.py): (requests, seconds) per window, counted in the cache
# (Redis at scale: every process counts together). The "_ip" ones count per client address
# (the real one behind TRUSTED_PROXIES), so a fresh cookie resets nothing; the others per
# browser. Actions are generous for a quick Spotter; a household on one network shares the
# address limits, so those are generous too.
RATE_LIMITS = {
    "action": (_env_int("CONSTELLATE_RATE_ACTIONS", 40), 10),
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
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions read through the cache (the local one, or Redis at scale) and write through to
# the database: one query less on every action.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
CSRF_COOKIE_SAMESITE = "Lax"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

# WhiteNoise serves the static files from the apps' folders (no collectstatic step needed
# for `make run`); `collectstatic` into STATIC_ROOT works too for a deployment.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

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

if DATABASE_URL:
    import dj_database_url

    DATABASES["default"] = dj_database_url.parse(DATABASE_URL, conn_max_age=0)
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # psycopg's pool: an action borrows a ready connection instead of opening one.
        DATABASES["default"]["OPTIONS"] = {
            "pool": {"min_size": 1, "max_size": int(os.environ.get("CONSTELLATE_DB_POOL", "8"))}
        }
if db_name := os.environ.get("CONSTELLATE_DB_NAME"):  # test servers reach the test database
    DATABASES["default"]["NAME"] = db_name


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
            "BACKEND": "channels_redis.core.RedisChannelLayer",
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
    Q_CLUSTER = {k: v for k, v in Q_CLUSTER.items() if k != "orm"} | {
        # The name is the broker's Redis key (django_q:<name>:q): clusters that share a
        # Redis must not take each other's tasks.
        "name": os.environ.get("CONSTELLATE_REDIS_PREFIX", "constellate"),
        "redis": _redis_kwargs(REDIS_URL),
        "poll": 0.1,
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CONSTELLATE_REDIS_PREFIX", "constellate"),
        }
    }
