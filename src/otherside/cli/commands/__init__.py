"""Command groups. Every module here defines ``register(app)`` adding its commands to the
``otherside`` app (a typer sub-app such as ``otherside verso …`` or a command like ``serve``)."""
