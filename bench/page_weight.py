"""What a room page weighs on the wire: its HTML and every stylesheet, script and picture
it loads, each fetched once without compression and once as a browser asks
(``Accept-Encoding: gzip, deflate, br``), counting the bytes of the bodies as sent.

It plays over HTTP against a running server: creates a room, and with ``--players 4``
has four browsers join, sit and start a Constellate game (the page with the sky's
pictures). Run the server first, e.g. ``make run`` (collected, compressed files) or
``.venv/bin/python -m daphne -p 8000 config.asgi:application`` (the apps' folders as
they are, as before the collection), then::

    .venv/bin/python bench/page_weight.py [--url http://127.0.0.1:8000] [--players 4]
"""

from __future__ import annotations

import argparse
import re
from html.parser import HTMLParser

import httpx

ACCEPT = "gzip, deflate, br"


class Assets(HTMLParser):
    """The files a browser fetches for the page: scripts, stylesheets, icons, images."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        url = None
        if tag == "script":
            url = named.get("src")
        elif tag == "link" and (named.get("rel") or "") in ("stylesheet", "icon"):
            url = named.get("href")
        elif tag in ("img", "image", "use"):
            url = named.get("src") or named.get("href") or named.get("xlink:href")
        if url and url.startswith("/") and url.split("#")[0] not in self.found:
            self.found.append(url.split("#")[0])


def wire(client: httpx.Client, url: str, encoding: str) -> tuple[int, str, str]:
    """The body's size as sent, its Content-Encoding and Cache-Control."""
    with client.stream("GET", url, headers={"Accept-Encoding": encoding}) as response:
        assert response.status_code == 200, (url, response.status_code)
        size = sum(len(chunk) for chunk in response.iter_raw())
        return (
            size,
            response.headers.get("content-encoding", "-"),
            response.headers.get("cache-control", "-"),
        )


def browser(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    client.get("/")  # the csrftoken cookie
    return client


def post(client: httpx.Client, path: str, hx: bool = True, **data: object) -> httpx.Response:
    """A form as htmx posts it (``hx``), or as a plain form."""
    token = client.cookies.get("csrftoken") or ""
    headers = {"X-CSRFToken": token, "Origin": str(client.base_url).rstrip("/")}
    if hx:
        headers["HX-Request"] = "true"
    return client.post(path, data={k: str(v) for k, v in data.items()}, headers=headers)


def room_page(base: str, players: int) -> tuple[httpx.Client, str]:
    host = browser(base)
    created = post(host, "/rooms", hx=False, kind="constellate")
    assert created.status_code == 302, created.text[:300]
    code = created.headers["location"].rstrip("/").rsplit("/", 1)[-1]
    room = f"/r/{code}/"
    people = [host] + [browser(base) for _ in range(players - 1)] if players else []
    for seat, person in enumerate(people, start=1):
        person.get(room)
        assert post(person, f"{room}join", name=f"P{seat}").status_code == 200
        assert post(person, f"{room}sit", seat=seat).status_code == 200
    if players:
        started = post(host, f"{room}start")
        assert started.status_code == 200, started.text[:300]
    return host, room


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--players", type=int, default=0, help="start a game with this many")
    args = parser.parse_args()
    client, room = room_page(args.url, args.players)
    html = client.get(room).text
    assets = Assets()
    assets.feed(html)
    extra = re.findall(r'"(/static/[^"]+\.svg)"', html)  # pictures named in attributes
    urls = [room, *assets.found, *(u for u in dict.fromkeys(extra) if u not in assets.found)]
    plain_total = sent_total = page = 0
    print(f"{'file':58} {'plain':>8} {'sent':>8}  encoding  cache-control")
    for url in urls:
        plain, _, _ = wire(client, url, "identity")
        sent, encoding, cache = wire(client, url, ACCEPT)
        plain_total += plain
        sent_total += sent
        if url == room:
            page = sent  # the HTML: sent as it is
        print(f"{url[-58:]:58} {plain:8} {sent:8}  {encoding:8}  {cache}")
    print(f"{len(urls)} files: {plain_total / 1024:.1f} KB plain, {sent_total / 1024:.1f} KB sent")
    print(
        f"  of which static files: {(plain_total - page) / 1024:.1f} KB plain, "
        f"{(sent_total - page) / 1024:.1f} KB sent; the HTML {page / 1024:.1f} KB "
        "(all a repeat visit fetches when the files are cached as immutable)"
    )


if __name__ == "__main__":
    main()
