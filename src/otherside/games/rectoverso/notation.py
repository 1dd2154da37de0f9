"""Notation of pieces, placements, views and actions (``rules/rectoverso.md``, "Notation").

A placement is ``<piece> <x,y,z> …`` with the cells sorted; a view is one string per level from
the top level down, one character per column (``.`` empty); on one line (command-line options)
the levels are joined by ``/``. Actions: ``place <placement>``, ``remove <piece>``, ``done``,
and the table's ``turn`` (R13), ``reveal`` (R16) and ``timeout`` (R14).
"""

from __future__ import annotations

from dataclasses import dataclass

from otherside.core.errors import BadNotation
from otherside.games.rectoverso.construction import EMPTY, SITE, Placement, View
from otherside.games.rectoverso.pieces import BY_LETTER, BY_NAME, Piece

PIECE_NAMES = tuple(BY_NAME)
VIEW_CHARACTERS = EMPTY + "".join(BY_LETTER)
_SHAPE_WORDS = {
    "cube": "a single cube",
    "bar-2": "2 cubes in a row",
    "bar-3": "3 cubes in a row",
    "L-3": "an L of 2 + 1 cubes",
    "L-4": "an L of 3 + 1 cubes",
}


def parse_piece(text: str) -> Piece:
    """The piece named ``text`` (its colour).

    >>> parse_piece("yellow").shape
    'bar-3'
    >>> parse_piece("purple")
    Traceback (most recent call last):
    ...
    otherside.core.errors.BadNotation: 'purple': unknown piece; legal: black, white, grey, \
brown, green, pink, violet, orange, yellow, blue, red
    """
    piece = BY_NAME.get(text.strip().lower())
    if piece is None:
        raise BadNotation(text, "unknown piece", PIECE_NAMES)
    return piece


def _parse_cell(text: str, whole: str) -> tuple[int, int, int]:
    parts = text.split(",")
    try:
        if len(parts) != 3:
            raise ValueError
        x, y, z = (int(p) for p in parts)
    except ValueError:
        raise BadNotation(whole, f"{text!r} is not a cell x,y,z of whole numbers") from None
    return x, y, z


def parse_placement(text: str) -> Placement:
    """A placement from its notation (cells in any order; they must form the piece's shape).

    Cells outside the site parse (the rules, not the notation, reject them).

    >>> str(parse_placement("yellow 2,0,0 0,0,0 1,0,0"))
    'yellow 0,0,0 1,0,0 2,0,0'
    >>> parse_placement("yellow 0,0,0 1,0,0 2,1,0")
    Traceback (most recent call last):
    ...
    otherside.core.errors.BadNotation: 'yellow 0,0,0 1,0,0 2,1,0': these cells are not a bar-3 \
(3 cubes in a row)
    """
    words = text.split()
    if not words:
        raise BadNotation(text, "expected '<piece> <x,y,z> …'")
    piece = parse_piece(words[0])
    cells = [_parse_cell(word, text) for word in words[1:]]
    if len(cells) != piece.size:
        raise BadNotation(text, f"{piece.name} has {piece.size} cubes but {len(cells)} cells given")
    if len(set(cells)) != len(cells):
        raise BadNotation(text, "a cell is given twice")
    try:
        return Placement.make(piece, cells)
    except ValueError:
        shape = f"{piece.shape} ({_SHAPE_WORDS[piece.shape]})"
        raise BadNotation(text, f"these cells are not a {shape}") from None


def format_view(view: View) -> str:
    """A view on one line, levels top first joined by ``/``.

    >>> format_view(("..y.", "kbyo"))
    '..y./kbyo'
    """
    return "/".join(view)


def parse_view(text: str) -> View:
    """A view from its one-line notation (levels top first, joined by ``/`` or spaces).

    >>> parse_view("..y./kbyo")
    ('..y.', 'kbyo')
    >>> parse_view("..y/kbyo")
    Traceback (most recent call last):
    ...
    otherside.core.errors.BadNotation: '..y/kbyo': level '..y' must have 4 characters, one per \
column
    """
    levels = tuple(text.replace("/", " ").split())
    if not levels:
        raise BadNotation(text, "a view needs at least one level")
    for level in levels:
        if len(level) != SITE:
            raise BadNotation(text, f"level {level!r} must have {SITE} characters, one per column")
        bad = sorted(set(level) - set(VIEW_CHARACTERS))
        if bad:
            raise BadNotation(
                text, f"unknown colour letter {bad[0]!r}; letters: {' '.join(VIEW_CHARACTERS)}"
            )
    return levels


@dataclass(frozen=True)
class Place:
    """``place <placement>``: put an unplaced piece on the site."""

    placement: Placement

    def __str__(self) -> str:
        return f"place {self.placement}"


@dataclass(frozen=True)
class Remove:
    """``remove <piece>``: take a placed piece off the site."""

    piece: Piece

    def __str__(self) -> str:
        return f"remove {self.piece.name}"


@dataclass(frozen=True)
class Word:
    """An action that is a single word: ``done``, ``turn``, ``reveal`` or ``timeout``."""

    word: str

    def __str__(self) -> str:
        return self.word


DONE = Word("done")
TURN = Word("turn")
REVEAL = Word("reveal")
TIMEOUT = Word("timeout")
WORDS = {w.word: w for w in (DONE, TURN, REVEAL, TIMEOUT)}

Action = Place | Remove | Word


def parse_action(text: str) -> Action:
    """An action from its notation (legal or not).

    >>> str(parse_action("place green 0,0,0 0,1,0"))
    'place green 0,0,0 0,1,0'
    >>> str(parse_action("remove green")), str(parse_action("done"))
    ('remove green', 'done')
    >>> parse_action("build green")
    Traceback (most recent call last):
    ...
    otherside.core.errors.BadNotation: 'build green': unknown action; legal: place <placement>, \
remove <piece>, done, turn, reveal, timeout
    """
    words = text.split()
    forms = ["place <placement>", "remove <piece>", *WORDS]
    if not words:
        raise BadNotation(text, "empty action", forms)
    head, rest = words[0].lower(), " ".join(words[1:])
    if head == "place":
        return Place(parse_placement(rest))
    if head == "remove":
        if len(words) != 2:
            raise BadNotation(text, "expected 'remove <piece>'", PIECE_NAMES)
        return Remove(parse_piece(words[1]))
    if head in WORDS and len(words) == 1:
        return WORDS[head]
    raise BadNotation(text, "unknown action", forms)
