"""The untwister of :mod:`.mt_untwister` recovers Python's own generator: the attack of
issue 31 is known to work, so a test in which it fails against the server proves something."""

from __future__ import annotations

import random
import secrets

import pytest

from tests.security.mt_untwister import (
    MASK32,
    NotATwister,
    NotEnoughOutputs,
    recover,
    recover_partial,
    seed_words,
    temper,
    untemper,
)

GAMES = 520  # 63-bit seeds: enough to pin every missing bit of the state


def seeds_of(rng: random.Random, count: int) -> list[tuple[int, int]]:
    """The outputs behind ``count`` draws of ``rng.getrandbits(63)``, as ``seed_words``."""
    return [word for _ in range(count) for word in seed_words(rng.getrandbits(63))]


def test_untempering_inverts_tempering() -> None:
    rng = random.Random(1)
    words = [0, 1, MASK32, 0x80000000, *(rng.getrandbits(32) for _ in range(2000))]
    assert [untemper(temper(word)) for word in words] == words
    assert len({temper(word) for word in words}) == len(words)


def test_624_outputs_of_python_random_predict_the_next_100_exactly() -> None:
    rng = random.Random(31)
    twister = recover([rng.getrandbits(32) for _ in range(624)])
    assert [twister.getrandbits(32) for _ in range(100)] == [
        rng.getrandbits(32) for _ in range(100)
    ]
    # Wider and narrower draws are filled from the outputs as CPython fills them.
    assert [twister.getrandbits(bits) for bits in (63, 64, 7, 100)] == [
        rng.getrandbits(bits) for bits in (63, 64, 7, 100)
    ]


def test_outputs_that_no_twister_makes_are_told_apart() -> None:
    rng = random.Random(7)
    outputs = [rng.getrandbits(32) for _ in range(700)]
    assert recover(outputs).getrandbits(32) == rng.getrandbits(32)  # the extra 76 agree
    outputs[650] ^= 1
    with pytest.raises(NotATwister):
        recover(outputs)
    with pytest.raises(NotEnoughOutputs):
        recover(outputs[:623])


def test_a_63_bit_draw_is_two_outputs_the_second_without_its_lowest_bit() -> None:
    drawn, replayed = random.Random(5), random.Random(5)
    for _ in range(50):
        words = seed_words(drawn.getrandbits(63))
        assert words == [(replayed.getrandbits(32), 32), (replayed.getrandbits(32) >> 1, 31)]


def test_enough_63_bit_seeds_predict_the_next_seeds_exactly() -> None:
    rng = random.Random(2026)
    twister = recover_partial(seeds_of(rng, GAMES))
    assert [twister.getrandbits(63) for _ in range(100)] == [
        rng.getrandbits(63) for _ in range(100)
    ]


def test_too_few_63_bit_seeds_leave_the_state_open() -> None:
    with pytest.raises(NotEnoughOutputs):
        recover_partial(seeds_of(random.Random(3), 500))
    with pytest.raises(NotEnoughOutputs):
        recover_partial(seeds_of(random.Random(3), 300))


def test_seeds_from_the_os_are_no_twisters_outputs() -> None:
    words = [word for _ in range(GAMES) for word in seed_words(secrets.randbits(63))]
    with pytest.raises(NotATwister):
        recover_partial(words)
