"""Who a request is, and what they may do: accounts, sessions, tokens, limits, security
headers. (The routes are :mod:`otherside.server.http.accounts`, :mod:`~otherside.server.http.tokens`
and :mod:`~otherside.server.http.settings`.)

Concern → module:

- signing up, in and out, guests, the password hash, the session cookie and its row →
  :mod:`.sessions`; who a cookie signs in, cached in memory (and forgotten on sign-out) →
  :mod:`.session_cache`
- a guest's name (``Heron-0427``) → :mod:`.guest_names`
- wrong passwords throttled per name and address → :mod:`.signin`
- a rate limit: the limits and their defaults, ``Throttles`` (every quota, built from them) →
  :mod:`.limits`; counting them in the database, across processes → :mod:`.limiter`; who a
  request counts as (an address, an IPv6 /64, a trusted proxy) → :mod:`.addresses`
- the rates of costly reads (the lobby's lists, a player's page, a lesson move) per account and
  per address, counted in the process's memory → :mod:`.rates`
- personal API tokens (a bot's or a script's sign-in), their scopes → :mod:`.tokens`
- another site's request refused (``Origin``), framing and content policy headers →
  :mod:`.security`
- an account's language (for its mail) → :mod:`.languages`; its settings (confirm moves) →
  :mod:`.settings`
- an e-mail address confirmed by a link mailed to it before any other mail goes there, where
  an account's mail goes, a plain address and the mailbox it reaches → :mod:`.email_links`
"""
