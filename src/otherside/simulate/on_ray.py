"""The simulator on a Ray cluster: the same games as a local run, played by Ray tasks.

Ray is an optional extra (``pip install 'otherside[ray]'``), imported only here and only when a
run asks for it. Each task plays a chunk of game indices with
:func:`otherside.simulate.runner.play_one`, so the results do not depend on the chunking, on the
order in which the tasks finish or on the number of nodes.

The driver ships its own ``otherside`` package to the workers (Ray's ``py_modules``): a cluster
whose nodes have another version installed, or none at all, still plays the driver's rules and
bots, which is what makes a Ray run give the same games as a local run of the same code. The
nodes need only the same Python and Ray versions as the driver (the package itself imports
nothing but the standard library in the workers).
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import otherside

if TYPE_CHECKING:
    from otherside.simulate.runner import GameResult, SimSpec

LOCAL = "local"
"""The address that starts a private single-machine Ray instance for the run (``ray.init``)."""

CONNECT_TIMEOUT_S = 5.0
"""How long to wait for a TCP answer from the cluster before calling it unreachable (Ray itself
would retry for minutes)."""

SHIP_EXCLUDES = ["__pycache__", "*.pyc"]
"""Left out of the package shipped to the workers (bytecode: rebuilt there, and it would change
the upload's hash on every run)."""


def _import_ray() -> Any:
    try:
        import ray  # the optional extra
    except ImportError as exc:
        message = "--ray needs Ray, an optional extra: pip install 'otherside[ray]'"
        raise ValueError(message) from exc
    return ray


def _dialled_address(address: str) -> str | None:
    """The ``host:port`` that ``ray.init(address)`` will connect to, or None if it starts Ray."""
    if address == LOCAL:
        return None
    if "://" in address:  # Ray Client, ray://host:port
        return address.split("://", 1)[1].rstrip("/")
    # "auto" and RAY_ADDRESS are resolved the way ray.init resolves them (the address written by
    # the latest `ray start` on this machine); a concrete address comes back canonical.
    from ray._private.services import canonicalize_bootstrap_address

    try:
        resolved: str | None = canonicalize_bootstrap_address(address)
    except ConnectionError as exc:  # "auto", and no cluster recorded or running here
        raise ValueError(
            f"--ray {address!r}: no Ray cluster is running on this machine; start one with "
            f"`ray start --head`, give its address, or use --ray local"
        ) from exc
    except ValueError as exc:
        raise ValueError(
            f"--ray {address!r}: not a Ray address; give HOST:PORT (the address printed by "
            f"`ray start --head`), 'auto' (the cluster started on this machine), "
            f"ray://HOST:PORT or 'local'"
        ) from exc
    return resolved


def _check_reachable(address: str, dialled: str) -> None:
    host, _, port = dialled.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S):
            pass
    except (OSError, ValueError) as exc:
        raise ValueError(
            f"--ray {address!r}: cannot reach a Ray cluster at {dialled} ({exc}); start one with "
            f"`ray start --head` and pass the address it prints, or use --ray local"
        ) from exc


def _connect(ray: Any, address: str, workers: int) -> None:
    dialled = _dialled_address(address)
    if dialled is not None:
        _check_reachable(address, dialled)
    runtime_env = {"py_modules": list(otherside.__path__), "excludes": SHIP_EXCLUDES}
    try:
        if address == LOCAL:
            ray.init(
                address=LOCAL,
                num_cpus=workers,
                include_dashboard=False,
                runtime_env=runtime_env,
            )
        else:
            ray.init(address=address, runtime_env=runtime_env)
    except ConnectionError as exc:
        # Something answers there but Ray would not connect (after ~20 s of retries; Ray logs
        # why). Seen here: recent Ray (2.60) turns token authentication on for a `ray start`
        # where ~/.ray/auth_token exists, and a driver given an explicit address sends the
        # token only with RAY_AUTH_MODE=token ('auto' finds it by itself).
        ray.shutdown()
        raise ValueError(
            f"--ray {address!r}: {exc}; check that it is a Ray cluster of Ray {ray.__version__} "
            f"and, if it uses token authentication, set RAY_AUTH_MODE=token"
        ) from exc
    except (RuntimeError, ValueError) as exc:  # e.g. version mismatch, ray:// without ray[client]
        ray.shutdown()
        raise ValueError(f"--ray {address!r}: {exc}") from exc


def simulate_on_ray(
    spec: SimSpec,
    games: int,
    address: str,
    workers: int,
    collect: Callable[[list[GameResult]], None],
) -> None:
    """Play games ``0 … games-1`` of ``spec`` as Ray tasks, handing each chunk to ``collect``.

    Args:
        spec: the run (picklable; the tasks rebuild bots and observers from it).
        games: how many games.
        address: ``HOST:PORT`` or ``auto`` (a cluster started with ``ray start``),
            ``ray://HOST:PORT`` (Ray Client, needs ``ray[client]``), or ``local`` (a private Ray
            instance with ``workers`` CPUs, stopped at the end). A program that has already
            called ``ray.init`` keeps its own connection, left open, and ``address`` is not
            used: the code its workers run is then its own business (its ``runtime_env``).
        workers: CPUs of a ``local`` instance.
        collect: called in this process with each finished chunk, in completion order.

    Raises:
        ValueError: Ray missing, a malformed address, or no cluster answering there; raised
            before any game is played.
    """
    from otherside.simulate.runner import chunks, play_chunk

    ray = _import_ray()
    owned = not ray.is_initialized()
    if owned:
        _connect(ray, address, workers)
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(play_chunk)
        pending = [remote.remote(spec, chunk) for chunk in chunks(games, cpus)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                collect(ray.get(ref))
    finally:
        if owned:  # a local instance stops; a cluster connection closes and its tasks end
            ray.shutdown()
