"""Announcements about accounts rather than tables, for the event streams of programs
(:mod:`otherside.server.live.nudges`): they go out on the tables' channel (:mod:`.peers`) in
the transaction of the change they tell of, so that whoever hears one finds it in the
database."""

from __future__ import annotations

# Accounts took seats at a table (``users``: their ids): their streams look for new tables.
SEATED = "seated"
# An API token was revoked (``token``: its id): the streams signed in with it end.
TOKEN_REVOKED = "token_revoked"
