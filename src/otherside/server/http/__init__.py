"""The HTTP side: routes per resource, the browser pages, and the guards every request passes
first; :mod:`otherside.server.app` includes each module's router.

Concern → module:

- tables in the lobby: games on offer, create, join, leave, bots, start, stop, rematch,
  play on, lists, ratings → :mod:`.lobby`; its lists computed once for the many who ask at
  once → :mod:`.coalesce`
- a table's history, the replay of a finished game, its record → :mod:`.replays`; finished
  games' answers cached and their fetches counted → :mod:`.finished`
- a finished game's analysis by the bots → :mod:`.analysis`
- sign up, sign in, guests, sign out, who am I → :mod:`.accounts`; the e-mail address given,
  its confirmation link mailed again and followed → :mod:`.email`; a player's
  settings → :mod:`.settings`; a player's page (ratings, bests, recent games) →
  :mod:`.players`
- the bot API: an API token made, listed, revoked, and the bearer gate of every route →
  :mod:`.tokens`; the event stream and actions of programs → :mod:`.feed`; an account
  declared a bot → :mod:`.bot_account`; the protocol's page ``/docs/bots`` →
  :mod:`.bot_docs`
- tournaments (create, join, leave, bots, start) → :mod:`.tournaments`
- lessons → :mod:`.lessons`
- the browser pages (their routes, each page translated) → :mod:`.pages`
- the reader's language: which one a request is answered in → :mod:`.reader`; the switcher
  and the catalogs for the pages → :mod:`.language`; the API's documentation page →
  :mod:`.docs`
- what a route answers: the response schemas → :mod:`.schemas`; errors and refusals as HTTP
  answers (status, code, params, words) → :mod:`.errors`; the database out of reach (503
  with ``Retry-After``) → :mod:`.outage`
- what a route depends on (typed dependencies instead of ``app.state``) → :mod:`.deps`
- one client exhausting the process: bodies too large or too deep, control characters →
  :mod:`.guards` (the checks of text from outside, shared with the websocket:
  :mod:`.inputs`); a flood of refused requests braked → :mod:`.brake`; slow headers and
  connections per address, below HTTP → :mod:`.connections`
"""
