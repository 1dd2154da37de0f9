"""The words of the mail that confirms an account's address
(:mod:`otherside.server.accounts.email_links`), in the account's language as reminders are
(:mod:`.reminders`), its expiry by Babel in that language's way.

>>> from datetime import datetime, UTC
>>> subject, body = confirmation_mail(
...     "fr", name="Ada", link="http://x/confirm-email#abc",
...     end=datetime(2026, 11, 27, 10, 0, tzinfo=UTC))
>>> subject
'otherside : confirmez votre adresse e-mail'
>>> "http://x/confirm-email#abc" in body and "vendredi 27 novembre 2026" in body
True
"""

from __future__ import annotations

from datetime import datetime

from babel.dates import format_datetime

from otherside.i18n import N_, say, spoken

SUBJECT = N_("otherside: confirm your e-mail address")
GREETING = N_("Hello {name},")
ASKED = N_(
    "this address was given for turn reminders to the otherside account {name}. To confirm "
    "that it is yours, open this link and press the button on the page:"
)
EXPIRES = N_("The link works once, until {end} UTC.")
NOT_YOU = N_(
    "If you did not give this address, ignore this mail: no other mail will come to you "
    "from otherside."
)


def confirmation_mail(
    language: str | None, *, name: str, link: str, end: datetime
) -> tuple[str, str]:
    """The subject and body of the confirmation mail to the account ``name``, in
    ``language`` (English if it is none of the catalogs')."""
    lang = spoken(language)
    when = format_datetime(end, "EEEE d MMMM y, HH:mm", tzinfo=end.tzinfo, locale=lang)
    if lang == "de":
        # German writes the day with a point: "Freitag, 27. November 2026, 10:00".
        when = format_datetime(end, "EEEE, d. MMMM y, HH:mm", tzinfo=end.tzinfo, locale=lang)
    body = "\n\n".join(
        [
            say(lang, GREETING, name=name),
            say(lang, ASKED, name=name),
            link,
            say(lang, EXPIRES, end=when),
            say(lang, NOT_YOU),
        ]
    )
    return say(lang, SUBJECT), body + "\n"
