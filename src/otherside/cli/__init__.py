"""The terminal adapter: typer commands and Rich rendering. No rules live here."""
