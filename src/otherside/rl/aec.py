"""PettingZoo AEC environments over the engines: :func:`verso_env` and :func:`versus_env`.

Both follow PettingZoo's classic games: agents ``player_0`` … (seat order; ``player_0`` moves
first), a ``Discrete`` action space, and observations ``{"observation": array, "action_mask":
int8 array}`` whose mask is non-zero only for the agent to move (see :mod:`otherside.rl.verso`
and :mod:`otherside.rl.versus` for what each index means). The environment follows the engine's
turn order (Verso's final round skips players with no series, V14).

What PettingZoo's classic games get from three wrappers is built in, so that a step costs no
wrapper's lookups: an action outside the action space (or ``None`` for an agent to move) raises
``ValueError``, using the environment before ``reset()`` raises ``RuntimeError``, and an illegal
action, with ``illegal="lose"`` (the default), ends the game with reward -1 for its player and 0
for the others (``infos[agent]["illegal_action"]`` names it, a ``RuntimeWarning`` too), as
``TerminateIllegalWrapper(illegal_reward=-1)`` does; ``illegal="raise"`` raises the engine's
``IllegalAction`` instead, naming the legal moves, and leaves the game as it was.

**Rewards.** ``reward="outcome"`` (the default): 0 until the end, then each player's result
against every other player, +1 for a higher score (a win), -1 for a lower one, 0 for a tie,
averaged over the opponents: +1/-1/0 with two players (a resignation in VERSUS loses, an agreed
draw is 0); with more, the sole winner +1, the sole last -1, the others between; the rewards sum
to 0. ``reward="margin"``: at every step, each player's points gained minus the mean gained by
the others, so that an episode's return is the final margin over the others' mean score (also
zero-sum; in VERSUS a resignation or an agreed draw adds nothing).

**Seeds.** ``reset(seed=s)`` deals from ``s``; ``reset()`` deals the next game from the
environment's generator, first seeded by the constructor's ``seed``: the same seeds give the
same episodes. VERSUS has no chance: its seed changes nothing.
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from otherside.core.errors import IllegalAction
from otherside.games import verso, versus
from otherside.rl import verso as verso_codec
from otherside.rl import versus as versus_codec

REWARDS = ("outcome", "margin")
ILLEGAL = ("lose", "raise")
ILLEGAL_REWARD = -1.0


def outcome_rewards(scores: Sequence[float], winners: Sequence[int] | None = None) -> list[float]:
    """Each player's pairwise results, averaged over the others (+1 a win, -1 a loss).

    ``winners`` overrides the scores for two players (a resignation, an agreed draw).

    >>> outcome_rewards([10, 30, 20])
    [-1.0, 1.0, 0.0]
    >>> outcome_rewards([5, 5])
    [0.0, 0.0]
    >>> outcome_rewards([3, 0], winners=(1,))
    [-1.0, 1.0]
    """
    n = len(scores)
    if winners is not None and n == 2:
        if len(winners) != 1:
            return [0.0, 0.0]
        return [1.0 if seat in winners else -1.0 for seat in range(2)]
    return [sum((s > t) - (s < t) for t in scores) / (n - 1) for s in scores]


def margin_rewards(before: Sequence[float], after: Sequence[float]) -> list[float]:
    """Each player's gain minus the mean gain of the others.

    >>> margin_rewards([0, 0, 0], [6, 0, 3])
    [4.5, -4.5, 0.0]
    """
    gains = [a - b for a, b in zip(after, before, strict=True)]
    total, others = sum(gains), len(gains) - 1
    return [g - (total - g) / others for g in gains]


Observation = dict[str, np.ndarray]


class EngineEnv(AECEnv[str, Observation, int | None], ABC):
    """An AEC environment over one game engine; subclasses give the codec and the deal.

    Beyond the AEC API, for bots and evaluation (:mod:`otherside.rl.bots`): :meth:`view` (what
    a seat may see, the engine's view), :meth:`legal_actions` (the engine's actions the mask
    allows), :meth:`encode_action` / :meth:`decode_action`, and :attr:`game_state` (the whole
    engine state, hidden information included: for analysis, never for an agent).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "otherside",
        "is_parallelizable": False,
    }
    game: Any
    action_count: int

    def __init__(
        self,
        players: int,
        observation_space: spaces.Box,
        reward: str = "outcome",
        seed: int | None = None,
        render_mode: str | None = None,
        illegal: str = "lose",
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.illegal = illegal
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.reward = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self.seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        mask = spaces.Box(0, 1, (self.action_count,), np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation_space, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.action_count) for agent in self.possible_agents
        }
        self._seed = seed
        self._rng: np.random.Generator | None = None
        self._state: Any = None
        self._ended = False

    # ----------------------------------------------------------------- game specific
    @abstractmethod
    def _deal(self, rng: np.random.Generator) -> Any:
        """A new game, its chance drawn from ``rng``."""

    @abstractmethod
    def _encode(self, state: Any, seat: int) -> np.ndarray:
        """The observation array of ``seat``."""

    @abstractmethod
    def _legal_indices(self, state: Any) -> list[int]:
        """The indices of the actions open to the player to move."""

    @abstractmethod
    def _engine_action(self, index: int) -> Any:
        """The engine's action of an index of the action space."""

    def _final_rewards(self, state: Any) -> list[float]:
        return outcome_rewards(state.scores)

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """The engine's actions open to the agent to move (those the mask allows)."""

    @abstractmethod
    def encode_action(self, action: Any) -> int:
        """The index of an engine action or of its notation."""

    @abstractmethod
    def decode_action(self, index: int) -> str:
        """The notation of an action index."""

    @abstractmethod
    def _describe(self, view: dict[str, Any]) -> str:
        """A spectator's view in words."""

    # ----------------------------------------------------------------- the AEC API
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> Any:
        """The engine state (hidden information included)."""
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. ``options`` is accepted for the API and not used."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        elif self._rng is None:
            self._rng = np.random.default_rng(self._seed)
        self._state = self._deal(self._rng)
        self._ended = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._require_state()
        mask = np.zeros(self.action_count, np.int8)
        if agent == self.agent_selection and not self._ended:
            mask[self._legal_indices(state)] = 1
        return {"observation": self._encode(state, self.seats[agent]), "action_mask": mask}

    def step(self, action: int | None) -> None:
        state = self._require_state()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if (
            not isinstance(action, int | np.integer)
            or isinstance(action, bool)
            or not 0 <= action < self.action_count
        ):
            raise ValueError(
                f"{agent} is to move: an action is an integer 0 to {self.action_count - 1},"
                f" not {action!r}"
            )
        try:
            after = state.apply(self._engine_action(int(action)))
        except IllegalAction:
            if self.illegal == "raise":
                raise
            self._lose(agent, int(action))
            return
        self._state = after
        self._cumulative_rewards[agent] = 0.0
        over = after.is_over
        if self.reward == "margin":
            gains = margin_rewards(state.scores, after.scores)
        elif over:
            gains = self._final_rewards(after)
        else:
            gains = None
        for seat, name in enumerate(self.possible_agents):
            self.rewards[name] = gains[seat] if gains else 0.0
        if over:
            self._ended = True
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[(self.seats[agent] + 1) % len(self.agents)]
        else:
            self.agent_selection = self.possible_agents[after.current_player]
        self._accumulate_rewards()

    def _lose(self, agent: str, index: int) -> None:
        """``illegal="lose"``: the game ends there, -1 for ``agent``, 0 for the others."""
        text = self.decode_action(index)
        warnings.warn(
            f"{agent} played {text!r}, which is not legal: the game ends and {agent} loses",
            RuntimeWarning,
            stacklevel=3,
        )
        self._ended = True
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = ILLEGAL_REWARD
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {"illegal_action": text}
        self._accumulate_rewards()

    def _require_state(self) -> Any:
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def render(self) -> str | None:
        """``render_mode="ansi"``: the table in words, as a spectator sees it (the notation)."""
        if self.render_mode is None:
            return None
        return self._describe(self.game.view(self._require_state(), None))

    def close(self) -> None:
        """Nothing to release."""

    def view(self, agent: str | None = None) -> dict[str, Any]:
        """What ``agent`` may see (the engine's view; ``None``: the agent to move)."""
        state = self._require_state()
        return self.game.view(state, self.seats[agent or self.agent_selection])


class VersoEnv(EngineEnv):
    """Verso for 2–6 players (see :mod:`otherside.rl.verso` for the encoding)."""

    metadata: ClassVar[dict[str, Any]] = {**EngineEnv.metadata, "name": "verso_v0"}
    game = verso.GAME
    action_count = verso_codec.ACTION_COUNT

    def __init__(
        self,
        players: int = 2,
        seed: int | None = None,
        reward: str = "outcome",
        render_mode: str | None = None,
        illegal: str = "lose",
        allow_duplicate_keep: bool = False,
    ) -> None:
        if not isinstance(players, int) or not 2 <= players <= 6:
            raise ValueError(
                f"verso_env takes 2 to 6 players, not {players!r} (solo: verso_solo_env())"
            )
        space = spaces.Box(0.0, verso_codec.observation_high(players), dtype=np.float32)
        self.allow_duplicate_keep = allow_duplicate_keep
        super().__init__(players, space, reward, seed, render_mode, illegal)

    def _deal(self, rng: np.random.Generator) -> verso.VersoState:
        return verso.new_game(
            len(self.possible_agents),
            seed=int(rng.integers(2**63)),
            allow_duplicate_keep=self.allow_duplicate_keep,
        )

    def _encode(self, state: verso.VersoState, seat: int) -> np.ndarray:
        return verso_codec.encode_state(state, seat)

    def _legal_indices(self, state: verso.VersoState) -> list[int]:
        index = verso_codec.ACTION_INDEX
        return [index[str(action)] for action in state.legal_actions()]

    def _engine_action(self, index: int) -> verso.VersoAction:
        return verso_codec.ACTIONS[index]

    def legal_actions(self) -> list[Any]:
        return list(self._state.legal_actions())

    def encode_action(self, action: Any) -> int:
        return verso_codec.encode_action(action)

    def decode_action(self, index: int) -> str:
        return verso_codec.decode_action(index)

    def _describe(self, view: dict[str, Any]) -> str:
        return describe_verso(view)


def describe_verso(view: dict[str, Any]) -> str:
    """A Verso view in a few lines of notation (``render_mode="ansi"``)."""
    lines = [
        f"pile {view['pile_size']}, top {view['top'] or '-'}, {view['phase']}, "
        f"to move: {view['current_player']}"
    ]
    for seat, tableau in enumerate(view["tableaux"]):
        cards = " ".join(
            card["up"] + (f"/{card['down']}" if card["down"] else "") for card in tableau["cards"]
        )
        square = " (square)" if tableau["square"] else ""
        lines.append(f"player_{seat} {tableau['score']} VP{square}: {cards}")
    return "\n".join(lines)


class VersusEnv(EngineEnv):
    """VERSUS, Blue ``player_0`` against Brown ``player_1`` (see :mod:`otherside.rl.versus`).

    ``platform=False`` (the default) exposes the board plies only; ``True`` adds ``offer-draw``,
    ``accept-draw``, ``decline-draw`` and ``resign`` (indices 2070–2073), with the engine's
    rules for offers (an offer is answered by the opponent, who then moves for that turn).
    """

    metadata: ClassVar[dict[str, Any]] = {**EngineEnv.metadata, "name": "versus_v0"}
    game = versus.GAME

    def __init__(
        self,
        platform: bool = False,
        options: versus.VersusOptions | dict[str, Any] | None = None,
        reward: str = "outcome",
        seed: int | None = None,
        render_mode: str | None = None,
        illegal: str = "lose",
    ) -> None:
        if not isinstance(options, versus.VersusOptions):
            options = versus.VersusOptions.from_json(options)
        self.options = options
        self.platform = platform
        self.action_count = versus_codec.ACTION_COUNT if platform else versus_codec.PLY_COUNT
        self.encoder = versus_codec.VersusEncoder(options, platform)
        space = spaces.Box(0.0, 1.0, self.encoder.shape, np.float32)
        super().__init__(2, space, reward, seed, render_mode, illegal)

    def _deal(self, rng: np.random.Generator) -> versus.VersusState:
        return versus.new_game(self.options)

    def _encode(self, state: versus.VersusState, seat: int) -> np.ndarray:
        return self.encoder.encode_state(state, seat)

    def _legal_indices(self, state: versus.VersusState) -> list[int]:
        if self.platform:
            return versus_codec.action_indices(state.legal_actions())
        index = versus_codec.PLY_INDEX
        return [index[code] for code in state.position.moves()]

    def _engine_action(self, index: int) -> versus.Ply | versus.PlatformAction:
        return versus_codec.ACTIONS[index]

    def _final_rewards(self, state: versus.VersusState) -> list[float]:
        outcome = state.outcome
        return outcome_rewards(state.scores, outcome.winners if outcome else None)

    def legal_actions(self) -> list[Any]:
        state = self._state
        return list(state.legal_actions() if self.platform else state.legal_plies())

    def encode_action(self, action: Any) -> int:
        index = versus_codec.encode_action(action)
        if index >= self.action_count:
            raise ValueError(f"{action} is a platform action: versus_env(platform=True)")
        return index

    def decode_action(self, index: int) -> str:
        if not 0 <= index < self.action_count:
            raise IndexError(f"a VERSUS action is 0 to {self.action_count - 1}, not {index}")
        return versus_codec.decode_action(index)

    def _describe(self, view: dict[str, Any]) -> str:
        return describe_versus(view)


def describe_versus(view: dict[str, Any]) -> str:
    """A VERSUS view in a few lines of notation (``render_mode="ansi"``)."""
    stones = " ".join(
        f"{'●○'[s['owner']]}{s['b']}·{5 - s['b']}@{s['cell']}{'◇' if s['locked'] else ''}"
        for s in view["stones"]
    )
    return "\n".join(
        [
            f"ply {view['ply']}, last {view['last'] or '-'}, to move: {view['to_move']}, "
            f"scores {view['scores'][0]}-{view['scores'][1]}",
            f"VERSUS Blue {view['versus'][0]}, Brown {view['versus'][1]}",
            f"stones {stones}",
        ]
    )


def verso_env(
    players: int = 2, seed: int | None = None, **kwargs: Any
) -> AECEnv[str, Observation, int | None]:
    """Verso for 2–6 players as a PettingZoo AEC environment (see :class:`VersoEnv`).

    >>> env = verso_env(players=3, seed=7)
    >>> env.reset()
    >>> env.agent_selection, env.observation_space("player_0")["observation"].shape
    ('player_0', (1009,))
    """
    return VersoEnv(players, seed, **kwargs)


def versus_env(platform: bool = False, **kwargs: Any) -> AECEnv[str, Observation, int | None]:
    """VERSUS as a PettingZoo AEC environment (see :class:`VersusEnv`).

    >>> env = versus_env()
    >>> env.reset()
    >>> int(env.action_space("player_0").n), env.observation_space("player_0")["observation"].shape
    (2070, (11, 11, 19))
    """
    return VersusEnv(platform, **kwargs)
