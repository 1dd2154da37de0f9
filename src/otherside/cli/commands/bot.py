"""``otherside bot run``: the reference client of the protocol for programs (``/docs/bots``).

It follows the account's event stream (``GET /api/stream/events``, NDJSON) with an API token
and answers every ``yourTurn`` with ``POST /api/tables/{id}/act``, at every table where the
account is seated, until stopped (or after ``--games`` games); a dropped stream is opened
again by itself, waiting a little longer after each failure in a row.

The action comes from one of the project's bots (``--bot greedy``, ``--bot search:think=2``:
a spec of :mod:`otherside.bots.spec`), choosing from the view and the legal actions exactly as
it does at the server's tables; or from an outside program (``--command "python my_bot.py"``)
that reads each event as one JSON line on its standard input and answers every ``yourTurn``
with one line on its standard output: the action, in the game's notation.
"""

from __future__ import annotations

import importlib
import json
import random
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from typing import IO, Annotated, Any

import httpx
import typer

from otherside.bots.spec import BotSpec, checked, make
from otherside.i18n import N_

# Where each game's notation is read (``parse_action``): the bots choose among actions.
NOTATION = {
    "verso": "otherside.games.verso.actions",
    "versus": "otherside.games.versus.notation",
    "rectoverso": "otherside.games.rectoverso.notation",
}
LONGEST_WAIT = 30.0
ACT_RETRIES = 5  # times an action refused for the moment (429, 5xx) is sent again
Chooser = Callable[[dict[str, Any]], str]

app = typer.Typer(help=N_("Play an account's games with a program, through an API token."))


class TokenRefused(Exception):
    """The server refused the token (unknown, revoked or without the ``play`` scope)."""


def bot_chooser(spec_text: str, seed: int | None = None) -> Chooser:
    """The action of bot ``spec_text`` for a ``yourTurn`` event (one bot per game, made on
    first use). ``ValueError`` if the spec is malformed."""
    spec = BotSpec.parse(spec_text)
    rng = random.Random(seed)
    made: dict[str, Any] = {}

    def choose(event: dict[str, Any]) -> str:
        game = str(event["game"])
        if game not in made:
            made[game] = make(game, checked(game, str(spec)))
        parse = importlib.import_module(NOTATION[game]).parse_action
        legal = [parse(text) for text in event["legal"]]
        return str(made[game].choose(event["view"], legal, rng))

    return choose


def _retry_after(answer: httpx.Response) -> float:
    """Seconds to wait before sending again: the server's ``Retry-After``, else 1, at most 10.

    >>> _retry_after(httpx.Response(429, headers={"Retry-After": "3"}))
    3.0
    >>> _retry_after(httpx.Response(503))
    1.0
    """
    try:
        return min(10.0, max(0.0, float(answer.headers.get("retry-after", "1"))))
    except ValueError:
        return 1.0


class CommandChooser:
    """An outside program: every event goes to its standard input as a JSON line; for a
    ``yourTurn`` it answers with one line, the action."""

    def __init__(self, command: str) -> None:
        self.process = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def tell(self, event: dict[str, Any]) -> None:
        """Pass an event on."""
        stdin: IO[str] | None = self.process.stdin
        if stdin is None:
            raise RuntimeError("the program's input is closed")
        stdin.write(json.dumps(event) + "\n")
        stdin.flush()

    def __call__(self, event: dict[str, Any]) -> str:
        self.tell(event)
        stdout = self.process.stdout
        line = stdout.readline() if stdout is not None else ""
        if not line:
            raise RuntimeError(f"the program ended (exit code {self.process.poll()})")
        return line.strip()

    def close(self) -> None:
        """Stop the program (its input closed first, so that it may end by itself)."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


class BotClient:
    """Plays an account's games through the protocol for programs (see the module)."""

    def __init__(
        self,
        server: str,
        token: str,
        choose: Chooser,
        tell: Callable[[dict[str, Any]], None] | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        self.http = httpx.Client(
            base_url=server.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(30.0, read=60.0),
        )
        self.choose = choose
        self.tell = tell
        self.say = say
        self.ended = 0

    def run(self, games: int | None = None) -> None:
        """Follow the stream until ``games`` games have ended (``None``: forever),
        reconnecting after a failure; :class:`TokenRefused` if the token is refused."""
        wait = 1.0
        while games is None or self.ended < games:
            try:
                self.follow(games)
                wait = 1.0
            except (httpx.TransportError, httpx.RemoteProtocolError) as exc:
                self.say(f"connection lost ({type(exc).__name__}); again in {wait:g} s")
                time.sleep(wait)
                wait = min(LONGEST_WAIT, wait * 2)

    def follow(self, games: int | None) -> None:
        """One stream, read to its end (or until ``games`` games have ended)."""
        with self.http.stream("GET", "/api/stream/events") as stream:
            if stream.status_code in (401, 403):
                stream.read()
                raise TokenRefused(stream.json().get("detail", stream.text))
            if stream.status_code != 200:
                stream.read()
                raise httpx.TransportError(f"HTTP {stream.status_code}: {stream.text[:200]}")
            self.say("following the account's events")
            for line in stream.iter_lines():
                if not line.strip():
                    continue  # keep-alive
                self.on_event(json.loads(line))
                if games is not None and self.ended >= games:
                    return

    def on_event(self, event: dict[str, Any]) -> None:
        """Act on one event of the stream."""
        kind = event.get("type")
        if self.tell is not None and kind != "yourTurn":
            self.tell(event)
        if kind == "tableStart":
            table = event["table"]
            self.say(f"{table['title']} {table['id']} started: seat {event['seat']}")
        elif kind == "tableEnd":
            self.ended += 1
            table = event["table"]
            self.say(f"{table['title']} {table['id']} over: {json.dumps(table['outcome'])}")
        elif kind == "yourTurn":
            self.play(event)

    def play(self, event: dict[str, Any]) -> None:
        """Choose and send the action a ``yourTurn`` asks for; a refusal is said, and the
        stream's next ``yourTurn`` (a newer version) is answered instead."""
        action = self.choose(event)
        # The count of takebacks too: an action retried after a takeback is refused, not
        # played in a position it was not chosen for.
        body = {"version": event["version"], "takebacks": event.get("takebacks"), "action": action}
        answer = self.http.post(f"/api/tables/{event['table']}/act", json=body)
        for _ in range(ACT_RETRIES):
            # Too many requests, or the server busy or its database away: nothing was played,
            # and no new turn will come for this one, so the same action is sent again.
            if answer.status_code != 429 and answer.status_code < 500:
                break
            time.sleep(_retry_after(answer))
            answer = self.http.post(f"/api/tables/{event['table']}/act", json=body)
        if answer.status_code in (401, 403):
            raise TokenRefused(answer.json().get("detail", answer.text))
        if answer.status_code != 200:
            body = (
                answer.json()
                if answer.headers.get("content-type", "").startswith("application/json")
                else {"detail": answer.text}
            )
            self.say(f"{action!r} refused: {body.get('code')}: {body.get('detail')}")


def run(
    server: Annotated[str, typer.Option(help="The server's address, e.g. http://127.0.0.1:8000")],
    token: Annotated[
        str, typer.Option(help="An API token of the account (scope play), from POST /api/tokens.")
    ],
    bot: Annotated[
        str | None,
        typer.Option(help="One of the project's bots, e.g. greedy or search:think=2."),
    ] = None,
    command: Annotated[
        str | None,
        typer.Option(
            help="An outside program speaking the protocol on stdin/stdout (see /docs/bots)."
        ),
    ] = None,
    games: Annotated[
        int | None, typer.Option(help="Stop after this many games have ended (default: never).")
    ] = None,
) -> None:
    """Play the account's games at every table where it is seated, with a bot or a program."""
    if (bot is None) == (command is None):
        raise typer.BadParameter("give either --bot or --command")
    outside = CommandChooser(command) if command is not None else None
    try:
        choose: Chooser = outside if outside is not None else bot_chooser(str(bot))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    client = BotClient(server, token, choose, tell=outside.tell if outside else None, say=_say)
    try:
        client.run(games)
    except TokenRefused as exc:
        typer.echo(f"the server refused the token: {exc}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        pass
    finally:
        if outside is not None:
            outside.close()


def _say(text: str) -> None:
    typer.echo(text)
    sys.stdout.flush()


app.command(
    "run",
    help=N_("Play the account's games at every table where it is seated, with a bot or a program."),
)(run)


def register(root: typer.Typer) -> None:
    """Add ``otherside bot run``."""
    root.add_typer(app, name="bot")
