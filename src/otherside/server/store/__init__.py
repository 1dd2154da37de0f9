"""Persistence: schema, migrations, queries."""
