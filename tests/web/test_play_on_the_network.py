"""Phones on the local network (issue 15): `make run HOST=0.0.0.0` (``play --host 0.0.0.0``)
serves a second device on the machine's address, and the room link and QR code shown on
the machine itself (opened at 127.0.0.1) carry that address.

The real command runs here. ``CONSTELLATE_LAN_ADDRESS=127.0.0.2`` tells it which address is
"the machine's": Linux routes all of 127/8 to loopback, so a client of 127.0.0.2 plays the
phone, a second device that reaches the server only on that address."""

from __future__ import annotations

import asyncio
import re

import httpx
import pytest
import segno
import websockets

from tests.support.play import Served, playing

PHONE = "127.0.0.2"
LAPTOP = "127.0.0.1"
WAIT = 20.0


@pytest.fixture(scope="module")
def server(django_db_setup, tmp_path_factory):
    """One `play --host 0.0.0.0` for the module (each test's rows are flushed after it)."""
    tmp_path = tmp_path_factory.mktemp("lan")
    env = {"CONSTELLATE_LAN_ADDRESS": PHONE}
    with playing(tmp_path, "--host", "0.0.0.0", env=env) as running:
        yield running


@pytest.fixture
def served(server, transactional_db):
    yield server
    assert server.popen.poll() is None, server.output()


def browser(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=WAIT)
    assert client.get("/").status_code == 200  # and its csrftoken cookie
    return client


def create_room(client: httpx.Client) -> str:
    token = client.cookies["csrftoken"]
    origin = str(client.base_url).rstrip("/")
    created = client.post("/rooms", headers={"X-CSRFToken": token, "Origin": origin})
    assert created.status_code == 302, created.text[:500]
    return created.headers["location"].rstrip("/").rsplit("/", 1)[-1]


def shown_link(page: str) -> str:
    found = re.search(r'<input id="room-link"[^>]*value="([^"]+)"', page)
    assert found, page[:500]
    return found.group(1)


def qr_of(link: str) -> str:
    """The QR code exactly as lobby/views.py draws it for ``link``."""
    return segno.make(link, error="m").svg_inline(scale=4, dark="#0d1326", light="#ffffff")


def test_it_serves_a_second_device_on_the_machines_address_and_says_where(served: Served):
    phone = browser(served.url(PHONE))
    assert phone.get("/").status_code == 200
    output = served.output()
    assert f"Phones on this network: http://{PHONE}:{served.port}/" in output
    assert f"Constellate is up at http://{LAPTOP}:{served.port}/" in output
    other = httpx.get(f"{served.url()}/", headers={"Host": "evil.example"}, timeout=WAIT)
    assert other.status_code == 400  # only the machine's own names and addresses


def test_the_room_link_and_qr_code_seen_on_the_machine_carry_its_network_address(
    served: Served,
):
    laptop = browser(served.url(LAPTOP))
    code = create_room(laptop)
    page = laptop.get(f"/r/{code}/").text
    link = f"http://{PHONE}:{served.port}/r/{code}/"
    assert shown_link(page) == link
    assert qr_of(link) in page
    assert qr_of(f"{served.url(LAPTOP)}/r/{code}/") not in page
    phone = browser(served.url(PHONE))
    opened = phone.get(link.removeprefix(served.url(PHONE)))
    assert opened.status_code == 200
    assert shown_link(opened.text) == link and qr_of(link) in opened.text


def test_a_page_opened_on_the_network_address_gets_its_live_updates(served: Served):
    code = create_room(browser(served.url(LAPTOP)))
    phone = browser(served.url(PHONE))
    assert phone.get(f"/r/{code}/").status_code == 200
    cookie = f"sessionid={phone.cookies['sessionid']}"
    socket = f"ws://{PHONE}:{served.port}/ws/r/{code}/"

    async def first_frame(origin: str) -> str:
        async with websockets.connect(
            socket, additional_headers={"Cookie": cookie, "Origin": origin}, open_timeout=WAIT
        ) as opened:
            return str(await asyncio.wait_for(opened.recv(), WAIT))

    assert "lobby" in asyncio.run(first_frame(served.url(PHONE)))
    with pytest.raises(websockets.InvalidStatus):  # another site's page: refused
        asyncio.run(first_frame("http://evil.example"))
