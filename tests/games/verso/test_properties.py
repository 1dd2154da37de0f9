"""Hypothesis properties over random games: no card created or lost, no duplicate in a tableau,
scores never decrease, views never show a face that was not turned up."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from otherside.games import verso
from otherside.games.verso.cards import UP


def _public_pairs(state: verso.VersoState) -> set[frozenset[str]]:
    pairs: set[frozenset[str]] = set()
    for event in state.events:
        if event["type"] == "draw" and event["flipped"]:
            pairs.add(frozenset((event["from"], event["face"])))
        elif event["type"] == "turn":
            pairs.add(frozenset((event["from"], event["to"])))
        elif event["type"] == "opponent":
            pairs.add(frozenset(event["card"].values()))
    return pairs


@settings(max_examples=60, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 10**6), choices=st.data())
def test_invariants_hold_through_whole_games(
    players: int, seed: int, choices: st.DataObject
) -> None:
    state = verso.new_game(players, seed=seed)
    pile = state.table.pile
    public: set[frozenset[str]] = set()
    while not state.is_over:
        legal = state.legal_actions()
        action = legal[choices.draw(st.integers(0, len(legal) - 1))]
        before = state.scores
        state = state.apply(action)
        public |= _public_pairs(state)
        assert all(a <= b for a, b in zip(before, state.scores, strict=True)), "scores decrease"
        held = [oc >> 1 for p in range(players) for oc in state.tableau(p)]
        gone = [oc >> 1 for oc in state.discard_pile()]
        left = [oc >> 1 for oc in pile[state.pos :]]
        assert sorted(held + gone + left) == sorted(oc >> 1 for oc in pile), "card created or lost"
        view = verso.view(state, 0)
        for p, tableau in enumerate(view["tableaux"]):
            faces = [(c["up"][0].lower(), c["up"][1]) for c in tableau["cards"]]
            assert len(faces) == len(set(faces)), f"duplicate in tableau {p} (V8)"
            for card in tableau["cards"]:
                if card["down"] is not None:
                    assert frozenset((card["up"], card["down"])) in public, "hidden face shown"
        for card in view["discards"]:
            if card["down"] is not None:
                assert frozenset((card["up"], card["down"])) in public, "hidden face shown"
        assert [c["up"] for t in view["tableaux"] for c in t["cards"]] == [
            verso.face_name(UP[oc]) for p in range(players) for oc in state.tableau(p)
        ]
