"""What the server accepts as text from outside, checked once for every channel (HTTP bodies,
paths and queries, websocket messages): JSON no deeper than a limit, and strings without
control characters.

Deep JSON is refused before it is parsed, by a linear scan that counts brackets outside
strings: Python's parser recurses, and a 2,000-deep array would raise ``RecursionError``.
Control characters (NUL above all, which PostgreSQL cannot store) and lone surrogates (which
no database can encode) are refused wherever they hide: values and keys alike.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from otherside.i18n import DEFAULT, N_, say

JSON_DEPTH = 32


class InputRefused(ValueError):
    """Text the server does not take: a stable ``code``, its parameters and the words.

    Attributes:
        code: ``json_too_deep`` or ``control_character``.
        status: the HTTP status that refuses it (400 or 422).
        params: the values the words are made from.
    """

    def __init__(self, code: str, status: int, template: str, **params: Any) -> None:
        self.code = code
        self.status = status
        self.template = template
        self.params = params
        super().__init__(template.format(**params))

    def to_json(self, language: str = DEFAULT) -> dict[str, Any]:
        """The refusal as an HTTP error body, its words in ``language``."""
        return {
            "detail": say(language, self.template, **self.params),
            "code": self.code,
            "params": self.params,
        }


def json_depth(text: str | bytes) -> int:
    """How deeply arrays and objects nest in the JSON ``text`` (without parsing it).

    >>> json_depth('{"a": [1, [2]], "b": "[[["}')
    3
    >>> json_depth(b'"\\\\"[')
    0
    """
    data = text.encode() if isinstance(text, str) else text
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def check_depth(text: str | bytes, limit: int = JSON_DEPTH) -> None:
    """Refuse (400) JSON nested deeper than ``limit``.

    >>> check_depth("[" * 40 + "]" * 40)
    Traceback (most recent call last):
    ...
    otherside.server.http.inputs.InputRefused: JSON nested 40 levels deep; at most 32 are accepted
    """
    if isinstance(text, bytes):
        brackets = text.count(b"[") + text.count(b"{")
    else:
        brackets = text.count("[") + text.count("{")
    if brackets <= limit:
        return  # nothing can nest deeper than there are brackets (counted at C speed)
    depth = json_depth(text)
    if depth > limit:
        raise InputRefused(
            "json_too_deep",
            400,
            N_("JSON nested {depth} levels deep; at most {limit} are accepted"),
            depth=depth,
            limit=limit,
        )


def bad_character(text: str) -> str | None:
    """The first control character or lone surrogate in ``text``, if any.

    >>> bad_character("Ada"), bad_character("a\\x00b"), bad_character("tab\\there")
    (None, '\\x00', '\\t')
    """
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cs"):
            return char
    return None


def check_text(text: str, where: str) -> None:
    """Refuse (422) ``text`` holding a control character; ``where`` names the field.

    >>> check_text("hello", "chat")
    >>> check_text("he\\x00llo", "chat")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    otherside.server.http.inputs.InputRefused: chat holds the control character U+0000; ...
    """
    char = bad_character(text) if not text.isprintable() else None
    if char is not None:
        point = f"U+{ord(char):04X}"
        raise InputRefused(
            "control_character",
            422,
            N_("{field} holds the control character {character}; text may not hold one"),
            field=where,
            character=point,
        )


def check_strings(data: Any, where: str = "body") -> None:
    """Refuse (422) any string — value or key — in parsed JSON ``data`` holding a control
    character. Iterative, so that no shape of ``data`` makes it recurse."""
    if _all_printable(data):
        return  # the common case, without the path of every value made on the way
    pending: list[tuple[Any, str]] = [(data, where)]
    while pending:
        item, path = pending.pop()
        if isinstance(item, str):
            check_text(item, path)
        elif isinstance(item, dict):
            for key, value in item.items():
                check_text(str(key), path)
                pending.append((value, f"{path}.{key}"))
        elif isinstance(item, list):
            pending.extend((value, f"{path}[{index}]") for index, value in enumerate(item))


def _all_printable(data: Any) -> bool:
    """Whether every string and key of parsed JSON ``data`` is printable (then none holds a
    control character; a string that is not may still be allowed, :func:`check_text` says).

    >>> _all_printable({"a": ["b", {"c": 1}]}), _all_printable({"a": ["b\\n"]})
    (True, False)
    """
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not item.isprintable():
                return False
        elif isinstance(item, dict):
            for key in item:
                if not str(key).isprintable():
                    return False
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return True


def parse_json(text: str | bytes, limit: int = JSON_DEPTH, where: str = "body") -> Any:
    """``text`` parsed as JSON after the depth check, its strings checked; ``ValueError``
    (``json.JSONDecodeError``) when it is not JSON at all, :class:`InputRefused` when it is
    refused."""
    check_depth(text, limit)
    data = json.loads(text)
    check_strings(data, where)
    return data
