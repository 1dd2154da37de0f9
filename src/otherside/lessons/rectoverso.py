"""The Recto Verso lessons: the two sides of a card (R7, R8, R10), support (R5), the top view
(R9) and saying done against the clock (R13, R14). Two players on card 27 of the easy set; the
learner builds recto (seat 0), a bot partner verso (seat 1), whose placements are part of each
step's position: the learner sees them only as a builder would, through the top view."""

from __future__ import annotations

from typing import Any

from otherside.core.simultaneous import apply_as
from otherside.games.rectoverso import GAME
from otherside.games.rectoverso.notation import Place
from otherside.games.rectoverso.solver import Solver
from otherside.i18n import N_
from otherside.lessons import Lesson, Step

LEARNER, PARTNER = 0, 1
SEED = 1  # two players, easy: the first card revealed is card 27

# Card 27's building, piece by piece from the ground up (one of its solutions).
BUILDING = (
    ("black 3,1,0", PARTNER),
    ("white 3,0,0", PARTNER),
    ("grey 1,1,0", PARTNER),
    ("brown 1,0,0", PARTNER),
    ("orange 0,0,0 0,1,0", LEARNER),
    ("yellow 2,0,0 2,1,0 2,2,0", PARTNER),
    ("blue 0,2,0 0,2,1 0,3,0", LEARNER),
    ("pink 2,0,1 2,1,1", LEARNER),
    ("violet 3,0,1 3,1,1", PARTNER),
    ("green 2,0,2 2,0,3", LEARNER),
)


def _record(placed: tuple[tuple[str, int], ...] = ()) -> dict[str, Any]:
    """The round of card 27 with ``placed`` built (each by its builder)."""
    state: Any = GAME.new_state(players=2, seed=SEED).apply("reveal")
    for placement, seat in placed:
        state = apply_as(state, seat, f"place {placement}")
    record: dict[str, Any] = state.to_record()
    return record


def _built(state: Any) -> list[Any]:
    return list(state.construction.placements)


def still_fits(before: Any, action: Any, after: Any) -> bool:
    """The construction can still become a building that shows the card from both sides."""
    return Solver(after.current_card).solve(fixed=_built(after)) is not None


def rests_on_a_piece(before: Any, action: Any, after: Any) -> bool:
    """A piece was placed above the ground (on another piece), and it still fits the card."""
    if not isinstance(action, Place):
        return False
    return min(z for _x, _y, z in action.placement.cells) > 0 and still_fits(before, action, after)


def green_stands_on_pink(before: Any, action: Any, after: Any) -> bool:
    """The green bar stands upright on the pink one, where the top view showed pink."""
    return str(action) == "place green 2,0,2 2,0,3"


def said_done(before: Any, action: Any, after: Any) -> bool:
    """The learner said their side is finished."""
    return str(action) == "done"


LESSON = Lesson(
    "rectoverso",
    N_("Learn Recto Verso"),
    (
        Step(
            "two-sides",
            "R10",
            N_("Two sides of one building"),
            N_(
                "You and your partner build one building together. You see only the front of "
                "the card (recto), your partner only the back (verso). The building must show "
                "your side from the front and theirs from the back."
            ),
            N_("Your side shows orange at the bottom left. Place a piece where it fits the card."),
            _record(),
            still_fits,
            N_(
                "That piece can't be part of this building: seen from the front and the back "
                "it would not match both sides of the card. Start with what your side shows."
            ),
            N_(
                "It fits. The orange bar goes from the front to the back: your partner sees "
                "its end too."
            ),
            "place orange 0,0,0 0,1,0",
        ),
        Step(
            "support",
            "R5",
            N_("Nothing floats"),
            N_(
                "A piece is placed on free cells of the 4 × 4 site, and no cube may stand "
                "above an empty cell: a piece goes on the ground or on other pieces, at every "
                "moment."
            ),
            N_(
                "Your partner has laid the yellow bar of three in the middle. Put a piece on "
                "top of it that fits the card."
            ),
            _record(BUILDING[:6]),
            rests_on_a_piece,
            N_(
                "That one is not on top of another piece, or it does not fit the card. Look at "
                "your side: what stands on the yellow bar?"
            ),
            N_("Supported and in its place: the pink bar rests on the yellow one."),
            "place pink 2,0,1 2,1,1",
            refused="place pink 2,0,2 2,1,2",
        ),
        Step(
            "top-view",
            "R9",
            N_("The top view"),
            N_(
                "You never see your partner's side of the building, but both of you see the top "
                "view: for each column, the colour and level of its highest cube."
            ),
            N_(
                "The top view shows the pink bar at level 1 in the front. Stand the green bar "
                "upright on its front end, as your side of the card shows it."
            ),
            _record(BUILDING[:9]),
            green_stands_on_pink,
            N_(
                "Not there: the top view says where the pink bar is (p1). The green bar stands "
                "on its front end, two cubes high."
            ),
            N_("Upright on the pink bar: the building is complete."),
            "place green 2,0,2 2,0,3",
        ),
        Step(
            "done",
            "R14",
            N_("Say done in time"),
            N_(
                "A round has a time limit (90 seconds at the first level). When your side is "
                "built, say done; the round ends when both partners have. The faster you "
                "finish a matching building, the more it scores."
            ),
            N_("Every piece is placed and the building matches the card. Say done."),
            _record(BUILDING),
            said_done,
            N_("Every second counts: the building is finished, so say done."),
            N_("Done. When your partner says done too, the card is scored."),
            "done",
        ),
    ),
    other=N_("Bot partner"),
)

__all__ = ["GAME", "LESSON"]
