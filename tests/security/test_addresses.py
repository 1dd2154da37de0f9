"""Who a request counts as: IPv6 by its /64, and ``X-Forwarded-For`` believed only from a proxy
the server was told to trust — never from any other peer, not even a local one."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from otherside.server.accounts.addresses import address_key, trusted_proxies
from tests.security.conftest import limit_args
from tests.server.processes import Server


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", True),
        ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
        ("2001:DB8:0001:0002::7", "2001:db8:1:2::8", True),
        ("::ffff:192.0.2.1", "192.0.2.1", True),
        ("192.0.2.1", "192.0.2.2", False),
    ],
)
def test_an_ipv6_slash_64_is_one_key_and_ipv4_addresses_are_their_own(
    one: str, other: str, same: bool
) -> None:
    assert (address_key(one) == address_key(other)) is same


def test_a_trusted_proxy_must_be_an_address_or_network() -> None:
    assert trusted_proxies(["10.0.0.0/8", "::1"]) == ["10.0.0.0/8", "::1"]
    with pytest.raises(ValueError, match=r"not 'proxy\.example'"):
        trusted_proxies(["proxy.example"])


def _guest(server: Server, forwarded: str) -> int:
    answer = httpx.post(
        f"{server.url}/api/guest", headers={"X-Forwarded-For": forwarded}, timeout=60
    )
    return answer.status_code


def test_an_untrusted_forwarded_for_is_ignored(serve: Callable[..., Server]) -> None:
    server = serve(*limit_args(guests_per_address=2))
    # A client on the same host writes any address it likes: all three count as 127.0.0.1.
    codes = [_guest(server, f"203.0.113.{n}") for n in range(1, 4)]
    assert codes == [200, 200, 429]


def test_a_trusted_proxy_names_the_client_and_a_slash_64_counts_once(
    serve: Callable[..., Server],
) -> None:
    server = serve("--trusted-proxy", "127.0.0.1", *limit_args(guests_per_address=2))
    assert _guest(server, "2001:db8:1:2::1") == 200
    assert _guest(server, "2001:db8:1:2:aaaa::2") == 200
    assert _guest(server, "2001:db8:1:2:bbbb:cccc:dddd:3") == 429  # the same /64
    assert _guest(server, "2001:db8:1:3::1") == 200  # the next /64 is someone else
    assert _guest(server, "198.51.100.7") == 200
    # An address the client wrote before the proxy's is not believed: the proxy's word is.
    assert _guest(server, "192.0.2.50, 198.51.100.7") == 200
    assert _guest(server, "192.0.2.51, 198.51.100.7") == 429
