# Two commands do everything on a fresh machine (Python 3.11):
#   make run   serve on the embedded default (SQLite) at http://127.0.0.1:8000
#              (HOST=0.0.0.0: phones on this network too; README "Playing from phones")
#   make test  run the whole test suite
# Both create or refresh .venv/ and apply migrations; running them twice is fast.
# SCALE=1 switches either to PostgreSQL + Redis on this machine (see README).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)
HOST   ?= 127.0.0.1
PORT   ?= 8000

ifeq ($(SCALE),1)
export DATABASE_URL ?= postgres://postgres:postgres@127.0.0.1:5432/test
export REDIS_URL ?= redis://127.0.0.1:6379/0
endif

.PHONY: run test lint migrate venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	@$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

migrate: $(STAMP)
	@$(PY) manage.py migrate --noinput --verbosity 0

run: migrate
	$(PY) manage.py play --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
