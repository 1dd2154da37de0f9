"""The README's reinforcement-learning loop and the example script run as written."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra: pip install -e '.[rl]'")

ROOT = Path(__file__).resolve().parents[2]


def readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end]


def test_the_readme_evaluation_loop_runs(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", readme_section("Reinforcement learning"), re.S)
    assert len(blocks) == 1
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "['draw', 'flip']"
    returns = namespace["returns"]
    assert isinstance(returns, dict) and set(returns) == {"player_0", "player_1", "player_2"}
    assert sum(returns.values()) == pytest.approx(0)


def test_the_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["rl_random.py", "--episodes", "2", "--seed", "3"])
    runpy.run_path(str(ROOT / "examples" / "rl_random.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "Verso, 4 random players" in out and "random against greedy over 2 games" in out
