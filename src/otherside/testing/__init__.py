"""What the tests and the benchmarks share to drive the real thing from outside: server
processes (:mod:`otherside.testing.servers`). Nothing the platform runs imports it."""
