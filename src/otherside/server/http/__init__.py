"""The HTTP API, routes per resource."""
