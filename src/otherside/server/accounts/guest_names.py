"""The names of guest accounts: a word and a number (``Heron-0427``), drawn from the operating
system's randomness.

Guests are never deleted, and four digits make 90,000 names: a busy public server runs out of
them, and each guest made on a nearly full space draws many taken names first (the draw used to
loop until it found a free one, for ever once none was left, holding a database thread each
time). So a few taken draws make the number a digit longer, then longer again
(:func:`guest_names`): a new guest's name is found in a few draws however many guests came
before, and should every draw be taken the guest is refused rather than looped on.

A name of a guest's form is a guest's alone (:func:`is_guest_form`): sign-up refuses it, so
that no account passes for a guest, and nobody can take the guests' names away by signing them
up.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator

GUEST_WORDS = ("Heron", "Otter", "Lynx", "Puffin", "Marten", "Ibis", "Gecko", "Wren", "Tapir")
# The digits of a guest's number: 90,000 names, then 9 million, then 900 million... The
# longest ("Puffin-" and ten digits) is well within a name's 24 characters.
DIGITS = (4, 6, 8, 10)
DRAWS_PER_WIDTH = 4  # taken draws before the number grows a digit
_GUEST_FORM = re.compile(rf"^(?:{'|'.join(GUEST_WORDS)})-\d+$", re.IGNORECASE)


def guest_names() -> Iterator[str]:
    """The names to try for a new guest, in order: a few of four digits, then of more.

    >>> names = list(guest_names())
    >>> len(names), [len(name.split("-")[1]) for name in names[::DRAWS_PER_WIDTH]]
    (16, [4, 6, 8, 10])
    >>> all(is_guest_form(name) for name in names)
    True
    """
    for digits in DIGITS:
        for _ in range(DRAWS_PER_WIDTH):
            number = secrets.randbelow(10**digits)
            yield f"{secrets.choice(GUEST_WORDS)}-{number:0{digits}d}"


def is_guest_form(name: str) -> bool:
    """Whether ``name`` has the form of a guest's name (whatever its case).

    >>> is_guest_form("Heron-0427"), is_guest_form("heron-12345678"), is_guest_form("Heron")
    (True, True, False)
    >>> is_guest_form("Herons-0427"), is_guest_form("Ada-0427")
    (False, False)
    """
    return _GUEST_FORM.match(name) is not None
