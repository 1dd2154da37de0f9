"""E-mail: how it is sent, and the words of each kind of mail, in the recipient's language.
What decides that a mail is sent lives with its concern: a reminder due in
:mod:`otherside.server.tables.scheduler`, an address's confirmation in
:mod:`otherside.server.http.email` (on :mod:`otherside.server.accounts.email_links`).

Concern → module:

- sending by SMTP (the server named by URL, a worker thread, a failure logged), and what the
  routes mail with (the mailer and the server's public address) → :mod:`.smtp`
- a turn reminder's subject and body → :mod:`.reminders`
- an address's confirmation link, its subject and body → :mod:`.confirmation`
"""
