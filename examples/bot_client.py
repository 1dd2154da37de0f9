"""A bot for otherside in one file, with only httpx: it follows the account's event stream and
plays a random legal move whenever it is its turn (the protocol: /docs/bots on any server).

    python examples/bot_client.py http://127.0.0.1:8000 ots_yourtoken

Replace ``choose`` with your engine: it gets the ``yourTurn`` event (the game, the seat's
view, the legal actions in the game's notation) and returns one action.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

import httpx


# Actions a random player should not pick by chance: VERSUS lists giving up and offering a
# draw among the legal actions of every turn.
NOT_BY_CHANCE = {"resign", "offer-draw"}


def choose(turn: dict[str, Any]) -> str:
    """The action to play for a ``yourTurn`` event: a random move (an answer to a draw offer
    when that is all there is to do)."""
    moves = [action for action in turn["legal"] if action not in NOT_BY_CHANCE]
    return random.choice(moves or turn["legal"])


def play(server: str, token: str) -> None:
    """Follow the stream forever, reconnecting after a failure."""
    http = httpx.Client(
        base_url=server,
        headers={"Authorization": f"Bearer {token}"},
        timeout=httpx.Timeout(30.0, read=60.0),
    )
    while True:
        try:
            with http.stream("GET", "/api/stream/events") as stream:
                if stream.status_code != 200:
                    stream.read()
                    sys.exit(f"refused: {stream.status_code} {stream.text}")
                for line in stream.iter_lines():
                    if not line:
                        continue  # keep-alive
                    event = json.loads(line)
                    print(event["type"], event.get("version", ""))
                    if event["type"] == "yourTurn":
                        answer = http.post(
                            f"/api/tables/{event['table']}/act",
                            json={
                                "version": event["version"],
                                "takebacks": event.get("takebacks"),
                                "action": choose(event),
                            },
                        )
                        if answer.status_code != 200:
                            print("refused:", answer.json().get("code"))
        except httpx.TransportError as exc:
            print("connection lost:", exc)
            time.sleep(2)


if __name__ == "__main__":
    play(sys.argv[1], sys.argv[2])
