"""Attacks from outside against real server processes over real sockets."""
