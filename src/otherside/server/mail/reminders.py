"""The words of a turn reminder by e-mail, in the recipient's language (the one they chose on
the switcher; English if none), its date by Babel in that language's way.

>>> from datetime import datetime, UTC
>>> subject, body = reminder_mail(
...     "de", name="Bob", game="VERSUS", others=["Ada"], waited=4, days=7,
...     end=datetime(2026, 12, 1, 18, 30, tzinfo=UTC), link="http://x/table/1")
>>> subject
'otherside: Du bist am Zug in VERSUS gegen Ada'
>>> "Dienstag, 1. Dezember 2026" in body
True
"""

from __future__ import annotations

from datetime import datetime

from babel.dates import format_datetime

from otherside.i18n import N_, Nn_, say, say_n, spoken

SUBJECT = N_("otherside: your move in {game} against {others}")
GREETING = N_("Hello {name},")
WAITED = Nn_(
    "your {game} game against {others} has waited {count} day for your move.",
    "your {game} game against {others} has waited {count} days for your move.",
)
DEADLINE = Nn_(
    "If you do not move by {end} UTC ({count} day without a move), the game ends and counts "
    "as a loss for you.",
    "If you do not move by {end} UTC ({count} days without a move), the game ends and counts "
    "as a loss for you.",
)
LINK = N_("Your move: {link}")
WHY = N_(
    "You get this mail because you gave this address for reminders on otherside; remove it "
    "in the lobby to get none."
)


def reminder_mail(
    language: str | None,
    *,
    name: str,
    game: str,
    others: list[str],
    waited: float,
    days: float,
    end: datetime,
    link: str,
) -> tuple[str, str]:
    """The subject and body of the reminder to ``name``, in ``language``."""
    lang = spoken(language)
    against = ", ".join(others)
    when = format_datetime(end, "EEEE d MMMM y, HH:mm", tzinfo=end.tzinfo, locale=lang)
    if lang == "de":
        # German writes the day with a point: "Dienstag, 1. Dezember 2026, 18:30".
        when = format_datetime(end, "EEEE, d. MMMM y, HH:mm", tzinfo=end.tzinfo, locale=lang)
    body = "\n\n".join(
        [
            say(lang, GREETING, name=name),
            say_n(lang, *WAITED, round(waited), game=game, others=against)
            + " "
            + say_n(lang, *DEADLINE, round(days), end=when),
            say(lang, LINK, link=link),
            say(lang, WHY),
        ]
    )
    return say(lang, SUBJECT, game=game, others=against), body + "\n"
