"""Live tables: one actor per table (:mod:`.actor`) running its commands in order, found and
started by the hub (:mod:`.hub`); the table in memory (:mod:`.live`); what the commands do —
playing (:mod:`.play`, stored by :mod:`.commit`, a late
action told by :mod:`.positions`), forfeits (:mod:`.forfeits`), deadlines and
clocks (:mod:`.deadlines`, :mod:`.timing`, :mod:`.pace`, :mod:`.scheduler`), chat
(:mod:`.chat`), bot turns (:mod:`.bot_turns`, choosing in :mod:`.bot_workers`), seats, start
and rematch (:mod:`.seating` on the pure rules of :mod:`.seat_rules`); refusals
(:mod:`.errors`); the games as the server offers them (:mod:`.adapters`)."""
