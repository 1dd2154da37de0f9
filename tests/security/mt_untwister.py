"""Recovering a Mersenne Twister (MT19937, the generator behind Python's :mod:`random`) from
what it drew: the attack of issue 31, written down so that the tests can replay it.

The generator keeps 624 words of state and hands each one out *tempered* (an invertible, linear
scramble). Untempering 624 consecutive 32-bit outputs gives the whole state back, and from it
every later output (:func:`recover`).

A game's seed was ``getrandbits(63)``: CPython fills it from two outputs, the first whole (the
low 32 bits) and the second shifted right by one (the high 31 bits), so every second output
lacks its lowest bit. Those missing bits are unknowns of a linear system over GF(2): each word
the generator makes after the first 624 is a fixed XOR of three earlier ones (its twist), which
gives 32 equations per word. With enough seeds the system pins every missing bit of the last
624 words (:func:`recover_partial`); if it has no solution, the outputs did not come from one
Mersenne Twister at all (:class:`NotATwister`).

    twister = recover([rng.getrandbits(32) for _ in range(624)])
    twister.getrandbits(32)      # rng's next output
    twister = recover_partial([w for s in seeds for w in seed_words(s)])
    twister.getrandbits(63)      # the next seed
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

N = 624  # words of state
M = 397  # the twist's middle word: word k comes from words k - N, k - N + 1 and k - N + M
MATRIX_A = 0x9908B0DF
UPPER = 0x80000000
LOWER = 0x7FFFFFFF
MASK32 = 0xFFFFFFFF


class NotATwister(ValueError):
    """The outputs contradict each other: no Mersenne Twister state produces them all."""


class NotEnoughOutputs(ValueError):
    """The outputs leave part of the state undetermined: more are needed."""


def temper(word: int) -> int:
    """The output that a state word is handed out as."""
    word ^= word >> 11
    word ^= (word << 7) & 0x9D2C5680
    word ^= (word << 15) & 0xEFC60000
    word ^= word >> 18
    return word & MASK32


def untemper(output: int) -> int:
    """The state word behind an output (the inverse of :func:`temper`)."""
    word = output ^ (output >> 18)
    word ^= (word << 15) & 0xEFC60000  # its own inverse: the mask has no bit below 15 << 1
    # Shifts of 7 and 11 feed bits back into bits not yet settled: repeat until all 32 are.
    settled = word
    for _ in range(5):
        settled = word ^ ((settled << 7) & 0x9D2C5680)
    word = settled & MASK32
    settled = word
    for _ in range(3):
        settled = word ^ (settled >> 11)
    return settled & MASK32


def twist(first: int, second: int, middle: int) -> int:
    """The state word made from words ``k - N`` (``first``), ``k - N + 1`` and ``k - N + M``."""
    joined = (first & UPPER) | (second & LOWER)
    return middle ^ (joined >> 1) ^ (MATRIX_A if joined & 1 else 0)


class Twister:
    """A Mersenne Twister whose last 624 state words are known: it draws what the original
    draws next, word for word (``getrandbits`` as CPython fills it)."""

    def __init__(self, state: Sequence[int]) -> None:
        if len(state) != N:
            raise ValueError(f"a state is {N} words, not {len(state)}")
        self._words: deque[int] = deque(state, maxlen=N)

    def next_output(self) -> int:
        """The next 32-bit output."""
        words = self._words
        word = twist(words[0], words[1], words[M])
        words.append(word)  # the deque drops word k - N
        return temper(word)

    def getrandbits(self, bits: int) -> int:
        """What ``random.Random.getrandbits(bits)`` returns next (low 32-bit words first, the
        last one's surplus low bits dropped)."""
        value = 0
        for shift in range(0, bits, 32):
            output = self.next_output()
            if bits - shift < 32:
                output >>= 32 - (bits - shift)
            value |= output << shift
        return value


def recover(outputs: Sequence[int]) -> Twister:
    """The generator after ``outputs``: at least 624 consecutive whole 32-bit outputs (any after
    the first 624 are checked against the recovered state).

    Raises:
        NotEnoughOutputs: fewer than 624 outputs.
        NotATwister: an output after the first 624 is not what the state makes.
    """
    if len(outputs) < N:
        raise NotEnoughOutputs(f"{N} outputs are needed, not {len(outputs)}")
    twister = Twister([untemper(output) for output in outputs[:N]])
    for position, output in enumerate(outputs[N:], start=N):
        if twister.next_output() != output:
            raise NotATwister(f"output {position} does not follow the ones before it")
    return twister


def seed_words(seed: int, bits: int = 63) -> list[tuple[int, int]]:
    """The outputs a ``getrandbits(bits)`` value was made from, in order, as ``(value, known)``
    pairs: the output's top ``known`` bits are ``value``, its lower ones were dropped."""
    words = []
    for shift in range(0, bits, 32):
        known = min(32, bits - shift)
        words.append(((seed >> shift) & ((1 << known) - 1), known))
    return words


def recover_partial(words: Sequence[tuple[int, int]], *, lenient: bool = False) -> Twister:
    """The generator after consecutive outputs of which only the top bits are known (``(value,
    known)`` pairs, as :func:`seed_words` gives them).

    Each unknown low bit is a variable over GF(2); every word after the first 624 is the twist
    of three earlier ones, 32 linear equations in the variables of those four words. Solving
    them gives the words whole; the last 624 are the state.

    Args:
        words: the outputs in the order they were drawn.
        lenient: skip equations that contradict the ones before them instead of failing (an
            attacker's best guess from data that is not a Twister's: a state that fits part of
            it, to see whether it predicts anything).

    Raises:
        NotEnoughOutputs: fewer than 624 outputs, or some missing bit of the last 624 words is
            not determined by the equations.
        NotATwister: the equations contradict each other (unless ``lenient``).
    """
    count = len(words)
    if count < N:
        raise NotEnoughOutputs(f"{N} outputs are needed, not {count}")
    # Each word as a constant state word and, per variable, the state bits that variable flips.
    constants: list[int] = []
    flips: list[list[tuple[int, int]]] = []  # per word: (variable, its 32-bit flip vector)
    variables = 0
    for value, known in words:
        missing = 32 - known
        constants.append(untemper((value << missing) & MASK32))
        flips.append([(variables + bit, untemper(1 << bit)) for bit in range(missing)])
        variables += missing
    system = _System(variables)
    for k in range(N, count):
        constant = constants[k] ^ twist(
            constants[k - N], constants[k - N + 1], constants[k - N + M]
        )
        # Each bit of the word's own flips, the middle word's, and the two twisted words'.
        effects: list[tuple[int, int]] = [*flips[k], *flips[k - N + M]]
        effects += [(v, twist(vector, 0, 0)) for v, vector in flips[k - N]]
        effects += [(v, twist(0, vector, 0)) for v, vector in flips[k - N + 1]]
        for bit in range(32):
            row = sum(1 << v for v, vector in effects if vector >> bit & 1)
            system.add(row, constant >> bit & 1, lenient)
    values = system.solve({v for word in flips[count - N :] for v, _ in word})
    state = []
    for k in range(count - N, count):
        word = constants[k]
        for v, vector in flips[k]:
            word ^= vector if values[v] else 0
        state.append(word)
    return Twister(state)


class _System:
    """Linear equations over GF(2), kept in echelon form: a row is an ``int`` whose bit ``v``
    is variable ``v``, its right-hand side in the bit above every variable."""

    def __init__(self, variables: int) -> None:
        self.variables = variables
        self.rhs = 1 << variables
        self.rows: dict[int, int] = {}  # by pivot, the row's highest variable

    def add(self, row: int, rhs: int, lenient: bool) -> None:
        row |= self.rhs if rhs else 0
        while (variables := row & (self.rhs - 1)) != 0:
            pivot = variables.bit_length() - 1
            if pivot not in self.rows:
                self.rows[pivot] = row
                return
            row ^= self.rows[pivot]
        if row and not lenient:
            raise NotATwister("the outputs contradict each other: 0 = 1")

    def solve(self, needed: Iterable[int]) -> list[int]:
        """Values of every variable (free ones as 0).

        Raises:
            NotEnoughOutputs: a variable of ``needed`` depends on a free one.
        """
        values = [0] * self.variables
        undetermined = set()
        for pivot in sorted(self.rows):  # lower pivots first: their values are known
            row = self.rows[pivot]
            value = row >> self.variables & 1
            others = row & ((1 << pivot) - 1)
            while others:
                low = others & -others
                v = low.bit_length() - 1
                value ^= values[v]
                if v not in self.rows or v in undetermined:
                    undetermined.add(pivot)
                others ^= low
            values[pivot] = value
        free = {v for v in range(self.variables) if v not in self.rows} | undetermined
        if missing := sorted(free.intersection(needed)):
            raise NotEnoughOutputs(
                f"{len(missing)} missing bits of the last {N} words are not determined"
            )
        return values
