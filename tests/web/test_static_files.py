"""Static files (issue 15): `make run` (``play``) collects them before it serves, so a
browser gets names with a hash of their content, cached for a year as immutable, gzipped
when it accepts that; a second start collects again only if a file changed. The rest of
the tests render pages without any collection (the apps' folders, as they are)."""

from __future__ import annotations

import gzip
import json
import re

import httpx
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import override_settings

from games.management.commands.play import collect_static
from tests.support.play import Served, playing

HASHED = re.compile(r'(?:src|href)="/static/([^"]+)\.([0-9a-f]{12})\.(css|js|svg)"')
YEAR = 365 * 24 * 60 * 60


@pytest.fixture(scope="module")
def server(django_db_setup, tmp_path_factory):
    with playing(tmp_path_factory.mktemp("static")) as running:
        yield running


@pytest.fixture
def served(server, transactional_db):
    yield server
    assert server.popen.poll() is None, server.output()


def test_it_serves_the_pages_files_hashed_gzipped_and_cached_for_a_year(served: Served):
    client = httpx.Client(base_url=served.url(), timeout=20)
    home = client.get("/").text
    files = HASHED.findall(home)
    names = {f"{name}.{kind}" for name, _, kind in files}
    assert {"site.css", "vendor/htmx/htmx-2.0.11.min.js", "favicon.svg"} <= names, home[:800]
    for name, digest, kind in files:
        url = f"/static/{name}.{digest}.{kind}"
        sent = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert sent.status_code == 200
        assert sent.headers["content-encoding"] == "gzip", url
        cache = sent.headers["cache-control"]
        assert "immutable" in cache and int(re.search(r"max-age=(\d+)", cache)[1]) >= YEAR
        source = finders.find(f"{name}.{kind}")
        assert source, name
        with open(source, "rb") as original:
            assert sent.content == original.read()  # httpx undid the gzip
        raw = client.get(url, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in raw.headers and raw.content == sent.content
        with client.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as wire:
            body = b"".join(wire.iter_raw())
        assert gzip.decompress(body) == raw.content
        if name.startswith("vendor/htmx/htmx-2"):
            assert len(body) < len(raw.content) / 2  # 52 KB of htmx: under 26 KB sent


def test_pages_rendered_without_a_collection_name_the_apps_files_as_they_are():
    assert settings.STATIC_COLLECTED is False  # the tests' own settings
    assert static("site.css") == "/static/site.css"


@pytest.mark.django_db
def test_a_second_start_collects_again_only_when_a_file_changed(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    rules = "".join(f".star-{n} {{ color: navy; }}\n" for n in range(50))  # worth a gzip
    (source / "extra.css").write_text(rules)
    root = tmp_path / "collected"
    with override_settings(STATIC_ROOT=root, STATICFILES_DIRS=[*settings.STATICFILES_DIRS, source]):
        assert collect_static() is True
        manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
        first = manifest["extra.css"]
        assert re.fullmatch(r"extra\.[0-9a-f]{12}\.css", first)
        assert (root / f"{first}.gz").exists()  # the copy WhiteNoise sends gzipped
        assert collect_static() is False  # nothing changed: started at once
        (source / "extra.css").write_text(rules.replace("navy", "teal"))
        assert collect_static() is True
        again = json.loads((root / "staticfiles.json").read_text())["paths"]["extra.css"]
        assert again != first
