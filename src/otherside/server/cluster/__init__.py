"""Several server processes on one database: leases and notifications."""
