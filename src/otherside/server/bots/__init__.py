"""Running bots' decisions: a bot's choice made off the event loop, within a time cap, fair
across tables, in worker processes that end with the server. Both a table's bot turns
(:mod:`otherside.server.tables.bot_turns`) and a finished game's analysis
(:mod:`otherside.server.analysis`) go through it; what a bot is and how it chooses is
:mod:`otherside.bots`'.

Concern → module:

- the runner: decisions and analysis jobs queued, the quick lane, the time cap, a worker
  killed and replaced when its time is up, the random fall-back → :mod:`.workers`
- fair turns across tables → :mod:`.queue`
- one worker process and its pipe (started once, one job at a time, answers matched to their
  jobs by number) → :mod:`.pipe`
- the worker process itself (``python -m otherside.server.bots.process``): its frames, its
  jobs, its watchdog on the server → :mod:`.process`
"""
