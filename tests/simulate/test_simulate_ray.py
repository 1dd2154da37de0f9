"""The simulator on Ray (optional extra): the same games as a local run, clear address errors.

The Ray tests start a private single-machine instance (``--ray local``, 2 CPUs) and are skipped
only when Ray is not installed; the test of the message for a missing Ray always runs.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from otherside.cli.main import app
from otherside.simulate.runner import SimSpec, parse_seats, simulate


@pytest.fixture(autouse=True, scope="module")
def _private_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A Ray instance writes a token to ~/.ray and sets RAY_AUTH_MODE in this process; keep the
    token out of the real home (a later `ray start` there would require it) and the variable
    out of the other tests. One home per module: Ray caches the token for the process."""
    saved = {key: os.environ.get(key) for key in ("HOME", "RAY_AUTH_MODE")}
    os.environ["HOME"] = str(tmp_path_factory.mktemp("home"))
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def _run_json(*args: str) -> dict:
    base = ["verso", "simulate", "--seats", "greedy,random,greedy", "--games", "12", "--seed", "3"]
    result = CliRunner().invoke(app, [*base, *args, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    del summary["median_decision_ms"]  # timing: the one figure that depends on the machine
    return summary


def test_ray_run_gives_the_local_games() -> None:
    """Same seed, same games: --ray local matches --workers 1 and 2, game by game."""
    ray = pytest.importorskip("ray")
    on_ray = _run_json("--ray", "local", "--workers", "2")
    assert not ray.is_initialized()  # the private instance is shut down after the run
    assert on_ray == _run_json("--workers", "1") == _run_json("--workers", "2")
    assert on_ray["games"] == 12 and "squares_per_game" in on_ray  # the observer ran on Ray


def test_ray_run_keeps_game_order_and_every_figure() -> None:
    ray = pytest.importorskip("ray")
    spec = SimSpec("verso", tuple(parse_seats("greedy,random")), seed=7)
    seen: list[int] = []
    ray.init(address="local", num_cpus=2, include_dashboard=False)  # the caller's own Ray...
    try:
        remote = simulate(spec, 9, ray_address="auto", on_result=lambda r: seen.append(r.index))
        assert ray.is_initialized()  # ...is used as it is (not "auto") and left connected
    finally:
        ray.shutdown()
    local = simulate(spec, 9)
    assert sorted(seen) == list(range(9))
    assert [r.index for r in remote] == list(range(9))
    strip = [(r.seed, r.scores, r.wins, r.length) for r in remote]
    assert strip == [(r.seed, r.scores, r.wins, r.length) for r in local]


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("127.0.0.1:1", "cannot reach a Ray cluster at .*:1"),
        ("ray://127.0.0.1:1", "cannot reach a Ray cluster at 127.0.0.1:1"),
        ("not-an-address", "not a Ray address"),
    ],
)
def test_bad_ray_address_is_a_clear_error(address: str, message: str) -> None:
    ray = pytest.importorskip("ray")
    spec = SimSpec("verso", tuple(parse_seats("greedy,random")), seed=1)
    played: list[int] = []
    with pytest.raises(ValueError, match=message):
        simulate(spec, 4, ray_address=address, on_result=lambda r: played.append(r.index))
    assert played == [] and not ray.is_initialized()


def test_cli_reports_an_unreachable_cluster() -> None:
    pytest.importorskip("ray")
    args = ["verso", "simulate", "--seats", "greedy,random", "--games", "2", "--ray", "127.0.0.1:1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    output = " ".join(result.output.split())  # Rich wraps at the terminal width
    assert "cannot reach a Ray cluster" in output and "`ray start --head`" in output


def test_ray_missing_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    spec = SimSpec("verso", tuple(parse_seats("greedy,random")), seed=1)
    with pytest.raises(ValueError, match=r"pip install 'otherside\[ray\]'"):
        simulate(spec, 2, ray_address="local")
    args = ["verso", "simulate", "--seats", "greedy,random", "--games", "2", "--ray", "local"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    output = " ".join(result.output.split())
    assert "pip install 'otherside[ray]'" in output  # not eaten as Rich markup
