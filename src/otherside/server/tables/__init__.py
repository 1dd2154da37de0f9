"""Live tables: one actor per table running its commands in order, found and started by the
hub. A command is a class with ``run(live, services)``, kept in the module of its concern.

Concern → module:

- the actor (a table's queue and task, supervised; restart after a failure) → :mod:`.actor`;
  finding, loading and starting actors, who watches a table, idle tables let go, resuming
  games after a restart → :mod:`.hub`; what the commands use (store, clock, cluster, limits,
  bots) → :mod:`.services`
- the table in memory and its game rebuilt from the stored moves → :mod:`.live`
- a move played (its checks, in order) → :mod:`.play`; stored, then told to the watchers →
  :mod:`.commit`; an action chosen before a takeback (the version come back) told apart →
  :mod:`.positions`
- a clock running out, a reminder due, a round's timer → :mod:`.deadlines` (what is due),
  woken by :mod:`.scheduler` (when; it also sends the reminder e-mail); the clocks and
  deadlines after each change → :mod:`.timing`; the pace a host picks (live, turn-based,
  rounds) → :mod:`.pace`
- resigning, running out of time, leaving a started game → :mod:`.forfeits`
- a partner away at a game without clocks, handed to a bot → :mod:`.absence`
- a takeback asked, accepted or declined → :mod:`.takebacks` (its writes:
  :mod:`otherside.server.store.takebacks`); a draw offer is the game's own action (VERSUS),
  played as a move through :mod:`.play`
- a chat line (its limit, storing it, the recent lines) → :mod:`.chat`
- a bot's turn (when it acts, asking the actor to play its choice) → :mod:`.bot_turns`
  (the choice itself, in worker processes: :mod:`otherside.server.bots`); games of bots
  only, bounded → :mod:`.bot_tables`; a bot about to start a round waiting for a person's
  ``ready`` (also through another process) → :mod:`.ready`
- a seat change, bots put in, the start, a rematch → :mod:`.seating` (commands and writes) on
  the pure decisions of :mod:`.seat_rules`
- a refusal, of anything a table is asked (a seat, the start, a move, a takeback, a chat
  line): :class:`~otherside.server.tables.errors.Refused`, its code, status and words →
  :mod:`.errors`; an engine's refusal in the reader's language → :mod:`.refusals`; a bad
  setup (game, options, pace, bot spec) in words → :mod:`.setup_refusals`
- how a game ended, in words (a forfeit's reason written into its outcome, every outcome's
  words in the reader's language) → :mod:`.outcome_words`
- the games as the server offers them (title, options, board page) → :mod:`.adapters`
- a game's seed (the operating system's randomness) → :mod:`.entropy`

Elsewhere: following other server processes' changes → :mod:`otherside.server.cluster`;
the websocket messages in and out → :mod:`otherside.server.live`; the HTTP routes →
:mod:`otherside.server.http`.
"""
