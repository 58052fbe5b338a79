"""This machine on its local network: whether an address is one only this machine can
reach (a loopback one), and which addresses phones on the same network can open when
``play --host 0.0.0.0`` serves them all."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket

WILDCARDS = frozenset({"0.0.0.0", "::", "[::]", ""})  # every interface of this machine
# TEST-NET-1 (RFC 5737): "connecting" a UDP socket only looks up the route, the way out of
# this machine's usual interface, and sends nothing (nor does anything listen there).
PROBE = ("192.0.2.1", 9)


def is_loopback(host: str) -> bool:
    """Only this machine can reach the address (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """The addresses other devices on this machine's network can open, the one its traffic
    leaves from first; none if it has only loopback ones.

    ``CONSTELLATE_LAN_ADDRESS`` (comma-separated) names them instead, taken as given: for a
    machine where the guess is wrong, and for tests (127.0.0.2 plays a second device)."""
    named = os.environ.get("CONSTELLATE_LAN_ADDRESS", "")
    if named.strip():
        return [address.strip() for address in named.split(",") if address.strip()]
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(PROBE)
        found.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        for *_, address in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(address[0]))
    return [a for a in dict.fromkeys(found) if _reachable(a)]


def _reachable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified)


def url_host(address: str) -> str:
    """The address as it stands in a URL or in ALLOWED_HOSTS (an IPv6 one in brackets)."""
    address = address.strip("[]")
    return f"[{address}]" if ":" in address else address
