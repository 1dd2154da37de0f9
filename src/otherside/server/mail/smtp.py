"""E-mail through an SMTP server named by URL: ``smtp://host:port`` (plain, for a local relay),
``smtp://user:password@host:587?starttls`` or ``smtps://host:465`` (TLS).

Mail is off unless a URL is given; then notices (a turn waiting for days) show in the lobby only.
Sending blocks on the network, so it runs in a worker thread and a failure is logged, never
raised into a game.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger("otherside.server")
TIMEOUT = 20.0


@dataclass(frozen=True)
class SmtpConfig:
    """Where and how to send mail."""

    host: str
    port: int
    tls: bool = False
    starttls: bool = False
    user: str | None = None
    password: str | None = None

    @classmethod
    def from_url(cls, url: str) -> SmtpConfig:
        """Parse ``smtp[s]://[user[:password]@]host[:port][?starttls]``.

        >>> SmtpConfig.from_url("smtp://127.0.0.1:2525")
        SmtpConfig(host='127.0.0.1', port=2525, tls=False, starttls=False, user=None, password=None)
        >>> SmtpConfig.from_url("http://x")
        Traceback (most recent call last):
        ...
        ValueError: an SMTP URL starts with smtp:// or smtps://, not 'http://x'
        """
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"an SMTP URL starts with smtp:// or smtps://, not {url!r}")
        tls = parts.scheme == "smtps"
        query = parse_qs(parts.query, keep_blank_values=True)
        return cls(
            host=parts.hostname,
            port=parts.port or (465 if tls else 25),
            tls=tls,
            starttls="starttls" in query,
            user=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
        )


class Mailer:
    """Sends plain-text mail from ``sender`` through the server of ``config``."""

    def __init__(self, config: SmtpConfig, sender: str) -> None:
        self.config = config
        self.sender = sender

    def send_now(self, to: str, subject: str, body: str) -> None:
        """Send one message (blocking); ``OSError``/``SMTPException`` on failure."""
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        config = self.config
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if config.tls:
            smtp = smtplib.SMTP_SSL(config.host, config.port, timeout=TIMEOUT, context=context)
        else:
            smtp = smtplib.SMTP(config.host, config.port, timeout=TIMEOUT)
        with smtp:
            if config.starttls:
                smtp.starttls(context=context)
            if config.user:
                smtp.login(config.user, config.password or "")
            # To ``to`` alone, whatever else mail software might read in its header.
            smtp.send_message(message, to_addrs=[to])

    async def send(self, to: str, subject: str, body: str) -> bool:
        """Send in a worker thread; ``False`` (and a log line) if it failed."""
        try:
            await asyncio.to_thread(self.send_now, to, subject, body)
        except (OSError, smtplib.SMTPException):
            log.exception("could not mail %s (%s)", to, subject)
            return False
        return True


@dataclass(frozen=True)
class Post:
    """What the server's routes mail with: its mailer (``None``: the server sends no mail) and
    its address as players reach it, for links in mail (no slash at the end)."""

    mailer: Mailer | None
    public_url: str
