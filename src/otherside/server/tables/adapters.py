"""What the server needs to know about each game beyond the core contract: its title, the table
options a host may choose (with their validation) and the browser module that draws it.

The table runtime only ever talks to a game through :class:`otherside.core.Game` and
:class:`otherside.core.State`; adding VERSUS or Recto Verso to the server means registering one
:class:`GameAdapter` here and adding ``web/js/games/<page>/board.js`` (the board contract is in
``web/js/games/README.md``). A game without its own page is drawn by the generic board (the view
as data and one button per legal action).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from otherside.bots import spec as bot_spec
from otherside.core.game import JSON, Game, State
from otherside.games import get_game
from otherside.i18n import N_
from otherside.server.tables.entropy import fresh_seed, random_seat
from otherside.server.tables.pace import Pace

OptionKind = Literal["bool", "first_player", "choice"]
RANDOM_SEAT = "random"


@dataclass(frozen=True)
class OptionSpec:
    """One table option, shown as a form field when a table is created.

    Attributes:
        name: the key passed to ``Game.new_state(options=…)``.
        label: words for the form.
        kind: ``bool`` (a checkbox), ``first_player`` (a seat number, or ``"random"`` which the
            server draws when the game starts) or ``choice`` (one of ``choices``).
        default: the value when the host says nothing.
        help: one sentence for the form.
        choices: the values of a ``choice``.
    """

    name: str
    label: str
    kind: OptionKind
    default: Any
    help: str = ""
    choices: tuple[str, ...] = ()

    def clean(self, value: Any, players: int) -> Any:
        """The validated value; ``ValueError`` saying what is wrong."""
        if self.kind == "choice":
            if value not in self.choices:
                raise ValueError(
                    f"option {self.name!r} must be one of {', '.join(self.choices)}, not {value!r}"
                )
            return value
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"option {self.name!r} must be true or false, not {value!r}")
            return value
        if value == RANDOM_SEAT:
            return value
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
            raise ValueError(
                f"option {self.name!r} must be 'random' or a seat from 0 to {players - 1}, "
                f"not {value!r}"
            )
        return value

    def to_json(self) -> dict[str, Any]:
        """The spec for the browser's form."""
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
            "choices": list(self.choices),
        }


BOT_ACCOUNTS = "bot_accounts"
# Options of the table rather than of the game: every game's form shows them, the server reads
# them, and the game never gets them (:meth:`GameAdapter.new_state`).
TABLE_OPTIONS = (
    OptionSpec(
        BOT_ACCOUNTS,
        N_("Bot accounts may join"),
        "bool",
        True,
        help=N_("Programs playing with an account of their own (shown as bots) may take a seat."),
    ),
)


def game_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """A table's options less its own (:data:`TABLE_OPTIONS`): what the game is made with."""
    own = {spec.name for spec in TABLE_OPTIONS}
    return {name: value for name, value in options.items() if name not in own}


@dataclass(frozen=True)
class GameAdapter:
    """The server's description of one game.

    Attributes:
        name: the game's name (``otherside.games.get_game(name)``, ``make_bot(name, …)``).
        title: the name shown to people.
        options: the table options a host may set.
        page: the folder ``web/js/games/<page>/`` whose ``board.js`` draws the table.
        styled: the page folder has a ``board.css`` too.
        board_resigns: the board shows its own Resign button (beside its other actions), so the
            table page shows none.
        load: returns the :class:`Game` (``get_game(name)`` by default; tests pass their own).
        timed: returns the game reading a clock (a callable giving seconds), for a game with a
            timer of its own (Recto Verso's rounds); the server gives it its injected clock.
        pace: the pace a new table gets when the host says nothing.
        rated_counts: the player counts at which a game between registered players is rated.
        together_counts: the player counts at which all the players play together, a team
            that wins or fails as one (Recto Verso's cooperative levels, R16), so that a result
            is never told as one player beating another.
        replacement: the bot that takes over a seat whose player forfeited (the first of these
            the registry has, else ``random``). Bots, their options and their checks are the
            registry's (:mod:`otherside.bots.spec`).
        ends_on_forfeit: a duel that ends when a player forfeits (resigns, runs out of time,
            leaves), rather than going on with a bot in their seat.
        bot_pace: the least seconds between a bot's actions when the server paces bots at all
            (a Recto Verso partner builds at a person's speed, not in a flash).
        ready_before: the actions that start a round (Recto Verso's ``reveal`` of the
            cooperative game, ``turn`` of the game for 3 to 6): a bot whose only actions these
            are waits, when the server paces bots and a person plays, for a person's ``ready``
            (:mod:`.ready`), at most ``ready_pause`` seconds.
        takebacks: a player of an unrated duel may ask to take back their last move
            (:mod:`.takebacks`): a game of open information, where going back reveals nothing.
        replayed: a finished game's step as anyone may see it (its replay), when that is more
            than the public view of a game under way (``view(state, None)``): Recto Verso's
            rounds show the card and both sides, which its published record holds anyway.
        analysed: what its analysis (:mod:`otherside.server.analysis`) gives: ``moves`` (the
            bots' judgement of each move) or ``cards`` (the solver's building of each card
            that was not completed).
    """

    name: str
    title: str
    options: tuple[OptionSpec, ...] = ()
    page: str = "generic"
    styled: bool = False
    board_resigns: bool = False
    analysed: str = "moves"
    load: Callable[[], Game] | None = field(default=None, compare=False)
    timed: Callable[[Callable[[], float]], Game] | None = field(default=None, compare=False)
    replayed: Callable[[Game, State], JSON] | None = field(default=None, compare=False)
    pace: Pace = field(default_factory=Pace)
    rated_counts: tuple[int, ...] = ()
    together_counts: tuple[int, ...] = ()
    replacement: tuple[str, ...] = ("greedy",)
    ends_on_forfeit: bool = False
    bot_pace: float = 0.0
    ready_before: tuple[str, ...] = ()
    ready_pause: float = 0.0
    takebacks: bool = False

    @property
    def game(self) -> Game:
        """The game object (imported on first use)."""
        return self.load() if self.load is not None else get_game(self.name)

    def game_with_clock(self, clock: Callable[[], float]) -> Game:
        """The game whose own timers read ``clock`` (the plain game when it has none)."""
        return self.timed(clock) if self.timed is not None else self.game

    def replay_view(self, game: Game, state: State) -> JSON:
        """``state`` as a finished game's replay shows it to anyone (see ``replayed``)."""
        return self.replayed(game, state) if self.replayed is not None else game.view(state, None)

    def replacement_bot(self) -> str:
        """The bot that plays on for a player who forfeited."""
        known = self.bots()
        return next((b for b in self.replacement if b in known), bot_spec.FALLBACK)

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The allowed player counts, from the game itself."""
        return tuple(self.game.player_counts)

    def bots(self) -> list[str]:
        """The bot names available for this game (see :func:`otherside.bots.spec.available`)."""
        return bot_spec.available(self.name)

    def check_bot(self, spec: str, think_cap: float | None = None) -> str:
        """A seat's bot, ``name`` or ``name:key=value``, in its normal form, its ``think`` no
        more than ``think_cap``; ``ValueError`` naming what is wrong."""
        return str(bot_spec.checked(self.name, spec, think_cap))

    def bot_choices(self, think_cap: float | None = None) -> list[dict[str, Any]]:
        """What the pages offer for a bot seat (see :func:`otherside.bots.spec.choices`)."""
        return bot_spec.choices(self.name, self.player_counts, think_cap)

    def bot_info(self) -> dict[str, dict[str, str]]:
        """Each bot's one-line description and measured strength, by name."""
        return {
            i.name: {"description": i.description, "strength": i.strength}
            for i in bot_spec.infos(self.name)
        }

    def clean_options(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        """Validated options with defaults filled in; ``ValueError`` naming the bad option."""
        raw = dict(raw or {})
        known = {spec.name: spec for spec in (*self.options, *TABLE_OPTIONS)}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise ValueError(f"unknown option {unknown[0]!r} for {self.name}; options: {names}")
        return {
            name: spec.clean(raw.get(name, spec.default), players) for name, spec in known.items()
        }

    def new_state(
        self, players: int, options: Mapping[str, Any], game: Game | None = None
    ) -> State:
        """A new game with ``options`` and a fresh seed; the seed and any ``random`` seat come
        from the OS's cryptographic source (:mod:`.entropy`), independently for every game."""
        resolved = {
            name: random_seat(players) if value == RANDOM_SEAT else value
            for name, value in game_options(options).items()
        }
        return (game or self.game).new_state(players, seed=fresh_seed(), options=resolved)

    def board_traits(self) -> dict[str, Any]:
        """What the pages do differently for this game (``web/js/games/README.md``): which board
        module and styles to load, who shows Resign, how a replay is paced (at the pace it
        was played for a game with a timer of its own), what its analysis offers and at which
        player counts its players play as one team."""
        return {
            "module": self.page,
            "styles": self.styled,
            "resign": "board" if self.board_resigns else "table",
            "replay": "timed" if self.timed is not None else "steps",
            "analysis": self.analysed,
            "together": list(self.together_counts),
        }

    def to_json(self, think_cap: float | None = None) -> dict[str, Any]:
        """What the lobby's form needs: names, counts, options and bots (those a ``think`` no
        more than ``think_cap`` allows)."""
        return {
            "name": self.name,
            "title": self.title,
            "players": list(self.player_counts),
            "options": [spec.to_json() for spec in (*self.options, *TABLE_OPTIONS)],
            "bots": self.bots(),
            "bot_choices": self.bot_choices(think_cap),
            "bot_info": self.bot_info(),
            "page": self.page,
            "board": self.board_traits(),
            "pace": self.pace.to_json(),
            "rated_counts": list(self.rated_counts),
        }


VERSO = GameAdapter(
    name="verso",
    title="Verso",
    page="verso",
    styled=True,
    options=(
        OptionSpec(
            "allow_duplicate_keep",
            N_("Allow drawing a duplicate"),
            "bool",
            False,
            N_(
                "Variant of V8: a plain draw stays legal when the top face duplicates one of "
                "your cards (the card is then discarded)."
            ),
        ),
        OptionSpec(
            "first_player",
            N_("First player"),
            "first_player",
            RANDOM_SEAT,
            N_("Who plays first (V6); random by default."),
        ),
    ),
    pace=Pace(kind="live", minutes=10, increment=5),
    rated_counts=(2, 3, 4, 5, 6),
    replacement=("greedy",),
)


def _rectoverso_replayed(game: Game, state: State) -> JSON:
    """A Recto Verso step once the game is over: each round's card and both sides (R17's
    view of a player not building), hidden from anyone without a seat while it was played."""
    from otherside.games.rectoverso import RectoVersoGame, RectoVersoState

    assert isinstance(game, RectoVersoGame) and isinstance(state, RectoVersoState)
    return game.view(state, None, whole=True)


def _rectoverso_with_clock(clock: Callable[[], float]) -> Game[Any]:
    """Recto Verso whose rounds run on ``clock`` (R14, R16: the server's time)."""
    from otherside.games.rectoverso import RectoVersoGame

    return RectoVersoGame(clock=clock)


VERSUS = GameAdapter(
    name="versus",
    title="VERSUS",
    page="versus",
    styled=True,
    board_resigns=True,
    # Born as an online game played over days: a reminder on day 4, the game lost on day 7.
    pace=Pace(kind="turn", days=7, remind_days=4),
    rated_counts=(2,),
    # The sheet: after 7 days the player to move loses; resigning loses at once.
    ends_on_forfeit=True,
    # The site lets the players of a friendly game take a misplaced move back.
    takebacks=True,
)

RECTOVERSO = GameAdapter(
    name="rectoverso",
    title="Recto Verso",
    page="rectoverso",
    analysed="cards",
    styled=True,
    timed=_rectoverso_with_clock,
    replayed=_rectoverso_replayed,
    options=(
        OptionSpec(
            "difficulty",
            N_("Cards"),
            "choice",
            "easy",
            N_("Easy cards use ten pieces; hard cards add the red L of four (R2)."),
            choices=(N_("easy"), N_("hard")),
        ),
        OptionSpec(
            "cards",
            N_("Card set"),
            "choice",
            "standard",
            N_("The 32 standard cards of the difficulty, or 32 new ones generated for this game."),
            choices=(N_("standard"), N_("generated")),
        ),
    ),
    pace=Pace(kind="rounds"),
    rated_counts=(3, 4, 5, 6),
    together_counts=(2,),  # R16: the two builders make one card together
    replacement=("partner",),
    # About a person's speed: the partner bot's figures were measured at one action per 2 s.
    bot_pace=1.5,
    # A person reading the last round's result says when the next card comes, or it comes
    # after 10 s: an absent person never stalls the table. A round starts with the card
    # revealed (2 players, R16) or with the active player's token turned (3 to 6, R13).
    ready_before=("reveal", "turn"),
    ready_pause=10.0,
)

_ADAPTERS: dict[str, GameAdapter] = {}


def register_adapter(adapter: GameAdapter) -> GameAdapter:
    """Make ``adapter`` available to the lobby (replacing one of the same name)."""
    _ADAPTERS[adapter.name] = adapter
    return adapter


def unregister_adapter(name: str) -> None:
    """Remove a game from the server (tests use it to clean up their toy games)."""
    _ADAPTERS.pop(name, None)


def get_adapter(name: str) -> GameAdapter:
    """The adapter of ``name``; ``ValueError`` listing the games the server offers."""
    adapter = _ADAPTERS.get(name)
    if adapter is None:
        raise ValueError(f"unknown game {name!r}; this server offers: {', '.join(_ADAPTERS)}")
    return adapter


def available_adapters() -> list[GameAdapter]:
    """The games whose engine can be imported, registry order."""
    found = []
    for adapter in _ADAPTERS.values():
        try:
            adapter.game  # noqa: B018 - importing the engine is the check
        except (ImportError, AttributeError):
            continue
        found.append(adapter)
    return found


for _adapter in (VERSO, VERSUS, RECTOVERSO):
    register_adapter(_adapter)
