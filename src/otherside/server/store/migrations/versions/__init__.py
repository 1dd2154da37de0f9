"""The Alembic revisions, one module per schema change, named by their number: a new one
takes the highest number + 1 and names its predecessor in ``down_revision``."""
