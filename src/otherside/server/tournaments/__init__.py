"""Tournaments: Swiss and round-robin events for people and bots.

The pure part decides, from the entrants in seed order and the games played so far, who meets
whom in the next round and how the entrants stand; it reads no database and knows no table:

- :mod:`.results`: a game of an event as data, and the points a finished game gives by rank;
- :mod:`.standings`: points and the tie-breaks (Buchholz, Sonneborn–Berger, wins);
- :mod:`.swiss`: Swiss pairing of duels (a maximum-weight matching: no repeat pairing where one
  is avoidable, a bye to the lowest-ranked entrant without one);
- :mod:`.groups`: tables of three to six (Verso) and the table sizes of a round;
- :mod:`.round_robin`: everyone meets everyone once (the circle, or Berger, method).

The server's side keeps the events in the database, makes the tables of each round (born
started, by the lobby's own seat rules), and records the results:

- :mod:`.director`: runs every event under way, round after round (one process at a time);
- :mod:`.boards`: a round's table made, seated, started and recorded as its board at once;
- :mod:`.events`: the transactions that read and change events; :mod:`.records`: an event as
  plain data;
- :mod:`.settings`: an event's settings as the host gives them, checked;
- :mod:`.refusals`: why an event refuses a request (a stable code, its status and words);
- :mod:`.absentees`: an absent partner's seat handed to a bot at tables without clocks.

The routes are :mod:`otherside.server.http.tournaments`.
"""
