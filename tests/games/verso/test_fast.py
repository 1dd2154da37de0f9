"""The fast model (:mod:`otherside.games.verso.fast`) against the engine: on random positions of
1-6 players, every legal action gives the same tableaux, scores, square flags and cards seen
(V7, V8, V10-V12, V14, V16), and the solo final series (V17) the engine's best."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from otherside.games import verso
from otherside.games.verso.actions import SERIES_BY_MASK, Flip, Pass, Series, VersoAction
from otherside.games.verso.cards import UP
from otherside.games.verso.fast import (
    DRAW_MOVE,
    FLIP_MOVE,
    KEY_VP,
    SERIES_BEST,
    SERIES_OPTIONS,
    World,
    final_points,
    hidden_candidates,
    series_move,
)
from otherside.games.verso.state import FINAL, PLAY, VersoState


def _random_position(players: int, seed: int, data: st.DataObject) -> VersoState:
    state = verso.new_game(players, seed=seed)
    steps = data.draw(st.integers(0, len(state.table.pile) + players), label="actions")
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[data.draw(st.integers(0, len(legal) - 1))])
    return state


def _move(world: World, player: int, action: VersoAction) -> tuple[int, int, int, int]:
    if isinstance(action, Series):
        return series_move(world.colour_keys(player), action)
    return FLIP_MOVE if isinstance(action, Flip) else DRAW_MOVE


def _assert_same(world: World, state: VersoState) -> None:
    assert world.pos == state.pos
    assert world.tab == [oc for slots in state.tableaux for oc in slots]
    assert [k & 127 for k in world.keys] == list(state.masks)
    for p in range(state.players):  # the 3-VP bits of each key are the faces the tableau shows
        slots = state.tableaux[p]
        big = [
            sum(1 << v for v in range(7) if slots[c * 7 + v] >= 0 and UP[slots[c * 7 + v]] >= 21)
            for c in range(3)
        ]
        assert [k >> 7 for k in world.colour_keys(p)] == big
        assert sum(KEY_VP[k] for k in world.colour_keys(p)) == sum(
            3 if UP[oc] >= 21 else 1 for oc in slots if oc >= 0
        )
    assert world.scores == list(state.scores)
    assert world.squares == state.squares
    assert world.known == state.shown


@settings(max_examples=120, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 10**6), data=st.data())
def test_every_action_of_a_random_position_matches_the_engine(
    players: int, seed: int, data: st.DataObject
) -> None:
    state = _random_position(players, seed, data)
    if state.is_over:
        return
    player = state.current_player
    assert player is not None
    assert World.from_state(state).tab == [oc for slots in state.tableaux for oc in slots]
    for action in state.legal_actions():
        after = state.apply(action)
        world = World.from_state(state)
        if not isinstance(action, Pass):
            world.act(player, _move(world, player, action), final=state.phase == FINAL)
        if players == 1 and state.phase == PLAY and world.pos < len(world.pile):
            world.opponent()  # V16, after every solo turn while the pile lasts
        _assert_same(world, after)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_solo_moves_and_the_final_series_match_the_engine(seed: int, data: st.DataObject) -> None:
    """The distinct moves are the legal actions up to series discarding the same two cards
    (V11.4); a solo game that empties the pile scores the engine's best final series (V17)."""
    state = verso.new_game(1, seed=seed)
    world = World.from_state(state)
    while state.phase == PLAY:
        legal = state.legal_actions()
        moves = world.moves()
        assert set(moves) == {_best_of_kind(world, a, legal) for a in legal}
        action = legal[data.draw(st.integers(0, len(legal) - 1))]
        over = world.step(_move(world, 0, action))
        state = state.apply(action)
        if state.phase != PLAY:
            finals = [state.apply(a).scores[0] for a in state.legal_actions()]
            assert over and world.scores[0] == max(finals, default=state.scores[0])
            return
        assert not over
        _assert_same(world, state)


def _best_of_kind(world: World, action: VersoAction, legal: list[VersoAction]) -> tuple[int, ...]:
    move = _move(world, 0, action)
    if move[0] != 2:
        return move
    same = [_move(world, 0, a) for a in legal if isinstance(a, Series)]
    return max((m for m in same if m[1] == move[1] and m[3] == move[3]), key=lambda m: m[2])


def test_series_tables_are_the_engines_series() -> None:
    """V10: per colour key, the best series and one series per discarded pair, with its points."""
    for mask in range(128):
        for big in range(0, 128, 2):
            if big & ~mask:
                continue
            key = mask | big << 7
            engine = {}
            for s in SERIES_BY_MASK[0][mask]:
                points = sum(3 if big >> v & 1 else 1 for v in s.slots)
                disc = (1 << s.discard_slots[0]) | (1 << s.discard_slots[1])
                engine[disc] = max(engine.get(disc, 0), points)
            assert dict((d, p) for p, d in SERIES_OPTIONS[key]) == engine
            assert SERIES_BEST[key] == max(engine.values(), default=0)
            assert final_points((key, 0, 0)) == SERIES_BEST[key]


def test_hidden_candidates_are_the_unseen_cards_bearing_the_face() -> None:
    """V3: the faces behind B3 are the other faces of the B3 cards not seen whole."""
    b3 = verso.parse_face("B3")
    all_backs = {UP[oc] for oc in hidden_candidates(b3, 0)}
    assert all_backs and all(UP[oc ^ 1] == b3 for oc in hidden_candidates(b3, 0))
    first = hidden_candidates(b3, 0)[0]
    rest = hidden_candidates(b3, 1 << (first >> 1))
    assert first not in rest and len(rest) == len(hidden_candidates(b3, 0)) - 1
