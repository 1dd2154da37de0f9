"""Websockets and what goes over them: the table socket, its message protocol, the messages in
and out, who may hold a socket; and the words a table's wire carries for people.

Concern → module:

- the endpoint ``/ws/tables/{id}`` (a connection's queue, a slow client dropped) →
  :mod:`.sockets`; who it signs in (cookie or bearer token), checked before each message →
  :mod:`.signer`
- the message protocol (every message type, as schemas; the error codes) → :mod:`.protocol`
- a message in, turned into a command of the table's actor → :mod:`.inbox`
- the messages out (``table``, ``view``, ``chat``, ``error``) to every watcher →
  :mod:`.fanout`; a stored table in its wire form (the lobby's lists too), and each seat's
  name, the one every page, replay and record shows → :mod:`.wire`
- a websocket message flood (a token bucket per socket, closed 4429) →
  :mod:`.message_rate`; sockets per address and in all, a signed-out session's sockets
  closed → :mod:`.admission`
- a close frame's reason in the reader's language → :mod:`.close_words`; a pace and a bot in
  the reader's words → :mod:`.reader_words`
- waking the programs' event streams (:mod:`otherside.server.http.feed`) → :mod:`.nudges`
"""
