"""Solo Verso (V16–V18) as a Gymnasium environment: :func:`verso_solo_env`.

One step is one of your turns; the simulated opponent's card (V16) is part of the step. The
observation is :mod:`otherside.rl.verso`'s for one player (455 features), the action space its
198 actions. The legal actions come as Gymnasium's usual mask, ``info["action_mask"]`` (int8),
and from :meth:`VersoSoloEnv.action_masks` (what maskable learners such as sb3-contrib's ask
for). The reward is the points gained by the step (series, squares); an episode's return is the
final score, rated by V18 in ``info["rating"]`` at the end.

An action outside the mask ends the episode (``terminated``) with reward ``illegal_reward``
(default -1) and ``info["illegal_action"]`` naming it, as PettingZoo's classic games do, so that
unmasked samplers (and ``check_env``) do no harm.

Seeds: ``reset(seed=s)`` deals from ``s`` (through the environment's ``np_random``); ``reset()``
deals the next pile, the first one from the constructor's ``seed``.

Importing :mod:`otherside.rl` registers the environment as ``otherside/VersoSolo-v0`` for
``gymnasium.make``.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from otherside.games import verso
from otherside.rl import verso as codec
from otherside.rl.aec import describe_verso


class VersoSoloEnv(gymnasium.Env[np.ndarray, np.int64]):
    """Solo Verso; see the module docstring."""

    # An instance variable of gymnasium.Env, read on the class; ansi frames have no pace, but
    # Gymnasium's checker asks for one.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        seed: int | None = None,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.observation_space = spaces.Box(0.0, codec.observation_high(1), dtype=np.float32)
        self.action_space = spaces.Discrete(codec.ACTION_COUNT)
        self._first_seed = seed
        self._state: verso.VersoState | None = None
        self._ended = False

    @property
    def game_state(self) -> verso.VersoState | None:
        """The engine state (the pile included): for analysis, never for an agent."""
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new pile. ``options`` is accepted for the API and not used."""
        if seed is None and self._first_seed is not None:
            seed = self._first_seed
        self._first_seed = None
        super().reset(seed=seed)
        self._state = verso.new_game(1, seed=int(self.np_random.integers(2**63)))
        self._ended = False
        return codec.encode_state(self._state, 0), {"action_mask": self.action_masks()}

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self._require_state()
        if self._ended:
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        if not 0 <= index < codec.ACTION_COUNT:
            raise ValueError(f"a Verso action is 0 to {codec.ACTION_COUNT - 1}, not {index}")
        engine_action = codec.ACTIONS[index]
        info: dict[str, Any]
        if engine_action not in state.legal_actions():
            self._ended = True
            info = {"action_mask": np.zeros(codec.ACTION_COUNT, np.int8)}
            info["illegal_action"] = codec.ACTION_NAMES[index]
            return codec.encode_state(state, 0), self.illegal_reward, True, False, info
        after = state.apply(engine_action)
        self._state = after
        reward = float(after.scores[0] - state.scores[0])
        info = {"action_mask": self.action_masks()}
        if after.is_over:
            self._ended = True
            info["rating"] = verso.rating(after.scores[0])
        return codec.encode_state(after, 0), reward, after.is_over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as an int8 mask (all zero once the game is over)."""
        state = self._require_state()
        if state.is_over or self._ended:
            return np.zeros(codec.ACTION_COUNT, np.int8)
        return codec.action_mask(state.legal_actions())

    def render(self) -> str | None:
        """``render_mode="ansi"``: the table in words."""
        if self.render_mode is None or self._state is None:
            return None
        return describe_verso(verso.GAME.view(self._state, 0))

    # For bots and evaluation (otherside.rl.bots), as on the AEC environments.
    def view(self, agent: str | None = None) -> dict[str, Any]:
        """What the player may see (the engine's view, as the game gives it to every adapter)."""
        return verso.GAME.view(self._require_state(), 0)

    def legal_actions(self) -> list[Any]:
        """The engine's legal actions (those the mask allows)."""
        return list(self._require_state().legal_actions())

    def encode_action(self, action: Any) -> int:
        """The index of an engine action or of its notation."""
        return codec.encode_action(action)

    def decode_action(self, index: int) -> str:
        """The notation of an action index."""
        return codec.decode_action(index)

    def _require_state(self) -> verso.VersoState:
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state


def verso_solo_env(seed: int | None = None, **kwargs: Any) -> VersoSoloEnv:
    """Solo Verso as a Gymnasium environment (see :class:`VersoSoloEnv`).

    >>> env = verso_solo_env(seed=3)
    >>> observation, info = env.reset()
    >>> observation.shape, [env.decode_action(i) for i in info["action_mask"].nonzero()[0]]
    ((455,), ['draw', 'flip'])
    """
    return VersoSoloEnv(seed, **kwargs)


gymnasium.register(id="otherside/VersoSolo-v0", entry_point="otherside.rl.solo:VersoSoloEnv")
