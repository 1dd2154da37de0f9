"""A mistyped command line's error in the terminal's language.

Typer writes the errors of parsing (an unknown option or command, a missing argument, a value
that is not a number, extra words) in English, in f-strings of its own copy of Click that no
catalog can reach. :func:`use` puts a step before Typer prints such an error: the errors
players meet are said again from the catalogs, from the parts the exception keeps (the option's
name, the possible options, the parameter). An error this module does not know, or whose
English it cannot read, is printed as Typer wrote it.
"""

from __future__ import annotations

import re
from typing import Any

import typer.rich_utils

from otherside.cli import language
from otherside.i18n import N_, say

NO_SUCH_OPTION = N_("No such option: {option}")
NO_SUCH_OPTION_LIKE = N_("No such option: {option} (possible options: {options})")
NO_SUCH_COMMAND = N_("No such command {name}.")
NO_SUCH_COMMAND_LIKE = N_("No such command {name}. Did you mean {names}?")
MISSING = {
    "argument": N_("Missing argument {name}."),
    "option": N_("Missing option {name}."),
}
INVALID = N_("Invalid value for {name}: {problem}")
EXTRA = N_("Got unexpected extra arguments ({words})")
# Pydantic's words for a value that is not of the option's type, by their start.
NOT_OF_TYPE = {
    "Input should be a valid integer": N_("a whole number is needed"),
    "Input should be a valid number": N_("a number is needed"),
}

_COMMAND = re.compile(r"No such command (?P<name>.+?)\.(?: Did you mean (?P<names>.+)\?)?")
_EXTRA = re.compile(r"Got unexpected extra argument\(s\) \((?P<words>.*)\)")
_typer_format_error = typer.rich_utils.rich_format_error


def reword(error: Any, chosen: str) -> str | None:
    """The message of Typer's parse ``error`` in ``chosen``, or None to keep Typer's own.

    Read from the exception's attributes where it keeps them, from its English where it
    keeps only that (an unknown command, extra arguments).
    """
    kind = type(error).__name__
    message = str(getattr(error, "message", ""))
    if kind == "NoSuchOption":
        options = ", ".join(sorted(getattr(error, "possibilities", None) or ()))
        template = NO_SUCH_OPTION_LIKE if options else NO_SUCH_OPTION
        return say(chosen, template, option=error.option_name, options=options)
    if kind == "MissingParameter":
        missing = MISSING.get(getattr(error, "param_type", None) or _param_type(error))
        name = _hint(error)
        if missing is None or name is None or message:
            return None
        return say(chosen, missing, name=name)
    if kind == "BadParameter":
        name = _hint(error)
        if name is None:
            return None
        # The commands' own refusals are said in the run's language already.
        problem = next(
            (say(chosen, said) for start, said in NOT_OF_TYPE.items() if message.startswith(start)),
            message,
        )
        return say(chosen, INVALID, name=name, problem=problem)
    if kind == "UsageError":
        if found := _COMMAND.fullmatch(message):
            if found["names"]:
                return say(chosen, NO_SUCH_COMMAND_LIKE, name=found["name"], names=found["names"])
            return say(chosen, NO_SUCH_COMMAND, name=found["name"])
        if found := _EXTRA.fullmatch(message):
            return say(chosen, EXTRA, words=found["words"])
    return None


def _param_type(error: Any) -> str:
    param = getattr(error, "param", None)
    return str(getattr(param, "param_type_name", ""))


def _hint(error: Any) -> str | None:
    """How the error names its parameter ('--players', 'file'), as Typer would."""
    hint = getattr(error, "param_hint", None)
    if hint is None and getattr(error, "param", None) is not None:
        hint = error.param.get_error_hint()
    if isinstance(hint, (list, tuple)):
        hint = " / ".join(hint)
    return str(hint) if hint else None


def _format_error(error: Any) -> None:
    """Typer's printing of ``error``, its message said in the run's language first."""
    words = reword(error, language.current())
    if words is not None:
        error.format_message = lambda: words
    _typer_format_error(error)


def use() -> None:
    """Print the command line's errors in the run's language from now on."""
    # Typer calls it through the module (``rich_utils.rich_format_error(e)``), so this is
    # where its printing can be reached.
    typer.rich_utils.rich_format_error = _format_error  # type: ignore[assignment]
