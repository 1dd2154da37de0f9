"""Websockets: the message protocol and the endpoint."""
