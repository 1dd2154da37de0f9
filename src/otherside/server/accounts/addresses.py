"""Who a request counts as, for the limits: its client's address, keyed so that one subscriber
is one key.

An IPv4 address is one key. An IPv6 address counts by its /64 network: a subscriber is routinely
given a whole /64 and picks addresses in it at will (privacy extensions change them daily), so
the exact address would let one user be 2**64 users. An IPv4 address written in IPv6
(``::ffff:192.0.2.1``) counts as the IPv4 address.

The client's address is the TCP peer's unless that peer is a proxy the server was told to trust
(``otherside serve --trusted-proxy ADDR``): uvicorn then takes it from ``X-Forwarded-For`` (the
last address there that is not itself a trusted proxy) before the request reaches the app, and
from no other peer — anyone else could write any address in that header.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from starlette.requests import HTTPConnection

IPV6_PREFIX = 64


@lru_cache(maxsize=4096)  # every request and socket asks; an address's key never changes
def address_key(host: str) -> str:
    """The key of a client address for the limits.

    >>> address_key("192.0.2.7")
    '192.0.2.7'
    >>> address_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd")
    '2001:db8:1:2::/64'
    >>> address_key("2001:DB8:1:2::1") == address_key("2001:db8:1:2:ffff::9")
    True
    >>> address_key("::ffff:192.0.2.7")
    '192.0.2.7'
    >>> address_key("fe80::1%eth0")
    'fe80::/64'
    >>> address_key("testclient")  # not an address (an in-process test client): as it is
    'testclient'
    """
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


def client_key(connection: HTTPConnection) -> str:
    """The limits' key of the client of a request or websocket (see :func:`address_key`)."""
    return address_key(connection.client.host) if connection.client else "unknown"


def trusted_proxies(items: list[str]) -> list[str]:
    """Checked ``--trusted-proxy`` settings: addresses or networks (``10.0.0.0/8``).

    >>> trusted_proxies(["127.0.0.1", "10.0.0.0/8", "::1"])
    ['127.0.0.1', '10.0.0.0/8', '::1']
    >>> trusted_proxies(["nginx"])
    Traceback (most recent call last):
    ...
    ValueError: a trusted proxy is an IP address or network, not 'nginx'
    """
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError as exc:
            raise ValueError(f"a trusted proxy is an IP address or network, not {item!r}") from exc
    return list(items)
